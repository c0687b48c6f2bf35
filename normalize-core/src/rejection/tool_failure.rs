//! The fifth outcome: the arguments were fine, the body ran, and it failed.

use serde::Serialize;
use std::fmt;

/// The tool's own error, returned by its body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolFailure {
    /// The tool that failed.
    pub tool: String,
    /// The body's error, as its `Display` renders it.
    pub message: String,
}

impl ToolFailure {
    /// The message for the model: the call was well-formed and ran.
    pub fn model_message(&self) -> String {
        format!(
            "The tool `{}` ran and reported an error: {}",
            self.tool, self.message
        )
    }
}

impl fmt::Display for ToolFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool `{}` failed: {}", self.tool, self.message)
    }
}

impl std::error::Error for ToolFailure {}
