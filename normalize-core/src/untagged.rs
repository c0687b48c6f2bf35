//! Untagged unions taken in serde's order.
//!
//! serde reads an untagged enum by trying its variants in declaration order
//! and keeping the first one that deserializes, and a struct variant ignores
//! members it does not declare (unless it denies unknown fields). A closed
//! schema's `anyOf` takes a value when any branch takes it. The two part
//! when an earlier variant reads, loosely, a value only a later branch takes
//! closed: `#[serde(untagged)] enum Span { Start { from }, Both { from, to } }`
//! validates `{"from": 1, "to": 2}` as `Both`, and serde returns
//! `Start { from: 1 }`, with `to` silently gone.
//!
//! So each branch an earlier branch's serde reading may take gets
//! `not: {"anyOf": [readings]}`. A *reading* is the earlier branch as
//! schemars wrote it, before closing (open where serde is lenient, closed
//! where the type denies unknown fields), with the definitions it reaches
//! copied beside it unclosed (`$defs` inside the `not`). The union then takes
//! a value exactly when the first branch serde reads it with also takes it
//! closed, and a value serde would read as another variant than the one its
//! members name is rejected instead of cut down. The validator's report
//! describes the branch serde reads ([`crate::validate`]).
//!
//! A reading is added only where it can matter: the earlier branch reaches
//! an open object (otherwise its reading takes no more than its closed form,
//! which the union already tries first) and the two branches can share a
//! value (a JSON type in common, and not an object the later branch closes
//! against a member the earlier one requires). `Option`'s `null` branch and
//! unions of distinct shapes are left as they are.
//!
//! serde also reads a struct from a JSON array of its fields in order; a
//! reading does not include that form (the schema declares no array there),
//! so an array an earlier struct variant would take positionally is not
//! refused on that account.

use crate::plan::reference::{child_pointer, push_fragment, ref_pointer};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};

/// Deepest chain of `$ref`s and compositions followed from one schema.
const MAX_HOPS: usize = 64;
/// Keywords whose values are data, not schemas.
const DATA: &[&str] = &["const", "enum", "default", "examples"];

const NULL: u8 = 1;
const BOOLEAN: u8 = 1 << 1;
const OBJECT: u8 = 1 << 2;
const ARRAY: u8 = 1 << 3;
const STRING: u8 = 1 << 4;
const NUMBER: u8 = 1 << 5;
const ANY: u8 = NULL | BOOLEAN | OBJECT | ARRAY | STRING | NUMBER;

/// Adds to every `anyOf` branch of `closed` what the branches before it
/// read the serde way, taken from `raw`: the same document before
/// [`crate::closing::close_objects`] (closing only adds keywords, so both
/// have the same pointers).
pub(crate) fn order_unions(raw: &Value, closed: &mut Value) {
    let mut unions = Vec::new();
    find_unions(closed, String::new(), &mut unions);
    for at in unions {
        order_union(raw, closed, &at);
    }
}

/// The pointers of the `anyOf` keywords in `schema`, outside data and
/// `not`. A group whose branches only list `required` names (a required
/// field and its aliases) is not a union of variants.
fn find_unions(schema: &Value, at: String, out: &mut Vec<String>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        if branches.len() > 1 && !branches.iter().all(requires_only) {
            out.push(child_pointer(&at, "anyOf"));
        }
    }
    for (keyword, value) in map {
        if DATA.contains(&keyword.as_str()) || keyword == "not" {
            continue;
        }
        let base = child_pointer(&at, keyword);
        match value {
            Value::Object(children)
                if matches!(
                    keyword.as_str(),
                    "properties"
                        | "patternProperties"
                        | "$defs"
                        | "definitions"
                        | "dependentSchemas"
                ) =>
            {
                for (name, child) in children {
                    find_unions(child, child_pointer(&base, name), out);
                }
            }
            Value::Object(_) => find_unions(value, base, out),
            Value::Array(children) => {
                for (i, child) in children.iter().enumerate() {
                    find_unions(child, child_pointer(&base, &i.to_string()), out);
                }
            }
            _ => {}
        }
    }
}

