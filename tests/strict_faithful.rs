//! The OpenAI strict form is a faithful encoding of the declared schema:
//! every declared value has a strict form that restores to exactly it, a
//! strict call is restored along the branch it validated against, and
//! strict mode changes what the model is shown, never what is enforced.

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::LazyLock;
use toolargs::call::ToolCall;
use toolargs::export::strict::Change;
use toolargs::export::{Dialect, StrictError, StrictSchema};
use toolargs::rejection::{CallError, InvalidArguments, Rejection};
use toolargs::toolbox::{RegisterError, Toolbox};
use toolargs::{ToolArgs, validate::Validator};

// ---------------------------------------------------------------------------
// Types under test
// ---------------------------------------------------------------------------

/// Externally tagged, a map in the second variant.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
enum Weighting {
    Uniform(String),
    Weighted(BTreeMap<String, u32>),
}

/// Untagged: a list, or a map (written as pairs in strict form, also an
/// array).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
enum Ids {
    List(Vec<String>),
    Weights(BTreeMap<String, u32>),
}

/// Rank results.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Rank {
    by: Weighting,
    ids: Ids,
}

/// A tag; its schema name has a space, so references to it are
/// percent-encoded (`#/$defs/Tag%20Args`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[schemars(rename = "Tag Args")]
struct TagArgs {
    name: String,
    attrs: BTreeMap<String, String>,
}

/// Tag things.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Tagging {
    /// The main tag (a description beside the reference: inlined).
    tag: TagArgs,
    /// More tags (a bare reference: kept as a reference).
    more: Vec<TagArgs>,
    spare: Option<TagArgs>,
}

/// Labels, as a map at the root.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
struct Labels(BTreeMap<String, String>);

/// Internally tagged, flattened into `Notify`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind")]
enum Via {
    Email {
        addr: String,
    },
    Sms {
        phone: String,
        carrier: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
struct Notify {
    to: String,
    #[serde(flatten)]
    via: Via,
}

/// Raise an alert.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Alert {
    notify: Notify,
    backup: Option<Notify>,
}

/// An alert inside another struct.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Escalate {
    alert: Alert,
    level: u8,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "pace")]
enum Pace {
    Fast,
    Slow { reason: String },
}

/// Two flattened enums: one merged object per pair of variants.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
struct Route {
    #[serde(flatten)]
    via: Via,
    #[serde(flatten)]
    pace: Pace,
    tolls: BTreeMap<String, u32>,
}

/// A flattened struct that itself flattens an enum.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
struct Leg {
    from: String,
    #[serde(flatten)]
    route: Route,
}

/// Dispatch legs.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Dispatch {
    legs: Vec<Leg>,
    first: Option<Route>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
struct SearchArgs {
    query: String,
    boosts: BTreeMap<String, u32>,
}

/// Internally tagged with a newtype variant: `$ref` beside the tag's
/// `properties`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "type")]
enum Step {
    Search(SearchArgs),
    Wait { seconds: u32 },
    Stop,
}

/// Adjacently tagged, a map payload.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adj {
    Weights(BTreeMap<String, u32>),
    Note(String),
    Empty,
}

/// Plan steps.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Plan {
    steps: Vec<Step>,
    adj: Adj,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
struct Inner {
    weights: BTreeMap<String, Adj>,
    via: Option<Via>,
}

/// Everything at once, nested.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Everything {
    title: String,
    note: Option<String>,
    count: Option<u32>,
    labels: BTreeMap<String, String>,
    by: Weighting,
    step: Step,
    adj: Adj,
    ids: Ids,
    notify: Notify,
    history: Vec<Weighting>,
    nested: Option<Inner>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
struct Filter {
    #[serde(alias = "f")]
    field: String,
    #[serde(alias = "v", default)]
    value: Option<String>,
}

/// Find things; fields with serde aliases, at the root and nested.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Find {
    #[serde(alias = "q")]
    query: String,
    filters: Vec<Filter>,
}

