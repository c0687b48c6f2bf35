//! The OpenAI strict export of a derived type with optional fields,
//! defaults, nested structs, enums and maps: each documented strict-mode
//! rule checked on the exported schema, and the round trip (a call valid
//! under the strict schema is accepted and reaches the body in the declared
//! shape).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use toolargs::ToolArgs;
use toolargs::call::{ReadCalls, ToolCall, read};
use toolargs::export::strict::Change;
use toolargs::export::{Dialect, Provider, StrictSchema};
use toolargs::rejection::{CallError, Rejection};
use toolargs::toolbox::{RegisterError, Toolbox};

/// Create a shipment.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs, PartialEq)]
struct Shipment {
    /// Who receives it.
    recipient: String,
    /// Where it goes.
    address: Address,
    /// How fast.
    speed: Speed,
    /// Optional gift message.
    gift_message: Option<String>,
    /// Number of boxes (default 1).
    #[serde(default = "one")]
    boxes: u32,
    /// Free-form labels.
    #[serde(default)]
    labels: BTreeMap<String, String>,
    /// How to pay.
    payment: Payment,
    /// Reference code.
    #[schemars(length(min = 3, max = 12))]
    #[serde(default)]
    reference: Option<String>,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs, PartialEq)]
struct Address {
    street: String,
    city: String,
    /// Two-letter code.
    country: String,
    #[serde(default)]
    unit: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Speed {
    Standard,
    Express,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(tag = "method", rename_all = "snake_case")]
enum Payment {
    Card { last4: String },
    Invoice { po_number: Option<String> },
}

fn strict_toolbox() -> Toolbox {
    let mut toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .tool_sync("ship", "Create a shipment.", |args: Shipment| {
            Ok::<_, String>(args)
        })
        .unwrap();
    toolbox
}

/// Every subschema of `schema` (objects only), with its pointer.
fn subschemas<'a>(at: String, schema: &'a Value, out: &mut Vec<(String, &'a Map<String, Value>)>) {
    let Value::Object(map) = schema else { return };
    out.push((at.clone(), map));
    for (key, value) in map {
        match (key.as_str(), value) {
            ("properties" | "$defs" | "definitions", Value::Object(children)) => {
                for (name, child) in children {
                    subschemas(format!("{at}/{key}/{name}"), child, out);
                }
            }
            ("items" | "additionalProperties" | "not", child @ Value::Object(_)) => {
                subschemas(format!("{at}/{key}"), child, out);
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(branches)) => {
                for (i, branch) in branches.iter().enumerate() {
                    subschemas(format!("{at}/{key}/{i}"), branch, out);
                }
            }
            _ => {}
        }
    }
}

fn strict_schema() -> Value {
    let toolbox = strict_toolbox();
    let exported = toolbox.export(Provider::OpenAiChat);
    assert_eq!(exported[0]["function"]["strict"], json!(true));
    exported[0]["function"]["parameters"].clone()
}

#[test]
fn rule_root_is_an_object_not_a_union() {
    let schema = strict_schema();
    assert_eq!(schema["type"], "object");
    assert!(schema.get("anyOf").is_none() && schema.get("oneOf").is_none());
    // A schema whose root is a union cannot be strict.
    assert!(matches!(
        StrictSchema::new(&json!({"anyOf": [{"type": "object"}, {"type": "string"}]})),
        Err(toolargs::export::StrictError::RootNotObject)
    ));
}

#[test]
fn rule_additional_properties_false_on_every_object() {
    let schema = strict_schema();
    let mut all = Vec::new();
    subschemas(String::new(), &schema, &mut all);
    let objects: Vec<_> = all
        .iter()
        .filter(|(_, s)| s.get("type") == Some(&json!("object")) || s.contains_key("properties"))
        .collect();
    // The root, Address, the two Payment variants and the pair object.
    assert_eq!(objects.len(), 5, "{objects:?}");
    for (at, object) in objects {
        assert_eq!(
            object.get("additionalProperties"),
            Some(&json!(false)),
            "at {at}"
        );
    }
}

#[test]
fn rule_every_property_is_required() {
    let schema = strict_schema();
    let mut all = Vec::new();
    subschemas(String::new(), &schema, &mut all);
    for (at, object) in all {
        if let Some(Value::Object(properties)) = object.get("properties") {
            let required: Vec<&str> = object["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            let declared: Vec<&str> = properties.keys().map(String::as_str).collect();
            assert_eq!(required, declared, "at {at}");
        }
    }
}

#[test]
fn rule_optional_fields_are_unions_with_null() {
    let schema = strict_schema();
    let admits_null = |s: &Value| {
        s["type"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("null")))
            || s["anyOf"]
                .as_array()
                .is_some_and(|b| b.contains(&json!({"type": "null"})))
    };
    for optional in ["gift_message", "boxes", "labels", "reference"] {
        assert!(
            admits_null(&schema["properties"][optional]),
            "{optional}: {}",
            schema["properties"][optional]
        );
    }
    for required in ["recipient", "address", "speed", "payment"] {
        assert!(!admits_null(&schema["properties"][required]), "{required}");
    }
    // Address was referenced with a description beside the `$ref`: inlined.
    let address = &schema["properties"]["address"];
    assert!(admits_null(&address["properties"]["unit"]));
    assert!(!admits_null(&address["properties"]["city"]));
}

#[test]
fn rule_no_unsupported_keywords_and_each_removal_is_listed() {
    const UNSUPPORTED: &[&str] = &[
        "allOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "patternProperties",
        "unevaluatedProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "unevaluatedItems",
        "contains",
        "minContains",
        "maxContains",
        "uniqueItems",
        "default",
        "$schema",
    ];
    const FORMATS: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    let schema = strict_schema();
    let mut all = Vec::new();
    subschemas(String::new(), &schema, &mut all);
    for (at, object) in &all {
        for keyword in UNSUPPORTED {
            assert!(!object.contains_key(*keyword), "`{keyword}` at {at}");
        }
        if object.contains_key("$ref") {
            assert_eq!(object.len(), 1, "a $ref with siblings at {at}");
        }
        if let Some(format) = object.get("format") {
            assert!(
                FORMATS.contains(&format.as_str().unwrap()),
                "format {format} at {at}"
            );
        }
    }
    let toolbox = strict_toolbox();
    let changes = toolbox.strict_changes("ship").unwrap();
    let removed: Vec<(&str, &str)> = changes
        .iter()
        .filter_map(|c| match &c.change {
            Change::Removed { keyword } => Some((c.pointer.as_str(), keyword.as_str())),
            _ => None,
        })
        .collect();
    assert!(
        removed.contains(&("/properties/reference", "minLength")),
        "{removed:?}"
    );
    assert!(
        removed.contains(&("/properties/reference", "maxLength")),
        "{removed:?}"
    );
    assert!(
        removed.contains(&("/properties/boxes", "default")),
        "{removed:?}"
    );
    assert!(
        removed.contains(&("/properties/boxes", "format")),
        "{removed:?}"
    );
}

#[test]
fn maps_become_key_value_pairs() {
    let schema = strict_schema();
    let labels = &schema["properties"]["labels"];
    assert_eq!(labels["type"], json!(["array", "null"]));
    assert_eq!(
        labels["items"],
        json!({
            "type": "object",
            "properties": {
                "key": {"type": "string", "x-toolargs-verbatim": true},
                "value": {"type": "string"}
            },
            "required": ["key", "value"],
            "additionalProperties": false
        })
    );
    let toolbox = strict_toolbox();
    assert!(
        toolbox
            .strict_changes("ship")
            .unwrap()
            .iter()
            .any(|c| c.pointer == "/properties/labels" && c.change == Change::MapAsPairs)
    );
}

fn strict_call(arguments: Value) -> ToolCall {
    let text = json!({"type": "function", "function": {"name": "ship", "arguments": arguments.to_string()}});
    read(&text.to_string())
        .and_then(ReadCalls::into_calls)
        .unwrap()
        .remove(0)
}

#[test]
fn round_trip_a_call_valid_under_the_strict_schema_is_accepted() {
    let arguments = json!({
        "recipient": "Ada",
        "address": {"street": "1 Main St", "city": "Springfield", "country": "US", "unit": null},
        "speed": "express",
        "gift_message": null,
        "boxes": 3,
        "labels": [{"key": "fragile", "value": "yes"}, {"key": "floor", "value": "2"}],
        "payment": {"method": "invoice", "po_number": null},
        "reference": null
    });
    // The exported strict schema itself accepts it.
    let validator = toolargs::validate::Validator::new(&strict_schema()).unwrap();
    validator.validate(&arguments).unwrap();

    let toolbox = strict_toolbox();
    let done = toolbox.call_blocking(&(), strict_call(arguments)).unwrap();
    let shipment: Shipment = serde_json::from_value(done.output).unwrap();
    assert_eq!(
        shipment,
        Shipment {
            recipient: "Ada".into(),
            address: Address {
                street: "1 Main St".into(),
                city: "Springfield".into(),
                country: "US".into(),
                unit: None
            },
            speed: Speed::Express,
            gift_message: None,
            boxes: 3,
            labels: BTreeMap::from([
                ("fragile".into(), "yes".into()),
                ("floor".into(), "2".into())
            ]),
            payment: Payment::Invoice { po_number: None },
            reference: None,
        }
    );
}

#[test]
fn round_trip_null_means_absent_so_defaults_apply() {
    let toolbox = strict_toolbox();
    let done = toolbox
        .call_blocking(
            &(),
            strict_call(json!({
                "recipient": "Ada",
                "address": {"street": "s", "city": "c", "country": "US", "unit": "4B"},
                "speed": "standard",
                "gift_message": "Happy birthday",
                "boxes": null,
                "labels": null,
                "payment": {"method": "card", "last4": "4242"},
                "reference": "R-1"
            })),
        )
        .unwrap();
    let shipment: Shipment = serde_json::from_value(done.output).unwrap();
    assert_eq!(
        shipment.boxes, 1,
        "null for `boxes` means absent: its default applies"
    );
    assert!(shipment.labels.is_empty());
    assert_eq!(shipment.address.unit.as_deref(), Some("4B"));
    assert_eq!(
        shipment.payment,
        Payment::Card {
            last4: "4242".into()
        }
    );
}

/// An `Option` whose default is not `None`: the strict form shows its
/// `null` as a value, so `null` is `None`, never the default (found by a
/// review: `{"timeout": null}` reached the tool as `Some(5)`).
#[test]
fn null_for_an_option_with_another_default_is_none() {
    fn five() -> Option<u32> {
        Some(5)
    }
    fn ones() -> Option<Vec<u32>> {
        Some(vec![1])
    }
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    struct SetTimeout {
        /// Seconds; null disables the timeout.
        #[serde(default = "five")]
        timeout: Option<u32>,
        #[serde(default = "ones")]
        retries: Option<Vec<u32>>,
        #[serde(default)]
        boxes: u32,
    }
    let mut toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .tool_sync("set", "Set a timeout.", |args: SetTimeout| {
            Ok::<_, String>(args)
        })
        .unwrap();
    let call = |arguments: Value| {
        let text = json!({"type": "function", "function": {"name": "set", "arguments": arguments.to_string()}});
        let call = read(&text.to_string())
            .and_then(ReadCalls::into_calls)
            .unwrap()
            .remove(0);
        let done = toolbox.call_blocking(&(), call).unwrap();
        serde_json::from_value::<SetTimeout>(done.output).unwrap()
    };
    let none = json!({"timeout": null, "retries": null, "boxes": null});
    assert_eq!(
        call(none.clone()),
        SetTimeout {
            timeout: None,
            retries: None,
            boxes: 0
        },
        "null is the value the strict form shows, as in the canonical form"
    );
    assert_eq!(
        SetTimeout::from_model(json!({"timeout": null, "retries": null}))
            .unwrap()
            .value
            .timeout,
        None
    );
    assert_eq!(
        call(json!({"timeout": 7, "retries": [2], "boxes": 3})),
        SetTimeout {
            timeout: Some(7),
            retries: Some(vec![2]),
            boxes: 3
        }
    );
    // encode keeps a declared `null` as `null`, which restores to it.
    let strict = StrictSchema::new(SetTimeout::input_schema()).unwrap();
    let declared = json!({"timeout": null, "retries": null, "boxes": 2});
    let mut encoded = strict.encode(&declared);
    strict.restore(&mut encoded).unwrap();
    assert_eq!(encoded, declared);
}

/// A map in strict form is an array of `{key, value}` pairs: its keys are
/// string values there, and stay as sent (keys of the declared map are never
/// decoded); a verbatim map keeps its mark on the pairs (found by a review:
/// both were entity-decoded in strict form only).
#[test]
fn map_pairs_keep_keys_as_sent_and_a_verbatim_map_verbatim() {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    struct Files {
        #[tool_args(verbatim)]
        files: BTreeMap<String, String>,
        labels: BTreeMap<String, String>,
    }
    let mut toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .tool_sync("write", "Write files.", |args: Files| Ok::<_, String>(args))
        .unwrap();
    let call = |arguments: Value| {
        let text = json!({"type": "function", "function": {"name": "write", "arguments": arguments.to_string()}});
        let call = read(&text.to_string())
            .and_then(ReadCalls::into_calls)
            .unwrap()
            .remove(0);
        toolbox
            .call_blocking(&(), call)
            .map(|done| serde_json::from_value::<Files>(done.output).unwrap())
    };
    let files = call(json!({
        "files": [{"key": "a&amp;b.html", "value": "<p>Tom &amp; Jerry</p>"}],
        "labels": [{"key": "x&amp;y", "value": "Tom &amp; Jerry"}, {"key": "x&y", "value": "two"}]
    }))
    .unwrap();
    let canonical = Files::from_model(json!({
        "files": {"a&amp;b.html": "<p>Tom &amp; Jerry</p>"},
        "labels": {"x&amp;y": "Tom &amp; Jerry", "x&y": "two"}
    }))
    .unwrap()
    .value;
    assert_eq!(
        files, canonical,
        "strict and canonical forms read the same call alike"
    );
    assert_eq!(files.files["a&amp;b.html"], "<p>Tom &amp; Jerry</p>");
    assert_eq!(files.labels["x&amp;y"], "Tom & Jerry");
    assert_eq!(files.labels["x&y"], "two");
}

#[test]
fn strict_calls_are_validated_against_the_strict_schema() {
    let toolbox = strict_toolbox();
    // Omitting a nullable field breaks the strict schema (all required).
    let error = toolbox
        .call_blocking(
            &(),
            strict_call(json!({
                "recipient": "Ada",
                "address": {"street": "s", "city": "c", "country": "US", "unit": null},
                "speed": "standard",
                "boxes": 1, "labels": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}],
                "payment": {"method": "card", "last4": "4242"},
                "reference": null
            })),
        )
        .unwrap_err();
    let CallError::Rejected(Rejection::InvalidArguments(invalid)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(invalid.at("/gift_message").unwrap().keyword, "required");
    // A map sent as pairs must not repeat a key.
    let error = toolbox
        .call_blocking(
            &(),
            strict_call(json!({
                "recipient": "Ada",
                "address": {"street": "s", "city": "c", "country": "US", "unit": null},
                "speed": "standard", "gift_message": null,
                "boxes": 1, "labels": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}],
                "payment": {"method": "card", "last4": "4242"},
                "reference": null
            })),
        )
        .unwrap_err();
    let CallError::Rejected(Rejection::InvalidArguments(invalid)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(invalid.at("/labels/1/key").unwrap().keyword, "uniqueKeys");
}

