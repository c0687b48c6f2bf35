#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use toolargs_core::*;

/// `#[derive(ToolArgs)]`: the tool's schema, a normalizer generated at
/// compile time, and the typed entry point `from_model` (see [`ToolArgs`]).
pub use toolargs_derive::ToolArgs;

pub mod testing;

/// The guide: the reference text behind the README, one page per topic.
pub mod guide;

#[cfg(feature = "rmcp")]
pub mod rmcp;

#[cfg(feature = "rig")]
pub mod rig;

#[cfg(feature = "async-openai")]
pub mod async_openai;

#[doc(hidden)]
pub use toolargs_core::__private;
