//! Why a declared member was reported unknown.
//!
//! A composed object closed with `unevaluatedProperties: false` sees only
//! the members of the parts that held. When the part that declares a member
//! fails and the object as a whole still holds (the empty branch of a
//! flattened `Option`, a later untagged variant), the validator's only
//! report is that the member is unevaluated, which reads as "unknown field"
//! for a field the schema declares. The reason is the declaring part's own
//! failure (`hi` missing beside `lo`, `Asc` of the wrong type), so the
//! object is validated against that part alone and its findings replace the
//! report. This runs only on a rejected call, and only for such members.

use super::describe::{Declared, declared_fields, parent_pointer};
use super::{Validator, Violation};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Deepest chain of parts followed from an object to the part that declares
/// a member.
const MAX_PARTS: usize = 16;
/// Most members explained in one call; the others keep the report the
/// validator words (a declared member "not read as sent").
const MAX_EXPLAINED: usize = 64;

/// Replaces each `unevaluatedProperties` report in `found` of a member a
/// part of its object declares (`declared`) by the findings of the
/// outermost part on the way to it that fails alone, if one does.
pub(super) fn explain_unevaluated(
    root: &Value,
    instance: &Value,
    found: &mut Vec<Violation>,
    declared: &[Declared],
) {
    let mut explained: Vec<(&str, Vec<Violation>)> = Vec::new();
    let mut alone = Alone {
        root,
        chains: HashMap::new(),
        built: HashMap::new(),
    };
    let mut reported: HashSet<&str> = found
        .iter()
        .filter(|v| v.keyword == "unevaluatedProperties")
        .map(|v| v.pointer.as_str())
        .collect();
    for member in declared {
        if explained.len() >= MAX_EXPLAINED {
            break;
        }
        // Each reported member once.
        if !reported.remove(member.pointer.as_str()) {
            continue;
        }
        let (Some(owner), Some(object)) = (
            root.pointer(&member.owner),
            instance.pointer(parent_pointer(&member.pointer)),
        ) else {
            continue;
        };
        let name = last_token(&member.pointer);
        let key = format!("{}\u{0}{name}", member.owner);
        let chain = alone.chains.entry(key.clone()).or_insert_with(|| {
            let mut chain = Vec::new();
            parts_to(root, owner, &name, &mut chain, 0);
            chain
        });
        let chain = chain.clone();
        // Outermost first: a part that fails says why (a union's failure
        // names the variant meant, or the tag that fits none). A part that
        // holds without the member (a union read as another variant), or
        // fails only by `not` (a later untagged variant an earlier one
        // reads first), means the member belongs to a variant other than
        // the one that reads the object.
        let mut other_variant = false;
        let mut why = None;
        for (i, part) in chain.iter().enumerate() {
            let at = format!("{key}\u{0}{i}");
            match alone.failures(&at, part, object) {
                None => continue,
                // Held only by a branch that declares nothing (the empty
                // branch of a flattened `Option`): the member's own branch
                // says why.
                Some(found) if found.is_empty() && alone.held_by_nothing(&at, part, object) => {
                    continue;
                }
                Some(found) if found.is_empty() || found.iter().all(|v| v.keyword == "not") => {
                    other_variant = true;
                    break;
                }
                Some(found) => {
                    why = Some(found);
                    break;
                }
            }
        }
        let object_at = parent_pointer(&member.pointer);
        if let Some(why) = why {
            let why = why
                .into_iter()
                .map(|mut v| {
                    v.pointer = format!("{object_at}{}", v.pointer);
                    v
                })
                .collect();
            explained.push((&member.pointer, why));
        } else if other_variant {
            if let Some(report) = found.iter().find(|v| v.pointer == member.pointer) {
                let mut report = report.clone();
                report.expected =
                    "only the fields of the variant that reads this object".to_owned();
                report.message = format!(
                    "field `{name}` would be dropped: it belongs to another variant than the \
                     one that reads this object"
                );
                explained.push((&member.pointer, vec![report]));
            }
        }
    }
    for (member, why) in explained {
        if let Some(at) = found
            .iter()
            .position(|v| v.pointer == member && v.keyword == "unevaluatedProperties")
        {
            found.splice(at..=at, why);
        }
    }
}

