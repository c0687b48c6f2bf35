//! llguidance as the judge of a grammar, shared by the grammar suites: a
//! Lark grammar loaded once, then asked whether a model may write exactly a
//! given text, byte by byte.
#![allow(dead_code)] // each suite uses part of it

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::ApproximateTokEnv;
use llguidance::{Matcher, ParserFactory};
use serde_json::Value;

/// How many member placements [`Engine::writes_in_some_order`] may try for
/// one value before it gives up (and says so).
const ORDER_SEARCH_BUDGET: usize = 100_000;

/// A parser factory over single-byte tokens, quiet.
pub fn factory() -> ParserFactory {
    let mut factory =
        ParserFactory::new_simple(&ApproximateTokEnv::single_byte_env()).expect("factory");
    factory.quiet();
    factory
}

/// One Lark grammar loaded into llguidance, reusable across inputs.
pub struct Engine {
    matcher: Matcher,
}

impl Engine {
    /// Loads `lark` with `factory`; the grammar must load without warnings.
    pub fn new(factory: &ParserFactory, lark: &str) -> Self {
        let parser = factory.create_parser(TopLevelGrammar::from_lark(lark.to_owned()));
        let mut matcher = Matcher::new(parser);
        assert!(
            !matcher.is_error(),
            "llguidance refused the grammar: {:?}\n{lark}",
            matcher.get_error()
        );
        let warnings = matcher.grammar_warnings();
        assert!(
            warnings.is_empty(),
            "grammar warnings: {warnings:?}\n{lark}"
        );
        Self { matcher }
    }

    /// [`Engine::new`] with a factory of its own.
    pub fn for_lark(lark: &str) -> Self {
        Self::new(&factory(), lark)
    }

    /// Whether the engine lets a model write exactly `text`: each byte is a
    /// token the grammar allows at that point, and the grammar may end
    /// after the last one.
    pub fn accepts(&mut self, text: &str) -> bool {
        self.matcher.reset().expect("reset");
        for byte in text.bytes() {
            let consumed = self
                .matcher
                .try_consume_tokens(&[u32::from(byte)])
                .expect("engine error");
            if consumed != 1 {
                return false;
            }
        }
        self.matcher.is_accepting().expect("engine error")
    }

    /// Whether the engine lets a model write `value` as compact JSON with
    /// the members of each object in some order. serde writes a struct's
    /// members in declaration order and a grammar in the order of the
    /// schema's properties, where flattened parts are merged in an order of
    /// their own; both texts read the same. Each object's members are
    /// placed by a search that rolls the engine back where an order leads
    /// nowhere. Panics if the search runs out of its budget.
    pub fn writes_in_some_order(&mut self, value: &Value) -> bool {
        self.matcher.reset().expect("reset");
        let mut budget = ORDER_SEARCH_BUDGET;
        let written = write(&mut self.matcher, value, &mut budget).is_some();
        assert!(
            budget > 0,
            "the member order search ran out of budget on {value}"
        );
        written && self.matcher.is_accepting().expect("engine error")
    }
}

/// Consumes `text` whole, or nothing: the tokens consumed.
fn consume(matcher: &mut Matcher, text: &str) -> Option<usize> {
    let tokens: Vec<u32> = text.bytes().map(u32::from).collect();
    let consumed = matcher.try_consume_tokens(&tokens).expect("engine error");
    if consumed == tokens.len() {
        return Some(consumed);
    }
    matcher.rollback(consumed).expect("rollback");
    None
}

/// Runs `steps`, each of which consumes what it is given whole or nothing,
/// adding what they consume to the count they are handed: all of it (the
/// tokens consumed), or nothing (`None`, the engine rolled back).
fn all_or_nothing(
    matcher: &mut Matcher,
    steps: impl FnOnce(&mut Matcher, &mut usize) -> Option<()>,
) -> Option<usize> {
    let mut used = 0;
    if steps(matcher, &mut used).is_some() {
        return Some(used);
    }
    matcher.rollback(used).expect("rollback");
    None
}

/// Writes `value` (objects' members in some order the grammar takes); the
/// tokens consumed, or `None` with nothing consumed.
fn write(matcher: &mut Matcher, value: &Value, budget: &mut usize) -> Option<usize> {
    match value {
        Value::Object(members) => all_or_nothing(matcher, |matcher, used| {
            *used += consume(matcher, "{")?;
            let mut left: Vec<(&String, &Value)> = members.iter().collect();
            *used += place(matcher, &mut left, true, budget)?;
            Some(())
        }),
        Value::Array(items) => all_or_nothing(matcher, |matcher, used| {
            *used += consume(matcher, "[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    *used += consume(matcher, ",")?;
                }
                *used += write(matcher, item, budget)?;
            }
            *used += consume(matcher, "]")?;
            Some(())
        }),
        scalar => consume(matcher, &scalar.to_string()),
    }
}

/// Writes one member (its name, after a comma where one is due, and its
/// value); the tokens consumed, or `None` with nothing consumed.
fn member(
    matcher: &mut Matcher,
    (name, value): (&String, &Value),
    comma: &str,
    budget: &mut usize,
) -> Option<usize> {
    all_or_nothing(matcher, |matcher, used| {
        *used += consume(matcher, &head(name, comma))?;
        *used += write(matcher, value, budget)?;
        Some(())
    })
}

/// A member's name as written before its value.
fn head(name: &str, comma: &str) -> String {
    format!("{comma}{}:", Value::String(name.to_owned()))
}

/// Whether the engine takes `text` next; it is left as it was.
fn takes(matcher: &mut Matcher, text: &str) -> bool {
    consume(matcher, text)
        .map(|n| matcher.rollback(n).expect("rollback"))
        .is_some()
}

/// Places the members `left` of an object whose `{` is written (`first`:
/// none of its members is written yet), then its `}`; the tokens consumed,
/// or `None` with nothing consumed.
///
/// The members the grammar takes next are tried earliest first: one after
/// which the others it takes now still can be written (a grammar that fixes
/// an order, optional members skipped, takes that one first; one that
/// takes any order, any). Other orders are tried only where that fails.
fn place(
    matcher: &mut Matcher,
    left: &mut Vec<(&String, &Value)>,
    first: bool,
    budget: &mut usize,
) -> Option<usize> {
    if left.is_empty() {
        return consume(matcher, "}");
    }
    let comma = if first { "" } else { "," };
    let now: Vec<usize> = (0..left.len())
        .filter(|&i| takes(matcher, &head(left[i].0, comma)))
        .collect();
    let mut tries: Vec<(usize, usize)> = Vec::new();
    for &i in &now {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let Some(written) = member(matcher, left[i], comma, budget) else {
            continue;
        };
        let still = now
            .iter()
            .filter(|&&j| j != i && takes(matcher, &head(left[j].0, ",")))
            .count();
        matcher.rollback(written).expect("rollback");
        tries.push((i, still));
    }
    // Earliest first: the most of the others still possible after it.
    tries.sort_by_key(|&(_, still)| std::cmp::Reverse(still));
    for (i, _) in tries {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        // Written before: `None` only where the budget ran out.
        let Some(written) = member(matcher, left[i], comma, budget) else {
            continue;
        };
        let placed = left.remove(i);
        if let Some(rest) = place(matcher, left, false, budget) {
            return Some(written + rest);
        }
        left.insert(i, placed);
        matcher.rollback(written).expect("rollback");
    }
    None
}
