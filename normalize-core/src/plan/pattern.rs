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
//! pattern becomes a one-keyword validator, `{"pattern": p}`, built with the
//! validator's own pattern engine ([`engine`]), and a key matches when that
//! validator accepts the key as a string. There is one matcher, not two that
//! mostly agree.

use jsonschema::json::{Json, SerdeJson};
use serde_json::{Value, json};
use std::fmt;

/// How much backtracking one `pattern` check may do before the value is
/// refused at the string's pointer. Only patterns with look-around or
/// back-references backtrack; the others run on the `regex` crate's
/// engines, in time linear in the string. Said here rather than inherited,
/// so the bound cannot change under us with a dependency.
pub const PATTERN_BACKTRACK_LIMIT: usize = 1_000_000;

/// The largest compiled form of one `pattern`, and the largest cache of its
/// lazy DFA, in bytes (a tenth of the `regex` crate's default): a schema
/// from elsewhere whose pattern compiles past it is refused when the
/// validator is built, so compiling a tool's patterns costs milliseconds,
/// not seconds.
pub const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// The pattern engine the validator runs every `pattern` and
/// `patternProperties` key on, bounded by the limits above.
pub(crate) fn engine() -> jsonschema::PatternOptions<jsonschema::FancyRegex> {
    jsonschema::PatternOptions::fancy_regex()
        .backtrack_limit(PATTERN_BACKTRACK_LIMIT)
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_SIZE_LIMIT)
}

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
        jsonschema::options()
            .with_pattern_options(engine())
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
