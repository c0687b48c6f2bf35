//! What the envelope's text says that its parsed [`Value`] no longer does.
//!
//! serde_json (built here without `arbitrary_precision`) reads a number
//! into a `u64`, an `i64` or an `f64`: `100000000000000000000` comes back as
//! `1e20`, `-0` as `-0.0`, `1e3` as `1000.0`. A JSON-RPC id is echoed back
//! to the client as it was sent, so a number id is taken from the text, not
//! from the value. And arguments sent as a JSON value nested deeper than
//! the limit are found here, before parsing, so that they can be kept as
//! their text instead of being built (see [`super::Reader::max_depth`]).
//!
//! The scan is one pass over the bytes with a stack of the open containers
//! (heap-allocated, so any depth is fine). It runs on text that may not be
//! JSON; its findings are only used once the text parsed.

use serde_json::Value;
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// The members the readers take arguments from, in every format: Anthropic
/// `input`, Gemini `args`, OpenAI, MCP and plain `arguments`.
const ARGUMENT_KEYS: [&str; 3] = ["input", "args", "arguments"];
/// The members the readers take a call's id from.
const ID_KEYS: [&str; 2] = ["id", "call_id"];

/// What one scan found.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// Where each number under an id key stands in the text, by JSON
    /// pointer (the last member of a repeated key wins, as in the parse).
    pub(super) ids: HashMap<String, Range<usize>>,
    /// The deepest nesting outside argument members: the envelope's own
    /// levels.
    pub(super) own_nesting: usize,
    /// Each argument member whose value is an array or an object, by JSON
    /// pointer: its text's place and its nesting (`{}` is one level).
    pub(super) arguments: HashMap<String, Member>,
}

/// An argument member's value in the text.
#[derive(Debug, Clone)]
pub(super) struct Member {
    pub(super) range: Range<usize>,
    pub(super) nesting: usize,
}

enum Frame {
    /// An object, with the key of the member being read (`None` between a
    /// `{` or `,` and the next key).
    Object(Option<String>),
    /// An array, with the index of the element being read.
    Array(usize),
}

/// An argument member being skipped: where it started, how deep it is.
struct Open {
    pointer: String,
    start: usize,
    depth: usize,
    deepest: usize,
}

