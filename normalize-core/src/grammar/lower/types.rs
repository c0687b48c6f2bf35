//! The JSON types a subschema admits, as a bit set.

use serde_json::Value;

/// JSON Schema's seven types, as a bit set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Types(pub(super) u8);

impl Types {
    pub(super) const NULL: u8 = 1;
    pub(super) const BOOLEAN: u8 = 2;
    pub(super) const INTEGER: u8 = 4;
    pub(super) const NUMBER: u8 = 8;
    pub(super) const STRING: u8 = 16;
    pub(super) const ARRAY: u8 = 32;
    pub(super) const OBJECT: u8 = 64;
    pub(super) const ALL: Types = Types(127);

    pub(super) fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    pub(super) fn admits(self, value: &Value) -> bool {
        match value {
            Value::Null => self.has(Self::NULL),
            Value::Bool(_) => self.has(Self::BOOLEAN),
            Value::Number(n) => {
                self.has(Self::NUMBER)
                    || (self.has(Self::INTEGER)
                        && (n.is_i64()
                            || n.is_u64()
                            || n.as_f64().is_some_and(|f| f.fract() == 0.0)))
            }
            Value::String(_) => self.has(Self::STRING),
            Value::Array(_) => self.has(Self::ARRAY),
            Value::Object(_) => self.has(Self::OBJECT),
        }
    }
}

/// The JSON type of `value`, with its article, for error messages.
pub(super) fn json_type(value: &Value) -> &'static str {
    crate::plan::JsonType::of(value).with_article()
}
