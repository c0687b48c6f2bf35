//! Composed objects: `$ref` with sibling keywords, `allOf`, and an object's
//! `properties` beside a union (a flattened enum).
//!
//! Strict mode closes every object, and a closed object refuses the members
//! its composition partners declare: `{"properties": P, "oneOf": [B1, B2]}`
//! closed on the outside and in each branch accepts nothing. So the parts
//! of a composition are merged into one object per combination of union
//! branches (`anyOf: [P ∧ B1, P ∧ B2]`), and each merged object is then
//! transformed (and closed) as an ordinary object. A merge is a
//! conjunction: `properties` and `required` are united (a property both
//! sides declare differently must satisfy both), `type`s intersect, and any
//! other keyword the parts give different values makes the schema
//! unrepresentable rather than silently picking one.

use super::transform::{Transform, declares_object};
use super::{Change, StrictError, ref_pointer};
use serde_json::{Map, Value, json};
use std::collections::VecDeque;

/// Most merged objects one composition may become (each combination of
/// union branches is one).
const MAX_BRANCHES: usize = 64;

/// Deepest nesting of `allOf`/`$ref` flattened into one object.
const MAX_FLATTEN_DEPTH: usize = 32;

/// Most unions one composition may combine (each is a level of the
/// expansion, even when it has a single branch).
const MAX_UNIONS: usize = 32;

/// Keywords that describe rather than constrain: when parts disagree, the
/// later part (the referencing site over the definition, a branch over the
/// object around it) wins.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// One object being merged, with the definitions inlined into it.
#[derive(Clone, Default)]
struct Merged {
    schema: Map<String, Value>,
    /// Definitions inlined into this object (pointers into the original),
    /// kept on the inlining stack while it is transformed so that a
    /// recursive reference inside stays a reference.
    inlined: Vec<String>,
    /// A closing part (`additionalProperties: false`, or
    /// `unevaluatedProperties: false` on the composed object) was seen.
    closed: bool,
}

/// What flattening found: the object is still satisfiable, or its parts
/// exclude each other (no value can hold them all).
enum Fit {
    Fits,
    Empty,
}

