//! Which types the clean path may read: found once per type, from the
//! contract model and the schema shown to the model.
//!
//! The clean path is sound where serde's read, watched by the observer,
//! takes exactly the calls the schema takes. That holds when the model says
//! everything serde does (no opaque or buffered part) and the schema says
//! nothing serde does not: no keyword beyond structure, or only one the
//! observer or serde's own read enforces alike (an integer type's range, an
//! `f32`'s finite range, a `char`'s single character, a tuple's length, a
//! variant's name), and each object's `required` is what serde requires.

use crate::closing::ANNOTATIONS;
use crate::contract::model::{EnumModel, Node, StructModel, Tagging, VariantContent};
use serde_json::{Map, Value};
use std::fmt;

/// Why a type's calls always take the full path.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fallback {
    /// Somewhere serde reads a value its own way, unseen by the model (a
    /// type without the derive, `with`/`deserialize_with`, `from`/
    /// `try_from`, an untagged enum, a generic type's own root), or the
    /// schema there comes from elsewhere (`#[schemars(with)]`). Where: the
    /// struct and field (or enum and variant) whose value it is, `""` at the
    /// root.
    Opaque(String),
    /// A flattened field: serde buffers the members it collects.
    Flatten,
    /// An internally or adjacently tagged enum: serde buffers the object
    /// before it knows the variant.
    BufferedEnum,
    /// A `u128`/`i128`: the checked value holds past-64-bit numbers rounded.
    WideInteger,
    /// A schema keyword serde's read does not enforce (a range, a length, a
    /// pattern, `uniqueItems` on a set, ...).
    Keyword(String),
    /// An object of the schema whose members or `required` are not a
    /// struct's of the model as serde reads it.
    Unmatched(String),
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fallback::Opaque(at) => write!(
                f,
                "a value serde reads its own way, or with a schema from elsewhere, at `{at}`"
            ),
            Fallback::Flatten => f.write_str("a flattened field"),
            Fallback::BufferedEnum => f.write_str("an internally or adjacently tagged enum"),
            Fallback::WideInteger => f.write_str("a 128-bit integer"),
            Fallback::Keyword(keyword) => write!(f, "the schema keyword `{keyword}`"),
            Fallback::Unmatched(what) => write!(f, "a schema object unlike serde's: {what}"),
        }
    }
}

/// Whether the clean path may read calls of the type whose model is `root`
/// and whose schema is `schema` (its validator's, aliases included).
pub(crate) fn check(root: &'static Node, schema: &Value) -> Result<(), Fallback> {
    let mut model = Model::default();
    model.visit(root, "")?;
    let mut walk = Walk {
        model: &model,
        result: Ok(()),
    };
    walk.schema(schema);
    walk.result
}

/// What the model holds, gathered once.
#[derive(Default)]
struct Model {
    structs: Vec<&'static StructModel>,
    enums: Vec<&'static EnumModel>,
}

impl Model {
    /// Visits `node`, found at `at` (a struct's field, an enum's variant).
    fn visit(&mut self, node: &'static Node, at: &str) -> Result<(), Fallback> {
        match node.resolve() {
            Node::Integer { .. } | Node::Scalar(_) | Node::FreeForm => Ok(()),
            Node::WideInteger => Err(Fallback::WideInteger),
            Node::Unknown => Err(Fallback::Opaque(at.to_owned())),
            Node::Option(inner) | Node::Seq(inner) | Node::Map(inner) => self.visit(inner(), at),
            Node::Tuple(nodes) => nodes.iter().try_for_each(|node| self.visit(node(), at)),
            Node::Struct(model) => self.structure(model),
            Node::Enum(model) => {
                if self.enums.iter().any(|seen| std::ptr::eq(*seen, *model)) {
                    return Ok(());
                }
                if model.tagging != Tagging::External {
                    return Err(Fallback::BufferedEnum);
                }
                self.enums.push(model);
                for variant in model.variants.iter().filter(|v| !v.skipped) {
                    let at = format!("{}::{}", model.name, variant.name);
                    match &variant.content {
                        VariantContent::Unit => {}
                        VariantContent::Newtype(node) => self.visit(node(), &at)?,
                        VariantContent::Tuple(nodes) => {
                            nodes.iter().try_for_each(|node| self.visit(node(), &at))?;
                        }
                        VariantContent::Struct(model) => self.structure(model)?,
                    }
                }
                Ok(())
            }
            // `resolve` goes through every `Same`; a new kind of node is
            // not known to be clean.
            _ => Err(Fallback::Opaque(at.to_owned())),
        }
    }

