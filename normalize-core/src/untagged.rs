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

use crate::plan::reference::{child_pointer, push_fragment, ref_pointer};
use crate::validate::WRITTEN_AS_INTEGER;
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
    let mut memo = Memo::new();
    let lenient: Vec<u8> = raw_branches
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
                lenient[i] & types(closed, branch, false, 0) != 0
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

    /// Points every reference in `schema` at the copy of its target, drops
    /// `uniqueItems` (serde reads a set from an array with repeats), and has
    /// an integer refuse `2.0` (serde's integer types do; JSON Schema calls
    /// it an integer).
    fn redirect(&mut self, schema: &mut Value) {
        match schema {
            Value::Object(map) => {
                if map.get("uniqueItems").is_some_and(Value::is_boolean) {
                    map.remove("uniqueItems");
                }
                if takes_integers_only(map) {
                    map.insert(WRITTEN_AS_INTEGER.to_owned(), Value::Bool(true));
                }
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
            let name = self.names[&target].clone();
            add_serde_forms(&mut copy, &self.not_at_defs(&name));
            defs.insert(name, copy);
        }
        defs.sort_keys();
        defs
    }
}

/// Adds to a copied definition, placed at `at`, the forms serde reads it
/// from beside the one schemars wrote: a named struct from an array of its
/// fields; an externally tagged enum's unit variant from `{"Name": null}`,
/// and its struct variant's content from an array of the variant's fields.
fn add_serde_forms(definition: &mut Value, at: &str) {
    if let Some(units) = unit_variants(definition) {
        let object = std::mem::take(definition);
        *definition = serde_json::json!({ "anyOf": [object, units] });
        return;
    }
    if let Some(sequence) = Sequence::of(definition) {
        let object = std::mem::take(definition);
        *definition = sequence.beside(object, at);
        return;
    }
    let Some(Value::Array(variants)) = definition.get_mut("oneOf") else {
        return;
    };
    let variants_at = child_pointer(at, "oneOf");
    if let Some(tag) = tag_member(variants) {
        let content = content_member(variants, &tag);
        // serde numbers the variants, not their aliases (the derive's
        // copies of a variant's branch, appended after the variants).
        let mut index = 0;
        for (k, variant) in variants.iter_mut().enumerate() {
            let variant_at = child_pointer(&variants_at, &k.to_string());
            let numbered = variant.get(crate::__private::ALIAS_OF).is_none().then(|| {
                index += 1;
                index - 1
            });
            add_tagged_forms(variant, &tag, content.as_deref(), numbered, &variant_at);
        }
        return;
    }
    for (k, variant) in variants.iter_mut().enumerate() {
        let variant_at = child_pointer(&variants_at, &k.to_string());
        if let Some(units) = unit_variants(variant) {
            let unit = std::mem::take(variant);
            *variant = serde_json::json!({ "anyOf": [unit, units] });
            continue;
        }
        // `{"Name": {...}}`, one member, required, nothing else: the
        // content of a struct variant, also read from an array.
        let Some(map) = variant.as_object_mut() else {
            continue;
        };
        let only_member = map.get("additionalProperties") == Some(&Value::Bool(false))
            && matches!(map.get("required"), Some(Value::Array(names)) if names.len() == 1);
        let Some(Value::Object(members)) = map.get_mut("properties") else {
            continue;
        };
        if !only_member || members.len() != 1 {
            continue;
        }
        let Some((name, content)) = members.iter_mut().next() else {
            continue;
        };
        if let Some(sequence) = Sequence::of(content) {
            let content_at = child_pointer(&child_pointer(&variant_at, "properties"), name);
            let object = std::mem::take(content);
            *content = sequence.beside(object, &content_at);
        }
    }
}

/// Whether a definition is an internally or adjacently tagged enum.
fn is_tagged(definition: &Value) -> bool {
    matches!(definition.get("oneOf"), Some(Value::Array(variants)) if tag_member(variants).is_some())
}

/// The member every variant of an internally or adjacently tagged enum
/// fixes to its name (`{"t": {"const": "A"}}`), if there is one.
fn tag_member(variants: &[Value]) -> Option<String> {
    let first = variants.first()?.get("properties")?.as_object()?;
    let (tag, _) = first
        .iter()
        .find(|(_, schema)| schema.get("const").is_some_and(Value::is_string))?;
    variants
        .iter()
        .all(|variant| {
            variant
                .get("properties")
                .and_then(|members| members.get(tag))
                .and_then(|schema| schema.get("const"))
                .is_some_and(Value::is_string)
        })
        .then(|| tag.clone())
}