/// Issue a coupon.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Coupon {
    #[schemars(length(min = 3, max = 12))]
    code: String,
    #[schemars(regex(pattern = r"^[A-Z]{2}$"))]
    region: Option<String>,
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// A strict toolbox with `T` as a typed tool (`name`, echoing its typed
/// arguments) and as a dynamic tool (`{name}_dyn`, echoing what its body
/// receives).
fn strict_toolbox<T>(name: &str) -> Toolbox
where
    T: ToolArgs + Serialize + Send + 'static,
{
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .tool_sync(name, "typed", |args: T| Ok::<_, String>(args))
        .unwrap();
    toolbox
        .dynamic_tool_sync(
            &format!("{name}_dyn"),
            "dynamic",
            T::input_schema().clone(),
            |args: Value| Ok::<_, String>(args),
        )
        .unwrap();
    toolbox.check_drift().unwrap();
    toolbox
}

fn call(toolbox: &Toolbox, name: &str, arguments: Value) -> Result<Value, CallError> {
    toolbox
        .call_blocking(&(), ToolCall::new(name, arguments))
        .map(|done| done.output)
}

fn invalid(result: Result<Value, CallError>) -> InvalidArguments {
    match result {
        Err(CallError::Rejected(Rejection::InvalidArguments(invalid))) => invalid,
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

/// Calls both the typed and the dynamic tool with the strict `arguments`
/// and checks each body receives exactly `expected` (and the typed body
/// the value `T` deserializes it to).
fn round_trip<T>(toolbox: &Toolbox, name: &str, arguments: Value, expected: &T)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let canonical = serde_json::to_value(expected).unwrap();
    let typed = call(toolbox, name, arguments.clone()).unwrap();
    assert_eq!(&serde_json::from_value::<T>(typed).unwrap(), expected);
    let dynamic = call(toolbox, &format!("{name}_dyn"), arguments).unwrap();
    assert_eq!(dynamic, canonical);
}

// ---------------------------------------------------------------------------
// 1. Restore follows the branch the value validated against
// ---------------------------------------------------------------------------

#[test]
fn restore_follows_the_validated_branch_of_an_externally_tagged_enum() {
    let toolbox = strict_toolbox::<Rank>("rank");
    let expected = Rank {
        by: Weighting::Weighted(BTreeMap::from([("a".into(), 1), ("b".into(), 2)])),
        ids: Ids::List(vec!["x".into()]),
    };
    round_trip(
        &toolbox,
        "rank",
        json!({
            "by": {"Weighted": [{"key": "a", "value": 1}, {"key": "b", "value": 2}]},
            "ids": ["x"]
        }),
        &expected,
    );
    // The first variant still restores along its own branch.
    round_trip(
        &toolbox,
        "rank",
        json!({"by": {"Uniform": "all"}, "ids": ["x"]}),
        &Rank {
            by: Weighting::Uniform("all".into()),
            ids: Ids::List(vec!["x".into()]),
        },
    );
}

#[test]
fn restore_follows_the_validated_branch_of_an_untagged_enum() {
    let toolbox = strict_toolbox::<Rank>("rank");
    // Both branches are arrays in strict form: only validation tells the
    // list of strings from the map written as pairs.
    round_trip(
        &toolbox,
        "rank",
        json!({"by": {"Uniform": "u"}, "ids": [{"key": "w", "value": 7}]}),
        &Rank {
            by: Weighting::Uniform("u".into()),
            ids: Ids::Weights(BTreeMap::from([("w".into(), 7)])),
        },
    );
    round_trip(
        &toolbox,
        "rank",
        json!({"by": {"Uniform": "u"}, "ids": []}),
        &Rank {
            by: Weighting::Uniform("u".into()),
            ids: Ids::List(vec![]),
        },
    );
}

#[test]
fn an_empty_map_beside_a_list_restores_as_the_list() {
    // The one value strict form cannot tell apart: `[]` is both the empty
    // list and the empty map's pairs. It restores along the first branch,
    // the order serde tries untagged variants in; documented, not hidden.
    let strict = StrictSchema::new(Rank::input_schema()).unwrap();
    let ambiguous: Vec<&str> = strict
        .changes()
        .iter()
        .filter(|c| c.change == Change::AmbiguousEmptyArray)
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(ambiguous, ["/$defs/Ids"]);
    let empty_map = json!({"by": {"Uniform": ""}, "ids": {}});
    let encoded = strict.encode(&empty_map);
    assert_eq!(encoded["ids"], json!([]));
    let mut restored = encoded;
    strict.restore(&mut restored).unwrap();
    assert_eq!(restored["ids"], json!([]));
}

// ---------------------------------------------------------------------------
// 2. A map at the root has no strict form
// ---------------------------------------------------------------------------

#[test]
fn a_root_map_is_refused_at_registration() {
    let declared = Labels::input_schema();
    assert_eq!(declared["type"], "object");
    assert_eq!(declared["additionalProperties"], json!({"type": "string"}));
    assert!(declared.get("properties").is_none());
    assert_eq!(
        StrictSchema::new(Labels::input_schema()),
        Err(StrictError::RootIsMap)
    );
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    let error = toolbox
        .tool_sync("label", "", |_: Labels| Ok::<_, String>(()))
        .unwrap_err();
    assert!(
        matches!(
            &error,
            RegisterError::Strict {
                source: StrictError::RootIsMap,
                ..
            }
        ),
        "{error:?}"
    );
    // The canonical dialect takes it.
    Toolbox::<()>::new()
        .tool_sync("label", "", |_: Labels| Ok::<_, String>(()))
        .unwrap();
}

// ---------------------------------------------------------------------------
// 3. Percent-encoded references
// ---------------------------------------------------------------------------

#[test]
fn percent_encoded_references_are_followed() {
    let declared = Tagging::input_schema();
    assert_eq!(
        declared["properties"]["more"]["items"]["$ref"],
        "#/$defs/Tag%20Args"
    );
    let strict = StrictSchema::new(declared).unwrap();
    let s = strict.schema();
    // Inlined where the reference had a description beside it ...
    assert_eq!(
        s["properties"]["tag"]["properties"]["attrs"]["type"],
        "array"
    );
    // ... kept (and its definition with it) where it stood alone.
    assert_eq!(
        s["properties"]["more"]["items"]["$ref"],
        "#/$defs/Tag%20Args"
    );
    assert_eq!(s["$defs"]["Tag Args"]["additionalProperties"], false);

    let toolbox = strict_toolbox::<Tagging>("tag");
    let pairs = json!([{"key": "color", "value": "red"}]);
    let expected = TagArgs {
        name: "t".into(),
        attrs: BTreeMap::from([("color".into(), "red".into())]),
    };
    round_trip(
        &toolbox,
        "tag",
        json!({
            "tag": {"name": "t", "attrs": pairs},
            "more": [{"name": "t", "attrs": pairs}],
            "spare": {"name": "t", "attrs": pairs}
        }),
        &Tagging {
            tag: expected.clone(),
            more: vec![expected.clone()],
            spare: Some(expected),
        },
    );
}

// ---------------------------------------------------------------------------
// 4. Composed objects are distributed
// ---------------------------------------------------------------------------

#[test]
fn a_flattened_tagged_enum_is_distributed_over_its_branches() {
    let strict = StrictSchema::new(Alert::input_schema()).unwrap();
    let s = strict.schema();
    // `notify` is a bare reference to the definition, which is distributed.
    assert_eq!(s["properties"]["notify"]["$ref"], "#/$defs/Notify");
    let notify = &s["$defs"]["Notify"];
    let branches = notify["anyOf"].as_array().unwrap();
    assert_eq!(branches.len(), 2);
    assert!(
        strict.changes().iter().any(
            |c| c.pointer == "/$defs/Notify" && c.change == Change::Distributed { branches: 2 }
        ),
        "{:?}",
        strict.changes()
    );
    for branch in branches {
        // Each merged object carries the outer members and its own, closed.
        assert_eq!(branch["additionalProperties"], false);
        assert!(branch["properties"]["to"].is_object(), "{branch}");
        assert!(branch["properties"]["kind"].is_object(), "{branch}");
    }
    // The strict schema is satisfiable: a call written for it validates.
    let arguments = json!({
        "notify": {"to": "ada", "kind": "Email", "addr": "a@example.com"},
        "backup": {"to": "bob", "kind": "Sms", "phone": "555", "carrier": null}
    });
    Validator::new(s).unwrap().validate(&arguments).unwrap();

    let toolbox = strict_toolbox::<Alert>("alert");
    round_trip(
        &toolbox,
        "alert",
        arguments,
        &Alert {
            notify: Notify {
                to: "ada".into(),
                via: Via::Email {
                    addr: "a@example.com".into(),
                },
            },
            backup: Some(Notify {
                to: "bob".into(),
                via: Via::Sms {
                    phone: "555".into(),
                    carrier: None,
                },
            }),
        },
    );
    // A member of the other branch is not let through.
    let rejected = invalid(call(
        &toolbox,
        "alert",
        json!({
            "notify": {"to": "ada", "kind": "Email", "addr": "a", "phone": "555"},
            "backup": null
        }),
    ));
    assert_eq!(
        rejected.at("/notify/phone").map(|v| v.keyword.as_str()),
        Some("additionalProperties"),
        "{rejected:?}"
    );
}

#[test]
fn a_distributed_object_nested_in_another_struct_round_trips() {
    let toolbox = strict_toolbox::<Escalate>("escalate");
    round_trip(
        &toolbox,
        "escalate",
        json!({
            "alert": {
                "notify": {"to": "ada", "kind": "Sms", "phone": "1", "carrier": "tel"},
                "backup": null
            },
            "level": 3
        }),
        &Escalate {
            alert: Alert {
                notify: Notify {
                    to: "ada".into(),
                    via: Via::Sms {
                        phone: "1".into(),
                        carrier: Some("tel".into()),
                    },
                },
                backup: None,
            },
            level: 3,
        },
    );
}

#[test]
fn two_flattened_enums_become_one_object_per_pair_of_variants() {
    let strict = StrictSchema::new(Dispatch::input_schema()).unwrap();
    let s = strict.schema();
    let route = &s["$defs"]["Route"];
    assert_eq!(route["anyOf"].as_array().map(Vec::len), Some(4), "{route}");
    let toolbox = strict_toolbox::<Dispatch>("dispatch");
    round_trip(
        &toolbox,
        "dispatch",
        json!({
            "legs": [{
                "from": "a", "kind": "Sms", "phone": "1", "carrier": null,
                "pace": "Slow", "reason": "rain", "tolls": [{"key": "m1", "value": 4}]
            }],
            "first": {"kind": "Email", "addr": "x", "pace": "Fast", "tolls": []}
        }),
        &Dispatch {
            legs: vec![Leg {
                from: "a".into(),
                route: Route {
                    via: Via::Sms {
                        phone: "1".into(),
                        carrier: None,
                    },
                    pace: Pace::Slow {
                        reason: "rain".into(),
                    },
                    tolls: BTreeMap::from([("m1".into(), 4)]),
                },
            }],
            first: Some(Route {
                via: Via::Email { addr: "x".into() },
                pace: Pace::Fast,
                tolls: BTreeMap::new(),
            }),
        },
    );
}

#[test]
fn an_internally_tagged_newtype_variant_is_merged_with_its_tag() {
    let strict = StrictSchema::new(Plan::input_schema()).unwrap();
    let text = strict.schema().to_string();
    assert!(!text.contains("allOf") && !text.contains("oneOf"), "{text}");
    // Maps here sit under a tag, never beside a list in one union.
    assert!(
        !strict
            .changes()
            .iter()
            .any(|c| c.change == Change::AmbiguousEmptyArray)
    );
    let toolbox = strict_toolbox::<Plan>("plan");
    round_trip(
        &toolbox,
        "plan",
        json!({
            "steps": [
                {"type": "Search", "query": "oak", "boosts": [{"key": "title", "value": 2}]},
                {"type": "Wait", "seconds": 5},
                {"type": "Stop"}
            ],
            "adj": {"t": "Weights", "c": [{"key": "a", "value": 1}]}
        }),
        &Plan {
            steps: vec![
                Step::Search(SearchArgs {
                    query: "oak".into(),
                    boosts: BTreeMap::from([("title".into(), 2)]),
                }),
                Step::Wait { seconds: 5 },
                Step::Stop,
            ],
            adj: Adj::Weights(BTreeMap::from([("a".into(), 1)])),
        },
    );
}

#[test]
fn all_of_in_a_runtime_schema_is_merged_and_closed() {
    let schema = json!({
        "type": "object",
        "properties": {
            "item": {
                "allOf": [
                    {"$ref": "#/$defs/Base"},
                    {"properties": {"extra": {"type": "string"}}, "required": ["extra"]}
                ],
                "unevaluatedProperties": false
            }
        },
        "required": ["item"],
        "$defs": {
            "Base": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "tags": {"type": "object", "additionalProperties": {"type": "integer"}}},
                "required": ["id"]
            }
        }
    });
    let strict = StrictSchema::new(&schema).unwrap();
    let item = &strict.schema()["properties"]["item"];
    assert_eq!(item["type"], "object");
    assert_eq!(item["additionalProperties"], false);
    assert_eq!(item["required"], json!(["id", "tags", "extra"]));
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .dynamic_tool_sync("put", "", schema, |args: Value| Ok::<_, String>(args))
        .unwrap();
    toolbox.check_drift().unwrap();
    let done = call(
        &toolbox,
        "put",
        json!({"item": {"id": "1", "tags": [{"key": "a", "value": 1}], "extra": "x"}}),
    )
    .unwrap();
    assert_eq!(
        done,
        json!({"item": {"id": "1", "tags": {"a": 1}, "extra": "x"}})
    );
    let rejected = invalid(call(
        &toolbox,
        "put",
        json!({"item": {"id": "1", "tags": null, "extra": "x", "more": 1}}),
    ));
    assert_eq!(
        rejected.at("/item/more").unwrap().keyword,
        "additionalProperties"
    );
}

