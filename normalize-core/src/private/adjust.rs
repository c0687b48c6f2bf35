//! The derive's changes to schemars' schema: closing the objects the derive
//! owns, and declaring serde aliases as properties.
//!
//! Closing uses `additionalProperties: false` on a plain object schema. An
//! object schema that also composes others (`allOf`, `anyOf`, `oneOf`,
//! `$ref`: what schemars emits when a struct flattens an enum) gets
//! `unevaluatedProperties: false` instead, because `additionalProperties`
//! only sees its sibling `properties` and would reject the composed members.
//! A schema that already says either (a flattened map, serde's
//! `deny_unknown_fields`) is left as it is.

use crate::tool_args::ToolArgs;
use schemars::JsonSchema;
use serde_json::{Map, Value};

const COMPOSITION: [&str; 4] = ["allOf", "anyOf", "oneOf", "$ref"];

fn is_object_schema(map: &Map<String, Value>) -> bool {
    map.get("type").and_then(Value::as_str) == Some("object") || map.contains_key("properties")
}

/// Closes one object schema (see the module docs for which keyword).
pub fn close(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if !is_object_schema(map)
        || map.contains_key("additionalProperties")
        || map.contains_key("unevaluatedProperties")
    {
        return;
    }
    let keyword = if COMPOSITION.iter().any(|k| map.contains_key(*k)) {
        "unevaluatedProperties"
    } else {
        "additionalProperties"
    };
    map.insert(keyword.to_owned(), Value::Bool(false));
}

/// Closes an enum's schema: each variant's object schema, and the inline
/// object holding a variant's content (externally and adjacently tagged
/// representations).
pub fn close_enum(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    if is_object_schema(map) {
        close_variant(schema);
        return;
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = map.get_mut(keyword) {
            branches.iter_mut().for_each(close_variant);
        }
    }
}

fn close_variant(schema: &mut Value) {
    close(schema);
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        for prop in props.values_mut() {
            if prop.get("properties").is_some() {
                close(prop);
            }
        }
    }
}

/// Declares each serde alias of the field `name` as a property with the
/// field's schema, so that validation accepts the names serde accepts and
/// the plan normalizes them like the field.
pub fn add_aliases(schema: &mut Value, name: &str, aliases: &[&str]) {
    let Some(Value::Object(props)) = schema.get_mut("properties") else {
        return;
    };
    let Some(field) = props.get(name).cloned() else {
        return;
    };
    for alias in aliases {
        if !props.contains_key(*alias) {
            props.insert((*alias).to_owned(), field.clone());
        }
    }
}

/// Applies `T`'s adjustments to its definition in `defs`, once.
pub fn adjust_def<T: ToolArgs>(defs: &mut Map<String, Value>, seen: &mut Vec<String>) {
    let name = <T as JsonSchema>::schema_name();
    if seen.iter().any(|s| *s == name) {
        return;
    }
    seen.push(name.clone().into_owned());
    let Some(slot) = defs.get_mut(&*name) else {
        return;
    };
    let mut def = std::mem::take(slot);
    T::__adjust_schema(&mut def, defs, seen);
    if let Some(slot) = defs.get_mut(&*name) {
        *slot = def;
    }
}
