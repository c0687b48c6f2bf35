//! The diagnostics validation returns.

use serde::Serialize;
use std::fmt;

/// One failing location of the arguments.
///
/// Every field is meant to be shown as is, to a person or to the model that
/// wrote the arguments, so it can correct them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// JSON pointer (RFC 6901) of the failing value; for a missing or an
    /// undeclared member, the member's own path.
    pub pointer: String,
    /// The JSON Schema keyword that failed (`type`, `required`,
    /// `additionalProperties`, `pattern`, `enum`, ...).
    pub keyword: String,
    /// What the schema asks for there, e.g. `integer`.
    pub expected: String,
    /// What was found, e.g. `string "20"`.
    pub found: String,
    /// One compact sentence combining the above.
    pub message: String,
}

impl Violation {
    /// A value the schema allows but the Rust type refused (a custom
    /// `Deserialize`, a rule the schema cannot express), at its pointer.
    pub fn refused_by_type(pointer: String, message: String) -> Violation {
        Violation {
            pointer,
            keyword: "deserialize".to_owned(),
            expected: "a value the tool's type accepts".to_owned(),
            found: message.clone(),
            message,
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.message)
    }
}

/// Every failing location of one arguments value (never empty when
/// returned as an error).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Violations(pub Vec<Violation>);

impl Violations {
    /// How many locations failed.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no location failed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The violations, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.0.iter()
    }
}

impl Violations {
    /// The request a model reads after the sentence that names what failed:
    /// "Fix this field and call it again:" and one line per pointer.
    pub fn fix_request(&self) -> String {
        fix_request(&self.0)
    }
}

/// [`Violations::fix_request`] over a slice.
pub(crate) fn fix_request(violations: &[Violation]) -> String {
    let mut text = format!(
        "Fix {} and call it again:",
        if violations.len() == 1 {
            "this field"
        } else {
            "these fields"
        }
    );
    for violation in violations {
        text.push_str("\n- ");
        text.push_str(&violation.to_string());
    }
    text
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} invalid argument", self.0.len())?;
        if self.0.len() != 1 {
            f.write_str("s")?;
        }
        for violation in &self.0 {
            write!(f, "; {violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
