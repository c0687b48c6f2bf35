//! Turning a `jsonschema` error into compact [`Violation`]s: one per failing
//! pointer, with `expected` and `found` written for a reader (and a model).

use super::Violation;
use super::distinct_entries::{DISTINCT, Repeat};
use super::flattened_wholes::{Failure, WHOLE};
use crate::path::write_token;
use crate::plan::reference::{resolve, unescape_token, value_at};
use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

/// Longest preview of a string value kept in a diagnostic.
const PREVIEW_CHARS: usize = 40;
/// Most names listed before "...".
const LIST_MAX: usize = 12;

/// Appends the violations one `jsonschema` error stands for (several for an
/// `additionalProperties` error naming several members).
pub(super) fn push_violations(
    schema: &Value,
    instance: &Value,
    error: &ValidationError<'_>,
    out: &mut Vec<Violation>,
    declared_elsewhere: &mut Vec<Declared>,
    wholes: &mut Vec<Declared>,
) {
    let pointer = error.instance_path().as_str().to_owned();
    let keyword = error.kind().keyword().to_owned();
    let found = describe_value(error.instance());
    let keyword_at = error.schema_path().as_str();
    if push_union_violations(schema, instance, error, out, declared_elsewhere, wholes) {
        return;
    }
    let (expected, message) = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let owner = value_at(schema, parent_pointer(keyword_at));
            let fields = owner
                .map(|node| declared_fields(schema, node))
                .unwrap_or_default();
            let expected = if fields.is_empty() {
                "no other field".to_owned()
            } else {
                format!("one of the declared fields: {}", list(&fields))
            };
            let unevaluated = matches!(
                error.kind(),
                ValidationErrorKind::UnevaluatedProperties { .. }
            );
            for name in unexpected {
                let mut violation = unknown_field(&pointer, name, &keyword, &expected);
                if unevaluated && fields.contains(name) {
                    // Declared by a part of the object that did not hold:
                    // `explain` says which and why, where it can.
                    violation.expected =
                        "the part of this object that declares it, whole".to_owned();
                    violation.message = format!(
                        "field `{name}` is not read as sent: the part of this object that \
                         declares it does not hold"
                    );
                    declared_elsewhere.push(Declared {
                        pointer: violation.pointer.clone(),
                        owner: parent_pointer(keyword_at).to_owned(),
                    });
                }
                out.push(violation);
            }
            return;
        }
        ValidationErrorKind::FalseSchema if keyword_at.ends_with("/additionalProperties") => {
            // `additionalProperties: false` with no `properties`: the
            // validator reports the object once, at the object; every member
            // is unknown.
            if let Some(Value::Object(members)) = value_at(instance, &pointer) {
                for name in members.keys() {
                    out.push(unknown_field(
                        &pointer,
                        name,
                        "additionalProperties",
                        "no other field",
                    ));
                }
                return;
            }
            let expected = "nothing (no value is allowed here)".to_owned();
            (expected, format!("no value is allowed here, found {found}"))
        }
        // Only a branch denying unknown members names its members (see
        // `crate::compile::denial`): the name is one serde offers it and
        // it does not read.
        ValidationErrorKind::PropertyNames { error: refused } if refused.instance().is_string() => {
            let name = refused.instance().as_str().unwrap_or_default();
            let at = child_pointer(&pointer, name);
            out.push(Violation {
                found: value_at(instance, &at)
                    .map_or_else(|| format!("field `{name}`"), describe_value),
                pointer: at,
                keyword,
                expected: "no such field beside the variant read here".to_owned(),
                message: format!(
                    "field `{name}` is refused by the variant read here, which denies unknown \
                     fields: serde offers it every member not taken before it, those of fields \
                     flattened after it included"
                ),
            });
            return;
        }
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_owned);
            out.push(Violation {
                pointer: child_pointer(&pointer, &name),
                keyword,
                expected: "a value (required)".to_owned(),
                found: "nothing".to_owned(),
                message: format!("missing required field `{name}`"),
            });
            return;
        }
        ValidationErrorKind::Type { kind } => {
            let in_schema_order = match value_at(schema, keyword_at) {
                Some(Value::Array(names)) => Some(
                    names
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" or "),
                ),
                _ => None,
            };
            let expected = in_schema_order.unwrap_or_else(|| match kind {
                TypeKind::Single(ty) => ty.to_string(),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            });
            let message = format!("expected {expected}, found {found}");
            (expected, message)
        }
        ValidationErrorKind::Pattern { pattern } => {
            let expected = format!("a string matching the pattern `{pattern}`");
            let message = format!("expected {expected}, found {found}");
            (expected, message)
        }
        ValidationErrorKind::Enum { options } => {
            let values: Vec<String> = match &**options {
                Value::Array(values) => values.iter().map(Value::to_string).collect(),
                other => vec![other.to_string()],
            };
            let expected = format!("one of {}", list(&values));
            let message = format!("expected {expected}, found {found}");
            (expected, message)
        }
        ValidationErrorKind::Constant { expected_value } => {
            let expected = format!("the value {expected_value}");
            let message = format!("expected {expected}, found {found}");
            (expected, message)
        }
        ValidationErrorKind::AnyOf { .. }
        | ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::OneOfMultipleValid { .. } => {
            let branches = branch_descriptions(schema, keyword_at);
            let expected = if branches.iter().all(|b| b == "no value") {
                // An enum whose every variant is skipped: serde reads none
                // (schemars writes an `enum` of no value).
                "nothing (no variant can be read here)".to_owned()
            } else if matches!(error.kind(), ValidationErrorKind::OneOfMultipleValid { .. }) {
                format!("exactly one of: {}", branches.join(" | "))
            } else {
                format!("one of: {}", branches.join(" | "))
            };
            let message = format!("expected {expected}, found {found}");
            (expected, message)
        }
        ValidationErrorKind::FalseSchema => {
            let expected = "nothing (no value is allowed here)".to_owned();
            (expected, format!("no value is allowed here, found {found}"))
        }
        ValidationErrorKind::Not { schema: excluded } => {
            // A field sent under two of its names (`not` of pairs of
            // required names, how a flattened struct refuses it), or a value
            // of a form the schema excludes: never the schema's JSON.
            if let Some((a, b)) = names_sent_together(excluded, error.instance()) {
                let expected = format!("one of `{a}` and `{b}` (two names of one field)");
                let message =
                    format!("`{a}` and `{b}` are two names of one field: send one of them");
                out.push(Violation {
                    pointer: child_pointer(&pointer, &b),
                    keyword,
                    expected,
                    found: format!("field `{b}` beside `{a}`"),
                    message,
                });
                return;
            }
            let expected = "a value of another form (this one is excluded)".to_owned();
            (
                expected.clone(),
                format!("expected {expected}, found {found}"),
            )
        }
        ValidationErrorKind::Custom { keyword, message } if keyword == DISTINCT => {
            if let Some(repeat) = Repeat::from_message(message) {
                let (found, message) = match &repeat.elements {
                    Some((later, earlier)) => (
                        format!("the same element as {earlier} at {}", repeat.earlier),
                        format!(
                            "{later} is the same element as {earlier} (at {}) once read, and \
                             only one of them would be kept: send each element once",
                            repeat.earlier
                        ),
                    ),
                    None => (
                        format!("the same entry as `{}`", repeat.earlier),
                        format!(
                            "`{}` is the same entry as `{}` once read, and only one of them \
                             would be kept: send each entry once",
                            repeat.later, repeat.earlier
                        ),
                    ),
                };
                out.push(Violation {
                    pointer: child_pointer(&pointer, &repeat.later),
                    keyword: keyword.clone(),
                    expected: "entries that stay distinct once read".to_owned(),
                    found,
                    message,
                });
                return;
            }
            let expected = "entries that stay distinct once read".to_owned();
            (expected.clone(), format!("expected {expected}: {message}"))
        }
        ValidationErrorKind::Custom { keyword, message } if keyword == WHOLE => {
            if let Some(failure) = Failure::from_message(message) {
                let names: Vec<String> = failure.sent.iter().map(|n| format!("`{n}`")).collect();
                let message = format!(
                    "{} (the fields {} are read together as one value: send them whole, or \
                     none of them)",
                    failure.message,
                    names.join(", ")
                );
                // Where the type failed inside a member, there; where it
                // failed as a whole (a field missing), at each member sent,
                // which is what would be dropped.
                let at: Vec<String> = if failure.pointer.is_empty() {
                    failure
                        .sent
                        .iter()
                        .map(|name| child_pointer(&pointer, name))
                        .collect()
                } else {
                    vec![format!("{pointer}{}", failure.pointer)]
                };
                for at in at {
                    wholes.push(Declared {
                        pointer: at.clone(),
                        owner: pointer.clone(),
                    });
                    out.push(Violation {
                        pointer: at,
                        keyword: keyword.clone(),
                        expected: "fields that make one whole value, or none of them".to_owned(),
                        found: failure.message.clone(),
                        message: message.clone(),
                    });
                }
                return;
            }
            let expected = "fields that make one whole value, or none of them".to_owned();
            (expected, message.clone())
        }
        other => {
            // Bounds, formats and the rest: jsonschema's own wording of the
            // rule is already compact ("... is longer than 5 characters").
            let text = error.to_string();
            let expected =
                limit_text(other).unwrap_or_else(|| format!("a value satisfying `{keyword}`"));
            (expected, text)
        }
    };
    out.push(Violation {
        pointer,
        keyword,
        expected,
        found,
        message,
    });
}

