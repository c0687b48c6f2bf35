//! The generated grammars, checked by a real constrained-decoding engine:
//! llguidance parses each Lark grammar, and each call of a generated corpus
//! is fed to it byte by byte (a byte-level token environment: every byte is
//! one token). The engine's verdict is compared with a JSON Schema
//! validator's (the `jsonschema` crate):
//!
//! - every valid call (generated from the schema, and checked valid by the
//!   validator) must be accepted;
//! - every invalid call (wrong type, missing required property, extra
//!   property on a closed object, enum value outside the set, out-of-range
//!   number, unknown tool name) must be rejected, unless the validator's
//!   failing keyword is one the grammar's report lists as not enforced.

mod engine;

use engine::{Engine, factory};
use proptest::prelude::Rng;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use toolargs::grammar::{CallGrammar, Grammar, Unenforced};

/// Valid calls generated per schema.
const VALID_PER_SCHEMA: usize = 60;

/// The schemas under test: `(tool name, schema)`.
fn schemas() -> Vec<(&'static str, Value)> {
    vec![
        (
            "refund",
            json!({
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "pattern": "^ord_[0-9]{6}$"},
                    "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
                    "reason": {"type": "string", "enum": ["damaged", "late", "wrong_item", "other"]},
                    "note": {"type": "string", "maxLength": 40}
                },
                "required": ["order_id", "amount_cents", "reason"],
                "additionalProperties": false
            }),
        ),
        (
            "create_customer",
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 30},
                    "email": {"type": "string", "format": "email", "pattern": "^[^@\\s]+@[a-z]+\\.[a-z]{2,4}$"},
                    "address": {
                        "type": "object",
                        "properties": {
                            "street": {"type": "string"},
                            "city": {"type": "string"},
                            "zip": {"type": "string", "pattern": "^[0-9]{5}(-[0-9]{4})?$"},
                            "geo": {
                                "type": "object",
                                "properties": {
                                    "lat": {"type": "number", "minimum": -90, "maximum": 90},
                                    "lon": {"type": "number", "minimum": -180, "maximum": 180}
                                },
                                "required": ["lat", "lon"],
                                "additionalProperties": false
                            }
                        },
                        "required": ["street", "city"],
                        "additionalProperties": false
                    },
                    "vip": {"type": "boolean"}
                },
                "required": ["name", "address"],
                "additionalProperties": false
            }),
        ),
        (
            "tag_items",
            json!({
                "type": "object",
                "properties": {
                    "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 4},
                    "tags": {
                        "type": "array",
                        "items": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,11}$"},
                        "maxItems": 3,
                        "uniqueItems": true
                    },
                    "grid": {
                        "type": "array",
                        "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
                        "maxItems": 3
                    }
                },
                "required": ["ids", "tags"],
                "additionalProperties": false
            }),
        ),
        (
            "search",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                    "offset": {"type": "integer", "minimum": 0},
                    "sort": {"enum": ["relevance", "date", "price"]},
                    "exact": {"type": "boolean"}
                },
                "additionalProperties": false
            }),
        ),
        (
            "update_profile",
            json!({
                "type": "object",
                "properties": {
                    "nickname": {"type": ["string", "null"], "maxLength": 20},
                    "age": {"type": ["integer", "null"], "minimum": 0},
                    "manager": {"anyOf": [{"$ref": "#/$defs/person"}, {"type": "null"}]}
                },
                "required": ["nickname", "age", "manager"],
                "additionalProperties": false,
                "$defs": {
                    "person": {
                        "type": "object",
                        "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                        "required": ["id"],
                        "additionalProperties": false
                    }
                }
            }),
        ),
        (
            "send_message",
            json!({
                "type": "object",
                "properties": {
                    "to": {"anyOf": [{"type": "string", "pattern": "^@[a-z]{3,10}$"}, {"type": "integer", "minimum": 1}]},
                    "body": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {"kind": {"const": "text"}, "text": {"type": "string"}},
                                "required": ["kind", "text"],
                                "additionalProperties": false
                            },
                            {
                                "type": "object",
                                "properties": {"kind": {"const": "image"}, "url": {"type": "string"}, "alt": {"type": "string"}},
                                "required": ["kind", "url"],
                                "additionalProperties": false
                            }
                        ]
                    }
                },
                "required": ["to", "body"],
                "additionalProperties": false
            }),
        ),
        (
            "build_tree",
            json!({
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/node"}},
                "required": ["root"],
                "additionalProperties": false,
                "$defs": {
                    "node": {
                        "type": "object",
                        "properties": {
                            "value": {"type": "integer"},
                            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 3}
                        },
                        "required": ["value"],
                        "additionalProperties": false
                    }
                }
            }),
        ),
        (
            "linked_list",
            json!({
                "type": "object",
                "properties": {
                    "label": {"type": "string", "maxLength": 8},
                    "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}
                },
                "required": ["label", "next"],
                "additionalProperties": false
            }),
        ),
        (
            "plot_points",
            json!({
                "type": "object",
                "properties": {
                    "origin": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false, "minItems": 2},
                    "labelled": {
                        "type": "array",
                        "prefixItems": [{"type": "string", "maxLength": 6}, {"type": "integer"}],
                        "items": {"type": "boolean"},
                        "minItems": 1,
                        "maxItems": 4
                    }
                },
                "required": ["origin", "labelled"],
                "additionalProperties": false
            }),
        ),
        (
            "set_options",
            json!({
                "type": "object",
                "properties": {
                    "mode": {"enum": ["fast", 1, null, true, {"k": "v"}, [1, "two"]]},
                    "version": {"const": 3},
                    "level": {"type": "string", "enum": ["low", "high", 7]}
                },
                "required": ["mode", "version"],
                "additionalProperties": false
            }),
        ),
        (
            "legacy_draft7",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "pair": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/definitions/count"}], "additionalItems": false},
                    "counts": {"type": "array", "items": {"$ref": "#/definitions/count"}, "maxItems": 3}
                },
                "required": ["pair"],
                "additionalProperties": false,
                "definitions": {"count": {"type": "integer", "minimum": 0, "multipleOf": 2}}
            }),
        ),
        (
            "book_venue",
            json!({
                "type": "object",
                "properties": {
                    "venue": {"type": "string"},
                    "seats": {"type": "integer", "minimum": 1}
                },
                "required": ["venue"],
                "additionalProperties": {"type": "integer"}
            }),
        ),
        (
            "annotate",
            json!({
                "type": "object",
                "properties": {
                    "id": {"type": "integer"},
                    "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "title": {"type": "string", "pattern": "^\\p{Lu}[a-z]{2,8}$"}
                },
                "required": ["id", "title"]
            }),
        ),
    ]
}

