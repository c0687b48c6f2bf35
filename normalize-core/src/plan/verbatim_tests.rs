//! Verbatim locations (`"x-toolargs-verbatim": true`): never entity-decoded,
//! at the location and below it; JSON-string decoding unchanged.

use super::*;
use crate::normalizer::Normalizer;
use crate::report::RepairKind;
use serde_json::{Value, json};

fn normalize(schema: Value, mut args: Value) -> (Value, Vec<(String, RepairKind)>) {
    let normalizer = Normalizer::compile(&schema).unwrap();
    let report = normalizer.normalize(&mut args).unwrap();
    let repairs = report
        .repairs
        .into_iter()
        .map(|r| (r.pointer.to_string(), r.kind))
        .collect();
    (args, repairs)
}

fn write_file() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "content": {"type": "string", VERBATIM_KEYWORD: true},
            "lines": {
                "type": "array",
                "items": {"type": "string"},
                VERBATIM_KEYWORD: true
            },
            "meta": {
                "type": "object",
                "properties": {"title": {"type": "string"}, "tags": {"type": "array"}},
                VERBATIM_KEYWORD: true
            }
        },
        "additionalProperties": false
    })
}

#[test]
fn verbatim_strings_keep_their_references() {
    let (args, repairs) = normalize(
        write_file(),
        json!({
            "path": "Tom &amp; Jerry/&lt;p&gt;.html",
            "content": "&lt;p&gt;Tom &amp; Jerry&lt;/p&gt;"
        }),
    );
    assert_eq!(
        args,
        json!({
            "path": "Tom & Jerry/<p>.html",
            "content": "&lt;p&gt;Tom &amp; Jerry&lt;/p&gt;"
        })
    );
    assert_eq!(repairs.len(), 1);
    assert_eq!(repairs[0].0, "/path");
}

#[test]
fn a_verbatim_array_is_still_json_decoded_and_its_items_stay_encoded() {
    let (args, repairs) = normalize(
        write_file(),
        json!({"lines": "[\"&lt;p&gt;\", \"Tom &amp;amp; Jerry\"]", "path": "a&amp;b"}),
    );
    assert_eq!(
        args,
        json!({"lines": ["&lt;p&gt;", "Tom &amp;amp; Jerry"], "path": "a&b"})
    );
    let pointers: Vec<&str> = repairs.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(pointers, ["/lines", "/path"]);
    assert!(matches!(repairs[0].1, RepairKind::JsonDecoded { .. }));
}

#[test]
fn everything_below_a_verbatim_location_is_verbatim() {
    // `meta`'s members have schemas of their own without the mark; they are
    // below a marked location, so their strings (and the items of a member
    // decoded from JSON) keep their references.
    let (args, _) = normalize(
        write_file(),
        json!({"meta": {"title": "&lt;b&gt;", "tags": "[\"a&amp;b\", {\"k\": \"&quot;\"}]"}}),
    );
    assert_eq!(
        args,
        json!({"meta": {"title": "&lt;b&gt;", "tags": ["a&amp;b", {"k": "&quot;"}]}})
    );
}

#[test]
fn the_mark_is_read_through_refs_all_of_and_applying_branches() {
    let schema = json!({
        "type": "object",
        "properties": {
            "by_ref": {"$ref": "#/$defs/Html"},
            "by_all_of": {"allOf": [{"type": "string"}, {VERBATIM_KEYWORD: true}]},
            "optional": {"anyOf": [{"$ref": "#/$defs/Html"}, {"type": "null"}]},
            // Only the array branch is marked: a string here is decoded, an
            // array's items are not.
            "mixed": {"anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}, VERBATIM_KEYWORD: true}
            ]},
            "unmarked": {"$ref": "#/$defs/Plain"},
            "off": {"type": "string", VERBATIM_KEYWORD: false}
        },
        "$defs": {
            "Html": {"type": "string", VERBATIM_KEYWORD: true},
            "Plain": {"type": "string"}
        }
    });
    let (args, _) = normalize(
        schema.clone(),
        json!({
            "by_ref": "&amp;",
            "by_all_of": "&amp;",
            "optional": "&amp;",
            "mixed": "&amp;",
            "unmarked": "&amp;",
            "off": "&amp;"
        }),
    );
    assert_eq!(
        args,
        json!({
            "by_ref": "&amp;",
            "by_all_of": "&amp;",
            "optional": "&amp;",
            "mixed": "&",
            "unmarked": "&",
            "off": "&"
        })
    );
    let (args, _) = normalize(schema, json!({"mixed": ["&amp;"]}));
    assert_eq!(args, json!({"mixed": ["&amp;"]}));
}

