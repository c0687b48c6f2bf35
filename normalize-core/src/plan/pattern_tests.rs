//! One pattern semantics: the plan matches `patternProperties` keys exactly
//! as the validator does (ECMA-262), so normalization never repairs a member
//! under a schema the validator does not apply to it.

use super::*;
use crate::normalizer::Normalizer;
use crate::validate::Validator;
use proptest::prelude::*;
use serde_json::{Value, json};

/// An object whose members matching `pattern` are arrays and whose other
/// members are strings: a string holding `[1]` is JSON-decoded exactly when
/// its key matches.
fn split_schema(pattern: &str) -> Value {
    json!({
        "type": "object",
        "patternProperties": {pattern: {"type": "array"}},
        "additionalProperties": {"type": "string"}
    })
}

/// Normalizes `{key: "[1]"}` under [`split_schema`] and returns the result
/// together with the validator's verdict on it.
fn normalize_and_judge(pattern: &str, key: &str) -> (Value, bool) {
    let schema = split_schema(pattern);
    let normalizer = Normalizer::compile(&schema).unwrap();
    let mut args = json!({ key: "[1]" });
    normalizer.normalize(&mut args).unwrap();
    let valid = Validator::new(&schema).unwrap().validate(&args).is_ok();
    (args, valid)
}

#[test]
fn arabic_indic_digit_is_not_an_ecma_digit() {
    // U+0663 ARABIC-INDIC DIGIT THREE: a Unicode digit, but `\d` is ASCII
    // only in ECMA-262, so the member falls to `additionalProperties`
    // (string) for the validator and must stay a string.
    let (args, valid) = normalize_and_judge(r"^\d+$", "\u{663}");
    assert_eq!(args, json!({"\u{663}": "[1]"}));
    assert!(valid, "normalization must not make a valid call invalid");

    let (args, valid) = normalize_and_judge(r"^\d+$", "3");
    assert_eq!(args, json!({"3": [1]}));
    assert!(valid);
}

#[test]
fn lookaround_patterns_compile_and_match_like_the_validator() {
    let pattern = "^(?!internal_)[a-z_]+$";
    let (args, valid) = normalize_and_judge(pattern, "tags");
    assert_eq!(args, json!({"tags": [1]}));
    assert!(valid);
    let (args, valid) = normalize_and_judge(pattern, "internal_tags");
    assert_eq!(args, json!({"internal_tags": "[1]"}));
    assert!(valid);

    let (args, valid) = normalize_and_judge("(?<=x)y", "xy");
    assert_eq!(args, json!({"xy": [1]}));
    assert!(valid);
    let (args, valid) = normalize_and_judge("(?<=x)y", "ay");
    assert_eq!(args, json!({"ay": "[1]"}));
    assert!(valid);
}

#[test]
fn patterns_the_validator_rejects_are_schema_errors() {
    for pattern in ["(", "[z-a]", "a{2,1}", "(?<name"] {
        let schema = split_schema(pattern);
        assert!(
            Validator::new(&schema).is_err(),
            "the validator accepts `{pattern}`"
        );
        let error = SchemaPlan::compile(&schema).unwrap_err();
        assert!(
            matches!(&error, SchemaError::Pattern { at, pattern: p, .. } if at.is_empty() && p == pattern),
            "{error:?}"
        );
    }
}

/// Patterns where engines commonly disagree: Unicode classes, `\b`, `.`
/// across line terminators, anchors, lookaround.
const PATTERNS: &[&str] = &[
    r"^\d+$",
    r"^\w+$",
    r"\bid\b",
    r"^\s*$",
    r"^.$",
    r"^[a-z_]+$",
    r"^(?!x-)",
    r"é",
    r"^\S+\D$",
    r"^[^\W\d]+$",
];

fn key_strategy() -> impl Strategy<Value = String> {
    let chars = prop::sample::select(vec![
        'a', 'x', 'z', 'i', 'd', '_', '-', ' ', '3', '\u{663}', '\u{966}', 'é', 'e', '\u{301}',
        'K', '\u{212A}', '\u{a0}', '\u{feff}', '\u{2028}', '\n', '\r', '\t', 'ß', '😀', '.',
    ]);
    prop::collection::vec(chars, 0..6).prop_map(|c| c.into_iter().collect())
}

proptest! {
    #[test]
    fn plan_matches_keys_as_the_validator_does(
        key in key_strategy(),
        pattern in prop::sample::select(PATTERNS),
    ) {
        let plan = SchemaPlan::compile(&json!({
            "patternProperties": {pattern: {"type": "array"}}
        })).unwrap();
        let object = json!({ key.clone(): null });
        let member = plan.member(&plan.bind(&plan.root(), &object), &key);
        let plan_matches = plan.declared(&member) == TypeSet::only(JsonType::Array);

        // The validator's own `patternProperties`: a matching key meets `false`.
        let validator = Validator::new(&json!({"patternProperties": {pattern: false}})).unwrap();
        let validator_matches = validator.validate(&object).is_err();
        prop_assert_eq!(plan_matches, validator_matches, "pattern {:?} key {:?}", pattern, key);
    }
}
