//! Number text survives JSON-decoded strings byte for byte:
//! `Normalizer::normalize_text` writes
//! the text a decoded string held, not the `Value` it parsed to, so
//! `100000000000000000000001` does not become `1.0000000000000001e+23`.
//! Checked against the input's own number text over generated calls: any
//! size, precision and exponent form, inside arrays and objects stringified
//! any number of times, next to entity-escaped strings.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolargs::Normalizer;

/// Every location declares `array` or `object`: each stringified container
/// is decoded, each other string has its references decoded.
fn schema() -> Value {
    json!({
        "type": ["array", "object"],
        "items": {"$ref": "#"},
        "additionalProperties": {"$ref": "#"}
    })
}

/// The text with its repairs written back, and the value normalization
/// gives (from the parsed text, apart).
fn normalize_and_splice(text: &str) -> (String, Value) {
    let normalizer = Normalizer::compile(&schema()).unwrap();
    let (spliced, report) = normalizer.normalize_text(text).unwrap();
    let mut value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(normalizer.normalize(&mut value).unwrap(), report);
    (spliced.into_owned(), value)
}

/// The number tokens of a JSON text, in order (strings skipped).
fn numbers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let (mut found, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                found.push(&text[start..i]);
            }
            _ => i += 1,
        }
    }
    found
}

#[test]
fn the_issue_example() {
    let text = r#"{"xs":"[100000000000000000000001, 3.141592653589793238462643383279]"}"#;
    let (spliced, _) = normalize_and_splice(text);
    assert_eq!(
        spliced,
        r#"{"xs":[100000000000000000000001, 3.141592653589793238462643383279]}"#
    );
}

#[test]
fn numbers_in_text_the_value_rounds() {
    let text = r#"["[1E+2, -0, 0.1e-0, 123456789012345678901234567890e-10, 9007199254740993]"]"#;
    let (spliced, value) = normalize_and_splice(text);
    assert_eq!(
        numbers(&spliced),
        [
            "1E+2",
            "-0",
            "0.1e-0",
            "123456789012345678901234567890e-10",
            "9007199254740993"
        ]
    );
    assert_eq!(serde_json::from_str::<Value>(&spliced).unwrap(), value);
}

/// A generated piece of JSON, rendered to text.
#[derive(Clone, Debug)]
enum Piece {
    Number(String),
    Text(&'static str),
    Array(Vec<Piece>, bool),
    Object(Vec<Piece>, bool),
}

/// Strings as a model sends them: plain, entity-escaped (once, twice), with
/// JSON escapes of their own.
const TEXTS: [&str; 7] = [
    "plain",
    "Tom &amp;amp; Jerry",
    "x &lt; y",
    "é \u{1F600}",
    "quote \" and \\ backslash",
    "[not json",
    "",
];

fn number() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop_oneof![Just("0".to_owned()), "[1-9][0-9]{0,40}"],
        prop::option::of("[0-9]{1,40}"),
        // Exponents stay within what an `f64` holds (serde_json refuses
        // numbers that overflow it).
        prop::option::of(("[eE]", "[+-]?", "[0-9]{1,2}")),
    )
        .prop_map(|(negative, int, frac, exp)| {
            let mut text = String::new();
            if negative {
                text.push('-');
            }
            text.push_str(&int);
            if let Some(frac) = frac {
                text.push('.');
                text.push_str(&frac);
            }
            if let Some((e, sign, digits)) = exp {
                text.push_str(&e);
                text.push_str(&sign);
                text.push_str(&digits);
            }
            text
        })
}

fn piece() -> impl Strategy<Value = Piece> {
    let leaf = prop_oneof![
        3 => number().prop_map(Piece::Number),
        1 => prop::sample::select(&TEXTS[..]).prop_map(Piece::Text),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..5), any::<bool>())
                .prop_map(|(items, stringify)| Piece::Array(items, stringify)),
            (prop::collection::vec(inner, 0..5), any::<bool>())
                .prop_map(|(members, stringify)| Piece::Object(members, stringify)),
        ]
    })
}

/// Renders `piece` with `separator` between members, collecting its number
/// texts in the order they are written.
fn render<'p>(piece: &'p Piece, separator: &str, numbers: &mut Vec<&'p str>) -> String {
    let (open, close, items, stringify) = match piece {
        Piece::Number(text) => {
            numbers.push(text);
            return text.clone();
        }
        Piece::Text(text) => return serde_json::to_string(text).unwrap(),
        Piece::Array(items, stringify) => ("[", "]", items, *stringify),
        Piece::Object(members, stringify) => ("{", "}", members, *stringify),
    };
    let parts: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let rendered = render(item, separator, numbers);
            if open == "{" {
                format!("\"k{i}\":{rendered}")
            } else {
                rendered
            }
        })
        .collect();
    let text = format!("{open}{}{close}", parts.join(separator));
    if stringify {
        serde_json::to_string(&text).unwrap()
    } else {
        text
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn number_text_survives_decoded_strings(
        root in piece().prop_filter("a container at the root", |p| {
            matches!(p, Piece::Array(..) | Piece::Object(..))
        }),
        separator in prop::sample::select(&[",", ", ", ",\n ", " ,\t", "\r\n,"][..]),
    ) {
        let mut sent = Vec::new();
        let text = render(&root, separator, &mut sent);
        let (spliced, value) = normalize_and_splice(&text);
        prop_assert_eq!(numbers(&spliced), sent, "spliced: {}", spliced);
        prop_assert_eq!(serde_json::from_str::<Value>(&spliced).unwrap(), value);
        // Line breaks of decoded text do not split the line; the ones sent
        // outside any string stay.
        prop_assert_eq!(
            spliced.matches('\n').count(),
            line_breaks_outside_strings(&text),
        );
    }
}

/// Line breaks a text holds outside its strings.
fn line_breaks_outside_strings(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut count, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\n' => count += 1,
            _ => {}
        }
        i += 1;
    }
    count
}
