//! What serde reads of a type that derives only `JsonSchema`, where its
//! schema says otherwise and the schema alone shows it.
//!
//! The derive of a `ToolArgs` type corrects its own schema from its serde
//! attributes ([`super::annotate`]); a type that derives only `JsonSchema`
//! has no such derive, and the document holds its definition as schemars
//! wrote it. Where the shape schemars writes is unmistakable, the correction
//! is made from the shape: today, an adjacently tagged newtype variant around
//! an `Option`, whose content serde lets the model leave out (`{"t": "V"}`
//! is `V(None)`), where schemars requires it.

use super::annotate::{leave_out, tag_values};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Keywords whose values are data, not schemas: never walked.
const DATA: [&str; 4] = ["const", "enum", "default", "examples"];

/// Lets the content of every adjacently tagged `Option` variant be left out,
/// in each definition of `defs` no `ToolArgs` derive annotated (those are
/// named in `annotated`; their derive knows whether a newtype is an `Option`
/// and has decided already).
pub(crate) fn relax_adjacent_options(defs: &mut Map<String, Value>, annotated: &HashSet<String>) {
    for (name, definition) in defs.iter_mut() {
        if !annotated.contains(name) {
            walk(definition, 0);
        }
    }
}

/// [`relax_adjacent_options`] for an enum that derives only `JsonSchema`
/// flattened into `schema`, the schema of a `ToolArgs` struct: schemars
/// writes the enum's union into the struct's own object (in a part of its
/// `allOf` beside another flattened enum, or in a branch beside an empty one
/// for a flattened `Option`), not as a definition. The struct's own members
/// are not walked: their types are annotated where they are defined.
pub(crate) fn relax_flattened(schema: &mut Value) {
    fn unions(schema: &mut Value, depth: usize) {
        let Some(map) = schema.as_object_mut() else {
            return;
        };
        if depth > 8 {
            return;
        }
        for keyword in ["oneOf", "anyOf", "allOf"] {
            if let Some(Value::Array(parts)) = map.get_mut(keyword) {
                if keyword != "allOf" {
                    relax_union(parts);
                }
                parts.iter_mut().for_each(|part| unions(part, depth + 1));
            }
        }
    }
    unions(schema, 0);
}

