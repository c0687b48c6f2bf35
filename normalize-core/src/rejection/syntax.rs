//! The parse phase's rejection: the text is not JSON, or the JSON is not a
//! tool call in a format we know.

use serde::Serialize;

use crate::json_text::JsonTextError;
use std::fmt;

/// What kind of syntax problem was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SyntaxKind {
    /// The call's envelope (the message, block or item) is not JSON.
    Envelope,
    /// The arguments, sent as JSON text inside the envelope (OpenAI's
    /// `arguments` string), are not JSON.
    Arguments,
    /// The JSON parsed but is not a tool call in the expected format
    /// (a missing `name`, an `arguments` of the wrong type, ...).
    Shape,
    /// A JSON document read on its own ([`crate::json::read`]: a schema, a
    /// tools file), not a call. No [`crate::rejection::Rejection`] carries
    /// this kind.
    Document,
}

/// Not JSON, or not a tool call: where it went wrong and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    /// Which text was wrong.
    pub kind: SyntaxKind,
    /// 1-based line in that text (`None` for [`SyntaxKind::Shape`]).
    pub line: Option<usize>,
    /// 1-based column in that line (`None` for [`SyntaxKind::Shape`]).
    pub column: Option<usize>,
    /// JSON pointer into the envelope of the offending member, when known
    /// (`/function/arguments`, `/content/1/name`).
    pub pointer: Option<String>,
    /// What the parser said.
    pub message: String,
}

impl SyntaxError {
    /// A JSON parse error of `kind` at the position `error` reports, raised
    /// parsing `text` (a lone surrogate escape named at the escape, see
    /// `json_text::describe_error`).
    pub(crate) fn json(
        kind: SyntaxKind,
        pointer: Option<String>,
        error: &serde_json::Error,
        text: &str,
    ) -> Self {
        let (line, column, message) = crate::json_text::describe_error(text, error);
        SyntaxError {
            kind,
            line: Some(line),
            column: Some(column),
            pointer,
            message,
        }
    }

    /// The error for `text` of `kind` that the crate's parser refused: where
    /// the parser stopped (a lone surrogate escape named at the escape), or
    /// the nesting, worded for the text it was.
    pub(crate) fn of_text(kind: SyntaxKind, error: JsonTextError, text: &str) -> Self {
        match error {
            JsonTextError::Syntax(error) => SyntaxError::json(kind, None, &error, text),
            JsonTextError::TooDeep { found, limit } => SyntaxError::too_deep(kind, found, limit),
        }
    }

    /// A text of `kind` that nests `found` levels, past `limit`, worded for
    /// the text it was: however it was found (the parse, a scan, a parsed
    /// value's nesting, a stream), the rejection is this one.
    pub(crate) fn too_deep(kind: SyntaxKind, found: usize, limit: usize) -> Self {
        let what = match kind {
            SyntaxKind::Arguments => "arguments nest",
            SyntaxKind::Envelope | SyntaxKind::Shape => "the call nests",
            SyntaxKind::Document => "JSON nests",
        };
        SyntaxError {
            kind,
            line: None,
            column: None,
            pointer: None,
            message: format!("{what} {found} levels deep, more than the limit of {limit}"),
        }
    }

    /// A text refused before parsing because it crosses a limit of the
    /// options (its size, or its nesting).
    pub(crate) fn limit(kind: SyntaxKind, error: &impl fmt::Display) -> Self {
        SyntaxError {
            kind,
            line: None,
            column: None,
            pointer: None,
            message: error.to_string(),
        }
    }

    /// A call of the wrong shape: `pointer` names the member, `message` what
    /// was expected there.
    pub(crate) fn shape(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        SyntaxError {
            kind: SyntaxKind::Shape,
            line: None,
            column: None,
            pointer: Some(pointer.into()),
            message: message.into(),
        }
    }

    /// The message for the model's repair turn. A text refused with no
    /// position (nested past a limit, a blank line of JSON Lines) is not
    /// called invalid JSON: it may be valid, and the model is told what
    /// stopped the reading instead.
    pub fn model_message(&self) -> String {
        // What the text is called when read at a place, when refused with
        // none, and what to send again.
        let (invalid, unread, again) = match self.kind {
            SyntaxKind::Arguments => (
                "The tool call's arguments are not valid JSON",
                "The tool call's arguments could not be read",
                "Send the arguments again as one JSON object.",
            ),
            SyntaxKind::Envelope => (
                "The tool call is not valid JSON",
                "The tool call could not be read",
                "Send the call again as valid JSON.",
            ),
            SyntaxKind::Document => (
                "The JSON text is not valid",
                "The JSON text could not be read",
                "Send it again as valid JSON.",
            ),
            SyntaxKind::Shape => {
                return format!(
                    "The tool call is malformed at `{}`: {}. Send it again with a `name` and an arguments object.",
                    self.pointer.as_deref().unwrap_or(""),
                    self.message
                );
            }
        };
        match self.position() {
            Some(at) => format!("{invalid} ({at}, {}). {again}", self.message),
            None => format!("{unread} ({}). {again}", self.message),
        }
    }

    /// `line L, column C`, when the text was refused at a place.
    fn position(&self) -> Option<String> {
        match (self.line, self.column) {
            (Some(line), Some(column)) => Some(format!("line {line}, column {column}")),
            _ => None,
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = || {
            self.pointer
                .as_deref()
                .map(|p| format!(" (`{p}`)"))
                .unwrap_or_default()
        };
        match (self.kind, self.position()) {
            (SyntaxKind::Envelope, Some(at)) => {
                write!(f, "tool call is not JSON at {at}: {}", self.message)
            }
            (SyntaxKind::Envelope, None) => {
                write!(f, "tool call could not be read: {}", self.message)
            }
            (SyntaxKind::Arguments, Some(at)) => write!(
                f,
                "tool call arguments{} are not JSON at {at}: {}",
                pointer(),
                self.message
            ),
            (SyntaxKind::Arguments, None) => write!(
                f,
                "tool call arguments{} could not be read: {}",
                pointer(),
                self.message
            ),
            (SyntaxKind::Shape, _) => write!(
                f,
                "not a tool call: at `{}`: {}",
                self.pointer.as_deref().unwrap_or(""),
                self.message
            ),
            (SyntaxKind::Document, _) => match (self.line, self.column) {
                (Some(line), Some(column)) => write!(
                    f,
                    "not JSON: {} at line {line} column {column}",
                    self.message
                ),
                // Refused for its nesting: the message says so.
                _ => f.write_str(&self.message),
            },
        }
    }
}

impl std::error::Error for SyntaxError {}
