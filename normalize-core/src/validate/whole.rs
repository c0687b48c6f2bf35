//! `x-toolargs-whole`: the members of a flattened `Option` make a whole value,
//! or none of them is sent.
//!
//! serde takes such a field as `None` whenever its type refuses the members
//! it is offered, and drops them. The schema says most of what the type
//! refuses (`dependentSchemas`, closing); what it cannot say (a string that
//! does not parse as an `IpAddr`, a `deserialize_with`, a flattened map or
//! enum inside) only the type knows. The derive puts this keyword on the
//! object that flattens the field, naming entries of a table it hands the
//! validator ([`Validator::with_wholes`](super::Validator::with_wholes)):
//! each says which names the type is not offered, which it reads, and how
//! to ask it. The object is refused where the type fails on members it
//! reads that were sent (a `null` alone says nothing: it is `None` too).
//!
//! The table lives in the process, not in the schema: a validator built
//! from the schema's JSON alone ([`Validator::new`](super::Validator::new),
//! a schema exported to another language) ignores the keyword.

use serde_json::{Map, Value};

/// The keyword, its value an array of indices into the validator's table.
pub(crate) const WHOLE: &str = "x-toolargs-whole";

/// Reads a flattened type from the members of an object, minus the names
/// given; on failure, where (relative to the object) and serde's message.
pub(crate) type ReadFn = fn(&Map<String, Value>, &[String]) -> Result<(), (String, String)>;

/// How one flattened `Option` field is read, for [`WHOLE`] to ask.
#[derive(Clone, Debug)]
pub struct WholeRead {
    /// Reads the field's type from the members of the object not claimed;
    /// on failure, the pointer (relative to the object) and serde's message.
    pub(crate) read: ReadFn,
    /// Names the type is never offered: those its struct and the structs
    /// around read themselves, and those flattened fields before it take.
    pub(crate) claimed: Vec<String>,
    /// The names the type reads.
    pub(crate) members: Members,
}

/// The members a flattened type reads.
#[derive(Clone, Debug)]
pub(crate) enum Members {
    /// Every member offered (a map, or a struct flattening one).
    Any,
    /// These names (a struct's fields and their aliases, an enum's variants,
    /// tags and fields).
    Named(Vec<String>),
}

impl WholeRead {
    /// The members of `object` this type reads that were sent with a value,
    /// when the type refuses them: where, why, and which they are.
    fn failure(&self, object: &Map<String, Value>) -> Option<Failure> {
        let sent: Vec<&String> = object
            .iter()
            .filter(|(name, value)| {
                !value.is_null()
                    && !self.claimed.contains(name)
                    && match &self.members {
                        Members::Any => true,
                        Members::Named(names) => names.contains(name),
                    }
            })
            .map(|(name, _)| name)
            .collect();
        if sent.is_empty() {
            return None;
        }
        let (pointer, message) = (self.read)(object, &self.claimed).err()?;
        Some(Failure {
            pointer,
            message,
            sent: sent.into_iter().cloned().collect(),
        })
    }
}

/// What a refused whole reports: where in the object, serde's message, and
/// the members that would be dropped.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Failure {
    pub(super) pointer: String,
    pub(super) message: String,
    pub(super) sent: Vec<String>,
}

impl Failure {
    /// The error's message carries the failure to `describe`, which writes
    /// the violation (a custom keyword's error holds a message only).
    fn into_error(self) -> jsonschema::ValidationError<'static> {
        let text = serde_json::to_string(&self).unwrap_or_default();
        jsonschema::ValidationError::custom(text)
    }

    /// The failure an error of [`WHOLE`] carries.
    pub(super) fn from_message(message: &str) -> Option<Failure> {
        serde_json::from_str(message).ok()
    }
}

/// [`WHOLE`] at one object: the flattened fields it names.
pub(super) struct WholeKeyword(pub(super) Vec<WholeRead>);

impl<'i> jsonschema::Keyword<'i> for WholeKeyword {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        match self.iter_errors(instance).next() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        let Value::Object(object) = instance else {
            return true;
        };
        self.0.iter().all(|read| read.failure(object).is_none())
    }

    fn iter_errors(
        &self,
        instance: &'i Value,
    ) -> Box<dyn Iterator<Item = jsonschema::ValidationError<'i>> + 'i> {
        let Value::Object(object) = instance else {
            return Box::new(std::iter::empty());
        };
        let errors: Vec<_> = self
            .0
            .iter()
            .filter_map(|read| read.failure(object))
            .map(Failure::into_error)
            .collect();
        Box::new(errors.into_iter())
    }
}

/// The keyword's entries at one object, from the table: `value` is the
/// array of indices the derive wrote.
pub(super) fn keyword(
    table: &[WholeRead],
    value: &Value,
) -> Result<WholeKeyword, jsonschema::ValidationError<'static>> {
    let entries = value.as_array().and_then(|indices| {
        indices
            .iter()
            .map(|index| {
                index
                    .as_u64()
                    .and_then(|i| table.get(usize::try_from(i).ok()?))
                    .cloned()
            })
            .collect::<Option<Vec<_>>>()
    });
    entries.map(WholeKeyword).ok_or_else(|| {
        jsonschema::ValidationError::schema(format!(
            "`{WHOLE}` names no flattened field this validator was given: {value}"
        ))
    })
}
