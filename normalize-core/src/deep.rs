//! Values nested deeper than a thread's stack would allow a recursive
//! algorithm to go.
//!
//! Parsing ([`crate::json_text`]), normalizing ([`crate::Normalizer`], the
//! code `#[derive(ToolArgs)]` generates) and writing repairs back into a text
//! ([`crate::Normalizer::normalize_text`]) recurse once
//! per level of nesting. Below the first 32 levels, each level first makes
//! sure the stack has room for it and, when it does not, carries on in a
//! fresh segment on the heap (`stacker`, the crate the Rust compiler uses for
//! the same purpose). So no [`crate::normalizer::Options::max_depth`] can overflow a
//! thread, even a 2 MiB worker, while the calls models actually send, a few
//! levels deep, pay nothing.
//!
//! `serde_json::Value`'s own drop also recurses once per level: a value the
//! crate builds and lets go of itself goes to [`drop_value`] instead of out
//! of scope. One it hands out ([`crate::json::read`],
//! [`crate::call::Arguments::into_value`]) drops as serde_json drops it, as
//! their docs say. Nor can the crate reach
//! the validator or serde's deserialization of a recursive type, which
//! `from_model` and the toolbox run after normalizing: they too take stack
//! per level of the value.

use serde_json::Value;

/// Levels walked, and nesting parsed, without looking at the stack: any
/// thread has room for them (a few KiB a level in a debug build), and real
/// calls stay well within them.
pub(crate) const UNGUARDED: usize = 32;
/// Room a level must find on the stack before it recurses: far more than
/// one level of any walk here takes, with the parse of a string's JSON
/// nested up to [`UNGUARDED`] levels.
const RED_ZONE: usize = 128 << 10;
/// Size of each stack segment added when the room runs out.
const SEGMENT: usize = 2 << 20;

/// Runs `f`, the members of a container at `depth` (the root is at 0), on a
/// stack with room for them.
#[inline]
pub(crate) fn guard<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if depth < UNGUARDED {
        f()
    } else {
        stacker::maybe_grow(RED_ZONE, SEGMENT, f)
    }
}

/// Drops `value` level by level, with a heap-allocated work list instead of
/// the recursion of `Value`'s own drop, which overflows a 2 MiB thread some
/// tens of thousands of levels down.
pub(crate) fn drop_value(value: Value) {
    let mut pending = Vec::new();
    let mut next = Some(value);
    while let Some(value) = next.take().or_else(|| pending.pop()) {
        // Moving the members out leaves each container empty when it drops;
        // scalars and strings drop here, without recursion.
        match value {
            Value::Array(items) => pending.extend(items.into_iter().filter(is_container)),
            Value::Object(members) => pending.extend(
                members
                    .into_iter()
                    .map(|(_, member)| member)
                    .filter(is_container),
            ),
            _ => {}
        }
    }
}

fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// A copy of `value`, found at `depth`, made level by level on a stack
/// with room for each (`Value::clone` recurses once per level).
pub(crate) fn clone_value(value: &Value, depth: usize) -> Value {
    match value {
        Value::Array(items) => guard(depth, || {
            Value::Array(
                items
                    .iter()
                    .map(|item| clone_value(item, depth + 1))
                    .collect(),
            )
        }),
        Value::Object(members) => guard(depth, || {
            Value::Object(
                members
                    .iter()
                    .map(|(key, member)| (key.clone(), clone_value(member, depth + 1)))
                    .collect(),
            )
        }),
        scalar => scalar.clone(),
    }
}

/// Writes `value` as compact JSON, exactly as `serde_json::to_writer` would,
/// each level on a stack with room for it (`serde_stacker`, as
/// [`crate::json_text`] parses).
pub(crate) fn write_compact(value: &Value, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
    let mut json = serde_json::Serializer::new(out);
    let mut guarded = serde_stacker::Serializer::new(&mut json);
    guarded.red_zone = RED_ZONE;
    guarded.stack_size = SEGMENT;
    serde::Serialize::serialize(value, guarded)
}

/// Runs `work` on a thread with a 256 KiB stack, where recursing once per
/// level of a deep value would overflow: the tests of stack safety.
#[cfg(test)]
pub(crate) fn on_small_stack<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(work)
        .expect("spawn a small-stack thread")
        .join()
        .expect("the small-stack thread finished")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_what_serde_json_writes() {
        let values = [
            json!(null),
            json!("a\"b\u{1}"),
            json!(1e23),
            json!([]),
            json!({}),
            json!([1, [2, {"a": [true, -0.5, "x"]}], {}, []]),
            json!({"k\n": {"z": 1, "a": [null]}, "b": 18446744073709551615u64}),
        ];
        for value in values {
            let mut out = Vec::new();
            write_compact(&value, &mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), value.to_string());
        }
    }

    #[test]
    fn copies_and_drops_a_deep_value_on_a_small_stack() {
        let depth = 200_000;
        let written = super::on_small_stack(move || {
            // Built by hand: `json!` would serialize `value` at each level.
            let mut value = json!("leaf");
            for i in 0..depth {
                value = if i % 2 == 0 {
                    Value::Array(vec![Value::from(1), value])
                } else {
                    let mut members = serde_json::Map::new();
                    members.insert("k".to_owned(), value);
                    members.insert("s".to_owned(), Value::from("x"));
                    Value::Object(members)
                };
            }
            let mut out = Vec::new();
            write_compact(&value, &mut out).unwrap();
            let copy = clone_value(&value, 0);
            let mut copied = Vec::new();
            write_compact(&copy, &mut copied).unwrap();
            assert_eq!(copied, out, "the copy writes as the value does");
            drop_value(copy);
            drop_value(value);
            out.len()
        });
        // `[1,` and `]`, `{"k":` and `,"s":"x"}`: 4 and 14 bytes a pair of levels.
        assert_eq!(written, depth / 2 * 18 + 6);
    }
}
