//! Tool calls as models send them, read from each provider's wire format
//! into one [`ToolCall`].
//!
//! | format | what is read |
//! |--------|--------------|
//! | [`WireFormat::OpenAiChat`] | a `tool_calls` entry (`function.name`, `function.arguments` as JSON text), a list of them, an assistant message, or a whole completion (`choices[].message.tool_calls`) |
//! | [`WireFormat::OpenAiResponses`] | a `function_call` item (`name`, `arguments` as JSON text, `call_id`), a list of items, or a response (`output`) |
//! | [`WireFormat::Anthropic`] | a `tool_use` block (`name`, `input`, `id`), a list of content blocks, or a message (`content`) |
//! | [`WireFormat::Gemini`] | a `functionCall` (`name`, `args`, `id`), a part holding one, a list of parts, a content (`parts`) or a response (`candidates[].content`) |
//! | [`WireFormat::McpToolsCall`] | `tools/call` params (`name`, `arguments`) or the whole JSON-RPC request |
//! | [`WireFormat::Plain`] | `{"name": ..., "arguments": ...}` |
//!
//! Items that are not tool calls (text blocks, reasoning items) are skipped.
//! Where a format sends the arguments as JSON text (OpenAI), the text is
//! kept as [`Arguments::Text`] and parsed by the toolbox, which reports a
//! [`SyntaxError`] with line and column inside that text; an empty text means
//! "no arguments" (`{}`). Where a format sends a JSON value, a string there
//! is left to normalization's root rule (decoded when it holds a JSON
//! object, since every tool's schema declares an object).

mod detect;
mod formats;

pub use detect::detect;

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
    /// The arguments as a JSON value: text is parsed (an empty or
    /// whitespace-only text is `{}`, a call with no arguments), a value is
    /// taken as is.
    ///
    /// # Errors
    ///
    /// [`SyntaxError`] of kind [`SyntaxKind::Arguments`] when the text is
    /// not JSON or nests deeper than `max_depth`.
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
            Arguments::Text(text) if text.trim().is_empty() => {
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

/// Parses `text` as JSON and reads every tool call in it, detecting the
/// format from its shape.
///
/// # Errors
///
/// [`SyntaxError`]: the text is not JSON (with line and column), or no
/// known format fits it.
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
    let value = parse_envelope(text)?;
    let format = detect(&value).ok_or_else(|| {
        SyntaxError::shape(
            "",
            "not a tool call in a known format (OpenAI, Anthropic, Gemini, MCP or {\"name\", \"arguments\"})",
        )
    })?;
    from_value(format, value)
}

/// Parses `text` as JSON and reads the tool calls of `format` in it.
///
/// # Errors
///
/// [`SyntaxError`]: not JSON, or not that format.
pub fn parse_as(format: WireFormat, text: &str) -> Result<Vec<ToolCall>, SyntaxError> {
    from_value(format, parse_envelope(text)?)
}

/// Reads the tool calls of `format` from an already parsed value.
///
/// # Errors
///
/// [`SyntaxError`] of kind [`SyntaxKind::Shape`] naming the member that
/// does not fit the format.
pub fn from_value(format: WireFormat, value: Value) -> Result<Vec<ToolCall>, SyntaxError> {
    formats::read(format, value)
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
