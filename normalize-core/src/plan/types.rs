//! The set of JSON types a schema location declares.

use serde_json::Value;
use std::fmt;

/// One of JSON's six value shapes (`integer` is a [`JsonType::Number`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` or `false`
    Boolean,
    /// `{...}`
    Object,
    /// `[...]`
    Array,
    /// any number, integer or not
    Number,
    /// `"..."`
    String,
}

impl JsonType {
    const ALL: [JsonType; 6] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Object,
        JsonType::Array,
        JsonType::Number,
        JsonType::String,
    ];

    /// The shape of a value.
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Object(_) => JsonType::Object,
            Value::Array(_) => JsonType::Array,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
        }
    }

    /// Parses a `type` keyword name; `integer` maps to [`JsonType::Number`].
    pub fn from_name(name: &str) -> Option<JsonType> {
        Some(match name {
            "null" => JsonType::Null,
            "boolean" => JsonType::Boolean,
            "object" => JsonType::Object,
            "array" => JsonType::Array,
            "number" | "integer" => JsonType::Number,
            "string" => JsonType::String,
            _ => return None,
        })
    }

    /// The lowercase JSON Schema name.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::Number => "number",
            JsonType::String => "string",
        }
    }

    /// The type as a message names a value of it: `null`, `a boolean`,
    /// `an object`, `an array`, `a number`, `a string`.
    pub fn with_article(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "a boolean",
            JsonType::Object => "an object",
            JsonType::Array => "an array",
            JsonType::Number => "a number",
            JsonType::String => "a string",
        }
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of [`JsonType`]s: what a location declares.
///
/// A schema that constrains nothing (`true`, `{}`) declares [`TypeSet::ALL`];
/// `false` declares [`TypeSet::EMPTY`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(u8);

impl TypeSet {
    /// No type at all (the `false` schema).
    pub const EMPTY: TypeSet = TypeSet(0);
    /// Every type (a schema that declares nothing).
    pub const ALL: TypeSet = TypeSet(0b11_1111);

    /// The set holding only `ty`.
    pub const fn only(ty: JsonType) -> TypeSet {
        TypeSet(ty.bit())
    }

    /// Whether `ty` is in the set.
    pub const fn contains(self, ty: JsonType) -> bool {
        self.0 & ty.bit() != 0
    }

    /// The set with `ty` added.
    #[must_use]
    pub const fn with(self, ty: JsonType) -> TypeSet {
        TypeSet(self.0 | ty.bit())
    }

    /// Types in both sets (`allOf`).
    #[must_use]
    pub const fn intersect(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 & other.0)
    }

    /// Types in either set (`anyOf`).
    #[must_use]
    pub const fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// RT-TOOL-8's precondition for decoding a string as JSON: `array` or
    /// `object` declared, `string` not declared.
    pub const fn wants_json(self) -> bool {
        (self.contains(JsonType::Array) || self.contains(JsonType::Object))
            && !self.contains(JsonType::String)
    }

    /// The types in the set, in a fixed order.
    pub fn iter(self) -> impl Iterator<Item = JsonType> {
        JsonType::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

impl fmt::Debug for TypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(JsonType::name))
            .finish()
    }
}

impl FromIterator<JsonType> for TypeSet {
    fn from_iter<I: IntoIterator<Item = JsonType>>(iter: I) -> Self {
        iter.into_iter().fold(TypeSet::EMPTY, TypeSet::with)
    }
}

/// Whether `schema` takes `null`: its `type`, a `const` of `null`, or a
/// union branch that does.
pub(crate) fn admits_null(schema: &Value) -> bool {
    let Some(m) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    let type_null = match m.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    let union_null = ["anyOf", "oneOf"].iter().any(|k| {
        m.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|bs| bs.iter().any(admits_null))
    });
    type_null || union_null || m.get("const") == Some(&Value::Null)
}

/// JSON equality where `1` and `1.0` are the same number.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}
