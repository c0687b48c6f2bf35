//! The contract model: what serde does with a derived type, stated by the
//! derive and checked where JSON Schema cannot say it. A Rust integer
//! refuses a number written with a fraction or an exponent (`5.0`, `5e0`),
//! which JSON Schema's `integer` takes: validation rejects it at the
//! member's own pointer, inside flattened structs too.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::json;
use std::collections::HashMap;
use toolargs::stream::ArgsStream;
use toolargs::{ArgsError, ToolArgs, validate::Violations};

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Paging {
    count: u32,
    offset: Option<i64>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Search {
    #[serde(alias = "max")]
    limit: u32,
    ratio: f64,
    #[serde(flatten)]
    paging: Paging,
    #[serde(default)]
    ids: Vec<u64>,
    #[serde(default)]
    weights: HashMap<String, u8>,
    inner: Option<Box<Paging>>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Counts {
    #[serde(flatten)]
    by_name: HashMap<String, u16>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(transparent)]
struct Wrapped {
    paging: Paging,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Lenient {
    /// Read by a function of its own, which takes `5.0`: not the model's to
    /// refuse.
    #[serde(deserialize_with = "whole_number")]
    n: u32,
}

fn whole_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let n = f64::deserialize(deserializer)?;
    Ok(n as u32)
}

fn invalid(error: ArgsError) -> Violations {
    match error {
        ArgsError::Invalid(violations) => violations,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

fn pointers<T: ToolArgs + std::fmt::Debug>(text: &str) -> Vec<String> {
    let violations = invalid(T::from_model(text).unwrap_err());
    for violation in &violations.0 {
        assert_eq!(
            violation.expected,
            "an integer written without a fraction or an exponent"
        );
        // serde refuses the same value: the violation is the type's rule.
        assert!(serde_json::from_str::<T>(text).is_err());
    }
    violations.0.into_iter().map(|v| v.pointer).collect()
}

const CLEAN: &str = r#"{"limit": 5, "ratio": 0.5, "count": 1}"#;

#[test]
fn integers_written_plainly_pass_and_floats_take_fractions() {
    let parsed = Search::from_model(CLEAN).unwrap();
    assert_eq!(parsed.value.limit, 5);
    let parsed = Search::from_model(
        r#"{"max": 5, "ratio": 5.0, "count": 1, "offset": -3, "ids": [1, 2], "weights": {"a": 1}}"#,
    )
    .unwrap();
    assert_eq!(parsed.value.ratio, 5.0);
    assert_eq!(parsed.value.paging.offset, Some(-3));
}

#[test]
fn a_fraction_or_an_exponent_for_an_integer_is_refused_at_its_pointer() {
    assert_eq!(
        pointers::<Search>(r#"{"limit": 5000.0, "ratio": 1, "count": 1}"#),
        ["/limit"]
    );
    assert_eq!(
        pointers::<Search>(r#"{"limit": 5e0, "ratio": 1, "count": 1}"#),
        ["/limit"]
    );
    assert_eq!(
        pointers::<Search>(r#"{"max": 5E2, "ratio": 1, "count": 1}"#),
        ["/max"]
    );
    assert_eq!(
        pointers::<Search>(r#"{"limit": 1, "ratio": 1, "count": 1, "offset": -3.0}"#),
        ["/offset"]
    );
}

#[test]
fn inside_a_flattened_struct_the_pointer_is_the_members() {
    // serde's own error has the root pointer here: its flatten buffer hides
    // the member.
    assert_eq!(
        pointers::<Search>(r#"{"limit": 1, "ratio": 1, "count": 1.0}"#),
        ["/count"]
    );
    assert_eq!(pointers::<Counts>(r#"{"a": 1, "b": 2.5e1}"#), ["/b"]);
}

#[test]
fn inside_sequences_maps_options_and_boxes() {
    assert_eq!(
        pointers::<Search>(
            r#"{"limit": 1, "ratio": 1, "count": 1, "ids": [1, 2.0], "weights": {"w": 3.0},
                "inner": {"count": 4.0}}"#
        ),
        ["/ids/1", "/weights/w", "/inner/count"]
    );
    assert_eq!(pointers::<Wrapped>(r#"{"count": 1.0}"#), ["/count"]);
}

#[test]
fn every_violation_is_reported_at_once_beside_the_schemas() {
    let violations =
        invalid(Search::from_model(r#"{"limit": 1.0, "ratio": "x", "count": 2.0}"#).unwrap_err());
    let mut pointers: Vec<&str> = violations.0.iter().map(|v| v.pointer.as_str()).collect();
    pointers.sort_unstable();
    assert_eq!(pointers, ["/count", "/limit", "/ratio"]);
}

#[test]
fn a_field_read_its_own_way_is_not_the_models_to_refuse() {
    assert_eq!(Lenient::from_model(r#"{"n": 5.0}"#).unwrap().value.n, 5);
}

#[test]
fn the_validator_and_the_stream_apply_it_alike() {
    let value = json!({"limit": 1, "ratio": 1, "count": 1.0});
    let violations = Search::validator().validate(&value).unwrap_err();
    assert_eq!(violations.0[0].pointer, "/count");

    let mut stream = ArgsStream::<Search>::new();
    stream.push(r#"{"limit": 1, "ratio": 1, "count": 1.0}"#);
    assert_eq!(invalid(stream.finish().unwrap_err()).0[0].pointer, "/count");
}

#[derive(Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Refund,
    Exchange,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Request {
    kind: Kind,
    note: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Ticket {
    request: Option<Request>,
    fallback: Option<Kind>,
}

#[test]
fn a_violation_inside_an_option_is_reported_inside_it() {
    let violations =
        invalid(Ticket::from_model(r#"{"request": {"kind": "return", "note": "x"}}"#).unwrap_err());
    assert_eq!(violations.0.len(), 1, "{violations:?}");
    assert_eq!(violations.0[0].pointer, "/request/kind");
    assert!(
        violations.0[0].expected.contains("refund"),
        "{violations:?}"
    );

    let violations = invalid(Ticket::from_model(r#"{"request": {"kind": "refund"}}"#).unwrap_err());
    assert_eq!(violations.0[0].pointer, "/request/note");

    // A value of another type is still "this or null", at the member.
    let violations = invalid(Ticket::from_model(r#"{"request": 5}"#).unwrap_err());
    assert_eq!(violations.0[0].pointer, "/request");
    assert!(violations.0[0].expected.contains("null"), "{violations:?}");
    // So is a scalar the branch refuses as a whole.
    let violations = invalid(Ticket::from_model(r#"{"fallback": "return"}"#).unwrap_err());
    assert_eq!(violations.0[0].pointer, "/fallback");
}

/// Internally tagged, a variant with an enum member.
#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Job {
    Scan { kind: Kind, depth: u32 },
    Stop { reason: String },
}

/// Adjacently tagged, a variant whose content is an enum.
#[derive(Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
enum Picked {
    Pick(Kind),
    Count(u32),
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Jobs {
    job: Option<Job>,
    picked: Option<Picked>,
}

/// Where the whole call of `T` on `text` is reported.
fn reported<T: ToolArgs + std::fmt::Debug>(text: &str) -> Vec<String> {
    let violations = invalid(T::from_model(text).unwrap_err());
    violations.0.into_iter().map(|v| v.pointer).collect()
}

#[test]
fn a_violation_inside_a_tagged_variant_is_reported_inside_the_variant_its_tag_names() {
    let text = r#"{"type": "scan", "kind": "return", "depth": 1}"#;
    let violations = invalid(Job::from_model(text).unwrap_err());
    assert_eq!(violations.0.len(), 1, "{violations:?}");
    assert_eq!(violations.0[0].pointer, "/kind");
    assert_eq!(violations.0[0].keyword, "enum");
    assert_eq!(
        violations.0[0].message,
        r#"expected one of "refund", "exchange", found string "return""#
    );
    // Every violation of that variant, at once.
    let text = r#"{"type": "scan", "kind": "return", "depth": "x", "zz": 1}"#;
    let mut found = reported::<Job>(text);
    found.sort();
    assert_eq!(found, ["/depth", "/kind", "/zz"]);
    // Inside an `Option`, and adjacently tagged.
    let text = r#"{"job": {"type": "scan", "kind": "return", "depth": 1}, "picked": {"t": "pick", "c": "return"}}"#;
    assert_eq!(reported::<Jobs>(text), ["/job/kind", "/picked/c"]);
    // A tag normalization decodes names the variant as decoded.
    let text = r#"{"type": "sc&#97;n", "kind": "return", "depth": 1}"#;
    assert_eq!(reported::<Job>(text), ["/kind"]);
    // A tag no variant allows is reported at the tag, as before.
    let text = r#"{"type": "zap", "kind": "return", "depth": 1}"#;
    let violations = invalid(Job::from_model(text).unwrap_err());
    assert_eq!(violations.0[0].pointer, "/type");
    assert_eq!(violations.0[0].keyword, "const");
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug)]
#[allow(dead_code)]
struct Extras {
    q: String,
    #[serde(flatten)]
    rest: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug)]
#[allow(dead_code)]
struct Nested {
    inner: Option<Extras>,
}

#[test]
fn strict_mode_refuses_a_derived_type_that_flattens_free_form_members() {
    use toolargs::export::{Dialect, StrictError, StrictSchema};
    use toolargs::toolbox::{RegisterError, Toolbox};
    for error in [
        StrictSchema::of::<Extras>().unwrap_err(),
        StrictSchema::of::<Nested>().unwrap_err(),
    ] {
        assert_eq!(
            error,
            StrictError::FlattenedFreeForm {
                type_name: "Extras".to_owned(),
                field: "rest".to_owned(),
            }
        );
    }
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    let Err(refused) = toolbox.tool_sync("note", "Notes.", |_: Extras| Ok::<_, String>(())) else {
        panic!("refused at registration")
    };
    assert!(matches!(
        refused,
        RegisterError::Strict {
            source: StrictError::FlattenedFreeForm { .. },
            ..
        }
    ));
    // A type without one is made strict as before.
    StrictSchema::of::<Search>().unwrap();
    // The canonical dialect keeps the members.
    let parsed = Extras::from_model(r#"{"q": "x", "color": "red"}"#).unwrap();
    assert_eq!(parsed.value.rest["color"], "red");
}

#[test]
fn a_repeated_field_is_refused_at_its_pointer_as_serde_refuses_it() {
    let text = r#"{"limit": 1, "ratio": 1, "count": 1, "limit": 2}"#;
    assert!(
        serde_json::from_str::<Search>(text)
            .unwrap_err()
            .to_string()
            .contains("duplicate field")
    );
    let violations = invalid(Search::from_model(text).unwrap_err());
    assert_eq!(violations.0.len(), 1, "{violations:?}");
    assert_eq!(violations.0[0].pointer, "/limit");
    assert_eq!(violations.0[0].keyword, "repeatedKey");
    // Under an alias, in a flattened struct, in a nested struct.
    for (text, pointer) in [
        (
            r#"{"limit": 1, "max": 2, "ratio": 1, "count": 1}"#,
            Some("/max"),
        ),
        (
            r#"{"max": 1, "max": 2, "ratio": 1, "count": 1}"#,
            Some("/max"),
        ),
        (
            r#"{"limit": 1, "ratio": 1, "count": 1, "count": 2}"#,
            Some("/count"),
        ),
        (
            r#"{"limit": 1, "ratio": 1, "count": 1, "inner": {"count": 1, "count": 1}}"#,
            Some("/inner/count"),
        ),
    ] {
        let found = Search::from_model(text)
            .err()
            .map(|e| invalid(e).0[0].pointer.clone());
        assert_eq!(found.as_deref(), pointer, "{text}");
    }
}

#[test]
fn a_repeated_key_in_a_map_keeps_the_last_as_serde_does() {
    let text = r#"{"limit": 1, "ratio": 1, "count": 1, "weights": {"w": 1, "w": 2}}"#;
    let ours = Search::from_model(text).unwrap().value;
    assert_eq!(ours, serde_json::from_str::<Search>(text).unwrap());
    assert_eq!(ours.weights["w"], 2);
    let counts = Counts::from_model(r#"{"a": 1, "a": 2}"#).unwrap().value;
    assert_eq!(counts.by_name["a"], 2);
}

#[test]
fn streamed_text_and_the_toolbox_judge_repeats_alike() {
    use toolargs::rejection::Rejection;
    use toolargs::toolbox::Toolbox;
    let text = r#"{"limit": 1, "ratio": 1, "count": 1, "count": 2}"#;
    let mut stream = ArgsStream::<Search>::new();
    for piece in text.as_bytes().chunks(7) {
        stream.push(std::str::from_utf8(piece).unwrap());
    }
    assert_eq!(invalid(stream.finish().unwrap_err()).0[0].pointer, "/count");

    let mut toolbox: Toolbox = Toolbox::new();
    toolbox
        .tool_sync("search", "Searches.", |_: Search| Ok::<_, String>(()))
        .unwrap();
    let mut call = toolargs::call::ToolCall::new("search", json!({}));
    call.arguments = toolargs::call::Arguments::Text(text.into());
    let Err(error) = toolbox.check(&(), call) else {
        panic!("rejected")
    };
    match error.rejection() {
        Some(Rejection::InvalidArguments(invalid)) => {
            assert_eq!(invalid.violations[0].pointer, "/count");
        }
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

/// Arguments sent as an object inside an envelope (Anthropic `input`,
/// Gemini `args`, MCP `arguments`, OpenAI `arguments` as an object) whose
/// text repeats a field are judged as the same arguments sent as text: the
/// reader keeps them as their text, where the repeat shows.
#[test]
fn arguments_inside_an_envelope_show_their_repeats() {
    use toolargs::call::{Arguments, read};
    use toolargs::rejection::Rejection;
    use toolargs::toolbox::Toolbox;
    let mut toolbox: Toolbox = Toolbox::new();
    toolbox
        .tool_sync("search", "Searches.", |_: Search| Ok::<_, String>(()))
        .unwrap();
    let args = r#"{"limit": 1, "ratio": 1, "count": 1, "count": 2}"#;
    for message in [
        format!(
            r#"{{"role": "assistant", "content": [{{"type": "tool_use", "id": "t1", "name": "search", "input": {args}}}]}}"#
        ),
        format!(r#"{{"functionCall": {{"name": "search", "args": {args}}}}}"#),
        format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {{"name": "search", "arguments": {args}}}}}"#
        ),
        format!(r#"{{"name": "search", "arguments": {args}}}"#),
        format!(
            r#"{{"role": "assistant", "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "search", "arguments": {args}}}}}]}}"#
        ),
    ] {
        let call = read(&message).unwrap().into_calls().unwrap().remove(0);
        assert_eq!(
            call.arguments,
            Arguments::Text(args.to_owned()),
            "{message}"
        );
        let Err(error) = toolbox.check(&(), call) else {
            panic!("accepted: {message}")
        };
        match error.rejection() {
            Some(Rejection::InvalidArguments(invalid)) => {
                assert_eq!(invalid.violations[0].pointer, "/count", "{message}");
                assert_eq!(invalid.violations[0].keyword, "repeatedKey", "{message}");
            }
            other => panic!("expected invalid arguments, got {other:?}"),
        }
    }
    // Without a repeat, an object stays a value; a repeat elsewhere in the
    // envelope changes nothing.
    let clean = r#"{"limit": 1, "ratio": 1, "count": 1}"#;
    let message =
        format!(r#"{{"functionCall": {{"name": "search", "name": "search", "args": {clean}}}}}"#);
    let call = read(&message).unwrap().into_calls().unwrap().remove(0);
    assert!(matches!(call.arguments, Arguments::Value(_)));
    assert!(toolbox.check(&(), call).is_ok());
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Step {
    Wait(u32),
    Move { x: i32, y: i32 },
    Pair(u8, f64),
    Stop,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: u32 },
    Square(Side),
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Side {
    side: u16,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Event {
    Count(u64),
    Note(String),
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Plan {
    steps: Vec<Step>,
    shape: Shape,
    event: Option<Event>,
    page: Page<u32>,
}

#[test]
fn tagged_enum_variants_and_generic_arguments_have_their_integers_checked() {
    let clean = r#"{"steps": [{"wait": 1}, {"move": {"x": -1, "y": 2}}, {"pair": [1, 0.5]}, "stop"],
        "shape": {"kind": "square", "side": 3}, "event": {"t": "Count", "c": 7}, "page": {"items": [1]}}"#;
    Plan::from_model(clean).unwrap();
    for (text, pointer) in [
        (
            clean.replace(r#"{"wait": 1}"#, r#"{"wait": 1.0}"#),
            "/steps/0/wait",
        ),
        (clean.replace(r#""y": 2"#, r#""y": 2e0"#), "/steps/1/move/y"),
        (clean.replace("[1, 0.5]", "[1.0, 0.5]"), "/steps/2/pair/0"),
        (
            clean.replace(r#""side": 3"#, r#""side": 3.0"#),
            "/shape/side",
        ),
        (
            clean.replace(
                r#""kind": "square", "side": 3"#,
                r#""kind": "circle", "radius": 1.0"#,
            ),
            "/shape/radius",
        ),
        (clean.replace(r#""c": 7"#, r#""c": 7.0"#), "/event/c"),
        (
            clean.replace(r#""items": [1]"#, r#""items": [1.0]"#),
            "/page/items/0",
        ),
    ] {
        assert_eq!(pointers::<Plan>(&text), [pointer], "{text}");
    }
}

/// Inside a tagged enum, serde refuses a repeated key where a struct reads
/// it: a struct variant's field, an internally tagged variant's tag or
/// field, an adjacently tagged enum's tag or content, and any second key of
/// an externally tagged enum's object (which holds exactly one).
#[test]
fn a_repeated_key_inside_a_tagged_enum_is_refused_as_serde_refuses_it() {
    let clean = r#"{"steps": [{"wait": 1}, {"move": {"x": -1, "y": 2}}, "stop"],
        "shape": {"kind": "square", "side": 3}, "event": {"t": "Count", "c": 7}, "page": {"items": [1]}}"#;
    for (text, pointer) in [
        (
            clean.replace(r#""x": -1"#, r#""x": -1, "x": 2"#),
            "/steps/1/move/x",
        ),
        (
            clean.replace(r#"{"wait": 1}"#, r#"{"wait": 1, "wait": 2}"#),
            "/steps/0/wait",
        ),
        (
            clean.replace(
                r#""kind": "square""#,
                r#""kind": "circle", "kind": "square""#,
            ),
            "/shape/kind",
        ),
        (
            clean.replace(r#""side": 3"#, r#""side": 3, "side": 4"#),
            "/shape/side",
        ),
        (
            clean.replace(
                r#""kind": "square", "side": 3"#,
                r#""kind": "circle", "radius": 1, "radius": 2"#,
            ),
            "/shape/radius",
        ),
        (
            clean.replace(r#""t": "Count""#, r#""t": "Note", "t": "Count""#),
            "/event/t",
        ),
        (clean.replace(r#""c": 7"#, r#""c": 7, "c": 8"#), "/event/c"),
    ] {
        assert!(serde_json::from_str::<Plan>(&text).is_err(), "{text}");
        let violations = invalid(Plan::from_model(&text).unwrap_err());
        assert_eq!(violations.0.len(), 1, "{text}: {violations:?}");
        assert_eq!(violations.0[0].pointer, pointer, "{text}");
        assert_eq!(violations.0[0].keyword, "repeatedKey", "{text}");
    }
}

#[test]
fn the_model_is_shown_wire_names_only_and_no_unreferenced_definition() {
    // `Search` reads `limit` under the alias `max` too.
    let shown = Search::input_schema();
    assert!(shown["properties"].get("max").is_none(), "{shown}");
    assert!(!shown.to_string().contains("x-toolargs-alias-of"));
    // Validation still takes the alias (keys are never rewritten).
    let parsed = Search::from_model(r#"{"max": 3, "ratio": 1, "count": 1}"#).unwrap();
    assert_eq!(parsed.value.limit, 3);
    // A transparent wrapper's root is its field's struct, inlined: the
    // definition it was copied from is not shown again.
    let wrapped = Wrapped::input_schema();
    assert_eq!(wrapped["type"], "object");
    assert!(wrapped.get("$defs").is_none(), "{wrapped}");
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct OrderId(u64);

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Span(u32, f64);

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Refund {
    order: OrderId,
    span: Span,
    pair: (u8, String),
}

#[test]
fn newtype_tuple_structs_and_tuples_have_their_integers_checked() {
    let clean = r#"{"order": 7, "span": [1, 0.5], "pair": [2, "x"]}"#;
    Refund::from_model(clean).unwrap();
    for (text, pointer) in [
        (clean.replace(r#""order": 7"#, r#""order": 7.0"#), "/order"),
        (clean.replace("[1, 0.5]", "[1.0, 0.5]"), "/span/0"),
        (clean.replace(r#"[2, "x"]"#, r#"[2e0, "x"]"#), "/pair/0"),
    ] {
        assert_eq!(pointers::<Refund>(&text), [pointer], "{text}");
    }
}

/// Where the model stops seeing what serde does: named by type and field.
#[test]
fn the_first_unknown_node_is_named_where_serde_reads_its_own_way() {
    use toolargs::contract::model::first_unknown;
    #[derive(Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "kind")]
    #[allow(dead_code)] // read by serde only
    enum Either {
        Left { n: u32 },
    }
    #[derive(Deserialize, JsonSchema, ToolArgs)]
    #[allow(dead_code)] // read by serde only
    struct Flat {
        #[serde(flatten)]
        either: Either,
    }
    assert_eq!(first_unknown(Plan::__node()), None);
    assert_eq!(first_unknown(Search::__node()), None);
    assert_eq!(
        first_unknown(Lenient::__node()).as_deref(),
        Some("Lenient.n")
    );
    assert_eq!(
        first_unknown(Flat::__node()).as_deref(),
        Some("Flat.either")
    );
    assert_eq!(first_unknown(Either::__node()), None);
}

/// serde hands a flattened map every member no field before it took: a
/// later flattened struct's members too, which must then suit the map's
/// entries. A struct that flattens fields of its own is read as a map and
/// takes none; an internally tagged variant's map never sees the tag.
#[test]
fn a_flattened_map_reads_the_members_of_the_flattened_fields_after_it() {
    use std::collections::BTreeMap;
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct Page {
        count: u32,
        note: Option<String>,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct Before {
        id: String,
        #[serde(flatten)]
        small: BTreeMap<String, u8>,
        #[serde(flatten)]
        page: Page,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct After {
        id: String,
        #[serde(flatten)]
        page: Page,
        #[serde(flatten)]
        small: BTreeMap<String, u8>,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct Small {
        #[serde(flatten)]
        small: BTreeMap<String, u8>,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct Nested {
        #[serde(flatten)]
        first: Small,
        #[serde(flatten)]
        page: Page,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    #[serde(tag = "kind")]
    enum Job {
        Count {
            #[serde(flatten)]
            small: BTreeMap<String, u8>,
        },
    }

    /// `from_model` accepts exactly what serde accepts; where serde
    /// refuses, the violations' pointers and what each expected.
    fn judged<T>(text: &str) -> Option<Vec<(String, String)>>
    where
        T: ToolArgs + std::fmt::Debug + PartialEq + serde::de::DeserializeOwned,
    {
        match (T::from_model(text), serde_json::from_str::<T>(text)) {
            (Ok(ours), Ok(serde)) => {
                assert_eq!(ours.value, serde, "{text}");
                None
            }
            (Err(error), Err(_)) => Some(
                invalid(error)
                    .0
                    .into_iter()
                    .map(|v| (v.pointer, v.expected))
                    .collect(),
            ),
            (ours, serde) => panic!("{text}: ours {ours:?}, serde {serde:?}"),
        }
    }

    let byte = "an integer from 0 to 255".to_owned();
    // The map reads `count` too: 300 suits the struct's `u32`, not the
    // map's `u8`; `note` is no integer at all.
    let text = r#"{"id": "a", "count": 300, "note": "hi", "x": 1}"#;
    assert_eq!(
        judged::<Before>(text),
        Some(vec![
            ("/count".to_owned(), byte.clone()),
            ("/note".to_owned(), byte.clone()),
        ])
    );
    assert_eq!(judged::<After>(text), None);
    assert_eq!(
        judged::<Nested>(text),
        Some(vec![
            // Declared by no struct: the schema's map entry refuses it.
            ("/id".to_owned(), "integer".to_owned()),
            ("/count".to_owned(), byte.clone()),
            ("/note".to_owned(), byte.clone()),
        ])
    );
    // Members the map can read as well: taken by both, as serde does.
    let text = r#"{"id": "a", "count": 30, "x": 1}"#;
    assert_eq!(judged::<Before>(text), None);
    assert_eq!(judged::<After>(text), None);
    assert_eq!(judged::<Nested>(r#"{"count": 30, "x": 1}"#), None);
    // The tag is not the variant's to read.
    assert_eq!(judged::<Job>(r#"{"kind": "Count", "x": 1}"#), None);
    assert_eq!(
        judged::<Job>(r#"{"kind": "Count", "x": 1000}"#).map(|v| v.len()),
        Some(1)
    );
}

/// A type that derives only `JsonSchema` has no model, but serde's own
/// reading says which of its fields are Rust integers (learned once, with
/// its aliases): `5.0` there is refused at the member, where serde's error
/// names the root or the struct. A field read by a function of its own
/// still takes it.
#[test]
fn an_integer_of_a_type_without_the_derive_refuses_a_fraction_at_its_pointer() {
    fn lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        Ok(f64::deserialize(deserializer)? as u32)
    }
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Window {
        #[serde(alias = "from")]
        start: u32,
        end: Option<i64>,
        #[serde(deserialize_with = "lenient")]
        #[schemars(with = "u32")]
        step: u32,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct Scan {
        window: Window,
        windows: Vec<Window>,
    }
    let text = r#"{"window": {"start": 5.0, "end": 2e1, "step": 1}, "windows": [{"from": 1.5, "step": 2.0}]}"#;
    assert!(serde_json::from_str::<Scan>(text).is_err());
    assert_eq!(
        reported::<Scan>(text),
        ["/window/start", "/window/end", "/windows/0/from"]
    );
    // A whole `step` sent as `2.0` is serde's to take.
    let text = r#"{"window": {"start": 5, "end": null, "step": 2.0}, "windows": []}"#;
    let parsed = Scan::from_model(text).unwrap();
    assert_eq!(parsed.value, serde_json::from_str::<Scan>(text).unwrap());
}

/// A type that derives only `JsonSchema` is shown the fields serde
/// requires as required, whatever schemars decided: schemars reads a field
/// optional by its type and its own attributes (`#[schemars(default)]`, an
/// `Option` read by a `deserialize_with`), and required by
/// `#[schemars(required)]`, where serde decides otherwise. Learned once,
/// from serde's own reading (which field it names missing), and written
/// into the schema shown and validated alike: a call that leaves out a
/// field serde needs is refused at that field's pointer, and
/// one that leaves out a field serde does not need is taken.
#[test]
fn a_type_without_the_derive_requires_what_serde_requires() {
    fn some_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
        u32::deserialize(deserializer).map(Some)
    }
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Range {
        /// serde has no default for it: required, though schemars was told
        /// otherwise.
        #[schemars(default)]
        start: u32,
        /// A `deserialize_with` makes even an `Option` required.
        #[serde(deserialize_with = "some_number")]
        end: Option<u32>,
        /// An `Option` serde takes absent, though schemars was told to
        /// require it.
        #[schemars(required)]
        step: Option<u32>,
        note: Option<String>,
    }
    #[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
    struct Slice {
        range: Range,
        ranges: Vec<Range>,
    }
    let schema = Slice::input_schema();
    let range = schema["$defs"]["Range"].clone();
    assert_eq!(range["required"], json!(["start", "end"]), "{range:#}");
    assert_eq!(
        Slice::validator().schema()["$defs"]["Range"]["required"],
        json!(["start", "end"])
    );

    // Each left-out field serde needs, at its own pointer.
    let text = r#"{"range": {"end": 2}, "ranges": [{"start": 1}]}"#;
    assert!(serde_json::from_str::<Slice>(text).is_err());
    let violations = invalid(Slice::from_model(text).unwrap_err());
    let found: Vec<(&str, &str)> = violations
        .0
        .iter()
        .map(|v| (v.pointer.as_str(), v.keyword.as_str()))
        .collect();
    assert_eq!(
        found,
        [("/range/start", "required"), ("/ranges/0/end", "required")]
    );

    // `step` left out: serde takes it, and so does validation.
    let text = r#"{"range": {"start": 1, "end": 2}, "ranges": []}"#;
    let parsed = Slice::from_model(text).unwrap();
    assert_eq!(parsed.value, serde_json::from_str::<Slice>(text).unwrap());
}
