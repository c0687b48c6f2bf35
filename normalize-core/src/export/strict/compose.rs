//! Composed objects: `$ref` with sibling keywords, `allOf`, and an object's
//! `properties` beside a union (a flattened enum).
//!
//! Strict mode closes every object, and a closed object refuses the members
//! its composition partners declare: `{"properties": P, "oneOf": [B1, B2]}`
//! closed on the outside and in each branch accepts nothing. So the parts
//! of a composition are merged into one object per combination of union
//! branches (`anyOf: [P ∧ B1, P ∧ B2]`) by the shared
//! [`composition`](crate::composition) transform, and each merged object is
//! then transformed (and closed) as an ordinary object. Parts that disagree,
//! exclude each other or exceed its bounds make the schema unrepresentable
//! rather than silently picking one.

use super::transform::Transform;
use super::{Change, StrictError};
use crate::composition::{self, Merged};
use serde_json::{Map, Value};

impl Transform<'_> {
    /// Transforms a composed schema: flattened into one merged object, or
    /// distributed into a union of merged objects (see [`composition`],
    /// which the grammar compiler shares).
    pub(super) fn compose(
        &mut self,
        m: &Map<String, Value>,
        src: &str,
        out: &str,
    ) -> Result<Value, StrictError> {
        let distribution = composition::distribute(self.root, m, src, src, &self.inlining)
            .map_err(|e| Self::unrepresentable(&e.pointer, &e.reason))?;
        for union in &distribution.unions {
            if union.keyword == "oneOf" {
                self.change(&union.src, Change::OneOfAsAnyOf);
            }
        }
        let mut objects = distribution.objects;
        let Some(mut wrapper) = distribution.wrapper else {
            let Some(object) = objects.pop() else {
                return Err(Self::unrepresentable(src, "accepts no value"));
            };
            return self.merged_node(object, src, out);
        };
        self.change(
            src,
            Change::Distributed {
                branches: objects.len(),
            },
        );
        let mut branches = Vec::with_capacity(objects.len());
        for (i, object) in objects.into_iter().enumerate() {
            branches.push(self.merged_node(object, src, &format!("{out}/anyOf/{i}"))?);
        }
        self.unions.push((out.to_owned(), src.to_owned()));
        wrapper.insert("anyOf".to_owned(), Value::Array(branches));
        Ok(Value::Object(wrapper))
    }

    /// Transforms one merged object with its inlined definitions on the
    /// inlining stack.
    fn merged_node(&mut self, merged: Merged, src: &str, out: &str) -> Result<Value, StrictError> {
        let schema = merged.closed_schema();
        let depth = self.inlining.len();
        self.inlining.extend(merged.inlined);
        let result = self.node(&Value::Object(schema), src, out);
        self.inlining.truncate(depth);
        result
    }

    /// The pointer a local `$ref` names (percent-decoded), or why it
    /// cannot be followed.
    pub(super) fn local_target(&self, reference: &Value, src: &str) -> Result<String, StrictError> {
        composition::local_target(reference)
            .ok_or_else(|| Self::unrepresentable(src, "a $ref outside the schema's definitions"))
    }
}
