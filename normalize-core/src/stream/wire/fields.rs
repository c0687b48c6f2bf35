//! Reading an event's members, with the JSON pointer and the event's type
//! in the error when one is missing or of the wrong type.
//!
//! `null` counts as absent: the SDKs' own serializers write `null` for
//! every unset member.

use super::{StreamFormat, WireError};
use crate::path::Path;
use serde_json::{Map, Value};

/// The event being read, for errors.
#[derive(Clone, Copy)]
pub(super) struct Event<'a> {
    pub(super) format: StreamFormat,
    /// The event's type (or, for chat completions, its object kind).
    pub(super) kind: &'a str,
}

/// An object's members.
pub(super) type Object = Map<String, Value>;

impl Event<'_> {
    pub(super) fn malformed(&self, at: &Path<'_>, message: impl Into<String>) -> WireError {
        WireError::Malformed {
            format: self.format,
            event: self.kind.to_owned(),
            pointer: at.to_pointer(),
            message: message.into(),
        }
    }

    /// `value` (at `at`) read by `cast`, or an error naming `expected`.
    fn typed<'v, T: ?Sized>(
        &self,
        value: &'v Value,
        at: &Path<'_>,
        expected: &str,
        cast: impl FnOnce(&'v Value) -> Option<&'v T>,
    ) -> Result<&'v T, WireError> {
        cast(value).ok_or_else(|| {
            self.malformed(at, format!("expected {expected}, found {}", kind(value)))
        })
    }

    /// The member `key` read by `cast`, if present.
    fn opt_typed<'v, T: ?Sized>(
        &self,
        object: &'v Object,
        at: &Path<'_>,
        key: &str,
        expected: &str,
        cast: impl FnOnce(&'v Value) -> Option<&'v T>,
    ) -> Result<Option<&'v T>, WireError> {
        member(object, key)
            .map(|value| self.typed(value, &at.key(key), expected, cast))
            .transpose()
    }

    /// The value at `at` as an object.
    pub(super) fn object<'v>(
        &self,
        value: &'v Value,
        at: &Path<'_>,
    ) -> Result<&'v Object, WireError> {
        self.typed(value, at, "an object", Value::as_object)
    }

    /// The member `key` as an object, if present.
    pub(super) fn opt_object<'v>(
        &self,
        object: &'v Object,
        at: &Path<'_>,
        key: &str,
    ) -> Result<Option<&'v Object>, WireError> {
        self.opt_typed(object, at, key, "an object", Value::as_object)
    }

    /// The member `key` as an object, required.
    pub(super) fn req_object<'v>(
        &self,
        object: &'v Object,
        at: &Path<'_>,
        key: &str,
    ) -> Result<&'v Object, WireError> {
        self.opt_object(object, at, key)?
            .ok_or_else(|| self.missing(at, key, "an object"))
    }

    /// The member `key` as an array, if present.
    pub(super) fn opt_array<'v>(
        &self,
        object: &'v Object,
        at: &Path<'_>,
        key: &str,
    ) -> Result<Option<&'v [Value]>, WireError> {
        self.opt_typed(object, at, key, "an array", |value| {
            value.as_array().map(Vec::as_slice)
        })
    }

    /// The member `key` as a string, if present.
    pub(super) fn opt_str<'v>(
        &self,
        object: &'v Object,
        at: &Path<'_>,
        key: &str,
    ) -> Result<Option<&'v str>, WireError> {
        self.opt_typed(object, at, key, "a string", Value::as_str)
    }

    /// The member `key` as a string, required.
    pub(super) fn req_str<'v>(
        &self,
        object: &'v Object,
        at: &Path<'_>,
        key: &str,
    ) -> Result<&'v str, WireError> {
        self.opt_str(object, at, key)?
            .ok_or_else(|| self.missing(at, key, "a string"))
    }

    /// The member `key` as an index (a non-negative integer), required.
    pub(super) fn req_index(
        &self,
        object: &Object,
        at: &Path<'_>,
        key: &str,
    ) -> Result<u64, WireError> {
        let value = member(object, key).ok_or_else(|| self.missing(at, key, "an index"))?;
        value.as_u64().ok_or_else(|| {
            self.malformed(
                &at.key(key),
                format!(
                    "expected an index (an integer from 0), found {}",
                    kind(value)
                ),
            )
        })
    }

    fn missing(&self, at: &Path<'_>, key: &str, expected: &str) -> WireError {
        self.malformed(&at.key(key), format!("expected {expected}, found nothing"))
    }
}

/// The member `key`, `null` counting as absent.
pub(super) fn member<'v>(object: &'v Object, key: &str) -> Option<&'v Value> {
    object.get(key).filter(|value| !value.is_null())
}

/// An event that names its `type` (Responses, Anthropic): its members,
/// and the event as errors describe it.
pub(super) fn typed_event(
    format: StreamFormat,
    event: &Value,
) -> Result<(&Object, Event<'_>), WireError> {
    let unnamed = Event { format, kind: "" };
    let object = unnamed.object(event, &Path::ROOT)?;
    let kind = unnamed.req_str(object, &Path::ROOT, "type")?;
    Ok((object, Event { format, kind }))
}

/// A provider's streamed error (`{"type": "error", "error": {"type", "message"}}`
/// for Anthropic, `{"type": "error", "code", "message"}` for Responses,
/// `{"error": {"message", "type", "code"}}` for chat completions), read
/// leniently: whatever it holds, it is reported.
pub(super) fn provider_error(format: StreamFormat, error: &Object) -> WireError {
    let text = |key: &str| {
        member(error, key)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    // The code first: it is the more specific (`context_length_exceeded`
    // beside `invalid_request_error`), and a Responses error event's `type`
    // is only `error`.
    let code = member(error, "code").and_then(|code| match code {
        Value::String(code) => Some(code.clone()),
        Value::Number(code) => Some(code.to_string()),
        _ => None,
    });
    let kind = code.or_else(|| text("type"));
    WireError::Provider {
        format,
        kind,
        message: text("message").unwrap_or_else(|| Value::Object(error.clone()).to_string()),
    }
}

/// The JSON kind of a value, for messages.
fn kind(value: &Value) -> &'static str {
    crate::plan::JsonType::of(value).with_article()
}