#[test]
fn aliases_are_shown_under_the_wire_name_only() {
    let declared = Find::input_schema();
    // The alias is validated, not shown, in either dialect.
    assert!(declared["properties"].get("q").is_none(), "{declared}");
    assert!(Find::validator().schema()["properties"].get("q").is_some());
    let strict = StrictSchema::new(declared).unwrap();
    let s = strict.schema();
    assert_eq!(s["required"], json!(["query", "filters"]));
    let text = s.to_string();
    assert!(!text.contains("x-toolargs-alias-of"), "{text}");
    let toolbox = strict_toolbox::<Find>("find");
    round_trip(
        &toolbox,
        "find",
        json!({"query": "oak", "filters": [{"field": "kind", "value": null}]}),
        &Find {
            query: "oak".into(),
            filters: vec![Filter {
                field: "kind".into(),
                value: None,
            }],
        },
    );
    // The strict form shows one name; an alias is not part of it.
    let rejected = invalid(call(&toolbox, "find", json!({"q": "oak", "filters": []})));
    assert_eq!(
        rejected.at("/q").map(|v| v.keyword.as_str()),
        Some("additionalProperties"),
        "{rejected:?}"
    );
}

// ---------------------------------------------------------------------------
// 5. Strict changes what is shown, never what is enforced
// ---------------------------------------------------------------------------

