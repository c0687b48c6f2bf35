//! One validator per `anyOf` branch of the strict schema.
//!
//! Restoring a strict call must follow the branch the call actually
//! validated against: a guess from the value's shape picks the wrong branch
//! as soon as two branches share a type (an externally tagged enum whose
//! variants are all objects, an untagged enum of a list and a map written as
//! pairs), and then a map of a later branch stays a pair array. Each branch
//! is compiled as a reference into the whole strict schema, registered under
//! its own base URI, so its `$ref`s (to definitions, or `#` for recursion)
//! resolve exactly as they do when the whole schema is validated.

use super::StrictError;
use crate::path::write_token;
use crate::plan::reference::push_fragment;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// Base URI of the registered strict schema (never fetched: the registry
/// holds it).
const BASE: &str = "urn:toolargs:strict";

/// Validators for every `anyOf` node, keyed by pointer into the strict
/// schema (tokens `~`-escaped, as the restore walk writes them).
#[derive(Clone, Default)]
pub(super) struct Branches(Arc<HashMap<String, Vec<jsonschema::Validator>>>);

impl Branches {
    /// Compiles a validator for each branch of each `anyOf` in `strict`.
    pub(super) fn compile(strict: &Value) -> Result<Branches, StrictError> {
        let mut at = Vec::new();
        unions(strict, &mut String::new(), &mut at);
        if at.is_empty() {
            return Ok(Branches::default());
        }
        let invalid = |e: &dyn std::fmt::Display| StrictError::Invalid {
            message: e.to_string(),
        };
        // One registry holds the strict schema; each branch validator is a
        // reference into it, so the document is indexed once.
        let registry = jsonschema::Registry::new()
            .add(BASE, strict)
            .and_then(|builder| builder.prepare())
            .map_err(|e| invalid(&e))?;
        let mut out = HashMap::with_capacity(at.len());
        for (pointer, count) in at {
            let mut validators = Vec::with_capacity(count);
            for i in 0..count {
                let mut target = format!("{BASE}#");
                push_fragment(&mut target, &format!("{pointer}/anyOf/{i}"));
                let validator = crate::validate::validator_options()
                    .with_registry(&registry)
                    .build(&json!({"$ref": target}))
                    .map_err(|e| invalid(&e))?;
                validators.push(validator);
            }
            out.insert(pointer, validators);
        }
        Ok(Branches(Arc::new(out)))
    }

    /// The index of the first branch of the union at `pointer` that
    /// `value` validates against.
    pub(super) fn first_valid(&self, pointer: &str, value: &Value) -> Option<usize> {
        self.0
            .get(pointer)?
            .iter()
            .position(|validator| validator.is_valid(value))
    }

    /// Whether branch `i` of the union at `pointer` accepts `value`.
    pub(super) fn accepts(&self, pointer: &str, i: usize, value: &Value) -> bool {
        self.0
            .get(pointer)
            .and_then(|validators| validators.get(i))
            .is_some_and(|validator| validator.is_valid(value))
    }
}

impl PartialEq for Branches {
    /// The validators are a function of the strict schema, which
    /// [`super::StrictSchema`] compares itself.
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Branches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k, v.len())))
            .finish()
    }
}

/// Every `anyOf` in `schema`, as (pointer, number of branches).
fn unions(schema: &Value, at: &mut String, out: &mut Vec<(String, usize)>) {
    match schema {
        Value::Object(m) => {
            if let Some(Value::Array(branches)) = m.get("anyOf") {
                out.push((at.clone(), branches.len()));
            }
            walk_children(m, at, out);
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                unions(item, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

fn walk_children(m: &Map<String, Value>, at: &mut String, out: &mut Vec<(String, usize)>) {
    for (key, child) in m {
        // Only subschema positions: `enum`/`const` values are data.
        if matches!(key.as_str(), "enum" | "const" | "required" | "type") {
            continue;
        }
        let len = at.len();
        at.push('/');
        let _ = write_token(at, key);
        match key.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Value::Object(children) = child {
                    for (name, sub) in children {
                        let inner = at.len();
                        at.push('/');
                        let _ = write_token(at, name);
                        unions(sub, at, out);
                        at.truncate(inner);
                    }
                }
            }
            _ => unions(child, at, out),
        }
        at.truncate(len);
    }
}
