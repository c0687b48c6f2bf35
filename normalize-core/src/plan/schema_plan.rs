//! [`SchemaPlan`]: a schema compiled once, its nodes and, built on first
//! use, the sites a streamed call reads.

use super::node::{Node, NodeId, Sub};
use super::sites::Sites;
use std::sync::OnceLock;

/// A JSON Schema compiled for normalization.
///
/// Compile once per tool (compilation resolves every `$ref`, compiles every
/// pattern and computes declared types to a fixed point), then share it: a
/// plan is immutable (but for what a streamed call reads, built once, the
/// first time one streams), `Send` and `Sync`.
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
    pub(super) nodes: Vec<Node>,
    /// Some node carries [`VERBATIM_KEYWORD`](super::VERBATIM_KEYWORD) or declares a literal kept as
    /// sent; without either, the verbatim check costs one branch per
    /// location.
    pub(super) has_verbatim: bool,
    /// Some node declares a literal kept as sent: only then does a string
    /// that no mark covers look for one.
    pub(super) has_literals: bool,
    pub(super) root: Sub,
    /// What a streamed call's early checks read, built from the nodes the
    /// first time a call to this schema streams (most never do).
    pub(super) sites: OnceLock<Sites>,
}

impl SchemaPlan {
    /// How many subschema objects the plan holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the schema had no subschema objects (it was `true` or `false`).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The sites of this plan: what the schema says at a location before
    /// the value there is complete ([`super::sites`]).
    pub(crate) fn sites(&self) -> &Sites {
        self.sites
            .get_or_init(|| Sites::compile(&self.nodes, self.root))
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}