/// The forms serde reads the `index`-th variant of a tagged enum from
/// beside its object. An adjacently tagged enum's schema can be an
/// internally tagged one's (every variant with at most one field, of the
/// same name), so a reading takes what serde reads as either (`content`:
/// the member that may be an adjacently tagged content):
///
/// - the tag as the variant's name or its index (`{"t": 0, ...}`;
///   internally tagged);
/// - a member that may be `null` may be missing (serde reads it as `None`),
///   and so may the content when it is a definition;
/// - a unit variant's object with any other member (internally tagged
///   serde ignores them, even where the enum denies unknown fields);
/// - the array `[tag, fields...]` (for one field: `[tag, content]`), and
///   `[tag]` or `[tag, null]` for a unit variant.
///
/// A newtype variant of an internally tagged enum gets no array (the tag,
/// then the inner struct's fields).
fn add_tagged_forms(
    variant: &mut Value,
    tag: &str,
    content: Option<&str>,
    index: Option<usize>,
    at: &str,
) {
    let Some(map) = variant.as_object_mut() else {
        return;
    };
    let composed = map.contains_key("$ref") || map.contains_key("allOf");
    let Some(Value::Object(members)) = map.get_mut("properties") else {
        return;
    };
    let Some(name) = members
        .get(tag)
        .and_then(|schema| schema.get("const"))
        .cloned()
    else {
        return;
    };
    // An index is read as an integer only, as `2.0` is not.
    let named = match index {
        Some(index) => serde_json::json!({ "anyOf": [
            {"const": name},
            {"const": index, WRITTEN_AS_INTEGER: true},
        ]}),
        None => serde_json::json!({ "const": name }),
    };
    members.insert(tag.to_owned(), named.clone());
    let optional: Vec<String> = members
        .iter()
        .filter(|(member, schema)| {
            *member != tag
                && (admits_null(schema)
                    || (Some(member.as_str()) == content && schema.get("$ref").is_some()))
        })
        .map(|(member, _)| member.clone())
        .collect();
    let unit = !composed && members.len() == 1;
    if let Some(Value::Array(required)) = map.get_mut("required") {
        required.retain(|member| !optional.iter().any(|o| o == member));
    }
    if unit {
        map.remove("additionalProperties");
    }
    if composed {
        return;
    }
    let Some(sequence) = Sequence::of_members(map, Some(tag)) else {
        return;
    };
    let object_at = child_pointer(&child_pointer(at, "anyOf"), "0");
    let mut items = vec![named];
    items.extend(sequence.fields.iter().map(|field| {
        let mut reference = String::from("#");
        push_fragment(
            &mut reference,
            &child_pointer(&child_pointer(&object_at, "properties"), field),
        );
        serde_json::json!({ "$ref": reference })
    }));
    if unit {
        items.push(serde_json::json!({"type": "null"}));
    }
    let array = serde_json::json!({
        "type": "array",
        "prefixItems": items,
        "items": false,
        "minItems": 1 + sequence.least,
    });
    let object = std::mem::take(variant);
    *variant = serde_json::json!({ "anyOf": [object, array] });
}

/// The member that may hold an adjacently tagged enum's content: every
/// variant declares the tag and at most this one other member, and none is
/// composed (an internally tagged enum whose variants all have one field of
/// the same name looks the same).
fn content_member(variants: &[Value], tag: &str) -> Option<String> {
    let mut content: Option<&String> = None;
    for variant in variants {
        if variant.get("$ref").is_some() || variant.get("allOf").is_some() {
            return None;
        }
        let members = variant.get("properties")?.as_object()?;
        for name in members.keys().filter(|name| *name != tag) {
            match content {
                None => content = Some(name),
                Some(seen) if seen == name => {}
                Some(_) => return None,
            }
        }
    }
    content.cloned()
}

/// The `{"Name": null}` forms of a schema that lists unit variant names
/// (`{"type": "string", "enum": [...]}` or `"const"`), as serde reads an
/// externally tagged enum's unit variant inside an untagged one.
fn unit_variants(schema: &Value) -> Option<Value> {
    let map = schema.as_object()?;
    if map.get("type").and_then(Value::as_str) != Some("string") {
        return None;
    }
    let names: Vec<&str> = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(names)), _) => names.iter().filter_map(Value::as_str).collect(),
        (None, Some(Value::String(name))) => vec![name.as_str()],
        _ => return None,
    };
    let forms: Vec<Value> = names
        .into_iter()
        .map(|name| {
            serde_json::json!({
                "type": "object",
                "properties": { name: {"type": "null"} },
                "required": [name],
                "additionalProperties": false,
            })
        })
        .collect();
    Some(serde_json::json!({ "anyOf": forms }))
}

/// Whether an object schema takes integers and no other number.
fn takes_integers_only(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(name)) => name == "integer",
        Some(Value::Array(names)) => {
            names.iter().any(|n| n == "integer") && !names.iter().any(|n| n == "number")
        }
        _ => false,
    }
}

