//! JSON Schema → grammar IR: one pass over the reachable subschemas,
//! `$ref` targets memoized as named rules (so recursion terminates), and every
//! keyword either compiled or recorded as not enforced.

mod array;
mod compose;
mod names;
mod object;
mod pointer;
mod string;
mod types;

pub(crate) use names::tool_prefix;

use super::error::GrammarError;
use super::ir::{Expr, Lex, RuleId, RuleSet};
use super::json_lex;
use super::numbers::{NumberTexts, literal_text};
use super::report::{Role, Unenforced, role};
use crate::composition::Merged;
use pointer::{child, local_pointer};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use types::{Types, json_type};

/// Subschema nesting the compiler follows before giving up (`$ref` targets
/// are compiled once, so recursion through them does not count).
pub const MAX_DEPTH: usize = 128;

/// The largest `minLength`/`maxLength`/`minItems`/`maxItems` written into a
/// grammar. Engines expand bounded repetitions into rules, so a larger bound
/// is left to the validator (and reported).
pub const MAX_COUNT: u32 = 4096;

/// Rules under construction, with the generic JSON rules shared by every
/// schema compiled into them.
pub(crate) struct Builder {
    pub(crate) rules: RuleSet,
    any_value: Option<RuleId>,
}

impl Builder {
    /// A rule set whose rule 0 (the start) is reserved under `start_name`.
    pub(crate) fn new(start_name: &str) -> Self {
        let mut rules = RuleSet::default();
        rules.reserve(start_name.to_owned());
        Self {
            rules,
            any_value: None,
        }
    }

    /// Any JSON value (minified), created on first use.
    fn any_value(&mut self) -> Expr {
        if let Some(id) = self.any_value {
            return Expr::Rule(id);
        }
        let value = self.rules.reserve("json-value".into());
        self.any_value = Some(value);
        let object = self.rules.reserve("json-object".into());
        let array = self.rules.reserve("json-array".into());
        let member = Expr::seq([
            Expr::token(json_lex::string(0, None)),
            Expr::lit(":"),
            Expr::Rule(value),
        ]);
        self.rules.define(
            object,
            Expr::seq([
                Expr::lit("{"),
                Expr::optional(Expr::seq([
                    member.clone(),
                    Expr::repeat(Expr::seq([Expr::lit(","), member]), 0, None),
                ])),
                Expr::lit("}"),
            ]),
        );
        self.rules.define(
            array,
            Expr::seq([
                Expr::lit("["),
                Expr::optional(Expr::seq([
                    Expr::Rule(value),
                    Expr::repeat(Expr::seq([Expr::lit(","), Expr::Rule(value)]), 0, None),
                ])),
                Expr::lit("]"),
            ]),
        );
        self.rules.define(
            value,
            Expr::alt([
                Expr::Rule(object),
                Expr::Rule(array),
                Expr::token(json_lex::string(0, None)),
                Expr::token(json_lex::number()),
                Expr::lit("true"),
                Expr::lit("false"),
                Expr::lit("null"),
            ]),
        );
        Expr::Rule(value)
    }
}

/// Compiles `document` (a whole schema) into `root`, a rule reserved in
/// `builder`, naming new rules with `prefix` and writing `enum`/`const`
/// numbers as `numbers` records them. Returns what is not enforced.
pub(crate) fn lower(
    builder: &mut Builder,
    document: &Value,
    numbers: &NumberTexts,
    root: RuleId,
    prefix: &str,
) -> Result<Vec<Unenforced>, GrammarError> {
    let mut lowering = Lowering {
        builder,
        document,
        numbers,
        root_id: document.get("$id").and_then(Value::as_str),
        prefix: prefix.to_owned(),
        by_pointer: HashMap::from([(String::new(), root)]),
        report: Vec::new(),
        seen: HashSet::new(),
        composed: HashMap::new(),
        merged_objects: 0,
        head: vec![(String::new(), "#".to_owned())],
        loops: Vec::new(),
    };
    let body = lowering.schema("", document, 0, Some(root))?;
    if body != Expr::Rule(root) {
        lowering.builder.rules.define(root, body);
    }
    let productive = lowering.builder.rules.productive();
    // A loop whose first schema admits something has a way out (another
    // branch): it only admits again what that branch admits.
    if let Some(RefLoop { at, chain, .. }) = lowering
        .loops
        .into_iter()
        .find(|found| !productive[found.rule])
    {
        return Err(GrammarError::RefLoop { at, chain });
    }
    if !productive[root] {
        return Err(GrammarError::Unsatisfiable { at: String::new() });
    }
    Ok(lowering.report)
}

