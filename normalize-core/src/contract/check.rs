//! The rules of a [`Node`] that JSON Schema cannot say, checked on a value
//! that passed the schema: a Rust integer written with a fraction or an
//! exponent (`5000.0`, `5e0`), which the schema's `integer` takes and serde
//! refuses. Each is reported at the member's own pointer, inside a
//! flattened struct too, where serde's error would have none.

use super::model::{Node, StructModel};
use crate::path::Path;
use crate::validate::Violation;
use serde_json::{Map, Value};

/// Pushes a violation for every place of `value` that breaks `node`.
pub(crate) fn check(node: &Node, value: &Value, out: &mut Vec<Violation>) {
    at(node, value, &Path::ROOT, 0, out);
}

fn at(node: &Node, value: &Value, path: &Path<'_>, depth: usize, out: &mut Vec<Violation>) {
    match (node.resolve(), value) {
        (Node::Integer, Value::Number(number)) if !number.is_u64() && !number.is_i64() => {
            out.push(fraction(path, value));
        }
        (Node::WideInteger, Value::Number(number)) if !number.is_u64() && !number.is_i64() => {
            let past_64_bits = number.as_f64().is_some_and(|f| f.fract() == 0.0);
            if !past_64_bits {
                out.push(fraction(path, value));
            }
        }
        (Node::Option(inner), value) if !value.is_null() => at(inner(), value, path, depth, out),
        (Node::Seq(item), Value::Array(items)) => crate::deep::guard(depth, || {
            for (i, element) in items.iter().enumerate() {
                at(item(), element, &path.index(i), depth + 1, out);
            }
        }),
        (Node::Map(entry), Value::Object(members)) => crate::deep::guard(depth, || {
            for (key, member) in members {
                at(entry(), member, &path.key(key), depth + 1, out);
            }
        }),
        (Node::Struct(model), Value::Object(members)) => crate::deep::guard(depth, || {
            let mut taken = vec![false; members.len()];
            fields(model, members, &mut taken, path, depth, out);
        }),
        _ => {}
    }
}

/// The members of `members` that `model`'s fields read, as serde hands
/// them out: the struct's own fields first, then each flattened field in
/// declaration order, a flattened struct taking the members its fields
/// read (`taken`), a flattened map every member no one took before it.
fn fields(
    model: &StructModel,
    members: &Map<String, Value>,
    taken: &mut [bool],
    path: &Path<'_>,
    depth: usize,
    out: &mut Vec<Violation>,
) {
    // The key that gave each field its value: serde refuses a second name
    // of the same field (`duplicate field`).
    let mut given: Vec<Option<&str>> = vec![None; model.fields.len()];
    for (i, (key, member)) in members.iter().enumerate() {
        if taken[i] {
            continue;
        }
        if let Some(j) = model.fields.iter().position(|field| field.reads(key)) {
            taken[i] = true;
            match given[j] {
                Some(first) => out.push(two_names(path, first, key)),
                None => given[j] = Some(key),
            }
            at(
                (model.fields[j].node)(),
                member,
                &path.key(key),
                depth + 1,
                out,
            );
        }
    }
    // Once a flattened field of unknown shape (an enum, a type without a
    // model) had its pick, which members are left is not known.
    let mut known = true;
    for field in model.fields.iter().filter(|f| f.flatten && !f.skipped) {
        match (field.node)().resolve() {
            Node::Struct(inner) => fields(inner, members, taken, path, depth, out),
            Node::Map(entry) if known => {
                for (i, (key, member)) in members.iter().enumerate() {
                    if !taken[i] {
                        at(entry(), member, &path.key(key), depth + 1, out);
                    }
                }
            }
            // A flattened `Option` is read whole or not at all (the schema
            // says so, `crate::validate::whole`): its members are its own,
            // checked there, and no later map's.
            Node::Option(inner) => match inner().resolve() {
                Node::Struct(inner) => take(inner, members, taken),
                _ => known = false,
            },
            _ => known = false,
        }
    }
}

