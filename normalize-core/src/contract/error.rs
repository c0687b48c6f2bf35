use crate::plan::SchemaError;
use serde::Serialize;

/// A derived type whose contract cannot be compiled (see [the
/// module](crate::contract)). Every variant names the Rust type, so the
/// message points at the `JsonSchema` implementation to fix.
///
/// `tests/contract_errors.rs` shows each entry point returning it for a
/// hand-written `JsonSchema` that names a type JSON Schema does not have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "stage", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContractError {
    /// The validator refuses the schema (not a valid JSON Schema, a
    /// reference that does not resolve, a `pattern` past the size limit).
    #[error("the JSON Schema of `{type_name}` cannot be validated against: {source}")]
    Validator {
        /// The Rust type (`std::any::type_name`).
        type_name: &'static str,
        /// What the validator builder reported.
        #[serde(serialize_with = "display")]
        source: ValidatorBuildError,
    },
    /// The normalization plan compiler refuses the schema.
    #[error(
        "the JSON Schema of `{type_name}` cannot be compiled into a normalization plan: {source}"
    )]
    Plan {
        /// The Rust type (`std::any::type_name`).
        type_name: &'static str,
        /// What the plan compiler reported (boxed: it keeps the errors
        /// that carry this one small).
        #[serde(serialize_with = "display")]
        source: Box<SchemaError>,
    },
}

impl ContractError {
    /// The Rust type whose contract failed.
    pub fn type_name(&self) -> &'static str {
        match self {
            ContractError::Validator { type_name, .. } | ContractError::Plan { type_name, .. } => {
                type_name
            }
        }
    }
}

fn display<T: std::fmt::Display, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// A schema the validator cannot be built from (not a valid JSON Schema, or
/// a reference that does not resolve locally).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("schema cannot be used for validation: {message}")]
pub struct ValidatorBuildError {
    /// What the validator builder reported.
    pub message: String,
}