/// Generates values valid under a schema (the subset of keywords the test
/// schemas use), members in schema order.
struct Generator<'a> {
    root: &'a Value,
    runner: TestRunner,
}

const PALETTE: &[char] = &[
    'a', 'b', 'z', 'Q', '0', '7', ' ', '"', '\\', '/', '\n', '\t', '\u{1}', '\u{7f}', 'é', '€',
    '😀',
];

impl<'a> Generator<'a> {
    fn new(root: &'a Value, seed: u64) -> Self {
        let mut runner = TestRunner::deterministic();
        // Mix the seed in so each schema gets its own stream.
        for _ in 0..seed {
            runner.rng().random::<u64>();
        }
        Self { root, runner }
    }

    fn chance(&mut self, p: f64) -> bool {
        self.runner.rng().random_bool(p)
    }

    fn below(&mut self, n: usize) -> usize {
        self.runner.rng().random_range(0..n)
    }

    fn value(&mut self, schema: &Value, depth: usize) -> Value {
        let Some(map) = schema.as_object() else {
            return self.any(depth);
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let target = self
                .root
                .pointer(reference.trim_start_matches('#'))
                .expect("ref target");
            return self.value(target, depth + 1);
        }
        if let Some(branches) = map
            .get("anyOf")
            .or(map.get("oneOf"))
            .and_then(Value::as_array)
        {
            // Deep down, prefer the last branch (`null` in the test schemas).
            let i = if depth > 4 {
                branches.len() - 1
            } else {
                self.below(branches.len())
            };
            return self.value(&branches[i], depth + 1);
        }
        if let Some(value) = map.get("const") {
            return value.clone();
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            let allowed: Vec<&Value> = values
                .iter()
                .filter(|v| match map.get("type").and_then(Value::as_str) {
                    Some("string") => v.is_string(),
                    _ => true,
                })
                .collect();
            return allowed[self.below(allowed.len())].clone();
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
            _ => return self.any(depth),
        };
        match types[self.below(types.len())] {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.chance(0.5)),
            "integer" => json!(self.integer(map)),
            "number" => self.number(map),
            "string" => Value::String(self.string(map)),
            "array" => self.array(map, depth),
            "object" => self.object(map, depth),
            other => panic!("type {other}"),
        }
    }

    fn integer(&mut self, map: &Map<String, Value>) -> i64 {
        let low = map.get("minimum").and_then(Value::as_i64).unwrap_or(-1000);
        let high = map
            .get("maximum")
            .and_then(Value::as_i64)
            .unwrap_or(low.max(0) + 100_000);
        let n = self.runner.rng().random_range(low..=high);
        match map.get("multipleOf").and_then(Value::as_i64) {
            Some(m) => {
                n - n.rem_euclid(m)
                    + if n.rem_euclid(m) != 0 && n - n.rem_euclid(m) < low {
                        m
                    } else {
                        0
                    }
            }
            None => n,
        }
    }

    fn number(&mut self, map: &Map<String, Value>) -> Value {
        let low = map.get("minimum").and_then(Value::as_f64).unwrap_or(-1e6);
        let high = map.get("maximum").and_then(Value::as_f64).unwrap_or(1e6);
        match self.below(4) {
            0 => json!(self.runner.rng().random_range(low as i64..=high as i64)),
            1 => json!(self.runner.rng().random_range(low..=high)),
            2 => json!(((self.runner.rng().random_range(low..=high)) * 100.0).round() / 100.0),
            _ => json!(low.max(0.0_f64.min(high))),
        }
    }

    fn string(&mut self, map: &Map<String, Value>) -> String {
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
            // The test patterns are anchored and read the same in Rust's
            // regex syntax, except that ECMA-262's `\s` also holds U+FEFF
            // (the test patterns use `\s` inside classes only).
            let inner = pattern
                .trim_start_matches('^')
                .trim_end_matches('$')
                .replace("\\s", "\\s\\x{FEFF}");
            let strategy = proptest::string::string_regex(&inner).expect("pattern");
            return strategy.new_tree(&mut self.runner).expect("tree").current();
        }
        let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = map
            .get("maxLength")
            .and_then(Value::as_u64)
            .map_or(12, |m| m as usize);
        let len = min + self.below(max - min + 1);
        (0..len)
            .map(|_| PALETTE[self.below(PALETTE.len())])
            .collect()
    }

    fn array(&mut self, map: &Map<String, Value>, depth: usize) -> Value {
        let prefix: Vec<Value> = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(p)), _) | (None, Some(Value::Array(p))) => p.clone(),
            _ => Vec::new(),
        };
        let rest = if map.contains_key("prefixItems") || prefix.is_empty() {
            map.get("items")
        } else {
            map.get("additionalItems")
        };
        let rest = match rest {
            Some(Value::Array(_)) | None => Some(Value::Bool(true)),
            Some(Value::Bool(false)) => None,
            Some(schema) => Some(schema.clone()),
        };
        let min = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let cap = if rest.is_some() {
            prefix.len() + 4
        } else {
            prefix.len()
        };
        let max = map
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(cap, |m| (m as usize).min(cap));
        let len = if depth > 3 {
            min
        } else {
            min + self.below(max - min + 1)
        };
        (0..len)
            .map(|i| match prefix.get(i) {
                Some(schema) => self.value(schema, depth + 1),
                None => self.value(rest.as_ref().expect("rest items"), depth + 1),
            })
            .collect()
    }

    fn object(&mut self, map: &Map<String, Value>, depth: usize) -> Value {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out = Map::new();
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            for (key, schema) in properties {
                if required.contains(&key.as_str()) || (depth < 4 && self.chance(0.5)) {
                    out.insert(key.clone(), self.value(schema, depth + 1));
                }
            }
        }
        let extra = match map.get("additionalProperties") {
            Some(Value::Bool(false)) => None,
            Some(schema) => Some(schema.clone()),
            None => Some(Value::Bool(true)),
        };
        if let Some(schema) = extra {
            for i in 0..self.below(3) {
                out.insert(format!("extra_{i}"), self.value(&schema, depth + 2));
            }
        }
        Value::Object(out)
    }

    fn any(&mut self, depth: usize) -> Value {
        match if depth > 3 {
            self.below(4)
        } else {
            self.below(6)
        } {
            0 => Value::Null,
            1 => json!(self.below(1000)),
            2 => Value::String(
                (0..self.below(5))
                    .map(|_| PALETTE[self.below(PALETTE.len())])
                    .collect(),
            ),
            3 => json!(self.chance(0.5)),
            4 => json!([self.any(depth + 1), self.any(depth + 1)]),
            _ => json!({"k": self.any(depth + 1)}),
        }
    }
}

