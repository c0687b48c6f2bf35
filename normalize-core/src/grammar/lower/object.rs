//! Objects: declared members in schema order (optional ones may be absent),
//! extra members after them when the object is open, commas only between
//! members. Extra members never reuse a declared name: their names are
//! written canonically and exclude the declared ones.

use super::{Lowering, child};
use crate::composition::Merged;
use crate::grammar::error::GrammarError;
use crate::grammar::ir::{Expr, RuleId};
use crate::grammar::json_lex;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Most blocks of union members placed freely among an object's own
/// members (each multiplies the rules of the member list).
const MAX_FLOATING_BLOCKS: usize = 4;

impl Lowering<'_, '_> {
    /// An object. For a merged object, `merged` gives the pointer each
    /// member's schema comes from (else members are at
    /// `pointer/properties/name`) and which members came with a union's
    /// branch (see [`Lowering::interleaved`]).
    pub(super) fn object(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        depth: usize,
        into: Option<RuleId>,
        merged: Option<&Merged>,
    ) -> Result<Expr, GrammarError> {
        let id = self.reserve(pointer, "object", into);
        let keyword_type = |keyword, expected| GrammarError::KeywordType {
            at: pointer.to_owned(),
            keyword,
            expected,
        };
        let properties: Option<&Map<String, Value>> = match map.get("properties") {
            None => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => return Err(keyword_type("properties", "an object")),
        };
        let mut required: Vec<&str> = Vec::new();
        match map.get("required") {
            None => {}
            Some(Value::Array(names)) => {
                for name in names {
                    let name = name
                        .as_str()
                        .ok_or_else(|| keyword_type("required", "an array of strings"))?;
                    if !required.contains(&name) {
                        required.push(name);
                    }
                }
            }
            Some(_) => return Err(keyword_type("required", "an array of strings")),
        }
        let extra_value = match map.get("additionalProperties") {
            None => Some(self.builder.any_value()),
            Some(schema) => {
                let value = self.schema(
                    &child(pointer, "additionalProperties"),
                    schema,
                    depth + 1,
                    None,
                )?;
                (!value.is_never()).then_some(value)
            }
        };
        // An extra member must not reuse a declared name (with the extra
        // schema instead of the declared one): every name in `properties`
        // (even one whose schema is `false`) and in `required`.
        let mut declared: Vec<&str> = properties
            .into_iter()
            .flatten()
            .map(|(key, _)| key.as_str())
            .collect();
        for name in &required {
            if !declared.contains(name) {
                declared.push(name);
            }
        }
        let extra = extra_value
            .as_ref()
            .map(|value| self.extra_member(pointer, &declared, value.clone()));

        let at = child(pointer, "properties");
        let mut members: Vec<(Expr, bool)> = Vec::new();
        let mut groups: Vec<usize> = Vec::new();
        let mut satisfiable = true;
        for (key, schema) in properties.into_iter().flatten() {
            let member_at = merged
                .and_then(|m| m.member_origins.get(key))
                .cloned()
                .unwrap_or_else(|| child(&at, key));
            let value = self.schema(&member_at, schema, depth + 1, None)?;
            let is_required = required.contains(&key.as_str());
            if value.is_never() {
                satisfiable &= !is_required;
                continue;
            }
            members.push((member(key, value), is_required));
            groups.push(
                merged
                    .and_then(|m| m.member_groups.get(key))
                    .copied()
                    .unwrap_or(0),
            );
        }
        for name in &required {
            if properties.is_some_and(|p| p.contains_key(*name)) {
                continue;
            }
            match &extra_value {
                Some(value) => {
                    members.push((member(name, value.clone()), true));
                    groups.push(0);
                }
                None => satisfiable = false,
            }
        }
        let body = if satisfiable {
            let chain = if groups.iter().any(|g| *g > 0) {
                self.interleaved(pointer, &members, &groups, extra)
            } else {
                self.members(pointer, &members, extra)
            };
            Expr::seq([Expr::lit("{"), chain, Expr::lit("}")])
        } else {
            Expr::never()
        };
        self.builder.rules.define(id, body);
        Ok(Expr::Rule(id))
    }

