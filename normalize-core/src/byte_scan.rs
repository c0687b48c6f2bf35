//! Tests of a few bytes asked of nearly every string, where the answer is
//! almost always "no": whether a short byte string holds a byte of some
//! kind (a streamed fragment inside a string, a string value without `&`),
//! and whether a decoded string opens like JSON.

/// Whether any byte of `bytes` passes `test`. Every byte is tested, without
/// an early exit: the compiler then compares 16 bytes at a time, which costs
/// less than a search that stops early when, as here, most texts hold none
/// (a search also pays its setup).
#[inline(always)]
pub(crate) fn holds_any(bytes: &[u8], test: impl Fn(u8) -> bool) -> bool {
    bytes.iter().fold(false, |seen, &byte| seen | test(byte))
}

/// The first byte of a decoded string after JSON whitespace. A string whose
/// first is `[` or `{` is the only kind a JSON-string repair reads.
#[inline]
pub(crate) fn first_after_whitespace(text: &str) -> Option<u8> {
    // Most strings start with a letter: one comparison answers.
    match text.as_bytes().first() {
        Some(b' ' | b'\t' | b'\n' | b'\r') => text
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .as_bytes()
            .first()
            .copied(),
        first => first.copied(),
    }
}

/// Whether a decoded string begins, after JSON whitespace, with `[` or `{`.
#[inline]
pub(crate) fn opens_like_json(text: &str) -> bool {
    matches!(first_after_whitespace(text), Some(b'[' | b'{'))
}