#[test]
fn keywords_strict_mode_drops_are_still_enforced() {
    let strict = StrictSchema::new(Coupon::input_schema()).unwrap();
    let removed: Vec<&str> = strict.removed().map(|(_, k)| k).collect();
    assert!(
        removed.contains(&"minLength") && removed.contains(&"maxLength"),
        "{removed:?}"
    );
    let toolbox = strict_toolbox::<Coupon>("coupon");
    round_trip(
        &toolbox,
        "coupon",
        json!({"code": "SAVE10", "region": "EU"}),
        &Coupon {
            code: "SAVE10".into(),
            region: Some("EU".into()),
        },
    );
    for name in ["coupon", "coupon_dyn"] {
        let rejected = invalid(call(&toolbox, name, json!({"code": "ab", "region": null})));
        assert_eq!(rejected.at("/code").unwrap().keyword, "minLength", "{name}");
        let rejected = invalid(call(
            &toolbox,
            name,
            json!({"code": "abcd", "region": "eu"}),
        ));
        assert_eq!(rejected.at("/region").unwrap().keyword, "pattern", "{name}");
    }
}

#[test]
fn rejections_after_restore_name_the_declared_pointers() {
    // A map value too short: the strict call names it by pair index, the
    // declared schema by key; the rejection uses the declared pointer.
    let schema = json!({
        "type": "object",
        "properties": {
            "tags": {"type": "object", "additionalProperties": {"type": "string", "minLength": 2}}
        },
        "required": ["tags"]
    });
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .dynamic_tool_sync("tags", "", schema, |args: Value| Ok::<_, String>(args))
        .unwrap();
    let rejected = invalid(call(
        &toolbox,
        "tags",
        json!({"tags": [{"key": "ok", "value": "fine"}, {"key": "short", "value": "x"}]}),
    ));
    assert_eq!(rejected.violations.len(), 1, "{rejected:?}");
    assert_eq!(rejected.violations[0].pointer, "/tags/short");
    assert_eq!(rejected.violations[0].keyword, "minLength");
}

