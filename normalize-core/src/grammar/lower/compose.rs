//! Compositions: `$ref` beside other constraints, `allOf`, an object's
//! members beside a union (a flattened enum), `unevaluatedProperties`.
//!
//! A grammar enumerates an object's members, so it cannot intersect two
//! object schemas the way a validator does: compiled part by part, a struct
//! that flattens an enum would lose either its own fields or the variants',
//! and `unevaluatedProperties: false` (how the contract closes a composed
//! object where it is used) would close nothing. The composition is
//! distributed instead, by the transform the OpenAI strict form uses
//! ([`crate::composition`]): one merged object per combination of union
//! branches, each compiled as a plain object, closed when a part closed it.
//! Where distribution is impossible (parts that disagree, a reference
//! outside the definitions, the bounds), the composition is compiled part
//! by part as before, and what that leaves out is reported.

use super::{Lowering, MAX_DEPTH};
use crate::composition::{self, Merged, UnionMet, declares_object, local_target};
use crate::grammar::error::GrammarError;
use crate::grammar::ir::{Expr, RuleId};
use crate::grammar::report::{Role, role};
use serde_json::{Map, Value};

/// Most merged objects compiled for one schema: each is a rule of its own
/// (a definition inlined at every composition that uses it), so this bounds
/// the grammar's size; beyond it, compositions are compiled part by part.
pub(super) const MAX_MERGED_OBJECTS: usize = 1024;

/// Deepest nesting at which a composition is still distributed: below it,
/// the part-by-part compilation (whose `$ref`s are compiled once each)
/// finishes within [`MAX_DEPTH`].
const MAX_COMPOSE_DEPTH: usize = MAX_DEPTH / 2;

/// `$ref` hops followed when telling whether union branches exclude each
/// other.
const MAX_HOPS: usize = 8;

impl Lowering<'_, '_> {
    /// The grammar of `map` distributed, when it is a composition that can
    /// be; `None` to compile it part by part.
    pub(super) fn composed(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        depth: usize,
        into: Option<RuleId>,
    ) -> Result<Option<Expr>, GrammarError> {
        if !is_composed(map)
            || depth > MAX_COMPOSE_DEPTH
            || self.merged_objects >= MAX_MERGED_OBJECTS
        {
            return Ok(None);
        }
        let key = (pointer.to_owned(), Value::Object(map.clone()).to_string());
        if let Some(&id) = self.composed.get(&key) {
            return Ok(Some(Expr::Rule(id)));
        }
        let document = self.document;
        let distribution = match composition::distribute(document, map, pointer, pointer, &[]) {
            Ok(distribution) => distribution,
            // Exact: the parts' types, or every branch, exclude the rest.
            Err(e) if e.accepts_nothing => return Ok(Some(Expr::never())),
            Err(_) => return Ok(None),
        };
        if self.merged_objects + distribution.objects.len() > MAX_MERGED_OBJECTS {
            return Ok(None);
        }
        self.merged_objects += distribution.objects.len();
        let id = self.reserve(pointer, "composed", into);
        self.composed.insert(key, id);
        let closed: Vec<Map<String, Value>> = distribution
            .objects
            .iter()
            .map(Merged::closed_schema)
            .collect();
        for UnionMet {
            at,
            keyword,
            branches,
            ..
        } in &distribution.unions
        {
            // Each merged object holds one branch of the union; when it
            // excludes every other branch, a value the grammar admits
            // matches exactly one.
            let one_each = closed.iter().all(|object| {
                let object = View::of_map(document, object);
                branches
                    .iter()
                    .filter(|b| {
                        let branch = View::of(document, b);
                        !object.excludes(&branch) && !branch.excludes(&object)
                    })
                    .count()
                    <= 1
            });
            if !one_each {
                self.note_exclusivity(at, keyword, branches);
            }
        }
        let mut branches = Vec::with_capacity(distribution.objects.len());
        for merged in &distribution.objects {
            branches.push(self.merged(pointer, merged, depth)?);
        }
        self.builder.rules.define(id, Expr::alt(branches));
        Ok(Some(Expr::Rule(id)))
    }

