//! Proof that what a model is shown is what its calls are checked against.

use super::{Provider, definition_list, name_of, schema_of};
use serde::Serialize;
use serde_json::Value;

/// An exported definition whose schema is not the validating schema (or a
/// tool missing from, or repeated in, an export).
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize)]
#[error("schema drift for tool `{tool}` ({}): {detail}", provider.map_or("validating schema".to_owned(), |p| format!("{p:?} export")))]
pub struct Drift {
    /// The tool.
    pub tool: String,
    /// The export, or `None` when the validating schema itself is not the
    /// dialect's transform of the declared schema.
    pub provider: Option<Provider>,
    /// What differs.
    pub detail: String,
}

/// Checks one provider's export against the validating schema of each tool
/// (`(name, schema)` pairs): every tool appears exactly once and its
/// exported schema equals the validating schema.
///
/// # Errors
///
/// The first [`Drift`] found.
pub fn check<'a>(
    provider: Provider,
    exported: &Value,
    validating: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> Result<(), Drift> {
    let drift = |tool: &str, detail: String| Drift {
        tool: tool.to_owned(),
        provider: Some(provider),
        detail,
    };
    let list = definition_list(provider, exported)
        .ok_or_else(|| drift("", "the export has no list of definitions".to_owned()))?;
    let mut seen = 0;
    for (name, schema) in validating {
        seen += 1;
        let matching: Vec<&Value> = list
            .iter()
            .filter(|d| name_of(provider, d) == Some(name))
            .collect();
        let [definition] = matching.as_slice() else {
            return Err(drift(name, format!("exported {} times", matching.len())));
        };
        match schema_of(provider, definition) {
            Some(exported) if exported == schema => {}
            Some(_) => {
                return Err(drift(
                    name,
                    "exported schema differs from the validating schema".to_owned(),
                ));
            }
            None => return Err(drift(name, "definition carries no schema".to_owned())),
        }
    }
    if list.len() != seen {
        return Err(drift(
            "",
            format!("{} definitions for {seen} tools", list.len()),
        ));
    }
    Ok(())
}
