//! Reading a JSON document the way every reader of this crate reads one.
//!
//! Calls, arguments and the normalizer's text path all parse with the same
//! reader: strict JSON (RFC 8259, nothing trailing), a nesting limit of the
//! caller's choosing instead of serde_json's fixed 128, safe on any thread
//! at any limit, and errors that name a lone surrogate escape at the escape.
//! [`read`] is that reader for a document that is not a call (a schema file,
//! a tool list, a request around the arguments), so an application that
//! reads such text beside its calls reports it as its calls are reported,
//! with the crate's one syntax error type.

use serde_json::Value;

use crate::json_text;
use crate::rejection::{SyntaxError, SyntaxKind};

/// Parses `text`, one JSON value that nests at most `max_depth` levels
/// (`{}` is one level, a scalar none).
///
/// Any `max_depth` is safe to read with on any thread, `usize::MAX`
/// included: past 32 levels the parse makes sure of its stack as it goes.
/// The value it returns drops as serde_json drops, recursively; a value
/// nested tens of thousands of levels deep needs a thread with a large
/// stack to be dropped on, so keep `max_depth` where the threads that hold
/// the value can drop it ([`crate::normalizer::DEFAULT_MAX_DEPTH`] fits any thread).
///
/// ```
/// use toolargs_core::json;
/// use toolargs_core::rejection::SyntaxKind;
///
/// let value = json::read(r#"{"type": "object"}"#, 8)?;
/// assert_eq!(value["type"], "object");
///
/// let error = json::read("{\n  \"a\": \"\\ud800\"\n}", 8).unwrap_err();
/// assert_eq!(error.kind, SyntaxKind::Document);
/// assert_eq!((error.line, error.column), (Some(2), Some(9)));
/// assert_eq!(error.to_string(), r"not JSON: lone surrogate \uD800 at line 2 column 9");
///
/// let error = json::read("[[[1]]]", 2).unwrap_err();
/// assert_eq!((error.line, error.column), (None, None));
/// assert_eq!(error.message, "JSON nests 3 levels deep, more than the limit of 2");
/// # Ok::<(), toolargs_core::rejection::SyntaxError>(())
/// ```
///
/// # Errors
///
/// [`SyntaxError`] of kind [`SyntaxKind::Document`]: with no line and
/// column when the text nests deeper than `max_depth` (whatever else is
/// wrong with it), else where the parser stopped and why.
pub fn read(text: &str, max_depth: usize) -> Result<Value, SyntaxError> {
    json_text::from_str(text, max_depth)
        .map_err(|e| SyntaxError::of_text(SyntaxKind::Document, e, text))
}
