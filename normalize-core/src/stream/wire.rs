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
mod delta;
mod error;
mod fields;
mod format;
mod responses;
mod sse;

pub use delta::CallDelta;
pub use error::WireError;
pub use format::StreamFormat;
pub use sse::{SseDecoder, SseEvent};

use crate::json_text::{self, JsonTextError};
use serde_json::Value;

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
        let event = match json_text::from_str(data, crate::normalizer::DEFAULT_MAX_DEPTH) {
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
