//! Grammars of derived types whose schemas compose objects (a flattened
//! enum beside the struct's own fields, an internally tagged newtype
//! variant's `$ref` beside its tag, `unevaluatedProperties: false` closing
//! them where used, serde aliases), checked by llguidance byte by byte:
//!
//! - (a) every serialized value, hand-written or generated, is accepted
//!   (and is valid under the schema: the contract);
//! - (b) a value with an extra member on any object, a missing required
//!   member, or a member of another variant is rejected wherever it is
//!   written, whenever the validator rejects it too;
//! - (c) `not_enforced()` is exactly what is listed here.

mod engine;

use engine::Engine;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use toolargs::ToolArgs;
use toolargs::grammar::{CallGrammar, Grammar};

/// Generated values per type (plus the hand-written ones).
const GENERATED: usize = 40;

// ---- the types ----

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    query: String,
    limit: Option<u32>,
}

/// Internally tagged: a newtype variant (`$ref` beside the tag), a unit
/// variant and a struct variant.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
enum Cmd {
    Search(SearchArgs),
    Stop,
    Move { x: i32, y: i32 },
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind")]
enum Via {
    Email { addr: String },
    Sms { phone: String },
}

/// The example of the issue: a struct flattening an internally tagged enum,
/// a field whose type is composed elsewhere, an alias on a required field.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Root {
    cmd: Cmd,
    args: SearchArgs,
    to: String,
    #[serde(flatten)]
    via: Via,
    #[serde(alias = "n")]
    name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
struct Named {
    label: String,
}

/// Externally tagged, flattened: the variant's key is a member of the
/// struct around it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
enum Target {
    Host { addr: String, port: Option<u16> },
    Named(Named),
    Id(u64),
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Ext {
    id: String,
    #[serde(flatten)]
    target: Target,
    note: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "mode")]
enum Mode {
    Fast,
    Careful { retries: u8 },
}

/// A struct flattening a struct that flattens an enum.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
struct Meta {
    owner: String,
    #[serde(flatten)]
    via: Via,
}

/// Nested compositions: a flattened struct that flattens an enum, two
/// flattened enums, composed types inside a list and an option.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Nested {
    title: String,
    #[serde(flatten)]
    meta: Meta,
    #[serde(flatten)]
    mode: Mode,
    items: Vec<Ext>,
    first: Option<Cmd>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Contact {
    #[serde(alias = "e_mail", alias = "mail")]
    email: String,
    #[serde(alias = "nick")]
    nickname: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "op")]
enum Op {
    Add {
        #[serde(alias = "val")]
        value: i64,
    },
    Clear,
}

/// Aliases on required fields at the root, in a nested type, in an enum's
/// struct variant, beside a flattened enum.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Aliased {
    contact: Contact,
    op: Op,
    #[serde(flatten)]
    via: Via,
    #[serde(alias = "ids")]
    id_list: Vec<u32>,
}

// ---- generated values ----

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 é\"\\\\/\n😀]{0,6}"
}

fn search_args() -> impl Strategy<Value = SearchArgs> {
    (text(), proptest::option::of(any::<u32>()))
        .prop_map(|(query, limit)| SearchArgs { query, limit })
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        search_args().prop_map(Cmd::Search),
        Just(Cmd::Stop),
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| Cmd::Move { x, y }),
    ]
}

fn via() -> impl Strategy<Value = Via> {
    prop_oneof![
        text().prop_map(|addr| Via::Email { addr }),
        text().prop_map(|phone| Via::Sms { phone }),
    ]
}

fn root() -> impl Strategy<Value = Root> {
    (cmd(), search_args(), text(), via(), text()).prop_map(|(cmd, args, to, via, name)| Root {
        cmd,
        args,
        to,
        via,
        name,
    })
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        (text(), proptest::option::of(any::<u16>()))
            .prop_map(|(addr, port)| Target::Host { addr, port }),
        text().prop_map(|label| Target::Named(Named { label })),
        any::<u64>().prop_map(Target::Id),
    ]
}

fn ext() -> impl Strategy<Value = Ext> {
    (text(), target(), proptest::option::of(text())).prop_map(|(id, target, note)| Ext {
        id,
        target,
        note,
    })
}

