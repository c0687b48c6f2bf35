//! The value a stream builds as its text arrives against `serde_json`'s
//! own parse of the whole text, over generated JSON texts (every number
//! form, escapes and surrogates, repeated keys, keys `serde_json`'s `Value`
//! reads specially, whitespace between every token) cut at random bytes.
//!
//! This is what lets `finish` skip parsing the text again: whenever the
//! stream hands over its value, it is `serde_json`'s, member order, number
//! representation and all; and it hands one over for every text
//! `serde_json` parses (but the specially read keys).

use super::engine::{Checks, Engine};
use super::lexer::Fragment;
use crate::normalizer::Options;
use proptest::prelude::*;
use serde_json::Value;

fn whitespace() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["", " ", "\t", "\n", "\r\n"]),
        0..2,
    )
    .prop_map(|parts| parts.concat())
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        (any::<i32>(), 0u32..1_000_000, -400i32..400).prop_map(|(i, f, e)| format!("{i}.{f}e{e}")),
        "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,3})?",
        prop::sample::select(vec![
            "0",
            "-0",
            "-0.0",
            "18446744073709551615",
            "18446744073709551616",
            "9999999999999999999",
            "99999999999999999999",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "-1e400",
            "2.2250738585072011e-308",
            "0.1e1",
            "1E+2",
        ])
        .prop_map(str::to_owned),
    ]
}

/// The body of a JSON string (without quotes), as JSON text.
fn string_body() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-zA-Z0-9 &;#\\[\\]{}]{0,6}",
        "[é€😀]{1,2}",
        prop::sample::select(vec![
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\n",
            "\\r",
            "\\t",
            "\\u0041",
            "\\u00e9",
            "\\u20AC",
            "\\ud83d\\ude00",
            "\\ud83d",
            "\\ude00",
            "\\u0000",
            "&amp;",
            "&#38;",
            "[1, 2]",
            "{\\\"a\\\": 1}",
        ])
        .prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..4).prop_map(|parts| parts.concat())
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(vec!["a", "b", "c"]).prop_map(str::to_owned),
        3 => string_body(),
        1 => prop::sample::select(vec![
            "$serde_json::private::RawValue",
            "$serde_json::private::Number",
        ])
        .prop_map(str::to_owned),
    ]
}

fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        number(),
        string_body().prop_map(|body| format!("\"{body}\"")),
        prop::sample::select(vec!["true", "false", "null"]).prop_map(str::to_owned),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec((whitespace(), inner.clone(), whitespace()), 0..6).prop_map(
                |items| {
                    let items: Vec<String> = items
                        .into_iter()
                        .map(|(a, v, b)| format!("{a}{v}{b}"))
                        .collect();
                    format!("[{}]", items.join(","))
                }
            ),
            prop::collection::vec((key(), whitespace(), inner), 0..6).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(k, ws, v)| format!("\"{k}\"{ws}:{ws}{v}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
    .prop_flat_map(|text| (whitespace(), Just(text), whitespace()))
    .prop_map(|(a, text, b)| format!("{a}{text}{b}"))
}

/// Streams `text` cut at `cuts` (byte offsets, any order) with no schema.
fn streamed(text: &str, cuts: &[usize], events: bool) -> Option<Value> {
    let checks = Checks::none();
    let options = Options {
        max_depth: usize::MAX,
        ..Options::default()
    };
    let mut engine = Engine::new(checks, options, events);
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    cuts.sort_unstable();
    cuts.push(text.len());
    let mut from = 0;
    for cut in cuts {
        let fragment = &text.as_bytes()[from..cut];
        match text.get(from..cut) {
            Some(whole) if cut % 2 == 0 => engine.push(Fragment::Str(whole)),
            _ => engine.push(Fragment::Bytes(fragment)),
        }
        from = cut;
    }
    engine.finish();
    engine.take_parsed().map(|(value, _, _, _)| value)
}

/// Serialized in member order: `Value`'s `==` ignores the order of an
/// object's members, which the parse must keep too.
fn ordered(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn the_streamed_value_is_serde_jsons(
        text in json_text(),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        events in any::<bool>(),
    ) {
        let mut de = serde_json::Deserializer::from_str(&text);
        de.disable_recursion_limit();
        let whole = serde::Deserialize::deserialize(&mut de).and_then(|value: Value| {
            de.end().map(|()| value)
        });
        let got = streamed(&text, &cuts, events);
        match (&whole, &got) {
            (Ok(whole), Some(got)) => prop_assert_eq!(ordered(got), ordered(whole), "{}", text),
            (Err(_), Some(got)) => {
                prop_assert!(false, "serde_json refuses {text:?}, the stream built {got}")
            }
            (Ok(_), None) => prop_assert!(
                text.contains("$serde_json::private::"),
                "serde_json parses {text:?}, the stream built nothing"
            ),
            (Err(_), None) => {}
        }
    }
}

