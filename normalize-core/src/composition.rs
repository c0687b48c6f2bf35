//! Distribution of composed objects: `$ref` with sibling keywords, `allOf`,
//! and an object's `properties` beside a union (a flattened enum).
//!
//! A consumer that treats each object on its own (OpenAI's strict mode, which
//! closes every object; a grammar, which enumerates an object's members) gets
//! a composition wrong: `{"properties": P, "oneOf": [B1, B2]}` is neither P
//! (the branches' members are missing) nor a choice of B1 and B2 (P's members
//! are missing), and closing each part refuses its partners' members. So the
//! parts are merged into one object per combination of union branches
//! (`anyOf: [P ∧ B1, P ∧ B2]`), each a plain object the consumer handles as
//! any other. Both consumers use this one transform, so they read a
//! composition the same way (see `export::strict` and `grammar`).
//!
//! A merge is a conjunction: `properties` and `required` are united (a
//! property both sides declare differently must satisfy both: an `allOf` of
//! the two), `type`s intersect, and any other keyword the parts give
//! different values makes the composition undistributable rather than
//! silently picking one. A closing part (`additionalProperties: false`, or
//! `unevaluatedProperties: false`) closes the merged object: the contract
//! closes a composed object where it is used, with `unevaluatedProperties:
//! false`, which is exactly "closed over every part's members". The size of
//! the result is bounded ([`MAX_BRANCHES`], [`MAX_UNIONS`],
//! [`MAX_FLATTEN_DEPTH`]); beyond it, or when parts disagree, a typed
//! [`CompositionError`] says why, and each consumer decides what to do.

use crate::plan::reference::{child_pointer, ref_pointer};
use serde_json::{Map, Value, json};
use std::collections::{HashMap, VecDeque};

/// Most merged objects one composition may become (each combination of
/// union branches is one).
pub(crate) const MAX_BRANCHES: usize = 64;

/// Deepest nesting of `allOf`/`$ref` flattened into one object.
pub(crate) const MAX_FLATTEN_DEPTH: usize = 32;

/// Most unions one composition may combine (each is a level of the
/// expansion, even when it has a single branch).
pub(crate) const MAX_UNIONS: usize = 32;

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

/// Whether `m` describes objects: its `type` says so, or (without a `type`)
/// it declares `properties`.
pub(crate) fn declares_object(m: &Map<String, Value>) -> bool {
    match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => m.contains_key("properties"),
    }
}

/// The pointer a local `$ref` names (percent-decoded) when it is the root
/// or a definition: a composition is merged from definitions only, since
/// inlining any other location could inline a part of itself.
pub(crate) fn local_target(reference: &Value) -> Option<String> {
    reference
        .as_str()
        .and_then(ref_pointer)
        .filter(|r| r.is_empty() || r.starts_with("/$defs/") || r.starts_with("/definitions/"))
}

/// Why a composition cannot be distributed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CompositionError {
    /// Pointer into the original schema (through the referencing site
    /// inside an inlined definition).
    pub(crate) pointer: String,
    /// What is there.
    pub(crate) reason: String,
    /// The parts exclude each other: the composition accepts no value (as
    /// opposed to one that is merely too large or too irregular to merge).
    pub(crate) accepts_nothing: bool,
}

impl CompositionError {
    fn new(pointer: &str, reason: &str) -> Self {
        CompositionError {
            pointer: pointer.to_owned(),
            reason: reason.to_owned(),
            accepts_nothing: false,
        }
    }

    fn empty(pointer: &str, reason: &str) -> Self {
        CompositionError {
            accepts_nothing: true,
            ..Self::new(pointer, reason)
        }
    }
}

/// A part that closed the merged object.
#[derive(Clone, Debug)]
pub(crate) struct Closer {
    /// Where the part is (true pointer into the schema).
    pub(crate) at: String,
    /// `additionalProperties` or `unevaluatedProperties`.
    pub(crate) keyword: &'static str,
    /// For `additionalProperties: false`, the members the part itself
    /// declares (the only ones JSON Schema lets it see), `None` when it
    /// also has `patternProperties` (then it sees more).
    pub(crate) own: Option<Vec<String>>,
}