    /// One merged object: its keywords reported where the part that wrote
    /// them is, its members compiled where their schemas are.
    fn merged(
        &mut self,
        pointer: &str,
        merged: &Merged,
        depth: usize,
    ) -> Result<Expr, GrammarError> {
        let schema = merged.closed_schema();
        let mut compiled = Map::new();
        for (keyword, value) in &schema {
            let at = merged.origins.get(keyword).map_or(pointer, String::as_str);
            match role(keyword) {
                Role::Annotation => {}
                Role::Compiled => {
                    compiled.insert(keyword.clone(), value.clone());
                }
                Role::Ignored(reason) => self.note(at, keyword, reason),
                Role::Unknown => {
                    self.note(at, keyword, "unknown keyword: the grammar ignores it");
                }
            }
        }
        let closes = merged.closed && declares_object(&schema);
        let members: Vec<&String> = match schema.get("properties") {
            Some(Value::Object(p)) => p.keys().collect(),
            _ => Vec::new(),
        };
        let admits_objects = match schema.get("type") {
            None => true,
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            Some(_) => true,
        };
        for closer in &merged.closers {
            if !closes && admits_objects {
                self.note(
                    &closer.at,
                    closer.keyword,
                    "closes objects only, and this composition does not say it is one: the \
                     grammar leaves it open",
                );
            } else if let Some(own) = &closer.own {
                // JSON Schema's `additionalProperties` sees its own part's
                // members only; the merged object takes its partners' too.
                if members.iter().any(|m| !own.contains(m)) {
                    self.note(
                        &closer.at,
                        closer.keyword,
                        "refuses the members other parts of its composition declare; the \
                         grammar closes the merged object, admitting them",
                    );
                }
            }
        }
        if compiled.is_empty() {
            return Ok(self.builder.any_value());
        }
        self.typed(pointer, &compiled, depth + 1, None, Some(merged))
    }

    /// Reports a `oneOf` whose branches may overlap: the grammar accepts a
    /// value matching any branch, so only branches that exclude each other
    /// keep "exactly one".
    pub(super) fn note_exclusivity(&mut self, at: &str, keyword: &str, branches: &[Value]) {
        if keyword == "oneOf" && branches.len() > 1 && !exclusive(self.document, branches) {
            self.note(
                at,
                "oneOf",
                "exclusivity (exactly one branch matches) is not enforced: the grammar accepts \
                 a value matching any branch",
            );
        }
    }
}

/// Whether the grammar distributes `map`: a `$ref` beside constraints, an
/// `allOf`, an object beside a union, or an object closed by
/// `unevaluatedProperties`.
fn is_composed(map: &Map<String, Value>) -> bool {
    let reference_with_siblings = map.contains_key("$ref")
        && map
            .keys()
            .any(|k| k != "$ref" && role(k) != Role::Annotation);
    let object = declares_object(map);
    reference_with_siblings
        || map.contains_key("allOf")
        || (object
            && (map.contains_key("anyOf")
                || map.contains_key("oneOf")
                || map.contains_key("unevaluatedProperties")))
}

/// Whether no value matches two of `branches` (a sufficient test: types
/// apart, different constants, different constant tags, or a required
/// member another closed branch cannot have).
pub(super) fn exclusive(document: &Value, branches: &[Value]) -> bool {
    let views: Vec<View<'_>> = branches.iter().map(|b| View::of(document, b)).collect();
    views.iter().enumerate().all(|(i, a)| {
        views[i + 1..]
            .iter()
            .all(|b| a.excludes(b) || b.excludes(a))
    })
}

/// What the exclusivity test reads of one branch: its own keywords and,
/// through a `$ref`, its definition's.
struct View<'d> {
    parts: Vec<&'d Map<String, Value>>,
    /// Some part is not read (a `$ref` not followed), or the grammar does
    /// not enforce all it says: nothing is concluded from it.
    opaque: bool,
}

