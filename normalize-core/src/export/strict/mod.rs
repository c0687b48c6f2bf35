//! OpenAI's strict mode: the transform of a tool's schema into the subset
//! strict mode accepts, and the way back from a strict call to the
//! arguments the tool declared.
//!
//! The rules, as OpenAI documents them for Structured Outputs and strict
//! function calling, and what this transform does for each:
//!
//! - **The root is an object** (not `anyOf`, nor an object composing a
//!   union, whose strict form would be one): otherwise
//!   [`StrictError::RootNotObject`].
//! - **`additionalProperties: false` on every object**: set everywhere; an
//!   object that was open (`true` or absent) is closed and the change listed.
//! - **Every property is required**: all are listed in `required`; a
//!   property that was optional becomes a union with `null`
//!   (`"type": [T, "null"]`, or `anyOf: [S, {"type": "null"}]` for a
//!   `$ref`, union or `const`). A call's `null` there means *absent*:
//!   [`StrictSchema::restore`] removes it before the body sees the value.
//!   Where the declared property itself admits `null` (an `Option` field),
//!   `null` is kept: it is what serde writes for `None`, the declared
//!   schema accepts it, and the strict form shows it as that value. Even
//!   with a default other than `null` (`#[serde(default = "some_5")]`),
//!   `null` means `None`, never the default: absence has no strict form
//!   there. A property is found to take `null` through its `$ref`s too (a
//!   field of an untagged enum whose unit variant serde writes as `null`).
//!   The members of a flattened `Option` are present together or not at
//!   all (the declared `dependentSchemas`): where one of them that takes no
//!   `null` is absent, a `null` of another, even one it takes as a value,
//!   means absent too.
//! - **A `$ref` stands alone**: a reference with sibling keywords (a
//!   field's `description` beside it, or an internally tagged newtype
//!   variant's tag `properties`) is replaced by the definition it names,
//!   inlined and composed with the siblings (both must hold: `properties`
//!   and `required` are merged, annotations of the siblings win). Inside
//!   its own definition (recursion), a reference is kept alone instead and
//!   its siblings are listed as removed. References are URI fragments:
//!   `#/$defs/Tag%20Args` names the definition `Tag Args` (percent-decoding,
//!   then RFC 6901 unescaping).
//! - **Composed objects are distributed**: an object with `properties` and
//!   a union (a flattened enum: `properties` beside `oneOf`), or an
//!   `allOf`, would be unsatisfiable once every object is closed, since the
//!   outer object and each branch would refuse each other's members. Its
//!   members are merged into each branch instead (`anyOf: [P ∧ B1, P ∧ B2]`,
//!   one merged object per combination of branches), and each merged object
//!   is closed ([`Change::Distributed`]). `unevaluatedProperties: false`,
//!   which closes a composed object, becomes `additionalProperties: false`
//!   on each merged object.
//! - **Only `anyOf` composes**: `oneOf` becomes `anyOf` (listed; schemars'
//!   tagged unions do not overlap, and a call is restored along the first
//!   branch it validates against, as serde tries untagged variants in
//!   order); `allOf` is merged as above when its parts agree, else the tool
//!   is unrepresentable; `not` and `if`/`then`/`else` are removed and listed.
//! - **One name per field**: a serde alias the declared schema accepts as
//!   a property of its own (marked `x-toolargs-alias-of`) is not shown, and
//!   the field is required under its wire name (see [`super::aliases`]).
//! - **Unsupported keywords are removed and listed**: `minLength`,
//!   `maxLength`, `patternProperties`, `unevaluatedProperties`,
//!   `propertyNames`, `minProperties`, `maxProperties`, `unevaluatedItems`,
//!   `contains`, `minContains`, `maxContains`, `uniqueItems`,
//!   `dependentRequired`, `dependentSchemas`, `default`, `examples`,
//!   `$schema`, `$id`, `$comment`, and any `format` outside the documented
//!   ones (`date-time`, `time`, `date`, `duration`, `email`, `hostname`,
//!   `ipv4`, `ipv6`, `uuid`), which drops schemars' `int32`, `uint64`, ... .
//!   A removed keyword is no longer shown to the model, but it is still
//!   enforced: the toolbox validates each call against the strict schema,
//!   restores it, and validates the result against the declared schema
//!   (strict changes what is shown, never what is enforced).
//! - **Maps cannot be strict** (an object whose keys are not declared). A
//!   map at the root has no strict form ([`StrictError::RootIsMap`]). A
//!   map `{"type": "object", "additionalProperties": S}` is represented as
//!   an array of `{"key": string, "value": S}` pairs, and a map whose keys
//!   match one pattern (`patternProperties: {P: S}` beside
//!   `additionalProperties: false`, schemars' `BTreeMap<u32, _>`) as pairs
//!   whose key is `{"type": "string", "pattern": P}`; [`StrictSchema::restore`]
//!   turns the pairs back into the map (a repeated key is an invalid
//!   argument). A key is marked verbatim (`x-toolargs-verbatim`): it is a
//!   string value in pairs form, but a name, never decoded, in the map; a
//!   verbatim map's own mark moves to its pairs. In a union, `[]` is also every other array branch's empty
//!   array: it restores along the first branch that takes it (an untagged
//!   `enum { List(Vec<_>), Map(BTreeMap<_, _>) }` reads it as the list),
//!   and the union is listed ([`Change::AmbiguousEmptyArray`]).
//!   A free-form object or value (`{}`, `true`, `{"type": "object"}` with
//!   no properties), declared properties beside a schema for any other
//!   member (a struct that flattens a map), and tuples (`prefixItems`)
//!   cannot be represented: [`StrictError::Unrepresentable`].