/// Scans `text` (see the module docs).
pub(super) fn scan(text: &str) -> Scan {
    let bytes = text.as_bytes();
    let mut found = Scan::default();
    let mut frames: Vec<Frame> = Vec::new();
    let mut open: Option<Open> = None;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if let Some(member) = &mut open {
            // Inside an argument value only its nesting matters.
            match byte {
                b'"' => {
                    i = string_end(bytes, i);
                    continue;
                }
                b'[' | b'{' => {
                    member.depth += 1;
                    member.deepest = member.deepest.max(member.depth);
                }
                b']' | b'}' => {
                    member.depth -= 1;
                    if member.depth == 0
                        && let Some(member) = open.take()
                    {
                        found.arguments.insert(
                            member.pointer,
                            Member {
                                range: member.start..i + 1,
                                nesting: member.deepest,
                            },
                        );
                    }
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match byte {
            b'"' => {
                let end = string_end(bytes, i);
                if let Some(Frame::Object(key @ None)) = frames.last_mut() {
                    let raw = text.get(i..end).unwrap_or_default();
                    let name = decode_key(raw);
                    let watched =
                        ARGUMENT_KEYS.contains(&name.as_str()) || ID_KEYS.contains(&name.as_str());
                    *key = Some(name);
                    if watched {
                        // A repeated key replaces the member read before it.
                        let at = pointer(&frames);
                        found.arguments.remove(&at);
                        found.ids.remove(&at);
                    }
                }
                i = end;
                continue;
            }
            b'[' | b'{' => {
                if let Some(Frame::Object(Some(key))) = frames.last()
                    && ARGUMENT_KEYS.contains(&key.as_str())
                {
                    open = Some(Open {
                        pointer: pointer(&frames),
                        start: i,
                        depth: 1,
                        deepest: 1,
                    });
                    i += 1;
                    continue;
                }
                frames.push(if byte == b'{' {
                    Frame::Object(None)
                } else {
                    Frame::Array(0)
                });
                found.own_nesting = found.own_nesting.max(frames.len());
            }
            b']' | b'}' => {
                frames.pop();
            }
            b',' => match frames.last_mut() {
                Some(Frame::Array(index)) => *index += 1,
                Some(Frame::Object(key)) => *key = None,
                None => {}
            },
            b'-' | b'0'..=b'9' => {
                let end = i + bytes[i..]
                    .iter()
                    .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .unwrap_or(bytes.len() - i);
                if let Some(Frame::Object(Some(key))) = frames.last()
                    && ID_KEYS.contains(&key.as_str())
                {
                    found.ids.insert(pointer(&frames), i..end);
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The index just past the string that starts at `start` (its quote), or
/// the text's end when it is not closed.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    loop {
        match bytes
            .get(i..)
            .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
        {
            None => return bytes.len(),
            Some(k) if bytes[i + k] == b'\\' => i += k + 2,
            Some(k) => return i + k + 1,
        }
    }
}

/// A key's text (with its quotes) as the parser reads it.
fn decode_key(raw: &str) -> String {
    if raw.contains('\\') {
        serde_json::from_str(raw).unwrap_or_default()
    } else {
        raw.trim_matches('"').to_owned()
    }
}

/// The JSON pointer of the member or element being read.
fn pointer(frames: &[Frame]) -> String {
    let mut out = String::new();
    for frame in frames {
        out.push('/');
        match frame {
            Frame::Object(key) => {
                let key = key.as_deref().unwrap_or_default();
                out.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Frame::Array(index) => out.push_str(&index.to_string()),
        }
    }
    out
}

/// The envelope's text beside its parsed value, for what the value lost.
pub(super) struct Source<'a> {
    text: Option<&'a str>,
    scan: OnceCell<Scan>,
    /// Argument members kept as their text (too deep to be built): where
    /// the value now holds that text as a string.
    textified: HashSet<String>,
    /// Whether an object of the text had a key twice.
    repeated: bool,
}

impl<'a> Source<'a> {
    /// No text: a value the application parsed itself.
    pub(super) fn none() -> Self {
        Source {
            text: None,
            scan: OnceCell::new(),
            textified: HashSet::new(),
            repeated: false,
        }
    }

    /// The text `value` was parsed from; `scan` if it was already scanned;
    /// `repeated`, whether an object of it had a key twice.
    pub(super) fn new(
        text: &'a str,
        scan: Option<Scan>,
        textified: HashSet<String>,
        repeated: bool,
    ) -> Self {
        Source {
            text: Some(text),
            scan: scan.map(OnceCell::from).unwrap_or_default(),
            textified,
            repeated,
        }
    }

    /// The id a number at `pointer` was sent as: its JSON text, or (no
    /// text to read it from) serde_json's rendering of it.
    pub(super) fn number_id(&self, pointer: &str, number: &serde_json::Number) -> String {
        self.text
            .and_then(|text| {
                let range = self.scan.get_or_init(|| scan(text)).ids.get(pointer)?;
                text.get(range.clone())
            })
            .map_or_else(|| number.to_string(), str::to_owned)
    }

    /// An id member's value as a call id: a string, or a number's text.
    pub(super) fn id(&self, value: &Value, pointer: &str) -> Option<String> {
        match value {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(self.number_id(pointer, n)),
            _ => None,
        }
    }

    /// Whether the arguments at `path` in the entry at `at` were kept as
    /// their text.
    pub(super) fn is_textified(&self, at: &str, path: &[&str]) -> bool {
        !self.textified.is_empty() && self.textified.contains(&member_pointer(at, path))
    }

    /// The text of the arguments at `path` in the entry at `at`, an object
    /// or an array, when one of its objects has a key twice. The parsed
    /// value kept the last member and lost the repeat, which serde's derive
    /// refuses ([`crate::repeated_keys`]): read as their text, the
    /// arguments show it, as they do when a format sends text or a stream
    /// of the same call.
    pub(super) fn repeating_arguments(&self, at: &str, path: &[&str]) -> Option<&'a str> {
        if !self.repeated {
            return None;
        }
        let text = self.text?;
        let pointer = member_pointer(at, path);
        let member = self
            .scan
            .get_or_init(|| scan(text))
            .arguments
            .get(&pointer)?;
        let raw = text.get(member.range.clone())?;
        (!crate::repeated_keys::pointers(raw, member.nesting).is_empty()).then_some(raw)
    }
}

/// The pointer of the member at `path` in the entry at `at` (`path` holds
/// the readers' own keys, which need no escaping).
fn member_pointer(at: &str, path: &[&str]) -> String {
    let mut pointer = at.to_owned();
    for key in path {
        pointer.push('/');
        pointer.push_str(key);
    }
    pointer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_number_ids_and_argument_members_by_pointer() {
        let text = r#"[{"id": 1e3, "params": {"arguments": {"a": [[1]], "id": 5}}},
            {"x": "}]", "\u0069d": -0, "input": [], "input": 7}]"#;
        let found = scan(text);
        let id = |p: &str| found.ids.get(p).map(|r| &text[r.clone()]);
        assert_eq!(id("/0/id"), Some("1e3"));
        assert_eq!(id("/1/id"), Some("-0"));
        // Ids inside arguments are the tool's business, not the call's.
        assert_eq!(id("/0/params/arguments/id"), None);
        let member = &found.arguments["/0/params/arguments"];
        assert_eq!(member.nesting, 3);
        assert_eq!(&text[member.range.clone()], r#"{"a": [[1]], "id": 5}"#);
        // A repeated key replaces the member before it.
        assert!(!found.arguments.contains_key("/1/input"));
        assert_eq!(found.own_nesting, 3);
    }

    #[test]
    fn never_panics_on_text_that_is_not_json() {
        for text in [
            "",
            "\"",
            "{\"id\":",
            "]]]}}",
            "{\"input\":[[",
            "\"\\",
            "{\"a\"\"b\":1,}",
        ] {
            let _ = scan(text);
        }
    }
}
