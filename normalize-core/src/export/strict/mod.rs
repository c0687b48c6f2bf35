//! OpenAI's strict mode: the transform of a tool's schema into the subset
//! strict mode accepts, and the way back from a strict call to the
//! arguments the tool declared.
//!
//! The rules, as OpenAI documents them for Structured Outputs and strict
//! function calling, and what this transform does for each:
//!
//! - **The root is an object** (not `anyOf`): otherwise [`StrictError::RootNotObject`].
//! - **`additionalProperties: false` on every object**: set everywhere; an
//!   object that was open (`true` or absent) is closed and the change listed.
//! - **Every property is required**: all are listed in `required`; a
//!   property that was optional becomes a union with `null`
//!   (`"type": [T, "null"]`, or `anyOf: [S, {"type": "null"}]` for a
//!   `$ref`, union or `const`). A call's `null` there means *absent*:
//!   [`StrictSchema::restore`] removes it before the body sees the value.
//! - **A `$ref` stands alone**: a reference with sibling keywords (a
//!   field's `description` beside it) is replaced by the definition it
//!   names, inlined, with the siblings winning over the definition's own
//!   keywords. Inside its own definition (recursion), a reference is kept
//!   alone instead and its siblings are listed as removed.
//! - **Only `anyOf` composes**: `oneOf` becomes `anyOf` (listed; schemars'
//!   tagged unions do not overlap, so the meaning is kept); `allOf`, `not`,
//!   `if`/`then`/`else` cannot be kept and make the tool unrepresentable
//!   (`not` and the conditionals are removed and listed instead).
//! - **Unsupported keywords are removed and listed**: `minLength`,
//!   `maxLength`, `patternProperties`, `unevaluatedProperties`,
//!   `propertyNames`, `minProperties`, `maxProperties`, `unevaluatedItems`,
//!   `contains`, `minContains`, `maxContains`, `uniqueItems`,
//!   `dependentRequired`, `dependentSchemas`, `default`, `examples`,
//!   `$schema`, `$id`, `$comment`, and any `format` outside the documented
//!   ones (`date-time`, `time`, `date`, `duration`, `email`, `hostname`,
//!   `ipv4`, `ipv6`, `uuid`), which drops schemars' `int32`, `uint64`, ... .
//!   A removed keyword is no longer checked: the strict schema is the one
//!   calls are validated against (see [`StrictSchema::changes`] for what
//!   the tool body must now check itself).
//! - **Maps cannot be strict** (an object whose keys are not declared). A
//!   map `{"type": "object", "additionalProperties": S}` is represented as
//!   an array of `{"key": string, "value": S}` pairs; [`StrictSchema::restore`]
//!   turns the pairs back into the map (a repeated key is an invalid
//!   argument). A free-form object or value (`{}`, `true`,
//!   `{"type": "object"}` with no properties) and tuples (`prefixItems`)
//!   cannot be represented: [`StrictError::Unrepresentable`].

mod restore;
mod transform;

use crate::validate::Violations;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use transform::{Transform, declares_object, prune_definitions};

/// Keywords strict mode does not accept, removed by the transform.
const REMOVED: &[&str] = &[
    "minLength",
    "maxLength",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "not",
    "if",
    "then",
    "else",
    "default",
    "examples",
    "$schema",
    "$id",
    "$comment",
    "additionalItems",
    "contentEncoding",
    "contentMediaType",
    "readOnly",
    "writeOnly",
    "deprecated",
];

/// The string formats strict mode documents.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Deepest `$ref` chain followed when restoring (a cycle of bare `$ref`s
/// would otherwise never end).
const MAX_REF_HOPS: usize = 64;

/// A schema strict mode cannot express.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[non_exhaustive]
pub enum StrictError {
    /// Strict mode needs an object at the root.
    #[error("the root schema must be an object for strict mode")]
    RootNotObject,
    /// Something in the schema has no strict-mode form.
    #[error("cannot be made strict at `{pointer}`: {reason}")]
    Unrepresentable {
        /// JSON pointer into the original schema.
        pointer: String,
        /// What is there.
        reason: String,
    },
}

/// One difference between the original schema and the strict one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StrictChange {
    /// JSON pointer into the original schema (inside an inlined
    /// definition, the path through the site that referenced it).
    pub pointer: String,
    /// What changed there.
    #[serde(flatten)]
    pub change: Change,
}

/// The kinds of change the strict transform makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Change {
    /// An unsupported keyword was removed; it is no longer enforced.
    Removed {
        /// The keyword.
        keyword: String,
    },
    /// An optional property became required and nullable.
    MadeNullable {
        /// The property.
        property: String,
    },
    /// An open object was closed (`additionalProperties: false`).
    Closed,
    /// `oneOf` became `anyOf`.
    OneOfAsAnyOf,
    /// A map became an array of key/value pairs.
    MapAsPairs,
}

/// A schema transformed for strict mode, with what the transform changed
/// and what it needs to turn a strict call back into the declared shape.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictSchema {
    schema: Value,
    changes: Vec<StrictChange>,
    /// Object nodes (pointer into the strict schema) and their properties
    /// that were optional: `null` there means absent.
    optional: HashMap<String, Vec<String>>,
    /// Array nodes (pointer into the strict schema) that stand for maps.
    maps: HashSet<String>,
}

impl StrictSchema {
    /// Transforms `schema` for strict mode.
    ///
    /// # Errors
    ///
    /// [`StrictError`] when the root is not an object or something in the
    /// schema has no strict form.
    pub fn new(schema: &Value) -> Result<StrictSchema, StrictError> {
        let root_is_object = schema.as_object().is_some_and(|m| {
            declares_object(m) && !m.contains_key("anyOf") && !m.contains_key("oneOf")
        });
        if !root_is_object {
            return Err(StrictError::RootNotObject);
        }
        let mut t = Transform::new(schema);
        let mut strict = t.node(schema, "", "")?;
        prune_definitions(&mut strict);
        Ok(StrictSchema {
            schema: strict,
            changes: t.changes,
            optional: t.optional,
            maps: t.maps,
        })
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
    /// removed (absent), key/value pair arrays become maps.
    ///
    /// # Errors
    ///
    /// [`Violations`] when a pair array repeats a key.
    pub fn restore(&self, value: &mut Value) -> Result<(), Violations> {
        if self.optional.is_empty() && self.maps.is_empty() {
            return Ok(());
        }
        let mut violations = Vec::new();
        self.restore_at("", value, &mut String::new(), &mut violations, 0);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Violations(violations))
        }
    }
}
