use super::order_unions;
use crate::closing::close_objects;
use crate::validate::Validator;
use serde_json::{Value, json};

/// The schema closed and ordered, as the derive builds it.
fn ordered(raw: Value) -> Value {
    let mut schema = raw.clone();
    close_objects(&mut schema);
    order_unions(&raw, &mut schema);
    schema
}

fn closed(raw: Value) -> Value {
    let mut schema = raw;
    close_objects(&mut schema);
    schema
}

/// `#[serde(untagged)] enum Span { Start { from }, Both { from, to } }`.
fn span() -> Value {
    json!({
        "type": "object",
        "properties": {"span": {"$ref": "#/$defs/Span"}},
        "required": ["span"],
        "$defs": {
            "Span": {"anyOf": [
                {"type": "object", "properties": {"from": {"type": "integer"}}, "required": ["from"]},
                {"type": "object", "properties": {"from": {"type": "integer"}, "to": {"type": "integer"}}, "required": ["from", "to"]}
            ]}
        }
    })
}

#[test]
fn a_later_branch_an_earlier_one_reads_loosely_is_refused() {
    let schema = ordered(span());
    let validator = Validator::new(&schema).unwrap();
    assert!(validator.validate(&json!({"span": {"from": 1}})).is_ok());
    // serde reads `Start { from: 1 }` and drops `to`: refused, at `to`.
    let violations = validator
        .validate(&json!({"span": {"from": 1, "to": 2}}))
        .unwrap_err();
    assert_eq!(violations.0.len(), 1, "{violations:?}");
    assert_eq!(violations.0[0].pointer, "/span/to");
    assert_eq!(violations.0[0].keyword, "additionalProperties");
    // Closed alone, the union takes it as `Both`.
    let validator = Validator::new(&closed(span())).unwrap();
    assert!(
        validator
            .validate(&json!({"span": {"from": 1, "to": 2}}))
            .is_ok()
    );
}

#[test]
fn the_reading_is_the_branch_before_closing() {
    let schema = ordered(span());
    let reading = &schema["$defs"]["Span"]["anyOf"][1]["not"]["anyOf"][0];
    let mut expected = span()["$defs"]["Span"]["anyOf"][0].clone();
    // serde's integers refuse `2.0`.
    expected["properties"]["from"]["x-toolargs-written-as-integer"] = json!(true);
    assert_eq!(reading, &expected);
    assert_eq!(schema["$defs"]["Span"]["anyOf"][0].get("not"), None);
}

#[test]
fn branches_that_share_no_value_are_left_alone() {
    for raw in [
        // `Option<Struct>`.
        json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}],
               "$defs": {"S": {"type": "object", "properties": {"a": {"type": "string"}}}}}),
        // A struct, then a list.
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                         {"type": "array", "items": {"type": "string"}}]}),
        // The earlier variant requires a member the later one closes out.
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                         {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}]}),
        // Scalars: a reading takes no more than the branch itself.
        json!({"anyOf": [{"type": "integer"}, {"type": "number"}, {"type": "string"}]}),
        // A required field and its alias.
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
               "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
    ] {
        assert_eq!(ordered(raw.clone()), closed(raw.clone()), "{raw}");
    }
}

#[test]
fn a_type_that_denies_unknown_fields_reads_as_it_is_closed() {
    // Strings: an integer before a struct that ignores members is marked to
    // refuse `2.0` (`integers_before_a_struct_that_ignores_members_refuse_2_0`).
    let raw = json!({"anyOf": [
        {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"],
         "additionalProperties": false},
        {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}}}
    ]});
    assert_eq!(ordered(raw.clone()), closed(raw));
}

