//! Arrays: positional `prefixItems` (or draft-07 array-form `items`), then
//! the rest, within `minItems`/`maxItems`.

use super::{Lowering, child};
use crate::grammar::error::GrammarError;
use crate::grammar::ir::{Expr, RuleId};
use serde_json::{Map, Value};

impl Lowering<'_, '_> {
    pub(super) fn array(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
        depth: usize,
        into: Option<RuleId>,
    ) -> Result<Expr, GrammarError> {
        let id = self.reserve(pointer, "array", into);
        let (prefix_keyword, prefix, rest_keyword): (&str, &[Value], &str) =
            match (map.get("prefixItems"), map.get("items")) {
                (Some(Value::Array(_)), Some(Value::Array(_))) => {
                    return Err(GrammarError::KeywordType {
                        at: pointer.to_owned(),
                        keyword: "items",
                        expected: "a schema when `prefixItems` is present",
                    });
                }
                (Some(Value::Array(prefix)), _) => ("prefixItems", prefix, "items"),
                (Some(_), _) => {
                    return Err(GrammarError::KeywordType {
                        at: pointer.to_owned(),
                        keyword: "prefixItems",
                        expected: "an array of schemas",
                    });
                }
                (None, Some(Value::Array(prefix))) => ("items", prefix, "additionalItems"),
                (None, _) => ("items", &[], "items"),
            };
        if rest_keyword == "items" && map.contains_key("additionalItems") {
            self.note(
                pointer,
                "additionalItems",
                "ignored without array-form `items`, as validators ignore it",
            );
        }
        let mut items = Vec::with_capacity(prefix.len());
        let at = child(pointer, prefix_keyword);
        for (i, schema) in prefix.iter().enumerate() {
            items.push(self.schema(&child(&at, &i.to_string()), schema, depth + 1, None)?);
        }
        let rest = match map.get(rest_keyword) {
            None => self.builder.any_value(),
            Some(schema) => self.schema(&child(pointer, rest_keyword), schema, depth + 1, None)?,
        };
        let min = self.count(pointer, map, "minItems")?.unwrap_or(0);
        let max = self.count(pointer, map, "maxItems")?;
        let body = Expr::seq([
            Expr::lit("["),
            items_from(0, &items, &rest, min, max),
            Expr::lit("]"),
        ]);
        self.builder.rules.define(id, body);
        Ok(Expr::Rule(id))
    }
}

/// Array elements from position `i` on, `i` already written: the positional
/// `prefix` schemas first, then `rest`, between `min` and `max` elements in
/// all.
fn items_from(i: usize, prefix: &[Expr], rest: &Expr, min: u32, max: Option<u32>) -> Expr {
    let position = u32::try_from(i).unwrap_or(u32::MAX);
    if max.is_some_and(|m| position >= m) {
        return Expr::empty();
    }
    let separated = |e: Expr| {
        if i == 0 {
            e
        } else {
            Expr::seq([Expr::lit(","), e])
        }
    };
    if i < prefix.len() {
        let more = Expr::seq([
            separated(prefix[i].clone()),
            items_from(i + 1, prefix, rest, min, max),
        ]);
        return if position >= min {
            Expr::alt([more, Expr::empty()])
        } else {
            more
        };
    }
    let low = min.saturating_sub(position);
    let high = max.map(|m| m - position);
    let next = Expr::seq([Expr::lit(","), rest.clone()]);
    if i == 0 {
        let list = Expr::seq([
            rest.clone(),
            Expr::repeat(next, low.saturating_sub(1), high.map(|h| h - 1)),
        ]);
        if low == 0 { Expr::optional(list) } else { list }
    } else {
        Expr::repeat(next, low, high)
    }
}