/// Whether a schema says it takes `null` (`type` or a union branch).
fn admits_null(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    let typed = match map.get("type") {
        Some(Value::String(name)) => name == "null",
        Some(Value::Array(names)) => names.iter().any(|n| n == "null"),
        _ => false,
    };
    typed
        || ["anyOf", "oneOf"].iter().any(|union| {
            matches!(map.get(*union), Some(Value::Array(branches)) if branches.iter().any(admits_null))
        })
}

/// How serde reads a named struct from an array: its fields in order, at
/// least `least` of them.
struct Sequence {
    fields: Vec<String>,
    least: usize,
}

impl Sequence {
    /// The array form of a definition that describes a struct: declared
    /// `properties`, with nothing that composes it (a flattened enum) or
    /// makes it a map.
    fn of(definition: &Value) -> Option<Sequence> {
        let map = definition.as_object()?;
        let composed = ["anyOf", "oneOf", "allOf", "patternProperties", "$ref"]
            .iter()
            .any(|k| map.contains_key(*k));
        let map_like = map
            .get("additionalProperties")
            .is_some_and(|extra| !extra.is_boolean());
        if composed || map_like {
            return None;
        }
        Sequence::of_members(map, None)
    }

    /// The fields of an object schema in order, but `skip` (a tag).
    fn of_members(map: &Map<String, Value>, skip: Option<&str>) -> Option<Sequence> {
        let none = Map::new();
        let properties = match map.get("properties") {
            Some(Value::Object(properties)) => properties,
            // `struct Empty {}`, as schemars writes it (closed where it
            // denies unknown fields).
            None if map.get("type").and_then(Value::as_str) == Some("object")
                && matches!(
                    map.get("additionalProperties"),
                    None | Some(Value::Bool(false))
                )
                && !map.contains_key("propertyNames") =>
            {
                &none
            }
            _ => return None,
        };
        let required: Vec<&str> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let fields: Vec<(&String, &Value)> = properties
            .iter()
            // A serde alias is another name for a field, not a field.
            .filter(|(name, schema)| {
                schema.get(crate::__private::ALIAS_OF).is_none() && Some(name.as_str()) != skip
            })
            .collect();
        // A container `default` fills in every missing field, a field's own
        // `default` that field. A field that is not required and shows no
        // `default` is an `Option` (which serde needs in an array) or has a
        // default schemars did not write (`skip_serializing_if` skips it):
        // the schema cannot tell, so it counts as filled (the array may be
        // shorter than serde needs; the reading refuses rather than loses).
        let filled = |name: &str| map.contains_key("default") || !required.contains(&name);
        let least = fields
            .iter()
            .rposition(|(name, _)| !filled(name))
            .map_or(0, |last| last + 1);
        Some(Sequence {
            fields: fields.into_iter().map(|(name, _)| name.clone()).collect(),
            least,
        })
    }

    /// `{"anyOf": [object, array]}`, the array's items pointing at the
    /// object's properties (`at` is where the result is placed).
    fn beside(&self, object: Value, at: &str) -> Value {
        let object_at = child_pointer(&child_pointer(at, "anyOf"), "0");
        let items: Vec<Value> = self
            .fields
            .iter()
            .map(|name| {
                let mut reference = String::from("#");
                push_fragment(
                    &mut reference,
                    &child_pointer(&child_pointer(&object_at, "properties"), name),
                );
                serde_json::json!({ "$ref": reference })
            })
            .collect();
        let array = if items.is_empty() {
            // `prefixItems` must list at least one schema.
            serde_json::json!({"type": "array", "maxItems": 0})
        } else {
            serde_json::json!({
                "type": "array",
                "prefixItems": items,
                "items": false,
                "minItems": self.least,
            })
        };
        serde_json::json!({ "anyOf": [object, array] })
    }
}

/// The definition a bare `$ref` (beside annotations at most) names.
fn bare_target<'s>(root: &'s Value, schema: &Value) -> Option<&'s Value> {
    let map = schema.as_object()?;
    let bare = map
        .keys()
        .all(|k| matches!(k.as_str(), "$ref" | "description" | "title" | "not"));
    if !bare {
        return None;
    }
    map.get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
        .and_then(|pointer| root.pointer(&pointer))
}