#[test]
fn free_form_values_cannot_be_strict() {
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
    struct Anything {
        #[allow(dead_code)]
        payload: serde_json::Value,
    }
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    let error = toolbox
        .tool_sync("anything", "", |_: Anything| Ok::<_, String>(()))
        .unwrap_err();
    let RegisterError::Strict { source, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        source.to_string(),
        "cannot be made strict at `/properties/payload`: accepts any value (free-form)"
    );
    // The canonical dialect takes it as is.
    let mut canonical: Toolbox = Toolbox::new();
    canonical
        .tool_sync("anything", "", |_: Anything| Ok::<_, String>(()))
        .unwrap();
}

/// Settings with a nested struct that is itself optional with a default.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs, PartialEq)]
struct Configure {
    name: String,
    #[serde(default)]
    limits: Limits,
}

#[derive(Debug, Default, Deserialize, Serialize, JsonSchema, ToolArgs, PartialEq)]
struct Limits {
    #[serde(default = "ten")]
    per_minute: u32,
    #[serde(default)]
    per_user: BTreeMap<String, u32>,
}

fn ten() -> u32 {
    10
}

#[test]
fn round_trip_through_a_wrapped_optional_reference() {
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .tool_sync("configure", "Configure limits.", |args: Configure| {
            Ok::<_, String>(args)
        })
        .unwrap();
    toolbox.check_drift().unwrap();
    let schema = toolbox.schema("configure").unwrap();
    // `limits` is a `$ref` with no `type` to extend: it is wrapped.
    assert_eq!(
        schema["properties"]["limits"]["anyOf"][1],
        json!({"type": "null"})
    );

    let call = |arguments: Value| {
        toolbox
            .call_blocking(&(), ToolCall::new("configure", arguments))
            .map(|done| serde_json::from_value::<Configure>(done.output).unwrap())
    };
    let configured = call(json!({
        "name": "api",
        "limits": {"per_minute": null, "per_user": [{"key": "ada", "value": 3}]}
    }))
    .unwrap();
    assert_eq!(configured.limits.per_minute, 10);
    assert_eq!(
        configured.limits.per_user,
        BTreeMap::from([("ada".to_owned(), 3)])
    );
    let configured = call(json!({"name": "api", "limits": null})).unwrap();
    assert_eq!(configured.limits, Limits::default());
}