fn nested() -> impl Strategy<Value = Nested> {
    let mode = prop_oneof![
        Just(Mode::Fast),
        any::<u8>().prop_map(|retries| Mode::Careful { retries }),
    ];
    (
        text(),
        text(),
        via(),
        mode,
        proptest::collection::vec(ext(), 0..3),
        proptest::option::of(cmd()),
    )
        .prop_map(|(title, owner, via, mode, items, first)| Nested {
            title,
            meta: Meta { owner, via },
            mode,
            items,
            first,
        })
}

fn aliased() -> impl Strategy<Value = Aliased> {
    let op = prop_oneof![
        any::<i64>().prop_map(|value| Op::Add { value }),
        Just(Op::Clear),
    ];
    (
        text(),
        proptest::option::of(text()),
        op,
        via(),
        proptest::collection::vec(any::<u32>(), 0..3),
    )
        .prop_map(|(email, nickname, op, via, id_list)| Aliased {
            contact: Contact { email, nickname },
            op,
            via,
            id_list,
        })
}

fn generate<T>(strategy: impl Strategy<Value = T>, count: usize) -> Vec<T> {
    let mut runner = TestRunner::deterministic();
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).expect("value").current())
        .collect()
}

// ---- the engine ----

// ---- mutations ----

/// Every object in `value`, by JSON pointer.
fn objects(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            out.push(at.to_owned());
            for (key, child) in map {
                objects(child, &format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                objects(child, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Every member name the values use, with a value it had.
fn members(value: &Value, out: &mut BTreeMap<String, Value>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                out.entry(key.clone()).or_insert_with(|| child.clone());
                members(child, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| members(i, out)),
        _ => {}
    }
}

/// `value` with `(name, member)` inserted into the object at `at`, at
/// position `position` among its members.
fn inserted(value: &Value, at: &str, position: usize, name: &str, member: &Value) -> Value {
    let mut out = value.clone();
    if let Some(Value::Object(map)) = out.pointer_mut(at) {
        let mut rebuilt = Map::new();
        for (i, (key, child)) in std::mem::take(map).into_iter().enumerate() {
            if i == position {
                rebuilt.insert(name.to_owned(), member.clone());
            }
            rebuilt.insert(key, child);
        }
        if position >= rebuilt.len() {
            rebuilt.insert(name.to_owned(), member.clone());
        }
        *map = rebuilt;
    }
    out
}

/// What the checks of one type counted.
#[derive(Debug, Default)]
struct Counts {
    accepted: usize,
    extra: usize,
    missing: usize,
    foreign: usize,
}

/// Checks (a) and (b) for the serialized `values` of a type with `schema`.
fn check(name: &str, schema: &Value, values: &[Value]) -> Counts {
    let grammar = Grammar::from_schema(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
    let lark = grammar.lark();
    assert!(grammar.gbnf().starts_with("root ::= "), "{name}");
    let mut engine = Engine::for_lark(&lark);
    let validator = jsonschema::validator_for(schema).expect("validator");
    let mut known = BTreeMap::new();
    values.iter().for_each(|v| members(v, &mut known));
    // Alias names are valid input but not what the grammar writes.
    let aliases = aliases_of(schema);
    known.retain(|k, _| !aliases.contains(k));
    let mut counts = Counts::default();
    for value in values {
        assert!(validator.is_valid(value), "{name}: invalid {value}");
        let text = value.to_string();
        assert!(engine.accepts(&text), "{name}: rejected {text}\n{lark}");
        counts.accepted += 1;
        let mut at = Vec::new();
        objects(value, "", &mut at);
        for object in &at {
            let Some(Value::Object(map)) = value.pointer(object) else {
                continue;
            };
            let len = map.len();
            // An extra member, anywhere.
            for position in 0..=len {
                let bad = inserted(value, object, position, "zz_extra", &json!(1));
                assert!(!validator.is_valid(&bad), "{name}: validator took {bad}");
                assert!(!engine.accepts(&bad.to_string()), "{name}: accepted {bad}");
                counts.extra += 1;
            }
            // A missing member the schema requires.
            for key in map.keys() {
                let mut bad = value.clone();
                if let Some(Value::Object(m)) = bad.pointer_mut(object) {
                    m.shift_remove(key);
                }
                if !validator.is_valid(&bad) {
                    assert!(!engine.accepts(&bad.to_string()), "{name}: accepted {bad}");
                    counts.missing += 1;
                }
            }
            // A member the type declares elsewhere (another variant's, or
            // another object's), anywhere.
            for (other, sample) in &known {
                if map.contains_key(other) {
                    continue;
                }
                for position in 0..=len {
                    let bad = inserted(value, object, position, other, sample);
                    if !validator.is_valid(&bad) {
                        assert!(!engine.accepts(&bad.to_string()), "{name}: accepted {bad}");
                        counts.foreign += 1;
                    }
                }
            }
        }
    }
    assert!(
        counts.accepted > 0 && counts.extra > 0 && counts.missing > 0 && counts.foreign > 0,
        "{name}: {counts:?}"
    );
    counts
}

/// The alias names a derived schema declares.
fn aliases_of(schema: &Value) -> Vec<String> {
    fn walk(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(properties)) = map.get("properties") {
                    for (name, member) in properties {
                        if member.get("x-toolargs-alias-of").is_some() {
                            out.push(name.clone());
                        }
                    }
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut out);
    out
}

fn serialized<T: Serialize>(values: &[T]) -> Vec<Value> {
    values
        .iter()
        .map(|v| serde_json::to_value(v).expect("serialize"))
        .collect()
}

/// What the grammar of `schema` leaves to the validator, as (pointer,
/// keyword); each pointer names a subschema that holds the keyword.
fn not_enforced(schema: &Value) -> Vec<(String, String)> {
    let report: Vec<(String, String)> = Grammar::from_schema(schema)
        .expect("grammar")
        .not_enforced()
        .iter()
        .map(|u| (u.pointer.clone(), u.keyword.clone()))
        .collect();
    for (pointer, keyword) in &report {
        assert!(
            schema
                .pointer(pointer)
                .and_then(|s| s.get(keyword))
                .is_some(),
            "no `{keyword}` at `{pointer}`"
        );
    }
    report
}

/// The integer ranges and format schemars writes for a Rust integer at
/// `pointer`: numeric ranges are not grammar constraints.
fn integer(pointer: &str) -> Vec<(String, String)> {
    ["format", "minimum", "maximum"]
        .iter()
        .map(|k| (pointer.to_owned(), (*k).to_owned()))
        .collect()
}

fn integers(pointers: &[&str]) -> Vec<(String, String)> {
    pointers.iter().flat_map(|p| integer(p)).collect()
}

// ---- the tests ----

fn root_values() -> Vec<Root> {
    let mut values = vec![
        Root {
            cmd: Cmd::Search(SearchArgs {
                query: "rust".into(),
                limit: Some(3),
            }),
            args: SearchArgs {
                query: "q".into(),
                limit: None,
            },
            to: "ann".into(),
            via: Via::Email {
                addr: "a@x.test".into(),
            },
            name: "N".into(),
        },
        Root {
            cmd: Cmd::Stop,
            args: SearchArgs {
                query: String::new(),
                limit: Some(0),
            },
            to: String::new(),
            via: Via::Sms { phone: "+1".into() },
            name: String::new(),
        },
    ];
    values.extend(generate(root(), GENERATED));
    values
}

#[test]
fn the_example_compiles_every_part_closed() {
    let schema = Root::input_schema();
    let counts = check("Root", schema, &serialized(&root_values()));
    eprintln!("Root: {counts:?}");
    // The struct's own fields, the flattened variant's, closed: only the
    // integers' ranges are left to the validator.
    assert_eq!(
        not_enforced(schema),
        integers(&[
            "/$defs/SearchArgs/properties/limit",
            "/$defs/Cmd/oneOf/2/properties/x",
            "/$defs/Cmd/oneOf/2/properties/y",
        ])
    );
    let grammar = Grammar::from_schema(schema).expect("grammar");
    let mut engine = Engine::for_lark(&grammar.lark());
    // The alias is valid input, but the grammar writes the wire name only.
    let with_alias = json!({"cmd": {"type": "Stop"}, "args": {"query": "q"}, "to": "t", "kind": "Sms", "phone": "1", "n": "x"});
    assert!(jsonschema::is_valid(
        Root::validator().schema(),
        &with_alias
    ));
    assert!(!engine.accepts(&with_alias.to_string()));
    // The flattened variant's members may come where serde writes them or
    // after the struct's own members, never split.
    for text in [
        r#"{"kind":"Sms","phone":"1","cmd":{"type":"Stop"},"args":{"query":"q"},"to":"t","name":"x"}"#,
        r#"{"cmd":{"type":"Stop"},"args":{"query":"q"},"to":"t","name":"x","kind":"Sms","phone":"1"}"#,
    ] {
        assert!(engine.accepts(text), "{text}");
    }
    let split = r#"{"cmd":{"type":"Stop"},"kind":"Sms","args":{"query":"q"},"phone":"1","to":"t","name":"x"}"#;
    assert!(!engine.accepts(split));
}

#[test]
fn a_flattened_externally_tagged_enum_compiles_closed() {
    let mut values = vec![
        Ext {
            id: "a".into(),
            target: Target::Id(7),
            note: None,
        },
        Ext {
            id: "b".into(),
            target: Target::Host {
                addr: "h".into(),
                port: Some(80),
            },
            note: Some("n".into()),
        },
        Ext {
            id: "c".into(),
            target: Target::Named(Named { label: "l".into() }),
            note: None,
        },
    ];
    values.extend(generate(ext(), GENERATED));
    let schema = Ext::input_schema();
    let counts = check("Ext", schema, &serialized(&values));
    eprintln!("Ext: {counts:?}");
    // No `oneOf`: each merged object is closed and excludes the other
    // variants' keys.
    assert_eq!(
        not_enforced(schema),
        integers(&[
            "/oneOf/0/properties/Host/properties/port",
            "/oneOf/2/properties/Id"
        ])
    );
}

#[test]
fn nested_compositions_compile_closed() {
    let mut values = vec![Nested {
        title: "t".into(),
        meta: Meta {
            owner: "o".into(),
            via: Via::Sms { phone: "p".into() },
        },
        mode: Mode::Careful { retries: 2 },
        items: vec![Ext {
            id: "i".into(),
            target: Target::Id(1),
            note: None,
        }],
        first: Some(Cmd::Move { x: -1, y: 2 }),
    }];
    values.extend(generate(nested(), GENERATED));
    let schema = Nested::input_schema();
    let counts = check("Nested", schema, &serialized(&values));
    eprintln!("Nested: {counts:?}");
    assert_eq!(
        not_enforced(schema),
        integers(&[
            "/$defs/Ext/oneOf/0/properties/Host/properties/port",
            "/$defs/Ext/oneOf/2/properties/Id",
            "/$defs/SearchArgs/properties/limit",
            "/$defs/Cmd/oneOf/2/properties/x",
            "/$defs/Cmd/oneOf/2/properties/y",
            "/allOf/1/oneOf/1/properties/retries",
        ])
    );
}

#[test]
fn aliases_of_required_fields_are_one_name_each() {
    let mut values = vec![Aliased {
        contact: Contact {
            email: "e".into(),
            nickname: None,
        },
        op: Op::Add { value: -4 },
        via: Via::Email { addr: "a".into() },
        id_list: vec![1, 2],
    }];
    values.extend(generate(aliased(), GENERATED));
    let schema = Aliased::input_schema();
    let counts = check("Aliased", schema, &serialized(&values));
    eprintln!("Aliased: {counts:?}");
    // No `allOf` of alias requirements: the grammar writes wire names.
    assert_eq!(
        not_enforced(schema),
        integers(&[
            "/$defs/Op/oneOf/0/properties/value",
            "/properties/id_list/items",
        ])
    );
}

#[test]
fn whole_call_grammars_compile_the_same_way() {
    let tools = [
        ("root", Root::input_schema()),
        ("ext", Ext::input_schema()),
        ("aliased", Aliased::input_schema()),
    ];
    let calls = CallGrammar::new(tools).expect("call grammar");
    for (name, schema) in tools {
        let alone = Grammar::from_schema(schema).expect("grammar");
        assert_eq!(
            calls.not_enforced(name),
            Some(alone.not_enforced()),
            "{name}"
        );
    }
    let mut engine = Engine::for_lark(&calls.lark());
    for root in serialized(&root_values()) {
        let call = format!(r#"{{"name":"root","arguments":{root}}}"#);
        assert!(engine.accepts(&call), "{call}");
        let mut open = root.clone();
        open["zz_extra"] = json!(1);
        let call = format!(r#"{{"name":"root","arguments":{open}}}"#);
        assert!(!engine.accepts(&call), "{call}");
    }
    // The toolbox builds the same grammar.
    let mut toolbox: toolargs::toolbox::Toolbox<()> = toolargs::toolbox::Toolbox::new();
    toolbox
        .tool_sync("root", "The example.", |args: Root| {
            Ok::<_, String>(args.to)
        })
        .expect("register");
    let grammar = toolbox.call_grammar().expect("grammar");
    assert_eq!(
        grammar.not_enforced("root"),
        Some(
            Grammar::from_schema(Root::input_schema())
                .expect("grammar")
                .not_enforced()
        )
    );
    let mut engine = Engine::for_lark(&grammar.lark());
    let text = r#"{"name":"root","arguments":{"cmd":{"type":"Move","x":1,"y":2},"args":{"query":"q"},"to":"t","kind":"Email","addr":"a","name":"x"}}"#;
    assert!(engine.accepts(text));
    let other_variant = r#"{"name":"root","arguments":{"cmd":{"type":"Move","x":1,"y":2},"args":{"query":"q"},"to":"t","kind":"Email","phone":"a","name":"x"}}"#;
    assert!(!engine.accepts(other_variant));
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "shape")]
enum Shape {
    Leaf { weight: String },
    Branch { fanout: String },
}

/// A recursive type that flattens an enum.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Tree {
    label: String,
    #[serde(flatten)]
    shape: Shape,
    children: Vec<Tree>,
}

fn tree() -> impl Strategy<Value = Tree> {
    let shape = prop_oneof![
        text().prop_map(|weight| Shape::Leaf { weight }),
        text().prop_map(|fanout| Shape::Branch { fanout }),
    ];
    let leaf = (text(), shape.clone()).prop_map(|(label, shape)| Tree {
        label,
        shape,
        children: Vec::new(),
    });
    leaf.prop_recursive(3, 12, 3, move |inner| {
        (
            text(),
            shape.clone(),
            proptest::collection::vec(inner, 0..3),
        )
            .prop_map(|(label, shape, children)| Tree {
                label,
                shape,
                children,
            })
    })
}

#[test]
fn a_recursive_type_that_flattens_an_enum_compiles_closed() {
    let schema = Tree::input_schema();
    let values = generate(tree(), GENERATED);
    assert!(values.iter().any(|t| !t.children.is_empty()));
    let counts = check("Tree", schema, &serialized(&values));
    eprintln!("Tree: {counts:?}");
    assert_eq!(not_enforced(schema), Vec::<(String, String)>::new());
}

#[test]
fn parts_that_disagree_are_compiled_one_by_one_and_reported() {
    // Two parts give `maxProperties` different values: not merged, so the
    // grammar compiles the object's own members and says what it leaves.
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "allOf": [{"maxProperties": 1}, {"maxProperties": 2}],
        "unevaluatedProperties": false
    });
    assert_eq!(
        not_enforced(&schema),
        [("", "unevaluatedProperties"), ("", "allOf")]
            .iter()
            .map(|(p, k)| ((*p).to_owned(), (*k).to_owned()))
            .collect::<Vec<_>>()
    );
    let mut engine = Engine::for_lark(&Grammar::from_schema(&schema).expect("grammar").lark());
    assert!(engine.accepts(r#"{"a":"x"}"#));
}

#[test]
fn compositions_beyond_the_bounds_are_compiled_one_by_one_and_reported() {
    // 2^7 combinations of branches: more than a composition may become.
    let branch = |k: usize| json!({"type": "object", "properties": {format!("p{k}"): {"type": "string"}}, "required": [format!("p{k}")]});
    let unions: Vec<Value> = (0..7)
        .map(|i| json!({"oneOf": [branch(2 * i), branch(2 * i + 1)]}))
        .collect();
    let schema = json!({"type": "object", "allOf": unions, "unevaluatedProperties": false});
    let report = not_enforced(&schema);
    assert!(
        report.contains(&(String::new(), "allOf".to_owned()))
            && report.contains(&(String::new(), "unevaluatedProperties".to_owned())),
        "{report:?}"
    );
    // Six unions (64 combinations) are merged: every member enforced.
    let unions: Vec<Value> = (0..6)
        .map(|i| json!({"oneOf": [branch(2 * i), branch(2 * i + 1)]}))
        .collect();
    let schema = json!({"type": "object", "allOf": unions, "unevaluatedProperties": false});
    assert_eq!(not_enforced(&schema), Vec::<(String, String)>::new());
    let mut engine = Engine::for_lark(&Grammar::from_schema(&schema).expect("grammar").lark());
    let call = r#"{"p0":"a","p3":"b","p4":"c","p7":"d","p8":"e","p11":"f"}"#;
    assert!(jsonschema::is_valid(
        &schema,
        &serde_json::from_str(call).expect("json")
    ));
    assert!(engine.accepts(call));
    assert!(
        !engine.accepts(r#"{"p0":"a","p1":"x","p3":"b","p4":"c","p7":"d","p8":"e","p11":"f"}"#)
    );
    assert!(!engine.accepts(r#"{"p0":"a","p4":"c","p7":"d","p8":"e","p11":"f"}"#));
}

#[test]
fn parts_that_exclude_each_other_admit_nothing() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "never": {"allOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "required": ["a"],
        "additionalProperties": false
    });
    let mut engine = Engine::for_lark(&Grammar::from_schema(&schema).expect("grammar").lark());
    assert!(engine.accepts(r#"{"a":"x"}"#));
    assert!(!engine.accepts(r#"{"a":"x","never":"y"}"#));
    assert!(!engine.accepts(r#"{"a":"x","never":1}"#));
    let required = json!({
        "type": "object",
        "properties": {"never": {"allOf": [{"type": "string"}, {"type": "integer"}]}},
        "required": ["never"]
    });
    assert!(Grammar::from_schema(&required).is_err());
}

/// A struct flattening an internally tagged enum with a newtype variant (a
/// `$ref` beside the tag, inside the union beside the struct's fields), a
/// unit variant and a struct variant.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct FlatCmd {
    to: String,
    #[serde(flatten)]
    cmd: Cmd,
    #[serde(alias = "why")]
    reason: Option<String>,
}

#[test]
fn a_flattened_internally_tagged_newtype_variant_compiles_closed() {
    let strategy = (text(), cmd(), proptest::option::of(text()))
        .prop_map(|(to, cmd, reason)| FlatCmd { to, cmd, reason });
    let mut values = vec![FlatCmd {
        to: "t".into(),
        cmd: Cmd::Search(SearchArgs {
            query: "q".into(),
            limit: None,
        }),
        reason: Some("r".into()),
    }];
    values.extend(generate(strategy, GENERATED));
    let schema = FlatCmd::input_schema();
    let counts = check("FlatCmd", schema, &serialized(&values));
    eprintln!("FlatCmd: {counts:?}");
    assert_eq!(
        not_enforced(schema),
        integers(&[
            "/$defs/SearchArgs/properties/limit",
            "/oneOf/2/properties/x",
            "/oneOf/2/properties/y",
        ])
    );
    // The newtype variant's own members, with its tag, never another's.
    let mut engine = Engine::for_lark(&Grammar::from_schema(schema).expect("grammar").lark());
    assert!(engine.accepts(r#"{"to":"t","type":"Search","query":"q","limit":1}"#));
    assert!(!engine.accepts(r#"{"to":"t","type":"Search","query":"q","x":1}"#));
    assert!(!engine.accepts(r#"{"to":"t","type":"Stop","query":"q"}"#));
    assert!(!engine.accepts(r#"{"to":"t","type":"Search"}"#));
}

#[test]
fn a_part_closed_on_its_own_members_is_reported() {
    // `additionalProperties: false` sees the members beside it only, so the
    // schema refuses the branch's `b`; the merged object admits it, and
    // says so.
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "oneOf": [{"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}],
        "additionalProperties": false
    });
    assert_eq!(
        not_enforced(&schema),
        [(String::new(), "additionalProperties".to_owned())]
    );
    let mut engine = Engine::for_lark(&Grammar::from_schema(&schema).expect("grammar").lark());
    assert!(engine.accepts(r#"{"a":"x","b":"y"}"#));
    assert!(!engine.accepts(r#"{"a":"x","b":"y","c":"z"}"#));
    // Closed where used instead: nothing to report.
    let mut where_used = schema.clone();
    where_used
        .as_object_mut()
        .expect("object")
        .remove("additionalProperties");
    where_used["unevaluatedProperties"] = json!(false);
    assert_eq!(not_enforced(&where_used), Vec::<(String, String)>::new());
}
