//! `#[serde(deny_unknown_fields)]` inside a flattened enum: what serde
//! offers the denying type, and what it refuses.
//!
//! serde reads an untagged or internally tagged enum flattened into a
//! struct from a buffer of every member its struct did not take: not the
//! struct's own fields (nor those of the structs around it), not those the
//! flattened structs before the enum took, but every other member, those
//! the flattened fields *after* it read included. A variant that denies
//! unknown fields (a struct variant of an enum that denies them, a newtype
//! variant around a struct that does) refuses every member of that buffer
//! it does not read. An untagged enum then tries its next variant: one
//! that ignores the rest is read, and what the first variant's members
//! held is dropped without a word.
//!
//! schemars writes a flattened type with its `additionalProperties: false`
//! taken off (the object flattening it decides what else it takes), and an
//! untagged newtype variant as a reference to its type's definition, which
//! keeps it and so refuses every member of the object, the struct's own
//! included, which serde never offers the variant. Neither says the rule.
//!
//! So each such branch, found where the derive flattens the enum
//! ([`mark`], before any annotation changes what schemars wrote), is marked
//! with the names serde does not offer it ([`Annotator::claimed`]); once
//! the document is whole ([`restore`]), the branch (a copy of the
//! definition, for a reference) takes only the names it declares itself
//! and those: `"propertyNames": {"enum": [...]}`. The keyword constrains
//! names only, so the members stay evaluated where they are declared, and
//! a validator built from the JSON alone reads it as this crate does.
//!
//! Known from the enum's own schema: a branch schemars wrote closed before
//! flattening, but for an internally tagged unit variant (its tag alone),
//! which schemars writes closed where its enum denies unknown fields and
//! serde reads from any map. A denying struct further in (below a struct
//! variant that flattens an enum of its own) is marked where that
//! struct's derive flattens it; a type that derives only `JsonSchema` has
//! no such site.

use super::annotate::{
    Annotator, EVERYTHING, Place, definition_name, place_mut, union, union_where_mut,
};
use crate::validate::flattened_read::is_buffered;
use crate::validate::flattened_wholes::declared_names;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::HashMap;

// The mark [`mark`] leaves on a denying branch: the names serde does not
// offer it. [`restore`] replaces it.
use crate::keywords::NOT_OFFERED;

/// Marks the branches of the flattened enum `F`, in the object at `place`
/// of `schema`, that deny unknown members (see the module docs). Nothing
/// where a flattened map before keeps every member (nothing is lost), nor
/// for a type serde's flattening does not buffer: an externally tagged
/// enum takes the member naming its variant, an adjacently tagged one
/// reads its tag and content by name, and a struct that flattens an enum
/// takes its own fields first (its derive marks the enum's branches where
/// it flattens it).
pub(crate) fn mark<F: JsonSchema + DeserializeOwned>(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
) {
    if !is_buffered::<F>() {
        return;
    }
    let mut not_offered: Vec<String> = annotator.claimed().to_vec();
    if not_offered.iter().any(|name| name == EVERYTHING) {
        return;
    }
    not_offered.sort_unstable();
    not_offered.dedup();
    let (own, flattened) = annotator.with_generator(|generator| {
        let own = F::_schemars_private_non_optional_json_schema(generator).to_value();
        let flattened =
            schemars::_private::json_schema_for_flatten::<F>(generator, false).to_value();
        (own, flattened)
    });
    let (Some(own), Some(written)) = (variants(&own), variants(&flattened)) else {
        return;
    };
    if own.len() != written.len() {
        return;
    }
    let denies: Vec<bool> = own
        .iter()
        .map(|branch| denies_unknown(branch, annotator))
        .collect();
    if !denies.contains(&true) {
        return;
    }
    let Some(object) = place_mut(schema, place) else {
        return;
    };
    let is_written = |_: &str, branches: &[Value]| holds(branches, written);
    let Some(branches) = union_where_mut(object, &is_written) else {
        return;
    };
    let names = Value::Array(not_offered.into_iter().map(Value::String).collect());
    for (branch, _) in branches.iter_mut().zip(&denies).filter(|(_, d)| **d) {
        if let Value::Object(branch) = branch {
            branch.insert(NOT_OFFERED.to_owned(), names.clone());
        }
    }
}

/// An enum's branches as schemars writes them ([`union`]); for the
/// flattened form of an `Option`, the union beside the empty branch
/// (`anyOf: [{"oneOf": [...]}, {}]`, or the `anyOf` with `{}` last).
fn variants(form: &Value) -> Option<&[Value]> {
    let branches = union(form)?;
    match branches.as_slice() {
        [inner, last] if says_nothing(last) && inner.as_object().is_some_and(|m| m.len() == 1) => {
            inner
                .get("oneOf")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .or(Some(branches))
        }
        [rest @ .., last] if says_nothing(last) => Some(rest),
        all => Some(all),
    }
}

/// `{}`, the empty branch schemars puts beside a flattened `Option`'s
/// union.
fn says_nothing(branch: &Value) -> bool {
    branch.as_object().is_some_and(Map::is_empty)
}

/// Whether `branches` (a union of the object) are the enum's `written`
/// ones, with the empty branch an `Option` adds after them.
fn holds(branches: &[Value], written: &[Value]) -> bool {
    branches.len() >= written.len()
        && branches[..written.len()] == *written
        && branches[written.len()..].iter().all(says_nothing)
}