/// A union that failed in a way one precise violation explains: a required
/// field's aliases all missing, one branch of the value's shape (`Filter` of
/// `Filter | null`, the variant an externally tagged object names) or the
/// branch its tag picks, whose own errors say more than "matches no
/// branch", or a tag every variant refuses.
/// Whether it pushed them.
fn push_union_violations(
    schema: &Value,
    instance: &Value,
    error: &ValidationError<'_>,
    out: &mut Vec<Violation>,
    declared_elsewhere: &mut Vec<Declared>,
    wholes: &mut Vec<Declared>,
) -> bool {
    let pointer = error.instance_path().as_str();
    let context = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context
        }
        _ => return false,
    };
    if matches!(error.kind(), ValidationErrorKind::AnyOf { .. })
        && let Some(names) = alias_names(schema, error.schema_path().as_str())
    {
        let field = names.first().cloned().unwrap_or_default();
        let others: Vec<String> = names.iter().skip(1).map(|n| format!("`{n}`")).collect();
        out.push(Violation {
            pointer: child_pointer(pointer, &field),
            keyword: "required".to_owned(),
            expected: "a value (required)".to_owned(),
            found: "nothing".to_owned(),
            message: format!(
                "missing required field `{field}` (or its alias {})",
                others.join(" or ")
            ),
        });
        return true;
    }
    if let Some(errors) = beside_null(pointer, context) {
        for error in errors {
            push_violations(schema, instance, error, out, declared_elsewhere, wholes);
        }
        return true;
    }
    if let Some(errors) = shape_matching_branch(pointer, context) {
        for error in errors {
            push_violations(schema, instance, error, out, declared_elsewhere, wholes);
        }
        return true;
    }
    let keyword_at = error.schema_path().as_str();
    if let Some(errors) = tag_picked_branch(schema, keyword_at, pointer, context) {
        for error in errors {
            push_violations(schema, instance, error, out, declared_elsewhere, wholes);
        }
        return true;
    }
    if let Some(later) = read_as_earlier(pointer, context) {
        // The value has a later branch's form, and an earlier branch's serde
        // reading takes it first (`crate::untagged`): say which ones.
        let branches = branch_descriptions(schema, error.schema_path().as_str());
        if let Some(taken) = branches.get(later) {
            let found = describe_value(error.instance());
            let earlier = branches[..later].join(" | ");
            out.push(Violation {
                pointer: pointer.to_owned(),
                keyword: "not".to_owned(),
                expected: format!("one of: {}", branches.join(" | ")),
                message: format!(
                    "found {found}, which has the form of {taken} but is read first as an \
                     earlier variant ({earlier}), which refuses it"
                ),
                found,
            });
            return true;
        }
    }
    if let Some((at, accepted)) = failing_tag(pointer, context) {
        let found = value_at(instance, &at).map_or_else(|| "nothing".to_owned(), describe_value);
        let expected = format!("one of {}", list(&accepted));
        out.push(Violation {
            message: format!("expected {expected}, found {found}"),
            pointer: at,
            keyword: "const".to_owned(),
            expected,
            found,
        });
        return true;
    }
    false
}

