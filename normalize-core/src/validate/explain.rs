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

use super::Violation;
use super::describe::{Declared, declared_fields, parent_pointer};
use crate::plan::reference::{definition_at, resolve, unescape_token, value_at};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Deepest chain of parts followed from an object to the part that declares
/// a member.
const MAX_PARTS: usize = 16;
/// How much checking parts alone may cost in one call, in bytes of part
/// schema checked (each check costs about its schema's size): past it, the
/// members of the objects not yet explained keep the report the validator
/// words (a declared member "not read as sent"). A few hundred checks of a
/// small enum, a few of a large one.
const BUDGET: usize = 256 * 1024;

/// A validator of a part checked alone: the crate's own (`super::Validator`),
/// named through this trait because checking a part alone explains its
/// own unevaluated members in turn.
pub(super) trait CheckAlone: Sized {
    /// Compiles a part's schema (with the definitions it reaches), or
    /// `None` where it does not compile alone.
    fn build(schema: &Value) -> Option<Self>;
    /// Every violation of `instance`, none when it holds.
    fn violations(&self, instance: &Value) -> Vec<Violation>;
}

/// Replaces each `unevaluatedProperties` report in `found` of a member a
/// part of its object declares (`declared`) by the findings of the
/// outermost part on the way to it that fails alone, if one does.
pub(super) fn explain_unevaluated<V: CheckAlone>(
    root: &Value,
    instance: &Value,
    found: &mut Vec<Violation>,
    declared: &[Declared],
) {
    let mut explained: Vec<(&str, Vec<Violation>)> = Vec::new();
    let mut alone = Alone::<V> {
        root,
        chains: HashMap::new(),
        built: HashMap::new(),
        spent: 0,
    };
    let mut reported: HashSet<&str> = found
        .iter()
        .filter(|v| v.keyword == "unevaluatedProperties")
        .map(|v| v.pointer.as_str())
        .collect();
    // What each (object, part) was found to fail by.
    let mut told: HashMap<(&str, (usize, &'static str)), Vec<Violation>> = HashMap::new();
    for member in declared {
        // Each reported member once.
        if !reported.remove(member.pointer.as_str()) {
            continue;
        }
        let (Some(owner), Some(object)) = (
            value_at(root, &member.owner),
            value_at(instance, parent_pointer(&member.pointer)),
        ) else {
            continue;
        };
        let name = last_token(&member.pointer);
        let key = format!("{}\u{0}{name}", member.owner);
        let chain = alone
            .chains
            .entry(key)
            .or_insert_with(|| {
                let mut chain = Vec::new();
                parts_to(root, owner, &name, &mut chain, 0);
                chain
            })
            .clone();
        // Outermost first: a part that fails says why (a union's failure
        // names the variant meant, or the tag that fits none). A part that
        // holds without the member (a union read as another variant), or
        // fails only by `not` (a later untagged variant an earlier one
        // reads first), means the member belongs to a variant other than
        // the one that reads the object.
        let mut other_variant = false;
        let object_at = parent_pointer(&member.pointer);
        // Another member of this object failed a part on the way: the same
        // reason (its pointers are then reported once).
        let mut why = chain
            .iter()
            .find_map(|part| told.get(&(object_at, part.key())))
            .cloned();
        for part in &chain {
            if why.is_some() || alone.spent >= BUDGET {
                break;
            }
            match alone.failures(*part, object) {
                None => continue,
                // Held only by a branch that declares nothing (the empty
                // branch of a flattened `Option`): the member's own branch
                // says why.
                Some(found) if found.is_empty() && alone.held_by_nothing(*part, object) => {
                    continue;
                }
                Some(found) if found.is_empty() || found.iter().all(|v| v.keyword == "not") => {
                    other_variant = true;
                    break;
                }
                Some(found) => {
                    let found: Vec<Violation> = found
                        .into_iter()
                        .map(|mut v| {
                            v.pointer = format!("{object_at}{}", v.pointer);
                            v
                        })
                        .collect();
                    told.insert((object_at, part.key()), found.clone());
                    why = Some(found);
                    break;
                }
            }
        }
        if let Some(why) = why {
            explained.push((&member.pointer, why));
        } else if other_variant
            && let Some(report) = found.iter().find(|v| v.pointer == member.pointer)
        {
            let mut report = report.clone();
            report.expected = "only the fields of the variant that reads this object".to_owned();
            report.message = format!(
                "field `{name}` would be dropped: it belongs to another variant than the \
                     one that reads this object"
            );
            explained.push((&member.pointer, vec![report]));
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

/// One part of an object's schema checked alone: a subschema, or the union
/// of one keyword (`anyOf`/`oneOf`) of a subschema, as a whole.
#[derive(Clone, Copy)]
enum Part<'r> {
    Schema(&'r Value),
    Union(&'static str, &'r Value),
}

impl<'r> Part<'r> {
    /// Its identity in the document (parts of many objects of one shape
    /// are the same part).
    fn key(self) -> (usize, &'static str) {
        match self {
            Part::Schema(schema) => (std::ptr::from_ref(schema) as usize, ""),
            Part::Union(keyword, schema) => (std::ptr::from_ref(schema) as usize, keyword),
        }
    }

    /// The part as a schema of its own.
    fn schema(self) -> Option<serde_json::Map<String, Value>> {
        match self {
            Part::Schema(schema) => schema.as_object().cloned(),
            Part::Union(keyword, schema) => Some(serde_json::Map::from_iter([(
                keyword.to_owned(),
                schema.get(keyword)?.clone(),
            )])),
        }
    }

    /// The branches of its union, if it is one.
    fn branches(self) -> Option<&'r Vec<Value>> {
        match self {
            Part::Schema(schema) => ["anyOf", "oneOf"]
                .into_iter()
                .find_map(|keyword| schema.get(keyword).and_then(Value::as_array)),
            Part::Union(keyword, schema) => schema.get(keyword).and_then(Value::as_array),
        }
    }
}

/// Pushes onto `chain` the parts of `node` that lead to one declaring
/// `name` among its own `properties`, outermost first: its `$ref`'s target
/// or `allOf` part, or its `anyOf`/`oneOf` (the union as a whole, then the
/// branch). The first such part at each level. Whether one was found.
fn parts_to<'r>(
    root: &'r Value,
    node: &'r Value,
    name: &str,
    chain: &mut Vec<Part<'r>>,
    depth: usize,
) -> bool {
    let Value::Object(map) = node else {
        return false;
    };
    if depth > MAX_PARTS {
        return false;
    }
    let declares = |part: &Value| declared_fields(root, part).iter().any(|f| f == name);
    let target = resolve(root, map).map(|(_, target)| target);
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
                chain.push(Part::Union(keyword, node));
                found = Some(branch);
                break;
            }
        }
    }
    let Some(part) = found else {
        return false;
    };
    chain.push(Part::Schema(part));
    let own = part.get("properties").and_then(|p| p.get(name)).is_some();
    if !own {
        parts_to(root, part, name, chain, depth + 1);
    }
    true
}

