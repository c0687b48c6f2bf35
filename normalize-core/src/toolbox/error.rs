//! Why a tool could not be registered.

use crate::contract::ContractError;
use crate::export::StrictError;
use crate::plan::SchemaError;
use crate::validate::ValidatorBuildError;

/// A tool the toolbox refused at registration (a programming error, found
/// at start-up rather than at the first call).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegisterError {
    /// Names must fit every provider: 1 to 64 characters from `A-Z a-z 0-9
    /// _ -`, starting with a letter or `_`.
    #[error(
        "tool name `{name}` is not usable by every provider (1-64 of A-Z a-z 0-9 _ -, starting with a letter or _)"
    )]
    InvalidName {
        /// The name.
        name: String,
    },
    /// Another tool already has this name.
    #[error("a tool named `{name}` is already registered")]
    Duplicate {
        /// The name.
        name: String,
    },
    /// Every provider needs an object schema at the root (`"type": "object"`).
    #[error("the schema of tool `{name}` is not an object schema (`\"type\": \"object\"`)")]
    RootNotObject {
        /// The tool.
        name: String,
    },
    /// The schema cannot be compiled for normalization.
    #[error("the schema of tool `{name}` cannot be compiled: {source}")]
    Schema {
        /// The tool.
        name: String,
        /// Why.
        source: SchemaError,
    },
    /// The schema cannot be compiled for validation.
    #[error("the schema of tool `{name}` cannot be used for validation: {source}")]
    Validator {
        /// The tool.
        name: String,
        /// Why.
        source: ValidatorBuildError,
    },
    /// The derived argument type's contract does not compile
    /// ([`crate::contract`]).
    #[error("the arguments type of tool `{name}` has no usable contract: {source}")]
    Contract {
        /// The tool.
        name: String,
        /// Why.
        source: ContractError,
    },
    /// The toolbox is strict and the schema has no strict form.
    #[error("tool `{name}` cannot be strict: {source}")]
    Strict {
        /// The tool.
        name: String,
        /// Why.
        source: StrictError,
    },
}

/// Whether `name` fits OpenAI's (`^[a-zA-Z0-9_-]{1,64}$`) and Gemini's
/// (starts with a letter or underscore) rules for function names.
pub(crate) fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    (1..=64).contains(&bytes.len())
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
}
