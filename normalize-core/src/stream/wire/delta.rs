//! What a reader gives: one step of one streamed call.

/// One step of one streamed tool call, as a provider's event announced it.
///
/// `index` is the provider's key for the call within its response (the
/// `tool_calls[i].index` of chat completions, the `output_index` of the
/// Responses API, the content block `index` of Anthropic messages), so
/// parallel calls can interleave. It is the whole key within one
/// [`WireReader`](super::WireReader): the choices of a chat completion streamed with `n > 1`
/// are read by one reader each ([`WireReader::openai_chat_choice`](super::WireReader::openai_chat_choice)).
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