/// The errors of the one branch beside `null` (an `Option<T>`'s union, or
/// any union of one branch and `null`), when the value has that branch's
/// type: what went wrong is inside it (a bad tag of an `Option<Struct>`'s
/// enum member is at that member), not "neither this nor null".
fn beside_null<'e>(
    pointer: &str,
    context: &'e [Vec<ValidationError<'static>>],
) -> Option<&'e [ValidationError<'static>]> {
    let [first, second] = context else {
        return None;
    };
    let is_null_branch = |errors: &[ValidationError<'static>]| {
        matches!(errors, [error] if error.instance_path().as_str() == pointer
        && matches!(
            error.kind(),
            ValidationErrorKind::Type {
                kind: TypeKind::Single(jsonschema::JsonType::Null)
            }
        ))
    };
    let other = match (is_null_branch(first), is_null_branch(second)) {
        (true, false) => second,
        (false, true) => first,
        _ => return None,
    };
    // A value of another type, or one refused as a whole (a scalar outside
    // an enum), is said at the union: "one of: T | null".
    let of_another_type = other.iter().any(|e| {
        e.instance_path().as_str() == pointer
            && matches!(e.kind(), ValidationErrorKind::Type { .. })
    });
    let inside = other.iter().any(|e| e.instance_path().as_str() != pointer);
    (inside && !of_another_type).then_some(other.as_slice())
}

