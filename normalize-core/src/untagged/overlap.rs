//! Whether a reading can matter: what serde reads through a branch beyond
//! its closed form, and whether two branches can share a value (see the
//! module docs of [`super`]).

use super::forms::{Sequence, is_tagged, unit_variants};
use crate::closing::{is_decided, says_object};
use crate::plan::reference::resolve;
use crate::plan::{JsonType, TypeSet};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Deepest chain of `$ref`s and compositions followed from one schema.
pub(super) const MAX_HOPS: usize = 64;

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
    resolve(root, map).map(|(_, target)| target)
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
    let mut more = TypeSet::EMPTY;
    // An object closing would close, were it a location: open as written.
    if (declares || says_object(map)) && !is_decided(map) {
        more = more.union(OBJECT);
    }
    if unit_variants(schema).is_some() {
        more = more.union(OBJECT);
    }
    if map.contains_key("uniqueItems") {
        more = more.union(ARRAY);
    }
    // An `f32` reads any number (as infinity beyond its range); its closed
    // schema is bounded where that starts ([`crate::integer_bounds`]).
    if crate::integer_bounds::is_f32(map) {
        more = more.union(TypeSet::only(JsonType::Number));
    }
    if let Some((target, definition)) = resolve(root, map) {
        more = more.union(match memo.get(&target) {
            Some(Some(known)) => *known,
            // A cycle: whatever it reads, in a container.
            Some(None) => CONTAINERS,
            None => {
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
pub(super) type Memo = HashMap<String, Option<TypeSet>>;

/// Whether some value may be taken both by `earlier` read the serde way
/// (in `raw`) and by `later` (in `closed`). `false` only when they provably
/// share none.
pub(super) fn may_share(raw: &Value, earlier: &Value, closed: &Value, later: &Value) -> bool {
    let common = types(raw, earlier, true).intersect(types(closed, later, false));
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
    let required = required_names(raw, earlier, &mut HashSet::new());
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
    if sequence.least == 0 || types(raw, definition, false).contains(JsonType::Array) {
        return true;
    }
    let first = &definition["properties"][&sequence.fields[0]];
    let later = bare_target(closed, later).unwrap_or(later);
    let later_first = later
        .get("prefixItems")
        .and_then(|items| items.get(0))
        .or_else(|| later.get("items"));
    match later_first {
        Some(item) => !types(raw, first, true)
            .intersect(types(closed, item, false))
            .is_empty(),
        None => true,
    }
}

/// The JSON types `schema` (in `root`) may take, all where unknown;
/// `read`: as serde reads it, a struct definition from an array too.
pub(super) fn types(root: &Value, schema: &Value, read: bool) -> TypeSet {
    Types {
        root,
        read,
        memo: Memo::new(),
    }
    .of(schema, 0)
}

/// [`types`]' walk, with what each definition takes kept: a union of
/// branches that reach the same definition (a recursive enum) is walked once
/// per definition, not once per path.
struct Types<'r> {
    root: &'r Value,
    read: bool,
    /// Definition pointer → what it takes; `None` while it is walked.
    memo: Memo,
}

impl Types<'_> {
    fn of(&mut self, schema: &Value, depth: usize) -> TypeSet {
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(false) => return TypeSet::EMPTY,
            _ => return TypeSet::ALL,
        };
        if depth > MAX_HOPS {
            return TypeSet::ALL;
        }
        if self.read && unit_variants(schema).is_some() {
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
        if let Some((target, definition)) = resolve(self.root, map) {
            let target_takes = match self.memo.get(&target) {
                Some(Some(known)) => *known,
                // A cycle: anything, as far as this walk can tell.
                Some(None) => TypeSet::ALL,
                None => {
                    self.memo.insert(target.clone(), None);
                    let mut found = self.of(definition, depth + 1);
                    if self.read && (Sequence::of(definition).is_some() || is_tagged(definition)) {
                        found = found.union(ARRAY);
                    }
                    self.memo.insert(target, Some(found));
                    found
                }
            };
            taken = taken.intersect(target_takes);
        }
        for union in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(union) {
                let mut either = TypeSet::EMPTY;
                for branch in branches {
                    either = either.union(self.of(branch, depth + 1));
                }
                taken = taken.intersect(either);
            }
        }
        if let Some(Value::Array(parts)) = map.get("allOf") {
            for part in parts {
                taken = taken.intersect(self.of(part, depth + 1));
            }
        }
        taken
    }
}

/// The members `schema` requires of an object, through `$ref` and `allOf`
/// (each definition once).
fn required_names(root: &Value, schema: &Value, seen: &mut HashSet<String>) -> Vec<String> {
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
    if let Some((target, definition)) = resolve(root, map)
        && seen.insert(target)
    {
        names.extend(required_names(root, definition, seen));
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        for part in parts {
            names.extend(required_names(root, part, seen));
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