// ---------------------------------------------------------------------------
// Property: the strict form is an exact encoding
// ---------------------------------------------------------------------------

fn text() -> impl Strategy<Value = String> {
    "[a-z]{0,5}"
}

fn map<V: std::fmt::Debug>(
    values: impl Strategy<Value = V>,
) -> impl Strategy<Value = BTreeMap<String, V>> {
    proptest::collection::btree_map("[a-z]{1,4}", values, 0..3)
}

fn weighting() -> impl Strategy<Value = Weighting> {
    prop_oneof![
        text().prop_map(Weighting::Uniform),
        map(0u32..100).prop_map(Weighting::Weighted),
    ]
}

/// `Ids::Weights` with at least one entry: the empty map's strict form,
/// `[]`, is also the empty list, and restores as `Ids::List` (see
/// `an_empty_map_beside_a_list_restores_as_the_list`).
fn ids() -> impl Strategy<Value = Ids> {
    prop_oneof![
        proptest::collection::vec(text(), 0..3).prop_map(Ids::List),
        proptest::collection::btree_map("[a-z]{1,4}", 0u32..100, 1..3).prop_map(Ids::Weights),
    ]
}

fn via() -> impl Strategy<Value = Via> {
    prop_oneof![
        text().prop_map(|addr| Via::Email { addr }),
        (text(), proptest::option::of(text()))
            .prop_map(|(phone, carrier)| Via::Sms { phone, carrier }),
    ]
}

