//! Each provider's streaming events, read into one shape.

/// One step of one streamed tool call, as a provider's event announced it.
///
/// `index` is the provider's key for the call within its response (the
/// `tool_calls[i].index` of chat completions, the `output_index` of the
/// Responses API, the content block `index` of Anthropic messages), so
/// parallel calls can interleave.
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
