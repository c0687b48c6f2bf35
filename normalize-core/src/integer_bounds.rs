//! Number formats as bounds the validator checks: each integer format's
//! range, and the numbers an `f32` reads as a finite value.
//!
//! schemars writes a Rust integer type as `"type": "integer"` with a
//! `format` (`uint32`, `int8`, ...) and, for unsigned types, `minimum: 0`.
//! JSON Schema's `format` is an annotation, and on numbers no validator
//! asserts it, so `4294967296` passes a `u32` field's schema and only serde
//! refuses it afterwards. Writing the type's range as `minimum`/`maximum`
//! makes the schema say what serde accepts, and shows the model the range.
//!
//! An `f32` (`"format": "float"`) is read by rounding the JSON number to the
//! nearest `f32`: a number beyond `f32::MAX` by half a step or more becomes
//! infinity, which serde accepts and writes back as `null`, so `1e40` would
//! reach the tool as `inf`. Such a number is outside
//! `exclusiveMinimum`/`exclusiveMaximum` `±(2^128 - 2^103)`, the first
//! magnitude that rounds to infinity.

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

/// The smallest magnitude an `f64` rounds to infinity as an `f32`: halfway
/// between `f32::MAX` and `2^128` (a tie rounds to the even neighbour, the
/// infinite one).
pub(crate) const F32_OVERFLOW: f64 = 340_282_356_779_733_661_637_539_395_458_142_568_448.0;

/// Keywords whose values are data, not schemas.
pub(crate) const DATA: &[&str] = &["const", "enum", "default", "examples"];

/// Adds `minimum`/`maximum` for the range of every integer `format` in
/// `schema`, and the exclusive bounds of an `f32`'s finite values to every
/// `"format": "float"`, keeping a bound the schema already has where it is
/// tighter.
pub(crate) fn bound_integers(schema: &mut Value) {
    bound_within(schema, false);
}

/// `reading`: below a `not`, where the schema says what serde *reads*
/// (an untagged variant read first, [`crate::untagged`]): serde reads any
/// number into an `f32`, so no `f32` bound goes there.
fn bound_within(schema: &mut Value, reading: bool) {
    match schema {
        Value::Object(map) => {
            bound_one(map, reading);
            for (keyword, child) in map.iter_mut() {
                if !DATA.contains(&keyword.as_str()) {
                    bound_within(child, reading || keyword == "not");
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| bound_within(item, reading)),
        _ => {}
    }
}

/// The range of an integer `format` schemars writes, as the lowest and the
/// highest value.
pub(crate) fn range(format: &str) -> Option<(i64, u64)> {
    RANGES
        .iter()
        .find(|(name, _, _)| *name == format)
        .map(|&(_, low, high)| (low, high))
}

/// Whether a schema is schemars' `f32` (`"format": "float"`).
pub(crate) fn is_f32(map: &Map<String, Value>) -> bool {
    map.get("format").and_then(Value::as_str) == Some("float")
}

/// Whether `type` names `name` (alone or in a list).
fn says_type(map: &Map<String, Value>, name: &str) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(types)) => types.iter().any(|t| t == name),
        _ => false,
    }
}

fn bound_one(map: &mut Map<String, Value>, reading: bool) {
    if is_f32(map) {
        if !reading {
            bound_f32(map);
        }
        return;
    }
    let is_integer = says_type(map, "integer");
    let Some(format) = map.get("format").and_then(Value::as_str) else {
        return;
    };
    let Some((low, high)) = range(format) else {
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

/// `exclusiveMinimum`/`exclusiveMaximum` at [`F32_OVERFLOW`], where the
/// schema has no tighter bound of either kind.
fn bound_f32(map: &mut Map<String, Value>) {
    if !says_type(map, "number") {
        return;
    }
    let bound = |keyword: &str| map.get(keyword).and_then(Value::as_f64);
    let low_kept = bound("minimum")
        .into_iter()
        .chain(bound("exclusiveMinimum"))
        .any(|low| low > -F32_OVERFLOW);
    let high_kept = bound("maximum")
        .into_iter()
        .chain(bound("exclusiveMaximum"))
        .any(|high| high < F32_OVERFLOW);
    if !low_kept {
        map.insert("exclusiveMinimum".to_owned(), Value::from(-F32_OVERFLOW));
    }
    if !high_kept {
        map.insert("exclusiveMaximum".to_owned(), Value::from(F32_OVERFLOW));
    }
}

#[cfg(test)]
mod tests {
    use super::{F32_OVERFLOW, bound_integers};
    use serde_json::json;

    /// A tighter bound stays; a missing one is the format's range.
    #[test]
    fn keeps_a_tighter_bound_and_adds_the_formats_range() {
        let mut schema =
            json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100});
        bound_integers(&mut schema);
        assert_eq!(
            schema,
            json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100})
        );
        let mut schema = json!({"type": ["integer", "null"], "format": "int8"});
        bound_integers(&mut schema);
        assert_eq!(schema["minimum"], -128);
        assert_eq!(schema["maximum"], 127);
    }

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

    #[test]
    fn f32_refuses_what_rounds_to_infinity() {
        // The bound is the first magnitude that overflows, and the one
        // below it stays finite.
        assert_eq!(F32_OVERFLOW as f32, f32::INFINITY);
        assert_eq!((-F32_OVERFLOW) as f32, f32::NEG_INFINITY);
        let below = f64::from_bits(F32_OVERFLOW.to_bits() - 1);
        assert_eq!(below as f32, f32::MAX);
        assert_eq!(F32_OVERFLOW, f64::from(f32::MAX) + 2f64.powi(103));

        let mut schema = json!({
            "properties": {
                "a": {"type": "number", "format": "float"},
                "b": {"type": ["number", "null"], "format": "float", "maximum": 10.0},
                "c": {"type": "number", "format": "double"}
            }
        });
        bound_integers(&mut schema);
        let p = &schema["properties"];
        assert_eq!(p["a"]["exclusiveMaximum"], F32_OVERFLOW);
        assert_eq!(p["a"]["exclusiveMinimum"], -F32_OVERFLOW);
        assert!(p["b"].get("exclusiveMaximum").is_none());
        assert_eq!(p["b"]["exclusiveMinimum"], -F32_OVERFLOW);
        assert!(p["c"].get("exclusiveMaximum").is_none());
    }
}
