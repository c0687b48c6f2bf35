//! `patternProperties` keys matched by the validator's own pattern engine.
//!
//! JSON Schema patterns are ECMA-262 regular expressions. The validator (the
//! `jsonschema` crate) translates each pattern to ECMA-262 semantics (`\d` is
//! ASCII only, `\w` and `\b` too, lookaround is allowed) and runs it through
//! its own engines and shortcuts. A second engine in the plan, however close,
//! would disagree somewhere (`^\d+$` on an Arabic-Indic digit, a lookahead it
//! cannot compile), and every disagreement lets normalization repair a member
//! under a schema the validator does not apply to it, turning a valid call
//! into an invalid one. So the plan does not match patterns itself: each
//! pattern becomes a one-keyword validator, `{"pattern": p}`, built the way
//! [`crate::validate::Validator`] builds its own, and a key matches when that
//! validator accepts the key as a string. There is one matcher, not two that
//! mostly agree.

use jsonschema::json::{Json, SerdeJson};
use serde_json::{Value, json};
use std::fmt;

/// One compiled `patternProperties` key.
pub(crate) struct Pattern {
    validator: jsonschema::Validator,
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pattern").finish_non_exhaustive()
    }
}

impl Pattern {
    /// Compiles `pattern` exactly as the validator compiles a `pattern`
    /// keyword, so a pattern the validator rejects is rejected here too.
    ///
    /// # Errors
    ///
    /// The validator builder's explanation.
    pub(crate) fn new(pattern: &str) -> Result<Pattern, String> {
        crate::validate::validator_options()
            .build(&json!({ "pattern": pattern }))
            .map(|validator| Pattern { validator })
            .map_err(|e| e.to_string())
    }

    /// Whether `name` matches, as the validator decides it.
    ///
    /// The name is lent to the validator through the string node it uses for
    /// `propertyNames`, whose buffer is reused per thread, so matching does
    /// not allocate once the buffer has grown to the longest name seen.
    pub(crate) fn is_match(&self, name: &str) -> bool {
        SerdeJson::with_string_node(&mut (), name, |node: &Value| self.validator.is_valid(node))
    }
}
