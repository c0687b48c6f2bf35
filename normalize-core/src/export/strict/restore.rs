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
                if let Some(target) = ref_pointer(reference) {
                    self.restore_at(&target, value, value_at, violations, hops + 1);
                }
            }
            return;
        }
        if node.contains_key("anyOf") {
            if value.is_null() {
                return;
            }
            if let Some(i) = self.branches.first_valid(node_at, value) {
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
                    members.retain(|k, v| {
                        !(v.is_null() && optional.iter().any(|o| o.null_is_absent && o.name == *k))
                    });
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

    /// `value` (declared shape) written in the strict form of the node at
    /// `node_at`.
    pub(super) fn encode_at(&self, node_at: &str, value: &Value, hops: usize) -> Value {
        let Some(node) = self.schema.pointer(node_at).and_then(Value::as_object) else {
            return value.clone();
        };
        if let Some(Value::String(reference)) = node.get("$ref") {
            return match ref_pointer(reference) {
                Some(target) if hops < MAX_REF_HOPS => self.encode_at(&target, value, hops + 1),
                _ => value.clone(),
            };
        }
        if let Some(Value::Array(branches)) = node.get("anyOf") {
            if value.is_null() {
                return Value::Null;
            }
            // The first branch whose strict form of the value validates:
            // the branch restore will choose for that strict form.
            let mut first = None;
            for i in 0..branches.len() {
                let encoded = self.encode_at(&format!("{node_at}/anyOf/{i}"), value, hops + 1);
                if self.branches.accepts(node_at, i, &encoded) {
                    return encoded;
                }
                first.get_or_insert(encoded);
            }
            return first.unwrap_or_else(|| value.clone());
        }
        if self.maps.contains(node_at) {
            let Value::Object(map) = value else {
                return value.clone();
            };
            let value_node = format!("{node_at}/items/properties/value");
            return Value::Array(
                map.iter()
                    .map(|(key, item)| {
                        json!({"key": key, "value": self.encode_at(&value_node, item, 0)})
                    })
                    .collect(),
            );
        }
        match value {
            Value::Object(members) => {
                let has_properties = node.get("properties").is_some_and(Value::is_object);
                let mut out = Map::new();
                for (key, member) in members {
                    let encoded = if has_properties {
                        let mut child = format!("{node_at}/properties/");
                        let _ = write_token(&mut child, key);
                        self.encode_at(&child, member, 0)
                    } else {
                        member.clone()
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
            Value::Array(items) if node.contains_key("items") => {
                let child = format!("{node_at}/items");
                Value::Array(
                    items
                        .iter()
                        .map(|item| self.encode_at(&child, item, 0))
                        .collect(),
                )
            }
            _ => value.clone(),
        }
    }
}
