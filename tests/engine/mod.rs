//! llguidance as the judge of a grammar, shared by the grammar suites: a
//! Lark grammar loaded once, then asked whether a model may write exactly a
//! given text, byte by byte.
#![allow(dead_code)] // each suite uses part of it

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::ApproximateTokEnv;
use llguidance::{Matcher, ParserFactory};

/// A parser factory over single-byte tokens, quiet.
pub fn factory() -> ParserFactory {
    let mut factory =
        ParserFactory::new_simple(&ApproximateTokEnv::single_byte_env()).expect("factory");
    factory.quiet();
    factory
}

/// One Lark grammar loaded into llguidance, reusable across inputs.
pub struct Engine {
    matcher: Matcher,
}

impl Engine {
    /// Loads `lark` with `factory`; the grammar must load without warnings.
    pub fn new(factory: &ParserFactory, lark: &str) -> Self {
        let parser = factory.create_parser(TopLevelGrammar::from_lark(lark.to_owned()));
        let mut matcher = Matcher::new(parser);
        assert!(
            !matcher.is_error(),
            "llguidance refused the grammar: {:?}\n{lark}",
            matcher.get_error()
        );
        let warnings = matcher.grammar_warnings();
        assert!(
            warnings.is_empty(),
            "grammar warnings: {warnings:?}\n{lark}"
        );
        Self { matcher }
    }

    /// [`Engine::new`] with a factory of its own.
    pub fn for_lark(lark: &str) -> Self {
        Self::new(&factory(), lark)
    }

    /// Whether the engine lets a model write exactly `text`: each byte is a
    /// token the grammar allows at that point, and the grammar may end
    /// after the last one.
    pub fn accepts(&mut self, text: &str) -> bool {
        self.matcher.reset().expect("reset");
        for byte in text.bytes() {
            let consumed = self
                .matcher
                .try_consume_tokens(&[u32::from(byte)])
                .expect("engine error");
            if consumed != 1 {
                return false;
            }
        }
        self.matcher.is_accepting().expect("engine error")
    }
}
