//! Readable rule names: lowercase ASCII words joined by `-`, taken from the
//! schema location a rule compiles.

/// A readable rule-name word: lowercase ASCII letters and digits, words
/// joined by `-`.
fn name_words(text: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('-');
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(c.to_ascii_lowercase());
        } else {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            prev_lower = false;
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// A readable prefix for rules of the tool `name` in a whole-call grammar.
pub(crate) fn tool_prefix(name: &str) -> String {
    let words = name_words(name);
    if words.is_empty() {
        "tool-".into()
    } else {
        format!("{words}-")
    }
}

/// A rule name for the subschema at `pointer`: its last meaningful pointer
/// tokens (`kind` at the root), after `prefix`.
pub(super) fn rule_name(prefix: &str, pointer: &str, kind: &str) -> String {
    let words: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .filter(|t| !matches!(t.as_str(), "properties" | "$defs" | "definitions"))
        .map(|t| match t.as_str() {
            "items" | "prefixItems" => "item".to_owned(),
            "additionalProperties" => "extra".to_owned(),
            "additionalItems" => "extra-item".to_owned(),
            "anyOf" | "oneOf" | "allOf" => "alt".to_owned(),
            other => name_words(other),
        })
        .filter(|w| !w.is_empty())
        .collect();
    let tail = words[words.len().saturating_sub(3)..].join("-");
    let mut name = format!("{}{}", prefix, if tail.is_empty() { kind } else { &tail });
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        name.insert_str(0, "r-");
    }
    name
}
