//! The way back: arguments valid under the strict schema turned into the
//! shape the tool declared (optional `null` removed, pairs made maps).

use super::{MAX_REF_HOPS, StrictSchema};
use crate::path::write_token;
use crate::validate::Violation;
use serde_json::{Map, Value};

impl StrictSchema {
    pub(super) fn restore_at(
        &self,
        node_at: &str,
        value: &mut Value,
        value_at: &mut String,
        violations: &mut Vec<Violation>,
        hops: usize,
    ) {
        let Some(node) = self.schema.pointer(node_at).and_then(Value::as_object) else {
            return;
        };
        if let Some(Value::String(reference)) = node.get("$ref") {
            if hops < MAX_REF_HOPS {
                if let Some(target) = reference.strip_prefix('#') {
                    self.restore_at(target, value, value_at, violations, hops + 1);
                }
            }
            return;
        }
        if let Some(Value::Array(branches)) = node.get("anyOf") {
            if value.is_null() {
                return;
            }
            let chosen = (0..branches.len())
                .find(|&i| self.admits(&format!("{node_at}/anyOf/{i}"), value, 0));
            if let Some(i) = chosen {
                self.restore_at(
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
                    self.restore_at(&value_node, &mut item, value_at, violations, 0);
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
                    members.retain(|k, v| !(v.is_null() && optional.iter().any(|o| o == k)));
                }
                if node.get("properties").is_some_and(Value::is_object) {
                    for (key, member) in members.iter_mut() {
                        let mut child = format!("{node_at}/properties/");
                        let _ = write_token(&mut child, key);
                        let len = value_at.len();
                        value_at.push('/');
                        let _ = write_token(value_at, key);
                        self.restore_at(&child, member, value_at, violations, 0);
                        value_at.truncate(len);
                    }
                }
            }
            Value::Array(items) if node.contains_key("items") => {
                let child = format!("{node_at}/items");
                for (i, item) in items.iter_mut().enumerate() {
                    let len = value_at.len();
                    value_at.push_str(&format!("/{i}"));
                    self.restore_at(&child, item, value_at, violations, 0);
                    value_at.truncate(len);
                }
            }
            _ => {}
        }
    }

    /// Whether the branch at `node_at` can hold `value`: its type admits the
    /// value's shape and none of its `const`/`enum` properties (a union's
    /// tag) contradicts the value.
    fn admits(&self, node_at: &str, value: &Value, hops: usize) -> bool {
        let Some(node) = self.schema.pointer(node_at).and_then(Value::as_object) else {
            return true;
        };
        if let Some(Value::String(reference)) = node.get("$ref") {
            return match reference.strip_prefix('#') {
                Some(target) if hops < MAX_REF_HOPS => self.admits(target, value, hops + 1),
                _ => true,
            };
        }
        if let Some(Value::Array(branches)) = node.get("anyOf") {
            return (0..branches.len())
                .any(|i| self.admits(&format!("{node_at}/anyOf/{i}"), value, hops + 1));
        }
        if let Some(allowed) = node.get("enum").and_then(Value::as_array) {
            return allowed.contains(value);
        }
        if let Some(constant) = node.get("const") {
            return constant == value;
        }
        if let Some(types) = node.get("type") {
            let names: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let fits = names.iter().any(|t| match (*t, value) {
                ("null", Value::Null)
                | ("boolean", Value::Bool(_))
                | ("string", Value::String(_)) => true,
                ("object", Value::Object(_))
                | ("array", Value::Array(_))
                | ("number", Value::Number(_)) => true,
                ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
                _ => false,
            });
            if !fits {
                return false;
            }
        }
        if let (Value::Object(members), Some(Value::Object(properties))) =
            (value, node.get("properties"))
        {
            for (key, sub) in properties {
                let tag = sub
                    .get("const")
                    .map(std::slice::from_ref)
                    .or_else(|| sub.get("enum").and_then(Value::as_array).map(Vec::as_slice));
                if let (Some(allowed), Some(member)) = (tag, members.get(key)) {
                    if !allowed.contains(member) {
                        return false;
                    }
                }
            }
        }
        true
    }
}