/// Pushes onto `chain` the parts of `node` that lead to one declaring
/// `name` among its own `properties`, outermost first: its `$ref`'s target
/// or `allOf` part, or its `anyOf`/`oneOf` (the union as a whole, then the
/// branch). The first such part at each level. Whether one was found.
fn parts_to(root: &Value, node: &Value, name: &str, chain: &mut Vec<Value>, depth: usize) -> bool {
    let Value::Object(map) = node else {
        return false;
    };
    if depth > MAX_PARTS {
        return false;
    }
    let declares = |part: &Value| declared_fields(root, part).iter().any(|f| f == name);
    let target = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| root.pointer(p));
    let all_of = map
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let mut found = target.into_iter().chain(all_of).find(|part| declares(part));
    if found.is_none() {
        for keyword in ["anyOf", "oneOf"] {
            let Some(branches) = map.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            if let Some(branch) = branches.iter().find(|b| declares(b)) {
                let union = serde_json::Map::from_iter([(
                    keyword.to_owned(),
                    Value::Array(branches.clone()),
                )]);
                chain.push(Value::Object(union));
                found = Some(branch);
                break;
            }
        }
    }
    let Some(part) = found else {
        return false;
    };
    chain.push(part.clone());
    let own = part.get("properties").and_then(|p| p.get(name)).is_some();
    if !own {
        parts_to(root, part, name, chain, depth + 1);
    }
    true
}

/// Validators of parts checked alone, built once per call (the members of
/// many objects of one shape go through the same parts), and the chain of
/// parts to each member name of an object schema.
struct Alone<'r> {
    root: &'r Value,
    chains: HashMap<String, Vec<Value>>,
    built: HashMap<String, Option<Validator>>,
}

impl Alone<'_> {
    /// What `part` (named `key`) alone finds wrong with `object` (nothing:
    /// it holds), or `None` when it cannot be checked alone. References
    /// resolve against the root's definitions.
    fn failures(&mut self, key: &str, part: &Value, object: &Value) -> Option<Vec<Violation>> {
        let root = self.root;
        let validator = self
            .built
            .entry(key.to_owned())
            .or_insert_with(|| {
                let mut alone = part.as_object()?.clone();
                for defs in ["$defs", "definitions"] {
                    if let Some(definitions) = root.get(defs) {
                        alone
                            .entry(defs.to_owned())
                            .or_insert_with(|| definitions.clone());
                    }
                }
                Validator::new(&Value::Object(alone)).ok()
            })
            .as_ref()?;
        Some(
            validator
                .validate(object)
                .err()
                .map_or_else(Vec::new, |v| v.0),
        )
    }

    /// Whether `part` (named `key`) is a union whose every branch that
    /// holds for `object` declares no member.
    fn held_by_nothing(&mut self, key: &str, part: &Value, object: &Value) -> bool {
        let Some(branches) = ["anyOf", "oneOf"]
            .into_iter()
            .find_map(|keyword| part.get(keyword).and_then(Value::as_array))
        else {
            return false;
        };
        branches.iter().enumerate().all(|(i, branch)| {
            declared_fields(self.root, branch).is_empty()
                || self
                    .failures(&format!("{key}\u{0}b{i}"), branch, object)
                    .is_none_or(|found| !found.is_empty())
        })
    }
}

/// The last reference token of a JSON pointer, unescaped.
fn last_token(pointer: &str) -> String {
    let token = pointer.rsplit_once('/').map_or(pointer, |(_, token)| token);
    token.replace("~1", "/").replace("~0", "~")
}
