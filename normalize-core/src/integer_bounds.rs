//! Integer formats as bounds the validator checks.
//!
//! schemars writes a Rust integer type as `"type": "integer"` with a
//! `format` (`uint32`, `int8`, ...) and, for unsigned types, `minimum: 0`.
//! JSON Schema's `format` is an annotation, and on numbers no validator
//! asserts it, so `4294967296` passes a `u32` field's schema and only serde
//! refuses it afterwards. Writing the type's range as `minimum`/`maximum`
//! makes the schema say what serde accepts, and shows the model the range.

use serde_json::{Map, Value};

/// The range of each integer format schemars writes (`int`/`uint` are
/// `isize`/`usize`, 64 bits on the targets this crate supports). 128-bit
/// formats are left alone: their range is wider than a JSON number serde
/// reads as an integer.
const RANGES: &[(&str, i64, u64)] = &[
    ("int8", i8::MIN as i64, i8::MAX as u64),
    ("uint8", 0, u8::MAX as u64),
    ("int16", i16::MIN as i64, i16::MAX as u64),
    ("uint16", 0, u16::MAX as u64),
    ("int32", i32::MIN as i64, i32::MAX as u64),
    ("uint32", 0, u32::MAX as u64),
    ("int64", i64::MIN, i64::MAX as u64),
    ("uint64", 0, u64::MAX),
    ("int", i64::MIN, i64::MAX as u64),
    ("uint", 0, u64::MAX),
];

/// Keywords whose values are data, not schemas.
pub(crate) const DATA: &[&str] = &["const", "enum", "default", "examples"];

/// Adds `minimum`/`maximum` for the range of every integer `format` in
/// `schema`, keeping a bound the schema already has where it is tighter.
///
/// ```
/// use toolargs_core::integer_bounds::bound_integers;
/// use serde_json::json;
///
/// let mut schema = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100});
/// bound_integers(&mut schema);
/// assert_eq!(schema, json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100}));
/// let mut schema = json!({"type": ["integer", "null"], "format": "int8"});
/// bound_integers(&mut schema);
/// assert_eq!(schema["minimum"], -128);
/// assert_eq!(schema["maximum"], 127);
/// ```
pub fn bound_integers(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            bound_one(map);
            for (keyword, child) in map.iter_mut() {
                if !DATA.contains(&keyword.as_str()) {
                    bound_integers(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(bound_integers),
        _ => {}
    }
}

fn bound_one(map: &mut Map<String, Value>) {
    let is_integer = match map.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
        _ => false,
    };
    let Some(format) = map.get("format").and_then(Value::as_str) else {
        return;
    };
    let Some(&(_, low, high)) = RANGES.iter().find(|(name, _, _)| *name == format) else {
        return;
    };
    if !is_integer {
        return;
    }
    let keep_low = map
        .get("minimum")
        .and_then(Value::as_f64)
        .is_some_and(|existing| existing >= low as f64);
    if !keep_low {
        map.insert("minimum".to_owned(), Value::from(low));
    }
    let keep_high = map
        .get("maximum")
        .and_then(Value::as_f64)
        .is_some_and(|existing| existing <= high as f64);
    if !keep_high {
        map.insert("maximum".to_owned(), Value::from(high));
    }
}

#[cfg(test)]
mod tests {
    use super::bound_integers;
    use serde_json::json;

    #[test]
    fn every_format_gets_its_range_and_data_is_left_alone() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "format": "uint32", "minimum": 0},
                "b": {"type": "integer", "format": "int64"},
                "c": {"type": "integer", "format": "uint128", "minimum": 0},
                "d": {"type": "string", "format": "uint32"},
                "e": {"const": {"type": "integer", "format": "uint8"}}
            }
        });
        bound_integers(&mut schema);
        let p = &schema["properties"];
        assert_eq!(p["a"]["maximum"], 4_294_967_295u64);
        assert_eq!(p["b"]["minimum"], i64::MIN);
        assert_eq!(p["b"]["maximum"], i64::MAX);
        assert!(p["c"].get("maximum").is_none());
        assert!(p["d"].get("maximum").is_none());
        assert!(p["e"]["const"].get("maximum").is_none());
    }
}