/// How an invalid call was made from a valid one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mutation {
    WrongType,
    MissingRequired,
    ExtraOnClosed,
    EnumOutside,
    OutOfRange,
}

/// Invalid variants of a valid arguments object, each with its kind.
fn mutations(schema: &Value, valid: &Value) -> Vec<(Mutation, Value)> {
    let mut out = Vec::new();
    let (Some(map), Some(args)) = (schema.as_object(), valid.as_object()) else {
        return out;
    };
    let properties = map.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(first) = required.first() {
        let mut missing = args.clone();
        missing.shift_remove(*first);
        out.push((Mutation::MissingRequired, Value::Object(missing)));
    }
    if map.get("additionalProperties") == Some(&Value::Bool(false)) {
        let mut extra = args.clone();
        extra.insert("unexpected".into(), json!(1));
        out.push((Mutation::ExtraOnClosed, Value::Object(extra)));
    }
    for (key, value) in args {
        let Some(sub) = properties
            .and_then(|p| p.get(key))
            .and_then(Value::as_object)
        else {
            continue;
        };
        let mut changed = args.clone();
        let wrong = if value.is_string() {
            json!(12)
        } else {
            json!("oops")
        };
        changed.insert(key.clone(), wrong);
        out.push((Mutation::WrongType, Value::Object(changed)));
        if sub.contains_key("enum") {
            let mut changed = args.clone();
            changed.insert(key.clone(), json!("__not_in_the_set__"));
            out.push((Mutation::EnumOutside, Value::Object(changed)));
        }
        if let Some(max) = sub.get("maximum").and_then(Value::as_i64) {
            let mut changed = args.clone();
            changed.insert(key.clone(), json!(max + 1));
            out.push((Mutation::OutOfRange, Value::Object(changed)));
        }
    }
    out
}