fn notify() -> impl Strategy<Value = Notify> {
    (text(), via()).prop_map(|(to, via)| Notify { to, via })
}

fn route() -> impl Strategy<Value = Route> {
    let pace = prop_oneof![
        Just(Pace::Fast),
        text().prop_map(|reason| Pace::Slow { reason }),
    ];
    (via(), pace, map(0u32..100)).prop_map(|(via, pace, tolls)| Route { via, pace, tolls })
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (text(), map(0u32..100))
            .prop_map(|(query, boosts)| Step::Search(SearchArgs { query, boosts })),
        (0u32..100).prop_map(|seconds| Step::Wait { seconds }),
        Just(Step::Stop),
    ]
}

fn adj() -> impl Strategy<Value = Adj> {
    prop_oneof![
        map(0u32..100).prop_map(Adj::Weights),
        text().prop_map(Adj::Note),
        Just(Adj::Empty),
    ]
}

fn everything() -> impl Strategy<Value = Everything> {
    let inner =
        (map(adj()), proptest::option::of(via())).prop_map(|(weights, via)| Inner { weights, via });
    (
        (
            text(),
            proptest::option::of(text()),
            proptest::option::of(0u32..100),
            map(text()),
        ),
        (weighting(), step(), adj(), ids(), notify()),
        (
            proptest::collection::vec(weighting(), 0..3),
            proptest::option::of(inner),
        ),
    )
        .prop_map(
            |((title, note, count, labels), (by, step, adj, ids, notify), (history, nested))| {
                Everything {
                    title,
                    note,
                    count,
                    labels,
                    by,
                    step,
                    adj,
                    ids,
                    notify,
                    history,
                    nested,
                }
            },
        )
}

/// What one type needs for the property: its strict form, both
/// validators and a toolbox.
struct Subject {
    name: &'static str,
    strict: StrictSchema,
    strict_validator: Validator,
    declared_validator: Validator,
    toolbox: Toolbox,
}

