//! Reading a JSON Schema named on the command line.

use crate::fatal::Fatal;
use serde_json::Value;
use std::path::Path;

/// The JSON document at `path`, nesting at most `max_depth` levels.
///
/// # Errors
///
/// [`Fatal::Unreadable`]: the file cannot be read or is not JSON.
pub fn read(path: &Path, max_depth: usize) -> Result<Value, Fatal> {
    read_with_text(path, max_depth).map(|(value, _)| value)
}

/// [`read`], also returning the file's text (a grammar writes the schema's
/// numbers as that text writes them).
///
/// # Errors
///
/// As [`read`].
pub fn read_with_text(path: &Path, max_depth: usize) -> Result<(Value, String), Fatal> {
    let unreadable = |message: String| Fatal::Unreadable {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| unreadable(e.to_string()))?;
    let value = toolargs::json::read(&text, max_depth).map_err(|e| unreadable(e.to_string()))?;
    Ok((value, text))
}
