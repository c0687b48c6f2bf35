//! The providers' streaming protocols.

use crate::call::WireFormat;
use std::fmt;

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
