//! The grammar IR both output formats are printed from: named rules whose
//! bodies combine rule references and *lexemes* (regular expressions over the
//! characters of the JSON text).
//!
//! The split matters for llguidance's Lark dialect, where a lexeme is a
//! terminal matched as one unit (a whole JSON string, a number, a literal),
//! and rules are parsed above the lexer. GBNF has no such split and prints
//! lexemes inline.

use super::charset::CharSet;

/// A regular expression over the characters of the output text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Lex {
    /// This exact text (never empty).
    Lit(String),
    /// One character from the set (never empty).
    Class(CharSet),
    /// Each part in turn.
    Seq(Vec<Lex>),
    /// One of the branches.
    Alt(Vec<Lex>),
    /// Between `min` and `max` (unbounded when `None`) repetitions.
    Repeat(Box<Lex>, u32, Option<u32>),
}

impl Lex {
    /// Text matching nothing but the empty string.
    pub(crate) fn empty() -> Lex {
        Lex::Seq(Vec::new())
    }

    /// Matches no text at all.
    pub(crate) fn never() -> Lex {
        Lex::Alt(Vec::new())
    }

    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Lex::Seq(parts) if parts.is_empty())
    }

    pub(crate) fn is_never(&self) -> bool {
        matches!(self, Lex::Alt(branches) if branches.is_empty())
    }

    /// Literal text (the empty string becomes [`Lex::empty`]).
    pub(crate) fn lit(text: impl Into<String>) -> Lex {
        let text = text.into();
        if text.is_empty() {
            Lex::empty()
        } else {
            Lex::Lit(text)
        }
    }

    /// One character of `set` (an empty set matches nothing).
    pub(crate) fn class(set: CharSet) -> Lex {
        match set.as_single() {
            Some(c) => Lex::Lit(c.to_string()),
            None if set.is_empty() => Lex::never(),
            None => Lex::Class(set),
        }
    }

    /// Concatenation, flattened, with adjacent literals joined.
    pub(crate) fn seq(parts: impl IntoIterator<Item = Lex>) -> Lex {
        let mut out: Vec<Lex> = Vec::new();
        for part in parts {
            match part {
                Lex::Seq(inner) => {
                    for p in inner {
                        push_lex(&mut out, p);
                    }
                }
                p if p.is_never() => return Lex::never(),
                p => push_lex(&mut out, p),
            }
        }
        if out.len() == 1 {
            out.pop().unwrap_or_else(Lex::empty)
        } else {
            Lex::Seq(out)
        }
    }

    /// Alternation, flattened, without duplicates or dead branches.
    pub(crate) fn alt(branches: impl IntoIterator<Item = Lex>) -> Lex {
        let mut out: Vec<Lex> = Vec::new();
        let mut optional = false;
        for branch in branches {
            match branch {
                Lex::Alt(inner) => {
                    for b in inner {
                        if !out.contains(&b) {
                            out.push(b);
                        }
                    }
                }
                b if b.is_empty() => optional = true,
                b => {
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
            }
        }
        let body = if out.len() == 1 {
            out.pop().unwrap_or_else(Lex::never)
        } else {
            Lex::Alt(out)
        };
        if optional {
            Lex::repeat(body, 0, Some(1))
        } else {
            body
        }
    }

    /// `min` to `max` repetitions.
    pub(crate) fn repeat(item: Lex, min: u32, max: Option<u32>) -> Lex {
        if max == Some(0) || item.is_empty() {
            return Lex::empty();
        }
        if item.is_never() {
            return if min == 0 { Lex::empty() } else { Lex::never() };
        }
        if min == 1 && max == Some(1) {
            return item;
        }
        if max.is_some_and(|max| max < min) {
            return Lex::never();
        }
        Lex::Repeat(Box::new(item), min, max)
    }
}

fn push_lex(out: &mut Vec<Lex>, part: Lex) {
    if part.is_empty() {
        return;
    }
    if let (Some(Lex::Lit(last)), Lex::Lit(text)) = (out.last_mut(), &part) {
        last.push_str(text);
        return;
    }
    out.push(part);
}

/// Index of a rule in a [`RuleSet`].
pub(crate) type RuleId = usize;

/// A rule body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    /// One lexeme.
    Token(Lex),
    /// Another rule.
    Rule(RuleId),
    /// Each part in turn.
    Seq(Vec<Expr>),
    /// One of the branches.
    Alt(Vec<Expr>),
    /// Between `min` and `max` (unbounded when `None`) repetitions.
    Repeat(Box<Expr>, u32, Option<u32>),
}

