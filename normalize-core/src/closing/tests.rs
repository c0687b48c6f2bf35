use super::close_objects;
use serde_json::{Value, json};

fn closed(mut schema: Value) -> Value {
    close_objects(&mut schema);
    schema
}

#[test]
fn plain_structs_close_with_additional_properties() {
    let schema = closed(json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "e": {"$ref": "#/$defs/Empty"}},
        "$defs": {
            "A": {"type": "object", "properties": {"x": {"type": "string"}}},
            "Empty": {"type": "object"}
        }
    }));
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["$defs"]["A"]["additionalProperties"], false);
    assert_eq!(schema["$defs"]["Empty"]["additionalProperties"], false);
    assert!(
        schema["properties"]["a"]
            .get("unevaluatedProperties")
            .is_none()
    );
}

#[test]
fn maps_and_opted_out_objects_stay_as_they_are() {
    let original = json!({
        "type": "object",
        "properties": {
            "m": {"type": "object", "additionalProperties": {"type": "integer"}},
            "ints": {"type": "object", "patternProperties": {"^\\d+$": {"$ref": "#/$defs/S"}}, "additionalProperties": false},
            "open": {"type": "object", "properties": {"a": true}, "additionalProperties": true},
            "any": true,
            "free": {}
        },
        "additionalProperties": false,
        "$defs": {"S": {"type": "object", "properties": {"id": {"type": "integer"}}}}
    });
    let schema = closed(original.clone());
    let mut expected = original;
    expected["$defs"]["S"]["additionalProperties"] = json!(false);
    assert_eq!(schema, expected);
}

#[test]
fn composed_definitions_close_where_used() {
    // An internally tagged newtype variant (`$ref` + sibling `properties`)
    // and the same definition used on its own elsewhere.
    let schema = closed(json!({
        "type": "object",
        "properties": {
            "cmd": {"$ref": "#/$defs/Cmd"},
            "args": {"$ref": "#/$defs/SearchArgs"}
        },
        "$defs": {
            "Cmd": {"oneOf": [
                {"type": "object", "properties": {"type": {"const": "Search"}},
                 "$ref": "#/$defs/SearchArgs", "required": ["type"]},
                {"type": "object", "properties": {"type": {"const": "Stop"}}, "required": ["type"]}
            ]},
            "SearchArgs": {"type": "object", "properties": {"query": {"type": "string"}}}
        }
    }));
    let defs = &schema["$defs"];
    assert!(defs["SearchArgs"].get("additionalProperties").is_none());
    assert_eq!(defs["Cmd"]["oneOf"][0]["unevaluatedProperties"], false);
    assert_eq!(defs["Cmd"]["oneOf"][1]["additionalProperties"], false);
    assert_eq!(schema["properties"]["args"]["unevaluatedProperties"], false);
}

#[test]
fn flattened_enums_close_the_outer_object_only() {
    let schema = closed(json!({
        "type": "object",
        "properties": {"to": {"type": "string"}},
        "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "Email"}, "opts": {"$ref": "#/$defs/Opts"}}},
            {"type": "object", "properties": {"kind": {"const": "Sms"}}}
        ],
        "$defs": {"Opts": {"type": "object", "properties": {"cc": {"type": "boolean"}}}}
    }));
    assert_eq!(schema["unevaluatedProperties"], false);
    assert!(schema.get("additionalProperties").is_none());
    for branch in schema["oneOf"].as_array().unwrap() {
        assert!(branch.get("additionalProperties").is_none());
        assert!(branch.get("unevaluatedProperties").is_none());
    }
    // A struct inside a variant is a location of its own.
    assert_eq!(schema["$defs"]["Opts"]["additionalProperties"], false);
}

#[test]
fn unions_close_each_branch_and_percent_encoded_references_resolve() {
    let schema = closed(json!({
        "type": "object",
        "properties": {
            "opt": {"anyOf": [{"$ref": "#/$defs/Tag%20Args"}, {"type": "null"}]},
            "list": {"type": "array", "items": {"$ref": "#/$defs/a~1b"}}
        },
        "$defs": {
            "Tag Args": {"type": "object", "properties": {"a": {"type": "integer"}}},
            "a/b": {"type": "object", "properties": {"b": {"type": "integer"}}}
        }
    }));
    assert_eq!(schema["$defs"]["Tag Args"]["additionalProperties"], false);
    assert_eq!(schema["$defs"]["a/b"]["additionalProperties"], false);
}

#[test]
fn closing_is_idempotent_and_survives_cycles() {
    let once = closed(json!({
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "loop": {"$ref": "#/$defs/Loop"}
        }}, "Loop": {"$ref": "#/$defs/Loop"}}
    }));
    assert_eq!(once["$defs"]["Node"]["additionalProperties"], false);
    assert_eq!(closed(once.clone()), once);
}

#[test]
fn shared_definitions_are_read_once_not_once_per_path() {
    // Forty levels of unions whose two branches name the same definition:
    // 2^40 paths to the struct at the bottom, forty definitions.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"anyOf": [{"$ref": next}, {"$ref": next}], "properties": {}}),
        );
    }
    defs.insert(
        "D40".to_owned(),
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
    );
    let schema = closed(json!({
        "type": "object",
        "properties": {"top": {"$ref": "#/$defs/D0"}},
        "$defs": defs
    }));
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["$defs"]["D0"]["unevaluatedProperties"], false);
}