#[test]
fn the_definitions_a_reading_reaches_are_copied_unclosed() {
    // A recursive definition with a name a fragment must escape, reached
    // through another definition.
    let raw = json!({
        "anyOf": [{"$ref": "#/$defs/Outer"}, {"$ref": "#/$defs/Wide"}],
        "$defs": {
            "Outer": {"type": "object", "properties": {"node": {"$ref": "#/$defs/Tree%20~1x"}},
                      "required": ["node"]},
            "Tree /x": {"type": "object", "properties": {
                "kids": {"type": "array", "items": {"$ref": "#/$defs/Tree%20~1x"}}}},
            "Wide": {"type": "object", "properties": {
                "node": {"$ref": "#/$defs/Tree%20~1x"}, "extra": {"type": "string"}},
                "required": ["node"]}
        }
    });
    let schema = ordered(raw);
    let not = &schema["$defs"]["Wide"];
    assert_eq!(not.get("not"), None, "the definition is not the branch");
    let branch = &schema["anyOf"][1];
    let defs = branch["not"]["$defs"].as_object().unwrap();
    assert_eq!(defs.len(), 2, "{defs:?}");
    let validator = Validator::new(&schema).unwrap();
    // Outer reads it, ignoring `extra` and the unknown member below.
    let violations = validator
        .validate(&json!({"node": {"kids": [{"kids": [], "deep": 1}]}, "extra": "e"}))
        .unwrap_err();
    let pointers: Vec<&str> = violations.0.iter().map(|v| v.pointer.as_str()).collect();
    assert!(pointers.contains(&"/extra"), "{violations:?}");
    assert!(
        validator
            .validate(&json!({"node": {"kids": [{"kids": []}]}}))
            .is_ok()
    );
}

#[test]
fn a_branch_with_its_own_not_keeps_it() {
    let raw = json!({"anyOf": [
        {"type": "object", "properties": {"a": {"type": "integer"}}},
        {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
         "not": {"required": ["b"]}}
    ]});
    let schema = ordered(raw);
    let any_of = schema["anyOf"][1]["not"]["anyOf"].as_array().unwrap();
    assert_eq!(any_of[0], json!({"required": ["b"]}));
    assert_eq!(any_of.len(), 2);
}

/// `#[serde(untagged)] enum Pick { Range(Range), List(Vec<u32>) }`, where
/// `Range` has `from`, `step` with a default, the required `by`, and `to`
/// with a default (and the alias `upto`, which is no field).
fn pick() -> Value {
    json!({
        "anyOf": [{"$ref": "#/$defs/Range"}, {"type": "array", "items": {"type": "integer"}}],
        "$defs": {"Range": {"type": "object", "properties": {
            "from": {"type": "integer"},
            "step": {"type": ["integer", "null"], "default": null},
            "by": {"type": "integer"},
            "to": {"type": "integer", "default": 0},
            "upto": {"type": "integer", "x-toolargs-alias-of": "to"}
        }, "required": ["from", "by"]}}
    })
}

#[test]
fn a_struct_definition_is_read_from_an_array_of_its_fields() {
    let schema = ordered(pick());
    let validator = Validator::new(&schema).unwrap();
    // serde reads `[from, step, by]` and `[from, step, by, to]` as a `Range`.
    for read in [json!([3, 5, 1]), json!([3, 5, 1, 7])] {
        assert!(validator.validate(&read).is_err(), "{read}");
    }
    // Too short (`by` is required) or too long: a list.
    for list in [json!([]), json!([3]), json!([3, 5]), json!([3, 5, 1, 7, 9])] {
        assert!(validator.validate(&list).is_ok(), "{list}");
    }
    let array = &schema["anyOf"][1]["not"]["$defs"]["0"]["anyOf"][1];
    assert_eq!(array["minItems"], 3);
    assert_eq!(array["prefixItems"].as_array().unwrap().len(), 4);
}

