//! One observed repair or failure.

use crate::rejection::{CallError, Rejection, SyntaxKind};
use crate::report::{RepairKind, Report};
use serde::Serialize;

/// What happened at one path of one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordKind {
    /// Normalization repaired the value there.
    Repaired {
        /// Which repair.
        repair: RepairKind,
    },
    /// Validation failed there.
    Invalid {
        /// The JSON Schema keyword that failed.
        keyword: String,
    },
    /// The call (or its arguments text) was not JSON or not a call.
    Syntax {
        /// Which text was wrong.
        syntax: SyntaxKind,
    },
    /// The call named an unregistered tool.
    UnknownTool,
    /// The policy denied the call.
    Denied,
    /// The policy held the call for approval.
    ApprovalRequired,
    /// The body ran and failed.
    ToolFailed,
}

impl RecordKind {
    /// Whether this is a failure: anything but a repair or a hold for
    /// approval (a held call has not failed; it waits for a person).
    pub fn is_failure(&self) -> bool {
        !matches!(
            self,
            RecordKind::Repaired { .. } | RecordKind::ApprovalRequired
        )
    }
}

/// A repair or a failure, where it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The tool the call named (as sent, for an unknown tool; empty when
    /// the call could not be read far enough to know).
    pub tool: String,
    /// JSON pointer into the arguments (for a syntax error, into the
    /// envelope when known); empty for the whole call.
    pub pointer: String,
    /// What happened.
    #[serde(flatten)]
    pub kind: RecordKind,
}

/// One record per repair in `report`.
pub fn repair_records(tool: &str, report: &Report) -> Vec<Record> {
    report
        .repairs
        .iter()
        .map(|repair| Record {
            tool: tool.to_owned(),
            pointer: repair.pointer.to_string(),
            kind: RecordKind::Repaired {
                repair: repair.kind,
            },
        })
        .collect()
}

/// The failure records of an error: one per failing path for invalid
/// arguments, one for any other outcome. `tool` is the name the call used
/// (the error may not know it, as for a syntax error).
pub fn failure_records(tool: &str, error: &CallError) -> Vec<Record> {
    let one = |pointer: &str, kind: RecordKind| {
        vec![Record {
            tool: tool.to_owned(),
            pointer: pointer.to_owned(),
            kind,
        }]
    };
    match error {
        CallError::Rejected(Rejection::InvalidArguments(invalid)) => invalid
            .violations
            .iter()
            .map(|v| Record {
                tool: tool.to_owned(),
                pointer: v.pointer.clone(),
                kind: RecordKind::Invalid {
                    keyword: v.keyword.clone(),
                },
            })
            .collect(),
        CallError::Rejected(Rejection::Syntax(syntax)) => one(
            syntax.pointer.as_deref().unwrap_or(""),
            RecordKind::Syntax {
                syntax: syntax.kind,
            },
        ),
        CallError::Rejected(Rejection::UnknownTool(_)) => one("", RecordKind::UnknownTool),
        CallError::Rejected(Rejection::Denied(_)) => one("", RecordKind::Denied),
        CallError::ApprovalRequired(_) => one("", RecordKind::ApprovalRequired),
        CallError::Failed(_) => one("", RecordKind::ToolFailed),
    }
}

#[cfg(feature = "tracing")]
pub(super) fn trace(record: &Record) {
    let kind = match &record.kind {
        RecordKind::Repaired { repair } => match repair {
            RepairKind::JsonDecoded { .. } => "json_decoded",
            RepairKind::ReferencesDecoded { .. } => "references_decoded",
        },
        RecordKind::Invalid { keyword } => keyword.as_str(),
        RecordKind::Syntax { .. } => "syntax",
        RecordKind::UnknownTool => "unknown_tool",
        RecordKind::Denied => "denied",
        RecordKind::ApprovalRequired => "approval_required",
        RecordKind::ToolFailed => "tool_failed",
    };
    if record.kind.is_failure() {
        tracing::warn!(target: "toolargs", tool = %record.tool, pointer = %record.pointer, kind, "tool call failed");
    } else {
        tracing::info!(target: "toolargs", tool = %record.tool, pointer = %record.pointer, kind, "tool call repaired or held");
    }
}