/// `$ref`s that lead back to where they started without a schema of their
/// own in between (only references and union branches).
struct RefLoop {
    /// The rule of the first schema of the loop.
    rule: RuleId,
    /// Its pointer.
    at: String,
    /// The references followed, as written, from the first schema back to
    /// it.
    chain: Vec<String>,
}

struct Lowering<'s, 'b> {
    builder: &'b mut Builder,
    document: &'s Value,
    numbers: &'b NumberTexts,
    root_id: Option<&'s str>,
    prefix: String,
    by_pointer: HashMap<String, RuleId>,
    report: Vec<Unenforced>,
    seen: HashSet<(String, String)>,
    /// Distributed compositions by (pointer, schema text): each is compiled
    /// once, and a recursive type reaching the same composition again
    /// refers to its rule.
    composed: HashMap<(String, String), RuleId>,
    /// Merged objects compiled so far (bounded by
    /// [`compose::MAX_MERGED_OBJECTS`]).
    merged_objects: usize,
    /// The `$ref` targets entered since the last object or array on the
    /// path being compiled (its members start with text of their own), by
    /// pointer and as the reference writes it; the document root first.
    /// Meeting one of them again is a loop that writes nothing.
    head: Vec<(String, String)>,
    /// The loops met, checked once every rule is defined.
    loops: Vec<RefLoop>,
}