#[test]
fn a_field_that_is_not_required_may_be_missing_from_the_array() {
    // An `Option` without a default (serde needs it in an array) and a
    // field whose default schemars did not write look the same: the array
    // may end before either.
    let mut raw = pick();
    raw["$defs"]["Range"]["properties"]["step"] = json!({"type": ["integer", "null"]});
    raw["$defs"]["Range"]["properties"]["by"]["default"] = json!(1);
    raw["$defs"]["Range"]["required"] = json!(["from"]);
    let schema = ordered(raw);
    let array = &schema["anyOf"][1]["not"]["$defs"]["0"]["anyOf"][1];
    assert_eq!(array["minItems"], 1);
}

#[test]
fn a_struct_whose_first_field_no_item_shares_is_not_read_from_the_list() {
    // `enum { One(Item), Many(Vec<Item>) }`: `Item`'s first field is a string.
    let raw = json!({
        "anyOf": [{"$ref": "#/$defs/Item"}, {"type": "array", "items": {"$ref": "#/$defs/Item"}}],
        "$defs": {"Item": {"type": "object", "properties": {"name": {"type": "string"}},
                           "required": ["name"], "additionalProperties": false}}
    });
    assert_eq!(ordered(raw.clone()), closed(raw));
}

#[test]
fn an_inline_struct_variant_is_read_from_objects_only() {
    // serde reads an untagged enum's struct variant from a map only.
    let raw = json!({"anyOf": [
        {"type": "object", "properties": {"from": {"type": "integer"}}, "required": ["from"],
         "additionalProperties": false},
        {"type": "array", "items": {"type": "integer"}}
    ]});
    assert_eq!(ordered(raw.clone()), closed(raw));
}

#[test]
fn a_union_copies_each_definition_once() {
    // Three variants that each read the next: the second and third
    // branches both need `Hub`, copied once into the last `not`.
    let raw = json!({
        "anyOf": [
            {"type": "object", "properties": {"hub": {"$ref": "#/$defs/Hub"}}, "required": ["hub"]},
            {"type": "object", "properties": {"hub": {"$ref": "#/$defs/Hub"}, "a": {"type": "integer"}},
             "required": ["hub"]},
            {"type": "object", "properties": {"hub": {"$ref": "#/$defs/Hub"}, "b": {"type": "integer"}},
             "required": ["hub"]}
        ],
        "$defs": {"Hub": {"type": "object", "properties": {"id": {"type": "integer"}}}}
    });
    let schema = ordered(raw);
    assert!(schema["anyOf"][1]["not"].get("$defs").is_none());
    assert_eq!(
        schema["anyOf"][2]["not"]["$defs"]
            .as_object()
            .unwrap()
            .len(),
        1
    );
    let validator = Validator::new(&schema).unwrap();
    // Read as the first variant, which drops `a`.
    assert!(
        validator
            .validate(&json!({"hub": {"id": 1}, "a": 1}))
            .is_err()
    );
    assert!(validator.validate(&json!({"hub": {"id": 1}})).is_ok());
}

#[test]
fn a_reading_matters_only_for_the_types_it_reads_more_of() {
    // A unit-only enum reads `{"Red": null}` too, which a string branch
    // cannot take: the string branch is left alone.
    let raw = json!({
        "anyOf": [{"$ref": "#/$defs/Color"}, {"type": "string"}],
        "$defs": {"Color": {"type": "string", "enum": ["Red", "Green"]}}
    });
    assert_eq!(ordered(raw.clone()), closed(raw));
}

#[test]
fn integers_before_a_struct_that_ignores_members_refuse_2_0() {
    let raw = json!({"anyOf": [
        {"type": "object", "properties": {"i": {"type": "integer"}}, "required": ["i"]},
        {"type": "object", "properties": {"k": {"type": "number"}}}
    ]});
    let ordered = ordered(raw);
    assert_eq!(
        ordered["anyOf"][0]["properties"]["i"][crate::keywords::WRITTEN_AS_INTEGER],
        true
    );
    // The last branch that ignores members is no earlier branch of one.
    assert!(
        ordered["anyOf"][1]["properties"]["k"]
            .get(crate::keywords::WRITTEN_AS_INTEGER)
            .is_none()
    );
}