impl Expr {
    /// Matches the empty text only.
    pub(crate) fn empty() -> Expr {
        Expr::Seq(Vec::new())
    }

    /// Matches nothing.
    pub(crate) fn never() -> Expr {
        Expr::Alt(Vec::new())
    }

    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Expr::Seq(parts) if parts.is_empty())
    }

    pub(crate) fn is_never(&self) -> bool {
        matches!(self, Expr::Alt(branches) if branches.is_empty())
    }

    /// A literal token.
    pub(crate) fn lit(text: impl Into<String>) -> Expr {
        Expr::token(Lex::lit(text))
    }

    /// A lexeme as a rule part.
    pub(crate) fn token(lex: Lex) -> Expr {
        if lex.is_empty() {
            Expr::empty()
        } else if lex.is_never() {
            Expr::never()
        } else {
            Expr::Token(lex)
        }
    }

    /// Concatenation, flattened.
    pub(crate) fn seq(parts: impl IntoIterator<Item = Expr>) -> Expr {
        let mut out = Vec::new();
        for part in parts {
            match part {
                Expr::Seq(inner) => out.extend(inner),
                p if p.is_never() => return Expr::never(),
                p => out.push(p),
            }
        }
        if out.len() == 1 {
            out.pop().unwrap_or_else(Expr::empty)
        } else {
            Expr::Seq(out)
        }
    }

    /// Alternation, flattened, without duplicates or dead branches; an
    /// empty branch makes the whole optional.
    pub(crate) fn alt(branches: impl IntoIterator<Item = Expr>) -> Expr {
        let mut out: Vec<Expr> = Vec::new();
        let mut optional = false;
        for branch in branches {
            let inner = match branch {
                Expr::Alt(inner) => inner,
                b => vec![b],
            };
            for b in inner {
                if b.is_empty() {
                    optional = true;
                } else if !out.contains(&b) {
                    out.push(b);
                }
            }
        }
        let body = if out.len() == 1 {
            out.pop().unwrap_or_else(Expr::never)
        } else {
            Expr::Alt(out)
        };
        if optional {
            Expr::repeat(body, 0, Some(1))
        } else {
            body
        }
    }

    /// `min` to `max` repetitions.
    pub(crate) fn repeat(item: Expr, min: u32, max: Option<u32>) -> Expr {
        if max == Some(0) || item.is_empty() {
            return Expr::empty();
        }
        if item.is_never() {
            return if min == 0 {
                Expr::empty()
            } else {
                Expr::never()
            };
        }
        if min == 1 && max == Some(1) {
            return item;
        }
        if max.is_some_and(|max| max < min) {
            return Expr::never();
        }
        Expr::Repeat(Box::new(item), min, max)
    }

    /// Zero or one occurrence.
    pub(crate) fn optional(item: Expr) -> Expr {
        Expr::repeat(item, 0, Some(1))
    }
}

/// A named rule.
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    /// Lowercase words joined by `-` (each format adapts the separator).
    pub(crate) name: String,
    pub(crate) body: Expr,
}

/// The rules of one grammar; rule 0 is where matching starts.
#[derive(Clone, Debug, Default)]
pub(crate) struct RuleSet {
    pub(crate) rules: Vec<Rule>,
}

impl RuleSet {
    /// Reserves a rule (body filled later, so it can refer to itself).
    pub(crate) fn reserve(&mut self, name: String) -> RuleId {
        let mut unique = name.clone();
        let mut n = 1;
        // Rule 0 prints as `root` (GBNF) or `start` (Lark): keep both free.
        while self.rules.iter().any(|rule| rule.name == unique)
            || (!self.rules.is_empty() && matches!(unique.as_str(), "root" | "start"))
        {
            n += 1;
            unique = format!("{name}-{n}");
        }
        self.rules.push(Rule {
            name: unique,
            body: Expr::never(),
        });
        self.rules.len() - 1
    }

    /// Sets the body of a reserved rule.
    pub(crate) fn define(&mut self, id: RuleId, body: Expr) {
        self.rules[id].body = body;
    }

    /// Rules that can match some finite text (a fixed point: a rule is
    /// productive once one of its branches uses only productive rules).
    pub(crate) fn productive(&self) -> Vec<bool> {
        let mut known = vec![false; self.rules.len()];
        loop {
            let mut changed = false;
            for (id, rule) in self.rules.iter().enumerate() {
                if !known[id] && expr_productive(&rule.body, &known) {
                    known[id] = true;
                    changed = true;
                }
            }
            if !changed {
                return known;
            }
        }
    }
}

