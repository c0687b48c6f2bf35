//! What [`assert_normalizer_matches_schema`](super::assert_normalizer_matches_schema)
//! reports: an input on which the two normalizers disagree.

use crate::{normalizer::NormalizeError, normalizer::Options, report::Report};
use serde_json::Value;
use std::fmt;

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
