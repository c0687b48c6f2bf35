//! Each provider's streaming events, read into one shape.
//!
//! A [`WireReader`] reads the events of one streamed response, in order,
//! and answers each with the [`CallDelta`]s it carries. Events that are not
//! about a tool call (text, reasoning, usage, pings, the response's own
//! lifecycle) carry none.
//!
//! | format | opens a call | arguments | ends it |
//! |--------|--------------|-----------|---------|
//! | [`StreamFormat::OpenAiChat`] | the first `choices[c].delta.tool_calls[j]` with a new `index` (its `id`, `function.name`) | `function.arguments` | the choice's `finish_reason` |
//! | [`StreamFormat::OpenAiResponses`] | `response.output_item.added` of a `function_call` item (`call_id`, `name`), at its `output_index` | `response.function_call_arguments.delta` | `response.function_call_arguments.done`, or `response.output_item.done` |
//! | [`StreamFormat::Anthropic`] | `content_block_start` of a `tool_use` block (`id`, `name`), at its `index` | `input_json_delta` (`partial_json`) | that block's `content_block_stop` |
//!
//! **Every call opened is ended once**, when the stream is read to its
//! end: a response that stops early (`finish_reason: "length"`,
//! `response.incomplete`, `message_stop`, `[DONE]`) ends the calls still
//! open, so the engine checks what arrived and reports the cut text as the
//! whole text would be reported.
//!
//! **Alternatives stay apart.** A chat completion streamed with `n > 1`
//! interleaves the chunks of several choices, each an alternative answer
//! whose calls reuse the same `index`es. A reader reads one choice:
//! [`WireReader::new`] expects a stream with one choice (a chunk of another
//! choice is [`WireError::SeveralChoices`], never mixed in), and
//! [`WireReader::openai_chat_choice`] reads the given choice and skips the
//! others, so an application asking for `n` choices keeps one reader and
//! one engine session per choice, each fed the same events. The deltas
//! themselves carry no choice: within one reader, the provider's index is
//! the whole key.
//!
//! **Errors end the stream.** An event that breaks its format (a member
//! missing or of the wrong type, a delta for a call never opened or already
//! ended, an error the provider streamed) is a [`WireError`]; the reader
//! then answers every later event with [`WireError::AfterError`], since the
//! deltas of the faulty event were not delivered.
//!
//! Each event is accepted as a parsed [`serde_json::Value`]
//! ([`WireReader::read_value`]) or as the text of one server-sent event's
//! `data` ([`WireReader::read_str`], which also takes `[DONE]`); an
//! [`SseDecoder`] cuts a byte stream into those events.

mod anthropic;
mod calls;
mod chat;
mod fields;
mod responses;
mod sse;

pub use sse::{SseDecoder, SseEvent};

use crate::call::WireFormat;
use crate::json_text::{self, JsonTextError};
use serde_json::Value;
use std::fmt;

/// One step of one streamed tool call, as a provider's event announced it.
///
/// `index` is the provider's key for the call within its response (the
/// `tool_calls[i].index` of chat completions, the `output_index` of the
/// Responses API, the content block `index` of Anthropic messages), so
/// parallel calls can interleave. It is the whole key within one
/// [`WireReader`]: the choices of a chat completion streamed with `n > 1`
/// are read by one reader each ([`WireReader::openai_chat_choice`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallDelta {
    /// A call opened; the id and name come with it when the provider sends
    /// them up front.
    Begin {
        /// The provider's key for the call.
        index: u64,
        /// The call id, when sent.
        id: Option<String>,
        /// The tool name (or its first fragment), when sent.
        name: Option<String>,
    },
    /// More of the tool name (chat completions may split it).
    Name {
        /// The provider's key for the call.
        index: u64,
        /// The next fragment of the name.
        fragment: String,
    },
    /// More of the arguments text.
    Arguments {
        /// The provider's key for the call.
        index: u64,
        /// The next fragment of the arguments JSON text.
        fragment: String,
    },
    /// The provider said the call is complete.
    End {
        /// The provider's key for the call.
        index: u64,
    },
}

impl CallDelta {
    /// The provider's key for the call the delta belongs to.
    pub fn index(&self) -> u64 {
        match self {
            CallDelta::Begin { index, .. }
            | CallDelta::Name { index, .. }
            | CallDelta::Arguments { index, .. }
            | CallDelta::End { index } => *index,
        }
    }
}

/// A provider's streaming protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamFormat {
    /// OpenAI Chat Completions with `stream: true`: `chat.completion.chunk`
    /// objects.
    OpenAiChat,
    /// OpenAI Responses with `stream: true`: `response.*` events.
    OpenAiResponses,
    /// Anthropic Messages with `stream: true`: `message_start`,
    /// `content_block_*`, `message_delta`, `message_stop` events.
    Anthropic,
}

