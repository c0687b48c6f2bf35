//! Repair and failure records, their aggregate by tool and path, and the
//! retry budget.

use serde_json::{Value, json};
use std::sync::Arc;
use toolargs::call::ToolCall;
use toolargs::observe::{
    Ledger, RecordKind, RetryBudget, RetryVerdict, StopReason, failure_records,
};
use toolargs::rejection::CallError;
use toolargs::toolbox::Toolbox;

fn toolbox(ledger: Arc<Ledger>) -> Toolbox {
    let mut toolbox = Toolbox::new().observer(ledger);
    toolbox
        .dynamic_tool_sync(
            "search",
            "Search the catalogue.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "filters": {"type": "array", "items": {"type": "string"}},
                    "limit": {"type": "integer", "minimum": 1}
                },
                "required": ["query"],
                "additionalProperties": false
            }),
            |args: Value| Ok::<_, String>(args),
        )
        .unwrap();
    toolbox
}

#[test]
fn repairs_and_failures_are_aggregated_by_tool_and_path() {
    let ledger = Arc::new(Ledger::new());
    let toolbox = toolbox(ledger.clone());
    for _ in 0..3 {
        toolbox
            .call_blocking(
                &(),
                ToolCall::new(
                    "search",
                    json!({"query": "R&amp;D", "filters": "[\"new\"]"}),
                ),
            )
            .unwrap();
    }
    for _ in 0..2 {
        toolbox
            .call_blocking(
                &(),
                ToolCall::new("search", json!({"query": "x", "limit": "5"})),
            )
            .unwrap_err();
    }
    toolbox
        .call_blocking(&(), ToolCall::new("serch", json!({})))
        .unwrap_err();

    let summary = ledger.summary();
    let limit = &summary[0];
    assert_eq!(
        (limit.tool.as_str(), limit.pointer.as_str()),
        ("search", "/limit")
    );
    assert_eq!((limit.failures, limit.repairs), (2, 0));
    assert_eq!(limit.by_kind.get("type"), Some(&2));

    let query = ledger.get("search", "/query").unwrap();
    assert_eq!((query.repairs, query.failures), (3, 0));
    assert_eq!(query.by_kind.get("references_decoded"), Some(&3));
    let filters = ledger.get("search", "/filters").unwrap();
    assert_eq!(filters.by_kind.get("json_decoded"), Some(&3));

    let unknown = ledger.get("serch", "").unwrap();
    assert_eq!(unknown.by_kind.get("unknown_tool"), Some(&1));
    assert_eq!(summary.len(), 4);
}

#[test]
fn retry_budget_stops_at_the_second_failure_of_a_path() {
    let toolbox = toolbox(Arc::new(Ledger::new()));
    let mut budget = RetryBudget::new();
    let bad_limit = || {
        toolbox
            .call_blocking(
                &(),
                ToolCall::new("search", json!({"query": "x", "limit": 0})),
            )
            .unwrap_err()
    };
    let bad_query = || {
        toolbox
            .call_blocking(&(), ToolCall::new("search", json!({"query": 5})))
            .unwrap_err()
    };

    assert_eq!(budget.record("search", &bad_limit()), RetryVerdict::Retry);
    // Another path failing does not spend /limit's budget.
    assert_eq!(budget.record("search", &bad_query()), RetryVerdict::Retry);
    assert_eq!(budget.failures("search", "/limit"), 1);
    assert_eq!(
        budget.record("search", &bad_limit()),
        RetryVerdict::Stop(StopReason::RepeatedFailure {
            tool: "search".into(),
            pointers: vec!["/limit".into()],
            failures: 2
        })
    );
    // A limit of 3 allows one more try.
    let mut patient = RetryBudget::with_limit(3);
    assert_eq!(patient.record("search", &bad_limit()), RetryVerdict::Retry);
    assert_eq!(patient.record("search", &bad_limit()), RetryVerdict::Retry);
    assert!(matches!(
        patient.record("search", &bad_limit()),
        RetryVerdict::Stop(_)
    ));
}

#[test]
fn failure_records_name_each_path_and_keyword() {
    let toolbox = toolbox(Arc::new(Ledger::new()));
    let error: CallError = toolbox
        .call_blocking(
            &(),
            ToolCall::new("search", json!({"limit": "5", "extra": 1})),
        )
        .unwrap_err();
    let mut records: Vec<(String, RecordKind)> = failure_records("search", &error)
        .into_iter()
        .map(|r| (r.pointer, r.kind))
        .collect();
    records.sort_by(|a, b| a.0.cmp(&b.0));
    let keyword = |k: &str| RecordKind::Invalid { keyword: k.into() };
    assert_eq!(
        records,
        [
            ("/extra".to_owned(), keyword("additionalProperties")),
            ("/limit".to_owned(), keyword("type")),
            ("/query".to_owned(), keyword("required")),
        ]
    );
}
