//! Every html5lib character-reference case against the single-pass decoder,
//! in its mode. The data is third-party and stays in `../shared/conformance/`.

mod support;

use serde::Deserialize;
use toolargs::entities::{EntityMode, decode_once};

#[derive(Deserialize)]
struct Case {
    mode: EntityMode,
    input: String,
    expected: String,
    source: String,
}

#[test]
fn html5lib_entities_single_pass() {
    let Some(lines) = support::shared_lines(
        "html5lib-entities.jsonl",
        "html5lib character-reference conformance (9,242 cases)",
    ) else {
        return;
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for (n, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Case = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("line {}: not a case: {e}", n + 1));
        let got = decode_once(&case.input, case.mode);
        if got != case.expected {
            failures.push(format!(
                "line {} ({:?}, {}): {:?} decoded to {:?}, expected {:?}",
                n + 1,
                case.mode,
                case.source,
                case.input,
                got,
                case.expected
            ));
        }
        checked += 1;
    }
    assert_eq!(checked, 9242, "the html5lib file should hold 9,242 cases");
    assert!(
        failures.is_empty(),
        "{} of {checked} html5lib cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
