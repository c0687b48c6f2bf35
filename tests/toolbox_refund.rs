//! The refund tool of the design through the whole pipeline: one call that
//! succeeds after normalization, and each rejection with its exact paths
//! and messages.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolargs::ToolArgs;
use toolargs::call::{ReadCalls, ToolCall, read};
use toolargs::rejection::{CallError, Rejection, SyntaxKind};
use toolargs::toolbox::{RegisterError, Toolbox};

/// Refund part or all of an order.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Refund {
    /// The order, as `ord_` and eight lowercase letters or digits.
    #[schemars(regex(pattern = r"^ord_[a-z0-9]{8}$"))]
    order_id: String,
    /// Amount to refund, in cents.
    #[schemars(range(min = 1, max = 50000))]
    amount_cents: u32,
    /// Why the customer is refunded.
    #[allow(dead_code)]
    reason: Reason,
    /// A note shown to the customer.
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
    NotReceived,
}

#[derive(Debug, Serialize, PartialEq, Deserialize)]
struct Receipt {
    order_id: String,
    refunded_cents: u32,
    note: Option<String>,
}

fn toolbox(runs: Arc<AtomicUsize>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .tool_sync(
            "refund",
            "Refund part or all of an order.",
            move |args: Refund| {
                runs.fetch_add(1, Ordering::SeqCst);
                if args.order_id == "ord_00000000" {
                    return Err("order ord_00000000 was already refunded".to_owned());
                }
                Ok(Receipt {
                    order_id: args.order_id,
                    refunded_cents: args.amount_cents,
                    note: args.note,
                })
            },
        )
        .unwrap()
        .tool(
            "lookup_order",
            "Look an order up.",
            |args: Lookup| async move {
                Ok::<_, String>(json!({"order_id": args.order_id, "status": "shipped"}))
            },
        )
        .unwrap();
    toolbox
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Lookup {
    order_id: String,
}

fn call(toolbox: &Toolbox, text: &str) -> Result<toolargs::toolbox::Completed, CallError> {
    let mut calls = read(text).and_then(ReadCalls::into_calls).expect("a call");
    toolbox.call_blocking(&(), calls.remove(0))
}

#[test]
fn succeeds_after_normalization() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(runs.clone());
    // The whole arguments object arrives as a JSON string (root rule), and
    // the note is escaped twice.
    let done = call(
        &toolbox,
        r#"{"name":"refund","arguments":"{\"order_id\":\"ord_8f2k1x9q\",\"amount_cents\":1999,\"reason\":\"damaged\",\"note\":\"Sorry &amp;amp; thanks\"}"}"#,
    )
    .unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        serde_json::from_value::<Receipt>(done.output).unwrap(),
        Receipt {
            order_id: "ord_8f2k1x9q".into(),
            refunded_cents: 1999,
            note: Some("Sorry & thanks".into())
        }
    );
    let pointers: Vec<String> = done
        .report
        .repairs
        .iter()
        .map(|r| r.pointer.to_string())
        .collect();
    assert_eq!(pointers, ["", "/note"]);
}

#[test]
fn async_body_and_call_ids() {
    let toolbox = toolbox(Arc::new(AtomicUsize::new(0)));
    let done = call(
        &toolbox,
        r#"{"type":"function_call","call_id":"call_5","name":"lookup_order","arguments":"{\"order_id\":\"ord_1\"}"}"#,
    )
    .unwrap();
    assert_eq!(done.call_id.as_deref(), Some("call_5"));
    assert_eq!(
        done.output,
        json!({"order_id": "ord_1", "status": "shipped"})
    );
}

#[test]
fn invalid_arguments_name_every_path_at_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(runs.clone());
    let error = call(
        &toolbox,
        r#"{"name":"refund","arguments":{"order_id":"ord_x","amount_cents":"20","force":true}}"#,
    )
    .unwrap_err();
    assert_eq!(runs.load(Ordering::SeqCst), 0, "the body must not run");
    let CallError::Rejected(Rejection::InvalidArguments(invalid)) = &error else {
        panic!("expected invalid arguments, got {error:?}");
    };
    assert_eq!(invalid.tool, "refund");

    let order = invalid.at("/order_id").expect("/order_id");
    assert_eq!(order.keyword, "pattern");
    assert_eq!(
        order.expected,
        "a string matching the pattern `^ord_[a-z0-9]{8}$`"
    );

    let amount = invalid.at("/amount_cents").expect("/amount_cents");
    assert_eq!(amount.keyword, "type");
    assert_eq!(amount.expected, "integer");
    assert_eq!(amount.found, "string \"20\"");

    let force = invalid.at("/force").expect("/force");
    assert_eq!(force.keyword, "additionalProperties");
    assert_eq!(
        force.expected,
        "one of the declared fields: order_id, amount_cents, reason, note"
    );

    let reason = invalid.at("/reason").expect("/reason");
    assert_eq!(reason.keyword, "required");

    assert_eq!(invalid.violations.len(), 4, "{invalid}");
    let message = error.model_message();
    assert!(message.starts_with("The arguments for `refund` do not match its schema. Fix these fields and call it again:"), "{message}");
    for line in [
        "\n- /order_id: expected a string matching the pattern `^ord_[a-z0-9]{8}$`, found string \"ord_x\"",
        "\n- /amount_cents: expected integer, found string \"20\"",
        "\n- /force: unknown field `force`; expected one of the declared fields: order_id, amount_cents, reason, note",
        "\n- /reason: missing required field `reason`",
    ] {
        assert!(message.contains(line), "{line:?} not in {message}");
    }
    // The structured form, for logs and services.
    let structured = serde_json::to_value(&error).unwrap();
    assert_eq!(structured["outcome"], "rejected");
    assert_eq!(structured["rejection"], "invalid_arguments");
    assert_eq!(structured["violations"].as_array().unwrap().len(), 4);
}