    fn structure(&mut self, model: &'static StructModel) -> Result<(), Fallback> {
        if self.structs.iter().any(|seen| std::ptr::eq(*seen, model)) {
            return Ok(());
        }
        self.structs.push(model);
        for field in model.fields.iter().filter(|f| !f.skipped) {
            if field.flatten {
                return Err(Fallback::Flatten);
            }
            self.visit((field.node)(), &format!("{}.{}", model.name, field.wire))?;
        }
        Ok(())
    }

    /// Whether serde reads `name` as a variant of an enum of the model.
    fn variant_name(&self, name: &str) -> bool {
        self.enums
            .iter()
            .any(|model| model.variants.iter().any(|v| v.named(name)))
    }

    /// Whether `values` are all names of variants the model reads.
    fn variant_names(&self, values: &[Value]) -> bool {
        values
            .iter()
            .all(|value| value.as_str().is_some_and(|name| self.variant_name(name)))
    }
}

/// A walk over every schema object, stopping at the first reason.
struct Walk<'m> {
    model: &'m Model,
    result: Result<(), Fallback>,
}

/// Keywords that say structure serde's read follows (besides the
/// annotations, `crate::closing::ANNOTATIONS`, which say nothing the
/// validator asserts).
const STRUCTURE: &[&str] = &[
    "$defs",
    "definitions",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
    crate::keywords::ALIAS_OF,
    crate::keywords::VERBATIM_KEYWORD,
];

impl Walk<'_> {
    fn refuse(&mut self, fallback: Fallback) {
        if self.result.is_ok() {
            self.result = Err(fallback);
        }
    }

    fn schema(&mut self, schema: &Value) {
        let Value::Object(map) = schema else {
            return;
        };
        for (keyword, value) in map {
            if self.result.is_err() {
                return;
            }
            match keyword.as_str() {
                "properties" | "$defs" | "definitions" => {
                    if let Value::Object(members) = value {
                        members.values().for_each(|member| self.schema(member));
                    }
                    if keyword == "properties" {
                        self.object(map);
                    }
                }
                "additionalProperties" | "items" => self.schema(value),
                "prefixItems" | "anyOf" | "oneOf" | "allOf" => {
                    if let Value::Array(branches) = value {
                        branches.iter().for_each(|branch| self.schema(branch));
                    }
                    if keyword == "prefixItems" && !fixed_length(map) {
                        self.refuse(Fallback::Keyword("prefixItems".to_owned()));
                    }
                }
                "minItems" | "maxItems" if fixed_length(map) => {}
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
                    if number_range(map, keyword, value) => {}
                "minLength" | "maxLength" if one_character(map) => {}
                "format" if number_format(value) => {}
                "enum"
                    if value
                        .as_array()
                        .is_some_and(|v| self.model.variant_names(v)) => {}
                "const" if self.model.variant_names(std::slice::from_ref(value)) => {}
                known if STRUCTURE.contains(&known) || ANNOTATIONS.contains(&known) => {}
                // Keywords of ours the validator asserts, then the rest of
                // JSON Schema's assertions; any other keyword is an
                // annotation the validator ignores.
                ours if ours.starts_with(crate::keywords::PREFIX) => {
                    self.refuse(Fallback::Keyword(ours.to_owned()));
                }
                other if is_assertion(other) => self.refuse(Fallback::Keyword(other.to_owned())),
                _ => {}
            }
        }
    }

    /// An object with `properties`: the members and `required` of a struct
    /// of the model (or the one-member object of an externally tagged
    /// variant), closed.
    fn object(&mut self, map: &Map<String, Value>) {
        let Some(Value::Object(properties)) = map.get("properties") else {
            return;
        };
        let required: Vec<&str> = match map.get("required") {
            None => Vec::new(),
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            Some(_) => return self.refuse(Fallback::Unmatched("a `required` not a list".into())),
        };
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            return self.refuse(Fallback::Unmatched("an object left open".into()));
        }
        let is_struct = self.model.structs.iter().any(|model| {
            let wire = || model.fields.iter().filter(|f| !f.skipped);
            let named = |name: &str| wire().any(|f| f.wire == name || f.aliases.contains(&name));
            properties.keys().all(|name| named(name))
                && wire().all(|f| properties.contains_key(f.wire))
                && required.iter().all(|name| wire().any(|f| f.wire == *name))
                && wire().all(|f| serde_requires(f) == required.contains(&f.wire))
        });
        let is_variant = properties.len() == 1
            && required.len() == 1
            && properties.contains_key(required[0])
            && self.model.variant_name(required[0]);
        if !is_struct && !is_variant {
            let names: Vec<&str> = properties.keys().map(String::as_str).collect();
            self.refuse(Fallback::Unmatched(format!("members {names:?}")));
        }
    }
}