fn requires_only(branch: &Value) -> bool {
    branch
        .as_object()
        .is_some_and(|map| map.len() == 1 && matches!(map.get("required"), Some(Value::Array(_))))
}

fn order_union(raw: &Value, closed: &mut Value, at: &str) {
    let (Some(Value::Array(raw_branches)), Some(Value::Array(branches))) =
        (raw.pointer(at), closed.pointer(at))
    else {
        return;
    };
    let lenient: Vec<bool> = raw_branches
        .iter()
        .map(|branch| reaches_open_object(raw, branch, &mut HashSet::new(), 0))
        .collect();
    let mut additions = Vec::new();
    for (j, branch) in branches.iter().enumerate().skip(1) {
        if branch == &Value::Bool(false) {
            continue;
        }
        let earlier: Vec<usize> = (0..j.min(raw_branches.len()))
            .filter(|&i| lenient[i] && may_share(raw, &raw_branches[i], closed, branch))
            .collect();
        if !earlier.is_empty() {
            additions.push((j, earlier));
        }
    }
    for (j, earlier) in additions {
        let branch_at = child_pointer(at, &j.to_string());
        let not_at = child_pointer(&branch_at, "not");
        let mut readings = Readings::new(raw, &not_at);
        let mut any_of: Vec<Value> = earlier
            .iter()
            .map(|&i| readings.copy(&raw_branches[i]))
            .collect();
        let defs = readings.finish();
        let Some(branch) = closed.pointer_mut(&branch_at) else {
            continue;
        };
        if branch == &Value::Bool(true) {
            *branch = Value::Object(Map::new());
        }
        let Value::Object(branch) = branch else {
            continue;
        };
        if let Some(existing) = branch.remove("not") {
            // `not: A` and `not: B` together are `not: anyOf [A, B]`.
            any_of.insert(0, existing);
        }
        let mut not = Map::new();
        not.insert("anyOf".to_owned(), Value::Array(any_of));
        if !defs.is_empty() {
            not.insert("$defs".to_owned(), Value::Object(defs));
        }
        branch.insert("not".to_owned(), Value::Object(not));
    }
}

/// Copies of raw schemas whose references point at copies of their targets,
/// kept in the `$defs` of the `not` at `not_at`.
struct Readings<'r> {
    raw: &'r Value,
    not_at: &'r str,
    /// Target pointer in `raw` → name of its copy.
    names: BTreeMap<String, String>,
    pending: Vec<String>,
}

impl<'r> Readings<'r> {
    fn new(raw: &'r Value, not_at: &'r str) -> Self {
        Readings {
            raw,
            not_at,
            names: BTreeMap::new(),
            pending: Vec::new(),
        }
    }

    fn copy(&mut self, schema: &Value) -> Value {
        let mut copy = schema.clone();
        self.redirect(&mut copy);
        copy
    }