#[test]
fn a_verbatim_root_leaves_every_string_alone() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "array"}},
        VERBATIM_KEYWORD: true
    });
    // Arguments sent as one JSON string are still decoded.
    let (args, repairs) = normalize(
        schema,
        json!("{\"a\": \"&lt;\", \"b\": \"[\\\"&gt;\\\"]\"}"),
    );
    assert_eq!(args, json!({"a": "&lt;", "b": ["&gt;"]}));
    assert_eq!(repairs.len(), 2);
}

#[test]
fn verbatim_ends_with_its_location() {
    // A sibling after a verbatim member, and a member of a later element,
    // are decoded again.
    let schema = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "raw": {"type": "string", VERBATIM_KEYWORD: true},
                "text": {"type": "string"}
            }
        }
    });
    let (args, _) = normalize(
        schema,
        json!([{"raw": "&lt;", "text": "&lt;"}, {"text": "&gt;", "raw": "&gt;"}]),
    );
    assert_eq!(
        args,
        json!([{"raw": "&lt;", "text": "<"}, {"text": ">", "raw": "&gt;"}])
    );
}

#[test]
fn a_mark_that_is_not_a_boolean_is_a_schema_error() {
    let error = SchemaPlan::compile(&json!({
        "properties": {"a": {"type": "string", VERBATIM_KEYWORD: "yes"}}
    }))
    .unwrap_err();
    assert!(
        matches!(
            &error,
            SchemaError::KeywordType { at, keyword, .. }
                if at == "/properties/a" && *keyword == VERBATIM_KEYWORD
        ),
        "{error:?}"
    );
}

#[test]
fn plans_without_the_mark_answer_at_once() {
    let plan = SchemaPlan::compile(&json!({
        "type": "object",
        "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}
    }))
    .unwrap();
    assert!(!plan.has_verbatim);
    let value = json!({"a": "x"});
    let bound = plan.bind(&plan.root(), &value);
    assert!(!plan.verbatim(&plan.member(&bound, "a"), &json!("x")));
}

#[test]
fn a_declared_literal_holding_a_reference_is_kept_exactly_as_sent() {
    let schema = json!({
        "type": "object",
        "properties": {
            "unit": {"type": "string", "enum": ["&amp;", "x&lt;y", "A&B", "plain"]},
            "tag": {"const": "a&amp;b"},
            "text": {"type": "string"}
        }
    });
    let normalizer = crate::Normalizer::compile(&schema).unwrap();
    let mut args = json!({"unit": "&amp;", "tag": "a&amp;b", "text": "&amp;"});
    normalizer.normalize(&mut args).unwrap();
    assert_eq!(
        args,
        json!({"unit": "&amp;", "tag": "a&amp;b", "text": "&"})
    );
    // Anything else there is decoded: an escaped literal, another string.
    let mut args = json!({"unit": "A&amp;B", "tag": "a&amp;amp;b"});
    normalizer.normalize(&mut args).unwrap();
    assert_eq!(args, json!({"unit": "A&B", "tag": "a&b"}));
    // Without such a literal nothing is verbatim.
    let plain = crate::plan::SchemaPlan::compile(&json!({"enum": ["A&B"]})).unwrap();
    assert!(plain.has_verbatim, "a literal holding `&` is kept as sent");
    let none = crate::plan::SchemaPlan::compile(&json!({"enum": ["AB"]})).unwrap();
    assert!(!none.has_verbatim);
}

/// A union beside a branch that constrains nothing (`{}`, as schemars
/// writes an enum flattened as an `Option`) still carries its branches'
/// marks, at the member and below it; the members the marked branch does
/// not name are decoded, and nothing is JSON-decoded where `{}` applies.
#[test]
fn a_branch_that_takes_anything_keeps_the_other_branches_marks() {
    let schema = json!({
        "type": "object",
        "anyOf": [
            {
                "oneOf": [{
                    "type": "object",
                    "properties": {
                        "t": {"const": "Go"},
                        "raw": {"type": "string", VERBATIM_KEYWORD: true},
                        "meta": {
                            "type": "object",
                            "properties": {"note": {"type": "string", VERBATIM_KEYWORD: true}}
                        },
                        "tags": {"type": "array", "items": {"type": "string"}}
                    }
                }]
            },
            {}
        ]
    });
    let (args, repairs) = normalize(
        schema,
        json!({
            "t": "Go",
            "raw": "a &amp; b",
            "meta": {"note": "c &amp; d", "other": "e &amp; f"},
            "tags": "[\"x\"]",
            "free": "g &amp; h"
        }),
    );
    assert_eq!(
        args,
        json!({
            "t": "Go",
            "raw": "a &amp; b",
            "meta": {"note": "c &amp; d", "other": "e & f"},
            "tags": "[\"x\"]",
            "free": "g & h"
        })
    );
    let pointers: Vec<&str> = repairs.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(pointers, ["/meta/other", "/free"]);
}
