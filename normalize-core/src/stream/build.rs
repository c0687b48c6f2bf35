//! The arguments' value, built as the text arrives: each complete token
//! decoded, and placed in its container, exactly as `serde_json` parses
//! the whole text (`super::parsed_tests` proves it), so the end need not
//! parse the text again.

use super::lexer::Token;
use serde_json::{Map, Value};

/// A container being parsed: the members complete so far, placed as
/// `serde_json` places them (a repeated key replaces the earlier value in
/// its place).
#[derive(Debug)]
pub(super) enum Built {
    Object(Map<String, Value>),
    Array(Vec<Value>),
}

impl Built {
    /// An empty object or array.
    pub(super) fn new(object: bool) -> Self {
        if object {
            Built::Object(Map::new())
        } else {
            Built::Array(Vec::new())
        }
    }

    /// Places a complete member (`key` is taken; arrays ignore it).
    /// Whether it replaced an earlier member of the same key.
    pub(super) fn place(&mut self, key: &mut String, value: Value) -> bool {
        match self {
            Built::Object(map) => map.insert(std::mem::take(key), value).is_some(),
            Built::Array(items) => {
                items.push(value);
                false
            }
        }
    }

    /// A copy of the members so far, the container at `depth` (members
    /// nest as deep as the text: copied level by level, see
    /// [`crate::deep::clone_value`]).
    pub(super) fn copy(&self, depth: usize) -> Built {
        match self {
            Built::Object(map) => Built::Object(
                map.iter()
                    .map(|(key, member)| (key.clone(), crate::deep::clone_value(member, depth + 1)))
                    .collect(),
            ),
            Built::Array(items) => Built::Array(
                items
                    .iter()
                    .map(|item| crate::deep::clone_value(item, depth + 1))
                    .collect(),
            ),
        }
    }

    pub(super) fn into_value(self) -> Value {
        match self {
            Built::Object(map) => Value::Object(map),
            Built::Array(items) => Value::Array(items),
        }
    }
}

/// A complete key token (quotes included) as text, borrowed when it holds
/// no escape; `None` when `serde_json` refuses it.
pub(super) fn decode_key<'t>(token: Token<'t>) -> Option<std::borrow::Cow<'t, str>> {
    let bytes = token.bytes();
    let inner = bytes.get(1..bytes.len().checked_sub(1)?)?;
    if !token.escaped {
        let text = match token.known().and_then(|t| t.get(1..t.len() - 1)) {
            Some(text) => text,
            None => std::str::from_utf8(inner).ok()?,
        };
        return Some(std::borrow::Cow::Borrowed(text));
    }
    serde_json::from_slice::<String>(bytes)
        .ok()
        .map(std::borrow::Cow::Owned)
}

/// A complete scalar token as `serde_json` parses it; `None` when it
/// refuses it.
pub(super) fn decode_scalar(scalar: Token<'_>) -> Option<Value> {
    let token = scalar.bytes();
    match token.first()? {
        b'"' => decode_string(scalar).map(Value::String),
        b't' => Some(Value::Bool(true)),
        b'f' => Some(Value::Bool(false)),
        b'n' => Some(Value::Null),
        // Up to 19 digits always fit a `u64`, which `serde_json` keeps as
        // one; other numbers are its own to read (rounding, range).
        b'0'..=b'9' if token.len() <= 19 && token.iter().all(u8::is_ascii_digit) => {
            let mut n = 0u64;
            for digit in token {
                n = n * 10 + u64::from(digit - b'0');
            }
            Some(Value::from(n))
        }
        _ => serde_json::from_slice::<Value>(token).ok(),
    }
}

/// A complete JSON string token (quotes included) as text; `None` when
/// `serde_json` refuses it.
fn decode_string(string: Token<'_>) -> Option<String> {
    decode_key(string).map(std::borrow::Cow::into_owned)
}
