//! Printing the IR as GBNF, the grammar format of llama.cpp.
//!
//! GBNF matches characters (no lexer), so lexemes print inline. Rule 0 is
//! `root`. Character classes and literals escape ASCII punctuation (in
//! classes), control characters and U+0080..U+00FF as `\xHH`, and write
//! other characters as UTF-8.

use super::charset::CharSet;
use super::ir::{Expr, Lex, RuleSet};
use std::fmt::Write;

/// The GBNF text of `rules`, one rule a line.
pub(crate) fn print(rules: &RuleSet) -> String {
    let mut out = String::new();
    for (id, rule) in rules.rules.iter().enumerate() {
        let name = if id == 0 { "root" } else { &rule.name };
        let _ = writeln!(out, "{name} ::= {}", expr(rules, &rule.body, Prec::Alt));
    }
    out
}

/// How tightly the surrounding context binds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Alt,
    Seq,
    Atom,
}

fn group(text: String, own: Prec, context: Prec) -> String {
    if own < context {
        format!("({text})")
    } else {
        text
    }
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

fn expr(rules: &RuleSet, e: &Expr, context: Prec) -> String {
    match e {
        Expr::Token(l) => lex(l, context),
        Expr::Rule(id) => {
            if *id == 0 {
                "root".into()
            } else {
                rules.rules[*id].name.clone()
            }
        }
        Expr::Seq(parts) if parts.is_empty() => "\"\"".into(),
        Expr::Seq(parts) => group(
            parts
                .iter()
                .map(|p| expr(rules, p, Prec::Seq))
                .collect::<Vec<_>>()
                .join(" "),
            Prec::Seq,
            context,
        ),
        Expr::Alt(branches) => group(
            branches
                .iter()
                .map(|b| expr(rules, b, Prec::Seq))
                .collect::<Vec<_>>()
                .join(" | "),
            Prec::Alt,
            context,
        ),
        Expr::Repeat(item, min, max) => {
            format!("{}{}", expr(rules, item, Prec::Atom), suffix(*min, *max))
        }
    }
}

fn lex(l: &Lex, context: Prec) -> String {
    match l {
        Lex::Lit(text) => {
            let mut out = String::from("\"");
            for c in text.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    ' '..='~' => out.push(c),
                    c => out.push_str(&escape(c as u32)),
                }
            }
            out.push('"');
            out
        }
        Lex::Class(set) => class(set),
        Lex::Seq(parts) if parts.is_empty() => "\"\"".into(),
        Lex::Seq(parts) => group(
            parts
                .iter()
                .map(|p| lex(p, Prec::Seq))
                .collect::<Vec<_>>()
                .join(" "),
            Prec::Seq,
            context,
        ),
        Lex::Alt(branches) => group(
            branches
                .iter()
                .map(|b| lex(b, Prec::Seq))
                .collect::<Vec<_>>()
                .join(" | "),
            Prec::Alt,
            context,
        ),
        Lex::Repeat(item, min, max) => format!("{}{}", lex(item, Prec::Atom), suffix(*min, *max)),
    }
}

/// `\xHH` up to U+00FF; beyond, the character itself (UTF-8), which
/// llama.cpp reads as is and which survives llguidance's GBNF import (that
/// import mangles `\u`/`\U` escapes with leading zeros).
fn escape(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if c > 0xFF => ch.to_string(),
        _ => format!("\\x{c:02X}"),
    }
}

fn class_char(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => ch.to_string(),
        _ => escape(c),
    }
}

/// A character class, printed as a negated class when that is shorter.
fn class(set: &CharSet) -> String {
    set.class_text(class_char)
}
