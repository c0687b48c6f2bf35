//! Tool calls as models send them, read from each provider's wire format
//! into one [`ToolCall`].
//!
//! | format | what is read |
//! |--------|--------------|
//! | [`WireFormat::OpenAiChat`] | a `tool_calls` entry (`function.name`, `function.arguments` as JSON text; a `custom` call is kept as [`Unreadable::FreeForm`]), a list of them, an assistant message (also its deprecated `function_call`), a transcript, or a whole completion (`choices[].message`, each choice an alternative) |
//! | [`WireFormat::OpenAiResponses`] | a `function_call` item (`name`, `arguments` as JSON text, `call_id`; a `custom_tool_call` is kept as [`Unreadable::FreeForm`]), a list of items, or a response (`output`) |
//! | [`WireFormat::Anthropic`] | a `tool_use` block (`name`, `input`, `id`), a list of content blocks, a message (`content`, a list or text), or a transcript |
//! | [`WireFormat::Gemini`] | a `functionCall` or `function_call` (`name`, `args`, `id`), a part holding one, a list of parts, a content (`parts`), a transcript, or a response (`candidates[].content`, each candidate an alternative) |
//! | [`WireFormat::McpToolsCall`] | `tools/call` params (`name`, `arguments`), the whole JSON-RPC request (its `id` is the call's id, a number as its JSON text), or a batch |
//! | [`WireFormat::Plain`] | `{"name": ..., "arguments": ...}` |
//!
//! Gemini is read in both spellings everywhere: the REST API writes
//! `functionCall`, the Python SDK's own serializers (`model_dump_json()`,
//! `to_json_dict()`) write `function_call`, with `null` for every unset
//! member.
//!
//! **Each call on its own.** [`read`] returns one [`CallEntry`] per place a
//! call stands, each with its own outcome: a [`ToolCall`], or an
//! [`UnreadableCall`] naming the entry (a JSON pointer into the envelope),
//! why it cannot be read, its id and name where they could be read, and the
//! raw entry, so that the application can answer it or keep it in history.
//! A malformed entry never costs the calls beside it. Items that are not
//! calls (text, reasoning, tool results, calls the provider ran itself) are
//! not entries. [`parse`] is the all-or-nothing convenience over it.
//!
//! **Alternatives stay apart.** A completion with `n > 1` (or a Gemini
//! response with several candidates) holds alternative answers to one
//! turn: each entry says its [`choice`](CallEntry::choice), and
//! [`ReadCalls::into_turn`] and [`parse`] refuse to merge calls of two
//! alternatives into one list.
//!
//! **No arguments.** In every format, arguments that are absent, `null`, or
//! text that is empty or only JSON whitespace (space, tab, line feed,
//! carriage return) mean "no arguments": `{}`. Other whitespace
//! (`"\u{a0}"`, `"\u{3000}"`) is not JSON whitespace: as text it is a
//! [`SyntaxError`]. Any other value goes to normalization and validation as
//! sent: where a format sends the arguments as JSON text (OpenAI), the text
//! is kept as [`Arguments::Text`] and parsed by the toolbox, which reports a
//! [`SyntaxError`] with line and column inside that text; where a format
//! sends a JSON value, a string there is left to normalization's root rule
//! (decoded when it holds a JSON object, since every tool's schema declares
//! an object). A call an application builds with [`ToolCall::new`] carries
//! its value as it is.

mod detect;
mod formats;
mod read;

pub use detect::detect;
pub use read::{CallEntry, ReadCalls, SeveralChoices, Unreadable, UnreadableCall};

use crate::json_text::{self, JsonTextError};
use crate::rejection::{SyntaxError, SyntaxKind};
use serde::Serialize;
use serde_json::Value;

