//! The validate phase's rejection: every JSON pointer where the arguments
//! fail the tool's schema, all at once.

use crate::validate::{Violation, Violations};
use serde::Serialize;
use std::fmt;

/// The arguments do not inhabit the tool's schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidArguments {
    /// The tool the call named.
    pub tool: String,
    /// One diagnostic per failing JSON pointer (never empty).
    pub violations: Vec<Violation>,
}

impl InvalidArguments {
    /// The rejection for `tool` with `violations`.
    pub fn new(tool: impl Into<String>, violations: Violations) -> Self {
        InvalidArguments {
            tool: tool.into(),
            violations: violations.0,
        }
    }

    /// The violation at `pointer`, if that location failed.
    pub fn at(&self, pointer: &str) -> Option<&Violation> {
        self.violations.iter().find(|v| v.pointer == pointer)
    }

    /// The message for the model's repair turn: one line per failing path,
    /// with what was expected and what was found.
    pub fn model_message(&self) -> String {
        format!(
            "The arguments for `{}` do not match its schema. {}",
            self.tool,
            crate::validate::violation::fix_request(&self.violations)
        )
    }
}

impl fmt::Display for InvalidArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid arguments for `{}`: ", self.tool)?;
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidArguments {}
