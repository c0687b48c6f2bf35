//! `#[derive(ToolArgs)]`: a tool's arguments type gets its JSON Schema
//! (through schemars, closed all the way down), a normalizer generated at compile
//! time that knows which fields are arrays or objects, and the typed entry
//! point `from_model`. Use it through the `toolargs` crate, which re-exports
//! it next to the `ToolArgs` trait.
//!
//! The crate is built in four steps: `attr` parses `#[tool_args(...)]`,
//! `ast` builds the IR (reading serde's attributes with
//! `serde_derive_internals`, so wire names mean what serde means), `shape`
//! reads what each field type says about its JSON, `valid` checks the IR,
//! `expand` writes the impl; `fallback` writes a stub impl beside the
//! errors so one mistake does not cascade.
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod expand;
mod fallback;
mod model;
mod shape;
mod valid;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `toolargs::ToolArgs`. See the `toolargs` crate documentation.
///
/// Helper attribute, on the type: `#[tool_args(open)]` keeps the type's own
/// objects open (they say `additionalProperties: true`, so closing leaves
/// them alone); `#[tool_args(crate = "path")]` names the `toolargs` crate
/// when it is re-exported under another path. On a field:
/// `#[tool_args(verbatim)]` marks it `"x-toolargs-verbatim": true`, so its
/// strings are never entity-decoded.
#[proc_macro_derive(ToolArgs, attributes(tool_args))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
