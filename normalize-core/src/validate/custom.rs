//! What the validator adds to `jsonschema`: the options it builds with (the
//! bounded pattern engine, [`WRITTEN_AS_INTEGER`]), and how a keyword of
//! ours carries its report to `describe` and finds its table's entries.

use crate::keywords::WRITTEN_AS_INTEGER;
use serde_json::Value;

/// [`WRITTEN_AS_INTEGER`] as the validator checks it (`false` takes all).
struct WrittenAsInteger(bool);

impl<'i> jsonschema::Keyword<'i> for WrittenAsInteger {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        if jsonschema::Keyword::is_valid(self, instance) {
            Ok(())
        } else {
            Err(jsonschema::ValidationError::custom(
                "expected an integer written without a fraction or an exponent",
            ))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        !self.0
            || instance
                .as_number()
                .is_none_or(|number| number.is_u64() || number.is_i64())
    }
}

/// A custom keyword's error holds a message only: a report carried to
/// `describe` as JSON, which writes the violation from it.
pub(super) fn carry<T: serde::Serialize>(report: &T) -> jsonschema::ValidationError<'static> {
    jsonschema::ValidationError::custom(serde_json::to_string(report).unwrap_or_default())
}

/// The report an error of a custom keyword carries ([`carry`]).
pub(super) fn carried<T: serde::de::DeserializeOwned>(message: &str) -> Option<T> {
    serde_json::from_str(message).ok()
}

/// The entries of `table` a custom keyword's value names: one index, or an
/// array of them (`None` if any names none).
pub(super) fn table_entries<T: Clone>(table: &[T], value: &Value) -> Option<Vec<T>> {
    let entry = |index: &Value| table.get(usize::try_from(index.as_u64()?).ok()?).cloned();
    match value {
        Value::Array(indices) => indices.iter().map(entry).collect(),
        single => entry(single).map(|entry| vec![entry]),
    }
}

/// The validator's options: patterns compiled and run with bounded cost
/// (`PATTERN_BACKTRACK_LIMIT`, `PATTERN_SIZE_LIMIT`), and
/// [`WRITTEN_AS_INTEGER`] checked, the one keyword of ours that needs no
/// table.
pub(crate) fn validator_options() -> jsonschema::ValidationOptions<'static> {
    jsonschema::options()
        .with_pattern_options(crate::plan::pattern::engine())
        .with_keyword(WRITTEN_AS_INTEGER, |_, value, _| {
            let keyword: Box<dyn for<'i> jsonschema::Keyword<'i>> =
                Box::new(WrittenAsInteger(value == &Value::Bool(true)));
            Ok(keyword)
        })
}