/// One merged object: the conjunction of the parts of one combination of
/// union branches.
#[derive(Clone, Default, Debug)]
pub(crate) struct Merged {
    /// The merged keywords (closing keywords are not copied: see
    /// [`Merged::closed`]).
    pub(crate) schema: Map<String, Value>,
    /// Definitions inlined into this object (pointers into the original),
    /// so that a consumer inlining in turn can tell a recursive reference.
    pub(crate) inlined: Vec<String>,
    /// A closing part (`additionalProperties: false`, or
    /// `unevaluatedProperties: false`) was seen.
    pub(crate) closed: bool,
    /// The closing parts, in the order met.
    pub(crate) closers: Vec<Closer>,
    /// Where each keyword of `schema` came from (true pointer of its part,
    /// following `$ref`s into definitions): the first part that set it.
    pub(crate) origins: HashMap<String, String>,
    /// Where each member's schema came from (true pointer), for members
    /// only one part declares.
    pub(crate) member_origins: HashMap<String, String>,
    /// For each member a union's branch brought, which union (1 for the
    /// first expanded, 2 for the next...); members of the object around
    /// the unions are not listed. serde writes a flattened enum's members
    /// together, where the field is declared, which the schema's order
    /// cannot say: a consumer that fixes member order lets these blocks
    /// move.
    pub(crate) member_groups: HashMap<String, usize>,
    /// The union whose branch is being merged (0: none).
    group: usize,
}

impl Merged {
    /// The merged schema, closed with `additionalProperties: false` when a
    /// part closed it and it describes objects (unless it already says what
    /// other members may be).
    pub(crate) fn closed_schema(&self) -> Map<String, Value> {
        let mut schema = self.schema.clone();
        if self.closed && declares_object(&schema) && !schema.contains_key("additionalProperties") {
            schema.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        schema
    }
}

/// A union met while distributing.
#[derive(Clone, Debug)]
pub(crate) struct UnionMet {
    /// Pointer of the union's keyword, as errors name it (through the
    /// referencing site inside an inlined definition).
    pub(crate) src: String,
    /// True pointer of the schema holding the union's keyword.
    pub(crate) at: String,
    /// `anyOf` or `oneOf`.
    pub(crate) keyword: &'static str,
    /// The branches, as written.
    pub(crate) branches: Vec<Value>,
}

/// A composition, distributed.
#[derive(Debug)]
pub(crate) struct Distribution {
    /// `Some` when the composition had unions, and so became a union of
    /// merged objects: what describes the whole union (`description`,
    /// `title`), taken off the merged objects.
    pub(crate) wrapper: Option<Map<String, Value>>,
    /// The merged objects (exactly one when `wrapper` is `None`); branches
    /// that exclude the parts beside them are left out.
    pub(crate) objects: Vec<Merged>,
    /// Every union met, in the order met (a union inside a branch once per
    /// combination it was met in).
    pub(crate) unions: Vec<UnionMet>,
}

/// Distributes the composed schema `m` of `root`. `src` names it in errors,
/// `at` is its true pointer (for origins); `inlining` lists definitions the
/// caller is inlining around it, which must not be merged again (a
/// recursive type).
///
/// # Errors
///
/// [`CompositionError`] when the parts disagree, exclude each other, refer
/// outside the definitions or recursively, or exceed the bounds.
pub(crate) fn distribute(
    root: &Value,
    m: &Map<String, Value>,
    src: &str,
    at: &str,
    inlining: &[String],
) -> Result<Distribution, CompositionError> {
    let mut d = Distributor {
        root,
        inlining,
        unions: Vec::new(),
    };
    let mut base = Merged::default();
    let mut queue = VecDeque::new();
    let mut stack = Vec::new();
    let part = Part { src, at };
    if let Fit::Empty = d.flatten(m, part, &mut base, &mut queue, &mut stack, 0)? {
        return Err(CompositionError::empty(
            src,
            "accepts no value (the parts of its composition exclude each other)",
        ));
    }
    if queue.is_empty() {
        return Ok(Distribution {
            wrapper: None,
            objects: vec![base],
            unions: d.unions,
        });
    }
    // What describes the whole union stays on it; each merged object
    // keeps its branch's own description.
    let mut wrapper = Map::new();
    for key in ["description", "title"] {
        if let Some(v) = base.schema.remove(key) {
            base.origins.remove(key);
            wrapper.insert(key.to_owned(), v);
        }
    }
    let mut objects = Vec::new();
    d.expand(base, queue, src, 1, &mut objects)?;
    if objects.is_empty() {
        return Err(CompositionError::empty(
            src,
            "accepts no value (no branch of its union fits the members beside it)",
        ));
    }
    Ok(Distribution {
        wrapper: Some(wrapper),
        objects,
        unions: d.unions,
    })
}

/// What flattening found: the object is still satisfiable, or its parts
/// exclude each other (no value can hold them all).
enum Fit {
    Fits,
    Empty,
}

/// Where a part is: as errors name it, and its true pointer.
#[derive(Clone, Copy)]
struct Part<'p> {
    src: &'p str,
    at: &'p str,
}

/// A union waiting to be expanded: its pointers and branches.
#[derive(Clone)]
struct Queued {
    src: String,
    at: String,
    branches: Vec<Value>,
}

