use super::*;
use serde_json::{Value, json};

fn member_types(schema: Value, object: Value, key: &str) -> TypeSet {
    let plan = SchemaPlan::compile(&schema).unwrap();
    let bound = plan.bind(&plan.root(), &object);
    plan.declared(&plan.member(&bound, key))
}

fn set(types: &[JsonType]) -> TypeSet {
    types.iter().copied().collect()
}

#[test]
fn type_lists_and_integer() {
    let t = member_types(
        json!({"properties": {"a": {"type": ["integer", "null"]}}}),
        json!({}),
        "a",
    );
    assert_eq!(t, set(&[JsonType::Number, JsonType::Null]));
}

#[test]
fn refs_allof_intersect_and_unions_unite() {
    let schema = json!({
        "$defs": {"A": {"type": ["array", "string"]}},
        "properties": {
            "r": {"$ref": "#/$defs/A", "type": ["array", "null"]},
            "u": {"anyOf": [{"type": "array"}, {"type": "null"}]},
            "n": {"anyOf": [{"type": "array"}, {}]},
            "e": {"enum": [1, "x"]},
            "c": {"const": null},
            "f": false,
            "t": true
        }
    });
    let t = |k| member_types(schema.clone(), json!({}), k);
    assert_eq!(t("r"), set(&[JsonType::Array]));
    assert_eq!(t("u"), set(&[JsonType::Array, JsonType::Null]));
    assert_eq!(t("n"), TypeSet::ALL);
    assert_eq!(t("e"), set(&[JsonType::Number, JsonType::String]));
    assert_eq!(t("c"), set(&[JsonType::Null]));
    assert_eq!(t("f"), TypeSet::EMPTY);
    assert_eq!(t("t"), TypeSet::ALL);
    assert_eq!(t("missing"), TypeSet::ALL);
}

#[test]
fn cycles_reach_a_fixed_point() {
    let schema = json!({
        "type": "object",
        "properties": {"child": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}
    });
    let plan = SchemaPlan::compile(&schema).unwrap();
    let value = json!({"child": {"child": null}});
    let bound = plan.bind(&plan.root(), &value);
    let child = plan.member(&bound, "child");
    assert_eq!(
        plan.declared(&child),
        set(&[JsonType::Object, JsonType::Null])
    );
    let inner = plan.bind(&child, &value["child"]);
    assert_eq!(
        plan.declared(&plan.member(&inner, "child")),
        set(&[JsonType::Object, JsonType::Null])
    );
    let pure = SchemaPlan::compile(&json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}})).unwrap();
    assert_eq!(pure.declared(&pure.root()), TypeSet::ALL);
    let root_self =
        SchemaPlan::compile(&json!({"$ref": "#", "properties": {"a": {"$ref": "#"}}})).unwrap();
    let bound = root_self.bind(&root_self.root(), &json!({"a": {}}));
    assert_eq!(
        root_self.declared(&root_self.member(&bound, "a")),
        TypeSet::ALL
    );
}

#[test]
fn tagged_union_branch_rule() {
    let schema = json!({
        "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "v": {"type": "array"}}},
            {"type": "object", "properties": {"kind": {"type": "string", "enum": ["b"]}, "v": {"type": "string"}}}
        ]
    });
    assert_eq!(
        member_types(schema.clone(), json!({"kind": "a"}), "v"),
        set(&[JsonType::Array])
    );
    assert_eq!(
        member_types(schema.clone(), json!({"kind": "b"}), "v"),
        set(&[JsonType::String])
    );
    assert_eq!(
        member_types(schema.clone(), json!({}), "v"),
        set(&[JsonType::Array, JsonType::String])
    );
    assert_eq!(
        member_types(schema, json!({"kind": "z"}), "v"),
        TypeSet::EMPTY
    );
}

#[test]
fn members_of_objects_and_arrays() {
    let schema = json!({
        "properties": {"p": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "array"}},
        "additionalProperties": {"type": "object"},
        "prefixItems": [{"type": "null"}],
        "items": {"type": "boolean"}
    });
    assert_eq!(
        member_types(schema.clone(), json!({}), "p"),
        set(&[JsonType::String])
    );
    assert_eq!(
        member_types(schema.clone(), json!({}), "x-1"),
        set(&[JsonType::Array])
    );
    assert_eq!(
        member_types(schema.clone(), json!({}), "other"),
        set(&[JsonType::Object])
    );
    let plan = SchemaPlan::compile(&schema).unwrap();
    let bound = plan.bind(&plan.root(), &json!([]));
    assert_eq!(plan.declared(&plan.item(&bound, 0)), set(&[JsonType::Null]));
    assert_eq!(
        plan.declared(&plan.item(&bound, 1)),
        set(&[JsonType::Boolean])
    );

    let draft7 = SchemaPlan::compile(
        &json!({"items": [{"type": "null"}], "additionalItems": {"type": "array"}}),
    )
    .unwrap();
    let bound = draft7.bind(&draft7.root(), &json!([]));
    assert_eq!(
        draft7.declared(&draft7.item(&bound, 0)),
        set(&[JsonType::Null])
    );
    assert_eq!(
        draft7.declared(&draft7.item(&bound, 5)),
        set(&[JsonType::Array])
    );

    let closed =
        SchemaPlan::compile(&json!({"properties": {}, "additionalProperties": false})).unwrap();
    let bound = closed.bind(&closed.root(), &json!({}));
    assert_eq!(closed.member(&bound, "x"), Loc::Never);
}

