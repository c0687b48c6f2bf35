//! Why an event could not be read.

use super::StreamFormat;

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
    /// (the limit is [`crate::normalizer::DEFAULT_MAX_DEPTH`]); it is refused before
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
    /// [`WireReader::openai_chat_choice`](super::WireReader::openai_chat_choice) each.
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