impl Subject {
    fn new<T: ToolArgs + Serialize + Send + 'static>(name: &'static str) -> Subject {
        let strict = StrictSchema::new(T::input_schema()).unwrap();
        Subject {
            name,
            strict_validator: Validator::new(strict.schema()).unwrap(),
            declared_validator: Validator::new(T::input_schema()).unwrap(),
            strict,
            toolbox: strict_toolbox::<T>(name),
        }
    }

    /// The exact-encoding property for one declared value `v`, and for the
    /// mutation of it that `pick` selects.
    fn check<T: Serialize>(
        &self,
        v: &T,
        pick: usize,
        wrong_type: bool,
    ) -> Result<(), TestCaseError> {
        let canonical = serde_json::to_value(v).unwrap();
        prop_assert!(
            self.declared_validator.validate(&canonical).is_ok(),
            "{}: the declared schema refuses a serialized value: {canonical}",
            self.name
        );
        let encoded = self.strict.encode(&canonical);
        prop_assert!(
            self.strict_validator.validate(&encoded).is_ok(),
            "{}: the strict form does not validate: {encoded}",
            self.name
        );
        let mut restored = encoded.clone();
        self.strict.restore(&mut restored).unwrap();
        prop_assert_eq!(&restored, &canonical);
        // Through the toolbox: both bodies receive exactly the value.
        for name in [self.name.to_owned(), format!("{}_dyn", self.name)] {
            let output = call(&self.toolbox, &name, encoded.clone());
            prop_assert_eq!(
                output.as_ref().ok(),
                Some(&canonical),
                "{}: {:?}",
                name,
                output
            );
        }

        // A mutation: the strict form of the mutated value is accepted by
        // the strict schema exactly when the declared schema accepts the
        // mutated value (and then restores to it).
        let mut mutated = canonical.clone();
        let mutated_at = if wrong_type {
            let mut leaves = Vec::new();
            places(&mutated, String::new(), &mut leaves, false);
            let Some(at) = pick_one(&leaves, pick) else {
                return Ok(());
            };
            let leaf = mutated.pointer_mut(&at).unwrap();
            *leaf = match leaf {
                Value::String(_) => json!(7),
                Value::Number(_) => json!("7"),
                _ => json!("true"),
            };
            at
        } else {
            let mut objects = Vec::new();
            places(&mutated, String::new(), &mut objects, true);
            let Some(at) = pick_one(&objects, pick) else {
                return Ok(());
            };
            if let Some(Value::Object(m)) = mutated.pointer_mut(&at) {
                m.insert("zz_undeclared".to_owned(), json!("x"));
            }
            at
        };
        let declared_ok = self.declared_validator.validate(&mutated).is_ok();
        let encoded = self.strict.encode(&mutated);
        let strict_ok = self.strict_validator.validate(&encoded).is_ok();
        prop_assert_eq!(
            strict_ok,
            declared_ok,
            "{}: mutation at {:?}: declared {}, strict form {}",
            self.name,
            mutated_at,
            mutated,
            encoded
        );
        if strict_ok {
            let mut restored = encoded.clone();
            self.strict.restore(&mut restored).unwrap();
            prop_assert_eq!(&restored, &mutated);
        }
        // The whole pipeline agrees: a strict toolbox accepts the call
        // exactly when the declared schema accepts the value it stands for,
        // and then both bodies receive that value.
        for name in [self.name.to_owned(), format!("{}_dyn", self.name)] {
            let output = call(&self.toolbox, &name, encoded.clone());
            prop_assert_eq!(output.is_ok(), declared_ok, "{}: {:?}", name, output);
            if let Ok(output) = output {
                prop_assert_eq!(&output, &mutated);
            }
        }
        Ok(())
    }
}

fn pick_one(places: &[String], pick: usize) -> Option<String> {
    (!places.is_empty()).then(|| places[pick % places.len()].clone())
}

/// Pointers of every object (`objects`) or every non-null scalar leaf.
fn places(value: &Value, at: String, out: &mut Vec<String>, objects: bool) {
    match value {
        Value::Object(m) => {
            if objects {
                out.push(at.clone());
            }
            for (k, v) in m {
                let key = k.replace('~', "~0").replace('/', "~1");
                places(v, format!("{at}/{key}"), out, objects);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                places(v, format!("{at}/{i}"), out, objects);
            }
        }
        Value::Null => {}
        _ if !objects => out.push(at),
        _ => {}
    }
}

