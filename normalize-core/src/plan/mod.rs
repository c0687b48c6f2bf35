//! A JSON Schema compiled once into the questions normalization asks of it:
//! *what types does this location declare?* and *what is the schema of this
//! member?*
//!
//! The semantics are those of `DESIGN.md` ("Normalization semantics"):
//! `type`, `enum` and `const` declare types; `$ref` and `allOf` intersect;
//! `anyOf` and `oneOf` unite; members come from `properties`, then
//! `patternProperties`, then `additionalProperties`, and from `prefixItems`,
//! then `items` (draft-07 array-form `items` and `additionalItems` too).
//!
//! One deliberate deviation, opt-in per location: a subschema carrying
//! [`VERBATIM_KEYWORD`] (`"x-toolargs-verbatim": true`) marks a location whose
//! strings are never entity-decoded (see [`SchemaPlan::verbatim`]).

mod compile;
mod error;
mod locate;
pub(crate) mod names;
mod node;
pub(crate) mod pattern;
pub(crate) mod reference;
mod schema_plan;
pub(crate) mod sites;
mod types;

pub use error::SchemaError;
pub use locate::{Bound, Loc};
pub(crate) use node::{ArrayRules, Node, NodeId, ObjectRules, Sub};
pub use schema_plan::SchemaPlan;
pub(crate) use types::admits_null;
pub use types::{JsonType, TypeSet};

pub use crate::keywords::VERBATIM_KEYWORD;

#[cfg(test)]
mod pattern_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod verbatim_tests;