#[test]
fn toolboxes_and_their_calls_can_cross_threads() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: &T) {}
    let toolbox = strict_toolbox();
    send_sync(&toolbox);
    let future = toolbox.call(&(), ToolCall::new("ship", json!({})));
    send(&future);
}

#[test]
fn strict_transform_of_runtime_schemas() {
    let schema = json!({
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["fast", "safe"]},
            "items": {"type": "array", "items": {
                "type": "object",
                "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}},
                "required": ["sku"]
            }},
            "shape": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"], "additionalProperties": false}
            ]}
        },
        "required": ["items", "shape"]
    });
    let strict = StrictSchema::new(&schema).unwrap();
    let s = strict.schema();
    // An optional enum admits null in both `type` and `enum`.
    assert_eq!(
        s["properties"]["mode"],
        json!({"type": ["string", "null"], "enum": ["fast", "safe", null]})
    );
    assert_eq!(
        s["properties"]["shape"]["anyOf"].as_array().unwrap().len(),
        2
    );
    assert!(s["properties"]["shape"].get("oneOf").is_none());
    // Open objects are closed, and each change is listed.
    assert_eq!(s["additionalProperties"], json!(false));
    assert_eq!(
        s["properties"]["items"]["items"]["additionalProperties"],
        json!(false)
    );
    let changes: Vec<(&str, &Change)> = strict
        .changes()
        .iter()
        .map(|c| (c.pointer.as_str(), &c.change))
        .collect();
    assert!(changes.contains(&("", &Change::Closed)));
    assert!(changes.contains(&("/properties/items/items", &Change::Closed)));
    assert!(changes.contains(&("/properties/shape", &Change::OneOfAsAnyOf)));
    assert!(changes.contains(&(
        "",
        &Change::MadeNullable {
            property: "mode".into()
        }
    )));

    // Calls come back in the declared shape, nulls inside array items too.
    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .dynamic_tool_sync("order", "Place an order.", schema, |args: Value| {
            Ok::<_, String>(args)
        })
        .unwrap();
    toolbox.check_drift().unwrap();
    let done = toolbox
        .call_blocking(
            &(),
            ToolCall::new(
                "order",
                json!({
                    "mode": null,
                    "items": [{"sku": "a", "qty": null}, {"sku": "b", "qty": 2}],
                    "shape": {"kind": "square", "side": 2.5}
                }),
            ),
        )
        .unwrap();
    assert_eq!(
        done.output,
        json!({"items": [{"sku": "a"}, {"sku": "b", "qty": 2}], "shape": {"kind": "square", "side": 2.5}})
    );
    // The closed strict schema refuses what the open one let through.
    let error = toolbox
        .call_blocking(
            &(),
            ToolCall::new(
                "order",
                json!({"mode": null, "items": [], "shape": {"kind": "circle", "r": 1}, "extra": 1}),
            ),
        )
        .unwrap_err();
    let CallError::Rejected(Rejection::InvalidArguments(invalid)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        invalid.at("/extra").unwrap().keyword,
        "additionalProperties"
    );
}

