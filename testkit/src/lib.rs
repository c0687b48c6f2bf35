//! The project's own test helpers: the damaged inputs and the comparison
//! behind `toolargs::testing::assert_normalizer_matches_schema`, for the
//! project's property tests, which draw their own seeds and shrink.
//!
//! Not published and not part of toolargs' public API: users have
//! `toolargs::testing`. The helpers are compiled from the same source as
//! the facade's (`src/testing/inputs.rs`), so the two cannot drift.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[path = "../../src/testing/inputs.rs"]
mod inputs;

use serde_json::{Map, Value};
use toolargs::__private::{Path, Repairer};
use toolargs::testing::Mismatch;
use toolargs::{
    ToolArgs, entities::EntityMode, normalizer::Options, plan::SchemaPlan, report::Report,
};

pub use inputs::{check_with, damaged_inputs, option_sets, plan_of};
