//! rig tools with checked arguments: one type change gives a rig
//! [`Tool`](rig_core::tool::Tool) the whole pipeline of
//! [`ToolArgs::from_model`] (repair, validation, deserialization).
//!
//! rig turns a model's arguments into `Tool::Args` with serde, so the place
//! to run the pipeline is `Args`' own `Deserialize`. [`Checked<T>`] is that
//! type: it reads whatever JSON rig hands it, repairs what `T`'s schema
//! vouches for (arguments sent as one JSON string, an array sent as a
//! string, HTML-escaped text), validates against the same schema
//! [`parameters`] shows the model, and deserializes `T`. A call that is
//! refused fails rig's deserialization with a message that names every
//! failing JSON pointer; rig hands that message back to the model as the
//! tool's result (an `invalid_args` error), so the model can correct the
//! call instead of seeing serde's first complaint only.
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//! use toolargs::ToolArgs;
//! use toolargs::rig::Checked;
//! use rig_core::tool::{Tool, ToolContext};
//!
//! /// Search the catalogue.
//! #[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs)]
//! struct SearchArgs {
//!     query: String,
//!     #[serde(default)]
//!     tags: Vec<String>,
//! }
//!
//! struct Search;
//!
//! impl Tool for Search {
//!     const NAME: &'static str = "search";
//!     type Args = Checked<SearchArgs>; // instead of `SearchArgs`
//!     type Output = Vec<String>;
//!     type Error = std::convert::Infallible;
//!
//!     fn description(&self) -> String {
//!         "Search the catalogue.".into()
//!     }
//!
//!     fn parameters(&self) -> serde_json::Value {
//!         toolargs::rig::parameters::<SearchArgs>()
//!     }
//!
//!     async fn call(
//!         &self,
//!         _context: &mut ToolContext,
//!         args: Self::Args,
//!     ) -> Result<Vec<String>, Self::Error> {
//!         Ok(args.value.tags)
//!     }
//! }
//!
//! // What rig does with the model's arguments before `call`:
//! let args: Checked<SearchArgs> =
//!     serde_json::from_str(r#"{"query": "oak &amp;amp; ash", "tags": "[\"wood\"]"}"#)?;
//! assert_eq!(args.query, "oak & ash");
//! assert_eq!(args.tags, ["wood"]);
//! assert_eq!(args.report.len(), 2);
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! The feature `rig` needs Rust 1.95 (rig-core's own minimum); the rest of
//! the crate needs 1.85. rig-core is built without its default features: no
//! HTTP client, no TLS, no derive macros, only its tool traits and types.
//!
//! **Strict tools.** rig's OpenAI Responses wire can be told to send tools
//! in strict mode (off by default); it then rewrites the schema it sends
//! (every property required, `oneOf` merged into `anyOf`, `$ref` siblings
//! removed). The model is then shown a schema other than the one
//! [`Checked`] checks: leave that option off for these tools, so the model
//! sees [`parameters`] exactly.

use crate::{ArgsError, ToolArgs, report::Report, tool_args::Parsed};
use serde::de::{Deserialize, Deserializer, Error as _};
use serde_json::Value;
use std::ops::{Deref, DerefMut};

/// Arguments of type `T` that went through [`ToolArgs::from_model`]: use it
/// as a rig tool's `Args` (`type Args = Checked<MyArgs>`).
///
/// Its `Deserialize` reads any JSON value (rig parses the model's text
/// first), then repairs, validates and deserializes it as `T`. It derefs to
/// `T`; [`Checked::report`] says what was repaired, for logs and counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked<T> {
    /// The arguments.
    pub value: T,
    /// What normalization repaired (empty when the model sent clean JSON).
    pub report: Report,
}

impl<T> Checked<T> {
    /// The arguments, without the report.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> From<Parsed<T>> for Checked<T> {
    fn from(parsed: Parsed<T>) -> Self {
        Checked {
            value: parsed.value,
            report: parsed.report,
        }
    }
}

impl<T> Deref for Checked<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Checked<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<'de, T: ToolArgs> Deserialize<'de> for Checked<T> {
    /// Reads a JSON value, then runs [`ToolArgs::from_model`] on it.
    ///
    /// # Errors
    ///
    /// A custom error whose text is [`model_message`] of the
    /// [`ArgsError`]: every failing JSON pointer, with what was expected
    /// and found there.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A `Value`, not `T`: the pipeline must see the call as sent
        // (a string where an object belongs is repaired, not refused).
        let raw = Value::deserialize(deserializer)?;
        T::from_model(raw)
            .map(Checked::from)
            .map_err(|error| D::Error::custom(model_message(&error)))
    }
}

/// The schema to put in rig's `ToolDefinition.parameters` (return it from
/// `Tool::parameters`): `T`'s closed schema, the very schema [`Checked<T>`]
/// validates against.
pub fn parameters<T: ToolArgs>() -> Value {
    T::input_schema().clone()
}

/// What to tell the model when [`Checked`] refuses its arguments: for
/// invalid arguments, one line per failing JSON pointer; otherwise the
/// error's own sentence.
///
/// rig shows this text to the model as the tool's result (prefixed with
/// rig's "failed to parse tool arguments: "). It does not name the tool:
/// the result is already attached to the model's call.
pub fn model_message(error: &ArgsError) -> String {
    match error {
        ArgsError::Invalid(violations) => format!(
            "The arguments do not match the tool's schema. {}",
            violations.fix_request()
        ),
        other => other.to_string(),
    }
}
