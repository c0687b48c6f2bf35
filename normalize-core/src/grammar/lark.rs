//! Printing the IR in llguidance's Lark dialect.
//!
//! Rule 0 is `start`. Literal lexemes print as JSON string literals inside
//! rules; every other lexeme becomes a named terminal (`STRING` for any
//! string, `INTEGER`, `NUMBER`, `STRING_1`, `STRING_2`, ... for constrained
//! strings) holding one regular expression in the Rust
//! `regex` syntax llguidance reads, so a whole JSON string or number is one
//! lexeme. Nothing is `%ignore`d: the text is minified JSON.

use super::charset::CharSet;
use super::ir::{Expr, Lex, RuleSet};
use super::json_lex;
use std::fmt::Write;

/// The Lark text of `rules`: rules first, then terminals.
pub(crate) fn print(rules: &RuleSet) -> String {
    let mut terminals = Terminals::default();
    let mut out = String::new();
    for (id, rule) in rules.rules.iter().enumerate() {
        let body = expr(rules, &rule.body, Prec::Alt, &mut terminals);
        let _ = writeln!(out, "{}: {body}", rule_name(rules, id));
    }
    if !terminals.defined.is_empty() {
        out.push('\n');
    }
    for (name, lex) in &terminals.defined {
        let _ = writeln!(out, "{name}: /{}/", regex(lex, Prec::Alt));
    }
    out
}

fn rule_name(rules: &RuleSet, id: usize) -> String {
    if id == 0 {
        "start".into()
    } else {
        rules.rules[id].name.replace('-', "_")
    }
}

#[derive(Default)]
struct Terminals {
    defined: Vec<(String, Lex)>,
}

impl Terminals {
    fn name(&mut self, lex: &Lex) -> String {
        if let Some((name, _)) = self.defined.iter().find(|(_, l)| l == lex) {
            return name.clone();
        }
        let exact = if *lex == json_lex::string(0, None) {
            Some("STRING")
        } else if *lex == json_lex::integer() {
            Some("INTEGER")
        } else if *lex == json_lex::number() {
            Some("NUMBER")
        } else {
            None
        };
        let name = match exact {
            Some(name) => name.to_owned(),
            None => {
                let base = if matches!(lex, Lex::Seq(parts)
                    if matches!(parts.first(), Some(Lex::Lit(t)) if t.starts_with('"')))
                {
                    "STRING"
                } else {
                    "TOKEN"
                };
                let prefix = format!("{base}_");
                let n = 1 + self
                    .defined
                    .iter()
                    .filter(|(other, _)| other.starts_with(&prefix))
                    .count();
                format!("{prefix}{n}")
            }
        };
        self.defined.push((name.clone(), lex.clone()));
        name
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Alt,
    Seq,
    Atom,
}

fn suffix(min: u32, max: Option<u32>) -> String {
    match (min, max) {
        (0, None) => "*".into(),
        (1, None) => "+".into(),
        (0, Some(1)) => "?".into(),
        (n, None) => format!("{{{n},}}"),
        (n, Some(m)) if n == m => format!("{{{n}}}"),
        (n, Some(m)) => format!("{{{n},{m}}}"),
    }
}

fn literal(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_default()
        .replace('\u{7f}', "\\u007f")
}

fn expr(rules: &RuleSet, e: &Expr, context: Prec, terminals: &mut Terminals) -> String {
    let group = |text: String, own: Prec| {
        if own < context {
            format!("({text})")
        } else {
            text
        }
    };
    match e {
        Expr::Token(Lex::Lit(text)) => literal(text),
        Expr::Token(l) => terminals.name(l),
        Expr::Rule(id) => rule_name(rules, *id),
        Expr::Seq(parts) if parts.is_empty() => "\"\"".into(),
        Expr::Seq(parts) => {
            let text = parts
                .iter()
                .map(|p| expr(rules, p, Prec::Seq, terminals))
                .collect::<Vec<_>>()
                .join(" ");
            group(text, Prec::Seq)
        }
        Expr::Alt(branches) => {
            let text = branches
                .iter()
                .map(|b| expr(rules, b, Prec::Seq, terminals))
                .collect::<Vec<_>>()
                .join(" | ");
            group(text, Prec::Alt)
        }
        Expr::Repeat(item, min, max) => format!(
            "{}{}",
            expr(rules, item, Prec::Atom, terminals),
            suffix(*min, *max)
        ),
    }
}

/// A Rust-regex rendering of `l`, safe between Lark's `/` delimiters.
fn regex(l: &Lex, context: Prec) -> String {
    let group = |text: String, own: Prec| {
        if own < context {
            format!("(?:{text})")
        } else {
            text
        }
    };
    match l {
        Lex::Lit(text) => {
            let escaped: String = text.chars().map(regex_char).collect();
            if text.chars().count() > 1 {
                group(escaped, Prec::Seq)
            } else {
                escaped
            }
        }
        Lex::Class(set) => class(set),
        Lex::Seq(parts) => group(
            parts.iter().map(|p| regex(p, Prec::Seq)).collect(),
            Prec::Seq,
        ),
        Lex::Alt(branches) => group(
            branches
                .iter()
                .map(|b| regex(b, Prec::Seq))
                .collect::<Vec<_>>()
                .join("|"),
            Prec::Alt,
        ),
        Lex::Repeat(item, min, max) => format!("{}{}", regex(item, Prec::Atom), suffix(*min, *max)),
    }
}

fn regex_char(c: char) -> String {
    match c {
        '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        | '#' | '&' | '-' | '~' | '/' => format!("\\{c}"),
        ' '..='~' => c.to_string(),
        c => format!("\\x{{{:X}}}", c as u32),
    }
}

fn class_char(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => ch.to_string(),
        _ => format!("\\x{{{c:X}}}"),
    }
}

fn class(set: &CharSet) -> String {
    match set.as_single() {
        Some(c) => regex_char(c),
        None => set.class_text(class_char),
    }
}