impl Transform<'_> {
    /// Transforms a composed schema: flattened into one merged object, or
    /// distributed into a union of merged objects.
    pub(super) fn compose(
        &mut self,
        m: &Map<String, Value>,
        src: &str,
        out: &str,
    ) -> Result<Value, StrictError> {
        let mut base = Merged::default();
        let mut unions = VecDeque::new();
        let mut stack = Vec::new();
        if let Fit::Empty = self.flatten(m, src, &mut base, &mut unions, &mut stack, 0)? {
            return Err(Self::unrepresentable(
                src,
                "accepts no value (the parts of its composition exclude each other)",
            ));
        }
        if unions.is_empty() {
            return self.merged_node(base, src, out);
        }
        // What describes the whole union stays on it; each merged object
        // keeps its branch's own description.
        let mut wrapper = Map::new();
        for key in ["description", "title"] {
            if let Some(v) = base.schema.remove(key) {
                wrapper.insert(key.to_owned(), v);
            }
        }
        let mut merged = Vec::new();
        self.expand(base, unions, src, &mut merged)?;
        if merged.is_empty() {
            return Err(Self::unrepresentable(
                src,
                "accepts no value (no branch of its union fits the members beside it)",
            ));
        }
        self.change(
            src,
            Change::Distributed {
                branches: merged.len(),
            },
        );
        let mut branches = Vec::with_capacity(merged.len());
        for (i, object) in merged.into_iter().enumerate() {
            branches.push(self.merged_node(object, src, &format!("{out}/anyOf/{i}"))?);
        }
        self.unions.push((out.to_owned(), src.to_owned()));
        wrapper.insert("anyOf".to_owned(), Value::Array(branches));
        Ok(Value::Object(wrapper))
    }

    /// Transforms one merged object with its inlined definitions on the
    /// inlining stack.
    fn merged_node(&mut self, merged: Merged, src: &str, out: &str) -> Result<Value, StrictError> {
        let Merged {
            mut schema,
            inlined,
            closed,
        } = merged;
        if closed && declares_object(&schema) && !schema.contains_key("additionalProperties") {
            schema.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        let depth = self.inlining.len();
        self.inlining.extend(inlined);
        let result = self.node(&Value::Object(schema), src, out);
        self.inlining.truncate(depth);
        result
    }

    /// Every combination of one branch per union, each merged with `base`
    /// (branches that exclude `base` are left out: no value holds both).
    fn expand(
        &mut self,
        base: Merged,
        mut unions: VecDeque<(String, Vec<Value>)>,
        src: &str,
        out: &mut Vec<Merged>,
    ) -> Result<(), StrictError> {
        let Some((union_src, branches)) = unions.pop_front() else {
            if out.len() == MAX_BRANCHES {
                return Err(Self::unrepresentable(
                    src,
                    &format!("a composition of more than {MAX_BRANCHES} alternatives"),
                ));
            }
            out.push(base);
            return Ok(());
        };
        for (i, branch) in branches.iter().enumerate() {
            let branch_src = format!("{union_src}/{i}");
            let mut merged = base.clone();
            let mut rest = unions.clone();
            let fit = match branch {
                Value::Object(b) => {
                    self.flatten(b, &branch_src, &mut merged, &mut rest, &mut Vec::new(), 0)?
                }
                Value::Bool(true) => Fit::Fits,
                Value::Bool(false) => Fit::Empty,
                _ => {
                    return Err(Self::unrepresentable(
                        &branch_src,
                        "a schema must be an object or a boolean",
                    ));
                }
            };
            if let Fit::Fits = fit {
                self.expand(merged, rest, src, out)?;
            }
        }
        Ok(())
    }

    /// Merges the parts of `m` into `into`: its referenced definition, its
    /// `allOf` parts and its own keywords; its unions are queued in
    /// `unions`. `stack` holds the definitions being flattened (a cycle of
    /// them cannot be).
    fn flatten(
        &mut self,
        m: &Map<String, Value>,
        src: &str,
        into: &mut Merged,
        unions: &mut VecDeque<(String, Vec<Value>)>,
        stack: &mut Vec<String>,
        depth: usize,
    ) -> Result<Fit, StrictError> {
        if depth > MAX_FLATTEN_DEPTH {
            return Err(Self::unrepresentable(
                src,
                "a composition nested too deeply",
            ));
        }
        if let Some(reference) = m.get("$ref") {
            let target = self.local_target(reference, src)?;
            // Also a definition already merged into this object: reached
            // again through one of its own union branches, it would be
            // merged without end.
            if stack.contains(&target)
                || self.inlining.contains(&target)
                || into.inlined.contains(&target)
            {
                return Err(Self::unrepresentable(
                    src,
                    "a recursive reference inside a composition",
                ));
            }
            let Some(Value::Object(definition)) = self.root.pointer(&target) else {
                return Err(Self::unrepresentable(
                    src,
                    "a $ref to a missing or boolean definition",
                ));
            };
            let mut definition = definition.clone();
            definition.remove("$defs");
            definition.remove("definitions");
            // The referencing site's own members come first (an internally
            // tagged variant's tag): strict mode generates members in
            // schema order, and the tag decides what follows.
            if let Some(Value::Object(properties)) = m.get("properties") {
                merge_properties(&mut into.schema, properties);
            }
            stack.push(target.clone());
            let fit = self.flatten(&definition, src, into, unions, stack, depth + 1)?;
            stack.pop();
            into.inlined.push(target);
            if let Fit::Empty = fit {
                return Ok(Fit::Empty);
            }
        }
        for (key, value) in m {
            let fit = match key.as_str() {
                "$ref" | "$defs" | "definitions" => Fit::Fits,
                "allOf" => {
                    let Value::Array(parts) = value else {
                        return Err(Self::unrepresentable(src, "allOf must be a list"));
                    };
                    let mut fit = Fit::Fits;
                    for (i, part) in parts.iter().enumerate() {
                        let part_src = format!("{src}/allOf/{i}");
                        fit = match part {
                            Value::Object(p) => {
                                self.flatten(p, &part_src, into, unions, stack, depth + 1)?
                            }
                            Value::Bool(true) => Fit::Fits,
                            Value::Bool(false) => Fit::Empty,
                            _ => {
                                return Err(Self::unrepresentable(
                                    &part_src,
                                    "a schema must be an object or a boolean",
                                ));
                            }
                        };
                        if let Fit::Empty = fit {
                            break;
                        }
                    }
                    fit
                }
                "anyOf" | "oneOf" => {
                    let Value::Array(branches) = value else {
                        return Err(Self::unrepresentable(src, "anyOf/oneOf must be a list"));
                    };
                    if key == "oneOf" {
                        self.change(src, Change::OneOfAsAnyOf);
                    }
                    if unions.len() == MAX_UNIONS {
                        return Err(Self::unrepresentable(
                            src,
                            &format!("a composition of more than {MAX_UNIONS} unions"),
                        ));
                    }
                    unions.push_back((format!("{src}/{key}"), branches.clone()));
                    Fit::Fits
                }
                "properties" => {
                    let Value::Object(properties) = value else {
                        return Err(Self::unrepresentable(src, "properties must be an object"));
                    };
                    if !m.contains_key("$ref") {
                        merge_properties(&mut into.schema, properties);
                    }
                    Fit::Fits
                }
                "required" => {
                    let Value::Array(names) = value else {
                        return Err(Self::unrepresentable(src, "required must be a list"));
                    };
                    let merged = into
                        .schema
                        .entry("required")
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(merged) = merged {
                        for name in names {
                            if !merged.contains(name) {
                                merged.push(name.clone());
                            }
                        }
                    }
                    Fit::Fits
                }
                "type" => intersect_types(&mut into.schema, value),
                "additionalProperties" if value == &Value::Bool(false) => {
                    into.closed = true;
                    Fit::Fits
                }
                "unevaluatedProperties" if value == &Value::Bool(false) => {
                    into.closed = true;
                    Fit::Fits
                }
                k if ANNOTATIONS.contains(&k) => {
                    into.schema.insert(key.clone(), value.clone());
                    Fit::Fits
                }
                _ => match into.schema.get(key) {
                    None => {
                        into.schema.insert(key.clone(), value.clone());
                        Fit::Fits
                    }
                    Some(existing) if existing == value => Fit::Fits,
                    Some(_) => {
                        return Err(Self::unrepresentable(
                            src,
                            &format!("parts of a composition disagree on `{key}`"),
                        ));
                    }
                },
            };
            if let Fit::Empty = fit {
                return Ok(Fit::Empty);
            }
        }
        Ok(Fit::Fits)
    }

    /// The pointer a local `$ref` names (percent-decoded), or why it
    /// cannot be followed.
    pub(super) fn local_target(&self, reference: &Value, src: &str) -> Result<String, StrictError> {
        reference
            .as_str()
            .and_then(ref_pointer)
            .filter(|r| r.is_empty() || r.starts_with("/$defs/") || r.starts_with("/definitions/"))
            .ok_or_else(|| Self::unrepresentable(src, "a $ref outside the schema's definitions"))
    }
}