impl<'s> Lowering<'s, '_> {
    fn note(&mut self, pointer: &str, keyword: &str, reason: impl Into<String>) {
        if self.seen.insert((pointer.to_owned(), keyword.to_owned())) {
            self.report.push(Unenforced {
                pointer: pointer.to_owned(),
                keyword: keyword.to_owned(),
                reason: reason.into(),
            });
        }
    }

    /// Reports every compiled keyword of `map` except `keep` as not enforced.
    fn note_siblings(&mut self, pointer: &str, map: &Map<String, Value>, keep: &[&str], why: &str) {
        for keyword in map.keys() {
            if role(keyword) == Role::Compiled && !keep.contains(&keyword.as_str()) {
                self.note(pointer, keyword, why);
            }
        }
    }

    fn rule_name(&self, pointer: &str, kind: &str) -> String {
        names::rule_name(&self.prefix, pointer, kind)
    }

    fn reserve(&mut self, pointer: &str, kind: &str, into: Option<RuleId>) -> RuleId {
        match into {
            Some(id) => id,
            None => {
                let name = self.rule_name(pointer, kind);
                self.builder.rules.reserve(name)
            }
        }
    }

    /// The grammar of the subschema `schema` at `pointer`. When `into` is
    /// given and the subschema compiles to a rule of its own, that rule is
    /// `into`.
    fn schema(
        &mut self,
        pointer: &str,
        schema: &Value,
        depth: usize,
        into: Option<RuleId>,
    ) -> Result<Expr, GrammarError> {
        if depth > MAX_DEPTH {
            return Err(GrammarError::TooDeep {
                at: pointer.to_owned(),
                limit: MAX_DEPTH,
            });
        }
        let map = match schema {
            Value::Bool(true) => return Ok(self.builder.any_value()),
            Value::Bool(false) => return Ok(Expr::never()),
            Value::Object(map) => map,
            other => {
                return Err(GrammarError::NotASchema {
                    at: pointer.to_owned(),
                    found: json_type(other),
                });
            }
        };
        if let Some(distributed) = self.composed(pointer, map, depth, into)? {
            return Ok(distributed);
        }
        let mut compiled = 0;
        for keyword in map.keys() {
            match role(keyword) {
                Role::Annotation => {}
                Role::Compiled => compiled += 1,
                Role::Ignored(reason) => self.note(pointer, keyword, reason),
                Role::Unknown => {
                    self.note(pointer, keyword, "unknown keyword: the grammar ignores it")
                }
            }
        }
        if compiled == 0 {
            return Ok(self.builder.any_value());
        }
        if let Some(reference) = map.get("$ref") {
            let reference = reference.as_str().ok_or(GrammarError::KeywordType {
                at: pointer.to_owned(),
                keyword: "$ref",
                expected: "a string",
            })?;
            self.note_siblings(
                pointer,
                map,
                &["$ref"],
                "applies alongside `$ref`; the grammar enforces the `$ref` target only",
            );
            return self.reference(pointer, reference, depth);
        }
        if let Some(all) = map.get("allOf") {
            let branches = non_empty_array(pointer, "allOf", all)?;
            if compiled == 1 {
                if branches.len() > 1 {
                    self.note(
                        pointer,
                        "allOf",
                        "only the first branch is enforced: intersections are not expressed in \
                         the grammar",
                    );
                }
                return self.schema(
                    &child(&child(pointer, "allOf"), "0"),
                    &branches[0],
                    depth + 1,
                    into,
                );
            }
            self.note(
                pointer,
                "allOf",
                "intersections are not expressed in the grammar; the sibling keywords are \
                 enforced, the branches are not",
            );
        }
        let union = if map.contains_key("anyOf") {
            Some("anyOf")
        } else if map.contains_key("oneOf") {
            Some("oneOf")
        } else {
            None
        };
        if let Some(keyword) = union {
            return self.union(pointer, map, keyword, depth);
        }
        self.typed(pointer, map, depth, into, None)
    }

    /// The grammar of a subschema without `$ref`, `allOf` or a union, by its
    /// `type`s. For a merged object, `merged` says where its members come
    /// from (their schemas are compiled, and reported, at those pointers)
    /// and which came with a union's branch.
    fn typed(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        depth: usize,
        into: Option<RuleId>,
        merged: Option<&Merged>,
    ) -> Result<Expr, GrammarError> {
        // Subschemas compiled from here on sit inside an object or array:
        // a reference back to a target entered before is recursion, which
        // writes a bracket each time round, not a loop.
        let head = std::mem::take(&mut self.head);
        let typed = self.typed_values(pointer, map, depth, into, merged);
        self.head = head;
        typed
    }

    fn typed_values(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        depth: usize,
        into: Option<RuleId>,
        merged: Option<&Merged>,
    ) -> Result<Expr, GrammarError> {
        let types = self.types(pointer, map)?;
        if map.contains_key("enum") || map.contains_key("const") {
            return self.fixed_values(pointer, map, types);
        }
        if types == Types(Types::OBJECT) {
            return self.object(pointer, map, depth, into, merged);
        }
        if types == Types(Types::ARRAY) {
            return self.array(pointer, map, depth, into);
        }
        let mut branches = Vec::new();
        if types.has(Types::NULL) {
            branches.push(Expr::lit("null"));
        }
        if types.has(Types::BOOLEAN) {
            branches.push(Expr::lit("true"));
            branches.push(Expr::lit("false"));
        }
        if types.has(Types::NUMBER) {
            branches.push(Expr::token(json_lex::number()));
        } else if types.has(Types::INTEGER) {
            branches.push(Expr::token(json_lex::integer()));
        }
        if types.has(Types::STRING) {
            branches.push(self.string(pointer, map)?);
        }
        if types.has(Types::ARRAY) {
            branches.push(self.array(pointer, map, depth, None)?);
        }
        if types.has(Types::OBJECT) {
            branches.push(self.object(pointer, map, depth, None, merged)?);
        }
        Ok(Expr::alt(branches))
    }

    fn types(&self, pointer: &str, map: &Map<String, Value>) -> Result<Types, GrammarError> {
        let names: Vec<&Value> = match map.get("type") {
            None => return Ok(Types::ALL),
            Some(Value::Array(list)) => list.iter().collect(),
            Some(one) => vec![one],
        };
        let mut types = 0;
        for name in names {
            let name = name.as_str().ok_or(GrammarError::KeywordType {
                at: pointer.to_owned(),
                keyword: "type",
                expected: "a type name or an array of type names",
            })?;
            types |= match name {
                "null" => Types::NULL,
                "boolean" => Types::BOOLEAN,
                "integer" => Types::INTEGER,
                "number" => Types::NUMBER,
                "string" => Types::STRING,
                "array" => Types::ARRAY,
                "object" => Types::OBJECT,
                other => {
                    return Err(GrammarError::UnknownType {
                        at: pointer.to_owned(),
                        name: other.to_owned(),
                    });
                }
            };
        }
        Ok(Types(types))
    }

    fn reference(
        &mut self,
        pointer: &str,
        reference: &str,
        depth: usize,
    ) -> Result<Expr, GrammarError> {
        let target =
            local_pointer(reference, self.root_id).ok_or_else(|| GrammarError::NonLocalRef {
                at: pointer.to_owned(),
                reference: reference.to_owned(),
            })?;
        if let Some(&id) = self.by_pointer.get(&target) {
            if let Some(start) = self.head.iter().position(|(entered, _)| *entered == target) {
                let mut chain: Vec<String> =
                    self.head[start..].iter().map(|(_, r)| r.clone()).collect();
                chain.push(reference.to_owned());
                self.loops.push(RefLoop {
                    rule: id,
                    at: target,
                    chain,
                });
            }
            return Ok(Expr::Rule(id));
        }
        let document: &'s Value = self.document;
        let value = document
            .pointer(&target)
            .ok_or_else(|| GrammarError::DanglingRef {
                at: pointer.to_owned(),
                reference: reference.to_owned(),
            })?;
        let id = self.reserve(&target, "ref", None);
        self.by_pointer.insert(target.clone(), id);
        self.head.push((target.clone(), reference.to_owned()));
        let body = self.schema(&target, value, depth + 1, Some(id))?;
        self.head.pop();
        if body != Expr::Rule(id) {
            self.builder.rules.define(id, body);
        }
        Ok(Expr::Rule(id))
    }

    fn union(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        keyword: &'static str,
        depth: usize,
    ) -> Result<Expr, GrammarError> {
        let branches = non_empty_array(pointer, keyword, &map[keyword])?;
        if keyword == "anyOf" && map.contains_key("oneOf") {
            self.note(
                pointer,
                "oneOf",
                "only `anyOf` is enforced where `anyOf` and `oneOf` meet",
            );
        }
        self.note_exclusivity(pointer, keyword, branches);
        let why = format!("applies alongside `{keyword}`; the grammar enforces the branches only");
        self.note_siblings(pointer, map, &["anyOf", "oneOf", "allOf"], &why);
        let at = child(pointer, keyword);
        let mut exprs = Vec::with_capacity(branches.len());
        for (i, branch) in branches.iter().enumerate() {
            exprs.push(self.schema(&child(&at, &i.to_string()), branch, depth + 1, None)?);
        }
        Ok(Expr::alt(exprs))
    }

    fn fixed_values(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        types: Types,
    ) -> Result<Expr, GrammarError> {
        // Each value with where it sits, for the text of its numbers.
        let mut values: Vec<(String, &Value)> = match map.get("enum") {
            Some(Value::Array(list)) => {
                let at = child(pointer, "enum");
                list.iter()
                    .enumerate()
                    .map(|(i, v)| (child(&at, &i.to_string()), v))
                    .collect()
            }
            Some(_) => {
                return Err(GrammarError::KeywordType {
                    at: pointer.to_owned(),
                    keyword: "enum",
                    expected: "an array",
                });
            }
            None => Vec::new(),
        };
        if let Some(value) = map.get("const") {
            if map.contains_key("enum") {
                values.retain(|(_, v)| *v == value);
            } else {
                values.push((child(pointer, "const"), value));
            }
        }
        values.retain(|(_, v)| types.admits(v));
        self.note_siblings(
            pointer,
            map,
            &["enum", "const", "type"],
            "not checked against the `enum`/`const` values, which the grammar admits as written",
        );
        let numbers = self.numbers;
        Ok(Expr::alt(values.into_iter().map(|(at, v)| {
            Expr::token(Lex::lit(literal_text(v, &at, numbers)))
        })))
    }

    /// A non-negative count keyword, `None` when absent or beyond
    /// [`MAX_COUNT`] (then reported).
    fn count(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        keyword: &'static str,
    ) -> Result<Option<u32>, GrammarError> {
        let Some(value) = map.get(keyword) else {
            return Ok(None);
        };
        let count = value
            .as_u64()
            .or_else(|| {
                value
                    .as_f64()
                    .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                    .map(|f| f as u64)
            })
            .ok_or(GrammarError::KeywordType {
                at: pointer.to_owned(),
                keyword,
                expected: "a non-negative integer",
            })?;
        if count > u64::from(MAX_COUNT) {
            self.note(
                pointer,
                keyword,
                format!("bounds above {MAX_COUNT} are left to the validator"),
            );
            return Ok(None);
        }
        Ok(Some(count as u32))
    }
}

fn non_empty_array<'v>(
    pointer: &str,
    keyword: &'static str,
    value: &'v Value,
) -> Result<&'v [Value], GrammarError> {
    match value {
        Value::Array(list) if !list.is_empty() => Ok(list),
        _ => Err(GrammarError::KeywordType {
            at: pointer.to_owned(),
            keyword,
            expected: "a non-empty array of schemas",
        }),
    }
}