mod branches;
mod compose;
mod restore;
mod rules;
mod transform;

use crate::validate::Violations;
use branches::Branches;
pub(crate) use rules::MAX_REF_HOPS;
use rules::Optional;
pub use rules::{Change, StrictChange, StrictError};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use transform::{Transform, declares_object};

/// A schema transformed for strict mode, with what the transform changed
/// and what it needs to turn a strict call back into the declared shape.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictSchema {
    schema: Value,
    changes: Vec<StrictChange>,
    /// Object nodes (pointer into the strict schema) and their properties
    /// that were optional.
    optional: HashMap<String, Vec<Optional>>,
    /// Array nodes (pointer into the strict schema) that stand for maps.
    maps: HashSet<String>,
    /// A validator per `anyOf` branch of the strict schema, to restore a
    /// call along the branch it validated against.
    branches: Branches,
}

impl StrictSchema {
    /// Transforms `schema` for strict mode.
    ///
    /// # Errors
    ///
    /// [`StrictError`] when the root is not an object (or is a map) or
    /// something in the schema has no strict form.
    pub fn new(schema: &Value) -> Result<StrictSchema, StrictError> {
        // Strict mode makes the model write every property: a field's serde
        // aliases, declared as properties of their own so that validation
        // accepts them, are not shown; the field is shown under its wire
        // name only (the declared schema still accepts every name).
        let schema = &*super::aliases::without_aliases(schema);
        let root_is_object = schema.as_object().is_some_and(|m| {
            declares_object(m)
                && !["anyOf", "oneOf", "allOf"]
                    .iter()
                    .any(|k| m.contains_key(*k))
        });
        if !root_is_object {
            return Err(StrictError::RootNotObject);
        }
        let mut t = Transform::new(schema);
        let mut strict = t.node(schema, "", "")?;
        if strict.get("type").and_then(Value::as_str) != Some("object") {
            return Err(if t.maps.contains("") {
                StrictError::RootIsMap
            } else {
                StrictError::RootNotObject
            });
        }
        prune_definitions(&mut strict);
        let branches = Branches::compile(&strict)?;
        let mut strict = StrictSchema {
            schema: strict,
            changes: t.changes,
            optional: t.optional,
            maps: t.maps,
            branches,
        };
        for (at, src) in t.unions {
            if strict.empty_array_is_ambiguous(&at) {
                strict.changes.push(StrictChange {
                    pointer: src,
                    change: Change::AmbiguousEmptyArray,
                });
            }
        }
        Ok(strict)
    }