/// Validators of parts checked alone, built once per call (the members of
/// many objects of one shape go through the same parts), and the chain of
/// parts to each member name of an object schema.
struct Alone<'r, V> {
    root: &'r Value,
    chains: HashMap<String, Vec<Part<'r>>>,
    /// Each part's validator, and the size of its schema.
    built: HashMap<(usize, &'static str), Option<(V, usize)>>,
    /// Bytes of part schema checked so far.
    spent: usize,
}

impl<'r, V: CheckAlone> Alone<'r, V> {
    /// What `part` alone finds wrong with `object` (nothing: it holds), or
    /// `None` when it cannot be checked alone. References resolve against
    /// the root's definitions.
    fn failures(&mut self, part: Part<'r>, object: &Value) -> Option<Vec<Violation>> {
        let root = self.root;
        let validator = self
            .built
            .entry(part.key())
            .or_insert_with(|| {
                let mut alone = part.schema()?;
                // The definitions it reaches, not the whole document's.
                let mut reached: Vec<String> = Vec::new();
                match part {
                    Part::Schema(schema) => reach(root, schema, &mut reached),
                    Part::Union(keyword, schema) => {
                        if let Some(union) = schema.get(keyword) {
                            reach(root, union, &mut reached);
                        }
                    }
                }
                for pointer in reached {
                    let (Some((keyword, name)), Some(definition)) =
                        (definition_at(&pointer), value_at(root, &pointer))
                    else {
                        continue;
                    };
                    let slot = alone
                        .entry(keyword.to_owned())
                        .or_insert_with(|| Value::Object(serde_json::Map::new()));
                    if let Value::Object(slot) = slot {
                        slot.insert(name, definition.clone());
                    }
                }
                let alone = Value::Object(alone);
                let size = alone.to_string().len();
                V::build(&alone).map(|validator| (validator, size))
            })
            .as_ref()?;
        let (validator, size) = validator;
        self.spent += size;
        Some(validator.violations(object))
    }

    /// Whether `part` is a union whose every branch that holds for `object`
    /// declares no member.
    fn held_by_nothing(&mut self, part: Part<'r>, object: &Value) -> bool {
        let Some(branches) = part.branches() else {
            return false;
        };
        branches.iter().all(|branch| {
            declared_fields(self.root, branch).is_empty()
                || self
                    .failures(Part::Schema(branch), object)
                    .is_none_or(|found| !found.is_empty())
        })
    }
}

/// Pushes the pointer of every schema `schema` reaches through `$ref`s
/// (`/$defs/Name`), each once.
fn reach(root: &Value, schema: &Value, reached: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some((pointer, target)) = resolve(root, map)
                && !reached.contains(&pointer)
            {
                reached.push(pointer);
                reach(root, target, reached);
            }
            for (keyword, value) in map {
                if keyword != "$ref" {
                    reach(root, value, reached);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| reach(root, item, reached)),
        _ => {}
    }
}

/// The last reference token of a JSON pointer, unescaped.
fn last_token(pointer: &str) -> String {
    unescape_token(pointer.rsplit_once('/').map_or(pointer, |(_, token)| token))
}