/// Whether schemars wrote `branch` (of the enum's own schema, before
/// flattening) closed: `additionalProperties: false` on it, or on the
/// definition it is a reference to alone.
fn denies_unknown(branch: &Value, annotator: &mut Annotator<'_>) -> bool {
    let closed = |schema: &Value| schema.get("additionalProperties") == Some(&Value::Bool(false));
    if closed(branch) {
        // An internally tagged unit variant (its tag alone) is written
        // closed where its enum denies unknown fields, but serde reads it
        // from a map whatever else the map holds.
        return !tag_alone(branch);
    }
    let Some(map) = branch.as_object() else {
        return false;
    };
    let Some(name) = referred_alone(map) else {
        return false;
    };
    annotator.with_generator(|generator| generator.definitions().get(&name).is_some_and(closed))
}

/// The definition a schema that is a reference alone names.
fn referred_alone(schema: &Map<String, Value>) -> Option<String> {
    let reference = schema.get("$ref").and_then(Value::as_str)?;
    (schema.len() == 1).then(|| definition_name(reference))?
}

/// Whether `branch` declares only members fixed to one value: the tag of
/// an internally tagged unit variant.
fn tag_alone(branch: &Value) -> bool {
    match branch.get("properties") {
        Some(Value::Object(properties)) => properties
            .values()
            .all(|member| member.get("const").is_some()),
        _ => false,
    }
}

/// Gives every branch [`mark`] marked, anywhere in `document` (its
/// definitions included, which hold the schemas of derived types), the
/// names it may hold: those it declares and those serde does not offer
/// it. A marked reference is first replaced by a copy of the definition it
/// names, as the document now has it (its aliases declared), without the
/// closing that refused what serde never offers.
pub(crate) fn restore(document: &mut Value) {
    if !mentions(document) {
        return;
    }
    let definitions = document.get("$defs").cloned().unwrap_or(Value::Null);
    let mut beside = HashMap::new();
    composers(document, &[], &mut beside);
    let Value::Object(root) = document else {
        return;
    };
    for (keyword, child) in root.iter_mut() {
        match (keyword.as_str(), child) {
            ("$defs", Value::Object(defs)) => {
                for (name, definition) in defs.iter_mut() {
                    let beside = beside.get(name).map_or(&[][..], Vec::as_slice);
                    restore_in(definition, &definitions, beside);
                }
            }
            (_, child) => restore_in(child, &definitions, &[]),
        }
    }
}

fn mentions(node: &Value) -> bool {
    match node {
        Value::Object(map) => map.contains_key(NOT_OFFERED) || map.values().any(mentions),
        Value::Array(items) => items.iter().any(mentions),
        _ => false,
    }
}

/// The members declared on the same object as each reference to a
/// definition (the tag of an internally tagged newtype variant beside it,
/// as schemars writes it, and what the objects it is a part of declare):
/// serde reads those before the type the definition describes, which is
/// never offered them, so the branches marked in the definition let them
/// be. One definition serves every place it is used: where a member of a
/// later flattened field is declared around one of them, it is let be in
/// all (the denial is then not said there, as before it was said at all).
fn composers(node: &Value, around: &[Value], beside: &mut HashMap<String, Vec<Value>>) {
    match node {
        Value::Object(map) => {
            let mut here = around.to_vec();
            if let Some(Value::Object(properties)) = map.get("properties") {
                for member in properties.keys() {
                    let member = Value::String(member.clone());
                    if !here.contains(&member) {
                        here.push(member);
                    }
                }
            }
            let reference = map.get("$ref").and_then(Value::as_str);
            if let Some(name) = reference.and_then(definition_name) {
                let names = beside.entry(name).or_default();
                for member in &here {
                    if !names.contains(member) {
                        names.push(member.clone());
                    }
                }
            }
            for (keyword, child) in map {
                // The parts of a composition describe the same object; any
                // other subschema describes a member, an item or another
                // document part.
                let same_object = matches!(
                    keyword.as_str(),
                    "allOf" | "anyOf" | "oneOf" | "not" | "if" | "then" | "else"
                );
                match (same_object, child) {
                    (true, Value::Array(parts)) => {
                        parts.iter().for_each(|part| composers(part, &here, beside));
                    }
                    (true, part) => composers(part, &here, beside),
                    (false, child) => composers(child, &[], beside),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|child| composers(child, &[], beside)),
        _ => {}
    }
}

/// Restores the marks in `node`, a part of the definition (if any) whose
/// references declare the members `beside` next to them.
fn restore_in(node: &mut Value, definitions: &Value, beside: &[Value]) {
    match node {
        Value::Object(map) => {
            if let Some(Value::Array(mut not_offered)) = map.remove(NOT_OFFERED) {
                not_offered.extend(beside.iter().cloned());
                restore_branch(map, not_offered, definitions);
            }
            map.values_mut()
                .for_each(|child| restore_in(child, definitions, beside));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|child| restore_in(child, definitions, beside)),
        _ => {}
    }
}

fn restore_branch(branch: &mut Map<String, Value>, not_offered: Vec<Value>, definitions: &Value) {
    if let Some(name) = referred_alone(branch) {
        let Some(Value::Object(definition)) = definitions.get(&name) else {
            return;
        };
        *branch = definition.clone();
        // The copy is this branch: a mark the definition carries itself is
        // for where it is used alone (the marks inside the copy are
        // restored as this branch's parts, after it).
        branch.remove(NOT_OFFERED);
    }
    // A name pattern (a map's keys) is not a list of names: left as written.
    if branch.contains_key("patternProperties") {
        return;
    }
    if branch.get("additionalProperties") == Some(&Value::Bool(false)) {
        branch.remove("additionalProperties");
    }
    let mut names: Vec<Value> = Vec::new();
    let declared = declared_names(branch).into_iter().map(str::to_owned);
    for name in declared.map(Value::String).chain(not_offered) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    branch.insert(
        "propertyNames".to_owned(),
        serde_json::json!({ "enum": names }),
    );
}
