//! The transform itself: one pass over the original schema, writing the
//! strict schema and the tables the way back needs.

use super::rules::{Change, FORMATS, Optional, REMOVED, StrictChange, StrictError};
use crate::path::write_token;
use crate::plan::reference::{ref_pointer, unescape_token};
use crate::plan::{VERBATIM_KEYWORD, admits_null};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};

pub(super) use crate::composition::declares_object;

/// Whether making `schema` nullable needs an `anyOf` wrapper (no `type`
/// keyword to extend).
fn needs_wrap(schema: &Value) -> bool {
    match schema.as_object() {
        Some(m) => {
            ["$ref", "anyOf", "oneOf", "allOf", "const"]
                .iter()
                .any(|k| m.contains_key(*k))
                || !m.contains_key("type")
        }
        None => true,
    }
}

fn child(at: &str, segments: &[&str]) -> String {
    let mut out = at.to_owned();
    for s in segments {
        out.push('/');
        let _ = write_token(&mut out, s);
    }
    out
}

/// The transform in progress.
pub(super) struct Transform<'r> {
    /// The original schema, to resolve `$ref`s that must be inlined.
    pub(super) root: &'r Value,
    /// `$ref`s being inlined right now, as pointers (a cycle of them
    /// cannot be).
    pub(super) inlining: Vec<String>,
    pub(super) changes: Vec<StrictChange>,
    pub(super) optional: HashMap<String, Vec<Optional>>,
    pub(super) maps: HashSet<String>,
    /// Every `anyOf` written: (pointer into the strict schema, pointer into
    /// the original), in schema order.
    pub(super) unions: Vec<(String, String)>,
}

impl<'r> Transform<'r> {
    /// Whether `schema` takes `null` as a value of its own
    /// ([`admits_null`]), following local references: a field of a type
    /// whose unit variant serde writes as `null` (an untagged enum) refers
    /// to that type's definition.
    fn takes_null(&self, schema: &Value, hops: usize) -> bool {
        if admits_null(schema) {
            return true;
        }
        // Definitions that only refer on (or to themselves) end here.
        let Some(m) = schema.as_object().filter(|_| hops < 32) else {
            return false;
        };
        let through_ref = crate::plan::reference::resolve(self.root, m)
            // Siblings of the reference must take `null` too: a `type`
            // beside it decides.
            .is_some_and(|(_, target)| {
                !m.contains_key("type")
                    && !m.contains_key("const")
                    && self.takes_null(target, hops + 1)
            });
        through_ref
            || ["anyOf", "oneOf"].iter().any(|k| {
                m.get(*k)
                    .and_then(Value::as_array)
                    .is_some_and(|branches| branches.iter().any(|b| self.takes_null(b, hops + 1)))
            })
    }

    /// A transform of `root`.
    pub(super) fn new(root: &'r Value) -> Self {
        Transform {
            root,
            inlining: Vec::new(),
            changes: Vec::new(),
            optional: HashMap::new(),
            maps: HashSet::new(),
            unions: Vec::new(),
        }
    }

    pub(super) fn change(&mut self, pointer: &str, change: Change) {
        self.changes.push(StrictChange {
            pointer: pointer.to_owned(),
            change,
        });
    }

    pub(super) fn unrepresentable(pointer: &str, reason: &str) -> StrictError {
        StrictError::Unrepresentable {
            pointer: pointer.to_owned(),
            reason: reason.to_owned(),
        }
    }

