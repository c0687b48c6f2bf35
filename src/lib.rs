#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use normalize_core::*;

/// `#[derive(ToolArgs)]`: the tool's schema, a normalizer generated at
/// compile time, and the typed entry point `from_model` (see [`ToolArgs`]).
pub use normalize_derive::ToolArgs;

pub mod testing;

#[doc(hidden)]
pub use normalize_core::__private;
