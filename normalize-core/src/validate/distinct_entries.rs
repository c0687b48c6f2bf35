//! `x-toolargs-distinct`: the entries of a map or set stay distinct once
//! read.
//!
//! serde reads a map by inserting each entry, so two keys that are
//! different JSON but the same key once read (`src/lib.rs` and
//! `src//lib.rs` as `PathBuf`s, `::1` and `0:0::1` as `IpAddr`s, a variant's
//! name and its alias) leave one entry: the last. A set does the same with
//! elements that are equal once read (`uniqueItems` compares the JSON).
//! The schema cannot say it; the type can. The derive puts this keyword on
//! the schema of such a field, naming an entry of a table it hands the
//! validator: a function that reads the value as the field's type does and
//! says which entry repeats which. As with `x-toolargs-whole`, the table
//! lives in the process: a validator built from the JSON alone ignores the
//! keyword.

use serde_json::Value;

// The keyword, its value an index into the validator's table.
pub(crate) use crate::keywords::DISTINCT;

/// Reads a map (an object) or a set (an array) as a field's type does: the
/// positions of the first entry that is, once read, the same as an earlier
/// one, and of that earlier one. `None` when every entry stays, or when the
/// type refuses the value (serde's own error says why, elsewhere).
pub type RepeatFn = fn(&Value) -> Option<(usize, usize)>;

/// One entry of the validator's table: how a map or set field reads its
/// entries, and, for a flattened map, the members of its object it never
/// sees (the struct's own, those a flattened struct before it took; sorted).
#[derive(Clone, Debug)]
pub struct Distinct {
    /// Reads the entries.
    pub read: RepeatFn,
    /// `Some` for a flattened map: its keyword sits on the object, and it
    /// reads the members not named here.
    pub skip: Option<Vec<String>>,
}

impl Distinct {
    /// The repeat in `instance`, as the field's type reads it.
    fn repeat(&self, instance: &Value) -> Option<Repeat> {
        match (&self.skip, instance) {
            (Some(skip), Value::Object(object)) => {
                // Only the keys are read (a flattened map's values are
                // skipped, see `first_repeat`): the values are not copied.
                let members = Value::Object(
                    object
                        .keys()
                        .filter(|name| skip.binary_search(name).is_err())
                        .map(|name| (name.clone(), Value::Null))
                        .collect(),
                );
                (self.read)(&members).and_then(|at| tokens(&members, at))
            }
            (Some(_), _) => None,
            (None, _) => (self.read)(instance).and_then(|at| tokens(instance, at)),
        }
    }
}

/// What a repeated entry reports: its reference token and the earlier
/// one's (a key, or an index).
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Repeat {
    pub(super) later: String,
    pub(super) earlier: String,
    /// For a set: the two elements as sent (JSON), which name them better
    /// than their positions.
    pub(super) elements: Option<(String, String)>,
}

impl Repeat {
    fn into_error(self) -> jsonschema::ValidationError<'static> {
        super::custom::carry(&self)
    }

    /// The repeat an error of [`DISTINCT`] carries.
    pub(super) fn from_message(message: &str) -> Option<Repeat> {
        super::custom::carried(message)
    }
}

/// The reference tokens of the entries at `later` and `earlier` of
/// `instance`.
fn tokens(instance: &Value, (later, earlier): (usize, usize)) -> Option<Repeat> {
    let token = |at: usize| match instance {
        Value::Object(map) => map.keys().nth(at).cloned(),
        Value::Array(items) => (at < items.len()).then(|| at.to_string()),
        _ => None,
    };
    let elements = match instance {
        Value::Array(items) => Some((
            items.get(later)?.to_string(),
            items.get(earlier)?.to_string(),
        )),
        _ => None,
    };
    Some(Repeat {
        later: token(later)?,
        earlier: token(earlier)?,
        elements,
    })
}

/// [`DISTINCT`] at one location: a field's entry, or the entries of the
/// maps an object flattens.
pub(super) struct DistinctKeyword(Vec<Distinct>);

impl<'i> jsonschema::Keyword<'i> for DistinctKeyword {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        match self.0.iter().find_map(|entry| entry.repeat(instance)) {
            Some(repeat) => Err(repeat.into_error()),
            None => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        self.0.iter().all(|entry| entry.repeat(instance).is_none())
    }
}

/// The keyword's entries, from the table: `value` is the index the derive
/// wrote (or, on an object flattening maps, an array of them).
pub(super) fn keyword(
    table: &[Distinct],
    value: &Value,
) -> Result<DistinctKeyword, jsonschema::ValidationError<'static>> {
    super::custom::table_entries(table, value)
        .map(DistinctKeyword)
        .ok_or_else(|| {
            jsonschema::ValidationError::schema(format!(
                "`{DISTINCT}` names no map or set this validator was given: {value}"
            ))
        })
}
