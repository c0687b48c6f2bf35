use super::*;
use serde_json::json;

fn refund_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[0-9]+$"},
            "amount_cents": {"type": "integer", "minimum": 0},
            "reason": {"enum": ["damaged", "late"]}
        },
        "required": ["order_id", "amount_cents"],
        "additionalProperties": false
    })
}

#[test]
fn one_violation_per_pointer_with_readable_expectations() {
    let validator = Validator::new(&refund_schema()).unwrap();
    let violations = validator
        .validate(&json!({"order_id": "x1", "amount_cents": "20", "reason": "lost", "note": "hi"}))
        .unwrap_err();
    let by_pointer = |p: &str| violations.iter().find(|v| v.pointer == p).unwrap().clone();
    assert_eq!(violations.len(), 4, "{violations}");

    let amount = by_pointer("/amount_cents");
    assert_eq!(amount.keyword, "type");
    assert_eq!(amount.expected, "integer");
    assert_eq!(amount.found, "string \"20\"");

    let note = by_pointer("/note");
    assert_eq!(note.keyword, "additionalProperties");
    assert_eq!(
        note.expected,
        "one of the declared fields: order_id, amount_cents, reason"
    );

    let order = by_pointer("/order_id");
    assert_eq!(order.keyword, "pattern");
    assert!(
        order.expected.contains("^ord_[0-9]+$"),
        "{}",
        order.expected
    );

    let reason = by_pointer("/reason");
    assert_eq!(reason.keyword, "enum");
    assert!(reason.expected.contains("\"damaged\"") && reason.expected.contains("\"late\""));
}

#[test]
fn missing_fields_point_at_the_field() {
    let validator = Validator::new(&refund_schema()).unwrap();
    let violations = validator.validate(&json!({})).unwrap_err();
    let pointers: Vec<&str> = violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/order_id", "/amount_cents"]);
    assert!(violations.iter().all(|v| v.keyword == "required"));
}

#[test]
fn unknown_fields_of_referenced_objects_name_their_fields() {
    let schema = json!({
        "type": "object",
        "properties": {"filter": {"$ref": "#/$defs/Filter"}},
        "$defs": {"Filter": {
            "type": "object",
            "properties": {"tag": {"type": "string"}},
            "additionalProperties": false
        }}
    });
    let validator = Validator::new(&schema).unwrap();
    let violations = validator
        .validate(&json!({"filter": {"tag": "a", "x~y": 1}}))
        .unwrap_err();
    assert_eq!(violations.0[0].pointer, "/filter/x~0y");
    assert_eq!(violations.0[0].expected, "one of the declared fields: tag");
}

#[test]
fn valid_arguments_pass_and_nothing_is_coerced() {
    let validator = Validator::new(&refund_schema()).unwrap();
    assert!(
        validator
            .validate(&json!({"order_id": "ord_1", "amount_cents": 20}))
            .is_ok()
    );
    assert!(
        validator
            .validate(&json!({"order_id": "ord_1", "amount_cents": 20.5}))
            .is_err()
    );
}

#[test]
fn display_lists_every_violation() {
    let validator = Validator::new(&refund_schema()).unwrap();
    let text = validator
        .validate(&json!({"amount_cents": true}))
        .unwrap_err()
        .to_string();
    assert!(text.starts_with("2 invalid arguments"), "{text}");
    assert!(
        text.contains("/order_id") && text.contains("/amount_cents"),
        "{text}"
    );
}

#[test]
fn a_schema_that_is_not_a_schema_is_an_error() {
    assert!(Validator::new(&json!({"type": 12})).is_err());
}