/// The JSON types of the values serde may read through `schema` (in
/// `root`) beyond what its closed form takes: an object where it reaches an
/// object schema that takes members it does not declare (a struct as
/// schemars writes it, which serde reads ignoring unknown members) or a
/// unit variant (`{"Name": null}`); an array where it reaches a struct
/// definition (read from its fields) or a set (read with repeats); the
/// container type around any of these.
fn reads_more(root: &Value, schema: &Value, memo: &mut Memo, depth: usize) -> u8 {
    let Value::Object(map) = schema else {
        return 0;
    };
    if depth > MAX_HOPS {
        return OBJECT | ARRAY;
    }
    let declares = ["properties", "patternProperties", "required"]
        .iter()
        .any(|k| map.contains_key(*k));
    let says_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    let mut more = 0;
    if (declares || says_object)
        && !map.contains_key("additionalProperties")
        && !map.contains_key("unevaluatedProperties")
    {
        more |= OBJECT;
    }
    if unit_variants(schema).is_some() {
        more |= OBJECT;
    }
    if map.contains_key("uniqueItems") {
        more |= ARRAY;
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_pointer)
    {
        more |= match memo.get(&target) {
            Some(Some(known)) => *known,
            // A cycle: whatever it reads, in a container.
            Some(None) => OBJECT | ARRAY,
            None => match root.pointer(&target) {
                Some(definition) => {
                    memo.insert(target.clone(), None);
                    let mut found = reads_more(root, definition, memo, depth + 1);
                    if Sequence::of(definition).is_some() {
                        found |= ARRAY;
                    }
                    if is_tagged(definition) {
                        // `[tag, ...]`, and the tag as an index.
                        found |= ARRAY | OBJECT;
                    }
                    memo.insert(target, Some(found));
                    found
                }
                None => 0,
            },
        };
    }
    for (keyword, child) in map {
        let keyword = keyword.as_str();
        let (within, level) = match keyword {
            "properties" | "patternProperties" | "dependentSchemas" => (true, OBJECT),
            "additionalProperties" | "unevaluatedProperties" => (false, OBJECT),
            "prefixItems" | "items" | "additionalItems" | "unevaluatedItems" | "contains" => {
                (false, ARRAY)
            }
            "anyOf" | "oneOf" | "allOf" | "then" | "else" => (false, 0),
            _ => continue,
        };
        let children: Vec<&Value> = match child {
            Value::Object(children) if within => children.values().collect(),
            Value::Array(children) => children.iter().collect(),
            other => vec![other],
        };
        for child in children {
            let found = reads_more(root, child, memo, depth + 1);
            if found != 0 {
                more |= if level == 0 { found } else { level };
            }
        }
    }
    more
}

/// What [`reads_more`] found for each definition; `None` while it is being
/// walked.
type Memo = std::collections::HashMap<String, Option<u8>>;

/// Whether some value may be taken both by `earlier` read the serde way
/// (in `raw`) and by `later` (in `closed`). `false` only when they provably
/// share none.
fn may_share(raw: &Value, earlier: &Value, closed: &Value, later: &Value) -> bool {
    let common = types(raw, earlier, true, 0) & types(closed, later, false, 0);
    if common & !(OBJECT | ARRAY) != 0 {
        return true;
    }
    if common & ARRAY != 0 && arrays_may_share(raw, earlier, closed, later) {
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

/// When the earlier branch takes arrays only as a struct read from its
/// fields, it shares none with the later branch's arrays if their first
/// elements share no JSON type (`enum { One(Item), Many(Vec<Item>) }`:
/// `Item`'s first field is no `Item`).
fn arrays_may_share(raw: &Value, earlier: &Value, closed: &Value, later: &Value) -> bool {
    let Some(definition) = bare_target(raw, earlier) else {
        return true;
    };
    let Some(sequence) = Sequence::of(definition) else {
        return true;
    };
    if sequence.least == 0 || types(raw, definition, false, 0) & ARRAY != 0 {
        return true;
    }
    let first = &definition["properties"][&sequence.fields[0]];
    let later = bare_target(closed, later).unwrap_or(later);
    let later_first = later
        .get("prefixItems")
        .and_then(|items| items.get(0))
        .or_else(|| later.get("items"));
    match later_first {
        Some(item) => types(raw, first, true, 0) & types(closed, item, false, 0) != 0,
        None => true,
    }
}

/// The JSON types `schema` may take, as bits (`ANY` where unknown); `read`:
/// as serde reads it, a struct definition from an array too.
fn types(root: &Value, schema: &Value, read: bool, depth: usize) -> u8 {
    let map = match schema {
        Value::Object(map) => map,
        Value::Bool(false) => return 0,
        _ => return ANY,
    };
    if depth > MAX_HOPS {
        return ANY;
    }
    if read && unit_variants(schema).is_some() {
        return STRING | OBJECT;
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
        let mut target_takes = types(root, target, read, depth + 1);
        if read && (Sequence::of(target).is_some() || is_tagged(target)) {
            target_takes |= ARRAY;
        }
        taken &= target_takes;
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(union) {
            taken &= branches.iter().fold(0, |bits, branch| {
                bits | types(root, branch, read, depth + 1)
            });
        }
    }
    if let Some(Value::Array(parts)) = map.get("allOf") {
        for part in parts {
            taken &= types(root, part, read, depth + 1);
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
    closed_names(root, bare_target(root, schema)?, depth + 1)
}

#[cfg(test)]
mod tests;
