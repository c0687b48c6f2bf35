//! JSON equality with numbers compared by value (`1` and `1.0` are the
//! same number), for checks of what serde writes back against what was
//! sent.

use serde_json::Value;

/// Whether `a` and `b` are the same JSON, numbers compared by value.
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `read` (what serde writes back) still holds everything `sent`
/// holds: every member and item, numbers by value; members `read` adds
/// (defaults) lose nothing. With `nulls_may_go`, a member sent as `null`
/// counts as kept when it is absent (an `Option` skipped when `None`).
pub fn keeps_all(sent: &Value, read: &Value, nulls_may_go: bool) -> bool {
    match (sent, read) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| keeps_all(x, y, nulls_may_go))
        }
        (Value::Object(x), Value::Object(y)) => x.iter().all(|(k, v)| match y.get(k) {
            Some(w) => keeps_all(v, w, nulls_may_go),
            None => nulls_may_go && v.is_null(),
        }),
        _ => same_json(sent, read),
    }
}