/// Feeds `text` one byte at a time, comparing after each byte the
/// snapshot made from the built values with the one parsed from the text;
/// returns how many snapshots were made from built values.
fn compare_snapshots(text: &[u8]) -> Result<usize, String> {
    let checks = Checks::none();
    let mut engine = Engine::new(checks, Options::default(), false);
    let mut built = 0;
    for (at, byte) in text.iter().enumerate() {
        engine.push(Fragment::Bytes(std::slice::from_ref(byte)));
        let (from_built, from_text) = engine.snapshots();
        let Some(from_built) = from_built else {
            continue;
        };
        built += 1;
        let same = match (&from_built, &from_text) {
            (Some(a), Some(b)) => ordered(&a.value) == ordered(&b.value) && a.open == b.open,
            (None, None) => true,
            _ => false,
        };
        if !same {
            return Err(format!(
                "after {} bytes of {:?}: built {from_built:?}, text {from_text:?}",
                at + 1,
                String::from_utf8_lossy(text)
            ));
        }
    }
    Ok(built)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_snapshot_from_the_built_values_is_the_texts(
        text in json_text(),
        cut in any::<usize>(),
        tail in r#"[\\\]}"a,:1 ]{0,3}"#,
    ) {
        // Whole texts, and a prefix followed by bytes that may break it.
        let text = text.into_bytes();
        prop_assert!(compare_snapshots(&text).is_ok(), "{:?}", compare_snapshots(&text));
        let mut cut_text = text[..cut % (text.len() + 1)].to_vec();
        cut_text.extend_from_slice(tail.as_bytes());
        prop_assert!(compare_snapshots(&cut_text).is_ok(), "{:?}", compare_snapshots(&cut_text));
    }
}

#[test]
fn snapshots_agree_at_the_nesting_serde_json_parses() {
    for depth in [1, 2, 126, 127, 128, 129, 200] {
        let text = format!("{}\"x\", {{\"a\": [1, \"y", "[".repeat(depth));
        // Up to 127 open containers the snapshot is made from the built
        // values, and must be the one the text parses to.
        let built = compare_snapshots(text.as_bytes()).unwrap();
        assert!(built >= (depth + 2).min(127), "{depth}: {built}");
    }
}

#[test]
fn texts_serde_json_refuses_build_nothing() {
    for text in [
        "",
        "   ",
        "[1,]",
        "{\"a\":1",
        "\"\\ud83d\"",
        "[1e400]",
        "{\"a\" 1}",
        "[] []",
        "01",
    ] {
        assert_eq!(streamed(text, &[1, 3], false), None, "{text}");
    }
    assert_eq!(streamed("12", &[1], false), Some(Value::from(12)));
}

#[test]
fn a_dropped_stream_leaves_nothing_to_the_next() {
    // Buffers are reused between the streams of a thread: one dropped with
    // containers open, events waiting and bytes kept must not show in the
    // next one.
    let checks = Checks::none();
    for events in [false, true] {
        let mut abandoned = Engine::new(checks, Options::default(), events);
        abandoned.push(Fragment::Str("[{\"a\": [1, \"x\", {\"b\": [tr"));
        abandoned.push(Fragment::Bytes(b"ue, \"\xC3"));
        drop(abandoned);
        assert_eq!(
            streamed("{\"c\": [2]}", &[3], events),
            Some(serde_json::json!({"c": [2]}))
        );
    }
}

#[test]
fn a_deep_unfinished_call_drops_on_a_small_stack() {
    // Containers closed inside open ones hold the value built so far,
    // nested as deep as the text: dropping the stream must not recurse.
    crate::deep::on_small_stack(|| {
        let depth = 100_000;
        let options = Options {
            max_depth: usize::MAX,
            ..Options::default()
        };
        let checks = Checks::none();
        let mut engine = Engine::new(checks, options, false);
        engine.push(Fragment::Str(&"[".repeat(depth + 1)));
        engine.push(Fragment::Str(&"]".repeat(depth)));
        drop(engine);
    });
}