static RANK: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Rank>("rank"));
static TAGGING: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Tagging>("tag"));
static ALERT: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Escalate>("escalate"));
static DISPATCH: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Dispatch>("dispatch"));
static FIND: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Find>("find"));
static PLAN: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Plan>("plan"));
static EVERYTHING: LazyLock<Subject> = LazyLock::new(|| Subject::new::<Everything>("all"));

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn strict_form_is_exact_for_tagged_and_untagged_maps(
        v in (weighting(), ids()).prop_map(|(by, ids)| Rank { by, ids }),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        RANK.check(&v, pick, wrong_type)?;
    }

    #[test]
    fn strict_form_is_exact_through_percent_encoded_references(
        v in (text(), map(text()), proptest::collection::vec((text(), map(text())), 0..3), proptest::option::of((text(), map(text()))))
            .prop_map(|(name, attrs, more, spare)| Tagging {
                tag: TagArgs { name, attrs },
                more: more.into_iter().map(|(name, attrs)| TagArgs { name, attrs }).collect(),
                spare: spare.map(|(name, attrs)| TagArgs { name, attrs }),
            }),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        TAGGING.check(&v, pick, wrong_type)?;
    }

    #[test]
    fn strict_form_is_exact_for_flattened_enums(
        v in (notify(), proptest::option::of(notify()), any::<u8>())
            .prop_map(|(notify, backup, level)| Escalate { alert: Alert { notify, backup }, level }),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        ALERT.check(&v, pick, wrong_type)?;
    }

    #[test]
    fn strict_form_is_exact_for_several_and_nested_flattened_enums(
        v in (proptest::collection::vec((text(), route()), 0..3), proptest::option::of(route()))
            .prop_map(|(legs, first)| Dispatch {
                legs: legs.into_iter().map(|(from, route)| Leg { from, route }).collect(),
                first,
            }),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        DISPATCH.check(&v, pick, wrong_type)?;
    }

    #[test]
    fn strict_form_is_exact_for_fields_with_aliases(
        v in (text(), proptest::collection::vec((text(), proptest::option::of(text())), 0..3))
            .prop_map(|(query, filters)| Find {
                query,
                filters: filters.into_iter().map(|(field, value)| Filter { field, value }).collect(),
            }),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        FIND.check(&v, pick, wrong_type)?;
    }

    #[test]
    fn strict_form_is_exact_for_internally_and_adjacently_tagged_enums(
        v in (proptest::collection::vec(step(), 0..4), adj()).prop_map(|(steps, adj)| Plan { steps, adj }),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        PLAN.check(&v, pick, wrong_type)?;
    }

    #[test]
    fn strict_form_is_exact_for_a_nested_type_with_everything(
        v in everything(),
        pick in any::<usize>(),
        wrong_type in any::<bool>(),
    ) {
        EVERYTHING.check(&v, pick, wrong_type)?;
    }
}

// ---------------------------------------------------------------------------
// Maps whose keys match a pattern
// ---------------------------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Shards {
    shards: BTreeMap<u32, String>,
}

#[test]
fn a_map_with_integer_keys_is_pairs_whose_key_carries_the_pattern() {
    let toolbox = strict_toolbox::<Shards>("shards");
    let shown =
        &toolbox.export(toolargs::export::Provider::OpenAiChat)[0]["function"]["parameters"];
    let pairs = &shown["properties"]["shards"];
    assert_eq!(pairs["type"], "array");
    assert_eq!(pairs["items"]["properties"]["key"]["pattern"], "^\\d+$");
    let expected = Shards {
        shards: BTreeMap::from([(7, "a".to_owned()), (12, "b".to_owned())]),
    };
    round_trip(
        &toolbox,
        "shards",
        json!({"shards": [{"key": "7", "value": "a"}, {"key": "12", "value": "b"}]}),
        &expected,
    );
    let rejected = invalid(call(
        &toolbox,
        "shards",
        json!({"shards": [{"key": "seven", "value": "a"}]}),
    ));
    assert_eq!(rejected.violations[0].pointer, "/shards/0/key");
}
