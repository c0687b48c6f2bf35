//! The way back: arguments valid under the strict schema turned into the
//! shape the tool declared (optional `null` removed, pairs made maps), and
//! its inverse, a declared value written in strict form.
//!
//! Both walk the strict schema beside the value. At a union they follow
//! the branch the value validates against (checked by that branch's own
//! validator, never guessed from the value's shape), so a map inside the
//! second variant of an enum is restored like one inside the first.

use super::{MAX_REF_HOPS, StrictSchema, ref_pointer};
use crate::path::write_token;
use crate::validate::Violation;
use serde_json::{Map, Value, json};

impl StrictSchema {
    /// Restores `value` (at `value_at` in the call) along `node`, the
    /// strict schema's node at `node_at`. The node is passed along with its
    /// pointer so that only a `$ref` costs a pointer lookup; the pointer
    /// keys the tables of optional properties, maps and unions.
    pub(super) fn restore_at(
        &self,
        node: &Value,
        node_at: &str,
        value: &mut Value,
        value_at: &mut String,
        violations: &mut Vec<Violation>,
        hops: usize,
    ) {
        let Some(node) = node.as_object() else {
            return;
        };
        if let Some(Value::String(reference)) = node.get("$ref") {
            if hops < MAX_REF_HOPS
                && let Some(target) = ref_pointer(reference)
                && let Some(next) = self.schema.pointer(&target)
            {
                self.restore_at(next, &target, value, value_at, violations, hops + 1);
            }
            return;
        }
        if let Some(Value::Array(branches)) = node.get("anyOf") {
            if value.is_null() {
                return;
            }
            // Branches whose `type` or `const`/`enum` excludes the value
            // cannot be the one it validated against; when a single branch
            // is left (an optional's `anyOf: [S, null]`), it is that one
            // without validating again, since the value is valid here.
            let mut candidates = (0..branches.len()).filter(|&i| may_hold(&branches[i], value));
            let chosen = match (candidates.next(), candidates.next()) {
                (Some(only), None) => Some(only),
                (None, _) => None,
                (Some(_), Some(_)) => self.branches.first_valid(node_at, value),
            };
            if let Some(i) = chosen {
                self.restore_at(
                    &branches[i],
                    &format!("{node_at}/anyOf/{i}"),
                    value,
                    value_at,
                    violations,
                    hops + 1,
                );
            }
            return;
        }
        if self.maps.contains(node_at) {
            if let Value::Array(pairs) = value {
                let value_node = format!("{node_at}/items/properties/value");
                let value_schema = node_value(node, &["items", "properties", "value"]);
                let mut map = Map::new();
                for (i, pair) in std::mem::take(pairs).into_iter().enumerate() {
                    let Value::Object(mut pair) = pair else {
                        continue;
                    };
                    let (Some(Value::String(key)), Some(mut item)) =
                        (pair.remove("key"), pair.remove("value"))
                    else {
                        continue;
                    };
                    let len = value_at.len();
                    value_at.push_str(&format!("/{i}/value"));
                    self.restore_at(
                        value_schema,
                        &value_node,
                        &mut item,
                        value_at,
                        violations,
                        0,
                    );
                    value_at.truncate(len);
                    if map.contains_key(&key) {
                        violations.push(Violation {
                            pointer: format!("{value_at}/{i}/key"),
                            keyword: "uniqueKeys".to_owned(),
                            expected: "a key not used by an earlier pair".to_owned(),
                            found: format!("string {}", Value::String(key.clone())),
                            message: format!(
                                "the key {} appears more than once",
                                Value::String(key.clone())
                            ),
                        });
                        continue;
                    }
                    map.insert(key, item);
                }
                *value = Value::Object(map);
            }
            return;
        }
        match value {
            Value::Object(members) => {
                if let Some(optional) = self.optional.get(node_at) {
                    // A `null` stands for absence, or is a value of its own
                    // (an untagged unit variant) unless its group is absent
                    // (a member that takes no `null` is missing or `null`).
                    let absent: Vec<&str> = optional
                        .iter()
                        .filter(|o| members.get(&o.name).is_some_and(Value::is_null))
                        .filter(|o| {
                            o.null_is_absent
                                || o.absent_with
                                    .iter()
                                    .any(|other| members.get(other).is_none_or(Value::is_null))
                        })
                        .map(|o| o.name.as_str())
                        .collect();
                    for name in absent {
                        members.remove(name);
                    }
                }
                if let Some(Value::Object(properties)) = node.get("properties") {
                    for (key, member) in members.iter_mut() {
                        let Some(property) = properties.get(key) else {
                            continue;
                        };
                        let mut child = format!("{node_at}/properties/");
                        let _ = write_token(&mut child, key);
                        let len = value_at.len();
                        value_at.push('/');
                        let _ = write_token(value_at, key);
                        self.restore_at(property, &child, member, value_at, violations, 0);
                        value_at.truncate(len);
                    }
                }
            }
            Value::Array(items) => {
                let Some(item_schema) = node.get("items") else {
                    return;
                };
                let child = format!("{node_at}/items");
                for (i, item) in items.iter_mut().enumerate() {
                    let len = value_at.len();
                    value_at.push_str(&format!("/{i}"));
                    self.restore_at(item_schema, &child, item, value_at, violations, 0);
                    value_at.truncate(len);
                }
            }
            _ => {}
        }
    }