/// The one union branch that has the value's shape, if exactly one has: no
/// `type` or `not` error at the union's own location, and no `const`/`enum` error
/// there or at a direct member (a tag of a tagged enum). Where several
/// remain, the one that misses no required member (an externally tagged
/// variant whose key is present), then the one whose errors all lie deeper
/// than the union's location, if exactly one is.
fn shape_matching_branch<'e>(
    pointer: &str,
    context: &'e [Vec<ValidationError<'static>>],
) -> Option<&'e [ValidationError<'static>]> {
    let candidates: Vec<&Vec<ValidationError<'static>>> = context
        .iter()
        .filter(|errors| {
            !errors.is_empty()
                && !errors.iter().any(|e| {
                    let at = e.instance_path().as_str();
                    match e.kind() {
                        // A branch an earlier one reads the serde way
                        // (`crate::untagged`): that one is the branch to
                        // describe.
                        ValidationErrorKind::Type { .. } | ValidationErrorKind::Not { .. } => {
                            at == pointer
                        }
                        ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. } => {
                            at == pointer || is_member(pointer, at)
                        }
                        _ => false,
                    }
                })
        })
        .collect();
    let only = |mut branches: Vec<&'e Vec<ValidationError<'static>>>| {
        (branches.len() == 1).then(|| branches.remove(0).as_slice())
    };
    if candidates.len() <= 1 {
        return only(candidates);
    }
    let complete: Vec<_> = candidates
        .iter()
        .copied()
        .filter(|errors| {
            !errors.iter().any(|e| {
                matches!(e.kind(), ValidationErrorKind::Required { .. })
                    && e.instance_path().as_str() == pointer
            })
        })
        .collect();
    if complete.len() == 1 {
        return only(complete);
    }
    let deeper: Vec<_> = candidates
        .into_iter()
        .filter(|errors| {
            errors.iter().all(|e| {
                let at = e.instance_path().as_str();
                at != pointer && at.starts_with(pointer)
            })
        })
        .collect();
    only(deeper)
}