#[test]
fn unions_report_the_branch_with_the_value_shape() {
    let schema = json!({
        "oneOf": [
            {"type": "object", "properties": {"type": {"const": "a"}, "tags": {"type": "array"}},
             "required": ["type"]},
            {"type": "object", "properties": {"type": {"const": "b"}, "n": {"type": "integer"}},
             "required": ["type", "n"]}
        ]
    });
    let validator = Validator::new(&schema).unwrap();
    let violations = validator
        .validate(&json!({"type": "a", "tags": 5}))
        .unwrap_err();
    assert_eq!(violations.len(), 1, "{violations}");
    assert_eq!(violations.0[0].pointer, "/tags");
    assert_eq!(violations.0[0].expected, "array");

    // A tag no variant has is reported at the tag, with every accepted value.
    let violations = validator.validate(&json!({"type": "c"})).unwrap_err();
    assert_eq!(violations.len(), 1, "{violations}");
    assert_eq!(violations.0[0].pointer, "/type");
    assert_eq!(violations.0[0].expected, "one of \"a\", \"b\"");
    assert_eq!(violations.0[0].found, "string \"c\"");

    let optional = json!({"anyOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"type": "null"}]});
    let validator = Validator::new(&optional).unwrap();
    let violations = validator.validate(&json!({"x": 1})).unwrap_err();
    assert_eq!(violations.0[0].pointer, "/x");
    assert_eq!(
        validator.validate(&json!(3)).unwrap_err().0[0].expected,
        "one of: object with field \"x\" | null"
    );
}

fn pointers(schema: &Value, instance: &Value) -> Vec<String> {
    let violations = Validator::new(schema)
        .unwrap()
        .validate(instance)
        .unwrap_err();
    violations.iter().map(|v| v.pointer.clone()).collect()
}

#[test]
fn an_object_with_no_properties_names_every_unknown_member() {
    let schema = json!({"type": "object", "additionalProperties": false});
    assert_eq!(pointers(&schema, &json!({"a": 1, "b": 2})), ["/a", "/b"]);
}

#[test]
fn an_externally_tagged_variant_is_reported_inside_its_key() {
    let variant = |name: &str, field: &str| {
        json!({"type": "object", "additionalProperties": false, "required": [name],
               "properties": {name: {"type": "object", "additionalProperties": false,
                   "properties": {field: {"type": "string"}}, "required": [field]}}})
    };
    let schema = json!({"oneOf": [variant("SendEmail", "to"), variant("Call", "number")]});
    assert_eq!(
        pointers(&schema, &json!({"SendEmail": {"to": 1}})),
        ["/SendEmail/to"]
    );
}

#[test]
fn a_missing_aliased_field_is_named_with_its_aliases() {
    let schema = json!({
        "type": "object",
        "properties": {"query": {"type": "string"}, "q": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["query"]}, {"required": ["q"]}]}],
        "additionalProperties": false
    });
    let violations = Validator::new(&schema)
        .unwrap()
        .validate(&json!({}))
        .unwrap_err();
    assert_eq!(violations.len(), 1);
    assert_eq!(violations.0[0].pointer, "/query");
    assert_eq!(
        violations.0[0].message,
        "missing required field `query` (or its alias `q`)"
    );
}

#[test]
fn members_of_a_failed_variant_are_not_also_called_unknown() {
    // A struct flattening an internally tagged enum, closed where used.
    let schema = json!({
        "type": "object",
        "properties": {"to": {"type": "string"}},
        "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "Email"}, "addr": {"type": "string"}}},
            {"type": "object", "properties": {"kind": {"const": "Sms"}, "phone": {"type": "string"}}}
        ],
        "unevaluatedProperties": false
    });
    let wrong_type = json!({"to": "x", "kind": "Email", "addr": 5});
    assert_eq!(pointers(&schema, &wrong_type), ["/addr"]);
    // A member of another variant is unknown for this one.
    let misplaced = json!({"to": "x", "kind": "Sms", "phone": "1", "addr": "a"});
    assert_eq!(pointers(&schema, &misplaced), ["/addr"]);
}

#[test]
fn the_written_as_integer_keyword_refuses_a_number_with_a_fraction() {
    let validator = Validator::new(&json!({
        "type": "integer",
        "x-toolargs-written-as-integer": true
    }))
    .unwrap();
    assert!(validator.validate(&json!(2)).is_ok());
    assert!(validator.validate(&json!(-2)).is_ok());
    assert!(
        validator
            .validate(&serde_json::from_str("2.0").unwrap())
            .is_err()
    );
    assert!(
        validator
            .validate(&serde_json::from_str("2e0").unwrap())
            .is_err()
    );
    // Without it, JSON Schema's integer.
    let plain = Validator::new(&json!({"type": "integer"})).unwrap();
    assert!(
        plain
            .validate(&serde_json::from_str("2.0").unwrap())
            .is_ok()
    );
}

#[test]
fn a_union_of_no_branch_says_nothing_can_be_read() {
    // schemars' schema for an enum whose every variant is skipped.
    let schema = json!({
        "type": "object",
        "properties": {"e": {"oneOf": [{"type": "string", "enum": []}]}},
        "additionalProperties": false
    });
    let violations = Validator::new(&schema)
        .unwrap()
        .validate(&json!({"e": "A"}))
        .unwrap_err();
    assert_eq!(violations.0[0].pointer, "/e");
    assert_eq!(
        violations.0[0].message,
        "expected nothing (no variant can be read here), found string \"A\""
    );
}

