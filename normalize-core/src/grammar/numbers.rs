//! The text each number of a schema was written with.
//!
//! serde_json (without `arbitrary_precision`, which would change every
//! user's `Number`) keeps a number as a `u64`, `i64` or `f64`, and writes it
//! back from that: `1e2` comes back as `100.0`, `12345678901234567890123`
//! as `1.2345678901234568e22`, `-0` as `-0.0`. A grammar that writes an
//! `enum` or `const` value from the parsed schema forces that text, not the
//! schema's (in the second case not even the same number). So the schema's
//! number texts are recorded apart, by JSON pointer, from the JSON text the
//! schema was parsed from, and the grammar writes those.

use crate::json_text;
use crate::plan::reference::push_token;
use crate::rejection::{SyntaxError, SyntaxKind};
use serde_json::{Number, Value};
use std::collections::HashMap;

/// The source text of every number in a JSON document, by JSON pointer
/// (RFC 6901, `""` for the document itself), for
/// [`Grammar::from_schema_with_numbers`](super::Grammar::from_schema_with_numbers)
/// and [`CallGrammar::with_numbers`](super::CallGrammar::with_numbers).
///
/// ```
/// use toolargs_core::grammar::{Grammar, NumberTexts};
///
/// let text = r#"{"enum": [1e2, 0.5, -0]}"#;
/// let schema = serde_json::from_str(text)?;
/// let numbers = NumberTexts::scan(text)?;
/// let grammar = Grammar::from_schema_with_numbers(&schema, &numbers)?;
/// assert!(grammar.gbnf().contains(r#""1e2" | "0.5" | "-0""#));
/// // From the value alone, serde_json's text.
/// assert!(Grammar::from_schema(&schema)?.gbnf().contains(r#""100.0""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NumberTexts {
    texts: HashMap<String, Box<str>>,
}

impl NumberTexts {
    /// The numbers of `json`, one JSON text (nested at any depth). Where an
    /// object repeats a key, the last member counts, as when serde_json
    /// parses it.
    ///
    /// # Errors
    ///
    /// [`SyntaxError`] of kind [`SyntaxKind::Document`] when `json` is not
    /// one JSON value, as [`crate::json::read`] would say.
    pub fn scan(json: &str) -> Result<Self, SyntaxError> {
        json_text::check_with_facts(json, json_text::inspect(json), usize::MAX)
            .map_err(|e| SyntaxError::of_text(SyntaxKind::Document, e, json))?;
        Ok(Self {
            texts: record(json),
        })
    }

    /// Those under `pointer`, with pointers relative to it: the numbers of
    /// a schema that sits inside a larger document (a tool definition's
    /// `parameters`). Empty when `pointer` names nothing.
    pub fn under(&self, pointer: &str) -> Self {
        let texts = self
            .texts
            .iter()
            .filter_map(|(at, text)| {
                let rest = at.strip_prefix(pointer)?;
                (rest.is_empty() || rest.starts_with('/')).then(|| (rest.to_owned(), text.clone()))
            })
            .collect();
        Self { texts }
    }

    /// Whether no number was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// The text of the number `number` at `pointer`, when the one recorded
    /// there reads as that very number (a table scanned from another text,
    /// or a schema changed since, falls back to serde_json's text).
    pub(crate) fn text(&self, pointer: &str, number: &Number) -> Option<&str> {
        let text = self.texts.get(pointer)?;
        let read: Number = serde_json::from_str(text).ok()?;
        (read == *number).then_some(&**text)
    }
}

/// Where the scan of a container stands.
enum Frame {
    /// Inside an array, at element `index`; `base` is the container's
    /// pointer length.
    Array { base: usize, index: usize },
    /// Inside an object; the next string is a key when `key_next`.
    Object { base: usize, key_next: bool },
}

