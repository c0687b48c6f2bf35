//! Validation of (normalized) arguments against the tool's JSON Schema, with
//! one compact diagnostic per failing JSON pointer.
//!
//! The `jsonschema` crate does the checking; this module keeps its types out
//! of our API and turns its errors into [`Violation`]s a model can act on:
//! where (`pointer`), which rule (`keyword`), what was expected and what was
//! found. Nothing is coerced: `"20"` is a string, never the integer 20.

mod custom;
pub(crate) mod describe;
pub(crate) mod distinct_entries;
mod explain;
pub(crate) mod flattened_read;
pub(crate) mod flattened_wholes;
mod model_rules;
pub(crate) mod violation;

pub use crate::contract::error::ValidatorBuildError;
pub use violation::{Violation, Violations};

use serde_json::Value;

/// A JSON Schema compiled once for validation.
///
/// Build one per tool and share it: validation borrows it immutably.
///
/// ```
/// use toolargs_core::validate::Validator;
/// use serde_json::json;
///
/// let validator = Validator::new(&json!({
///     "type": "object",
///     "properties": {"limit": {"type": "integer"}},
///     "additionalProperties": false
/// }))?;
/// let violations = validator.validate(&json!({"limit": "20"})).unwrap_err();
/// assert_eq!(violations.0[0].pointer, "/limit");
/// assert_eq!(violations.0[0].expected, "integer");
/// # Ok::<(), toolargs_core::validate::ValidatorBuildError>(())
/// ```
pub struct Validator {
    schema: Value,
    inner: jsonschema::Validator,
    /// What serde does with the derived type validated against, for the
    /// rules JSON Schema cannot say ([`model_rules`]).
    model: &'static crate::contract::Node,
    /// Where in the model a rule applies (`None`: nowhere).
    checks: Option<model_rules::Checks>,
}

impl std::fmt::Debug for Validator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Validator")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

pub use crate::plan::pattern::{PATTERN_BACKTRACK_LIMIT, PATTERN_SIZE_LIMIT};
pub(crate) use custom::validator_options;

impl Validator {
    /// Compiles `schema` (draft detected from `$schema`, 2020-12 by default).
    ///
    /// # Errors
    ///
    /// [`ValidatorBuildError`] when the schema is not a valid JSON Schema.
    pub fn new(schema: &Value) -> Result<Validator, ValidatorBuildError> {
        Validator::with_tables(schema, Vec::new(), Vec::new())
    }

    /// [`Validator::with_tables`] without maps or sets to read.
    #[cfg(test)]
    pub(crate) fn with_wholes(
        schema: &Value,
        wholes: Vec<flattened_wholes::WholeRead>,
    ) -> Result<Validator, ValidatorBuildError> {
        Validator::with_tables(schema, wholes, Vec::new())
    }

    /// [`Validator::new`], with the tables the schema's
    /// `x-toolargs-whole` keywords index (how each flattened `Option` of a
    /// derived type is read, see [`flattened_wholes`]) and its `x-toolargs-distinct`
    /// keywords index (how a map or set field reads its entries, see
    /// [`distinct_entries`]). Without them, the keywords are ignored.
    pub(crate) fn with_tables(
        schema: &Value,
        wholes: Vec<flattened_wholes::WholeRead>,
        repeats: Vec<distinct_entries::Distinct>,
    ) -> Result<Validator, ValidatorBuildError> {
        let mut options = validator_options();
        if !wholes.is_empty() {
            // Entries that ask which branch of an untagged union beside
            // reads the call check it against the document.
            let document = wholes
                .iter()
                .any(flattened_wholes::WholeRead::reads_branches)
                .then(|| std::sync::Arc::new(flattened_wholes::Document::new(schema)));
            options = options.with_keyword(flattened_wholes::WHOLE, move |parent, value, _| {
                let keyword: Box<dyn for<'i> jsonschema::Keyword<'i>> = Box::new(
                    flattened_wholes::keyword(&wholes, parent, value, document.as_deref())?,
                );
                Ok(keyword)
            });
        }
        if !repeats.is_empty() {
            options = options.with_keyword(distinct_entries::DISTINCT, move |_, value, _| {
                let keyword: Box<dyn for<'i> jsonschema::Keyword<'i>> =
                    Box::new(distinct_entries::keyword(&repeats, value)?);
                Ok(keyword)
            });
        }
        let inner = options.build(schema).map_err(|e| ValidatorBuildError {
            message: e.to_string(),
        })?;
        Ok(Validator {
            schema: schema.clone(),
            inner,
            model: &crate::contract::Node::Unknown,
            checks: None,
        })
    }

