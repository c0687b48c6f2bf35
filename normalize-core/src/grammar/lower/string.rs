//! Strings: length bounds, or a pattern in the supported subset.

use super::Lowering;
use crate::grammar::error::GrammarError;
use crate::grammar::ir::Expr;
use crate::grammar::{json_lex, pattern};
use serde_json::{Map, Value};

impl Lowering<'_, '_> {
    pub(super) fn string(
        &mut self,
        pointer: &str,
        map: &Map<String, Value>,
    ) -> Result<Expr, GrammarError> {
        let min = self.count(pointer, map, "minLength")?;
        let max = self.count(pointer, map, "maxLength")?;
        if let Some(pattern) = map.get("pattern") {
            let pattern = pattern.as_str().ok_or(GrammarError::KeywordType {
                at: pointer.to_owned(),
                keyword: "pattern",
                expected: "a string",
            })?;
            match pattern::parse(pattern) {
                Ok(decoded) => {
                    for (keyword, bound) in [("minLength", min), ("maxLength", max)] {
                        if bound.is_some() {
                            self.note(
                                pointer,
                                keyword,
                                "not enforced alongside an enforced `pattern`",
                            );
                        }
                    }
                    return Ok(Expr::token(json_lex::pattern_string(&decoded)));
                }
                Err(reason) => self.note(
                    pointer,
                    "pattern",
                    format!("`{pattern}` is outside the supported regex subset: {reason}"),
                ),
            }
        }
        Ok(Expr::token(json_lex::string(min.unwrap_or(0), max)))
    }
}
