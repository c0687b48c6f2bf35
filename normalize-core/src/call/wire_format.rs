//! The providers' formats of a whole call.

use serde::Serialize;

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
