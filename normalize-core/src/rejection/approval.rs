//! A call the policy holds for a person's decision.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The policy asked for approval; the body has not run.
///
/// It carries the normalized, validated arguments, so an application can
/// store it while a person decides and then run it with
/// [`Toolbox::call_approved`](crate::toolbox::Toolbox::call_approved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRequired {
    /// The tool the call named.
    pub tool: String,
    /// The call's id in its wire format, if it had one.
    pub call_id: Option<String>,
    /// Why approval is needed, in the policy's words.
    pub reason: String,
    /// The arguments as the body would receive them (normalized, valid).
    pub arguments: Value,
}

impl ApprovalRequired {
    /// The message for the model: the call is waiting, not failed.
    pub fn model_message(&self) -> String {
        format!(
            "The call to `{}` is waiting for a person's approval ({}). It has not run yet; do not retry it.",
            self.tool, self.reason
        )
    }
}

impl fmt::Display for ApprovalRequired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "call to `{}` needs approval: {}", self.tool, self.reason)
    }
}

impl std::error::Error for ApprovalRequired {}
