//! Whether a reading can matter: what serde reads through a branch beyond
//! its closed form, and whether two branches can share a value (see the
//! module docs of [`super`]).

use super::MAX_HOPS;
use super::forms::{Sequence, is_tagged, unit_variants};
use crate::plan::reference::ref_pointer;
use crate::plan::{JsonType, TypeSet};
use serde_json::Value;
use std::collections::HashSet;

const OBJECT: TypeSet = TypeSet::only(JsonType::Object);
const ARRAY: TypeSet = TypeSet::only(JsonType::Array);
const CONTAINERS: TypeSet = OBJECT.union(ARRAY);

/// The definition a bare `$ref` (beside annotations at most) names.
fn bare_target<'s>(root: &'s Value, schema: &Value) -> Option<&'s Value> {
    let map = schema.as_object()?;
    let bare = map
        .keys()
        .all(|k| matches!(k.as_str(), "$ref" | "description" | "title" | "not"));
    if !bare {
        return None;
    }
    map.get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        .and_then(|pointer| root.pointer(&pointer))
}

/// The JSON types of the values serde may read through `schema` (in
/// `root`) beyond what its closed form takes: an object where it reaches an
/// object schema that takes members it does not declare (a struct as
/// schemars writes it, which serde reads ignoring unknown members) or a
/// unit variant (`{"Name": null}`); an array where it reaches a struct
/// definition (read from its fields) or a set (read with repeats); the
/// container type around any of these.
pub(super) fn reads_more(root: &Value, schema: &Value, memo: &mut Memo, depth: usize) -> TypeSet {
    let Value::Object(map) = schema else {
        return TypeSet::EMPTY;
    };
    if depth > MAX_HOPS {
        return CONTAINERS;
    }
    let declares = ["properties", "patternProperties", "required"]
        .iter()
        .any(|k| map.contains_key(*k));
    let says_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    let mut more = TypeSet::EMPTY;
    if (declares || says_object)
        && !map.contains_key("additionalProperties")
        && !map.contains_key("unevaluatedProperties")
    {
        more = more.union(OBJECT);
    }
    if unit_variants(schema).is_some() {
        more = more.union(OBJECT);
    }
    if map.contains_key("uniqueItems") {
        more = more.union(ARRAY);
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
    {
        more = more.union(match memo.get(&target) {
            Some(Some(known)) => *known,
            // A cycle: whatever it reads, in a container.
            Some(None) => CONTAINERS,
            None => match root.pointer(&target) {
                Some(definition) => {
                    memo.insert(target.clone(), None);
                    let mut found = reads_more(root, definition, memo, depth + 1);
                    if Sequence::of(definition).is_some() {
                        found = found.union(ARRAY);
                    }
                    if is_tagged(definition) {
                        // `[tag, ...]`, and the tag as an index.
                        found = found.union(CONTAINERS);
                    }
                    memo.insert(target, Some(found));
                    found
                }
                None => TypeSet::EMPTY,
            },
        });
    }
    for (keyword, child) in map {
        let keyword = keyword.as_str();
        // The container a value moves into, or `None` for the same value.
        let (within, level) = match keyword {
            "properties" | "patternProperties" | "dependentSchemas" => (true, Some(OBJECT)),
            "additionalProperties" | "unevaluatedProperties" => (false, Some(OBJECT)),
            "prefixItems" | "items" | "additionalItems" | "unevaluatedItems" | "contains" => {
                (false, Some(ARRAY))
            }
            "anyOf" | "oneOf" | "allOf" | "then" | "else" => (false, None),
            _ => continue,
        };
        let children: Vec<&Value> = match child {
            Value::Object(children) if within => children.values().collect(),
            Value::Array(children) => children.iter().collect(),
            other => vec![other],
        };
        for child in children {
            let found = reads_more(root, child, memo, depth + 1);
            if !found.is_empty() {
                more = more.union(level.unwrap_or(found));
            }
        }
    }
    more
}

/// What [`reads_more`] found for each definition; `None` while it is being
/// walked.
pub(super) type Memo = std::collections::HashMap<String, Option<TypeSet>>;

/// Whether some value may be taken both by `earlier` read the serde way
/// (in `raw`) and by `later` (in `closed`). `false` only when they provably
/// share none.
pub(super) fn may_share(raw: &Value, earlier: &Value, closed: &Value, later: &Value) -> bool {
    let common = types(raw, earlier, true, 0).intersect(types(closed, later, false, 0));
    if common
        .iter()
        .any(|ty| !matches!(ty, JsonType::Object | JsonType::Array))
    {
        return true;
    }
    if common.contains(JsonType::Array) && arrays_may_share(raw, earlier, closed, later) {
        return true;
    }
    if !common.contains(JsonType::Object) {
        return false;
    }
    // Both may be objects: they share none when the earlier branch requires
    // a member the later one closes out.
    let required = required_names(raw, earlier, 0);
    match closed_names(closed, later, 0) {
        Some(allowed) => required.iter().all(|name| allowed.contains(name)),
        None => true,
    }
}

/// When the earlier branch takes arrays only as a struct read from its
/// fields, it shares none with the later branch's arrays if their first
/// elements share no JSON type (`enum { One(Item), Many(Vec<Item>) }`:
/// `Item`'s first field is no `Item`).
fn arrays_may_share(raw: &Value, earlier: &Value, closed: &Value, later: &Value) -> bool {
    let Some(definition) = bare_target(raw, earlier) else {
        return true;
    };
    let Some(sequence) = Sequence::of(definition) else {
        return true;
    };
    if sequence.least == 0 || types(raw, definition, false, 0).contains(JsonType::Array) {
        return true;
    }
    let first = &definition["properties"][&sequence.fields[0]];
    let later = bare_target(closed, later).unwrap_or(later);
    let later_first = later
        .get("prefixItems")
        .and_then(|items| items.get(0))
        .or_else(|| later.get("items"));
    match later_first {
        Some(item) => !types(raw, first, true, 0)
            .intersect(types(closed, item, false, 0))
            .is_empty(),
        None => true,
    }
}

/// The JSON types `schema` may take (all where unknown); `read`: as serde
/// reads it, a struct definition from an array too.
pub(super) fn types(root: &Value, schema: &Value, read: bool, depth: usize) -> TypeSet {
    let map = match schema {
        Value::Object(map) => map,
        Value::Bool(false) => return TypeSet::EMPTY,
        _ => return TypeSet::ALL,
    };
    if depth > MAX_HOPS {
        return TypeSet::ALL;
    }
    if read && unit_variants(schema).is_some() {
        return OBJECT.with(JsonType::String);
    }
    let named = |name: &str| JsonType::from_name(name).map_or(TypeSet::ALL, TypeSet::only);
    let of_value = |value: &Value| TypeSet::only(JsonType::of(value));
    let mut taken = TypeSet::ALL;
    if let Some(names) = map.get("type") {
        taken = taken.intersect(match names {
            Value::String(name) => named(name),
            Value::Array(names) => names
                .iter()
                .filter_map(Value::as_str)
                .fold(TypeSet::EMPTY, |set, name| set.union(named(name))),
            _ => TypeSet::ALL,
        });
    }
    if let Some(value) = map.get("const") {
        taken = taken.intersect(of_value(value));
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        taken = taken.intersect(
            values
                .iter()
                .fold(TypeSet::EMPTY, |set, value| set.union(of_value(value))),
        );
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        .and_then(|pointer| root.pointer(&pointer))
    {
        let mut target_takes = types(root, target, read, depth + 1);
        if read && (Sequence::of(target).is_some() || is_tagged(target)) {
            target_takes = target_takes.union(ARRAY);
        }
        taken = taken.intersect(target_takes);
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(union) {
            taken = taken.intersect(branches.iter().fold(TypeSet::EMPTY, |set, branch| {
                set.union(types(root, branch, read, depth + 1))
            }));
        }
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        for part in parts {
            taken = taken.intersect(types(root, part, read, depth + 1));
        }
    }
    taken
}

/// The members `schema` requires of an object, through `$ref` and `allOf`.
fn required_names(root: &Value, schema: &Value, depth: usize) -> Vec<String> {
    let Value::Object(map) = schema else {
        return Vec::new();
    };
    let mut names: Vec<String> = match map.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    if depth > MAX_HOPS {
        return names;
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        .and_then(|pointer| root.pointer(&pointer))
    {
        names.extend(required_names(root, target, depth + 1));
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        for part in parts {
            names.extend(required_names(root, part, depth + 1));
        }
    }
    names
}

/// The only members an object `schema` allows, when it closes every other
/// one with `additionalProperties: false` (through a bare `$ref`).
fn closed_names(root: &Value, schema: &Value, depth: usize) -> Option<HashSet<String>> {
    let Value::Object(map) = schema else {
        return None;
    };
    if depth > MAX_HOPS {
        return None;
    }
    if map.get("additionalProperties") == Some(&Value::Bool(false))
        && !map.contains_key("patternProperties")
        && !map.contains_key("$ref")
    {
        let names = match map.get("properties") {
            Some(Value::Object(properties)) => properties.keys().cloned().collect(),
            _ => HashSet::new(),
        };
        return Some(names);
    }
    closed_names(root, bare_target(root, schema)?, depth + 1)
}