    /// `value` (declared shape) written in the strict form of the node at
    /// `node_at`.
    pub(super) fn encode_at(
        &self,
        node: &Value,
        node_at: &str,
        value: &Value,
        hops: usize,
    ) -> Value {
        let Some(node) = node.as_object() else {
            return value.clone();
        };
        if let Some(Value::String(reference)) = node.get("$ref") {
            let target = ref_pointer(reference).filter(|_| hops < MAX_REF_HOPS);
            return match target
                .as_deref()
                .and_then(|t| Some((t, self.schema.pointer(t)?)))
            {
                Some((target, next)) => self.encode_at(next, target, value, hops + 1),
                None => value.clone(),
            };
        }
        if let Some(Value::Array(branches)) = node.get("anyOf") {
            if value.is_null() {
                return Value::Null;
            }
            // The first branch whose strict form of the value validates and
            // is restored along that same branch (no earlier branch takes
            // it). Failing that (a value two branches cannot tell apart,
            // such as an empty map beside a list), the first strict form
            // that validates at all; failing that, the first branch's.
            let mut accepted = None;
            let mut first = None;
            for (i, branch) in branches.iter().enumerate() {
                let encoded =
                    self.encode_at(branch, &format!("{node_at}/anyOf/{i}"), value, hops + 1);
                match self.branches.first_valid(node_at, &encoded) {
                    Some(j) if j == i => return encoded,
                    Some(_) if self.branches.accepts(node_at, i, &encoded) => {
                        accepted.get_or_insert(encoded);
                    }
                    _ => {
                        first.get_or_insert(encoded);
                    }
                }
            }
            return accepted.or(first).unwrap_or_else(|| value.clone());
        }
        if self.maps.contains(node_at) {
            let Value::Object(map) = value else {
                return value.clone();
            };
            let value_node = format!("{node_at}/items/properties/value");
            let value_schema = node_value(node, &["items", "properties", "value"]);
            return Value::Array(
                map.iter()
                    .map(|(key, item)| {
                        let item = self.encode_at(value_schema, &value_node, item, 0);
                        json!({"key": key, "value": item})
                    })
                    .collect(),
            );
        }
        match value {
            Value::Object(members) => {
                let properties = node.get("properties").and_then(Value::as_object);
                let mut out = Map::new();
                for (key, member) in members {
                    let encoded = match properties.and_then(|p| p.get(key)) {
                        Some(property) => {
                            let mut child = format!("{node_at}/properties/");
                            let _ = write_token(&mut child, key);
                            self.encode_at(property, &child, member, 0)
                        }
                        None => member.clone(),
                    };
                    out.insert(key.clone(), encoded);
                }
                for optional in self.optional.get(node_at).into_iter().flatten() {
                    if !out.contains_key(&optional.name) {
                        out.insert(optional.name.clone(), Value::Null);
                    }
                }
                Value::Object(out)
            }
            Value::Array(items) => match node.get("items") {
                Some(item_schema) => {
                    let child = format!("{node_at}/items");
                    Value::Array(
                        items
                            .iter()
                            .map(|item| self.encode_at(item_schema, &child, item, 0))
                            .collect(),
                    )
                }
                None => value.clone(),
            },
            _ => value.clone(),
        }
    }
}

/// Whether `branch` can hold `value` as far as its own `type`, `const` and
/// `enum` say (a `$ref` or a branch without them may hold anything). Never
/// excludes a branch the value validates against.
fn may_hold(branch: &Value, value: &Value) -> bool {
    let Some(node) = branch.as_object() else {
        return true;
    };
    if let Some(constant) = node.get("const") {
        return constant == value;
    }
    if let Some(Value::Array(allowed)) = node.get("enum") {
        return allowed.contains(value);
    }
    let admits = |t: &Value| match (t.as_str(), value) {
        (Some("null"), Value::Null)
        | (Some("boolean"), Value::Bool(_))
        | (Some("string"), Value::String(_))
        | (Some("object"), Value::Object(_))
        | (Some("array"), Value::Array(_))
        | (Some("number" | "integer"), Value::Number(_)) => true,
        (Some(_), _) => false,
        (None, _) => true,
    };
    match node.get("type") {
        Some(Value::Array(types)) => types.iter().any(admits),
        Some(t @ Value::String(_)) => admits(t),
        _ => true,
    }
}

/// The subschema at `path` below `node` (`Null`, which restores and encodes
/// nothing, where it is missing).
fn node_value<'a>(node: &'a Map<String, Value>, path: &[&str]) -> &'a Value {
    static MISSING: Value = Value::Null;
    let mut at = node.get(path[0]);
    for key in &path[1..] {
        at = at.and_then(|v| v.get(key));
    }
    at.unwrap_or(&MISSING)
}
