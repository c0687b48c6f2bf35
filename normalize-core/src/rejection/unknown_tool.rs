//! The resolve phase's rejection: no tool by that name, with the closest
//! registered names so the model can correct a typo.

use serde::Serialize;
use std::fmt;

/// How similar (0 to 1, Jaro-Winkler) a registered name must be to count as
/// a suggestion.
const SUGGESTION_THRESHOLD: f64 = 0.7;
/// Most suggestions kept.
const MAX_SUGGESTIONS: usize = 3;
/// Up to this many registered tools, the model message lists them all when
/// nothing is close.
const LIST_ALL_UP_TO: usize = 20;

/// The call named a tool that is not registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnknownTool {
    /// The name the call used.
    pub name: String,
    /// Registered names closest to it, best first (may be empty).
    pub closest: Vec<String>,
    /// Every registered name, when there are few enough to list.
    pub available: Vec<String>,
}

impl UnknownTool {
    /// The rejection for `name`, given the registered names.
    pub fn new<'a>(name: &str, registered: impl IntoIterator<Item = &'a str>) -> Self {
        let registered: Vec<&str> = registered.into_iter().collect();
        let lowered = name.to_lowercase();
        let mut scored: Vec<(f64, &str)> = registered
            .iter()
            .map(|candidate| {
                (
                    strsim::jaro_winkler(&lowered, &candidate.to_lowercase()),
                    *candidate,
                )
            })
            .filter(|(score, _)| *score >= SUGGESTION_THRESHOLD)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let closest = scored
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|(_, n)| n.to_owned())
            .collect();
        let available = if registered.len() <= LIST_ALL_UP_TO {
            registered.iter().map(|n| (*n).to_owned()).collect()
        } else {
            Vec::new()
        };
        UnknownTool {
            name: name.to_owned(),
            closest,
            available,
        }
    }

    /// The message for the model's repair turn.
    pub fn model_message(&self) -> String {
        let mut text = format!("There is no tool named `{}`.", self.name);
        if !self.closest.is_empty() {
            text.push_str(&format!(" Did you mean {}?", quoted(&self.closest, " or ")));
        }
        if !self.available.is_empty() {
            text.push_str(&format!(
                " Available tools: {}.",
                quoted(&self.available, ", ")
            ));
        }
        text
    }
}

fn quoted(names: &[String], separator: &str) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(separator)
}

impl fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tool `{}`", self.name)?;
        if !self.closest.is_empty() {
            write!(f, " (closest: {})", self.closest.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownTool {}
