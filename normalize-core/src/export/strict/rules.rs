//! What strict mode accepts and what its transform records: the keywords
//! it removes, the formats it documents, what it refuses
//! ([`StrictError`]), what it changed ([`StrictChange`]), and what the
//! `null` of a property it made required means ([`Optional`]).

use serde::Serialize;

/// Keywords strict mode does not accept, removed by the transform.
pub(super) const REMOVED: &[&str] = &[
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
pub(super) const FORMATS: &[&str] = &[
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
pub(crate) const MAX_REF_HOPS: usize = 64;

/// A schema strict mode cannot express.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[non_exhaustive]
pub enum StrictError {
    /// Strict mode needs an object at the root.
    #[error("the root schema must be an object for strict mode")]
    RootNotObject,
    /// The root is a map (an object whose keys are not declared): its
    /// strict form would be an array of key/value pairs, and strict mode
    /// needs an object with declared properties at the root.
    #[error(
        "the root schema is a map (keys not declared); strict mode needs an object with declared properties at the root"
    )]
    RootIsMap,
    /// A derived type flattens a free-form field (a `serde_json::Value`, a
    /// `Map` or a `HashMap`): it keeps members no schema declares, and
    /// strict mode closes every object, so the model could send none of
    /// them. Refused rather than closed, which would lose them on every
    /// call.
    #[error(
        "`{type_name}` flattens the free-form field `{field}`, whose members strict mode cannot declare (it closes every object): keep the tool canonical, or give the members a struct"
    )]
    FlattenedFreeForm {
        /// The struct holding the field.
        type_name: String,
        /// The flattened field.
        field: String,
    },
    /// Something in the schema has no strict-mode form.
    #[error("cannot be made strict at `{pointer}`: {reason}")]
    Unrepresentable {
        /// JSON pointer into the original schema.
        pointer: String,
        /// What is there.
        reason: String,
    },
    /// The derived type's contract does not compile.
    #[error(transparent)]
    Contract(crate::contract::ContractError),
    /// The strict schema could not be compiled for restoring calls (a
    /// schema the validator refuses).
    #[error("the strict schema cannot be compiled: {message}")]
    Invalid {
        /// What the validator builder reported.
        message: String,
    },
}

/// One difference between the original schema and the strict one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StrictChange {
    /// JSON pointer into the original schema (inside an inlined
    /// definition, the path through the site that referenced it; inside a
    /// distributed composition, the path of the composed object).
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
    /// An unsupported keyword was removed from what the model is shown
    /// (the declared schema still enforces it).
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
    /// A composed object (`properties` beside a union, or `allOf`) became a
    /// union of closed objects, its members merged into each branch.
    Distributed {
        /// How many merged objects the union has.
        branches: usize,
    },
    /// In this union, a map's strict form (pairs) and another branch both
    /// take the empty array `[]`: it is restored along the first of them,
    /// so the other's empty value cannot be sent in strict form.
    AmbiguousEmptyArray,
}

/// A property that strict mode makes required: what its `null` means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Optional {
    pub(super) name: String,
    /// `null` stands for absence (removed by restore); otherwise `null` is
    /// a value the declared property accepts and is kept, unless one of
    /// `absent_with` is absent.
    pub(super) null_is_absent: bool,
    /// For a property that takes `null` as a value: the other members of
    /// its flattened `Option` (present together or not at all, the
    /// declared `dependentSchemas`) that take no `null`. Where one of them
    /// is absent, so is the group, and its `null` means absent too.
    pub(super) absent_with: Vec<String>,
}
