//! The RT-TOOL-8 normalizer: repairs a model's arguments in place against a
//! compiled schema and reports what it repaired.

use crate::deep;
use crate::json_text::{self, JsonTextError};
use crate::path::Path;
use crate::plan::{SchemaError, SchemaPlan};
use crate::rejection::{SyntaxError, SyntaxKind};
use crate::report::Report;
use serde_json::Value;
use std::borrow::Cow;

mod options;
pub(crate) mod repairer;

pub use options::{
    DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_PASSES, NormalizeError, Options, PassBound,
};
pub(crate) use repairer::Repairer;

/// A schema plan and options: normalizes any number of arguments values,
/// from any number of threads.
///
/// ```
/// use toolargs_core::Normalizer;
/// use serde_json::json;
///
/// let normalizer = Normalizer::compile(&json!({
///     "type": "object",
///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}
/// }))?;
/// let mut args = json!({"tags": "[\"Tom &amp;amp; Jerry\"]"});
/// let report = normalizer.normalize(&mut args)?;
/// assert_eq!(args, json!({"tags": ["Tom & Jerry"]}));
/// assert_eq!(report.repairs.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Normalizer {
    plan: SchemaPlan,
    options: Options,
}

impl Normalizer {
    /// A normalizer over an already compiled plan.
    pub fn new(plan: SchemaPlan, options: Options) -> Self {
        Normalizer { plan, options }
    }

    /// Compiles `schema` and uses the default options.
    ///
    /// # Errors
    ///
    /// The [`SchemaError`] of [`SchemaPlan::compile`].
    pub fn compile(schema: &Value) -> Result<Self, SchemaError> {
        Ok(Normalizer::new(
            SchemaPlan::compile(schema)?,
            Options::default(),
        ))
    }

    /// The same plan with other options.
    #[must_use]
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The compiled plan.
    pub fn plan(&self) -> &SchemaPlan {
        &self.plan
    }

    /// Repairs `arguments` in place and reports what was repaired.
    ///
    /// Clean arguments (no JSON-in-a-string where the schema declares a
    /// container, no character reference) are walked without allocating.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`] when the arguments nest deeper than
    /// [`Options::max_depth`].
    pub fn normalize(&self, arguments: &mut Value) -> Result<Report, NormalizeError> {
        let mut report = Report::default();
        let mut repairer = Repairer::new(&self.options, &mut report);
        repairer.walk(&self.plan, &self.plan.root(), arguments, &Path::ROOT, 0)?;
        Ok(report)
    }

    /// Normalizes arguments given as JSON text and writes the repairs back
    /// into that text: every byte the repairs did not touch (numbers as
    /// written, spacing, key order, escapes) stays as it came, so a log
    /// keeps its bytes. Text that no repair can apply to is only checked to be JSON and comes back borrowed, without a value
    /// ever being built. The nesting bound is [`Options::max_depth`], and
    /// parsing, like the walk, is safe at any depth the bound allows.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolargs_core::Normalizer;
    ///
    /// let normalizer = Normalizer::compile(&json!({
    ///     "type": "object",
    ///     "properties": {"tags": {"type": "array"}, "n": {"type": "number"}}
    /// }))?;
    /// let (text, report) = normalizer.normalize_text(r#"{"n": 1.50, "tags": "[\"a\"]"}"#)?;
    /// assert_eq!(text, r#"{"n": 1.50, "tags": ["a"]}"#);
    /// assert_eq!(report.repairs.len(), 1);
    /// let (text, report) = normalizer.normalize_text(r#"{"n": 1e2}"#)?;
    /// assert!(matches!(text, std::borrow::Cow::Borrowed(_)) && report.is_clean());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`NormalizeTextError`]: the text is not JSON or nests too deep, or
    /// normalization stopped ([`NormalizeError`]).
    pub fn normalize_text<'t>(
        &self,
        text: &'t str,
    ) -> Result<(Cow<'t, str>, Report), NormalizeTextError> {
        let max_depth = self.options.max_depth;
        let facts = json_text::inspect(text);
        let not_json = |e: JsonTextError| {
            NormalizeTextError::Syntax(SyntaxError::of_text(SyntaxKind::Arguments, e, text))
        };
        if !facts.may_need_repair {
            json_text::check_with_facts(text, facts, max_depth).map_err(not_json)?;
            return Ok((Cow::Borrowed(text), Report::default()));
        }
        let mut value = json_text::from_str_with_facts(text, facts, max_depth).map_err(not_json)?;
        let outcome = match self.normalize(&mut value) {
            Ok(report) => crate::splice::splice(text, &value, &report)
                .map(|spliced| (Cow::Owned(spliced), report))
                .map_err(|e| NormalizeTextError::Splice { offset: e.offset }),
            Err(e) => Err(e.into()),
        };
        // The value may nest as deep as the text: dropped without recursion.
        deep::drop_value(value);
        outcome
    }
}

/// Why [`Normalizer::normalize_text`] gave no text back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NormalizeTextError {
    /// The text is not JSON, or nests deeper than [`Options::max_depth`]:
    /// a [`SyntaxError`] of kind [`SyntaxKind::Arguments`], as a call's
    /// arguments get (the line and column where the parser stopped, a lone
    /// surrogate escape named at the escape itself; none for the nesting).
    #[error(transparent)]
    Syntax(SyntaxError),
    /// Normalization stopped (a limit in [`Options`]).
    #[error(transparent)]
    Normalize(#[from] NormalizeError),
    /// The repairs could not be written back into the text. The text was
    /// parsed just before, so this means a defect, reported rather than
    /// hidden.
    #[error(
        "the repairs could not be written back: the text is not well-formed JSON at byte {offset}"
    )]
    Splice {
        /// Byte offset where writing back stopped.
        offset: usize,
    },
}