#[test]
fn schemas_with_no_strict_form_name_the_place() {
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string", "format": "email"}, {"format": "uuid"}]}}}),
            "/properties/a/allOf/1",
            "parts of a composition disagree on `format`",
        ),
        (
            json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"type": "integer"}]}}}),
            "/properties/a",
            "accepts no value (the parts of its composition exclude each other)",
        ),
        (
            json!({"type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]}}}),
            "/properties/pair",
            "a tuple (prefixItems)",
        ),
        (
            json!({"type": "object", "properties": {"meta": {"type": "object"}}}),
            "/properties/meta",
            "free-form object (no declared properties)",
        ),
        (
            json!({"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": {"type": "string"}}),
            "",
            "declared properties plus a schema for other members",
        ),
        // A struct flattening a map beside an enum (schemars: the map's
        // values as `unevaluatedProperties`), nested: closed, its map could
        // never be sent (generated contract, seed 0, `Root18`).
        (
            json!({"type": "object", "properties": {"f": {"type": "object",
                "properties": {"a": {"type": "integer"}}, "required": ["a"],
                "unevaluatedProperties": {"type": "integer"},
                "oneOf": [{"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
                          {"type": "object", "properties": {"y": {"type": "null"}}, "required": ["y"]}]}}}),
            "/properties/f",
            "declared properties plus a schema for other members",
        ),
    ];
    for (schema, pointer, reason) in cases {
        match StrictSchema::new(&schema) {
            Err(toolargs::export::StrictError::Unrepresentable {
                pointer: p,
                reason: r,
            }) => {
                assert_eq!((p.as_str(), r.as_str()), (pointer, reason), "{schema}");
            }
            other => panic!("{schema}: {other:?}"),
        }
    }
}

#[test]
fn recursive_schemas_stay_strict_and_restore_at_every_depth() {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "next": {"$ref": "#/$defs/Step", "description": "What follows."},
            "children": {"type": "array", "items": {"$ref": "#"}}
        },
        "required": ["name", "children"],
        "$defs": {
            "Step": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "then": {"$ref": "#/$defs/Step", "description": "The step after."}
                },
                "required": ["label"]
            }
        }
    });
    let strict = StrictSchema::new(&schema).unwrap();
    // Inlined once; inside its own definition the reference stays alone,
    // and the description beside it is listed as removed.
    let s = strict.schema();
    assert_eq!(s["properties"]["next"]["anyOf"][0]["type"], "object");
    assert_eq!(
        s["$defs"]["Step"]["properties"]["then"]["anyOf"][0]["properties"]["then"]["anyOf"][0],
        json!({"$ref": "#/$defs/Step"})
    );
    assert!(
        strict
            .removed()
            .any(|(_, keyword)| keyword == "description")
    );

    let mut toolbox: Toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .dynamic_tool_sync("plan", "Plan steps.", schema, |args: Value| {
            Ok::<_, String>(args)
        })
        .unwrap();
    toolbox.check_drift().unwrap();
    let done = toolbox
        .call_blocking(
            &(),
            ToolCall::new(
                "plan",
                json!({
                    "name": "root",
                    "next": {"label": "a", "then": {"label": "b", "then": null}},
                    "children": [{"name": "leaf", "next": null, "children": []}]
                }),
            ),
        )
        .unwrap();
    assert_eq!(
        done.output,
        json!({
            "name": "root",
            "next": {"label": "a", "then": {"label": "b"}},
            "children": [{"name": "leaf", "children": []}]
        })
    );
}