    /// Whether two branches of the union at `at` take `[]` and one of them
    /// is a map's pairs (they restore it differently).
    fn empty_array_is_ambiguous(&self, at: &str) -> bool {
        let Some(Value::Array(branches)) = self.schema.pointer(at).and_then(|u| u.get("anyOf"))
        else {
            return false;
        };
        let empty = Value::Array(Vec::new());
        let takers: Vec<usize> = (0..branches.len())
            .filter(|&i| self.branches.accepts(at, i, &empty))
            .collect();
        takers.len() > 1
            && takers
                .iter()
                .any(|i| self.is_map(&format!("{at}/anyOf/{i}"), 0))
    }

    /// Whether the node at `at` (following bare `$ref`s) is a map's pairs.
    fn is_map(&self, at: &str, hops: usize) -> bool {
        if self.maps.contains(at) {
            return true;
        }
        let reference = self.schema.pointer(at).and_then(|n| n.get("$ref"));
        match reference.and_then(Value::as_str).and_then(ref_pointer) {
            Some(target) if hops < MAX_REF_HOPS => self.is_map(&target, hops + 1),
            _ => false,
        }
    }

    /// The strict schema: what the model is shown and calls are validated
    /// against.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Everything the transform changed, in schema order.
    pub fn changes(&self) -> &[StrictChange] {
        &self.changes
    }

    /// The keywords removed (unsupported by strict mode), as
    /// `(pointer into the original schema, keyword)`.
    pub fn removed(&self) -> impl Iterator<Item = (&str, &str)> {
        self.changes.iter().filter_map(|c| match &c.change {
            Change::Removed { keyword } => Some((c.pointer.as_str(), keyword.as_str())),
            _ => None,
        })
    }

    /// Turns arguments valid under the strict schema back into the shape
    /// the tool declared: `null` for an originally optional property is
    /// removed (absent) unless the property itself admits `null`, key/value
    /// pair arrays become maps, and each union is restored along the first
    /// branch the value validates against.
    ///
    /// # Errors
    ///
    /// [`Violations`] when a pair array repeats a key.
    pub fn restore(&self, value: &mut Value) -> Result<(), Violations> {
        if self.optional.is_empty() && self.maps.is_empty() {
            return Ok(());
        }
        let mut violations = Vec::new();
        self.restore_at(
            &self.schema,
            "",
            value,
            &mut String::new(),
            &mut violations,
            0,
        );
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Violations(violations))
        }
    }

    /// The inverse of [`StrictSchema::restore`]: a value in the declared
    /// shape written in strict form (absent optional properties as `null`,
    /// maps as key/value pairs, each union along the first branch whose
    /// strict form validates and is restored along that same branch). Use
    /// it to show a model strict examples, or to replay logged calls
    /// against a strict tool.
    ///
    /// A value valid under the declared schema becomes one valid under the
    /// strict schema that restores to it, with two exceptions strict form
    /// cannot express: an absent property whose own schema admits `null`
    /// comes back as `null` (which differs only where its default is not
    /// `null`), and an empty map in a union beside a branch
    /// that also takes `[]` (an untagged enum of a list and a map) comes
    /// back as that branch's `[]`. A value the declared schema rejects is
    /// encoded as far as it fits; its encoding may still be strict-valid
    /// where strict form cannot tell it apart from a valid one (a `null`
    /// for an optional property with a default reads as "absent"), so
    /// validate the declared value, not its encoding, to judge it.
    pub fn encode(&self, value: &Value) -> Value {
        self.encode_at(&self.schema, "", value, 0)
    }
}

