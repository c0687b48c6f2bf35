//! What [`read`](super::read) returns: each entry of an envelope with its
//! own outcome, and the alternatives kept apart.

use super::{ToolCall, WireFormat};
use crate::rejection::SyntaxError;
use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;

/// Every entry of one envelope, in the order they were sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReadCalls {
    /// The format the envelope was read in.
    pub format: WireFormat,
    /// One per place a call stands (a `tool_calls` element, an output item,
    /// a content block, a part, a request), read or not; text, reasoning
    /// and results are not entries. Empty when the model answered without
    /// calling a tool.
    pub entries: Vec<CallEntry>,
}

/// One entry: where it stood, which alternative it belongs to, and what it
/// reads as.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallEntry {
    /// JSON pointer to the entry in the envelope
    /// (`/choices/1/message/tool_calls/0`, `/content/2`).
    pub pointer: String,
    /// The alternative answer it belongs to: the position in `choices`
    /// (OpenAI, `n > 1`) or `candidates` (Gemini, `candidate_count > 1`),
    /// `None` in an envelope without alternatives. Calls of different
    /// choices are different answers to one turn, never one turn's calls.
    pub choice: Option<usize>,
    /// The call, or why it cannot be read.
    #[serde(flatten, serialize_with = "outcome")]
    pub call: Result<ToolCall, UnreadableCall>,
}

/// `{"call": ...}` or `{"unreadable": ...}`, flattened into the entry.
fn outcome<S: Serializer>(
    call: &Result<ToolCall, UnreadableCall>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Outcome<'a> {
        Call(&'a ToolCall),
        Unreadable(&'a UnreadableCall),
    }
    match call {
        Ok(call) => Outcome::Call(call),
        Err(unreadable) => Outcome::Unreadable(unreadable),
    }
    .serialize(serializer)
}

/// An entry that stands where a call stands but cannot be run as one: kept
/// whole, with what could be read of it, so the application can answer it
/// (most providers want an answer for every call id) or store it in the
/// conversation's history.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize)]
#[error("cannot read the {format} tool call at `{entry}`: {reason}")]
pub struct UnreadableCall {
    /// The format it was read in.
    pub format: WireFormat,
    /// JSON pointer to the entry in the envelope.
    pub entry: String,
    /// The call's id, if it could be read: echo it back with the answer.
    pub id: Option<String>,
    /// The tool's name, if it could be read.
    pub name: Option<String>,
    /// Why it cannot be read.
    pub reason: Unreadable,
    /// The entry as it was sent.
    pub raw: Value,
}

/// Why an entry cannot be read as a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Unreadable {
    /// The entry does not have its format's shape: a member is missing or
    /// of the wrong type.
    #[error("at `{pointer}`: {message}")]
    Malformed {
        /// JSON pointer, in the envelope, to the member at fault.
        pointer: String,
        /// What was expected there.
        message: String,
    },
    /// A call to a custom tool (OpenAI custom tools): its input is free
    /// text, not JSON arguments, so no schema can check it and the toolbox
    /// does not run it. An application with such tools runs them itself.
    #[error("a custom tool call with free-form input, not JSON arguments")]
    FreeForm {
        /// The input text, as sent.
        input: String,
    },
}

impl UnreadableCall {
    /// The message for the model's repair turn, to send as this call's
    /// result.
    pub fn model_message(&self) -> String {
        match &self.reason {
            Unreadable::Malformed { pointer, message } => format!(
                "The tool call is malformed at `{pointer}`: {message}. Send it again with a `name` and an arguments object."
            ),
            Unreadable::FreeForm { .. } => format!(
                "The tool `{}` cannot be run with free-form input here. Call a tool that takes JSON arguments.",
                self.name.as_deref().unwrap_or("")
            ),
        }
    }
}

