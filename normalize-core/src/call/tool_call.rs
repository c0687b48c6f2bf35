//! One tool call as read from any wire format: its name, id and
//! arguments as they arrived ([`Arguments`]), and how those become a JSON
//! value within the nesting limit.

use super::WireFormat;
use crate::json_text;
use crate::rejection::{SyntaxError, SyntaxKind};
use serde::Serialize;
use serde_json::Value;

/// A call's arguments as they arrived.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Arguments {
    /// JSON text (the format sends the arguments as a string of JSON).
    Text(String),
    /// A JSON value.
    Value(Value),
}

impl Arguments {
    /// The arguments as a JSON value: text is parsed (text that is empty or
    /// only JSON whitespace is `{}`, a call with no arguments), a value is
    /// taken as is. (The readers of every wire format have already turned
    /// absent and `null` arguments, and a JSON string value that is empty or
    /// only JSON whitespace, into `{}`; a value an application builds itself
    /// is its own.)
    ///
    /// # Errors
    ///
    /// [`SyntaxError`] of kind [`SyntaxKind::Arguments`] when the text is
    /// not JSON (whitespace other than JSON's four included) or nests
    /// deeper than `max_depth` (then with no line and column).
    ///
    /// Text is read as [`crate::json::read`] reads a document, safe at any
    /// `max_depth`, and the value drops as serde_json drops it: see there.
    pub fn into_value(self, max_depth: usize) -> Result<Value, SyntaxError> {
        self.into_value_inspected(max_depth)
            .map(|(value, _, _)| value)
    }

    /// [`Arguments::into_value`], also saying whether normalization could
    /// change anything (see [`json_text::TextFacts::may_need_repair`], here
    /// learned by the parse; a
    /// value that arrived parsed is assumed to need it), and where text had
    /// a key twice in one object ([`crate::repeated_keys`]; a value that
    /// arrived parsed kept one member of each, and says nothing).
    pub(crate) fn into_value_inspected(
        self,
        max_depth: usize,
    ) -> Result<(Value, bool, crate::repeated_keys::Read), SyntaxError> {
        match self {
            // Held to the limit text is held to, with the same rejection:
            // how the format sent the arguments does not change the answer.
            Arguments::Value(value) => match nesting(&value) {
                found if found > max_depth => {
                    crate::deep::drop_value(value);
                    Err(SyntaxError::too_deep(
                        SyntaxKind::Arguments,
                        found,
                        max_depth,
                    ))
                }
                _ => Ok((value, true, crate::repeated_keys::Read::UNKNOWN)),
            },
            Arguments::Text(text) if is_json_whitespace(&text) => {
                Ok((Value::Object(Default::default()), false, Default::default()))
            }
            Arguments::Text(text) => match json_text::from_str_tracked(&text, max_depth, None) {
                Ok((value, may_need_repair, read)) => Ok((value, may_need_repair, read)),
                Err(error) => Err(SyntaxError::of_text(SyntaxKind::Arguments, error, &text)),
            },
        }
    }
}

/// How deep `value` nests, counted as [`json_text::nesting`] counts its
/// text (`{}` is one level, a scalar none): without recursion, holding one
/// iterator per open level.
pub(super) fn nesting(value: &Value) -> usize {
    let mut open: Vec<Children<'_>> = Vec::new();
    open.extend(Children::of(value));
    let mut deepest = open.len();
    while let Some(level) = open.last_mut() {
        match level.next() {
            Some(child) => {
                if let Some(children) = Children::of(child) {
                    open.push(children);
                    deepest = deepest.max(open.len());
                }
            }
            None => {
                open.pop();
            }
        }
    }
    deepest
}

/// The members of an array or an object, in turn.
enum Children<'a> {
    Items(std::slice::Iter<'a, Value>),
    Members(serde_json::map::Values<'a>),
}

impl<'a> Children<'a> {
    fn of(value: &'a Value) -> Option<Self> {
        match value {
            Value::Array(items) => Some(Children::Items(items.iter())),
            Value::Object(members) => Some(Children::Members(members.values())),
            _ => None,
        }
    }
}

impl<'a> Iterator for Children<'a> {
    type Item = &'a Value;

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Children::Items(items) => items.next(),
            Children::Members(members) => members.next(),
        }
    }
}

/// Empty, or only the whitespace JSON allows between tokens (RFC 8259:
/// space, tab, line feed, carriage return). `str::trim` would also take
/// Unicode spaces such as U+00A0 and U+3000, which are not JSON whitespace:
/// text made of them is not JSON, and not "no arguments".
pub(crate) fn is_json_whitespace(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// One tool call, whatever format it came in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// The call's id in its format (`id`, `call_id`), if it had one; echo it
    /// back with the result.
    pub id: Option<String>,
    /// The tool the model asked for.
    pub name: String,
    /// The arguments, as sent.
    pub arguments: Arguments,
    /// The format it came in.
    pub format: WireFormat,
}

impl ToolCall {
    /// A call with JSON-value arguments, as an application builds one.
    pub fn new(name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            id: None,
            name: name.into(),
            arguments: Arguments::Value(arguments),
            format: WireFormat::Plain,
        }
    }
}