pub(crate) use crate::plan::reference::ref_pointer;
pub(crate) use transform::prune_definitions;

#[cfg(test)]
mod tests {
    use super::{StrictError, StrictSchema, ref_pointer};
    use serde_json::json;

    #[test]
    fn references_are_percent_decoded_then_kept_as_pointers() {
        assert_eq!(
            ref_pointer("#/$defs/Tag%20Args").as_deref(),
            Some("/$defs/Tag Args")
        );
        assert_eq!(ref_pointer("#/$defs/a~1b").as_deref(), Some("/$defs/a~1b"));
        assert_eq!(
            ref_pointer("#/$defs/%C3%A9t%C3%A9").as_deref(),
            Some("/$defs/été")
        );
        assert_eq!(ref_pointer("#").as_deref(), Some(""));
        // Not local, a broken escape, or bytes that are not UTF-8.
        assert_eq!(ref_pointer("other.json#/a"), None);
        assert_eq!(ref_pointer("#/$defs/%zz"), None);
        assert_eq!(ref_pointer("#/$defs/%4"), None);
        assert_eq!(ref_pointer("#/$defs/%C3"), None);
    }

    #[test]
    fn a_broken_reference_is_a_typed_error() {
        for reference in ["#/$defs/%zz", "#/$defs/%C3", "#/$defs/Missing%20One"] {
            let schema = json!({
                "type": "object",
                "properties": {"a": {"$ref": reference, "description": "d"}},
                "$defs": {"Missing One ": {"type": "string"}}
            });
            assert!(
                matches!(
                    StrictSchema::new(&schema),
                    Err(StrictError::Unrepresentable { ref pointer, .. }) if pointer == "/properties/a"
                ),
                "{reference}"
            );
        }
    }

    #[test]
    fn compositions_too_large_are_refused_not_overflowed() {
        let branch = |k: usize| json!({"properties": {format!("p{k}"): {"type": "string"}}});
        // 2^7 combinations of branches.
        let unions: Vec<_> = (0..7)
            .map(|i| json!({"oneOf": [branch(2 * i), branch(2 * i + 1)]}))
            .collect();
        let wide =
            json!({"type": "object", "properties": {"a": {"type": "object", "allOf": unions}}});
        assert!(matches!(
            StrictSchema::new(&wide),
            Err(StrictError::Unrepresentable { ref reason, .. }) if reason.contains("alternatives")
        ));
        // Many single-branch unions: each is a level of the expansion.
        let unions: Vec<_> = (0..5000).map(|i| json!({"anyOf": [branch(i)]})).collect();
        let deep =
            json!({"type": "object", "properties": {"a": {"type": "object", "allOf": unions}}});
        assert!(matches!(
            StrictSchema::new(&deep),
            Err(StrictError::Unrepresentable { ref reason, .. }) if reason.contains("unions")
        ));
        // Nested allOf.
        let mut nested = json!({"type": "object", "properties": {"x": {"type": "string"}}});
        for _ in 0..100 {
            nested = json!({"allOf": [nested]});
        }
        let nested = json!({"type": "object", "properties": {"a": nested}});
        assert!(matches!(
            StrictSchema::new(&nested),
            Err(StrictError::Unrepresentable { ref reason, .. }) if reason.contains("deeply")
        ));
    }

    #[test]
    fn definitions_named_by_encoded_references_are_kept() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A%20B~1C"}},
            "required": ["a"],
            "$defs": {
                "A B/C": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, "required": ["m"]},
                "Unused": {"type": "string"}
            }
        });
        let strict = StrictSchema::new(&schema).unwrap();
        let defs = strict.schema()["$defs"].as_object().unwrap();
        assert_eq!(defs.keys().collect::<Vec<_>>(), ["A B/C"]);
        let mut call = json!({"a": {"m": [{"key": "x", "value": 1}]}});
        strict.restore(&mut call).unwrap();
        assert_eq!(call, json!({"a": {"m": {"x": 1}}}));
    }
}