#[test]
fn draft07_definitions_resolve() {
    let t = member_types(
        json!({"definitions": {"A": {"type": "array"}}, "properties": {"a": {"$ref": "#/definitions/A"}}}),
        json!({}),
        "a",
    );
    assert_eq!(t, set(&[JsonType::Array]));
}

#[test]
fn bad_schemas_are_typed_errors() {
    let err = |schema: Value| SchemaPlan::compile(&schema).unwrap_err();
    assert!(matches!(err(json!(3)), SchemaError::NotASchema { .. }));
    assert!(matches!(
        err(json!({"type": 5})),
        SchemaError::KeywordType {
            keyword: "type",
            ..
        }
    ));
    assert!(matches!(
        err(json!({"type": "strin"})),
        SchemaError::UnknownType { .. }
    ));
    assert!(matches!(
        err(json!({"properties": []})),
        SchemaError::KeywordType {
            keyword: "properties",
            ..
        }
    ));
    assert!(matches!(
        err(json!({"anyOf": {}})),
        SchemaError::KeywordType {
            keyword: "anyOf",
            ..
        }
    ));
    assert!(matches!(
        err(json!({"$ref": "other.json#/a"})),
        SchemaError::NonLocalRef { .. }
    ));
    assert!(matches!(
        err(json!({"$ref": "#/$defs/missing"})),
        SchemaError::DanglingRef { .. }
    ));
    assert!(matches!(
        err(json!({"$ref": 1})),
        SchemaError::KeywordType {
            keyword: "$ref",
            ..
        }
    ));
    assert!(matches!(
        err(json!({"patternProperties": {"(": {}}})),
        SchemaError::Pattern { .. }
    ));
    assert!(
        matches!(err(json!({"properties": {"a": 1}})), SchemaError::NotASchema { at, .. } if at == "/properties/a")
    );
    assert!(matches!(
        err(json!({"enum": 1})),
        SchemaError::KeywordType {
            keyword: "enum",
            ..
        }
    ));
}

#[test]
fn plans_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<SchemaPlan>();
}

#[test]
fn a_single_applicable_branch_stays_a_union_part() {
    // The member schema a branch gives applies at the next level only if it
    // admits the value there, whether one branch applied or several.
    let plan = SchemaPlan::compile(&json!({
        "anyOf": [
            {"properties": {"v": {"type": "object", "additionalProperties": {"type": "array"}}}},
            {"type": "null"}
        ]
    }))
    .unwrap();
    let root = plan.bind(&plan.root(), &json!({"v": {}}));
    let v = plan.member(&root, "v");
    assert!(matches!(v, Loc::Branch(_)), "{v:?}");
    assert_eq!(plan.bind(&v, &json!(["x"])), Bound::Never);
    let bound = plan.bind(&v, &json!({"k": "[1]"}));
    assert_eq!(
        plan.declared(&plan.member(&bound, "k")),
        set(&[JsonType::Array])
    );
}

#[test]
fn an_externally_tagged_variant_applies_only_where_its_key_is() {
    // A struct flattening an externally tagged enum: the variants' objects
    // are not closed (they are composed), so only their key tells them apart.
    let plan = SchemaPlan::compile(&json!({
        "type": "object",
        "properties": {"to": {"type": "string"}},
        "oneOf": [
            {"type": "object", "properties": {"Email": {"type": "object",
                "properties": {"opts": {"type": "object"}}}}, "required": ["Email"]},
            {"type": "object", "properties": {"Sms": {"type": "object",
                "properties": {"number": {"type": "string"}}}}, "required": ["Sms"]}
        ]
    }))
    .unwrap();
    let value = json!({"to": "x", "Email": {"opts": "{}"}});
    let root = plan.bind(&plan.root(), &value);
    let email = plan.bind(&plan.member(&root, "Email"), &value["Email"]);
    let opts = plan.member(&email, "opts");
    assert_eq!(plan.declared(&opts), set(&[JsonType::Object]));
}

#[test]
fn unevaluated_properties_false_forbids_members_no_part_mentions() {
    // A union whose second branch is a composed struct closed where used:
    // `m` belongs to the first branch only, so it stays an object location.
    let plan = SchemaPlan::compile(&json!({
        "anyOf": [
            {"type": "object", "properties": {"m": {"type": "object"}}},
            {"$ref": "#/$defs/Bare", "unevaluatedProperties": false}
        ],
        "$defs": {"Bare": {"type": "object", "properties": {"name": {"type": "string"}}}}
    }))
    .unwrap();
    let value = json!({"m": "{}"});
    let root = plan.bind(&plan.root(), &value);
    assert_eq!(
        plan.declared(&plan.member(&root, "m")),
        set(&[JsonType::Object])
    );
    // A member the closed branch declares still comes from both.
    let value = json!({"name": "x"});
    let root = plan.bind(&plan.root(), &value);
    assert_eq!(
        plan.declared(&plan.member(&root, "name")),
        TypeSet::ALL,
        "the first branch leaves `name` open"
    );
}