#[test]
fn range_is_checked_and_nothing_is_coerced() {
    let toolbox = toolbox(Arc::new(AtomicUsize::new(0)));
    let error = call(
        &toolbox,
        r#"{"name":"refund","arguments":{"order_id":"ord_8f2k1x9q","amount_cents":50001,"reason":"late"}}"#,
    )
    .unwrap_err();
    let invalid = match error {
        CallError::Rejected(Rejection::InvalidArguments(i)) => i,
        other => panic!("{other:?}"),
    };
    let amount = invalid.at("/amount_cents").unwrap();
    assert_eq!(amount.keyword, "maximum");
    assert_eq!(amount.expected, "a number <= 50000");
    assert_eq!(invalid.violations.len(), 1);
}

#[test]
fn unknown_tool_lists_the_closest_names() {
    let toolbox = toolbox(Arc::new(AtomicUsize::new(0)));
    let error = call(&toolbox, r#"{"name":"refnd","arguments":{}}"#).unwrap_err();
    let CallError::Rejected(Rejection::UnknownTool(unknown)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(unknown.name, "refnd");
    assert_eq!(unknown.closest, ["refund"]);
    assert_eq!(
        error.model_message(),
        "There is no tool named `refnd`. Did you mean `refund`? Available tools: `refund`, `lookup_order`."
    );
    assert_eq!(error.to_string(), "unknown tool `refnd` (closest: refund)");
}

#[test]
fn syntax_error_in_arguments_is_rejected_before_resolution() {
    let toolbox = toolbox(Arc::new(AtomicUsize::new(0)));
    let error = call(
        &toolbox,
        r#"{"type":"function","function":{"name":"refund","arguments":"{\"order_id\":\n\"ord_1\" \"x\"}"}}"#,
    )
    .unwrap_err();
    let CallError::Rejected(Rejection::Syntax(syntax)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(syntax.kind, SyntaxKind::Arguments);
    assert_eq!((syntax.line, syntax.column), (Some(2), Some(9)));
    assert_eq!(syntax.message, "expected `,` or `}`");
}

#[test]
fn the_tools_own_failure_is_a_separate_outcome() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(runs.clone());
    let error = call(
        &toolbox,
        r#"{"name":"refund","arguments":{"order_id":"ord_00000000","amount_cents":5,"reason":"late"}}"#,
    )
    .unwrap_err();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let CallError::Failed(failure) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(failure.message, "order ord_00000000 was already refunded");
    assert!(error.rejection().is_none());
    assert_eq!(
        error.model_message(),
        "The tool `refund` ran and reported an error: order ord_00000000 was already refunded"
    );
}

#[test]
fn registration_refuses_bad_names_duplicates_and_non_objects() {
    let mut toolbox: Toolbox = Toolbox::new();
    let body = |_: Value| Ok::<_, String>(Value::Null);
    assert!(matches!(
        toolbox.dynamic_tool_sync("has space", "", json!({"type": "object"}), body),
        Err(RegisterError::InvalidName { .. })
    ));
    assert!(matches!(
        toolbox.dynamic_tool_sync("9lives", "", json!({"type": "object"}), body),
        Err(RegisterError::InvalidName { .. })
    ));
    toolbox
        .dynamic_tool_sync("echo", "", json!({"type": "object"}), body)
        .unwrap();
    assert!(matches!(
        toolbox.dynamic_tool_sync("echo", "", json!({"type": "object"}), body),
        Err(RegisterError::Duplicate { .. })
    ));
    assert!(matches!(
        toolbox.dynamic_tool_sync("list", "", json!({"type": "array"}), body),
        Err(RegisterError::RootNotObject { .. })
    ));
    assert!(matches!(
        toolbox.dynamic_tool_sync(
            "broken",
            "",
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
            body
        ),
        Err(RegisterError::Schema { .. } | RegisterError::Validator { .. })
    ));
}

#[test]
fn dynamic_tools_normalize_and_validate_against_their_runtime_schema() {
    let mut toolbox: Toolbox = Toolbox::new();
    toolbox
        .dynamic_tool_sync(
            "tag",
            "Tag a document.",
            json!({
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["title", "tags"],
                "additionalProperties": false
            }),
            |args: Value| Ok::<_, String>(args),
        )
        .unwrap();
    let done = toolbox
        .call_blocking(
            &(),
            ToolCall::new(
                "tag",
                json!({"title": "Ember &amp;amp; Oak", "tags": "[\"wood\"]"}),
            ),
        )
        .unwrap();
    assert_eq!(
        done.output,
        json!({"title": "Ember & Oak", "tags": ["wood"]})
    );

    let error = toolbox
        .call_blocking(
            &(),
            ToolCall::new("tag", json!({"title": 5, "tags": "{\"a\": 1}"})),
        )
        .unwrap_err();
    let CallError::Rejected(Rejection::InvalidArguments(invalid)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(invalid.at("/title").unwrap().expected, "string");
    // A JSON object where an array is declared is left as sent, then reported.
    assert_eq!(
        invalid.at("/tags").unwrap().found,
        "string \"{\\\"a\\\": 1}\""
    );
}