/// Marks the members a flattened struct's fields read as taken, unchecked.
fn take(model: &StructModel, members: &Map<String, Value>, taken: &mut [bool]) {
    for (i, key) in members.keys().enumerate() {
        if !taken[i] && model.fields.iter().any(|field| field.reads(key)) {
            taken[i] = true;
        }
    }
    for field in model.fields.iter().filter(|f| f.flatten && !f.skipped) {
        if let Node::Struct(inner) = (field.node)().resolve() {
            take(inner, members, taken);
        }
    }
}

/// A field sent under two of its names (its wire name and an alias), as
/// the schema's `not` of the pair words it where it can say it.
fn two_names(path: &Path<'_>, first: &str, second: &str) -> Violation {
    Violation {
        pointer: path.key(second).to_pointer(),
        keyword: "not".to_owned(),
        expected: format!("one of `{first}` and `{second}` (two names of one field)"),
        found: format!("field `{second}` beside `{first}`"),
        message: format!("`{first}` and `{second}` are two names of one field: send one of them"),
    }
}

fn fraction(path: &Path<'_>, value: &Value) -> Violation {
    let expected = "an integer written without a fraction or an exponent".to_owned();
    let found = format!("number {value}");
    Violation {
        pointer: path.to_pointer(),
        keyword: "type".to_owned(),
        message: format!("expected {expected}, found {found}"),
        expected,
        found,
    }
}

/// Pushes a violation for each pointer of `repeated` (members whose key an
/// earlier member of the same object has, [`crate::repeated_keys`]) where
/// `node` says serde's derive reads that key as a struct's field: serde
/// refuses it (`duplicate field`). Anywhere else (a map, a value without a
/// model) the last one is kept, as serde_json keeps it.
pub(crate) fn repeats(node: &Node, repeated: &[String], out: &mut Vec<Violation>) {
    for pointer in repeated {
        let Ok(parsed) = crate::path::Pointer::parse(pointer) else {
            continue;
        };
        let tokens = parsed.tokens();
        let Some((key, parents)) = tokens.split_last() else {
            continue;
        };
        let reads = parents
            .iter()
            .try_fold(node, |node, token| member(node, token))
            .and_then(|parent| match unwrap_options(parent) {
                Node::Struct(model) => Some(struct_reads(model, key)),
                _ => None,
            });
        if reads == Some(true) && !out.iter().any(|v| v.pointer == *pointer) {
            let expected = "each field once".to_owned();
            let found = format!("field `{key}` sent more than once");
            out.push(Violation {
                pointer: pointer.clone(),
                keyword: "repeatedKey".to_owned(),
                message: format!("field `{key}` is sent more than once: send it once"),
                expected,
                found,
            });
        }
    }
}

/// The node through `Option`s and transparent wrappers.
fn unwrap_options(node: &Node) -> &Node {
    let mut node = node.resolve();
    while let Node::Option(inner) = node {
        node = inner().resolve();
    }
    node
}

/// The node of member `token` of a value of `node`.
fn member<'n>(node: &'n Node, token: &str) -> Option<&'n Node> {
    match unwrap_options(node) {
        Node::Seq(item) => token.parse::<usize>().ok().map(|_| item()),
        Node::Map(entry) => Some(entry()),
        Node::Struct(model) => struct_member(model, token),
        _ => None,
    }
}

/// The node a struct reads member `key` as: its own field's, a flattened
/// struct's field's, or a flattened map's entries'.
fn struct_member(model: &StructModel, key: &str) -> Option<&'static Node> {
    if let Some(field) = model.fields.iter().find(|f| f.reads(key)) {
        return Some((field.node)());
    }
    model
        .fields
        .iter()
        .filter(|f| f.flatten && !f.skipped)
        .find_map(|field| match (field.node)().resolve() {
            Node::Struct(inner) => struct_member(inner, key),
            Node::Map(entry) => Some(entry()),
            _ => None,
        })
}

/// Whether a struct (or a struct it flattens) has a field read from `key`.
fn struct_reads(model: &StructModel, key: &str) -> bool {
    model.fields.iter().any(|f| f.reads(key))
        || model
            .fields
            .iter()
            .filter(|f| f.flatten && !f.skipped)
            .any(|field| matches!((field.node)().resolve(), Node::Struct(inner) if struct_reads(inner, key)))
}
