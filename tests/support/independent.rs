//! A second JSON Schema validator, written apart from ours (`boon`), reads
//! the schemas a model is shown: the canonical schema and, where the type
//! has one, OpenAI's strict form. What it says is compared with what our
//! validator enforces, so that the contract shown and the contract checked
//! cannot drift apart without a test failing:
//!
//! - on every normalized call, the second validator and ours, given the
//!   same schema without the keywords only ours reads (`x-toolargs-*`: an
//!   integer written `2.0`, a flattened `Option` read whole, map keys that
//!   merge; any other validator ignores them, as the README says), agree;
//! - so a value our validator accepts, the schema shown accepts, and one
//!   the schema shown accepts is refused by ours only through its own
//!   keywords;
//! - the strict schema shown takes the strict encoding of every accepted
//!   call.
//!
//! One excuse, counted apart: the second validator compares numbers as
//! `f64`s, so past 2^53 it may accept a number just past a bound that ours
//! refuses exactly; such a disagreement is excused only where ours, given
//! the numbers and bounds rounded the same way, agrees with it
//! ([`rounded`]).
//!
//! The second validator reads the schemas as JSON alone: nothing of ours is
//! linked into it.

use serde_json::Value;
use std::any::TypeId;
use std::cell::RefCell;
use std::collections::HashMap;
use toolargs::validate::Validator;

/// One schema compiled by the second validator.
pub struct Second {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Second {
    /// Compiles `schema` on its own (it holds its definitions).
    pub fn new(schema: &Value) -> Result<Second, String> {
        const LOCATION: &str = "urn:toolargs:shown";
        let mut compiler = boon::Compiler::new();
        compiler
            .add_resource(LOCATION, schema.clone())
            .map_err(|e| format!("the second validator takes no schema: {e}"))?;
        let mut schemas = boon::Schemas::new();
        let index = compiler
            .compile(LOCATION, &mut schemas)
            .map_err(|e| format!("the second validator compiles no schema: {e}"))?;
        Ok(Second { schemas, index })
    }

