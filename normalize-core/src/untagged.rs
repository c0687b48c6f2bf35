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
//! copied unclosed, once per union (`$defs` inside the union's last `not`).
//! The union then takes a value exactly when the first branch serde reads
//! it with also takes it closed, and a value serde would read as another
//! variant than the one its members name is rejected instead of cut down.
//! The validator's report describes the branch serde reads
//! ([`crate::validate`]).
//!
//! Inside an untagged enum serde reads more than schemars writes, and a
//! reading says so:
//!
//! - an object schema without `additionalProperties` takes any other
//!   member (serde ignores it);
//! - a named struct (a definition with `properties`, or `struct Empty {}`)
//!   is also read from an array of its fields in declaration order:
//!   `#[serde(untagged)] enum Pick { Range(Range), List(Vec<u32>) }` reads
//!   `[3, 5]` as `Range { from: 3, to: 5 }`. The array holds at least the
//!   fields up to the last required one. Struct variants written inline in
//!   an untagged enum are read from objects only, as serde does;
//! - an externally tagged enum's unit variant is also read from
//!   `{"Name": null}`, and a struct variant's content from an array of its
//!   fields;
//! - an internally tagged enum's tag is also read as the variant's index
//!   (`{"t": 0}`), a unit variant's object with any other member, and the
//!   variant from `[tag, fields...]` (`[tag]` for a unit variant); an
//!   adjacently tagged enum from `[tag, content]` (`[tag, null]`), its
//!   content missing where it may be `null`. schemars writes an adjacently
//!   tagged enum like an internally tagged one whose variants each have one
//!   field of the same name, so a reading of either takes what serde reads
//!   as both;
//! - a set is read from an array with repeats (`uniqueItems` is dropped).
//!
//! One thing it reads less of: serde's integer types refuse `2.0`, which
//! JSON Schema calls an integer, so an integer in a reading (a tag index
//! too) carries `x-toolargs-written-as-integer` (checked by
//! [`crate::validate`]; another validator ignores it and refuses a little
//! more).
//!
//! A reading is added only where it can matter: the earlier branch reads
//! more than its closed form in a JSON type the later branch takes (else
//! the union already tries the closed form first), and the two can share a
//! value (not an object the later branch closes against a member the
//! earlier one requires, nor an array whose first element the earlier
//! struct's first field cannot be). `Option`'s `null` branch and unions of
//! distinct shapes are left as they are.
//!
//! Where the schema cannot say what serde reads, a reading errs toward
//! taking more, so a later branch is refused a value serde would give it:
//! a field that is not required and shows no `default` (an `Option`
//! without `#[serde(default)]`, which serde needs in an array, looks like a
//! field whose default `skip_serializing_if` kept schemars from writing); a
//! struct that flattens another, which schemars writes like one that does
//! not, and serde reads from no array; the forms of an internally and an
//! adjacently tagged enum that look alike; a map with integer keys, which
//! serde cannot read inside an untagged enum. It errs toward taking less
//! (a value serde reads as the earlier variant still passes as the later
//! one) only where the schema shows nothing at all: an internally tagged
//! newtype variant read from `[tag, inner fields...]`; a
//! `#[serde(other)]` variant, which takes any tag; an alias (of a field or
//! a variant) of a type that does not derive `ToolArgs`.

pub(crate) mod forms;
mod overlap;

use crate::integer_bounds::DATA;
use crate::plan::TypeSet;
use crate::plan::reference::child_pointer;
use forms::Readings;
use overlap::{Memo, may_share, reads_more, types};
use serde_json::{Map, Value};

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

/// Whether `schema` has a union [`order_unions`] may order (an `anyOf` of
/// variants), so a copy of it before closing is worth keeping.
pub(crate) fn has_unions(schema: &Value) -> bool {
    let mut unions = Vec::new();
    find_unions(schema, String::new(), &mut unions);
    !unions.is_empty()
}