fn walk(schema: &mut Value, depth: usize) {
    // Schemas nest no deeper than the types that wrote them; the bound only
    // keeps a hand-written cycle of inline schemas from recursing forever.
    if depth > 64 {
        return;
    }
    match schema {
        Value::Object(map) => {
            for keyword in ["oneOf", "anyOf"] {
                if let Some(Value::Array(branches)) = map.get_mut(keyword) {
                    relax_union(branches);
                }
            }
            for (keyword, value) in map.iter_mut() {
                if !DATA.contains(&keyword.as_str()) {
                    walk(value, depth + 1);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| walk(item, depth + 1)),
        _ => {}
    }
}

/// In a union written as serde's adjacently tagged enum, the content of each
/// variant that holds an `Option` becomes optional.
fn relax_union(branches: &mut [Value]) {
    let Some(content) = adjacent_content(branches) else {
        return;
    };
    for branch in branches.iter_mut() {
        let is_option = branch
            .get("properties")
            .and_then(|properties| properties.get(&content))
            .is_some_and(is_option_schema);
        if is_option {
            leave_out(branch, &content);
        }
    }
}

/// The content member's name of a union every branch of which is an object
/// of a required tag member fixed to one string, and at most one other
/// member (the content, of one name in every branch, required where it is
/// declared): serde's adjacently tagged enum, its unit variants holding the
/// tag alone. At least one branch holds content. A struct variant of an
/// internally tagged enum could look the same only with one field of one
/// name in every variant, required although an `Option`, which schemars
/// writes for no field serde reads as `None` when missing.
fn adjacent_content(branches: &[Value]) -> Option<String> {
    let first = branches.first()?.get("properties")?.as_object()?;
    let tag = first
        .keys()
        .find(|key| branches.iter().all(|branch| fixes_tag(branch, key)))?;
    let mut content: Option<String> = None;
    for branch in branches {
        let properties = branch.get("properties")?.as_object()?;
        if properties.len() > 2 || branch.get("type")?.as_str()? != "object" {
            return None;
        }
        let Some(other) = properties.keys().find(|key| *key != tag) else {
            continue;
        };
        if content.as_ref().is_some_and(|name| name != other) || !required(branch, other) {
            return None;
        }
        content = Some(other.clone());
    }
    content
}

/// Whether `branch` requires the member `tag` and fixes it to one string.
fn fixes_tag(branch: &Value, tag: &str) -> bool {
    tag_values(branch, tag).next().is_some() && required(branch, tag)
}

fn required(branch: &Value, member: &str) -> bool {
    branch
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|required| required.iter().any(|name| name == member))
}

/// Whether `schema` is one schemars writes for an `Option<T>`: `T`'s type
/// with `"null"` beside it, or a union of `T`'s schema and `{"type":
/// "null"}`. A schema of `null` alone (`()`, which serde does not read from
/// nothing) or one that takes anything (`Value`) is not.
fn is_option_schema(schema: &Value) -> bool {
    let is_null = |schema: &Value| schema.get("type").and_then(Value::as_str) == Some("null");
    if let Some(Value::Array(types)) = schema.get("type") {
        return types.len() >= 2 && types.iter().any(|t| t == "null");
    }
    ["anyOf", "oneOf"].into_iter().any(|keyword| {
        schema
            .get(keyword)
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                branches.len() == 2
                    && branches.iter().filter(|b| is_null(b)).count() == 1
                    && branches.iter().any(|b| !is_null(b))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn relaxed(mut union: Value) -> Value {
        let mut defs = Map::new();
        defs.insert("E".to_owned(), union.take());
        relax_adjacent_options(&mut defs, &HashSet::new());
        defs.remove("E").unwrap()
    }

    fn variant(tag: &str, content: Option<Value>) -> Value {
        let mut properties = Map::new();
        properties.insert("t".to_owned(), json!({"type": "string", "const": tag}));
        let mut required = vec![json!("t")];
        if let Some(content) = content {
            properties.insert("c".to_owned(), content);
            required.push(json!("c"));
        }
        json!({"type": "object", "properties": properties, "required": required})
    }

    #[test]
    fn an_option_s_content_may_be_left_out() {
        let union = json!({"oneOf": [
            variant("A", None),
            variant("B", Some(json!({"type": ["boolean", "null"]}))),
            variant("C", Some(json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}))),
            variant("D", Some(json!({"type": "boolean"}))),
            variant("E", Some(json!({"type": "null"}))),
            variant("F", Some(json!(true))),
        ]});
        let required: Vec<Value> = relaxed(union)["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|branch| branch["required"].clone())
            .collect();
        assert_eq!(
            required,
            [
                json!(["t"]),
                json!(["t"]),
                json!(["t"]),
                json!(["t", "c"]),
                json!(["t", "c"]),
                json!(["t", "c"])
            ]
        );
    }

    #[test]
    fn other_unions_are_left_alone() {
        // Two content names: not one adjacently tagged enum.
        let mut other = variant("B", Some(json!({"type": ["boolean", "null"]})));
        other["properties"]["d"] = other["properties"]["c"].take();
        other["properties"].as_object_mut().unwrap().remove("c");
        other["required"] = json!(["t", "d"]);
        let two_names = json!({"oneOf": [
            variant("A", Some(json!({"type": ["boolean", "null"]}))),
            other,
        ]});
        assert_eq!(relaxed(two_names.clone()), two_names);
        // No member fixed in every branch.
        let untagged = json!({"anyOf": [
            {"type": "object", "properties": {"c": {"type": ["boolean", "null"]}}, "required": ["c"]},
        ]});
        assert_eq!(relaxed(untagged.clone()), untagged);
        // A definition a derive annotated is its derive's to decide.
        let union = json!({"oneOf": [variant("B", Some(json!({"type": ["boolean", "null"]})))]});
        let mut defs = Map::new();
        defs.insert("E".to_owned(), union.clone());
        relax_adjacent_options(&mut defs, &HashSet::from(["E".to_owned()]));
        assert_eq!(defs["E"], union);
    }
}
