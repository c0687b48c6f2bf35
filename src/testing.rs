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

use crate::path::Path;
use crate::{EntityMode, NormalizeError, Options, Repairer, Report, SchemaPlan, ToolArgs};
use inputs::{check_with, damaged_inputs, plan_of};
use serde_json::{Map, Value};
use std::fmt;

/// How many inputs [`assert_normalizer_matches_schema`] tries.
pub const DEFAULT_CASES: usize = 1_000;

/// An input on which the two normalizers disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// The input, before normalization.
    pub input: Value,
    /// The options in force.
    pub options: Options,
    /// What the generated normalizer produced.
    pub generated: Result<(Value, Report), NormalizeError>,
    /// What the dynamic normalizer produced.
    pub dynamic: Result<(Value, Report), NormalizeError>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "generated and dynamic normalizers disagree\n  input:     {}\n  options:   {:?}\n  generated: {:?}\n  dynamic:   {:?}",
            self.input, self.options, self.generated, self.dynamic
        )
    }
}

impl std::error::Error for Mismatch {}

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