/// Whether serde's derive refuses a call without this field.
fn serde_requires(field: &crate::contract::model::FieldModel) -> bool {
    !field.default && !matches!((field.node)().resolve(), Node::Option(_))
}

/// An array of a fixed length (a tuple): serde reads exactly that many.
fn fixed_length(map: &Map<String, Value>) -> bool {
    let count = map
        .get("prefixItems")
        .and_then(Value::as_array)
        .map(Vec::len);
    let closed = matches!(map.get("items"), None | Some(Value::Bool(false)));
    count.is_some()
        && closed
        && map.get("minItems").and_then(Value::as_u64) == count.map(|n| n as u64)
        && map.get("maxItems").and_then(Value::as_u64) == count.map(|n| n as u64)
}

/// A number format schemars writes for a Rust number type.
fn number_format(value: &Value) -> bool {
    value.as_str().is_some_and(|format| {
        matches!(format, "float" | "double") || crate::integer_bounds::range(format).is_some()
    })
}

/// A bound that is the number type's own range (an integer's, or the
/// finite `f32`s), which serde's read or the observer enforces.
fn number_range(map: &Map<String, Value>, keyword: &str, value: &Value) -> bool {
    let Some(format) = map.get("format").and_then(Value::as_str) else {
        return false;
    };
    if format == "float" {
        let overflow = crate::integer_bounds::F32_OVERFLOW;
        return match keyword {
            "exclusiveMinimum" => value.as_f64() == Some(-overflow),
            "exclusiveMaximum" => value.as_f64() == Some(overflow),
            _ => false,
        };
    }
    let Some((low, high)) = crate::integer_bounds::range(format) else {
        return false;
    };
    match keyword {
        "minimum" => value.as_i64() == Some(low),
        "maximum" => value.as_u64() == Some(high),
        _ => false,
    }
}

/// A `char`: a string of exactly one character, which serde's read of a
/// `char` demands too.
fn one_character(map: &Map<String, Value>) -> bool {
    map.get("minLength").and_then(Value::as_u64) == Some(1)
        && map.get("maxLength").and_then(Value::as_u64) == Some(1)
}

/// JSON Schema's assertion keywords (2020-12), besides those above.
fn is_assertion(keyword: &str) -> bool {
    matches!(
        keyword,
        "minimum"
            | "maximum"
            | "exclusiveMinimum"
            | "exclusiveMaximum"
            | "multipleOf"
            | "minLength"
            | "maxLength"
            | "pattern"
            | "format"
            | "minItems"
            | "maxItems"
            | "uniqueItems"
            | "contains"
            | "minContains"
            | "maxContains"
            | "minProperties"
            | "maxProperties"
            | "propertyNames"
            | "patternProperties"
            | "dependentRequired"
            | "dependentSchemas"
            | "dependencies"
            | "not"
            | "if"
            | "then"
            | "else"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "enum"
            | "const"
            | "$dynamicRef"
            | "$recursiveRef"
            | "contentSchema"
    )
}
