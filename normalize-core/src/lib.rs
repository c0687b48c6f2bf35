//! The runtime of `toolargs`: normalization of a language model's tool
//! arguments against the tool's own JSON Schema (FlowDrop rule RT-TOOL-8).
//!
//! Most users depend on the `toolargs` facade, which re-exports this crate.
//! Use it directly to normalize against a schema known only at run time
//! (an MCP server's tools, tools loaded from configuration):
//!
//! ```
//! use toolargs_core::Normalizer;
//! use serde_json::json;
//!
//! let normalizer = Normalizer::compile(&json!({
//!     "type": "object",
//!     "properties": {
//!         "title": {"type": "string"},
//!         "tags": {"type": "array", "items": {"type": "string"}}
//!     }
//! }))?;
//! let mut args = json!({"title": "Ember &amp;amp; Oak", "tags": "[\"wood\"]"});
//! normalizer.normalize(&mut args)?;
//! assert_eq!(args, json!({"title": "Ember & Oak", "tags": ["wood"]}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
mod alias_groups;
mod byte_scan;
pub mod call;
mod clean_read;
pub mod closing;
mod compile;
mod composition;
pub mod contract;
mod deep;
mod derived;
pub mod entities;
pub mod export;
pub mod grammar;
mod integer_bounds;
pub mod json;
mod json_text;
mod keywords;
pub mod normalizer;
pub mod observe;
pub mod path;
pub mod plan;
pub mod policy;
pub mod rejection;
mod repeated_keys;
pub mod report;
mod splice;
pub mod stream;
pub mod tool_args;
pub mod toolbox;
mod untagged;
pub mod validate;

pub use normalizer::Normalizer;
pub use tool_args::{ArgsError, ToolArgs};