    /// This validator, checking also the rules of `model` that JSON Schema
    /// cannot say (a Rust integer refuses `5.0`).
    pub(crate) fn with_model(mut self, model: &'static crate::contract::Node) -> Validator {
        self.model = model;
        self.checks = model_rules::Checks::of(model);
        self
    }

    /// Checks `instance`, reporting every failing location at once.
    ///
    /// # Errors
    ///
    /// [`Violations`]: one [`Violation`] per failing JSON pointer, in
    /// document order of discovery.
    pub fn validate(&self, instance: &Value) -> Result<(), Violations> {
        self.validate_read(instance, false)
    }

    /// [`Validator::validate`]; `plain_numbers` when the value is known to
    /// hold no number written with a fraction or an exponent (the parse saw
    /// none and nothing was repaired), which spares the model's walk where
    /// only its integer rule could apply.
    fn validate_read(&self, instance: &Value, plain_numbers: bool) -> Result<(), Violations> {
        let checks = self
            .checks
            .as_ref()
            .filter(|checks| !plain_numbers || checks.not_numbers_only());
        let mut found = Vec::new();
        if self.inner.is_valid(instance) {
            if let Some(checks) = checks {
                checks.check(instance, &mut found);
            }
            return if found.is_empty() {
                Ok(())
            } else {
                Err(Violations(found))
            };
        }
        let mut declared_elsewhere = Vec::new();
        let mut wholes = Vec::new();
        for error in self.inner.iter_errors(instance) {
            describe::push_violations(
                &self.schema,
                instance,
                &error,
                &mut found,
                &mut declared_elsewhere,
                &mut wholes,
            );
        }
        describe::drop_whole_repeats(&mut found, &wholes);
        describe::drop_consequences(&mut found, &declared_elsewhere);
        explain::explain_unevaluated::<Validator>(
            &self.schema,
            instance,
            &mut found,
            &declared_elsewhere,
        );
        describe::drop_refused_names_reported_otherwise(&mut found);
        if let Some(checks) = checks {
            checks.check(instance, &mut found);
        }
        let mut seen = std::collections::HashSet::new();
        found.retain(|v: &Violation| seen.insert(v.pointer.clone()));
        Err(Violations(found))
    }

    /// [`Validator::validate`] for a call's value as its text was read
    /// ([`crate::repeated_keys::Read`]): each member whose key an earlier
    /// member of the same object has is a violation too where the type's
    /// model says a struct reads the key (serde refuses a repeated field; a
    /// map keeps the last).
    pub(crate) fn validate_call(
        &self,
        instance: &Value,
        read: &crate::repeated_keys::Read,
    ) -> Result<(), Violations> {
        let checked = self.validate_read(instance, read.plain_numbers);
        if read.repeated.is_empty() {
            return checked;
        }
        let mut found = checked.err().map(|v| v.0).unwrap_or_default();
        model_rules::repeats(self.model, instance, &read.repeated, &mut found);
        if found.is_empty() {
            Ok(())
        } else {
            Err(Violations(found))
        }
    }

    /// The schema this validator checks against.
    pub fn schema(&self) -> &Value {
        &self.schema
    }
}

impl explain::CheckAlone for Validator {
    fn build(schema: &Value) -> Option<Self> {
        Validator::new(schema).ok()
    }

    fn violations(&self, instance: &Value) -> Vec<Violation> {
        self.validate(instance).err().map_or_else(Vec::new, |v| v.0)
    }
}

#[cfg(test)]
mod tests;
