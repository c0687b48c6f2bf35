//! Counting records by tool and path.

use super::{Observer, Record};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// What one tool's path has seen.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PathSummary {
    /// The tool.
    pub tool: String,
    /// The JSON pointer.
    pub pointer: String,
    /// Repairs made there.
    pub repairs: u64,
    /// Failures found there.
    pub failures: u64,
    /// Counts by kind (`json_decoded`, `references_decoded`, or the failing
    /// keyword / outcome).
    pub by_kind: BTreeMap<String, u64>,
}

/// An [`Observer`] that aggregates records by tool and path, for dashboards
/// and for finding the tool description that keeps confusing the model.
#[derive(Debug, Default)]
pub struct Ledger {
    paths: Mutex<BTreeMap<(String, String), PathSummary>>,
}

impl Ledger {
    /// An empty ledger.
    pub fn new() -> Self {
        Ledger::default()
    }

    /// Every (tool, path) seen, most failures first, then most repairs.
    pub fn summary(&self) -> Vec<PathSummary> {
        let paths = self.paths.lock().unwrap_or_else(|p| p.into_inner());
        let mut out: Vec<PathSummary> = paths.values().cloned().collect();
        out.sort_by(|a, b| {
            b.failures
                .cmp(&a.failures)
                .then(b.repairs.cmp(&a.repairs))
                .then_with(|| (&a.tool, &a.pointer).cmp(&(&b.tool, &b.pointer)))
        });
        out
    }

    /// The summary of one tool's path, if anything was recorded there.
    pub fn get(&self, tool: &str, pointer: &str) -> Option<PathSummary> {
        let paths = self.paths.lock().unwrap_or_else(|p| p.into_inner());
        paths.get(&(tool.to_owned(), pointer.to_owned())).cloned()
    }
}

impl Observer for Ledger {
    fn record(&self, record: &Record) {
        let mut paths = self.paths.lock().unwrap_or_else(|p| p.into_inner());
        let entry = paths
            .entry((record.tool.clone(), record.pointer.clone()))
            .or_insert_with(|| PathSummary {
                tool: record.tool.clone(),
                pointer: record.pointer.clone(),
                ..PathSummary::default()
            });
        if record.kind.is_failure() {
            entry.failures += 1;
        } else if matches!(record.kind, super::RecordKind::Repaired { .. }) {
            entry.repairs += 1;
        }
        *entry.by_kind.entry(kind_name(record)).or_default() += 1;
    }
}

fn kind_name(record: &Record) -> String {
    use super::RecordKind;
    use crate::report::RepairKind;
    match &record.kind {
        RecordKind::Repaired {
            repair: RepairKind::JsonDecoded { .. },
        } => "json_decoded".into(),
        RecordKind::Repaired {
            repair: RepairKind::ReferencesDecoded { .. },
        } => "references_decoded".into(),
        RecordKind::Invalid { keyword } => keyword.clone(),
        RecordKind::Syntax { .. } => "syntax".into(),
        RecordKind::UnknownTool => "unknown_tool".into(),
        RecordKind::Denied => "denied".into(),
        RecordKind::ApprovalRequired => "approval_required".into(),
        RecordKind::ToolFailed => "tool_failed".into(),
    }
}
