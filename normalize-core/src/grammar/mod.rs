//! Constrained decoding: a tool's JSON Schema compiled into a grammar an
//! inference engine can sample under, in two formats — **GBNF** (llama.cpp)
//! and **Lark** in llguidance's dialect — plus the list of what the grammar
//! does *not* enforce.
//!
//! Validation detects a malformed call after it exists; a grammar keeps it
//! from existing. Both come from the same schema, but a grammar is not a
//! validator: [`Grammar::not_enforced`] names, per schema location, every
//! keyword that stays the validator's job (numeric ranges, `uniqueItems`,
//! `multipleOf`, `not`, `if`/`then`/`else`, cross-field rules, patterns
//! outside the supported subset, `oneOf` exclusivity, unknown keywords...).
//! Annotations (`title`, `description`, `default`, `examples`, `$comment`,
//! `$schema`, `$id`, `$defs`, `definitions`, ...) constrain nothing and are
//! not listed.
//!
//! ## What the grammar produces
//!
//! The grammars describe the text a model should write, which is a subset of
//! the JSON texts a validator accepts:
//!
//! - **Minified JSON**: no whitespace anywhere outside strings.
//! - **Members in schema order**: required and optional properties in the
//!   order of `properties` (optional ones may be absent); when the object is
//!   open (`additionalProperties` absent, `true` or a schema), extra members
//!   follow the declared ones, under names that are none of the declared
//!   ones (so an extra member never carries a declared name with another
//!   schema); beside declared names, an extra member's name is written as
//!   `serde_json` writes it, which makes that exclusion exact.
//!   `additionalProperties: false` closes it.
//! - **Integers** (`type: integer`) are written without fraction or exponent.
//! - **`enum`/`const`** values are their exact minified JSON text. A
//!   number in them is written as the schema's text writes it when the
//!   grammar is compiled with that text's [`NumberTexts`]
//!   ([`Grammar::from_schema_with_numbers`]: `1e2`, `-0`,
//!   `12345678901234567890123` stay as they are); from a `Value` alone
//!   ([`Grammar::from_schema`]) it is written as serde_json writes it
//!   (`100.0`, `-0.0`, `1.2345678901234568e22`), the text `export` shows a
//!   model for the same `Value`.
//! - **Strings** accept every RFC 8259 escape; a string under an enforced
//!   `pattern` writes each character the way `serde_json` does (literally, or
//!   `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx`). `minLength` and
//!   `maxLength` count characters, an escape counting as one; a string with
//!   such bounds writes characters beyond U+FFFF as themselves (not as
//!   surrogate-pair escapes), so the count is the value's.
//! - **Patterns** are anchored where they say `^`/`$`, and free where they do
//!   not; the ECMA-262 subset supported is described in the pattern module
//!   (classes, groups, alternation, quantifiers, `\d \w \s`, ...).
//! - **Unions**: `anyOf`/`oneOf` accept any branch; `type` lists (`["string",
//!   "null"]`) accept any listed type; `$ref` (local pointers: `#`,
//!   `#/$defs/...`, `#/definitions/...`) may recurse. `oneOf` is reported
//!   only when its branches may overlap (tagged enums' branches exclude each
//!   other by their tag or key, so "exactly one" holds).
//! - **Compositions** (a `$ref` beside other constraints, `allOf`, an
//!   object's `properties` beside a union as schemars writes a flattened
//!   enum, `unevaluatedProperties`) are merged, by the transform OpenAI's
//!   strict form uses, into one object per combination of union branches,
//!   each closed when a part closes it (`unevaluatedProperties: false` on
//!   the composed object, as derived schemas close it where used). A
//!   union's members form a block that may stand anywhere among the
//!   object's own members, in order: serde writes a flattened enum's
//!   members where the field is declared, which the schema cannot say.
//!   Where merging is impossible (parts that disagree, a `$ref` outside the
//!   definitions, more than 64 combinations), the parts are compiled one by
//!   one and what that leaves out is reported.
//! - **Aliases**: a derived schema's serde aliases (properties marked
//!   `x-toolargs-alias-of`, and the `allOf` that lets any name satisfy
//!   `required`) are removed first ([`crate::export::aliases`]): the
//!   grammar writes each field under its wire name, which is required.
//! - **Arrays**: `items`, `prefixItems` (and draft-07 array-form `items` with
//!   `additionalItems`), `minItems`/`maxItems`.
//!
//! ```
//! use toolargs_core::grammar::Grammar;
//! use serde_json::json;
//!
//! let grammar = Grammar::from_schema(&json!({
//!     "type": "object",
//!     "properties": {
//!         "order_id": {"type": "string", "pattern": "^ord_[0-9]{6}$"},
//!         "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000}
//!     },
//!     "required": ["order_id", "amount_cents"],
//!     "additionalProperties": false
//! }))?;
//! assert!(grammar.gbnf().starts_with("root ::= \"{\""));
//! assert!(grammar.lark().starts_with("start: \"{\""));
//! let keywords: Vec<&str> = grammar.not_enforced().iter().map(|u| u.keyword.as_str()).collect();
//! assert_eq!(keywords, ["minimum", "maximum"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod charset;
mod error;
mod gbnf;
mod ir;
mod json_lex;
mod lark;
mod lower;
mod numbers;
mod pattern;
mod report;

pub use error::GrammarError;
pub use lower::{MAX_COUNT, MAX_DEPTH};
pub use numbers::NumberTexts;
pub use pattern::MAX_REPEAT;
pub use report::Unenforced;

use crate::export::aliases::without_aliases;
use ir::{Expr, RuleSet};
use serde_json::Value;