    /// `"name":value` for an extra member of an open object. Beside declared
    /// members it is a rule of its own (the member list uses it twice, and
    /// its name lexeme is not small); its name is written
    /// canonically and is none of the `declared` names; a declared name too
    /// long to exclude is reported.
    fn extra_member(&mut self, pointer: &str, declared: &[&str], value: Expr) -> Expr {
        let (excluded, too_long): (Vec<&str>, Vec<&str>) = declared
            .iter()
            .partition(|name| name.chars().count() <= json_lex::MAX_EXCLUDED_NAME);
        if !too_long.is_empty() {
            self.note(
                pointer,
                "additionalProperties",
                format!(
                    "extra member names are not kept apart from declared names longer than {} \
                     characters",
                    json_lex::MAX_EXCLUDED_NAME
                ),
            );
        }
        if excluded.is_empty() {
            // A map: any name, inline as any other member.
            return Expr::seq([
                Expr::token(json_lex::string(0, None)),
                Expr::lit(":"),
                value,
            ]);
        }
        // The name is a rule of its own, made of the one lexeme: GBNF has no
        // lexer, and a GBNF consumer that builds one (llguidance's GBNF
        // import) turns a rule of characters only into a single lexeme, as
        // the Lark output has it. Inline, its characters would be lexed one
        // by one against the declared names' literals and lose (`"ven"`
        // read as the start of `"venue"`).
        let object = self.rule_name(pointer, "object");
        let name = self.builder.rules.reserve(format!("{object}-extra-name"));
        self.builder
            .rules
            .define(name, Expr::token(json_lex::key_except(&excluded)));
        let id = self.builder.rules.reserve(format!("{object}-extra"));
        self.builder
            .rules
            .define(id, Expr::seq([Expr::Rule(name), Expr::lit(":"), value]));
        Expr::Rule(id)
    }

    /// The members between `{` and `}`: declared ones in schema order
    /// (optional ones may be absent), then extra ones when the object is
    /// open, with commas only between members.
    fn members(&mut self, pointer: &str, members: &[(Expr, bool)], extra: Option<Expr>) -> Expr {
        let n = members.len();
        let extra_tail = extra
            .as_ref()
            .map(|e| Expr::repeat(Expr::seq([Expr::lit(","), e.clone()]), 0, None))
            .unwrap_or_else(Expr::empty);
        // Members before the first required one may each start the list;
        // the rests after them are shared, so name them when there are many.
        let first_required = members.iter().position(|(_, r)| *r).unwrap_or(n);
        let name_rests = first_required >= 2;
        let mut rests: Vec<Expr> = vec![Expr::empty(); n + 1];
        rests[n] = extra_tail.clone();
        for k in (0..n).rev() {
            let (value, required) = &members[k];
            let part = Expr::seq([Expr::lit(","), value.clone()]);
            let part = if *required {
                part
            } else {
                Expr::optional(part)
            };
            let rest = Expr::seq([part, rests[k + 1].clone()]);
            rests[k] = if name_rests && (1..=first_required).contains(&k) && !rest.is_empty() {
                let name = format!("{}-rest-{k}", self.rule_name(pointer, "object"));
                let id = self.builder.rules.reserve(name);
                self.builder.rules.define(id, rest);
                Expr::Rule(id)
            } else {
                rest
            };
        }
        let mut head = if first_required == n {
            extra
                .map(|e| Expr::optional(Expr::seq([e, extra_tail])))
                .unwrap_or_else(Expr::empty)
        } else {
            Expr::seq([
                members[first_required].0.clone(),
                rests[first_required + 1].clone(),
            ])
        };
        for k in (0..first_required).rev() {
            head = Expr::alt([
                Expr::seq([members[k].0.clone(), rests[k + 1].clone()]),
                head,
            ]);
        }
        head
    }
}

/// Where the interleaved member list is: `first` before any member,
/// `after_block` right after a block (which, so that each text has one
/// derivation, is placed just before the next member present or at the
/// end: an optional member cannot be skipped right after it).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Position {
    First,
    Rest,
    AfterBlock,
}

/// The member list under construction by [`Lowering::interleaved`].
struct Interleaving {
    object: String,
    own: Vec<(Expr, bool)>,
    blocks: Vec<Expr>,
    extra: Option<Expr>,
    extra_tail: Expr,
    rules: HashMap<(usize, usize, Position), RuleId>,
}

