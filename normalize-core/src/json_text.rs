//! Parsing JSON text with a nesting limit we choose, instead of serde_json's
//! fixed 128, without risking the stack on hostile input.

use serde::Deserialize;
use serde_json::Value;

/// Why a JSON text was not parsed.
#[derive(Debug, thiserror::Error)]
pub enum JsonTextError {
    /// The text nests arrays and objects deeper than allowed.
    #[error("JSON nests {found} levels deep, more than the limit of {limit}")]
    TooDeep {
        /// Nesting found (counted before parsing).
        found: usize,
        /// The limit in force.
        limit: usize,
    },
    /// The text is not JSON (RFC 8259, nothing trailing).
    #[error(transparent)]
    Syntax(#[from] serde_json::Error),
}

/// The deepest nesting of arrays and objects in a JSON text, counted without
/// parsing (brackets inside strings do not count). Text that is not JSON gets
/// a number too; it only bounds what a parse could build.
pub fn nesting(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => {
                // Skip the string in strides: only a quote or a backslash
                // can end or escape within it.
                i += 1;
                loop {
                    let Some(rest) = bytes.get(i..) else {
                        return deepest;
                    };
                    match memchr::memchr2(b'"', b'\\', rest) {
                        None => return deepest,
                        Some(k) if rest[k] == b'\\' => i += k + 2,
                        Some(k) => {
                            i += k + 1;
                            break;
                        }
                    }
                }
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// Parses strict JSON (surrounding whitespace allowed, nothing trailing, no
/// `NaN`) that nests at most `max_depth` levels.
///
/// # Errors
///
/// [`JsonTextError::TooDeep`] before any parsing when the text nests deeper
/// than `max_depth`; [`JsonTextError::Syntax`] when it is not JSON.
pub fn from_str(text: &str, max_depth: usize) -> Result<Value, JsonTextError> {
    let found = nesting(text);
    if found > max_depth {
        return Err(JsonTextError::TooDeep {
            found,
            limit: max_depth,
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // The nesting was checked above, so the parser's own (fixed) limit is
    // not needed; it would reject depths the caller allowed.
    de.disable_recursion_limit();
    let value = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_nesting_outside_strings() {
        assert_eq!(nesting("1"), 0);
        assert_eq!(nesting("[[1],{\"a\":[]}]"), 3);
        assert_eq!(nesting("[\"[[[\\\"[[\"]"), 1);
        assert_eq!(nesting(r#"["\\", [1]]"#), 2);
        assert_eq!(nesting(r#"["\"[", [1]]"#), 2);
        assert_eq!(nesting(r#"[["unterminated"#), 2);
        assert_eq!(nesting(r#"[["ends in a backslash\"#), 2);
    }

    #[test]
    fn limits_depth_before_parsing() {
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        assert!(matches!(
            from_str(&deep, 200),
            Err(JsonTextError::TooDeep { found: 300, .. })
        ));
        assert!(from_str(&deep, 300).is_ok());
    }

    #[test]
    fn is_strict() {
        assert!(from_str(" [1] \n", 8).is_ok());
        assert!(from_str("[1] x", 8).is_err());
        assert!(from_str("NaN", 8).is_err());
        assert!(from_str("[1,]", 8).is_err());
    }
}
