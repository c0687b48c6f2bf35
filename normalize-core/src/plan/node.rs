//! The compiled form of a schema: one [`Node`] per subschema object, each
//! child a [`Sub`] (`true`, `false` or another node). The
//! [`SchemaPlan`](super::SchemaPlan) holds them; `compile.rs` builds them;
//! `locate.rs` answers the normalizer's questions from them, `sites.rs` the
//! stream's.

use super::names;
use super::pattern::Pattern;
use super::types::TypeSet;
use serde_json::Value;

/// Index of a compiled subschema in [`SchemaPlan`](super::SchemaPlan).
pub(crate) type NodeId = u32;

/// A compiled child schema: `true`, `false`, or a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sub {
    Any,
    Never,
    Node(NodeId),
}

/// One subschema object, with its keywords in the form lookups need.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// Types declared by this node's own `type`, `enum` and `const`.
    pub(crate) own_types: TypeSet,
    /// Types declared once `$ref`, `allOf`, `anyOf` and `oneOf` are counted.
    pub(super) types: TypeSet,
    /// `$ref` and `allOf`: schemas that all apply.
    pub(crate) conjuncts: Vec<Sub>,
    /// `anyOf` and `oneOf` groups: in each, the branches that apply.
    pub(crate) unions: Vec<Vec<Sub>>,
    pub(crate) object: Option<Box<ObjectRules>>,
    pub(crate) array: Option<Box<ArrayRules>>,
    /// The values `const` and `enum` allow here, when either is present.
    pub(super) allowed: Option<Vec<Value>>,
    /// Properties whose schema carries `const` or `enum`: the tags that decide
    /// whether this node, as a union branch, applies to an object.
    pub(super) tags: Vec<(Box<str>, NodeId)>,
    /// The one member an externally tagged variant's object has
    /// (`properties` naming exactly it, `required` too): as a union branch,
    /// this node applies only to an object that has that member, the way
    /// serde picks such a variant by its key.
    pub(super) variant_key: Option<Box<str>>,
    /// `unevaluatedProperties: false`: members none of this node's parts
    /// mention are forbidden (a composed object closed where it is used).
    pub(crate) closes_unevaluated: bool,
    /// This node carries [`VERBATIM_KEYWORD`](super::VERBATIM_KEYWORD) itself.
    pub(super) own_verbatim: bool,
    /// A string this node's `const`/`enum` allows holds `&`: such a string,
    /// sent exactly, is kept as sent (see [`VERBATIM_KEYWORD`](super::VERBATIM_KEYWORD)'s docs).
    pub(super) verbatim_literals: bool,
    /// This node, or a node reachable through `$ref`/`allOf`/`anyOf`/`oneOf`,
    /// carries the mark: only then is the value-dependent check needed
    /// (declared literals are looked for apart).
    pub(super) maybe_verbatim: bool,
    /// What the validator makes of this subschema that normalization does
    /// not read: for checks made before a value is complete.
    pub(crate) early: Early,
}

/// What a subschema says beyond what normalization reads, for the checks the
/// stream engine makes before a value is complete ([`super::sites`]):
/// which keywords make the subschemas that apply depend on the value, and
/// the literals, names and integer-ness the validator checks.
#[derive(Debug, Default)]
pub(crate) struct Early {
    /// A keyword whose subschemas apply depending on the value (`not`,
    /// `if`/`then`/`else`, `dependentSchemas`, `dependentRequired`,
    /// `dependencies`, `unevaluatedItems`, `$dynamicRef`, `$recursiveRef`),
    /// or a base URI below the root (`$id`), which changes what a reference
    /// in it points at.
    pub(crate) opens: bool,
    /// Its own `enum` list.
    pub(crate) enum_values: Option<Vec<Value>>,
    /// Its own `const` value.
    pub(crate) const_value: Option<Value>,
    /// Its `type` names `integer`.
    pub(crate) integer: bool,
    /// The names its `required` lists.
    pub(crate) required: Vec<Box<str>>,
    /// It has a keyword about members or elements (`properties`,
    /// `additionalProperties`, `patternProperties`, `propertyNames`,
    /// `items`, `prefixItems`, `additionalItems`, `contains`,
    /// `unevaluatedProperties`).
    pub(crate) shapes_contents: bool,
    /// It has `properties`, `required` or `additionalProperties`.
    pub(crate) names_members: bool,
    /// It has `unevaluatedProperties` or `unevaluatedItems`.
    pub(crate) unevaluated: bool,
    /// Its `unevaluatedProperties` is a schema (neither `true` nor `false`).
    pub(crate) unevaluated_schema: bool,
    /// It has `patternProperties`.
    pub(crate) patterns: bool,
    /// Per group of [`Node::unions`]: whether its branches only require
    /// names (how the derive declares a required field's aliases).
    pub(crate) alias_groups: Vec<bool>,
}

/// Property name → schema.
type Properties = names::NameTable<Sub>;

#[derive(Debug, Default)]
pub(crate) struct ObjectRules {
    pub(crate) properties: Properties,
    pub(super) patterns: Vec<(Pattern, Sub)>,
    pub(crate) additional: Option<Sub>,
}

#[derive(Debug, Default)]
pub(crate) struct ArrayRules {
    pub(crate) prefix: Vec<Sub>,
    pub(crate) rest: Option<Sub>,
}