/// Adds `properties` to the `properties` of `schema`; a member both declare
/// differently must satisfy both (an `allOf`, merged in turn when the
/// member is transformed).
fn merge_properties(schema: &mut Map<String, Value>, properties: &Map<String, Value>) {
    let merged = schema
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if !merged.is_object() {
        *merged = Value::Object(Map::new());
    }
    let Value::Object(merged) = merged else {
        return;
    };
    for (name, member) in properties {
        match merged.get_mut(name) {
            None => {
                merged.insert(name.clone(), member.clone());
            }
            Some(existing) if existing == member => {}
            Some(existing) => {
                let earlier = existing.take();
                *existing = json!({"allOf": [earlier, member]});
            }
        }
    }
}

/// Intersects `type` of `schema` with `other`.
fn intersect_types(schema: &mut Map<String, Value>, other: &Value) -> Fit {
    fn names(v: &Value) -> Vec<String> {
        match v {
            Value::String(t) => vec![t.clone()],
            Value::Array(ts) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        }
    }
    let Some(existing) = schema.get("type") else {
        schema.insert("type".to_owned(), other.clone());
        return Fit::Fits;
    };
    let mine = names(existing);
    let theirs = names(other);
    // `integer` is a subset of `number`.
    let both: Vec<String> = mine
        .iter()
        .filter_map(|t| {
            if theirs.contains(t) {
                Some(t.clone())
            } else if (t == "integer" && theirs.iter().any(|o| o == "number"))
                || (t == "number" && theirs.iter().any(|o| o == "integer"))
            {
                Some("integer".to_owned())
            } else {
                None
            }
        })
        .collect();
    match both.len() {
        0 => Fit::Empty,
        1 => {
            schema.insert("type".to_owned(), Value::String(both[0].clone()));
            Fit::Fits
        }
        _ => {
            schema.insert(
                "type".to_owned(),
                Value::Array(both.into_iter().map(Value::String).collect()),
            );
            Fit::Fits
        }
    }
}
