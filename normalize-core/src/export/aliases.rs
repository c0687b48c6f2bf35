//! One name per field for the forms that constrain what a model writes.
//!
//! A derived schema declares each serde alias as a property of its own
//! (a variant's alias as a branch of its enum's union), marked
//! `x-toolargs-alias-of` (the field's or variant's wire name), and requires one of
//! a required field's names (`allOf: [{"anyOf": [{"required": [name]}, ...]}]`),
//! so validation accepts every name serde accepts. A form that makes the
//! model write every property (OpenAI's strict mode) or that enumerates the
//! members a model may write (a grammar) must show one name per field: these
//! are removed there, and the wire name is required again.

use crate::keywords::ALIAS_OF;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// `schema` without alias properties and alias requirements, or `schema`
/// itself when it declares no alias.
pub fn without_aliases(schema: &Value) -> Cow<'_, Value> {
    if !mentions_aliases(schema) {
        return Cow::Borrowed(schema);
    }
    let mut out = schema.clone();
    strip(&mut out);
    Cow::Owned(out)
}

fn mentions_aliases(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.contains_key(ALIAS_OF) || map.values().any(mentions_aliases),
        Value::Array(items) => items.iter().any(mentions_aliases),
        _ => false,
    }
}

fn strip(node: &mut Value) {
    match node {
        Value::Object(map) => {
            strip_object(map);
            // A variant's alias is a branch of its enum's union.
            for union in ["anyOf", "oneOf"] {
                if let Some(Value::Array(branches)) = map.get_mut(union) {
                    branches.retain(|branch| branch.get(ALIAS_OF).is_none());
                }
            }
            map.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

fn strip_object(map: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    let aliases: Vec<String> = properties
        .iter()
        .filter(|(_, schema)| schema.get(ALIAS_OF).is_some())
        .map(|(name, _)| name.clone())
        .collect();
    if aliases.is_empty() {
        return;
    }
    for alias in &aliases {
        properties.shift_remove(alias);
    }
    let mut required_again = Vec::new();
    if let Some(Value::Array(parts)) = map.get_mut("allOf") {
        parts.retain(|part| match alias_requirement(part, &aliases) {
            Some(wire) => {
                required_again.push(Value::String(wire));
                false
            }
            None => true,
        });
        if parts.is_empty() {
            map.remove("allOf");
        }
    }
    if required_again.is_empty() {
        return;
    }
    match map.get_mut("required") {
        Some(Value::Array(required)) => required.extend(required_again),
        _ => {
            map.insert("required".to_owned(), Value::Array(required_again));
        }
    }
}

/// The wire name of `{"anyOf": [{"required": [wire]}, {"required": [alias]}, ...]}`
/// when every other name is one of `aliases`.
fn alias_requirement(part: &Value, aliases: &[String]) -> Option<String> {
    let map = part.as_object()?;
    if map.len() != 1 {
        return None;
    }
    let branches = map.get("anyOf")?.as_array()?;
    let names: Vec<&str> = branches
        .iter()
        .map(|b| {
            let b = b.as_object()?;
            let required = b.get("required")?.as_array()?;
            (b.len() == 1 && required.len() == 1)
                .then(|| required[0].as_str())
                .flatten()
        })
        .collect::<Option<_>>()?;
    let (wire, others) = names.split_first()?;
    others
        .iter()
        .all(|name| aliases.iter().any(|a| a == name))
        .then(|| (*wire).to_owned())
}

#[cfg(test)]
mod tests {
    use super::without_aliases;
    use serde_json::json;

    #[test]
    fn aliases_are_removed_and_the_wire_name_required_again() {
        let schema = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": "integer"},
                "q": {"type": "string", "x-toolargs-alias-of": "query"},
                "n": {"type": "integer", "x-toolargs-alias-of": "limit"}
            },
            "required": ["other"],
            "allOf": [{"anyOf": [{"required": ["query"]}, {"required": ["q"]}]}],
            "additionalProperties": false
        });
        let view = without_aliases(&schema);
        assert_eq!(
            *view,
            json!({
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["other", "query"],
                "additionalProperties": false
            })
        );
    }

    #[test]
    fn a_schema_without_aliases_is_borrowed() {
        let schema = json!({"type": "object", "allOf": [{"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}]});
        assert!(matches!(
            without_aliases(&schema),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
