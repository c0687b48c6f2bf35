//! One meaning, two implementations: for every derived type, the normalizer
//! `#[derive(ToolArgs)]` generates and the dynamic plan compiled from the
//! type's own schema give identical results (values, repair reports and
//! depth errors, under four option sets) on random damaged inputs.
#![allow(dead_code)]

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use toolargs::ToolArgs;
use toolargs_testkit::{check_with, damaged_inputs, plan_of};

// ---- the derived types ----

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Scalars {
    s: String,
    n: u32,
    f: f64,
    b: bool,
    c: char,
    unit: (),
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Lists {
    v: Vec<String>,
    d: VecDeque<u32>,
    hs: HashSet<String>,
    bs: BTreeSet<i64>,
    arr: [String; 2],
    nested: Vec<Vec<String>>,
}

/// Labels and a note.
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Inner {
    /// The labels.
    tags: Vec<String>,
    note: Option<String>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Outer {
    /// Documented nested type (schemars wraps the `$ref`).
    inner: Inner,
    opt: Option<Inner>,
    list: Vec<Inner>,
    deep: Option<Vec<Option<Inner>>>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Maps {
    hm: HashMap<String, Vec<String>>,
    bm: BTreeMap<String, Inner>,
    jm: Map<String, Value>,
    keyed_by_number: BTreeMap<u32, Vec<String>>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Tuples {
    pair: (String, Vec<u8>),
    triple: (Inner, u32, Option<Vec<String>>),
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Boxes {
    b: Box<Inner>,
    #[allow(clippy::box_collection)] // the shape under test
    bl: Box<Vec<String>>,
    double: Option<Option<Vec<String>>>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct AnyValues {
    v: Value,
    ov: Option<Value>,
    vv: Vec<Value>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    page_size: u32,
    #[serde(rename = "q")]
    query_text: String,
    sort_keys: Vec<String>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Aliased {
    #[serde(alias = "labels", alias = "tag_list")]
    tags: Vec<String>,
    #[serde(alias = "f")]
    filter: Option<Inner>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Defaults {
    #[serde(skip)]
    cache: Vec<String>,
    #[serde(default)]
    list: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    inner: Option<Inner>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Flattened {
    id: String,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: HashMap<String, Value>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct FlattenedEnum {
    a: Vec<u32>,
    #[serde(flatten)]
    kind: Internal,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
enum External {
    Unit,
    New(Vec<String>),
    Pair(String, Vec<u32>),
    Fields { tags: Vec<String>, inner: Inner },
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
enum Internal {
    A { tags: Vec<String> },
    B(Inner),
    C,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A(Vec<String>),
    B { m: HashMap<String, Vec<String>> },
    C,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(untagged)]
enum Untagged {
    List(Vec<String>),
    Obj(Inner),
    Text(String),
}

/// An enum without `ToolArgs`: fields of this type use the plan.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Plain {
    Off,
    Tags(Vec<String>),
    Range { from: u32, to: Vec<u32> },
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct UsesPlain {
    e: Plain,
    oe: Option<Plain>,
    le: Vec<Plain>,
    mixed: (Plain, Inner),
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SchemarsWith {
    #[schemars(with = "Vec<String>")]
    raw: Value,
    #[schemars(description = "only a description")]
    described: Vec<String>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
struct Wrapper {
    items: Vec<Inner>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct NewtypeArgs(Inner);

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(deny_unknown_fields)]
struct Strict {
    tags: Vec<String>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[tool_args(open)]
struct Open {
    tags: Vec<String>,
    inner: Option<Inner>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Everything {
    outer: Outer,
    tree: Option<Box<Tree>>,
    external: Vec<External>,
    internal: Option<Internal>,
    page: Page<Inner>,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct HoldsOthers {
    wrapper: Wrapper,
    newtype: Option<NewtypeArgs>,
    strict: Vec<Strict>,
    open: BTreeMap<String, Open>,
    untagged: (Untagged, Adjacent),
    flattened: Option<Flattened>,
}

// ---- the inputs ----

const LEAF_STRINGS: &[&str] = &[
    "x",
    "Tom &amp;amp; Jerry",
    "&lt;b&gt;",
    "[\"a &amp; b\"]",
    "{\"tags\": \"[\\\"x\\\"]\"}",
    "{\"type\": \"A\", \"tags\": \"[1]\"}",
    "[1, [2]]",
    "?a=1&copy=2",
    "&amp;quot;",
];
const EXTRA_KEYS: &[&str] = &["extra", "a&amp;b", "x/y~z", "type", "t", "c", "0"];

/// Any JSON value, keys drawn from the schema's property names and a few
/// strange ones, strings with references or JSON inside, and containers
/// stringified.
fn arbitrary_json(names: Vec<String>) -> impl Strategy<Value = Value> {
    let mut keys: Vec<String> = EXTRA_KEYS.iter().map(|k| (*k).to_owned()).collect();
    keys.extend(names);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u32..1000).prop_map(Value::from),
        prop::sample::select(LEAF_STRINGS).prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 4, move |inner| {
        let keys = keys.clone();
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(keys), inner.clone()), 0..4)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
            inner.prop_map(|v| Value::String(v.to_string())),
        ]
    })
}

fn names_in(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
            }
            map.values().for_each(|v| names_in(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| names_in(v, out)),
        _ => {}
    }
}

/// Half schema-guided damaged inputs (seeded), half arbitrary JSON.
fn inputs_for<T: ToolArgs>() -> impl Strategy<Value = Value> {
    let schema = T::input_schema();
    let mut names = Vec::new();
    names_in(schema, &mut names);
    prop_oneof![
        any::<u64>()
            .prop_map(move |seed| damaged_inputs(schema, seed, 1).next().expect("one input")),
        arbitrary_json(names),
    ]
}

macro_rules! equivalent {
    ($($test:ident: $ty:ty;)*) => {$(
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(1_000))]
            #[test]
            fn $test(input in inputs_for::<$ty>()) {
                let plan = plan_of::<$ty>();
                if let Err(mismatch) = check_with::<$ty>(&plan, &input) {
                    prop_assert!(false, "{}", mismatch);
                }
            }
        }
    )*};
}

equivalent! {
    scalars: Scalars;
    lists: Lists;
    inner: Inner;
    outer: Outer;
    maps: Maps;
    tuples: Tuples;
    boxes: Boxes;
    any_values: AnyValues;
    renamed: Renamed;
    aliased: Aliased;
    defaults: Defaults;
    page_of_structs: Page<Inner>;
    page_of_lists: Page<Vec<String>>;
    flattened: Flattened;
    flattened_enum: FlattenedEnum;
    external: External;
    internal: Internal;
    adjacent: Adjacent;
    untagged: Untagged;
    uses_plain: UsesPlain;
    schemars_with: SchemarsWith;
    wrapper: Wrapper;
    newtype: NewtypeArgs;
    tree: Tree;
    strict: Strict;
    open: Open;
    everything: Everything;
    holds_others: HoldsOthers;
}

#[test]
fn the_public_helper_passes_on_derived_types() {
    toolargs::testing::assert_normalizer_matches_schema::<Everything>();
    toolargs::testing::assert_normalizer_matches_schema::<Aliased>();
    toolargs::testing::assert_normalizer_matches_schema::<UsesPlain>();
}
