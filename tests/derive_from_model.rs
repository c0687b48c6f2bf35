//! `T::from_model`: parse → normalize → validate → deserialize, and the
//! schema the derive produces.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};
use toolargs::{ArgsError, ToolArgs, normalizer::Options, report::RepairKind};

/// Which orders to refund.
#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct RefundArgs {
    /// The order, e.g. `ord_123`.
    #[schemars(regex(pattern = r"^ord_[0-9]+$"))]
    order_id: String,
    amount_cents: u32,
    reason: Reason,
    #[serde(default, alias = "labels")]
    tags: Vec<String>,
    filter: Option<Filter>,
}

#[derive(Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Filter {
    since: Option<String>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug)]
#[tool_args(open)]
struct OpenArgs {
    query: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug)]
struct Picky {
    #[serde(deserialize_with = "even")]
    n: u32,
}

fn even<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(deserializer)?;
    if n % 2 == 0 {
        Ok(n)
    } else {
        Err(serde::de::Error::custom(format!("{n} is odd")))
    }
}

fn invalid(error: ArgsError) -> toolargs::validate::Violations {
    match error {
        ArgsError::Invalid(violations) => violations,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn clean_arguments_parse_with_an_empty_report() {
    let parsed =
        RefundArgs::from_model(r#"{"order_id": "ord_1", "amount_cents": 250, "reason": "late"}"#)
            .unwrap();
    assert_eq!(parsed.value.amount_cents, 250);
    assert_eq!(parsed.value.reason, Reason::Late);
    assert!(parsed.report.is_clean());
}

#[test]
fn damaged_arguments_are_repaired_then_typed() {
    let text = r#"{"order_id": "ord_1", "amount_cents": 5, "reason": "damaged",
                   "tags": "[\"Tom &amp;amp; Jerry\"]", "filter": "{\"since\": \"2024&#x2d;01\"}"}"#;
    let parsed = RefundArgs::from_model(text).unwrap();
    assert_eq!(parsed.value.tags, ["Tom & Jerry"]);
    assert_eq!(
        parsed.value.filter.unwrap().since.as_deref(),
        Some("2024-01")
    );
    let pointers: Vec<String> = parsed
        .report
        .repairs
        .iter()
        .map(|r| r.pointer.to_string())
        .collect();
    assert_eq!(pointers, ["/tags", "/tags/0", "/filter", "/filter/since"]);
    assert!(matches!(
        parsed.report.repairs[1].kind,
        RepairKind::ReferencesDecoded { passes: 2, .. }
    ));
}

#[test]
fn aliases_are_accepted_and_repaired() {
    let parsed = RefundArgs::from_model(json!({
        "order_id": "ord_1", "amount_cents": 5, "reason": "late", "labels": "[\"a\"]"
    }))
    .unwrap();
    assert_eq!(parsed.value.tags, ["a"]);
}

#[test]
fn a_whole_object_sent_as_a_string_is_decoded() {
    let raw = Value::String(r#"{"order_id": "ord_9", "amount_cents": 1, "reason": "late"}"#.into());
    let parsed = RefundArgs::from_model(raw).unwrap();
    assert_eq!(parsed.value.order_id, "ord_9");
    assert_eq!(parsed.report.repairs[0].pointer, "");
}

#[test]
fn every_problem_is_reported_with_its_pointer() {
    let violations = invalid(
        RefundArgs::from_model(json!({
            "order_id": "order-1",
            "amount_cents": "20",
            "reason": "lost",
            "filter": {"since": "x", "until": "y"},
            "note": "hi"
        }))
        .unwrap_err(),
    );
    let find = |p: &str| {
        violations
            .iter()
            .find(|v| v.pointer == p)
            .unwrap_or_else(|| panic!("no violation at {p}: {violations}"))
    };
    assert_eq!(violations.len(), 5, "{violations}");
    let amount = find("/amount_cents");
    assert_eq!(
        (amount.expected.as_str(), amount.found.as_str()),
        ("integer", "string \"20\"")
    );
    assert!(find("/order_id").expected.contains("^ord_[0-9]+$"));
    assert!(find("/reason").expected.contains("\"damaged\""));
    assert_eq!(
        find("/note").expected,
        "one of the declared fields: order_id, amount_cents, reason, tags, filter, labels"
    );
    assert_eq!(find("/filter/until").keyword, "additionalProperties");
}

#[test]
fn syntax_errors_carry_line_and_column() {
    match RefundArgs::from_model("{\n  \"order_id\": ,\n}").unwrap_err() {
        ArgsError::Syntax(error) => {
            assert_eq!((error.line, error.column), (Some(2), Some(15)));
            assert_eq!(error.kind, toolargs::rejection::SyntaxKind::Arguments);
            assert!(!error.message.contains("at line"), "{}", error.message);
        }
        other => panic!("expected Syntax, got {other:?}"),
    }
}

#[test]
fn depth_limits_apply() {
    let options = Options::default().max_depth(2);
    let error = RefundArgs::from_model_with(
        r#"{"order_id": "ord_1", "amount_cents": 1, "reason": "late", "filter": {"since": [[1]]}}"#,
        &options,
    )
    .unwrap_err();
    assert!(matches!(error, ArgsError::Limit(_)), "{error:?}");
}

#[test]
fn deserialization_failures_after_validation_have_a_pointer() {
    match Picky::from_model(r#"{"n": 3}"#).unwrap_err() {
        ArgsError::Deserialize { pointer, message } => {
            assert_eq!(pointer, "/n");
            assert!(message.contains("3 is odd"), "{message}");
        }
        other => panic!("expected Deserialize, got {other:?}"),
    }
    assert_eq!(Picky::from_model(r#"{"n": 4}"#).unwrap().value.n, 4);
    // The same from a value, and from text whose value is normalized first
    // (a `\u` escape makes the scan call for it).
    let from_text = Picky::from_model(r#"{"n": 3}"#).unwrap_err();
    assert_eq!(Picky::from_model(json!({"n": 3})).unwrap_err(), from_text);
    assert_eq!(
        Picky::from_model("{\"\\u006e\": 3}").unwrap_err(),
        from_text
    );
}

#[test]
fn errors_serialize_for_logs_and_models() {
    let error = RefundArgs::from_model(json!({"order_id": "ord_1", "reason": "late"})).unwrap_err();
    let as_json = serde_json::to_value(&error).unwrap();
    assert_eq!(as_json["error"], "invalid");
    assert_eq!(as_json["detail"][0]["pointer"], "/amount_cents");
    assert_eq!(as_json["detail"][0]["keyword"], "required");
    assert!(
        error
            .to_string()
            .contains("missing required field `amount_cents`")
    );
}

#[test]
fn schema_is_closed_documented_and_cached() {
    let schema = RefundArgs::input_schema();
    assert!(
        std::ptr::eq(schema, RefundArgs::input_schema()),
        "computed once"
    );
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["description"], "Which orders to refund.");
    assert_eq!(
        schema["properties"]["order_id"]["description"],
        "The order, e.g. `ord_123`."
    );
    // Nested derive-owned struct: closed too. A plain enum: left alone.
    assert_eq!(schema["$defs"]["Filter"]["additionalProperties"], false);
    // An alias is not shown: the model writes the wire name only.
    assert!(schema["properties"].get("labels").is_none(), "{schema}");
    // Validation reads the same schema plus the alias, declared with the
    // field's schema and marked as an alias.
    let validating = RefundArgs::validator().schema();
    let mut alias = validating["properties"]["labels"].clone();
    assert_eq!(alias["x-toolargs-alias-of"], "tags");
    alias.as_object_mut().unwrap().remove("x-toolargs-alias-of");
    assert_eq!(alias, validating["properties"]["tags"]);
    assert_eq!(
        &toolargs::export::aliases::without_aliases(validating).into_owned(),
        schema
    );
}

#[test]
fn open_types_accept_unknown_fields() {
    // Opening is said explicitly, so closing the document leaves it open.
    assert_eq!(OpenArgs::input_schema()["additionalProperties"], true);
    let parsed = OpenArgs::from_model(r#"{"query": "a", "extra": "&lt;"}"#).unwrap();
    assert_eq!(parsed.value.query, "a");
    assert_eq!(parsed.report.repairs[0].pointer, "/extra");
}

#[test]
fn nothing_is_coerced() {
    let violations = invalid(Filter::from_model(r#"{"since": 2024}"#).unwrap_err());
    assert_eq!(violations.0[0].expected, "string or null");
    assert_eq!(violations.0[0].found, "integer 2024");
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug)]
struct Page<T> {
    items: Vec<T>,
}

#[test]
fn generic_types_cache_one_schema_per_instantiation() {
    let of_filters = Page::<Filter>::input_schema();
    let of_numbers = Page::<u32>::input_schema();
    assert_ne!(of_filters, of_numbers);
    assert_eq!(
        of_numbers["properties"]["items"]["items"]["type"],
        "integer"
    );
    assert!(std::ptr::eq(of_filters, Page::<Filter>::input_schema()));
    let parsed = Page::<u32>::from_model(r#"{"items": "[1, 2]"}"#).unwrap();
    assert_eq!(parsed.value.items, [1, 2]);
    assert!(Page::<u32>::from_model(r#"{"items": ["1"]}"#).is_err());
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct AllOptional {
    limit: Option<u32>,
}

#[test]
fn empty_text_means_no_arguments_as_in_every_call_format() {
    for text in ["", " \n\t\r "] {
        assert_eq!(AllOptional::from_model(text).unwrap().value.limit, None);
    }
    // Other Unicode spaces are not JSON whitespace: still not JSON.
    assert!(matches!(
        AllOptional::from_model("\u{a0}\u{3000}"),
        Err(toolargs::ArgsError::Syntax(_))
    ));
}
