//! The `&` pre-filter seen from outside: it must never call a string clean
//! that decoding would change, in either entity mode, and on raw JSON text
//! it must agree with the string the text spells, whatever escapes the JSON
//! uses around its `&`s. (The scan of a whole text that builds on it is
//! tested with the text reader, `json_text`'s unit tests.)

use proptest::prelude::*;
use serde_json::json;
use std::borrow::Cow;
use toolargs::entities::{EntityMode, decode_once, has_reference_candidate};

const MODES: [EntityMode; 2] = [EntityMode::Attribute, EntityMode::Text];

/// Pieces around which the tokenizer and the JSON escaper make decisions:
/// reference names and their prefixes, numeric forms, the bytes JSON
/// escapes (`"`, `\`, control characters), and prose.
fn pieces() -> Vec<&'static str> {
    vec![
        "&", "#", "x", "X", "0", "7", "f", ";", "=", " ", "T", "AT&T", "R&D", "lt", "amp", "am",
        "Tab", "nbsp", "not", "notin", "é", "\"", "\\", "\n", "\t", "\u{1}", "/", "[", "{",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn the_filter_never_calls_text_with_a_reference_clean(
        parts in prop::collection::vec(prop::sample::select(pieces()), 0..16)
    ) {
        let text: String = parts.concat();
        let json = json!({ "k": &text, "list": [&text] }).to_string();
        if !has_reference_candidate(text.as_bytes()) {
            for mode in MODES {
                prop_assert!(
                    matches!(decode_once(&text, mode), Cow::Borrowed(_)),
                    "{text:?} has no candidate, but decodes in {mode:?} mode"
                );
            }
        }
        // The filter on the raw JSON text agrees with the filter on the
        // string it spells, unless a `\u` escape (which the scan treats as
        // needing repair anyway) intervenes.
        if !json.contains("\\u") {
            prop_assert_eq!(
                has_reference_candidate(json.as_bytes()),
                has_reference_candidate(text.as_bytes()),
                "{}", json
            );
        }
    }
}

#[test]
fn realistic_prose_stays_on_the_fast_path() {
    let body = "AT&T and R&D: Q&A with a & b, AT&T's terms".repeat(50);
    let call = json!({"query": "AT&T", "documents": [{"title": "R&D", "body": body}]});
    assert!(!has_reference_candidate(call.to_string().as_bytes()));
    for mode in MODES {
        assert!(matches!(decode_once(&body, mode), Cow::Borrowed(_)));
    }
    let damaged = json!({"query": "AT&amp;T", "documents": [{"title": "R&D", "body": body}]});
    assert!(has_reference_candidate(damaged.to_string().as_bytes()));
    assert_eq!(
        decode_once(damaged["query"].as_str().unwrap(), EntityMode::Attribute),
        "AT&T"
    );
}