impl fmt::Display for StreamFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StreamFormat::OpenAiChat => "OpenAI Chat Completions",
            StreamFormat::OpenAiResponses => "OpenAI Responses",
            StreamFormat::Anthropic => "Anthropic",
        })
    }
}

/// The whole-call format of the same provider, for reading or answering
/// the finished call with [`crate::call`] and the toolbox.
impl From<StreamFormat> for WireFormat {
    fn from(format: StreamFormat) -> Self {
        match format {
            StreamFormat::OpenAiChat => WireFormat::OpenAiChat,
            StreamFormat::OpenAiResponses => WireFormat::OpenAiResponses,
            StreamFormat::Anthropic => WireFormat::Anthropic,
        }
    }
}

/// Why an event could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// The event's text is not JSON.
    #[error("the {format} event is not JSON: {message} (line {line}, column {column})")]
    NotJson {
        /// The stream's format.
        format: StreamFormat,
        /// 1-based line in the event's text.
        line: usize,
        /// 1-based column in that line.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The event's text nests deeper than any event of the format needs
    /// (the limit is [`crate::DEFAULT_MAX_DEPTH`]); it is refused before
    /// parsing.
    #[error("the {format} event nests {found} levels deep, more than the limit of {limit}")]
    TooDeep {
        /// The stream's format.
        format: StreamFormat,
        /// Nesting found.
        found: usize,
        /// The limit.
        limit: usize,
    },
    /// An event about a tool call lacks a member its format requires, or
    /// holds one of the wrong type.
    #[error("the {format} event `{event}` is malformed at `{pointer}`: {message}")]
    Malformed {
        /// The stream's format.
        format: StreamFormat,
        /// The event's type (`chat.completion.chunk` for chat completions).
        event: String,
        /// JSON pointer, in the event, to the member at fault.
        pointer: String,
        /// What was expected there.
        message: String,
    },
    /// A chat completion chunk of a choice other than the first reached a
    /// reader made for a stream with one choice: the response holds
    /// alternatives, to be read with one
    /// [`WireReader::openai_chat_choice`] each.
    #[error(
        "the stream holds several choices (a chunk of choice {choice} arrived); read each with its own reader"
    )]
    SeveralChoices {
        /// The choice of the chunk.
        choice: u64,
    },
    /// A delta for a call the stream never opened.
    #[error("the {format} stream sent a delta for call {index}, which it never opened")]
    UnknownCall {
        /// The stream's format.
        format: StreamFormat,
        /// The provider's key for the call.
        index: u64,
    },
    /// A call opened a second time under the same key.
    #[error("the {format} stream opened call {index} twice")]
    Reopened {
        /// The stream's format.
        format: StreamFormat,
        /// The provider's key for the call.
        index: u64,
    },
    /// A delta for a call the stream already ended.
    #[error("the {format} stream sent a delta for call {index} after ending it")]
    AfterEnd {
        /// The stream's format.
        format: StreamFormat,
        /// The provider's key for the call.
        index: u64,
    },
    /// A Responses argument delta names another item than the one opened at
    /// its `output_index`.
    #[error(
        "the delta for output {index} names item `{found}`, but item `{expected}` stands there"
    )]
    OtherItem {
        /// The `output_index`.
        index: u64,
        /// The id of the item opened there.
        expected: String,
        /// The `item_id` the delta named.
        found: String,
    },
    /// The complete arguments a Responses stream reported at the end are
    /// not as long as the deltas it sent (a delta was lost or repeated).
    /// Lengths are compared because the reader keeps no copy of the text.
    #[error(
        "the arguments of output {index} were reported as {reported} bytes, but the deltas brought {received}"
    )]
    ArgumentsDiffer {
        /// The `output_index`.
        index: u64,
        /// Bytes the deltas brought.
        received: usize,
        /// Bytes of the arguments reported as complete.
        reported: usize,
    },
    /// The provider streamed an error instead of the rest of the response.
    #[error("the {format} stream reported an error{}: {message}", kind.as_deref().map(|k| format!(" ({k})")).unwrap_or_default())]
    Provider {
        /// The stream's format.
        format: StreamFormat,
        /// The error's type or code, when sent (`overloaded_error`,
        /// `server_error`).
        kind: Option<String>,
        /// The error's message.
        message: String,
    },
    /// An event arrived after `[DONE]`.
    #[error("the {format} stream sent an event after [DONE]")]
    AfterDone {
        /// The stream's format.
        format: StreamFormat,
    },
    /// An event arrived after the reader reported an error; the stream's
    /// calls cannot be trusted past that point.
    #[error("the {format} stream already failed; later events are not read")]
    AfterError {
        /// The stream's format.
        format: StreamFormat,
    },
    /// A server-sent event stream's bytes are not UTF-8.
    #[error("the event stream is not UTF-8 at byte {offset}")]
    NotUtf8 {
        /// Offset of the first invalid byte in the stream.
        offset: u64,
    },
}

