//! Checking your own types: the normalizer `#[derive(ToolArgs)]` generates
//! and the dynamic [`Normalizer`](crate::Normalizer) compiled from the
//! type's schema must give the same result on every input.
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use toolargs::ToolArgs;
//!
//! #[derive(Deserialize, JsonSchema, ToolArgs)]
//! struct SearchArgs {
//!     query: String,
//!     tags: Vec<String>,
//! }
//!
//! toolargs::testing::assert_normalizer_matches_schema::<SearchArgs>();
//! ```

mod inputs;
mod mismatch;

use crate::__private::{Path, Repairer};
use crate::{
    ToolArgs, entities::EntityMode, normalizer::Options, plan::SchemaPlan, report::Report,
};
use inputs::{check_with, damaged_inputs, plan_of};
pub use mismatch::Mismatch;
use serde_json::{Map, Value};

/// How many inputs [`assert_normalizer_matches_schema`] tries.
pub const DEFAULT_CASES: usize = 1_000;

/// Normalizes `input` with `T`'s generated normalizer and with the
/// dynamic normalizer compiled from `T::validator().schema()`, under each
/// of a few option sets (the defaults, the text entity rule, one decoding
/// pass, a small depth limit), and compares values, reports and errors.
///
/// # Errors
///
/// The first [`Mismatch`].
pub fn normalizer_matches_schema<T: ToolArgs>(input: &Value) -> Result<(), Box<Mismatch>> {
    check_with::<T>(&plan_of::<T>(), input)
}

/// Runs [`DEFAULT_CASES`] damaged inputs built from `T`'s schema through
/// both normalizers: arrays and objects sent as JSON strings, strings
/// escaped once to three times, wrong shapes, unknown keys.
///
/// # Panics
///
/// On the first input where they disagree, printing it.
pub fn assert_normalizer_matches_schema<T: ToolArgs>() {
    let plan = plan_of::<T>();
    for input in damaged_inputs(
        T::validator().schema(),
        0x746f_6f6c_6172_6773,
        DEFAULT_CASES,
    ) {
        if let Err(mismatch) = check_with::<T>(&plan, &input) {
            panic!("{}: {mismatch}", std::any::type_name::<T>());
        }
    }
}