/// The grammar of one tool's arguments.
///
/// Compile once per schema; printing is cheap and the grammar is immutable.
#[derive(Clone, Debug)]
pub struct Grammar {
    rules: RuleSet,
    unenforced: Vec<Unenforced>,
}

impl Grammar {
    /// Compiles `schema` (a JSON Schema: an object or a boolean; drafts 7 to
    /// 2020-12 keywords) into a grammar for the values it describes, each
    /// field under its wire name (aliases removed) and compositions merged
    /// (see the module documentation).
    ///
    /// Fails on a malformed schema, a `$ref` outside the document, nesting
    /// deeper than [`MAX_DEPTH`], or a schema that admits no value.
    pub fn from_schema(schema: &Value) -> Result<Self, GrammarError> {
        Self::from_schema_with_numbers(schema, &NumberTexts::default())
    }

    /// [`Grammar::from_schema`], writing each number of an `enum` or
    /// `const` value as the schema's text writes it: `numbers` is
    /// [`NumberTexts::scan`] of the text `schema` was parsed from (a number
    /// it does not record, or records as another number, is written as
    /// serde_json writes it).
    ///
    /// # Errors
    ///
    /// As [`Grammar::from_schema`].
    pub fn from_schema_with_numbers(
        schema: &Value,
        numbers: &NumberTexts,
    ) -> Result<Self, GrammarError> {
        let mut builder = lower::Builder::new("root");
        let unenforced = lower::lower(&mut builder, &without_aliases(schema), numbers, 0, "")?;
        Ok(Self {
            rules: builder.rules.pruned(),
            unenforced,
        })
    }

    /// The grammar in llama.cpp's GBNF; the start rule is `root`.
    pub fn gbnf(&self) -> String {
        gbnf::print(&self.rules)
    }

    /// The grammar in llguidance's Lark dialect; the start rule is `start`.
    pub fn lark(&self) -> String {
        lark::print(&self.rules)
    }

    /// The keywords this grammar does not enforce, by schema location, in
    /// the order they were met.
    pub fn not_enforced(&self) -> &[Unenforced] {
        &self.unenforced
    }
}

/// One grammar for a whole call to any of a set of tools:
/// `{"name":<one of the names>,"arguments":<that tool's arguments>}`, so a
/// model sampling under it cannot name a tool that does not exist, nor give
/// a tool another tool's arguments.
#[derive(Clone, Debug)]
pub struct CallGrammar {
    rules: RuleSet,
    tools: Vec<(String, Vec<Unenforced>)>,
}

impl CallGrammar {
    /// Compiles each `(name, schema)` pair as [`Grammar::from_schema`]
    /// does; names must be distinct.
    pub fn new<'a>(
        tools: impl IntoIterator<Item = (&'a str, &'a Value)>,
    ) -> Result<Self, GrammarError> {
        let none = NumberTexts::default();
        Self::with_numbers(
            tools
                .into_iter()
                .map(|(name, schema)| (name, schema, &none)),
        )
    }

    /// [`CallGrammar::new`] with each tool's schema as
    /// [`Grammar::from_schema_with_numbers`] compiles it: `(name, schema,
    /// numbers)`, where `numbers` holds the number texts of that schema
    /// (pointers relative to it, see [`NumberTexts::under`]).
    ///
    /// # Errors
    ///
    /// As [`CallGrammar::new`].
    pub fn with_numbers<'a>(
        tools: impl IntoIterator<Item = (&'a str, &'a Value, &'a NumberTexts)>,
    ) -> Result<Self, GrammarError> {
        let mut builder = lower::Builder::new("root");
        let mut compiled: Vec<(String, Vec<Unenforced>)> = Vec::new();
        let mut calls = Vec::new();
        for (name, schema, numbers) in tools {
            if compiled.iter().any(|(other, _)| other == name) {
                return Err(GrammarError::DuplicateTool {
                    name: name.to_owned(),
                });
            }
            let prefix = lower::tool_prefix(name);
            let root = builder.rules.reserve(format!("{prefix}args"));
            let unenforced = lower::lower(
                &mut builder,
                &without_aliases(schema),
                numbers,
                root,
                &prefix,
            )
            .map_err(|source| GrammarError::Tool {
                name: name.to_owned(),
                source: Box::new(source),
            })?;
            calls.push(Expr::seq([
                Expr::lit("{"),
                Expr::lit("\"name\""),
                Expr::lit(":"),
                Expr::token(json_lex::literal(&Value::String(name.to_owned()))),
                Expr::lit(","),
                Expr::lit("\"arguments\""),
                Expr::lit(":"),
                Expr::Rule(root),
                Expr::lit("}"),
            ]));
            compiled.push((name.to_owned(), unenforced));
        }
        if compiled.is_empty() {
            return Err(GrammarError::NoTools);
        }
        builder.rules.define(0, Expr::alt(calls));
        Ok(Self {
            rules: builder.rules.pruned(),
            tools: compiled,
        })
    }

    /// The grammar in llama.cpp's GBNF; the start rule is `root`.
    pub fn gbnf(&self) -> String {
        gbnf::print(&self.rules)
    }

    /// The grammar in llguidance's Lark dialect; the start rule is `start`.
    pub fn lark(&self) -> String {
        lark::print(&self.rules)
    }

    /// The tool names, in the order given.
    pub fn tools(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|(name, _)| name.as_str())
    }

    /// What the grammar does not enforce in the arguments of tool `name`
    /// (pointers are into that tool's schema), or `None` for an unknown
    /// name.
    pub fn not_enforced(&self, name: &str) -> Option<&[Unenforced]> {
        self.tools
            .iter()
            .find(|(tool, _)| tool == name)
            .map(|(_, unenforced)| unenforced.as_slice())
    }
}

#[cfg(test)]
mod tests;