impl<'d> View<'d> {
    fn of(document: &'d Value, branch: &'d Value) -> Self {
        match branch.as_object() {
            Some(map) => Self::of_map(document, map),
            None => View {
                parts: Vec::new(),
                opaque: false,
            },
        }
    }

    fn of_map(document: &'d Value, map: &'d Map<String, Value>) -> Self {
        let mut parts = Vec::new();
        let mut opaque = false;
        let mut next = Some(map);
        for _ in 0..MAX_HOPS {
            let Some(part) = next else { break };
            // A composition the grammar compiles part by part enforces
            // less than it says (its closing, the keywords beside `$ref`).
            opaque |= is_composed(part)
                && composition::distribute(document, part, "", "", &[])
                    .is_err_and(|e| !e.accepts_nothing);
            parts.push(part);
            next = match part.get("$ref") {
                None => None,
                Some(reference) => {
                    let target = local_target(reference)
                        .and_then(|target| document.pointer(&target))
                        .and_then(Value::as_object);
                    opaque |= target.is_none();
                    target
                }
            };
        }
        opaque |= next.is_some();
        View { parts, opaque }
    }

    fn get(&self, keyword: &str) -> impl Iterator<Item = &'d Value> + '_ {
        let keyword = keyword.to_owned();
        self.parts.iter().filter_map(move |p| p.get(&keyword))
    }

