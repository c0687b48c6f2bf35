//! When to stop asking the model to try again.

use super::record::failure_records;
use crate::rejection::{CallError, Rejection};
use serde::Serialize;
use std::collections::HashMap;

/// The default number of failures of one tool at one path after which
/// retrying stops: twice, and the tool's description is what is wrong, not
/// the model.
pub const DEFAULT_RETRY_LIMIT: u32 = 2;

/// Why a conversation should stop retrying.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum StopReason {
    /// The same tool failed at the same path `failures` times: fix the
    /// tool's description or schema.
    RepeatedFailure {
        /// The tool.
        tool: String,
        /// The paths that reached the limit.
        pointers: Vec<String>,
        /// Failures counted there.
        failures: u32,
    },
    /// The policy denied the call; retrying it unchanged cannot succeed.
    Denied,
    /// The call waits for a person; retrying would only duplicate it.
    AwaitingApproval,
}

/// Retry or stop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum RetryVerdict {
    /// Send the model message and let the model try again.
    Retry,
    /// Stop retrying.
    Stop(StopReason),
}

/// Counts failures per (tool, path) over one conversation and says when to
/// stop: once the same tool has failed at the same path
/// [`DEFAULT_RETRY_LIMIT`] times (configurable).
///
/// ```
/// use toolargs_core::observe::{RetryBudget, RetryVerdict};
/// use toolargs_core::rejection::{CallError, UnknownTool};
///
/// let mut budget = RetryBudget::new();
/// let error = || CallError::from(UnknownTool::new("refnd", ["refund"]));
/// assert_eq!(budget.record("refnd", &error()), RetryVerdict::Retry);
/// assert!(matches!(budget.record("refnd", &error()), RetryVerdict::Stop(_)));
/// ```
#[derive(Debug, Clone)]
pub struct RetryBudget {
    limit: u32,
    failures: HashMap<(String, String), u32>,
}

impl Default for RetryBudget {
    fn default() -> Self {
        RetryBudget::new()
    }
}

impl RetryBudget {
    /// A budget that stops at the second failure of a tool at a path.
    pub fn new() -> Self {
        RetryBudget::with_limit(DEFAULT_RETRY_LIMIT)
    }

    /// A budget that stops once a tool has failed `limit` times at a path
    /// (`limit` 0 behaves as 1).
    pub fn with_limit(limit: u32) -> Self {
        RetryBudget {
            limit: limit.max(1),
            failures: HashMap::new(),
        }
    }

    /// Counts the failures of one call to `tool` (the name the call used)
    /// and says whether to retry.
    pub fn record(&mut self, tool: &str, error: &CallError) -> RetryVerdict {
        match error {
            CallError::Rejected(Rejection::Denied(_)) => {
                return RetryVerdict::Stop(StopReason::Denied);
            }
            CallError::ApprovalRequired(_) => {
                return RetryVerdict::Stop(StopReason::AwaitingApproval);
            }
            _ => {}
        }
        let mut exhausted = Vec::new();
        let mut most = 0;
        for record in failure_records(tool, error) {
            let count = self
                .failures
                .entry((record.tool, record.pointer.clone()))
                .or_insert(0);
            *count += 1;
            if *count >= self.limit {
                most = most.max(*count);
                if !exhausted.contains(&record.pointer) {
                    exhausted.push(record.pointer);
                }
            }
        }
        if exhausted.is_empty() {
            RetryVerdict::Retry
        } else {
            RetryVerdict::Stop(StopReason::RepeatedFailure {
                tool: tool.to_owned(),
                pointers: exhausted,
                failures: most,
            })
        }
    }

    /// Failures counted so far for `tool` at `pointer`.
    pub fn failures(&self, tool: &str, pointer: &str) -> u32 {
        self.failures
            .get(&(tool.to_owned(), pointer.to_owned()))
            .copied()
            .unwrap_or(0)
    }
}
