//! A JSON Schema compiled once into the questions normalization asks of it:
//! *what types does this location declare?* and *what is the schema of this
//! member?*
//!
//! The semantics are those of `DESIGN.md` ("Normalization semantics"):
//! `type`, `enum` and `const` declare types; `$ref` and `allOf` intersect;
//! `anyOf` and `oneOf` unite; members come from `properties`, then
//! `patternProperties`, then `additionalProperties`, and from `prefixItems`,
//! then `items` (draft-07 array-form `items` and `additionalItems` too).
//!
//! One deliberate deviation, opt-in per location: a subschema carrying
//! [`VERBATIM_KEYWORD`] (`"x-toolargs-verbatim": true`) marks a location whose
//! strings are never entity-decoded (see [`SchemaPlan::verbatim`]).

mod compile;
mod error;
mod locate;
pub(crate) mod names;
pub(crate) mod pattern;
pub(crate) mod reference;
mod types;

pub use error::SchemaError;
pub use locate::{Bound, Loc};
pub(crate) use types::admits_null;
pub use types::{JsonType, TypeSet};

use pattern::Pattern;
use serde_json::Value;

pub use crate::keywords::VERBATIM_KEYWORD;

/// Index of a compiled subschema in [`SchemaPlan`].
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
    own_types: TypeSet,
    /// Types declared once `$ref`, `allOf`, `anyOf` and `oneOf` are counted.
    types: TypeSet,
    /// `$ref` and `allOf`: schemas that all apply.
    conjuncts: Vec<Sub>,
    /// `anyOf` and `oneOf` groups: in each, the branches that apply.
    unions: Vec<Vec<Sub>>,
    object: Option<Box<ObjectRules>>,
    array: Option<Box<ArrayRules>>,
    /// The values `const` and `enum` allow here, when either is present.
    allowed: Option<Vec<Value>>,
    /// Properties whose schema carries `const` or `enum`: the tags that decide
    /// whether this node, as a union branch, applies to an object.
    tags: Vec<(Box<str>, NodeId)>,
    /// The one member an externally tagged variant's object has
    /// (`properties` naming exactly it, `required` too): as a union branch,
    /// this node applies only to an object that has that member, the way
    /// serde picks such a variant by its key.
    variant_key: Option<Box<str>>,
    /// `unevaluatedProperties: false`: members none of this node's parts
    /// mention are forbidden (a composed object closed where it is used).
    closes_unevaluated: bool,
    /// This node carries [`VERBATIM_KEYWORD`] itself.
    own_verbatim: bool,
    /// A string this node's `const`/`enum` allows holds `&`: such a string,
    /// sent exactly, is kept as sent (see [`VERBATIM_KEYWORD`]'s docs).
    verbatim_literals: bool,
    /// This node, or a node reachable through `$ref`/`allOf`/`anyOf`/`oneOf`,
    /// carries the mark: only then is the value-dependent check needed
    /// (declared literals are looked for apart).
    maybe_verbatim: bool,
}

/// Property name → schema.
type Properties = names::NameTable<Sub>;

#[derive(Debug, Default)]
struct ObjectRules {
    properties: Properties,
    patterns: Vec<(Pattern, Sub)>,
    additional: Option<Sub>,
}

#[derive(Debug, Default)]
struct ArrayRules {
    prefix: Vec<Sub>,
    rest: Option<Sub>,
}

/// A JSON Schema compiled for normalization.
///
/// Compile once per tool (compilation resolves every `$ref`, compiles every
/// pattern and computes declared types to a fixed point), then share it: a
/// plan is immutable, `Send` and `Sync`.
///
/// ```
/// use toolargs_core::plan::{JsonType, SchemaPlan};
/// use serde_json::json;
///
/// let plan = SchemaPlan::compile(&json!({
///     "type": "object",
///     "properties": {"tags": {"type": ["array", "null"]}}
/// }))?;
/// let args = json!({"tags": "[1]"});
/// let root = plan.bind(&plan.root(), &args);
/// let tags = plan.member(&root, "tags");
/// assert!(plan.declared(&tags).contains(JsonType::Array));
/// # Ok::<(), toolargs_core::plan::SchemaError>(())
/// ```
#[derive(Debug)]
pub struct SchemaPlan {
    nodes: Vec<Node>,
    /// Some node carries [`VERBATIM_KEYWORD`] or declares a literal kept as
    /// sent; without either, the verbatim check costs one branch per
    /// location.
    has_verbatim: bool,
    /// Some node declares a literal kept as sent: only then does a string
    /// that no mark covers look for one.
    has_literals: bool,
    root: Sub,
}

impl SchemaPlan {
    /// Compiles a schema (an object or a boolean).
    ///
    /// # Errors
    ///
    /// A [`SchemaError`] naming the first subschema that is not a schema, a
    /// keyword of the wrong type, a `$ref` that is not local or points at
    /// nothing, or a `patternProperties` key the validator does not accept
    /// as a pattern.
    pub fn compile(schema: &Value) -> Result<SchemaPlan, SchemaError> {
        compile::compile(schema)
    }

    /// The location of the whole arguments value.
    pub fn root(&self) -> Loc {
        self.root.into()
    }

    /// How many subschema objects the plan holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the schema had no subschema objects (it was `true` or `false`).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}

#[cfg(test)]
mod pattern_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod verbatim_tests;