/// The validator's failing keyword locations (`/properties/a/minimum`).
fn failing_keywords(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| e.schema_path().as_str().to_owned())
        .collect()
}

/// Whether the report lists the failing keyword, or a keyword beneath it
/// (a union's failure stands for its branches' keywords).
fn explained(report: &[Unenforced], location: &str) -> bool {
    report.iter().any(|u| {
        let listed = format!("{}/{}", u.pointer, u.keyword);
        listed == location || listed.starts_with(&format!("{location}/"))
    })
}

/// One call of the corpus: a tool's arguments as text.
struct Case {
    /// Index of the tool in [`schemas`].
    tool: usize,
    text: String,
    /// `None` for a value generated valid; else how it was made invalid.
    mutation: Option<Mutation>,
    /// The validator's failing keyword locations (empty: valid).
    failing: Vec<String>,
}

/// The argument corpus: generated valid values and their invalid variants,
/// judged by the validator. Deterministic.
fn corpus(schemas: &[(&str, Value)]) -> Vec<Case> {
    let mut cases = Vec::new();
    for (tool, (name, schema)) in schemas.iter().enumerate() {
        let validator = jsonschema::validator_for(schema).expect("validator");
        let mut generator = Generator::new(schema, tool as u64 * 7 + 1);
        for _ in 0..VALID_PER_SCHEMA {
            let args = generator.value(schema, 0);
            let failing = failing_keywords(&validator, &args);
            assert!(
                failing.is_empty(),
                "{name}: generated an invalid value {args}: {failing:?}"
            );
            cases.push(Case {
                tool,
                text: serde_json::to_string(&args).expect("json"),
                mutation: None,
                failing,
            });
            for (kind, bad) in mutations(schema, &args) {
                cases.push(Case {
                    tool,
                    text: serde_json::to_string(&bad).expect("json"),
                    mutation: Some(kind),
                    failing: failing_keywords(&validator, &bad),
                });
            }
        }
    }
    cases
}