struct Distributor<'r> {
    root: &'r Value,
    inlining: &'r [String],
    unions: Vec<UnionMet>,
}

impl Distributor<'_> {
    /// Every combination of one branch per union, each merged with `base`
    /// (branches that exclude `base` are left out: no value holds both).
    fn expand(
        &mut self,
        base: Merged,
        mut unions: VecDeque<Queued>,
        src: &str,
        level: usize,
        out: &mut Vec<Merged>,
    ) -> Result<(), CompositionError> {
        let Some(union) = unions.pop_front() else {
            if out.len() == MAX_BRANCHES {
                return Err(CompositionError::new(
                    src,
                    &format!("a composition of more than {MAX_BRANCHES} alternatives"),
                ));
            }
            out.push(base);
            return Ok(());
        };
        for (i, branch) in union.branches.iter().enumerate() {
            let branch_src = format!("{}/{i}", union.src);
            let branch_at = format!("{}/{i}", union.at);
            let part = Part {
                src: &branch_src,
                at: &branch_at,
            };
            let mut merged = base.clone();
            merged.group = level;
            let mut rest = unions.clone();
            let fit = match branch {
                Value::Object(b) => {
                    self.flatten(b, part, &mut merged, &mut rest, &mut Vec::new(), 0)?
                }
                Value::Bool(true) => Fit::Fits,
                Value::Bool(false) => Fit::Empty,
                _ => {
                    return Err(CompositionError::new(
                        &branch_src,
                        "a schema must be an object or a boolean",
                    ));
                }
            };
            if let Fit::Fits = fit {
                merged.group = 0;
                self.expand(merged, rest, src, level + 1, out)?;
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
        part: Part<'_>,
        into: &mut Merged,
        unions: &mut VecDeque<Queued>,
        stack: &mut Vec<String>,
        depth: usize,
    ) -> Result<Fit, CompositionError> {
        let Part { src, at } = part;
        if depth > MAX_FLATTEN_DEPTH {
            return Err(CompositionError::new(
                src,
                "a composition nested too deeply",
            ));
        }
        if let Some(reference) = m.get("$ref") {
            let target = local_target(reference).ok_or_else(|| {
                CompositionError::new(src, "a $ref outside the schema's definitions")
            })?;
            // Also a definition already merged into this object: reached
            // again through one of its own union branches, it would be
            // merged without end.
            if stack.contains(&target)
                || self.inlining.contains(&target)
                || into.inlined.contains(&target)
            {
                return Err(CompositionError::new(
                    src,
                    "a recursive reference inside a composition",
                ));
            }
            let Some(Value::Object(definition)) = self.root.pointer(&target) else {
                return Err(CompositionError::new(
                    src,
                    "a $ref to a missing or boolean definition",
                ));
            };
            let mut definition = definition.clone();
            definition.remove("$defs");
            definition.remove("definitions");
            // The referencing site's own members come first (an internally
            // tagged variant's tag): consumers write members in schema
            // order, and the tag decides what follows.
            if let Some(Value::Object(properties)) = m.get("properties") {
                merge_properties(into, properties, at);
            }
            stack.push(target.clone());
            let inner = Part { src, at: &target };
            let fit = self.flatten(&definition, inner, into, unions, stack, depth + 1)?;
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
                        return Err(CompositionError::new(src, "allOf must be a list"));
                    };
                    let mut fit = Fit::Fits;
                    for (i, p) in parts.iter().enumerate() {
                        let part_src = format!("{src}/allOf/{i}");
                        let part_at = format!("{at}/allOf/{i}");
                        let inner = Part {
                            src: &part_src,
                            at: &part_at,
                        };
                        fit = match p {
                            Value::Object(p) => {
                                self.flatten(p, inner, into, unions, stack, depth + 1)?
                            }
                            Value::Bool(true) => Fit::Fits,
                            Value::Bool(false) => Fit::Empty,
                            _ => {
                                return Err(CompositionError::new(
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
                        return Err(CompositionError::new(src, "anyOf/oneOf must be a list"));
                    };
                    let keyword = if key == "oneOf" { "oneOf" } else { "anyOf" };
                    self.unions.push(UnionMet {
                        src: src.to_owned(),
                        at: at.to_owned(),
                        keyword,
                        branches: branches.clone(),
                    });
                    if unions.len() == MAX_UNIONS {
                        return Err(CompositionError::new(
                            src,
                            &format!("a composition of more than {MAX_UNIONS} unions"),
                        ));
                    }
                    unions.push_back(Queued {
                        src: format!("{src}/{key}"),
                        at: child_pointer(at, keyword),
                        branches: branches.clone(),
                    });
                    Fit::Fits
                }
                "properties" => {
                    let Value::Object(properties) = value else {
                        return Err(CompositionError::new(src, "properties must be an object"));
                    };
                    if !m.contains_key("$ref") {
                        merge_properties(into, properties, at);
                    }
                    Fit::Fits
                }
                "required" => {
                    let Value::Array(names) = value else {
                        return Err(CompositionError::new(src, "required must be a list"));
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
                "additionalProperties" | "unevaluatedProperties"
                    if value == &Value::Bool(false) =>
                {
                    into.closed = true;
                    let own = (key == "additionalProperties"
                        && !m.contains_key("patternProperties"))
                    .then(|| match m.get("properties") {
                        Some(Value::Object(p)) => p.keys().cloned().collect(),
                        _ => Vec::new(),
                    });
                    into.closers.push(Closer {
                        at: at.to_owned(),
                        keyword: if key == "additionalProperties" {
                            "additionalProperties"
                        } else {
                            "unevaluatedProperties"
                        },
                        own,
                    });
                    Fit::Fits
                }
                k if ANNOTATIONS.contains(&k) => {
                    into.schema.insert(key.clone(), value.clone());
                    into.origins.insert(key.clone(), at.to_owned());
                    Fit::Fits
                }
                _ => match into.schema.get(key) {
                    None => {
                        into.schema.insert(key.clone(), value.clone());
                        into.origins.insert(key.clone(), at.to_owned());
                        Fit::Fits
                    }
                    Some(existing) if existing == value => Fit::Fits,
                    Some(_) => {
                        return Err(CompositionError::new(
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
}

/// Adds `properties` (of the part at `at`) to the `properties` of `into`; a
/// member both declare differently must satisfy both (an `allOf`, merged in
/// turn when the member is handled).
fn merge_properties(into: &mut Merged, properties: &Map<String, Value>, at: &str) {
    let merged = into
        .schema
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
                let origin = child_pointer(&child_pointer(at, "properties"), name);
                into.member_origins.insert(name.clone(), origin);
                if into.group > 0 {
                    into.member_groups.insert(name.clone(), into.group);
                }
            }
            Some(existing) if existing == member => {}
            Some(existing) => {
                let earlier = existing.take();
                *existing = json!({"allOf": [earlier, member]});
                into.member_origins.remove(name);
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

#[cfg(test)]
mod tests {
    use super::distribute;
    use serde_json::json;

    #[test]
    fn merged_objects_know_where_their_parts_are() {
        let root = json!({
            "type": "object",
            "properties": {"to": {"type": "string"}},
            "required": ["to"],
            "oneOf": [
                {"$ref": "#/$defs/Args", "type": "object", "properties": {"t": {"const": "A"}}, "required": ["t"]},
                {"type": "object", "properties": {"t": {"const": "B"}}, "required": ["t"], "minProperties": 2}
            ],
            "unevaluatedProperties": false,
            "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}
        });
        let map = root.as_object().expect("object");
        let d = distribute(&root, map, "", "", &[]).expect("distributed");
        assert!(d.wrapper.is_some());
        assert_eq!(d.objects.len(), 2);
        let (a, b) = (&d.objects[0], &d.objects[1]);
        assert!(a.closed && b.closed);
        assert_eq!(a.inlined, ["/$defs/Args"]);
        assert_eq!(a.member_origins["to"], "/properties/to");
        assert_eq!(a.member_origins["t"], "/oneOf/0/properties/t");
        assert_eq!(a.member_origins["q"], "/$defs/Args/properties/q");
        assert_eq!(b.origins["minProperties"], "/oneOf/1");
        // The union's members form group 1; the object's own, none.
        assert!(!a.member_groups.contains_key("to"));
        assert_eq!((a.member_groups["t"], a.member_groups["q"]), (1, 1));
        assert_eq!(a.closed_schema()["required"], json!(["to", "q", "t"]));
        assert_eq!(a.closed_schema()["additionalProperties"], json!(false));
        assert_eq!(d.unions.len(), 1);
        assert_eq!(
            (d.unions[0].at.as_str(), d.unions[0].keyword),
            ("", "oneOf")
        );
    }

    #[test]
    fn parts_that_exclude_each_other_are_told_from_parts_that_disagree() {
        let root = json!({"allOf": [{"type": "string"}, {"type": "integer"}]});
        let e = distribute(&root, root.as_object().expect("object"), "", "", &[]).unwrap_err();
        assert!(e.accepts_nothing);
        let root = json!({"allOf": [{"maxLength": 1}, {"maxLength": 2}]});
        let e = distribute(&root, root.as_object().expect("object"), "", "", &[]).unwrap_err();
        assert!(!e.accepts_nothing);
        assert!(e.reason.contains("maxLength"), "{}", e.reason);
    }
}
