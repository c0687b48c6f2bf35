//! Properties RT-TOOL-8 promises, checked on random schemas and arguments:
//! repeated normalization changes nothing more (but for the one case the rule
//! itself creates), keys and non-string scalars are never changed, text with
//! no `&` keeps its bytes, and a string becomes JSON only where the plan
//! declares that shape. Also: no schema or value makes the library panic.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolargs::plan::{JsonType, Loc, SchemaPlan};
use toolargs::{Normalizer, normalizer::Options, report::RepairKind};

/// Strings that exercise both repairs and their interaction.
const STRINGS: &[&str] = &[
    "",
    "plain",
    "AT&T",
    "&amp;",
    "&amp;amp;lt;",
    "Tom &amp;amp; Jerry",
    "[1,2]",
    " [\"a\", \"&amp;b\"] ",
    "[&quot;a&quot;]",
    "{\"k\":\"&lt;v&gt;\"}",
    "{\"k\":\"[1]\"}",
    "[\"[2]\", \"{}\"]",
    "[1,",
    "null",
    "\"[1]\"",
    "?a=1&region=us&copy=2",
    "&#x26;#x26;lt;",
    "&NotEqualTilde;",
    "{&quot;k&quot;:1}",
];

const KEYS: &[&str] = &["a", "b", "tags", "kind", "x-1", "a&amp;b", "n"];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        prop::sample::select(STRINGS).prop_map(|s| Value::String(s.to_owned())),
    ]
}

fn arguments() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..4).prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}

fn type_name() -> impl Strategy<Value = Value> {
    prop::sample::select(
        &[
            "array", "object", "string", "integer", "null", "boolean", "number",
        ][..],
    )
    .prop_map(|t| json!(t))
}

fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(true)),
        Just(json!(false)),
        Just(json!({})),
        type_name().prop_map(|t| json!({"type": t})),
        prop::collection::vec(type_name(), 1..3).prop_map(|ts| json!({"type": ts})),
        Just(json!({"$ref": "#"})),
        Just(json!({"$ref": "#/$defs/A"})),
        Just(json!({"enum": [1, "x", null]})),
        Just(json!({"const": [1]})),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec((prop::sample::select(KEYS), inner.clone()), 0..3).prop_map(
                |props| {
                    let props: Map<String, Value> =
                        props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                    json!({"type": "object", "properties": props})
                }
            ),
            (inner.clone(), inner.clone()).prop_map(
                |(p, a)| json!({"patternProperties": {"^x-": p}, "additionalProperties": a})
            ),
            inner
                .clone()
                .prop_map(|i| json!({"type": "array", "items": i})),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| json!({"prefixItems": [a], "items": b})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"anyOf": v})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"oneOf": v})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"allOf": v})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({
                "oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "a"}, "tags": a}},
                    {"type": "object", "properties": {"kind": {"enum": ["b"]}, "tags": b}}
                ]
            })),
        ]
    })
    .prop_flat_map(|root| {
        schema_defs().prop_map(move |def| {
            let mut root = root.clone();
            if let Value::Object(map) = &mut root {
                map.insert("$defs".into(), json!({"A": def}));
            } else {
                root = json!({"allOf": [root], "$defs": {"A": def}});
            }
            root
        })
    })
}

fn schema_defs() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "array", "items": {"type": "string"}})),
        Just(json!({"type": "object", "properties": {"tags": {"$ref": "#/$defs/A"}}})),
        Just(json!({"anyOf": [{"$ref": "#"}, {"type": "null"}]})),
    ]
}

fn unbounded() -> Options {
    Options::default().max_passes(u32::MAX)
}