/// Every number's text by pointer. `json` is well-formed JSON (checked by
/// the caller), so the scan only follows structure: no recursion, so any
/// nesting is safe.
fn record(json: &str) -> HashMap<String, Box<str>> {
    let bytes = json.as_bytes();
    let mut texts = HashMap::new();
    let mut pointer = String::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'{' => {
                stack.push(Frame::Object {
                    base: pointer.len(),
                    key_next: true,
                });
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Array {
                    base: pointer.len(),
                    index: 0,
                });
                pointer.push_str("/0");
                i += 1;
            }
            b']' | b'}' => {
                if let Some(Frame::Array { base, .. } | Frame::Object { base, .. }) = stack.pop() {
                    pointer.truncate(base);
                }
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Array { base, index }) => {
                        *index += 1;
                        pointer.truncate(*base);
                        pointer.push('/');
                        pointer.push_str(&index.to_string());
                    }
                    Some(Frame::Object { key_next, .. }) => *key_next = true,
                    None => {}
                }
                i += 1;
            }
            b'"' => {
                let end = string_end(bytes, i);
                if let Some(Frame::Object { base, key_next }) = stack.last_mut()
                    && *key_next
                {
                    *key_next = false;
                    let quoted = &json[i..end];
                    let key = if quoted.contains('\\') {
                        // Well-formed (checked), so this decodes.
                        serde_json::from_str::<String>(quoted).unwrap_or_default()
                    } else {
                        quoted[1..quoted.len() - 1].to_owned()
                    };
                    pointer.truncate(*base);
                    push_token(&mut pointer, &key);
                }
                i = end;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while bytes
                    .get(i)
                    .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    i += 1;
                }
                texts.insert(pointer.clone(), json[start..i].into());
            }
            _ => i += 1,
        }
    }
    texts
}

/// The index just past the string that opens at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The minified JSON text of `value`, which sits at `pointer` in the schema:
/// serde_json's, but each number as `numbers` records it.
pub(crate) fn literal_text(value: &Value, pointer: &str, numbers: &NumberTexts) -> String {
    if numbers.is_empty() {
        return value.to_string();
    }
    let mut out = String::new();
    let mut at = pointer.to_owned();
    write(value, &mut at, numbers, &mut out, 0);
    out
}

fn write(value: &Value, at: &mut String, numbers: &NumberTexts, out: &mut String, depth: usize) {
    let len = at.len();
    match value {
        Value::Number(number) => match numbers.text(at, number) {
            Some(text) => out.push_str(text),
            None => out.push_str(&number.to_string()),
        },
        Value::Array(items) => crate::deep::guard(depth, || {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                at.push('/');
                at.push_str(&i.to_string());
                write(item, at, numbers, out, depth + 1);
                at.truncate(len);
            }
            out.push(']');
        }),
        Value::Object(map) => crate::deep::guard(depth, || {
            out.push('{');
            for (i, (key, member)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                push_token(at, key);
                write(member, at, numbers, out, depth + 1);
                at.truncate(len);
            }
            out.push('}');
        }),
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scan_records_each_number_where_it_sits() {
        let text = r#" {"a": [1e2, {"b/c~": -0}], "d\u0065": 12345678901234567890123, "s": "9"} "#;
        let numbers = NumberTexts::scan(text).unwrap();
        let mut found: Vec<(&str, &str)> = numbers
            .texts
            .iter()
            .map(|(k, v)| (k.as_str(), &**v))
            .collect();
        found.sort_unstable();
        assert_eq!(
            found,
            [
                ("/a/0", "1e2"),
                ("/a/1/b~1c~0", "-0"),
                ("/de", "12345678901234567890123")
            ]
        );
        let under = numbers.under("/a/1");
        assert_eq!(under.texts.len(), 1);
        assert_eq!(under.texts.get("/b~1c~0").map(|t| &**t), Some("-0"));
        assert!(numbers.under("/a/1/b").is_empty());
        assert!(NumberTexts::scan("[1,").is_err());
        assert!(NumberTexts::scan("1 2").is_err());
    }

    #[test]
    fn a_recorded_text_is_used_only_for_its_own_number() {
        let numbers = NumberTexts::scan(r#"{"const": 1e2, "enum": [[0.50, {"k": 7}]]}"#).unwrap();
        assert_eq!(literal_text(&json!(100.0), "/const", &numbers), "1e2");
        // Another number where the table says `1e2`: the value's own text.
        assert_eq!(literal_text(&json!(100), "/const", &numbers), "100");
        assert_eq!(
            literal_text(&json!([0.5, {"k": 7}]), "/enum/0", &numbers),
            r#"[0.50,{"k":7}]"#
        );
        assert_eq!(
            literal_text(&json!(100.0), "/const", &NumberTexts::default()),
            "100.0"
        );
    }

    #[test]
    fn deep_documents_scan_without_recursion() {
        let depth = 50_000;
        let text = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let numbers = NumberTexts::scan(&text).unwrap();
        assert_eq!(numbers.texts.values().next().map(|t| &**t), Some("1"));
    }
}
