//! What normalization may and may not change, checked by walking the
//! arguments before and after together (the same rules as
//! `tests/normalize_properties.rs`). A violation panics, which libFuzzer
//! reports as a crash with the input that caused it.

use serde_json::Value;
use toolargs::plan::{JsonType, Loc, SchemaPlan};

/// Checks every location of `before` against `after`: keys, array lengths
/// and non-string scalars unchanged; a string with no `&` unchanged unless
/// decoded as JSON; JSON decoded only where the plan declares a container of
/// the decoded shape, and only from a string that is that JSON as sent.
pub fn check_changes(plan: &SchemaPlan, loc: &Loc, before: &Value, after: &Value, at: &str) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let bk: Vec<&String> = b.keys().collect();
            let ak: Vec<&String> = a.keys().collect();
            assert_eq!(bk, ak, "keys changed at {at:?}");
            let bound = plan.bind(loc, before);
            for (k, v) in b {
                check_changes(
                    plan,
                    &plan.member(&bound, k),
                    v,
                    &a[k],
                    &format!("{at}/{k}"),
                );
            }
        }
        (Value::Array(b), Value::Array(a)) => {
            assert_eq!(b.len(), a.len(), "array length changed at {at:?}");
            let bound = plan.bind(loc, before);
            for (i, (v, w)) in b.iter().zip(a).enumerate() {
                check_changes(plan, &plan.item(&bound, i), v, w, &format!("{at}/{i}"));
            }
        }
        (Value::String(b), Value::String(a)) => {
            if !b.contains('&') {
                assert_eq!(b, a, "text without `&` changed at {at:?}");
            }
        }
        (Value::String(s), decoded @ (Value::Array(_) | Value::Object(_))) => {
            let declared = plan.declared(loc);
            assert!(
                declared.wants_json(),
                "decoded at {at:?} where {declared:?} is declared"
            );
            let shape = JsonType::of(decoded);
            assert!(
                declared.contains(shape),
                "decoded to undeclared {shape:?} at {at:?}"
            );
            let parsed = toolargs::json::read(s, usize::MAX)
                .unwrap_or_else(|e| panic!("decoded a string that is not JSON at {at:?}: {e}"));
            assert_eq!(JsonType::of(&parsed), shape, "shape differs at {at:?}");
        }
        (b, a) => assert_eq!(b, a, "non-string scalar changed at {at:?}"),
    }
}