impl Lowering<'_, '_> {
    /// The members of a merged object whose union members (`groups` > 0)
    /// form blocks: each block (a flattened enum's variant, which serde
    /// writes together where the field is declared) may sit anywhere among
    /// the object's own members, in order; otherwise as
    /// [`Lowering::members`]. A block that may be empty (no required
    /// member) stays where the schema puts it.
    fn interleaved(
        &mut self,
        pointer: &str,
        members: &[(Expr, bool)],
        groups: &[usize],
        extra: Option<Expr>,
    ) -> Expr {
        let mut ids: Vec<usize> = groups.iter().copied().filter(|g| *g > 0).collect();
        ids.sort_unstable();
        ids.dedup();
        let floating: Vec<usize> = ids
            .into_iter()
            .filter(|g| members.iter().zip(groups).any(|((_, r), h)| h == g && *r))
            .collect();
        if floating.is_empty() || floating.len() > MAX_FLOATING_BLOCKS {
            return self.members(pointer, members, extra);
        }
        let own: Vec<(Expr, bool)> = members
            .iter()
            .zip(groups)
            .filter(|(_, g)| !floating.contains(g))
            .map(|(m, _)| m.clone())
            .collect();
        let object = self.rule_name(pointer, "object");
        let mut blocks = Vec::with_capacity(floating.len());
        for (k, g) in floating.iter().enumerate() {
            let block: Vec<(Expr, bool)> = members
                .iter()
                .zip(groups)
                .filter(|(_, h)| *h == g)
                .map(|(m, _)| m.clone())
                .collect();
            let chain = self.members(pointer, &block, None);
            let id = self.builder.rules.reserve(format!("{object}-block-{k}"));
            self.builder.rules.define(id, chain);
            blocks.push(Expr::Rule(id));
        }
        let extra_tail = extra
            .as_ref()
            .map(|e| Expr::repeat(Expr::seq([Expr::lit(","), e.clone()]), 0, None))
            .unwrap_or_else(Expr::empty);
        let mut list = Interleaving {
            object,
            own,
            blocks,
            extra,
            extra_tail,
            rules: HashMap::new(),
        };
        self.position(&mut list, 0, 0, Position::First)
    }

    /// The rest of an interleaved member list from own member `i` and
    /// block `j` on.
    fn position(&mut self, list: &mut Interleaving, i: usize, j: usize, at: Position) -> Expr {
        // Right after a block, only skipping an optional member differs.
        let at = if at == Position::AfterBlock && list.own.get(i).is_none_or(|(_, r)| *r) {
            Position::Rest
        } else {
            at
        };
        if let Some(&id) = list.rules.get(&(i, j, at)) {
            return Expr::Rule(id);
        }
        let id = self
            .builder
            .rules
            .reserve(format!("{}-members-{i}-{j}", list.object));
        list.rules.insert((i, j, at), id);
        let (n, u) = (list.own.len(), list.blocks.len());
        let sep = |e: Expr| {
            if at == Position::First {
                e
            } else {
                Expr::seq([Expr::lit(","), e])
            }
        };
        let mut alternatives = Vec::new();
        if i < n {
            let (own, required) = list.own[i].clone();
            let next = self.position(list, i + 1, j, Position::Rest);
            alternatives.push(Expr::seq([sep(own), next]));
            if !required && at != Position::AfterBlock {
                alternatives.push(self.position(list, i + 1, j, at));
            }
        }
        if j < u {
            let block = list.blocks[j].clone();
            let next = self.position(list, i, j + 1, Position::AfterBlock);
            alternatives.push(Expr::seq([sep(block), next]));
        }
        if i == n && j == u {
            alternatives.push(match (&list.extra, at) {
                (Some(e), Position::First) => {
                    Expr::optional(Expr::seq([e.clone(), list.extra_tail.clone()]))
                }
                _ => list.extra_tail.clone(),
            });
        }
        self.builder.rules.define(id, Expr::alt(alternatives));
        Expr::Rule(id)
    }
}

/// `"key":value`.
fn member(key: &str, value: Expr) -> Expr {
    Expr::seq([
        Expr::token(json_lex::literal(&Value::String(key.to_owned()))),
        Expr::lit(":"),
        value,
    ])
}