mod round_trip_property {
    use super::*;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = String> {
        "[a-zA-Z0-9 &;#]{0,12}"
    }

    fn shipment() -> impl Strategy<Value = Shipment> {
        let address = (text(), text(), text(), proptest::option::of(text())).prop_map(
            |(street, city, country, unit)| Address {
                street,
                city,
                country,
                unit,
            },
        );
        let payment = prop_oneof![
            text().prop_map(|last4| Payment::Card { last4 }),
            proptest::option::of(text()).prop_map(|po_number| Payment::Invoice { po_number }),
        ];
        (
            text(),
            address,
            prop_oneof![Just(Speed::Standard), Just(Speed::Express)],
            proptest::option::of(text()),
            0u32..1000,
            proptest::collection::btree_map("[a-z]{1,6}", text(), 0..4),
            payment,
            // `reference` declares 3 to 12 characters: strict mode cannot
            // show that, and the declared schema still enforces it.
            proptest::option::of("[A-Z0-9-]{3,12}"),
        )
            .prop_map(
                |(recipient, address, speed, gift_message, boxes, labels, payment, reference)| {
                    Shipment {
                        recipient,
                        address,
                        speed,
                        gift_message,
                        boxes,
                        labels,
                        payment,
                        reference,
                    }
                },
            )
    }

