//! The walkers generated normalizers are made of. Each mirrors, for one
//! shape known at compile time, what [`Repairer::walk`] does at a location
//! declaring that shape, so both normalizers give the same result.
//!
//! Each container's members are walked through `Repairer::descend` (the
//! depth limit, then [`crate::deep::guard`]), so a derived type nested any
//! number of levels deep (a recursive `struct`, JSON nested in strings)
//! cannot overflow the stack, whatever closures the generated code hands
//! in.

use crate::compile::Compiled;
use crate::contract::ContractError;
use crate::normalizer::{NormalizeError, Repairer};
use crate::path::Path;
use crate::plan::{JsonType, TypeSet};
use serde_json::{Map, Value};

/// A location that declares nothing, or forbids the value (`Loc::Any`,
/// `Loc::Never`): character references in every string leaf, nothing
/// JSON-decoded. Strings, numbers, booleans, `serde_json::Value` and unknown
/// members use it.
pub fn any(
    repairer: &mut Repairer<'_>,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
) -> Result<(), NormalizeError> {
    match value {
        Value::String(_) => repairer.decode_references(value, path)?,
        Value::Array(items) => {
            repairer.descend(depth, path, |repairer| {
                for (i, item) in items.iter_mut().enumerate() {
                    any(repairer, item, &path.index(i), depth + 1)?;
                }
                Ok(())
            })?;
        }
        Value::Object(members) => {
            repairer.descend(depth, path, |repairer| {
                for (key, member) in members.iter_mut() {
                    any(repairer, member, &path.key(key), depth + 1)?;
                }
                Ok(())
            })?;
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
    Ok(())
}

/// A location declaring `object` with known members (a struct): `member`
/// normalizes each member by its key; an array found here is walked like
/// [`any`].
pub fn object(
    repairer: &mut Repairer<'_>,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
    mut member: impl FnMut(
        &mut Repairer<'_>,
        &str,
        &mut Value,
        &Path<'_>,
        usize,
    ) -> Result<(), NormalizeError>,
) -> Result<(), NormalizeError> {
    if !repairer.repair_string(value, TypeSet::only(JsonType::Object), path, depth)? {
        return Ok(());
    }
    match value {
        Value::Object(members) => repairer.descend(depth, path, |repairer| {
            for (key, child) in members.iter_mut() {
                member(repairer, key, child, &path.key(key), depth + 1)?;
            }
            Ok(())
        }),
        Value::Array(_) => any(repairer, value, path, depth),
        _ => Ok(()),
    }
}

/// A location declaring `object` whose every member has one schema (maps):
/// `member` normalizes each value.
pub fn map(
    repairer: &mut Repairer<'_>,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
    mut member: impl FnMut(
        &mut Repairer<'_>,
        &mut Value,
        &Path<'_>,
        usize,
    ) -> Result<(), NormalizeError>,
) -> Result<(), NormalizeError> {
    object(
        repairer,
        value,
        path,
        depth,
        |repairer, _, child, path, depth| member(repairer, child, path, depth),
    )
}

/// A location declaring `array` whose elements each have their own schema
/// (tuples): `item` gets the element's index.
pub fn tuple(
    repairer: &mut Repairer<'_>,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
    mut item: impl FnMut(
        usize,
        &mut Repairer<'_>,
        &mut Value,
        &Path<'_>,
        usize,
    ) -> Result<(), NormalizeError>,
) -> Result<(), NormalizeError> {
    if !repairer.repair_string(value, TypeSet::only(JsonType::Array), path, depth)? {
        return Ok(());
    }
    match value {
        Value::Array(items) => repairer.descend(depth, path, |repairer| {
            for (i, child) in items.iter_mut().enumerate() {
                item(i, repairer, child, &path.index(i), depth + 1)?;
            }
            Ok(())
        }),
        Value::Object(_) => any(repairer, value, path, depth),
        _ => Ok(()),
    }
}

/// A location declaring `array` with one schema for every element
/// (`Vec`, sets, arrays).
pub fn seq(
    repairer: &mut Repairer<'_>,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
    mut item: impl FnMut(&mut Repairer<'_>, &mut Value, &Path<'_>, usize) -> Result<(), NormalizeError>,
) -> Result<(), NormalizeError> {
    tuple(
        repairer,
        value,
        path,
        depth,
        |_, repairer, child, path, depth| item(repairer, child, path, depth),
    )
}

/// The whole value walked through the type's own plan (enums, flattened
/// structs: shapes decided by the schema's unions).
pub fn walk_root(
    repairer: &mut Repairer<'_>,
    compiled: Result<&Compiled, &ContractError>,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
) -> Result<(), NormalizeError> {
    let plan = &compiled
        .map_err(|e| NormalizeError::Contract(e.clone()))?
        .plan;
    repairer.walk(plan, &plan.root(), value, path, depth)
}

/// Member `key` of a struct walked through the struct's own plan: for field
/// types whose shape is not known at compile time.
pub fn walk_member(
    repairer: &mut Repairer<'_>,
    compiled: Result<&Compiled, &ContractError>,
    key: &str,
    value: &mut Value,
    path: &Path<'_>,
    depth: usize,
) -> Result<(), NormalizeError> {
    let plan = &compiled
        .map_err(|e| NormalizeError::Contract(e.clone()))?
        .plan;
    // A struct's schema has no union, so its members do not depend on the
    // object's content: bind it to an empty object.
    let bound = plan.bind(&plan.root(), &Value::Object(Map::new()));
    let loc = plan.member(&bound, key);
    repairer.walk(plan, &loc, value, path, depth)
}
