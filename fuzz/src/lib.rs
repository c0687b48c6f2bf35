//! Support for the fuzz targets: bounded JSON values and schemas built from
//! the fuzzer's bytes, and the invariants normalization must keep.
#![forbid(unsafe_code)]

pub mod invariants;
pub mod json_gen;

/// The deepest nesting of arrays and objects in `text`, brackets inside
/// strings not counted: the oracle for the reader's nesting limit, written
/// apart from it.
pub fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for byte in text.bytes() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}