    /// `None` where `value` is valid, else the second validator's reason.
    pub fn refuses(&self, value: &Value) -> Option<String> {
        self.schemas
            .validate(value, self.index)
            .err()
            .map(|e| format!("{e:#}"))
    }
}

/// The second validator's compilation of `schema`, made once per type and
/// form (`strict` or not) and kept for the test process.
pub fn second_of<T: 'static>(strict: bool, schema: &Value) -> Result<&'static Second, String> {
    thread_local! {
        static MADE: RefCell<HashMap<(TypeId, bool), &'static Second>> = RefCell::new(HashMap::new());
    }
    if let Some(made) = MADE.with(|m| m.borrow().get(&(TypeId::of::<T>(), strict)).copied()) {
        return Ok(made);
    }
    let made: &'static Second = Box::leak(Box::new(Second::new(schema)?));
    MADE.with(|m| m.borrow_mut().insert((TypeId::of::<T>(), strict), made));
    Ok(made)
}

/// Our validator of `T`'s schema without the keywords only it reads: as
/// written, and with its numeric bounds rounded to `f64`s as the second
/// validator compares them. Made once per type and kept for the test
/// process.
pub struct Plain {
    /// The schema's bounds as written, compared exactly.
    pub exact: Validator,
    /// The schema's bounds as the nearest `f64`s ([`rounded`] instances).
    pub rounded: Validator,
}

/// [`Plain`] for `T`'s `schema`.
pub fn plain_of<T: 'static>(schema: &Value) -> Result<&'static Plain, String> {
    thread_local! {
        static MADE: RefCell<HashMap<TypeId, &'static Plain>> = RefCell::new(HashMap::new());
    }
    if let Some(made) = MADE.with(|m| m.borrow().get(&TypeId::of::<T>()).copied()) {
        return Ok(made);
    }
    let mut plain = schema.clone();
    walk_schemas(&mut plain, &mut |map| {
        map.retain(|keyword, _| !ours_alone(keyword))
    });
    let exact = Validator::new(&plain).map_err(|e| format!("the plain schema: {e}"))?;
    walk_schemas(&mut plain, &mut |map| {
        for keyword in BOUNDS {
            if let Some(bound) = map.get_mut(keyword) {
                *bound = as_f64(bound);
            }
        }
    });
    let rounded = Validator::new(&plain).map_err(|e| format!("the rounded schema: {e}"))?;
    let made: &'static Plain = Box::leak(Box::new(Plain { exact, rounded }));
    MADE.with(|m| m.borrow_mut().insert(TypeId::of::<T>(), made));
    Ok(made)
}

/// The numeric bound keywords.
const BOUNDS: [&str; 4] = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"];

/// `value` with every number at or past 2^53 in magnitude (where `f64`s
/// stop holding every integer) as the nearest `f64`: the second validator
/// compares numbers as `f64`s, so it reads 2^64, sent for a `u64`, as
/// equal to `u64::MAX`, where ours (and serde) tell them apart. Where the
/// two validators disagree on a value holding such numbers, ours is asked
/// again on this value and the [`Plain::rounded`] schema: agreeing then,
/// the disagreement is the second validator's rounding, and excused.
pub fn rounded(value: &Value) -> Option<Value> {
    let mut copy = value.clone();
    round_in_place(&mut copy).then_some(copy)
}

/// Rounds the numbers of `value` at or past 2^53 in place; whether any was.
fn round_in_place(value: &mut Value) -> bool {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match value {
        Value::Number(n) if n.as_f64().is_some_and(|f| f.abs() >= EXACT) => {
            *value = as_f64(value);
            true
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |any, item| round_in_place(item) | any),
        Value::Object(members) => members
            .values_mut()
            .fold(false, |any, member| round_in_place(member) | any),
        _ => false,
    }
}

/// A number as the nearest `f64`; anything else as it is.
fn as_f64(value: &Value) -> Value {
    value
        .as_f64()
        .and_then(serde_json::Number::from_f64)
        .map_or_else(|| value.clone(), Value::Number)
}

/// Whether only our validator reads `keyword` (an annotation to any other).
fn ours_alone(keyword: &str) -> bool {
    keyword.starts_with("x-toolargs-")
}

/// Calls `each` on `schema` and every schema in it (not on property names,
/// nor inside `enum` or `const` values). schemars' `transform_subschemas`
/// would do, but it skips `dependentSchemas` and the `unevaluated*`
/// keywords, where the derive writes our keywords too; the crate's own
/// walks (`closing`, `untagged`) are private and read only.
fn walk_schemas(schema: &mut Value, each: &mut dyn FnMut(&mut serde_json::Map<String, Value>)) {
    let Value::Object(map) = schema else {
        return;
    };
    each(map);
    for (keyword, value) in map.iter_mut() {
        match keyword.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let Value::Object(schemas) = value {
                    schemas.values_mut().for_each(|s| walk_schemas(s, each));
                }
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                if let Value::Array(schemas) = value {
                    schemas.iter_mut().for_each(|s| walk_schemas(s, each));
                }
            }
            "items" => match value {
                Value::Array(schemas) => schemas.iter_mut().for_each(|s| walk_schemas(s, each)),
                other => walk_schemas(other, each),
            },
            "additionalProperties"
            | "unevaluatedProperties"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "additionalItems"
            | "unevaluatedItems" => walk_schemas(value, each),
            _ => {}
        }
    }
}

/// What the comparisons found, for the run's report.
#[derive(Default, Debug)]
pub struct Tally {
    /// Both accept.
    pub both_accept: usize,
    /// Both refuse.
    pub both_refuse: usize,
    /// Ours refuses through its own keywords alone; the schema shown accepts.
    pub ours_alone: usize,
    /// Disagreements on values holding numbers past 2^53, which ours
    /// shares once it compares them as `f64`s too ([`rounded`]).
    pub rounding: usize,
    /// Strict encodings of accepted values the strict schema accepts.
    pub strict_accepted: usize,
}

thread_local! {
    pub static TALLY: RefCell<Tally> = RefCell::new(Tally::default());
}