/// The provider format a call came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WireFormat {
    /// OpenAI Chat Completions `tool_calls`.
    OpenAiChat,
    /// OpenAI Responses `function_call` items.
    OpenAiResponses,
    /// Anthropic Messages `tool_use` blocks.
    Anthropic,
    /// Gemini `functionCall` parts.
    Gemini,
    /// MCP `tools/call` request params.
    McpToolsCall,
    /// `{"name": ..., "arguments": ...}`.
    Plain,
}

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
    /// deeper than `max_depth`.
    pub fn into_value(self, max_depth: usize) -> Result<Value, SyntaxError> {
        self.into_value_inspected(max_depth).map(|(value, _)| value)
    }

    /// [`Arguments::into_value`], also saying whether normalization could
    /// change anything (see [`json_text::TextFacts::may_need_repair`]); a
    /// value that arrived parsed is assumed to need it.
    pub(crate) fn into_value_inspected(
        self,
        max_depth: usize,
    ) -> Result<(Value, bool), SyntaxError> {
        match self {
            Arguments::Value(value) => Ok((value, true)),
            Arguments::Text(text) if is_json_whitespace(&text) => {
                Ok((Value::Object(Default::default()), false))
            }
            Arguments::Text(text) => match json_text::from_str_inspected(&text, max_depth) {
                Ok((value, facts)) => Ok((value, facts.may_need_repair)),
                Err(JsonTextError::Syntax(e)) => {
                    Err(SyntaxError::json(SyntaxKind::Arguments, None, &e))
                }
                Err(JsonTextError::TooDeep { found, limit }) => Err(SyntaxError {
                    kind: SyntaxKind::Arguments,
                    line: None,
                    column: None,
                    pointer: None,
                    message: format!(
                        "arguments nest {found} levels deep, more than the limit of {limit}"
                    ),
                }),
            },
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

/// Parses `text` as JSON and reads every entry in it, detecting the format
/// from its shape: each entry is a call or an [`UnreadableCall`], and one
/// never costs the others.
///
/// # Errors
///
/// [`SyntaxError`] only when the text is not JSON (with line and column),
/// no known format fits it, or it is no envelope at all (a number, a
/// string). A malformed entry inside a good envelope is not an error of the
/// whole: it is an [`UnreadableCall`] in its place.
///
/// ```
/// use toolargs_core::call::{read, Unreadable};
///
/// // One good call beside one the toolbox cannot read (a custom tool's
/// // free-form input): the good one is kept.
/// let message = r#"{"role":"assistant","tool_calls":[
///   {"id":"call_a","type":"function","function":{"name":"refund","arguments":"{}"}},
///   {"id":"call_b","type":"custom","custom":{"name":"run_sql","input":"SELECT 1"}}]}"#;
/// let read = read(message)?;
/// let [good, free_form] = &read.entries[..] else { panic!("two entries") };
/// assert_eq!(good.call.as_ref().unwrap().name, "refund");
/// let unreadable = free_form.call.as_ref().unwrap_err();
/// assert_eq!(unreadable.entry, "/tool_calls/1");
/// assert_eq!(unreadable.id.as_deref(), Some("call_b")); // answer it with this id
/// assert!(matches!(&unreadable.reason, Unreadable::FreeForm { input } if input == "SELECT 1"));
/// # Ok::<(), toolargs_core::rejection::SyntaxError>(())
/// ```
pub fn read(text: &str) -> Result<ReadCalls, SyntaxError> {
    let value = parse_envelope(text)?;
    let format = detect(&value).ok_or_else(|| {
        SyntaxError::shape(
            "",
            "not a tool call in a known format (OpenAI, Anthropic, Gemini, MCP or {\"name\", \"arguments\"})",
        )
    })?;
    formats::read(format, value)
}

/// [`read`] in a format the application knows.
///
/// # Errors
///
/// [`SyntaxError`]: not JSON, or no envelope at all.
pub fn read_as(format: WireFormat, text: &str) -> Result<ReadCalls, SyntaxError> {
    formats::read(format, parse_envelope(text)?)
}

/// [`read`] of an already parsed value in `format`.
///
/// # Errors
///
/// [`SyntaxError`] of kind [`SyntaxKind::Shape`] when `value` is neither an
/// object nor a list.
pub fn read_value(format: WireFormat, value: Value) -> Result<ReadCalls, SyntaxError> {
    formats::read(format, value)
}

/// Parses `text` as JSON and reads every tool call in it, detecting the
/// format from its shape: all or nothing, for an application that runs
/// one turn's calls together. [`read`] keeps each call apart instead.
///
/// # Errors
///
/// [`SyntaxError`]: the text is not JSON (with line and column), no known
/// format fits it, it holds no call, an entry cannot be read (the first
/// such entry, by pointer: use [`read`] to keep the good calls beside it),
/// or its calls come from several alternative choices (see
/// [`ReadCalls::into_calls`]).
///
/// ```
/// use toolargs_core::call::{parse, WireFormat};
///
/// let calls = parse(r#"{"type":"tool_use","id":"toolu_1","name":"refund","input":{"amount_cents":20}}"#)?;
/// assert_eq!(calls[0].name, "refund");
/// assert_eq!(calls[0].format, WireFormat::Anthropic);
/// # Ok::<(), toolargs_core::rejection::SyntaxError>(())
/// ```
pub fn parse(text: &str) -> Result<Vec<ToolCall>, SyntaxError> {
    read(text)?.into_calls()
}

/// [`parse`] in a format the application knows.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_as(format: WireFormat, text: &str) -> Result<Vec<ToolCall>, SyntaxError> {
    read_as(format, text)?.into_calls()
}

/// [`parse`] of an already parsed value in `format`.
///
/// # Errors
///
/// As [`parse`]; shape errors name the member that does not fit the format.
pub fn from_value(format: WireFormat, value: Value) -> Result<Vec<ToolCall>, SyntaxError> {
    read_value(format, value)?.into_calls()
}

fn parse_envelope(text: &str) -> Result<Value, SyntaxError> {
    json_text::from_str(text, crate::DEFAULT_MAX_DEPTH).map_err(|e| match e {
        JsonTextError::Syntax(e) => SyntaxError::json(SyntaxKind::Envelope, None, &e),
        JsonTextError::TooDeep { found, limit } => SyntaxError {
            kind: SyntaxKind::Envelope,
            line: None,
            column: None,
            pointer: None,
            message: format!("the call nests {found} levels deep, more than the limit of {limit}"),
        },
    })
}
