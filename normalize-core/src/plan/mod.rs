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
mod pattern;
pub(crate) mod reference;
mod types;

pub use error::SchemaError;
pub use locate::{Bound, Loc};
pub(crate) use types::admits_null;
pub use types::{JsonType, TypeSet};

use pattern::Pattern;
use serde_json::Value;

/// The annotation keyword that marks a location *verbatim*:
/// `"x-toolargs-verbatim": true` on a subschema.
///
/// Some tools carry markup on purpose: a `write_file` tool's `content`
/// holding `&lt;p&gt;`, an XML payload with `Tom &amp; Jerry`. Decoding
/// character references there (RT-TOOL-8's default) would change the file
/// the model meant to write. A verbatim location opts out of that one
/// repair, for every string at the location and every string nested below
/// it (array items, object members, the contents of a JSON-decoded string);
/// JSON-string decoding still follows the schema, so an array sent as a
/// string is still decoded.
///
/// The mark lives in the schema, as an annotation keyword validators ignore,
/// so every consumer of the same schema honours it: the dynamic
/// [`Normalizer`](crate::Normalizer), the code `#[derive(ToolArgs)]`
/// generates (from `#[tool_args(verbatim)]`), and the command-line tool.
/// With plain schemas write it yourself; with schemars,
/// `#[schemars(extend("x-toolargs-verbatim" = true))]`. It is read through
/// `$ref` and `allOf` (any part marked marks the location) and through
/// `anyOf`/`oneOf` (any branch that applies to the value found there). Its
/// value must be a boolean; `false` is the same as no mark.
///
/// A declared literal is verbatim without a mark: a string that a
/// location's `const` or `enum` allows and that holds `&` (a variant renamed
/// `"R&amp;D"`, a tag `"a&lt;b"`), sent exactly, is kept as sent. Decoding it
/// would make a declared value impossible to send, whatever the model
/// wrote; any other string there is decoded as RT-TOOL-8 says, and where
/// the location also takes a string of any content (an untagged enum's
/// `String` variant beside the literal) nothing is kept.
///
/// ```
/// use toolargs_core::{Normalizer, VERBATIM_KEYWORD};
/// use serde_json::json;
///
/// let normalizer = Normalizer::compile(&json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string"},
///         "content": {"type": "string", VERBATIM_KEYWORD: true}
///     }
/// }))?;
/// let mut args = json!({"path": "a&amp;b.html", "content": "<p>Tom &amp; Jerry</p>"});
/// normalizer.normalize(&mut args)?;
/// assert_eq!(args, json!({"path": "a&b.html", "content": "<p>Tom &amp; Jerry</p>"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const VERBATIM_KEYWORD: &str = "x-toolargs-verbatim";

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