#[test]
fn declared_members_of_parts_that_fail_say_why_and_past_a_bound_say_so() {
    // An array of structs each flattening an `Option` of an enum: `fields`
    // more members in each variant make the parts larger.
    let schema = |fields: usize| {
        let mut asc = serde_json::Map::new();
        asc.insert("Asc".to_owned(), json!({"type": "integer"}));
        for i in 0..fields {
            asc.insert(
                format!("pad{i}"),
                json!({"type": "string", "description": "x".repeat(40)}),
            );
        }
        json!({
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"q": {"type": "string"}},
                "anyOf": [
                    {"oneOf": [
                        {"type": "object", "properties": asc, "required": ["Asc"]},
                        {"type": "object", "properties": {"Desc": {"type": "integer"}}, "required": ["Desc"]}
                    ]},
                    {}
                ],
                "unevaluatedProperties": false
            }
        })
    };
    let items: Vec<Value> = (0..70).map(|_| json!({"q": "x", "Asc": "1"})).collect();
    let explained = "expected integer, found string \"1\"";
    let not_read =
        "field `Asc` is not read as sent: the part of this object that declares it does not hold";
    // Small parts: every item is explained.
    let violations = Validator::new(&schema(0))
        .unwrap()
        .validate(&Value::Array(items.clone()))
        .unwrap_err();
    assert_eq!(violations.len(), 70);
    assert_eq!(violations.0[0].pointer, "/0/Asc");
    assert!(
        violations.iter().all(|v| v.message == explained),
        "{violations}"
    );
    // Large parts: the first items are explained, then the budget is spent
    // and the rest say the member is not read as sent (never unknown).
    let violations = Validator::new(&schema(200))
        .unwrap()
        .validate(&Value::Array(items))
        .unwrap_err();
    assert_eq!(violations.len(), 70);
    assert_eq!(violations.0[0].message, explained);
    assert_eq!(violations.0[69].pointer, "/69/Asc");
    assert_eq!(violations.0[69].message, not_read);
}

/// `x-toolargs-whole` indexes a table only the derive's validator holds:
/// built from the JSON alone, the keyword is an annotation; with a table, an
/// index it does not hold is a build error, not a check skipped.
#[test]
fn the_whole_keyword_needs_its_table() {
    use flattened_wholes::{Members, WholeRead};
    fn refuses(
        object: &serde_json::Map<String, Value>,
        _: &[String],
        _: crate::__private::Reading,
    ) -> Result<(), (String, String)> {
        match object.get("b") {
            Some(_) => Ok(()),
            None => Err((String::new(), "missing field `b`".to_owned())),
        }
    }
    let schema = json!({
        "type": "object",
        "properties": {
            "q": {"type": "string"},
            "a": {"type": ["integer", "null"]},
            "b": {"type": "integer"}
        },
        flattened_wholes::WHOLE: [0]
    });
    Validator::new(&schema)
        .unwrap()
        .validate(&json!({"q": "x", "a": 1}))
        .unwrap();
    let read = WholeRead::new(
        flattened_wholes::Reader {
            read: refuses,
            reading: crate::__private::Reading::Struct(&["a", "b"]),
        },
        vec!["q".to_owned()],
        Members::Named(vec!["a".to_owned(), "b".to_owned()]),
        &[],
        Vec::new(),
    );
    let validator = Validator::with_wholes(&schema, vec![read.clone()]).unwrap();
    let violations = validator.validate(&json!({"q": "x", "a": 1})).unwrap_err();
    assert_eq!(violations.len(), 1, "{violations}");
    assert_eq!(violations.0[0].pointer, "/a");
    assert_eq!(violations.0[0].keyword, flattened_wholes::WHOLE);
    assert!(
        violations.0[0].message.starts_with("missing field `b`"),
        "{violations}"
    );
    // Nothing of it sent, or only `null`s: nothing is dropped.
    validator.validate(&json!({"q": "x"})).unwrap();
    validator.validate(&json!({"q": "x", "a": null})).unwrap();
    validator
        .validate(&json!({"q": "x", "a": 1, "b": 2}))
        .unwrap();
    let mut two = schema.clone();
    two[flattened_wholes::WHOLE] = json!([1]);
    assert!(Validator::with_wholes(&two, vec![read]).is_err());
}