/// The branch a tag member picks, where one tells the union's branches
/// apart (serde's internally and adjacently tagged enums): every other
/// branch refuses the object by `type`, `const` or `enum` at the union's
/// location, or by `const`/`enum` at that member; the one left has no
/// error there, and fixes that member too (by `const`/`enum`, through
/// `$ref` and `allOf`), so the member is its tag and not one only the
/// others constrain. Its errors are the ones to report (`/mode` outside its
/// enum under a good tag), not "matches no branch". `None` where no member
/// picks a branch, where two members would pick different ones, or where
/// the branch left refuses the object as a whole (`type`, `not`, `const`
/// or `enum` at the union's location).
fn tag_picked_branch<'e>(
    schema: &Value,
    keyword_at: &str,
    pointer: &str,
    context: &'e [Vec<ValidationError<'static>>],
) -> Option<&'e [ValidationError<'static>]> {
    let Some(Value::Array(branches)) = value_at(schema, keyword_at) else {
        return None;
    };
    if branches.len() != context.len() {
        return None;
    }
    let fixed = |e: &ValidationError<'_>| {
        matches!(
            e.kind(),
            ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. }
        )
    };
    let whole = |errors: &[ValidationError<'_>]| {
        errors.iter().any(|e| {
            e.instance_path().as_str() == pointer
                && (fixed(e)
                    || matches!(
                        e.kind(),
                        ValidationErrorKind::Type { .. } | ValidationErrorKind::Not { .. }
                    ))
        })
    };
    let mut picked: Option<usize> = None;
    let mut tried: Vec<&str> = Vec::new();
    for error in context.iter().flatten() {
        let at = error.instance_path().as_str();
        if !fixed(error) || !is_member(pointer, at) || tried.contains(&at) {
            continue;
        }
        tried.push(at);
        let refused_at = |errors: &[ValidationError<'_>]| {
            errors
                .iter()
                .any(|e| fixed(e) && e.instance_path().as_str() == at)
        };
        let mut left = None;
        let mut by_tag = 0;
        let mut several = false;
        for (i, errors) in context.iter().enumerate() {
            if refused_at(errors) && !whole(errors) {
                by_tag += 1;
            } else if !whole(errors) {
                several |= left.replace(i).is_some();
            }
        }
        let Some(left) = left.filter(|_| !several && by_tag > 0) else {
            continue;
        };
        let inside = |e: &ValidationError<'_>| {
            e.instance_path()
                .as_str()
                .strip_prefix(at)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let name = unescape_token(&at[pointer.len() + 1..]);
        if context[left].iter().any(inside) || !fixes(schema, &branches[left], &name, 0) {
            continue;
        }
        match picked {
            Some(other) if other != left => return None,
            _ => picked = Some(left),
        }
    }
    picked.map(|i| context[i].as_slice())
}

/// Whether `node` fixes its member `name` by `const`/`enum`, through `$ref`
/// and `allOf` (the tag of a tagged enum's variant).
fn fixes(root: &Value, node: &Value, name: &str, depth: usize) -> bool {
    let Some(map) = object_within(node, depth) else {
        return false;
    };
    map.get("properties")
        .and_then(|properties| properties.get(name))
        .is_some_and(|member| constrains(root, member, depth + 1))
        || resolve(root, map).is_some_and(|(_, target)| fixes(root, target, name, depth + 1))
        || parts(map).any(|part| fixes(root, part, name, depth + 1))
}

/// Whether `node` has a `const` or an `enum`, through `$ref` and `allOf`.
fn constrains(root: &Value, node: &Value, depth: usize) -> bool {
    let Some(map) = object_within(node, depth) else {
        return false;
    };
    map.contains_key("const")
        || map.contains_key("enum")
        || resolve(root, map).is_some_and(|(_, target)| constrains(root, target, depth + 1))
        || parts(map).any(|part| constrains(root, part, depth + 1))
}

/// `node` as a schema object, unless the walk through `$ref` and `allOf`
/// that reached it is past its bound (a schema may refer to itself).
fn object_within(node: &Value, depth: usize) -> Option<&serde_json::Map<String, Value>> {
    const MAX_DEPTH: usize = 16;
    match node {
        Value::Object(map) if depth <= MAX_DEPTH => Some(map),
        _ => None,
    }
}