    /// The arguments a strict-mode model sends for `shipment`: every field
    /// present (`null` for absent optionals), the map as key/value pairs.
    fn strict_arguments(shipment: &Shipment) -> Value {
        let mut value = serde_json::to_value(shipment).unwrap();
        let pairs: Vec<Value> = shipment
            .labels
            .iter()
            .map(|(key, value)| json!({"key": key, "value": value}))
            .collect();
        value["labels"] = Value::Array(pairs);
        value
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any call valid under the strict schema (and, restored, under the
        /// declared one) is accepted, and the body
        /// receives exactly the value it stands for (strings without
        /// character references, so normalization has nothing to change).
        #[test]
        fn strict_calls_round_trip(shipment in shipment()) {
            let clean = !serde_json::to_string(&shipment).unwrap().contains('&');
            let arguments = strict_arguments(&shipment);
            let validator = toolargs::validate::Validator::new(&strict_schema()).unwrap();
            prop_assert!(validator.validate(&arguments).is_ok(), "{arguments}");
            let toolbox = strict_toolbox();
            let done = toolbox.call_blocking(&(), ToolCall::new("ship", arguments)).unwrap();
            let received: Shipment = serde_json::from_value(done.output).unwrap();
            if clean {
                prop_assert_eq!(received, shipment);
            }
        }
    }
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum NumberOrAny {
    Number { n: u32 },
    Any(Value),
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct HoldsAny {
    u: NumberOrAny,
}

/// Closing writes a `true` union branch as `{"additionalProperties": true}`
/// (so the object around it can be closed); the strict form shows that
/// branch as it showed `true`'s: with nothing to say.
#[test]
fn an_any_branch_shows_nothing_in_the_strict_form() {
    let strict = StrictSchema::new(HoldsAny::input_schema()).unwrap();
    let text = strict.schema().to_string();
    assert!(!text.contains("\"additionalProperties\":true"), "{text}");
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Span {
    lo: u32,
    hi: u32,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, ToolArgs)]
struct Checked {
    q: String,
    #[serde(flatten)]
    span: Option<Span>,
    paths: BTreeMap<std::path::PathBuf, u32>,
}

/// The whole and distinct keywords index tables only the derived validator
/// holds: its schema has them; neither the shown schema nor the strict form
/// shows them, and the restored call is still checked against them.
#[test]
fn the_strict_form_shows_no_table_index() {
    let strict = StrictSchema::new(Checked::input_schema()).unwrap();
    let text = strict.schema().to_string();
    let validated = Checked::validator().schema().to_string();
    assert!(validated.contains("x-toolargs-whole"), "{validated}");
    assert!(validated.contains("x-toolargs-distinct"), "{validated}");
    let shown = Checked::input_schema().to_string();
    assert!(!shown.contains("x-toolargs-whole"), "{shown}");
    assert!(!shown.contains("x-toolargs-distinct"), "{shown}");
    assert!(!text.contains("x-toolargs-whole"), "{text}");
    assert!(!text.contains("x-toolargs-distinct"), "{text}");
    let mut toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox
        .tool_sync("checked", "Check.", |args: Checked| Ok::<_, String>(args.q))
        .unwrap();
    let call = |arguments: Value| toolbox.call_blocking(&(), ToolCall::new("checked", arguments));
    // Only `lo` of the span: serde would take `None` and drop it.
    let pairs = json!([]);
    assert!(call(json!({"q": "s", "lo": 1, "hi": null, "paths": pairs})).is_err());
    // Two keys that are one `PathBuf`: serde would keep one.
    let pairs = json!([{"key": "a/b", "value": 1}, {"key": "a//b", "value": 2}]);
    assert!(call(json!({"q": "s", "lo": null, "hi": null, "paths": pairs})).is_err());
    let pairs = json!([{"key": "a/b", "value": 1}]);
    assert!(call(json!({"q": "s", "lo": 1, "hi": 2, "paths": pairs})).is_ok());
}

/// A map flattened beside an enum has no strict form: the tool is refused
/// in the strict dialect, not shown without the map.
#[test]
fn a_map_flattened_beside_an_enum_is_refused_in_strict_mode() {
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
    #[allow(dead_code)]
    enum Unit {
        Meters(f64),
        Feet { value: f64 },
    }
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
    #[allow(dead_code)]
    struct Measure {
        label: String,
        #[serde(flatten)]
        tags: std::collections::BTreeMap<String, u32>,
        #[serde(flatten)]
        unit: Unit,
    }
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
    #[allow(dead_code)]
    struct Record {
        measure: Measure,
    }
    let mut strict = Toolbox::<()>::with_dialect(Dialect::OpenAiStrict);
    let error = strict
        .tool_sync("record", "Record.", |_: Record| Ok::<_, String>(()))
        .unwrap_err();
    // Refused by the type's model, before the transform (which refuses the
    // schema too: declared properties plus a schema for other members).
    assert!(
        error
            .to_string()
            .contains("`Measure` flattens the free-form field `tags`"),
        "{error}"
    );
    // The canonical dialect shows and takes the map.
    let mut canonical = Toolbox::<()>::new();
    canonical
        .tool_sync("record", "Record.", |_: Record| Ok::<_, String>(()))
        .unwrap();
}

/// A flattened `Option` whose members include one that takes `null` as a
/// value (an untagged unit variant): strict calls express both the group
/// present with that `null` and the group absent (generated contract,
/// `--deny` seed 2, `Root44`), whether the group is required together
/// plainly or, for a member with aliases, through its alternatives.
#[test]
fn a_null_member_of_a_flattened_option_is_a_value_unless_its_group_is_absent() {
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    #[serde(untagged)]
    enum Marker {
        Unit,
    }
    #[derive(Debug, PartialEq, Deserialize, JsonSchema)]
    struct Extra {
        #[serde(rename = "markR")]
        mark: Marker,
        count: i64,
    }
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
    struct Entry {
        id: i64,
        #[serde(flatten)]
        extra: Option<Extra>,
    }
    /// The same, the member that takes no `null` with an alias (the derive
    /// knows it: the group is required as one plain member and the
    /// alternatives of the other).
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
    struct Aliased {
        #[serde(rename = "markR")]
        mark: Marker,
        #[serde(alias = "n")]
        count: i64,
    }
    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
    struct AliasedEntry {
        id: i64,
        #[serde(flatten)]
        extra: Option<Aliased>,
    }
    fn check<T: ToolArgs + std::fmt::Debug + Send + 'static>(present: T, absent: T) {
        let mut strict = Toolbox::<()>::with_dialect(Dialect::OpenAiStrict);
        strict
            .tool_sync("entry", "Entry.", |e: T| Ok::<_, String>(format!("{e:?}")))
            .unwrap();
        let schema = strict.schema("entry").unwrap();
        for member in ["id", "markR", "count"] {
            assert!(
                schema["required"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(member)),
                "{schema}"
            );
        }
        let cases = [
            (
                json!({"id": 1, "markR": null, "count": 2}),
                format!("{present:?}"),
            ),
            (
                json!({"id": 1, "markR": null, "count": null}),
                format!("{absent:?}"),
            ),
        ];
        for (call, expected) in cases {
            let call = ToolCall {
                id: None,
                name: "entry".into(),
                arguments: toolargs::call::Arguments::Value(call.clone()),
                format: toolargs::call::WireFormat::OpenAiChat,
            };
            let done = strict.call_blocking(&(), call).unwrap();
            assert_eq!(done.output, json!(expected));
        }
        // The canonical form of each encodes to the call that stands for it.
        let declared = strict.declared_schema("entry").unwrap();
        let form = StrictSchema::new(declared).unwrap();
        for canonical in [
            json!({"id": 1, "markR": null, "count": 2}),
            json!({"id": 1}),
        ] {
            let mut encoded = form.encode(&canonical);
            form.restore(&mut encoded).unwrap();
            assert_eq!(encoded, canonical);
        }
    }
    check(
        Entry {
            id: 1,
            extra: Some(Extra {
                mark: Marker::Unit,
                count: 2,
            }),
        },
        Entry { id: 1, extra: None },
    );
    check(
        AliasedEntry {
            id: 1,
            extra: Some(Aliased {
                mark: Marker::Unit,
                count: 2,
            }),
        },
        AliasedEntry { id: 1, extra: None },
    );
}