/// Reads the events of one streamed response, in order, into
/// [`CallDelta`]s.
///
/// Use one reader per response (and, for a chat completion with `n > 1`,
/// per choice): call indexes restart with every response.
#[derive(Debug, Clone)]
pub struct WireReader {
    format: StreamFormat,
    state: State,
    phase: Phase,
}

#[derive(Debug, Clone)]
enum State {
    Chat(chat::Chat),
    Responses(responses::Responses),
    Anthropic(anthropic::Anthropic),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Reading,
    Done,
    Failed,
}

impl WireReader {
    /// A reader for a stream in `format`. For chat completions, the stream
    /// must hold one choice (`n` unset or 1).
    pub fn new(format: StreamFormat) -> Self {
        let state = match format {
            StreamFormat::OpenAiChat => State::Chat(chat::Chat::new(None)),
            StreamFormat::OpenAiResponses => State::Responses(responses::Responses::default()),
            StreamFormat::Anthropic => State::Anthropic(anthropic::Anthropic::default()),
        };
        WireReader {
            format,
            state,
            phase: Phase::Reading,
        }
    }

    /// A reader for the calls of one choice of a chat completion streamed
    /// with `n > 1`; chunks of other choices are skipped.
    pub fn openai_chat_choice(choice: u64) -> Self {
        WireReader {
            format: StreamFormat::OpenAiChat,
            state: State::Chat(chat::Chat::new(Some(choice))),
            phase: Phase::Reading,
        }
    }

    /// The format this reader reads.
    pub fn format(&self) -> StreamFormat {
        self.format
    }

    /// Whether `[DONE]` was read.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Reads one parsed event.
    ///
    /// # Errors
    ///
    /// A [`WireError`] when the event breaks its format; after one, every
    /// later event is [`WireError::AfterError`].
    pub fn read_value(&mut self, event: &Value) -> Result<Vec<CallDelta>, WireError> {
        self.ready()?;
        let mut out = Vec::new();
        let read = match &mut self.state {
            State::Chat(chat) => chat.read(event, &mut out),
            State::Responses(responses) => responses.read(event, &mut out),
            State::Anthropic(anthropic) => anthropic.read(event, &mut out),
        };
        match read {
            Ok(()) => Ok(out),
            Err(error) => {
                self.phase = Phase::Failed;
                Err(error)
            }
        }
    }

    /// Reads the text of one event: the `data` of one server-sent event.
    /// `[DONE]` (which chat completions send last) ends the calls still
    /// open and the stream.
    ///
    /// # Errors
    ///
    /// As [`WireReader::read_value`], and [`WireError::NotJson`] or
    /// [`WireError::TooDeep`] when the text is not an event.
    pub fn read_str(&mut self, data: &str) -> Result<Vec<CallDelta>, WireError> {
        self.ready()?;
        if data.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) == "[DONE]" {
            self.phase = Phase::Done;
            let mut out = Vec::new();
            match &mut self.state {
                State::Chat(chat) => chat.finish(&mut out),
                State::Responses(responses) => responses.finish(&mut out),
                State::Anthropic(anthropic) => anthropic.finish(&mut out),
            }
            return Ok(out);
        }
        let event = match json_text::from_str(data, crate::DEFAULT_MAX_DEPTH) {
            Ok(event) => event,
            Err(error) => {
                self.phase = Phase::Failed;
                return Err(match error {
                    JsonTextError::TooDeep { found, limit } => WireError::TooDeep {
                        format: self.format,
                        found,
                        limit,
                    },
                    JsonTextError::Syntax(error) => WireError::NotJson {
                        format: self.format,
                        line: error.line(),
                        column: error.column(),
                        message: crate::json_text::syntax_message(&error),
                    },
                });
            }
        };
        self.read_value(&event)
    }

    /// Reads one server-sent event (its `data`; the `event` name repeats
    /// the type the data carries, so it is not needed).
    ///
    /// # Errors
    ///
    /// As [`WireReader::read_str`].
    pub fn read_sse(&mut self, event: &SseEvent) -> Result<Vec<CallDelta>, WireError> {
        self.read_str(&event.data)
    }

    fn ready(&self) -> Result<(), WireError> {
        match self.phase {
            Phase::Reading => Ok(()),
            Phase::Done => Err(WireError::AfterDone {
                format: self.format,
            }),
            Phase::Failed => Err(WireError::AfterError {
                format: self.format,
            }),
        }
    }
}