impl RuleSet {
    /// The rules that matter: references to rules that match nothing are
    /// dropped (with the branches that need them), and only rules reachable
    /// from rule 0 are kept, renumbered in the order they are first reached.
    pub(crate) fn pruned(&self) -> RuleSet {
        let productive = self.productive();
        let bodies: Vec<Expr> = self
            .rules
            .iter()
            .map(|rule| without_dead(&rule.body, &productive))
            .collect();
        let mut order = vec![0];
        let mut new_id: Vec<Option<RuleId>> = vec![None; self.rules.len()];
        new_id[0] = Some(0);
        let mut next = 0;
        while next < order.len() {
            let mut found = Vec::new();
            references(&bodies[order[next]], &mut found);
            for id in found {
                if new_id[id].is_none() {
                    new_id[id] = Some(order.len());
                    order.push(id);
                }
            }
            next += 1;
        }
        RuleSet {
            rules: order
                .iter()
                .map(|&old| Rule {
                    name: self.rules[old].name.clone(),
                    body: renumber(&bodies[old], &new_id),
                })
                .collect(),
        }
    }
}

fn without_dead(expr: &Expr, productive: &[bool]) -> Expr {
    match expr {
        Expr::Token(lex) => Expr::token(lex.clone()),
        Expr::Rule(id) if productive[*id] => Expr::Rule(*id),
        Expr::Rule(_) => Expr::never(),
        Expr::Seq(parts) => Expr::seq(parts.iter().map(|p| without_dead(p, productive))),
        Expr::Alt(branches) => Expr::alt(branches.iter().map(|b| without_dead(b, productive))),
        Expr::Repeat(item, min, max) => Expr::repeat(without_dead(item, productive), *min, *max),
    }
}

fn references(expr: &Expr, out: &mut Vec<RuleId>) {
    match expr {
        Expr::Token(_) => {}
        Expr::Rule(id) => out.push(*id),
        Expr::Seq(items) | Expr::Alt(items) => items.iter().for_each(|e| references(e, out)),
        Expr::Repeat(item, _, _) => references(item, out),
    }
}

fn renumber(expr: &Expr, new_id: &[Option<RuleId>]) -> Expr {
    match expr {
        Expr::Token(lex) => Expr::Token(lex.clone()),
        Expr::Rule(id) => Expr::Rule(new_id[*id].unwrap_or(*id)),
        Expr::Seq(parts) => Expr::Seq(parts.iter().map(|p| renumber(p, new_id)).collect()),
        Expr::Alt(branches) => Expr::Alt(branches.iter().map(|b| renumber(b, new_id)).collect()),
        Expr::Repeat(item, min, max) => Expr::Repeat(Box::new(renumber(item, new_id)), *min, *max),
    }
}

fn expr_productive(expr: &Expr, known: &[bool]) -> bool {
    match expr {
        Expr::Token(lex) => !lex.is_never(),
        Expr::Rule(id) => known[*id],
        Expr::Seq(parts) => parts.iter().all(|p| expr_productive(p, known)),
        Expr::Alt(branches) => branches.iter().any(|b| expr_productive(b, known)),
        Expr::Repeat(item, min, _) => *min == 0 || expr_productive(item, known),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_simplify() {
        assert_eq!(
            Lex::seq([Lex::lit("a"), Lex::empty(), Lex::lit("b")]),
            Lex::lit("ab")
        );
        assert!(Lex::seq([Lex::lit("a"), Lex::never()]).is_never());
        assert_eq!(
            Expr::alt([Expr::lit("a"), Expr::empty()]),
            Expr::Repeat(Box::new(Expr::lit("a")), 0, Some(1))
        );
        assert!(Expr::repeat(Expr::never(), 1, None).is_never());
        assert!(Expr::repeat(Expr::lit("x"), 3, Some(2)).is_never());
    }

    #[test]
    fn finds_unproductive_rules() {
        let mut set = RuleSet::default();
        let a = set.reserve("a".into());
        let b = set.reserve("b".into());
        set.define(a, Expr::seq([Expr::lit("x"), Expr::Rule(a)]));
        set.define(
            b,
            Expr::alt([Expr::lit("y"), Expr::seq([Expr::lit("("), Expr::Rule(b)])]),
        );
        assert_eq!(set.productive(), vec![false, true]);
    }
}