    /// Points every reference in `schema` at the copy of its target.
    fn redirect(&mut self, schema: &mut Value) {
        match schema {
            Value::Object(map) => {
                if let Some(Value::String(reference)) = map.get_mut("$ref") {
                    if let Some(target) = ref_pointer(reference) {
                        if self.raw.pointer(&target).is_some() {
                            let name = self.name(target);
                            let mut redirected = String::from("#");
                            push_fragment(&mut redirected, &self.not_at_defs(&name));
                            *reference = redirected;
                        }
                    }
                }
                for (keyword, child) in map.iter_mut() {
                    if !DATA.contains(&keyword.as_str()) {
                        self.redirect(child);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.redirect(item)),
            _ => {}
        }
    }

    fn name(&mut self, target: String) -> String {
        let next = self.names.len().to_string();
        self.names
            .entry(target.clone())
            .or_insert_with(|| {
                self.pending.push(target);
                next
            })
            .clone()
    }

    fn not_at_defs(&self, name: &str) -> String {
        child_pointer(&child_pointer(self.not_at, "$defs"), name)
    }

    /// The copied targets, each with its own references redirected.
    fn finish(mut self) -> Map<String, Value> {
        let mut defs = Map::new();
        while let Some(target) = self.pending.pop() {
            let Some(schema) = self.raw.pointer(&target) else {
                continue;
            };
            let mut copy = schema.clone();
            if let Value::Object(map) = &mut copy {
                // The definitions a copy of a whole document reaches are
                // copied on their own.
                map.remove("$defs");
                map.remove("definitions");
            }
            self.redirect(&mut copy);
            defs.insert(self.names[&target].clone(), copy);
        }
        defs.sort_keys();
        defs
    }
}

/// Whether `schema` (in `root`), or a schema a value moves into from it,
/// is an object schema that takes members it does not declare: a struct
/// as schemars writes it, which serde reads ignoring unknown members.
fn reaches_open_object(
    root: &Value,
    schema: &Value,
    seen: &mut HashSet<String>,
    depth: usize,
) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if depth > MAX_HOPS {
        return true;
    }
    let declares = ["properties", "patternProperties", "required"]
        .iter()
        .any(|k| map.contains_key(*k));
    let says_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    if (declares || says_object)
        && !map.contains_key("additionalProperties")
        && !map.contains_key("unevaluatedProperties")
    {
        return true;
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
    {
        if seen.insert(target.clone()) {
            if let Some(target) = root.pointer(&target) {
                if reaches_open_object(root, target, seen, depth + 1) {
                    return true;
                }
            }
        }
    }
    map.iter().any(|(keyword, child)| {
        !DATA.contains(&keyword.as_str())
            && keyword != "not"
            && match child {
                Value::Object(children)
                    if matches!(
                        keyword.as_str(),
                        "properties" | "patternProperties" | "dependentSchemas"
                    ) =>
                {
                    children
                        .values()
                        .any(|c| reaches_open_object(root, c, seen, depth + 1))
                }
                Value::Object(_) => reaches_open_object(root, child, seen, depth + 1),
                Value::Array(children) => children
                    .iter()
                    .any(|c| reaches_open_object(root, c, seen, depth + 1)),
                _ => false,
            }
    })
}

/// Whether some value may be taken both by `earlier` (in `raw`) and by
/// `later` (in `closed`). `false` only when they provably share none.
fn may_share(raw: &Value, earlier: &Value, closed: &Value, later: &Value) -> bool {
    let common = types(raw, earlier, 0) & types(closed, later, 0);
    if common & !OBJECT != 0 {
        return true;
    }
    if common & OBJECT == 0 {
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

/// The JSON types `schema` may take, as bits (`ANY` where unknown).
fn types(root: &Value, schema: &Value, depth: usize) -> u8 {
    let map = match schema {
        Value::Object(map) => map,
        Value::Bool(false) => return 0,
        _ => return ANY,
    };
    if depth > MAX_HOPS {
        return ANY;
    }
    let mut taken = ANY;
    if let Some(named) = map.get("type") {
        taken &= match named {
            Value::String(name) => type_bit(name),
            Value::Array(names) => names
                .iter()
                .filter_map(Value::as_str)
                .fold(0, |bits, name| bits | type_bit(name)),
            _ => ANY,
        };
    }
    if let Some(value) = map.get("const") {
        taken &= value_bit(value);
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        taken &= values.iter().fold(0, |bits, value| bits | value_bit(value));
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        .and_then(|pointer| root.pointer(&pointer))
    {
        taken &= types(root, target, depth + 1);
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(union) {
            taken &= branches
                .iter()
                .fold(0, |bits, branch| bits | types(root, branch, depth + 1));
        }
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        for part in parts {
            taken &= types(root, part, depth + 1);
        }
    }
    taken
}

fn type_bit(name: &str) -> u8 {
    match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "object" => OBJECT,
        "array" => ARRAY,
        "string" => STRING,
        "number" | "integer" => NUMBER,
        _ => ANY,
    }
}

fn value_bit(value: &Value) -> u8 {
    match value {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::String(_) => STRING,
        Value::Number(_) => NUMBER,
    }
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
    let target = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        .and_then(|pointer| root.pointer(&pointer))?;
    let bare = map
        .keys()
        .all(|k| matches!(k.as_str(), "$ref" | "description" | "title" | "not"));
    if bare {
        closed_names(root, target, depth + 1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
