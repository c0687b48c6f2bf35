//! The policy phase's rejection.

use serde::Serialize;
use std::fmt;

/// The policy refused the call, with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Denied {
    /// The tool the call named.
    pub tool: String,
    /// Why, in the policy's words.
    pub reason: String,
}

impl Denied {
    /// The message for the model: the call is not allowed, and retrying it
    /// unchanged will not help.
    pub fn model_message(&self) -> String {
        format!(
            "The call to `{}` was denied: {}. Do not retry the same call.",
            self.tool, self.reason
        )
    }
}

impl fmt::Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "call to `{}` denied by policy: {}",
            self.tool, self.reason
        )
    }
}

impl std::error::Error for Denied {}