    /// Transforms the schema at `src` (pointer into the original), which
    /// will sit at `out` (pointer into the strict schema).
    pub(super) fn node(
        &mut self,
        schema: &Value,
        src: &str,
        out: &str,
    ) -> Result<Value, StrictError> {
        let m = match schema {
            Value::Object(m) => m,
            Value::Bool(true) => {
                return Err(Self::unrepresentable(src, "accepts any value (free-form)"));
            }
            Value::Bool(false) => return Err(Self::unrepresentable(src, "accepts no value")),
            _ => {
                return Err(Self::unrepresentable(
                    src,
                    "a schema must be an object or a boolean",
                ));
            }
        };
        if let Some(reference) = m.get("$ref").filter(|_| m.len() > 1) {
            return self.inline(m, reference, src, out);
        }
        let is_object = declares_object(m);
        if m.contains_key("allOf")
            || (is_object && (m.contains_key("anyOf") || m.contains_key("oneOf")))
        {
            return self.compose(m, src, out);
        }
        // On an object that composes nothing, `unevaluatedProperties:
        // false` closes it exactly as `additionalProperties: false` does.
        let closed = m.get("additionalProperties") == Some(&Value::Bool(false))
            || m.get("unevaluatedProperties") == Some(&Value::Bool(false));
        if is_object && !m.contains_key("properties") {
            let one_pattern = match m.get("patternProperties") {
                Some(Value::Object(patterns)) if patterns.len() == 1 => patterns.iter().next(),
                _ => None,
            };
            match (m.get("additionalProperties"), one_pattern) {
                (Some(values @ Value::Object(_)), None) => {
                    let values_at = child(src, &["additionalProperties"]);
                    return self.map_as_pairs(m, src, out, (values, &values_at), None);
                }
                // A map whose keys match a pattern (schemars' `BTreeMap<u32, _>`):
                // pairs whose key carries the pattern.
                (_, Some((pattern, values))) if closed => {
                    let values_at = child(src, &["patternProperties", pattern]);
                    return self.map_as_pairs(m, src, out, (values, &values_at), Some(pattern));
                }
                (_, Some(_)) => {
                    return Err(Self::unrepresentable(
                        src,
                        "keys matching a pattern beside a schema for other members",
                    ));
                }
                _ if closed => {}
                _ => {
                    return Err(Self::unrepresentable(
                        src,
                        "free-form object (no declared properties)",
                    ));
                }
            }
        }
        if m.contains_key("anyOf") && m.contains_key("oneOf") {
            return Err(Self::unrepresentable(src, "both anyOf and oneOf"));
        }
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut result = Map::new();
        for (key, sub) in m {
            match key.as_str() {
                "unevaluatedProperties" if is_object && closed && sub == &Value::Bool(false) => {}
                k if REMOVED.contains(&k) => self.change(
                    src,
                    Change::Removed {
                        keyword: key.clone(),
                    },
                ),
                "format" => {
                    if sub.as_str().is_some_and(|f| FORMATS.contains(&f)) {
                        result.insert(key.clone(), sub.clone());
                    } else {
                        self.change(
                            src,
                            Change::Removed {
                                keyword: key.clone(),
                            },
                        );
                    }
                }
                "prefixItems" => return Err(Self::unrepresentable(src, "a tuple (prefixItems)")),
                "anyOf" | "oneOf" => {
                    let Value::Array(branches) = sub else {
                        return Err(Self::unrepresentable(src, "anyOf/oneOf must be a list"));
                    };
                    if key == "oneOf" {
                        self.change(src, Change::OneOfAsAnyOf);
                    }
                    let mut out_branches = Vec::with_capacity(branches.len());
                    for (i, branch) in branches.iter().enumerate() {
                        let i = i.to_string();
                        out_branches.push(self.node(
                            branch,
                            &child(src, &[key, &i]),
                            &child(out, &["anyOf", &i]),
                        )?);
                    }
                    self.unions.push((out.to_owned(), src.to_owned()));
                    result.insert("anyOf".to_owned(), Value::Array(out_branches));
                }
                "items" => {
                    if sub.is_array() {
                        return Err(Self::unrepresentable(src, "a tuple (array-form items)"));
                    }
                    result.insert(
                        key.clone(),
                        self.node(sub, &child(src, &["items"]), &child(out, &["items"]))?,
                    );
                }
                "$defs" | "definitions" => {
                    let Value::Object(defs) = sub else {
                        return Err(Self::unrepresentable(src, "definitions must be an object"));
                    };
                    let mut out_defs = Map::new();
                    for (name, def) in defs {
                        out_defs.insert(
                            name.clone(),
                            self.node(def, &child(src, &[key, name]), &child(out, &[key, name]))?,
                        );
                    }
                    result.insert(key.clone(), Value::Object(out_defs));
                }
                "$ref" => {
                    self.local_target(sub, src)?;
                    result.insert(key.clone(), sub.clone());
                }
                "properties" => {
                    let Value::Object(properties) = sub else {
                        return Err(Self::unrepresentable(src, "properties must be an object"));
                    };
                    let mut out_props = Map::new();
                    for (name, prop) in properties {
                        let prop_src = child(src, &["properties", name]);
                        let prop_out = child(out, &["properties", name]);
                        let value = if required.contains(&name.as_str()) {
                            self.node(prop, &prop_src, &prop_out)?
                        } else {
                            // `null` is kept where the declared property
                            // takes it as a value of its own (what serde
                            // writes for `None`): the strict form shows it
                            // as that value, so it means that value, even
                            // where a default other than `null` makes
                            // absence mean something else (that absence
                            // has no strict form: `encode` writes `null`).
                            let takes_null = self.takes_null(prop, 0);
                            let absent_with = if takes_null {
                                together(m, name)
                                    .into_iter()
                                    .filter(|other| {
                                        properties
                                            .get(other)
                                            .is_some_and(|p| !self.takes_null(p, 0))
                                    })
                                    .collect()
                            } else {
                                Vec::new()
                            };
                            self.optional
                                .entry(out.to_owned())
                                .or_default()
                                .push(Optional {
                                    name: name.clone(),
                                    null_is_absent: !takes_null,
                                    absent_with,
                                });
                            self.change(
                                src,
                                Change::MadeNullable {
                                    property: name.clone(),
                                },
                            );
                            if takes_null {
                                self.node(prop, &prop_src, &prop_out)?
                            } else if needs_wrap(prop) {
                                let inner =
                                    self.node(prop, &prop_src, &child(&prop_out, &["anyOf", "0"]))?;
                                self.unions.push((prop_out.clone(), prop_src.clone()));
                                json!({"anyOf": [inner, {"type": "null"}]})
                            } else {
                                let mut inner = self.node(prop, &prop_src, &prop_out)?;
                                add_null(&mut inner);
                                inner
                            }
                        };
                        out_props.insert(name.clone(), value);
                    }
                    result.insert(key.clone(), Value::Object(out_props));
                }
                "required" | "additionalProperties" if is_object => {
                    // Written below, after every property is known.
                }
                // On a schema that declares no object (closing's form of a
                // `true` branch), `additionalProperties: true` takes what
                // its absence takes: nothing to show.
                "additionalProperties" if sub == &Value::Bool(true) => {}
                // Indices into tables only the derived type's validator
                // holds: nothing for a model, nor for the strict form's own
                // validator. The restored call is checked against them.
                crate::validate::flattened_wholes::WHOLE
                | crate::validate::distinct_entries::DISTINCT => {}
                _ => {
                    result.insert(key.clone(), sub.clone());
                }
            }
        }
        if is_object {
            // A flattened map beside a flattened enum: schemars gives the
            // other members' schema as `unevaluatedProperties`. Dropped with
            // the unsupported keywords, the map would be closed away: no
            // strict call could send one of its members.
            let other_members = |keyword| match m.get(keyword) {
                Some(Value::Object(schema)) => !schema.is_empty(),
                _ => false,
            };
            if other_members("additionalProperties") || other_members("unevaluatedProperties") {
                return Err(Self::unrepresentable(
                    src,
                    "declared properties plus a schema for other members",
                ));
            }
            if !closed {
                self.change(src, Change::Closed);
            }
            let names: Vec<Value> = match result.get("properties") {
                Some(Value::Object(p)) => p.keys().cloned().map(Value::String).collect(),
                _ => {
                    result.insert("properties".to_owned(), Value::Object(Map::new()));
                    Vec::new()
                }
            };
            result.insert("required".to_owned(), Value::Array(names));
            result.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        Ok(Value::Object(result))
    }

    /// A `$ref` with sibling keywords (schemars puts a field's
    /// `description` beside the reference, and an internally tagged
    /// newtype variant's tag `properties`): strict mode takes a `$ref` only
    /// alone, so the definition is inlined and composed with the siblings
    /// (see [`Transform::compose`]), as OpenAI's SDKs inline it.
    fn inline(
        &mut self,
        m: &Map<String, Value>,
        reference: &Value,
        src: &str,
        out: &str,
    ) -> Result<Value, StrictError> {
        let target = self.local_target(reference, src)?;
        if self.inlining.contains(&target) {
            // Inlining a recursive reference would never end: keep the
            // reference alone and list the siblings as removed.
            for key in m.keys().filter(|k| *k != "$ref") {
                self.change(
                    src,
                    Change::Removed {
                        keyword: key.clone(),
                    },
                );
            }
            return Ok(json!({"$ref": reference}));
        }
        self.compose(m, src, out)
    }

    /// A map as an array of `{key, value}` pairs. `values` is the values'
    /// schema and its pointer; `key_pattern`, the pattern keys must match,
    /// if any.
    fn map_as_pairs(
        &mut self,
        m: &Map<String, Value>,
        src: &str,
        out: &str,
        (values, values_at): (&Value, &str),
        key_pattern: Option<&str>,
    ) -> Result<Value, StrictError> {
        self.change(src, Change::MapAsPairs);
        self.maps.insert(out.to_owned());
        let value = self.node(
            values,
            values_at,
            &child(out, &["items", "properties", "value"]),
        )?;
        // A key is a name, never text to decode: keys of the declared map
        // are never touched, and in pairs form a key is a string value, so
        // it carries the verbatim mark.
        let key = match key_pattern {
            Some(pattern) => json!({"type": "string", "pattern": pattern, VERBATIM_KEYWORD: true}),
            None => json!({"type": "string", VERBATIM_KEYWORD: true}),
        };
        let nullable = admits_null(&Value::Object(m.clone()));
        let mut result = Map::new();
        for (keyword, sub) in m {
            match keyword.as_str() {
                "type" | "additionalProperties" => {}
                "patternProperties" if key_pattern.is_some() => {}
                // An index into the derived validator's table (see `node`).
                crate::validate::flattened_wholes::WHOLE
                | crate::validate::distinct_entries::DISTINCT => {}
                "description" | "title" => {
                    result.insert(keyword.clone(), sub.clone());
                }
                // A verbatim map's mark (and any other annotation of ours)
                // holds for the pairs that carry the map.
                other if other.starts_with("x-") => {
                    result.insert(keyword.clone(), sub.clone());
                }
                _ => self.change(
                    src,
                    Change::Removed {
                        keyword: keyword.clone(),
                    },
                ),
            }
        }
        result.insert(
            "type".to_owned(),
            if nullable {
                json!(["array", "null"])
            } else {
                json!("array")
            },
        );
        result.insert(
            "items".to_owned(),
            json!({
                "type": "object",
                "properties": {"key": key, "value": value},
                "required": ["key", "value"],
                "additionalProperties": false
            }),
        );
        Ok(Value::Object(result))
    }
}

/// Removes the definitions nothing refers to any more (every reference to
/// them had siblings and was inlined).
pub(crate) fn prune_definitions(schema: &mut Value) {
    fn refs<'a>(value: &'a Value, skip_defs: bool, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(m) => {
                for (key, child) in m {
                    match (key.as_str(), child) {
                        ("$ref", Value::String(r)) => out.push(r),
                        ("$defs" | "definitions", _) if skip_defs => {}
                        _ => refs(child, false, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| refs(i, false, out)),
            _ => {}
        }
    }
    for key in ["$defs", "definitions"] {
        let Some(Value::Object(defs)) = schema.get(key) else {
            continue;
        };
        let pointer_prefix = format!("/{key}/");
        let mut pending = Vec::new();
        refs(schema, true, &mut pending);
        let mut used: HashSet<String> = HashSet::new();
        while let Some(reference) = pending.pop() {
            // A reference is a URI fragment: percent-decoded, then a JSON
            // pointer whose tokens escape `/` and `~`.
            let Some(name) = ref_pointer(reference)
                .as_deref()
                .and_then(|p| p.strip_prefix(&pointer_prefix))
                .map(|name| name.split('/').next().unwrap_or(name).to_owned())
            else {
                continue;
            };
            let name = unescape_token(&name);
            if let Some(def) = defs.get(&name)
                && used.insert(name)
            {
                refs(def, false, &mut pending);
            }
        }
        let Some(Value::Object(defs)) = schema.get_mut(key) else {
            continue;
        };
        defs.retain(|name, _| used.contains(name));
        if defs.is_empty() {
            schema.as_object_mut().map(|m| m.remove(key));
        }
    }
}

/// The other members `m` requires beside `name` when `name` is present:
/// the derive's `dependentSchemas` for a flattened `Option`'s members,
/// present together or not at all: `{"required": [...]}` lists those
/// without aliases, and `{"allOf": [{"anyOf": [{"required": [member]},
/// {"required": [alias]}, ...]}, ..., {"not": ...}]}` those with aliases,
/// each named here by its wire name (the strict form shows no alias).
fn together(m: &Map<String, Value>, name: &str) -> Vec<String> {
    let Some(entry) = m
        .get("dependentSchemas")
        .and_then(|d| d.get(name))
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    let is_alias = |member: &str| {
        m.get("properties")
            .and_then(|p| p.get(member))
            .is_some_and(|p| p.get(crate::keywords::ALIAS_OF).is_some())
    };
    let names = |required: &Value| -> Vec<String> {
        required
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    if entry.keys().any(|k| k != "required" && k != "allOf") {
        return Vec::new();
    }
    let plain = entry.get("required").map(names).unwrap_or_default();
    let aliased = entry
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("anyOf").and_then(Value::as_array))
        .filter_map(|alternatives| {
            alternatives
                .iter()
                .filter_map(|a| a.get("required"))
                .flat_map(names)
                .find(|member| !is_alias(member))
        });
    plain
        .into_iter()
        .chain(aliased)
        .filter(|other| other != name)
        .collect()
}

/// Adds `null` to a schema's `type` (and to its `enum`, which would
/// otherwise still refuse it).
fn add_null(schema: &mut Value) {
    let Some(m) = schema.as_object_mut() else {
        return;
    };
    match m.get_mut("type") {
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            m.insert("type".to_owned(), json!([t, "null"]));
        }
        Some(Value::Array(ts)) if !ts.iter().any(|t| t == "null") => ts.push(json!("null")),
        _ => {}
    }
    if let Some(Value::Array(values)) = m.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}
