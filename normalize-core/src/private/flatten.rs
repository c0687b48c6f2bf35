//! `#[serde(flatten)] field: Option<T>`: the members of `T` either make a
//! whole `T`, or are not sent at all.
//!
//! serde reads such a field by trying `T` on the members its struct does not
//! claim, and takes `None` when that fails, *whatever failed*: a `T` sent in
//! part (`{"lo": 1}` of `struct Range { lo, hi }`), a member of the wrong
//! type, an enum's variant with a field missing. Every member of `T` that
//! was sent is then dropped without a word.
//!
//! schemars writes the field as if each of `T`'s members could be left out
//! on its own (a struct's `required` removed, its members merged into the
//! flattening struct's `properties`), or as `anyOf: [T, {}]` (an enum),
//! so the schema took what serde throws away. The derive rewrites it as
//! serde reads it: `anyOf: [T as flattened with nothing optional, {}]` on
//! the flattening struct, with `T`'s members only inside the first branch.
//! The flattening struct is closed with `unevaluatedProperties: false`
//! ([`crate::closing`]), which sees the members of the branch that held:
//! when `T` fails, each of its members that was sent is rejected at its
//! pointer, and when nothing of `T` was sent, the empty branch holds.

use super::annotate::{Annotator, Place, locate};
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// Rewrites the schema of the object at `place` in `schema`, which flattens
/// a field of type `Option<T>`, as serde reads it: `T` whole, or nothing of
/// it (see the docs of the `flatten` module). `own` are the names the
/// object's other fields are read under (a member of `T` with one of those
/// names never reaches `T`'s reading, and its schema stays the field's).
/// `annotate` applies `T`'s own annotations (a `ToolArgs` type's aliases and
/// marks) to `T`'s branch.
///
/// A `T` that takes any member (a map) is left as schemars wrote it:
/// nothing of it can be told apart from the flattening struct's own
/// unknown members.
pub fn flatten_optional<T: JsonSchema>(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    own: &[&str],
    annotate: impl FnOnce(&mut Value, &mut Annotator<'_>),
) {
    // What schemars merged into the object, and `T` flattened with nothing
    // optional. (`json_schema_for_flatten` is how schemars' derive flattens
    // a field; it is hidden from its docs, but generated code calls it, so
    // it lives as long as the derive does.)
    let (written, mut whole) = annotator.with_generator(|generator| {
        (
            schemars::_private::json_schema_for_flatten::<Option<T>>(generator, false).to_value(),
            schemars::_private::json_schema_for_flatten::<T>(generator, true).to_value(),
        )
    });
    let (Value::Object(written), Value::Object(whole_map)) = (&written, &whole) else {
        return;
    };
    let takes_any = |map: &Map<String, Value>| {
        [
            "additionalProperties",
            "unevaluatedProperties",
            "patternProperties",
        ]
        .iter()
        .any(|k| map.contains_key(*k))
    };
    if takes_any(written) || takes_any(whole_map) {
        return;
    }
    annotate(&mut whole, annotator);
    let Some(object) = locate(schema, place) else {
        return;
    };
    if let (Some(Value::Object(merged)), Some(Value::Object(properties))) =
        (written.get("properties"), object.get_mut("properties"))
    {
        for name in merged.keys() {
            if !own.contains(&name.as_str()) {
                properties.shift_remove(name);
            }
        }
    }
    if let Some(Value::Array(union)) = written.get("anyOf") {
        remove_union(object, union);
    }
    let branches = Value::Array(vec![whole, Value::Object(Map::new())]);
    if object.contains_key("anyOf") || object.contains_key("oneOf") {
        let part = Value::Object(Map::from_iter([("anyOf".to_owned(), branches)]));
        match object.get_mut("allOf") {
            Some(Value::Array(parts)) => parts.push(part),
            _ => {
                object.insert("allOf".to_owned(), Value::Array(vec![part]));
            }
        }
    } else {
        object.insert("anyOf".to_owned(), branches);
    }
    if !object.contains_key("type") {
        object.insert("type".to_owned(), Value::String("object".to_owned()));
    }
}

/// Removes the `anyOf` schemars added for the field: the object's own, or
/// (when the object already had one) a part of its `allOf`.
fn remove_union(object: &mut Map<String, Value>, union: &[Value]) {
    let same = |value: Option<&Value>| value.and_then(Value::as_array).is_some_and(|u| u == union);
    if same(object.get("anyOf")) {
        object.shift_remove("anyOf");
        return;
    }
    if let Some(Value::Array(parts)) = object.get_mut("allOf") {
        if let Some(at) = parts.iter().position(|part| {
            part.as_object()
                .is_some_and(|p| p.len() == 1 && same(p.get("anyOf")))
        }) {
            parts.remove(at);
        }
        if parts.is_empty() {
            object.shift_remove("allOf");
        }
    }
}