/// Whole calls `{"name":...,"arguments":...}` for every valid argument case,
/// plus, for every third one, the same arguments under an unknown tool name
/// (flagged `true`).
fn whole_calls(schemas: &[(&str, Value)], cases: &[Case]) -> Vec<(String, bool)> {
    let mut calls = Vec::new();
    for (i, case) in cases.iter().filter(|c| c.mutation.is_none()).enumerate() {
        let name = schemas[case.tool].0;
        calls.push((
            format!(r#"{{"name":"{name}","arguments":{}}}"#, case.text),
            false,
        ));
        if i % 3 == 0 {
            calls.push((
                format!(r#"{{"name":"{name}_v2","arguments":{}}}"#, case.text),
                true,
            ));
        }
    }
    calls
}

#[derive(Default, Debug)]
struct Tally {
    valid: usize,
    invalid_rejected: BTreeMap<String, usize>,
    invalid_accepted_as_reported: BTreeMap<String, usize>,
}

#[test]
fn engine_agrees_with_the_validator_on_a_generated_corpus() {
    let factory = factory();
    let schemas = schemas();
    assert!(schemas.len() >= 10);
    let cases = corpus(&schemas);
    let mut tally = Tally::default();
    let mut failures = Vec::new();

    for (tool, (name, schema)) in schemas.iter().enumerate() {
        let grammar = Grammar::from_schema(schema).unwrap_or_else(|e| panic!("{name}: {e}"));
        let report = grammar.not_enforced();
        let mut engine = Engine::new(&factory, &grammar.lark());
        for case in cases.iter().filter(|c| c.tool == tool) {
            let accepted = engine.accepts(&case.text);
            let kind = case
                .mutation
                .map_or_else(|| "generated".to_owned(), |m| format!("{m:?}"));
            match (case.failing.is_empty(), accepted) {
                (true, true) => tally.valid += 1,
                (true, false) => failures.push(format!(
                    "{name}: valid call rejected ({kind}): {}",
                    case.text
                )),
                (false, false) => *tally.invalid_rejected.entry(kind).or_default() += 1,
                (false, true) => {
                    if case.failing.iter().all(|loc| explained(report, loc)) {
                        *tally.invalid_accepted_as_reported.entry(kind).or_default() += 1;
                    } else {
                        failures.push(format!(
                            "{name}: invalid call accepted ({kind}, failing {:?}, not in the \
                             report): {}",
                            case.failing, case.text
                        ));
                    }
                }
            }
        }
    }

    let tools: Vec<(&str, &Value)> = schemas.iter().map(|(n, s)| (*n, s)).collect();
    let call_grammar = CallGrammar::new(tools.iter().copied()).expect("call grammar");
    let mut call_engine = Engine::new(&factory, &call_grammar.lark());
    for (text, unknown_tool) in whole_calls(&schemas, &cases) {
        match (unknown_tool, call_engine.accepts(&text)) {
            (false, true) => tally.valid += 1,
            (false, false) => failures.push(format!("whole call rejected: {text}")),
            (true, false) => {
                *tally
                    .invalid_rejected
                    .entry("UnknownTool".into())
                    .or_default() += 1
            }
            (true, true) => failures.push(format!("unknown tool accepted: {text}")),
        }
    }

    let invalid: usize = tally.invalid_rejected.values().sum::<usize>()
        + tally.invalid_accepted_as_reported.values().sum::<usize>();
    eprintln!(
        "grammar corpus: {} schemas, {} valid calls accepted, {} invalid calls \
         (rejected: {:?}; accepted where the report says the keyword is not enforced: {:?})",
        schemas.len(),
        tally.valid,
        invalid,
        tally.invalid_rejected,
        tally.invalid_accepted_as_reported
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(tally.valid + invalid >= 1000, "corpus too small: {tally:?}");
    for kind in [
        "WrongType",
        "MissingRequired",
        "ExtraOnClosed",
        "EnumOutside",
        "UnknownTool",
    ] {
        assert!(
            tally.invalid_rejected.get(kind).copied().unwrap_or(0) > 0,
            "no {kind} call was rejected: {tally:?}"
        );
    }
}

/// The GBNF output, through llguidance's own GBNF import (its Python
/// package's `grammar_from("gbnf", ...)`, which converts GBNF to its Lark
/// dialect) and then the same engine: on every call of the corpus, the
/// GBNF grammar must give the Lark grammar's verdict.
///
/// Needs a Python interpreter with the `llguidance` package, named by
/// `TOOLARGS_LLGUIDANCE_PYTHON`; `scripts/grammar-gbnf.sh` sets one up and
/// runs this test.
#[test]
#[ignore = "needs Python llguidance: run scripts/grammar-gbnf.sh"]
fn gbnf_grammars_agree_with_lark_through_llguidance_gbnf_import() {
    let python = std::env::var("TOOLARGS_LLGUIDANCE_PYTHON")
        .expect("TOOLARGS_LLGUIDANCE_PYTHON must name a Python with llguidance installed");
    let factory = factory();
    let schemas = schemas();
    let cases = corpus(&schemas);
    let mut failures = Vec::new();
    let mut checked = 0;
    for (tool, (name, schema)) in schemas.iter().enumerate() {
        let grammar = Grammar::from_schema(schema).expect("grammar");
        let mut lark = Engine::new(&factory, &grammar.lark());
        let mut gbnf = Engine::new(&factory, &import_gbnf(&python, &grammar.gbnf()));
        for case in cases.iter().filter(|c| c.tool == tool) {
            let expected = lark.accepts(&case.text);
            if gbnf.accepts(&case.text) != expected {
                failures.push(format!(
                    "{name}: GBNF says {}, Lark {expected}: {}",
                    !expected, case.text
                ));
            }
            checked += 1;
        }
    }
    let tools: Vec<(&str, &Value)> = schemas.iter().map(|(n, s)| (*n, s)).collect();
    let call_grammar = CallGrammar::new(tools.iter().copied()).expect("call grammar");
    let mut lark = Engine::new(&factory, &call_grammar.lark());
    let mut gbnf = Engine::new(&factory, &import_gbnf(&python, &call_grammar.gbnf()));
    for (text, unknown_tool) in whole_calls(&schemas, &cases) {
        let expected = lark.accepts(&text);
        assert_eq!(expected, !unknown_tool, "{text}");
        if gbnf.accepts(&text) != expected {
            failures.push(format!(
                "whole call: GBNF says {}, Lark {expected}: {text}",
                !expected
            ));
        }
        checked += 1;
    }
    eprintln!("GBNF through llguidance's GBNF import: {checked} calls checked");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The GBNF output, through llama.cpp's own grammar parser and matcher
/// (`llama-grammar.cpp`, fed one code point at a time, as
/// `tests/test-grammar-integration.cpp` in llama.cpp does): on every call
/// of the corpus it must give the Lark grammar's verdict.
///
/// Needs the small harness `scripts/llama-gbnf/harness.cpp` built against
/// llama.cpp's sources, named by `TOOLARGS_LLAMA_GBNF`;
/// `scripts/grammar-llama-cpp.sh` builds it and runs this test.
#[test]
#[ignore = "needs llama.cpp's grammar parser: run scripts/grammar-llama-cpp.sh"]
fn gbnf_grammars_agree_with_lark_in_llama_cpp() {
    let harness = std::env::var("TOOLARGS_LLAMA_GBNF")
        .expect("TOOLARGS_LLAMA_GBNF must name the llama.cpp grammar harness");
    let factory = factory();
    let schemas = schemas();
    let cases = corpus(&schemas);
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut check = |label: &str, gbnf: &str, lark: &str, texts: &[&str]| {
        let mut engine = Engine::new(&factory, lark);
        let verdicts = llama_cpp_verdicts(&harness, gbnf, texts);
        for (text, llama) in texts.iter().zip(verdicts) {
            let expected = engine.accepts(text);
            if llama != expected {
                failures.push(format!(
                    "{label}: llama.cpp says {llama}, Lark {expected}: {text}"
                ));
            }
            checked += 1;
        }
    };
    for (tool, (name, schema)) in schemas.iter().enumerate() {
        let grammar = Grammar::from_schema(schema).expect("grammar");
        let texts: Vec<&str> = cases
            .iter()
            .filter(|c| c.tool == tool)
            .map(|c| c.text.as_str())
            .collect();
        check(name, &grammar.gbnf(), &grammar.lark(), &texts);
    }
    let tools: Vec<(&str, &Value)> = schemas.iter().map(|(n, s)| (*n, s)).collect();
    let call_grammar = CallGrammar::new(tools.iter().copied()).expect("call grammar");
    let calls = whole_calls(&schemas, &cases);
    let texts: Vec<&str> = calls.iter().map(|(text, _)| text.as_str()).collect();
    check(
        "whole call",
        &call_grammar.gbnf(),
        &call_grammar.lark(),
        &texts,
    );
    eprintln!("GBNF through llama.cpp's grammar parser: {checked} calls checked");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// llama.cpp's verdict on each text (one a line; the texts are minified
/// JSON, so none holds a raw newline).
fn llama_cpp_verdicts(harness: &str, gbnf: &str, texts: &[&str]) -> Vec<bool> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("toolargs-gbnf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("grammar.gbnf");
    std::fs::write(&path, gbnf).expect("write GBNF");
    let mut child = Command::new(harness)
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the llama.cpp harness");
    let mut input = String::new();
    for text in texts {
        assert!(!text.contains('\n'));
        input.push_str(text);
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("llama.cpp harness");
    writer.join().expect("writer").expect("write texts");
    assert!(
        output.status.success(),
        "llama.cpp refused the grammar: {}\n{gbnf}",
        String::from_utf8_lossy(&output.stderr)
    );
    let verdicts: Vec<bool> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| line == "1")
        .collect();
    assert_eq!(verdicts.len(), texts.len(), "one verdict per text");
    verdicts
}

/// llguidance's GBNF import: GBNF text in, its Lark dialect out.
fn import_gbnf(python: &str, gbnf: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(python)
        .args([
            "-c",
            "import sys; from llguidance.gbnf_to_lark import gbnf_to_lark; \
             sys.stdout.write(gbnf_to_lark(sys.stdin.read()))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the llguidance Python package");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(gbnf.as_bytes())
        .expect("write GBNF");
    let output = child.wait_with_output().expect("GBNF import");
    assert!(
        output.status.success(),
        "llguidance's GBNF import refused the grammar: {}\n{gbnf}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 Lark")
}

mod derived {
    //! Schemas of serde types (as schemars derives them, which is what a
    //! derived tool hands the grammar compiler): every instance serde writes
    //! must be accepted, since serde writes fields in declaration order,
    //! which is the schema's `properties` order.

    use super::{Engine, factory};
    use schemars::JsonSchema;
    use serde::Serialize;
    use toolargs::grammar::Grammar;

    #[derive(Serialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Refund {
        order_id: String,
        amount_cents: u32,
        reason: Reason,
        note: Option<String>,
        lines: Vec<Line>,
        body: Body,
    }

    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "snake_case")]
    enum Reason {
        Damaged,
        Late,
    }

    #[derive(Serialize, JsonSchema)]
    struct Line {
        sku: String,
        qty: i64,
        price: f64,
        parent: Option<Box<Line>>,
    }

    #[derive(Serialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Body {
        Text { text: String },
        Image { url: String, alt: Option<String> },
    }

    fn instances() -> Vec<Refund> {
        let line = |sku: &str, parent: Option<Line>| Line {
            sku: sku.into(),
            qty: -3,
            price: 12.5,
            parent: parent.map(Box::new),
        };
        vec![
            Refund {
                order_id: "ord_000001".into(),
                amount_cents: 4200,
                reason: Reason::Damaged,
                note: None,
                lines: vec![],
                body: Body::Text {
                    text: "crushed \"box\"\n".into(),
                },
            },
            Refund {
                order_id: "ord_123456".into(),
                amount_cents: 0,
                reason: Reason::Late,
                note: Some("é😀\\".into()),
                lines: vec![line("a", None), line("b", Some(line("c", None)))],
                body: Body::Image {
                    url: "https://x.test/a.png".into(),
                    alt: None,
                },
            },
        ]
    }

    #[test]
    fn serde_instances_of_derived_schemas_are_accepted() {
        let schema = serde_json::to_value(schemars::schema_for!(Refund)).expect("schema");
        let grammar = Grammar::from_schema(&schema).unwrap_or_else(|e| panic!("{e}\n{schema}"));
        let validator = jsonschema::validator_for(&schema).expect("validator");
        let mut engine = Engine::new(&factory(), &grammar.lark());
        for instance in instances() {
            let value = serde_json::to_value(&instance).expect("value");
            assert!(validator.is_valid(&value), "{value}");
            let text = serde_json::to_string(&instance).expect("json");
            assert!(
                engine.accepts(&text),
                "rejected {text}\n{}\n{schema:#}",
                grammar.lark()
            );
            let mut extra = value.clone();
            extra["unexpected"] = serde_json::json!(1);
            assert!(!engine.accepts(&extra.to_string()), "{extra}");
        }
        let keywords: Vec<&str> = grammar
            .not_enforced()
            .iter()
            .map(|u| u.keyword.as_str())
            .collect();
        assert!(keywords.contains(&"format"), "{keywords:?}");
    }
}

#[test]
fn length_bounds_count_the_characters_of_the_value() {
    let schema = json!({"type": "string", "minLength": 2, "maxLength": 2});
    let grammar = Grammar::from_schema(&schema).expect("grammar");
    let validator = jsonschema::validator_for(&schema).expect("validator");
    let mut engine = Engine::new(&factory(), &grammar.lark());
    // (text, what the value is): one character beyond U+FFFF written as a
    // surrogate-pair escape is one character, not two.
    for (text, accepted) in [
        (r#""ab""#, true),
        (r#""a😀""#, true),
        (r#""\n\u00e9""#, true),
        (r#""\"\\""#, true),
        (r#""😀""#, false),
        (r#""\ud83d\ude00""#, false),
        (r#""abc""#, false),
    ] {
        let value: Value = serde_json::from_str(text).expect("json");
        assert_eq!(validator.is_valid(&value), accepted, "validator on {text}");
        assert_eq!(engine.accepts(text), accepted, "engine on {text}");
    }
}

/// Open objects under test for extra member names, with texts the engine
/// must reject (an extra member reusing a declared name, however spelled)
/// and texts it must accept (extra members under other names).
fn open_objects() -> Vec<(Value, &'static [&'static str], &'static [&'static str])> {
    let declared = json!({"venue": {"type": "string"}, "vat": {"type": "integer"}});
    let rejected: &[&str] = &[
        r#"{"venue":true}"#,
        r#"{"vat":"x"}"#,
        r#"{"v\u0065nue":true}"#,
        r#"{"venue":"x","venue":true}"#,
        r#"{"venue":"x","vat":1,"vat":"y"}"#,
    ];
    let accepted: &[&str] = &[
        r#"{"venue":"x","other":1}"#,
        r#"{"other":1}"#,
        r#"{"ven":1,"venues":2,"vat2":3,"":4}"#,
        r#"{"venue":"x","vat":2,"x":1}"#,
    ];
    [None, Some(json!(true)), Some(json!({"type": "integer"}))]
        .into_iter()
        .map(|additional| {
            let mut schema = json!({"type": "object", "properties": declared.clone()});
            if let Some(additional) = additional {
                schema["additionalProperties"] = additional;
            }
            (schema, rejected, accepted)
        })
        .collect()
}

#[test]
fn extra_members_of_open_objects_never_reuse_declared_names() {
    let factory = factory();
    for (schema, rejected, accepted) in open_objects() {
        let grammar = Grammar::from_schema(&schema).expect("grammar");
        let validator = jsonschema::validator_for(&schema).expect("validator");
        let mut engine = Engine::new(&factory, &grammar.lark());
        for text in rejected {
            // serde_json keeps the last of duplicate names, as the pipeline does.
            let value: Value = serde_json::from_str(text).expect("json");
            assert!(!validator.is_valid(&value), "validator on {text}");
            assert!(
                !engine.accepts(text),
                "engine accepted {text} under {schema}"
            );
        }
        for text in accepted {
            let value: Value = serde_json::from_str(text).expect("json");
            assert!(validator.is_valid(&value), "validator on {text}");
            assert!(
                engine.accepts(text),
                "engine rejected {text} under {schema}"
            );
        }
        assert!(
            grammar.not_enforced().is_empty(),
            "{:?}",
            grammar.not_enforced()
        );
    }
}

/// The same texts through the GBNF output (llguidance's GBNF import): the
/// GBNF grammar keeps extra names apart exactly as the Lark grammar does.
#[test]
#[ignore = "needs Python llguidance: run scripts/grammar-gbnf.sh"]
fn gbnf_grammars_agree_with_lark_through_llguidance_gbnf_import_on_extra_names() {
    let python = std::env::var("TOOLARGS_LLGUIDANCE_PYTHON")
        .expect("TOOLARGS_LLGUIDANCE_PYTHON must name a Python with llguidance installed");
    let factory = factory();
    for (schema, rejected, accepted) in open_objects() {
        let grammar = Grammar::from_schema(&schema).expect("grammar");
        let mut gbnf = Engine::new(&factory, &import_gbnf(&python, &grammar.gbnf()));
        for text in rejected {
            assert!(!gbnf.accepts(text), "GBNF accepted {text} under {schema}");
        }
        for text in accepted {
            assert!(gbnf.accepts(text), "GBNF rejected {text} under {schema}");
        }
    }
}

#[test]
fn a_toolbox_whole_call_grammar_only_samples_registered_tools() {
    #[derive(serde::Deserialize, schemars::JsonSchema, toolargs::ToolArgs)]
    struct Lookup {
        sku: String,
        quantity: Option<u32>,
    }
    let mut toolbox: toolargs::toolbox::Toolbox<()> = toolargs::toolbox::Toolbox::new();
    toolbox
        .tool_sync("lookup", "Look a product up.", |args: Lookup| {
            Ok::<_, String>(format!("{} x{}", args.sku, args.quantity.unwrap_or(1)))
        })
        .expect("register");
    let grammar = toolbox.call_grammar().expect("grammar");
    let mut engine = Engine::new(&factory(), &grammar.lark());
    assert!(engine.accepts(r#"{"name":"lookup","arguments":{"sku":"A-1","quantity":2}}"#));
    assert!(engine.accepts(r#"{"name":"lookup","arguments":{"sku":"A-1","quantity":null}}"#));
    assert!(!engine.accepts(r#"{"name":"lookups","arguments":{"sku":"A-1"}}"#));
    assert!(!engine.accepts(r#"{"name":"lookup","arguments":{"sku":"A-1","extra":1}}"#));
}