/// An unreadable call as a parse-phase rejection, for an application that
/// reports it through the toolbox's error types (a
/// [`CallError`](crate::rejection::CallError) converts from the
/// [`SyntaxError`]).
impl From<UnreadableCall> for SyntaxError {
    fn from(unreadable: UnreadableCall) -> Self {
        match unreadable.reason {
            Unreadable::Malformed { pointer, message } => SyntaxError::shape(pointer, message),
            Unreadable::FreeForm { .. } => SyntaxError::shape(
                unreadable.entry,
                format!(
                    "`{}` is a custom tool call with free-form input, not JSON arguments",
                    unreadable.name.as_deref().unwrap_or("")
                ),
            ),
        }
    }
}

/// Calls from more than one alternative answer: running them together would
/// run two answers as if they were one turn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error(
    "the {format} envelope holds tool calls in {} alternative choices ({}): pick one",
    choices.len(),
    choices.iter().map(|c| c.map_or("none".to_owned(), |c| c.to_string())).collect::<Vec<_>>().join(", ")
)]
pub struct SeveralChoices {
    /// The format it was read in.
    pub format: WireFormat,
    /// The alternatives that hold entries, in order.
    pub choices: Vec<Option<usize>>,
}

impl ReadCalls {
    /// The alternatives that hold entries, in the order they were sent
    /// (`[None]` for an envelope without alternatives, `[]` without entries).
    pub fn choices(&self) -> Vec<Option<usize>> {
        let mut choices: Vec<Option<usize>> = Vec::new();
        for entry in &self.entries {
            if !choices.contains(&entry.choice) {
                choices.push(entry.choice);
            }
        }
        choices
    }

    /// The entries of one alternative.
    pub fn choice(&self, choice: Option<usize>) -> impl Iterator<Item = &CallEntry> {
        self.entries.iter().filter(move |e| e.choice == choice)
    }

    /// The calls that were read, in order (whatever their alternative).
    pub fn calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.entries.iter().filter_map(|e| e.call.as_ref().ok())
    }

    /// The entries that could not be read, in order.
    pub fn unreadable(&self) -> impl Iterator<Item = &UnreadableCall> {
        self.entries.iter().filter_map(|e| e.call.as_ref().err())
    }

    /// One turn's entries, each with its own outcome, for an application
    /// that did not ask for alternatives.
    ///
    /// # Errors
    ///
    /// [`SeveralChoices`] when entries come from more than one alternative:
    /// pick one with [`ReadCalls::choice`].
    pub fn into_turn(self) -> Result<Vec<Result<ToolCall, UnreadableCall>>, SeveralChoices> {
        let choices = self.choices();
        if choices.len() > 1 {
            return Err(SeveralChoices {
                format: self.format,
                choices,
            });
        }
        let mut turn = Vec::with_capacity(self.entries.len());
        for entry in self.entries {
            turn.push(entry.call);
        }
        Ok(turn)
    }

    /// One turn's calls, all or nothing, for an application that runs
    /// them together.
    ///
    /// # Errors
    ///
    /// [`SyntaxError`] of kind [`Shape`](crate::rejection::SyntaxKind::Shape)
    /// when the entries come from several alternatives, when an entry cannot
    /// be read (the first one, at its pointer), or when there is no entry.
    pub fn into_calls(self) -> Result<Vec<ToolCall>, SyntaxError> {
        let format = self.format;
        if self.entries.is_empty() {
            return Err(SyntaxError::shape(
                "",
                format!("no {format} tool call found"),
            ));
        }
        let first_of_second_choice = {
            let first = self.entries[0].choice;
            self.entries
                .iter()
                .find(|e| e.choice != first)
                .map(|e| e.pointer.clone())
        };
        let turn = self.into_turn().map_err(|several| {
            SyntaxError::shape(
                first_of_second_choice.unwrap_or_default(),
                several.to_string(),
            )
        })?;
        turn.into_iter()
            .map(|call| call.map_err(SyntaxError::from))
            .collect()
    }
}

impl fmt::Display for WireFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WireFormat::OpenAiChat => "OpenAI Chat Completions",
            WireFormat::OpenAiResponses => "OpenAI Responses",
            WireFormat::Anthropic => "Anthropic",
            WireFormat::Gemini => "Gemini",
            WireFormat::McpToolsCall => "MCP tools/call",
            WireFormat::Plain => "{\"name\", \"arguments\"}",
        })
    }
}