/// The pointers of the `anyOf` keywords in `schema`, outside data and
/// `not`. A group whose branches only list `required` names (a required
/// field and its aliases) is not a union of variants.
fn find_unions(schema: &Value, at: String, out: &mut Vec<String>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::Array(branches)) = map.get("anyOf")
        && branches.len() > 1
        && !crate::alias_groups::is_alias_group(branches)
    {
        out.push(child_pointer(&at, "anyOf"));
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

fn order_union(raw: &Value, closed: &mut Value, at: &str) {
    // A branch that passes where serde's reading fails vouches for members
    // serde drops when it reads a later variant instead, one whose struct
    // ignores members it does not name: every branch before the last such
    // one refuses what serde's reading refuses and JSON Schema takes.
    let ignoring = raw
        .pointer(at)
        .and_then(Value::as_array)
        .and_then(|branches| {
            branches
                .iter()
                .rposition(|branch| ignores_members(raw, branch))
        });
    for i in 0..ignoring.unwrap_or(0) {
        as_serde_refuses_within(closed, &child_pointer(at, &i.to_string()));
    }
    let (Some(Value::Array(raw_branches)), Some(Value::Array(branches))) =
        (raw.pointer(at), closed.pointer(at))
    else {
        return;
    };
    let mut memo = Memo::new();
    let lenient: Vec<TypeSet> = raw_branches
        .iter()
        .map(|branch| reads_more(raw, branch, &mut memo, 0))
        .collect();
    let mut additions = Vec::new();
    for (j, branch) in branches.iter().enumerate().skip(1) {
        if branch == &Value::Bool(false) {
            continue;
        }
        let earlier: Vec<usize> = (0..j.min(raw_branches.len()))
            .filter(|&i| {
                !lenient[i]
                    .intersect(types(closed, branch, false))
                    .is_empty()
                    && may_share(raw, &raw_branches[i], closed, branch)
            })
            .collect();
        if !earlier.is_empty() {
            additions.push((j, earlier));
        }
    }
    // The definitions the readings reach are copied once per union, into
    // the last `not`, and the others point there.
    let Some(&(host, _)) = additions.last() else {
        return;
    };
    let host_not_at = child_pointer(&child_pointer(at, &host.to_string()), "not");
    let mut readings = Readings::new(raw, &host_not_at);
    let nots: Vec<(usize, Vec<Value>)> = additions
        .into_iter()
        .map(|(j, earlier)| {
            let any_of = earlier
                .iter()
                .map(|&i| readings.copy(&raw_branches[i]))
                .collect();
            (j, any_of)
        })
        .collect();
    let mut defs = Some(readings.finish());
    for (j, mut any_of) in nots {
        let Some(branch) = closed.pointer_mut(&child_pointer(at, &j.to_string())) else {
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
        if let Some(defs) = defs.take_if(|defs| j == host && !defs.is_empty()) {
            not.insert("$defs".to_owned(), Value::Object(defs));
        }
        branch.insert("not".to_owned(), Value::Object(not));
    }
}

/// Whether serde's reading of `branch` (as schemars wrote it, in `raw`) is a
/// struct that ignores members it does not name: an object schema, itself
/// or the definition it references, that says nothing of other members.
fn ignores_members(raw: &Value, branch: &Value) -> bool {
    let mut node = branch;
    for _ in 0..overlap::MAX_HOPS {
        let Value::Object(map) = node else {
            return false;
        };
        if map.contains_key("additionalProperties") || map.contains_key("unevaluatedProperties") {
            return false;
        }
        if map.contains_key("properties") || crate::closing::says_object(map) {
            return true;
        }
        match crate::plan::reference::resolve(raw, map) {
            Some((_, target)) => node = target,
            None => return false,
        }
    }
    false
}

/// Has every schema the schema at `pointer` in `document` holds or reaches
/// through same-document references (each reached once) refuse what serde
/// refuses and JSON Schema does not: an integer written `2.0`
/// ([`WRITTEN_AS_INTEGER`](crate::keywords::WRITTEN_AS_INTEGER)), a field
/// sent under two of its names.
fn as_serde_refuses_within(document: &mut Value, pointer: &str) {
    fn collect(
        node: &Value,
        at: String,
        document: &Value,
        seen: &mut Vec<String>,
        out: &mut Vec<String>,
    ) {
        let Value::Object(map) = node else {
            if let Value::Array(items) = node {
                for (i, item) in items.iter().enumerate() {
                    collect(
                        item,
                        child_pointer(&at, &i.to_string()),
                        document,
                        seen,
                        out,
                    );
                }
            }
            return;
        };
        out.push(at.clone());
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(crate::plan::reference::ref_pointer)
            && !seen.contains(&target)
        {
            seen.push(target.clone());
            if let Some(found) = document.pointer(&target) {
                collect(found, target, document, seen, out);
            }
        }
        for (keyword, child) in map {
            // Marked inside a `not`, an integer would let more through.
            if DATA.contains(&keyword.as_str()) || keyword == "not" {
                continue;
            }
            collect(child, child_pointer(&at, keyword), document, seen, out);
        }
    }
    let Some(node) = document.pointer(pointer) else {
        return;
    };
    let mut found = Vec::new();
    collect(
        node,
        pointer.to_owned(),
        document,
        &mut Vec::new(),
        &mut found,
    );
    for at in found {
        if let Some(Value::Object(map)) = document.pointer_mut(&at) {
            forms::mark_written_as_integer(map);
            crate::alias_groups::refuse_two_names(map);
        }
    }
}

#[cfg(test)]
mod tests;
