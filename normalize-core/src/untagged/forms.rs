//! What serde reads inside an untagged enum, written as schema: the copies
//! of a branch and of the definitions it reaches that a `not` holds, with
//! the forms serde reads beyond what schemars wrote (see the module docs of
//! [`super`]).

use super::DATA;
use crate::keywords::WRITTEN_AS_INTEGER;
use crate::plan::admits_null;
use crate::plan::reference::{child_pointer, push_fragment, ref_pointer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Copies of raw schemas whose references point at copies of their targets,
/// kept in the `$defs` of the `not` at `not_at`.
pub(super) struct Readings<'r> {
    raw: &'r Value,
    not_at: &'r str,
    /// Target pointer in `raw` → name of its copy.
    names: BTreeMap<String, String>,
    pending: Vec<String>,
}

impl<'r> Readings<'r> {
    pub(super) fn new(raw: &'r Value, not_at: &'r str) -> Self {
        Readings {
            raw,
            not_at,
            names: BTreeMap::new(),
            pending: Vec::new(),
        }
    }

    pub(super) fn copy(&mut self, schema: &Value) -> Value {
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
                mark_written_as_integer(map);
                if let Some(Value::String(reference)) = map.get_mut("$ref")
                    && let Some(target) = ref_pointer(reference)
                    && self.raw.pointer(&target).is_some()
                {
                    let name = self.name(target);
                    *reference = fragment(&self.not_at_defs(&name));
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
    pub(super) fn finish(mut self) -> Map<String, Value> {
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
        also(definition, units);
        return;
    }
    if let Some(sequence) = Sequence::of(definition) {
        let array = sequence.array(&object_at(at), None, None);
        also(definition, array);
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
            let numbered = variant.get(crate::keywords::ALIAS_OF).is_none().then(|| {
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
            also(variant, units);
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
            let array = sequence.array(&object_at(&content_at), None, None);
            also(content, array);
        }
    }
}

/// Whether a definition is an internally or adjacently tagged enum.
pub(super) fn is_tagged(definition: &Value) -> bool {
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
    // A unit variant: `[tag]`, or `[tag, null]` as an adjacently tagged
    // one is written.
    let tail = unit.then(|| serde_json::json!({"type": "null"}));
    let array = sequence.array(&object_at(at), Some(named), tail);
    also(variant, array);
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
pub(super) fn unit_variants(schema: &Value) -> Option<Value> {
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
/// Marks a schema that takes integers only [`WRITTEN_AS_INTEGER`]: serde's
/// integers refuse `2.0`.
pub(crate) fn mark_written_as_integer(map: &mut Map<String, Value>) {
    if takes_integers_only(map) {
        map.insert(WRITTEN_AS_INTEGER.to_owned(), Value::Bool(true));
    }
}

fn takes_integers_only(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(name)) => name == "integer",
        Some(Value::Array(names)) => {
            names.iter().any(|n| n == "integer") && !names.iter().any(|n| n == "number")
        }
        _ => false,
    }
}

/// How serde reads a named struct from an array: its fields in order, at
/// least `least` of them.
pub(super) struct Sequence {
    pub(super) fields: Vec<String>,
    pub(super) least: usize,
}

impl Sequence {
    /// The array form of a definition that describes a struct: declared
    /// `properties`, with nothing that composes it (a flattened enum) or
    /// makes it a map.
    pub(super) fn of(definition: &Value) -> Option<Sequence> {
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
                schema.get(crate::keywords::ALIAS_OF).is_none() && Some(name.as_str()) != skip
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

    /// The array serde reads the struct from: `head` (a tag), the fields
    /// (pointing at the properties of the object schema at `object_at`),
    /// then `tail`, which may be missing too.
    fn array(&self, object_at: &str, head: Option<Value>, tail: Option<Value>) -> Value {
        let least = usize::from(head.is_some()) + self.least;
        let items: Vec<Value> = head
            .into_iter()
            .chain(
                self.fields
                    .iter()
                    .map(|name| member_reference(object_at, name)),
            )
            .chain(tail)
            .collect();
        if items.is_empty() {
            // `prefixItems` must list at least one schema.
            serde_json::json!({"type": "array", "maxItems": 0})
        } else {
            serde_json::json!({
                "type": "array",
                "prefixItems": items,
                "items": false,
                "minItems": least,
            })
        }
    }
}

/// The same-document reference to the JSON pointer `pointer`.
fn fragment(pointer: &str) -> String {
    let mut reference = String::from("#");
    push_fragment(&mut reference, pointer);
    reference
}

/// `{"$ref": ...}` to the schema of member `name` of the object schema at
/// `object_at`.
fn member_reference(object_at: &str, name: &str) -> Value {
    let at = child_pointer(&child_pointer(object_at, "properties"), name);
    serde_json::json!({ "$ref": fragment(&at) })
}

/// `schema` becomes `{"anyOf": [schema, form]}`: `form` is what serde also
/// reads.
fn also(schema: &mut Value, form: Value) {
    let written = std::mem::take(schema);
    *schema = serde_json::json!({ "anyOf": [written, form] });
}

/// Where a schema placed at `at` lands once [`also`] puts a form beside it.
fn object_at(at: &str) -> String {
    child_pointer(&child_pointer(at, "anyOf"), "0")
}