    /// The types it admits, when some part says (`None`: any).
    fn types(&self) -> Option<Vec<&'d str>> {
        let mut out: Option<Vec<&str>> = None;
        for t in self.get("type") {
            let names: Vec<&str> = match t {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => continue,
            };
            out = Some(match out {
                None => names,
                Some(before) => before.into_iter().filter(|t| names.contains(t)).collect(),
            });
        }
        out
    }

    fn only_objects(&self) -> bool {
        self.types().is_some_and(|t| t == ["object"])
    }

    /// Its single constant value, if it has one.
    fn constant(part: &Map<String, Value>) -> Option<&Value> {
        part.get("const").or_else(|| match part.get("enum") {
            Some(Value::Array(values)) if values.len() == 1 => values.first(),
            _ => None,
        })
    }

    fn required(&self, name: &str) -> bool {
        self.get("required")
            .any(|r| r.as_array().is_some_and(|r| r.iter().any(|n| n == name)))
    }

    fn member(&self, name: &str) -> Option<&'d Value> {
        self.get("properties").find_map(|p| p.get(name))
    }

    /// Whether no value of it can have a member `name`: a part closed by
    /// `additionalProperties: false` does not declare it, or a part closed
    /// by `unevaluatedProperties: false` and what it references (nothing
    /// else evaluating members) do not.
    fn forbids(&self, name: &str) -> bool {
        let declares = |p: &Map<String, Value>| {
            p.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|props| props.contains_key(name))
        };
        self.parts.iter().enumerate().any(|(i, p)| {
            if p.contains_key("patternProperties") {
                return false;
            }
            if p.get("additionalProperties") == Some(&Value::Bool(false)) {
                return !declares(p);
            }
            // Enforced when the grammar merges the part (and closes it).
            if p.get("unevaluatedProperties") == Some(&Value::Bool(false)) && is_composed(p) {
                const EVALUATING: &[&str] = &[
                    "allOf",
                    "anyOf",
                    "oneOf",
                    "not",
                    "if",
                    "then",
                    "else",
                    "dependentSchemas",
                    "patternProperties",
                    "additionalProperties",
                ];
                let seen = &self.parts[i..];
                return seen
                    .iter()
                    .all(|q| !EVALUATING.iter().any(|k| q.contains_key(*k)) && !declares(q));
            }
            false
        })
    }

    /// Whether no value matches both `self` and `other`.
    fn excludes(&self, other: &View<'_>) -> bool {
        if self.opaque || other.opaque {
            return false;
        }
        if let (Some(a), Some(b)) = (self.types(), other.types()) {
            let number = |t: &str| t == "number" || t == "integer";
            let overlap = a
                .iter()
                .any(|t| b.contains(t) || (number(t) && b.iter().any(|u| number(u))));
            if !overlap {
                return true;
            }
        }
        let mine = self.parts.iter().find_map(|p| Self::constant(p));
        let theirs = other.parts.iter().find_map(|p| Self::constant(p));
        if let (Some(a), Some(b)) = (mine, theirs)
            && a != b
        {
            return true;
        }
        if !(self.only_objects() && other.only_objects()) {
            return false;
        }
        let constant = |view: &View<'_>, name: &str| {
            view.member(name)
                .and_then(Value::as_object)
                .and_then(Self::constant)
                .cloned()
        };
        self.get("required")
            .filter_map(Value::as_array)
            .flatten()
            .filter_map(Value::as_str)
            .any(|name| {
                // A tag: both require it, with different constants.
                let tag = other.required(name)
                    && matches!(
                        (constant(self, name), constant(other, name)),
                        (Some(a), Some(b)) if a != b
                    );
                // An externally tagged variant: the other cannot have it.
                tag || other.forbids(name)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::exclusive;
    use serde_json::json;

    #[test]
    fn branches_apart_are_exclusive_and_overlapping_ones_are_not() {
        let document =
            json!({"$defs": {"A": {"type": "object", "properties": {"q": {"type": "string"}}}}});
        let tagged = [
            json!({"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]}),
            json!({"$ref": "#/$defs/A", "type": "object", "properties": {"kind": {"type": "string", "const": "b"}}, "required": ["kind"]}),
        ];
        assert!(exclusive(&document, &tagged));
        let keyed = [
            json!({"type": "object", "properties": {"A": {}}, "required": ["A"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"B": {}}, "required": ["B"], "additionalProperties": false}),
            json!({"type": "string", "const": "C"}),
        ];
        assert!(exclusive(&document, &keyed));
        assert!(exclusive(
            &document,
            &[json!({"type": "string"}), json!({"type": "boolean"})]
        ));
        // Overlapping: a number is an integer's supertype; an open branch
        // may hold the other's key; the same tag value.
        assert!(!exclusive(
            &document,
            &[json!({"type": "number"}), json!({"type": "integer"})]
        ));
        let open = [
            json!({"type": "object", "properties": {"A": {}}, "required": ["A"]}),
            json!({"type": "object", "properties": {"B": {}}, "required": ["B"]}),
        ];
        assert!(!exclusive(&document, &open));
        let same = [
            json!({"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]}),
            json!({"type": "object", "properties": {"kind": {"const": "a"}, "x": {}}, "required": ["kind"]}),
        ];
        assert!(!exclusive(&document, &same));
        // A tag that is not required does not separate.
        let optional = [
            json!({"type": "object", "properties": {"kind": {"const": "a"}}}),
            json!({"type": "object", "properties": {"kind": {"const": "b"}}}),
        ];
        assert!(!exclusive(&document, &optional));
        assert!(!exclusive(
            &document,
            &[json!(true), json!({"type": "string"})]
        ));
    }

    #[test]
    fn branches_the_grammar_compiles_part_by_part_prove_nothing() {
        let document = json!({"$defs": {"B": {"type": "object", "maxProperties": 2}}});
        let tag = |value: &str| json!({"type": "object", "properties": {"kind": {"const": value}}, "required": ["kind"]});
        let mut merged = tag("a");
        merged["$ref"] = json!("#/$defs/B");
        assert!(exclusive(&document, &[merged.clone(), tag("b")]));
        // The parts disagree: the grammar enforces the `$ref` target only.
        merged["maxProperties"] = json!(1);
        assert!(!exclusive(&document, &[merged.clone(), tag("b")]));
        // A reference that is not followed.
        merged["$ref"] = json!("#/$defs/Missing");
        if let Some(m) = merged.as_object_mut() {
            m.remove("maxProperties");
        }
        assert!(!exclusive(&document, &[merged, tag("b")]));
    }
}