/// Walks the input and the output together, checking what may and may not
/// change at each location.
fn check_changes(
    plan: &SchemaPlan,
    loc: &Loc,
    before: &Value,
    after: &Value,
    at: &str,
) -> Result<(), TestCaseError> {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let bk: Vec<&String> = b.keys().collect();
            let ak: Vec<&String> = a.keys().collect();
            prop_assert_eq!(bk, ak, "keys changed at {}", at);
            let bound = plan.bind(loc, before);
            for (k, v) in b {
                check_changes(
                    plan,
                    &plan.member(&bound, k),
                    v,
                    &a[k],
                    &format!("{at}/{k}"),
                )?;
            }
        }
        (Value::Array(b), Value::Array(a)) => {
            prop_assert_eq!(b.len(), a.len(), "array length changed at {}", at);
            let bound = plan.bind(loc, before);
            for (i, (v, w)) in b.iter().zip(a).enumerate() {
                check_changes(plan, &plan.item(&bound, i), v, w, &format!("{at}/{i}"))?;
            }
        }
        (Value::String(b), Value::String(a)) => {
            if !b.contains('&') {
                prop_assert_eq!(b, a, "text without `&` changed at {}", at);
            }
        }
        (Value::String(s), decoded @ (Value::Array(_) | Value::Object(_))) => {
            let declared = plan.declared(loc);
            prop_assert!(
                declared.wants_json(),
                "decoded at {} where {:?} is declared",
                at,
                declared
            );
            let shape = JsonType::of(decoded);
            prop_assert!(
                declared.contains(shape),
                "decoded to undeclared {:?} at {}",
                shape,
                at
            );
            let parsed: Value = serde_json::from_str(s).expect("a decoded string was JSON");
            prop_assert_eq!(JsonType::of(&parsed), shape);
        }
        (b, a) => prop_assert_eq!(b, a, "non-string scalar changed at {}", at),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn normalization_properties(schema in schema(), args in arguments()) {
        let normalizer = Normalizer::compile(&schema).expect("generated schemas compile").with_options(unbounded());
        let mut once = args.clone();
        let first = normalizer.normalize(&mut once).unwrap();
        check_changes(normalizer.plan(), &normalizer.plan().root(), &args, &once, "")?;

        let mut twice = once.clone();
        let second = normalizer.normalize(&mut twice).unwrap();
        // The only thing a second run may do: decode as JSON a string whose
        // JSON only appeared once its references were decoded (RT-TOOL-8
        // parses strings as sent: `[&quot;a&quot;]` stays text), and then
        // repair inside what it decoded.
        let referenced: Vec<String> = first.repairs.iter()
            .filter(|r| matches!(r.kind, RepairKind::ReferencesDecoded { .. }))
            .map(|r| r.pointer.to_string())
            .collect();
        for repair in &second.repairs {
            let explained = referenced.iter().any(|p| {
                repair.pointer == *p && matches!(repair.kind, RepairKind::JsonDecoded { .. })
                    || repair.pointer.to_string().starts_with(&format!("{p}/"))
            });
            prop_assert!(explained, "second run repaired {:?} (first: {:?})", repair, first.repairs);
        }
        if second.repairs.is_empty() {
            prop_assert_eq!(&once, &twice);
        }
    }

    #[test]
    fn the_text_path_repairs_what_the_value_path_repairs(schema in schema(), args in arguments(), pretty in any::<bool>()) {
        // `normalize_text` skips building a value where its scan of the text
        // says no repair can apply: that must never skip a repair.
        let text = if pretty { serde_json::to_string_pretty(&args) } else { serde_json::to_string(&args) }.unwrap();
        let normalizer = Normalizer::compile(&schema).expect("generated schemas compile");
        let mut value: Value = serde_json::from_str(&text).unwrap();
        let report = normalizer.normalize(&mut value).unwrap();
        let (spliced, text_report) = normalizer.normalize_text(&text).unwrap();
        prop_assert_eq!(&text_report, &report);
        prop_assert_eq!(serde_json::from_str::<Value>(&spliced).unwrap(), value);
        if report.is_clean() {
            prop_assert!(matches!(spliced, std::borrow::Cow::Borrowed(_)) || spliced == text);
        }
    }

    #[test]
    fn arbitrary_schemas_never_panic(schema in arguments(), args in arguments()) {
        if let Ok(normalizer) = Normalizer::compile(&schema) {
            let mut args = args;
            let _ = normalizer.normalize(&mut args);
        }
    }
}

#[test]
fn the_second_run_case_is_real() {
    // The exception in the idempotence property above is not hypothetical.
    let normalizer = Normalizer::compile(&json!({"properties": {"v": {"type": "array"}}})).unwrap();
    let mut args = json!({"v": "[&quot;a&quot;]"});
    normalizer.normalize(&mut args).unwrap();
    assert_eq!(args, json!({"v": "[\"a\"]"}));
    normalizer.normalize(&mut args).unwrap();
    assert_eq!(args, json!({"v": ["a"]}));
}