/// The parts of an `allOf`.
fn parts(map: &serde_json::Map<String, Value>) -> impl Iterator<Item = &Value> {
    map.get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// How each branch of the union at `keyword_at` (its `anyOf`/`oneOf`) is
/// described to a reader.
fn branch_descriptions(schema: &Value, keyword_at: &str) -> Vec<String> {
    match value_at(schema, keyword_at) {
        Some(Value::Array(branches)) => branches
            .iter()
            .map(|b| describe_schema(schema, b))
            .collect(),
        _ => Vec::new(),
    }
}

/// The branch whose only error is its `not` at the union's location: it
/// takes the value, but an earlier branch's serde reading takes it first.
fn read_as_earlier(pointer: &str, context: &[Vec<ValidationError<'static>>]) -> Option<usize> {
    context.iter().position(|errors| {
        !errors.is_empty()
            && errors.iter().all(|e| {
                matches!(e.kind(), ValidationErrorKind::Not { .. })
                    && e.instance_path().as_str() == pointer
            })
    })
}

/// Whether `at` is a direct member of the object at `pointer`.
fn is_member(pointer: &str, at: &str) -> bool {
    at.strip_prefix(pointer)
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|token| !token.contains('/'))
}

/// When every branch of a union fails on the same member's `const`/`enum`
/// (the tag of a tagged enum is wrong or of the wrong type), that member and
/// the values the branches accept there.
fn failing_tag(
    pointer: &str,
    context: &[Vec<ValidationError<'static>>],
) -> Option<(String, Vec<String>)> {
    let mut tag: Option<String> = None;
    let mut accepted = Vec::new();
    for errors in context {
        let found = errors.iter().find_map(|e| match e.kind() {
            ValidationErrorKind::Constant { expected_value }
                if is_member(pointer, e.instance_path().as_str()) =>
            {
                Some((
                    e.instance_path().as_str().to_owned(),
                    vec![expected_value.to_string()],
                ))
            }
            ValidationErrorKind::Enum { options }
                if is_member(pointer, e.instance_path().as_str()) =>
            {
                let values = match &**options {
                    Value::Array(values) => values.iter().map(Value::to_string).collect(),
                    other => vec![other.to_string()],
                };
                Some((e.instance_path().as_str().to_owned(), values))
            }
            _ => None,
        });
        let (at, values) = found?;
        match &tag {
            Some(existing) if *existing != at => return None,
            _ => tag = Some(at),
        }
        for value in values {
            if !accepted.contains(&value) {
                accepted.push(value);
            }
        }
    }
    Some((tag?, accepted))
}

/// For an `anyOf` whose branches each only require one name (how a
/// required field's aliases are declared), the names, wire name first.
fn alias_names(schema: &Value, keyword_at: &str) -> Option<Vec<String>> {
    let Value::Array(branches) = value_at(schema, keyword_at)? else {
        return None;
    };
    let names: Vec<String> = branches
        .iter()
        .map(|branch| match branch.as_object() {
            Some(map) if map.len() == 1 => match map.get("required") {
                Some(Value::Array(required)) if required.len() == 1 => {
                    required[0].as_str().map(str::to_owned)
                }
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<_>>()?;
    (names.len() >= 2).then_some(names)
}

fn unknown_field(pointer: &str, name: &str, keyword: &str, expected: &str) -> Violation {
    Violation {
        pointer: child_pointer(pointer, name),
        keyword: keyword.to_owned(),
        message: format!("unknown field `{name}`; expected {expected}"),
        expected: expected.to_owned(),
        found: format!("field `{name}`"),
    }
}

/// Drops the report of a name a denying branch refuses (`propertyNames`)
/// where the member has another report: an unknown field is reported as
/// unknown, whatever branch also refused its name.
pub(super) fn drop_refused_names_reported_otherwise(found: &mut Vec<Violation>) {
    const REFUSED: &str = "propertyNames";
    if !found.iter().any(|v| v.keyword == REFUSED) {
        return;
    }
    let reported: std::collections::HashSet<String> = found
        .iter()
        .filter(|v| v.keyword != REFUSED)
        .map(|v| v.pointer.clone())
        .collect();
    found.retain(|v| v.keyword != REFUSED || !reported.contains(&v.pointer));
}

/// A member reported as unevaluated that a part of its object declares:
/// the part failed, so the member went unevaluated.
#[derive(Debug)]
pub(super) struct Declared {
    /// The member's JSON pointer.
    pub(super) pointer: String,
    /// The schema location of the object that reported it.
    pub(super) owner: String,
}

/// Removes `unevaluatedProperties` reports that only follow from another
/// failure: a member some part of its object declares
/// (`declared_elsewhere`) is "unevaluated" when the part declaring it failed
/// for another reason (a wrong type inside a flattened enum's variant). That
/// other failure, at or below the same object, is the one to report.
pub(super) fn drop_consequences(found: &mut Vec<Violation>, declared_elsewhere: &[Declared]) {
    if declared_elsewhere.is_empty() {
        return;
    }
    let declared: std::collections::HashSet<&str> = declared_elsewhere
        .iter()
        .map(|d| d.pointer.as_str())
        .collect();
    drop_caused(found, |v| {
        (v.keyword == "unevaluatedProperties" && declared.contains(v.pointer.as_str()))
            .then(|| parent_pointer(&v.pointer).to_owned())
    });
}

/// Removes the reports of a flattened value that is not whole
/// ([`WHOLE`]) where another report lies in its object: the schema already
/// said what is wrong there (`/hi` missing beside `lo`), in its own words.
pub(super) fn drop_whole_repeats(found: &mut Vec<Violation>, wholes: &[Declared]) {
    if wholes.is_empty() {
        return;
    }
    drop_caused(found, |v| {
        if v.keyword != WHOLE {
            return None;
        }
        let whole = wholes.iter().find(|whole| whole.pointer == v.pointer)?;
        Some(whole.owner.clone())
    });
}

/// Removes each report `object_of` says follows from what else is wrong in
/// an object (naming that object), when a report that is no such
/// consequence lies at or below the object.
fn drop_caused(found: &mut Vec<Violation>, object_of: impl Fn(&Violation) -> Option<String>) {
    let objects: Vec<Option<String>> = found.iter().map(&object_of).collect();
    let causes: Vec<&str> = found
        .iter()
        .zip(&objects)
        .filter(|(_, object)| object.is_none())
        .map(|(v, _)| v.pointer.as_str())
        .collect();
    let keep: Vec<bool> = objects
        .iter()
        .map(|object| {
            object.as_deref().is_none_or(|object| {
                !causes.iter().any(|cause| {
                    cause
                        .strip_prefix(object)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
            })
        })
        .collect();
    let mut keep = keep.into_iter();
    found.retain(|_| keep.next().unwrap_or(true));
}

/// The two names of one pair `{"required": [a, b]}` of `excluded` (an
/// `anyOf` of such pairs) that `instance` holds.
fn names_sent_together(excluded: &Value, instance: &Value) -> Option<(String, String)> {
    let pairs = excluded.get("anyOf")?.as_array()?;
    let members = instance.as_object()?;
    pairs
        .iter()
        .find_map(|pair| match pair.get("required")?.as_array()?.as_slice() {
            [Value::String(a), Value::String(b)]
                if pair.as_object()?.len() == 1
                    && members.contains_key(a)
                    && members.contains_key(b) =>
            {
                Some((a.clone(), b.clone()))
            }
            _ => None,
        })
}

/// The expectation of the numeric and size keywords, in words.
fn limit_text(kind: &ValidationErrorKind) -> Option<String> {
    Some(match kind {
        ValidationErrorKind::Minimum { limit } => format!("a number >= {limit}"),
        ValidationErrorKind::Maximum { limit } => format!("a number <= {limit}"),
        ValidationErrorKind::ExclusiveMinimum { limit } => format!("a number > {limit}"),
        ValidationErrorKind::ExclusiveMaximum { limit } => format!("a number < {limit}"),
        ValidationErrorKind::MinLength { limit } => format!("at least {limit} characters"),
        ValidationErrorKind::MaxLength { limit } => format!("at most {limit} characters"),
        ValidationErrorKind::MinItems { limit } => format!("at least {limit} items"),
        ValidationErrorKind::MaxItems { limit } => format!("at most {limit} items"),
        ValidationErrorKind::MinProperties { limit } => format!("at least {limit} fields"),
        ValidationErrorKind::MaxProperties { limit } => format!("at most {limit} fields"),
        ValidationErrorKind::UniqueItems => "items that are all distinct".to_owned(),
        ValidationErrorKind::MultipleOf { multiple_of } => format!("a multiple of {multiple_of}"),
        ValidationErrorKind::Format { format } => format!("a string in the `{format}` format"),
        _ => return None,
    })
}

/// A value as a reader would name it: `string "20"`, `integer 5`, `object`.
pub(crate) fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) if n.is_i64() || n.is_u64() => format!("integer {n}"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => {
            let mut preview: String = s.chars().take(PREVIEW_CHARS).collect();
            if preview.len() < s.len() {
                preview.push_str("...");
            }
            format!("string {}", Value::String(preview))
        }
        Value::Array(items) => format!("array of {} items", items.len()),
        Value::Object(members) => {
            let keys: Vec<String> = members.keys().cloned().collect();
            if keys.is_empty() {
                "empty object".to_owned()
            } else {
                format!("object with fields {}", list(&keys))
            }
        }
    }
}

/// A union branch in a few words: its constant, its tag, its definition's
/// name, or its types.
fn describe_schema(root: &Value, schema: &Value) -> String {
    let Value::Object(map) = schema else {
        return schema.to_string();
    };
    if let Some(value) = map.get("const") {
        return value.to_string();
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if values.is_empty() {
            return "no value".to_owned();
        }
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        let tags: Vec<String> = props
            .iter()
            .filter_map(|(name, prop)| prop.get("const").map(|c| format!("\"{name}\": {c}")))
            .collect();
        if !tags.is_empty() {
            return format!("object with {}", tags.join(", "));
        }
        if props.len() == 1 && map.get("type").and_then(Value::as_str) == Some("object") {
            let name = props.keys().next().map(String::as_str).unwrap_or_default();
            return format!("object with field \"{name}\"");
        }
    }
    if let Some(Value::String(reference)) = map.get("$ref") {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        if let Some(target) = reference.strip_prefix('#').and_then(|p| value_at(root, p))
            && (target.get("const").is_some() || target.get("enum").is_some())
        {
            return describe_schema(root, target);
        }
        return name.to_owned();
    }
    match map.get("type") {
        Some(Value::String(ty)) => ty.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any value".to_owned(),
    }
}

/// The member names a schema object declares, through `$ref`, `allOf`,
/// `anyOf` and `oneOf`, in order, without repeats.
pub(super) fn declared_fields(root: &Value, node: &Value) -> Vec<String> {
    let mut names = Vec::new();
    collect_fields(root, node, &mut names, 0);
    names
}

fn collect_fields(root: &Value, node: &Value, names: &mut Vec<String>, depth: usize) {
    const MAX_DEPTH: usize = 16;
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(map) = node else { return };
    if let Some(Value::Object(props)) = map.get("properties") {
        for name in props.keys() {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
        .and_then(|p| value_at(root, p))
    {
        collect_fields(root, target, names, depth + 1);
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(parts)) = map.get(keyword) {
            for part in parts {
                collect_fields(root, part, names, depth + 1);
            }
        }
    }
}

/// The names joined with ", ", cut after [`LIST_MAX`].
fn list(names: &[String]) -> String {
    let mut text = names
        .iter()
        .take(LIST_MAX)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > LIST_MAX {
        text.push_str(&format!(", ... ({} in all)", names.len()));
    }
    text
}

pub(super) fn parent_pointer(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |i| &pointer[..i])
}

fn child_pointer(parent: &str, name: &str) -> String {
    let mut pointer = parent.to_owned();
    pointer.push('/');
    // Writing to a String cannot fail.
    let _ = write_token(&mut pointer, name);
    pointer
}
