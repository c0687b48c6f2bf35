//! The dynamic normalizer on an arbitrary schema, arbitrary arguments and
//! arbitrary options: compiling and normalizing never panic; keys, array
//! lengths and non-string scalars never change and JSON is decoded only where
//! the plan declares it (`toolargs_fuzz::invariants`); a clean report means
//! unchanged arguments; every repair's pointer exists in the result; and
//! the text path (`normalize_text`) writes the same repairs back into the
//! text, which parses back to the normalized value.
//!
//! Input: up to three sections separated by a line holding `%%`. The first
//! is read with `arbitrary` into options, a schema and (when there is no
//! second section) arguments, serialized compact or pretty. A second section
//! is the arguments text itself, to reach what serialization never writes
//! (duplicate keys, escapes in keys, `1.50`); a third is the schema's text.
//! Sections that are not JSON make the input uninteresting.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolargs::Normalizer;
use toolargs_fuzz::invariants::check_changes;
use toolargs_fuzz::json_gen::Gen;

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});

/// Separates the sections of an input (see the module docs).
const MARK: &[u8] = b"\n%%\n";

fn sections(data: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    let mut rest = data;
    while let Some(at) = rest.windows(MARK.len()).position(|w| w == MARK) {
        parts.push(&rest[..at]);
        rest = &rest[at + MARK.len()..];
    }
    parts.push(rest);
    parts
}

fn run(data: &[u8]) -> arbitrary::Result<()> {
    let parts = sections(data);
    let mut u = arbitrary::Unstructured::new(parts[0]);
    let mut g = Gen::new(&mut u, 48);
    let options = g.options()?;
    let mut schema = g.root_schema(4)?;
    if let Some(text) = parts.get(2) {
        match serde_json::from_slice(text) {
            Ok(given) => schema = given,
            Err(_) => return Ok(()),
        }
    }
    let (text, arguments) = if let Some(text) = parts.get(1) {
        let Ok(text) = std::str::from_utf8(text) else {
            return Ok(());
        };
        match serde_json::from_str::<Value>(text) {
            Ok(value) => (text.to_owned(), value),
            Err(_) => return Ok(()),
        }
    } else {
        let value = g.value(5)?;
        let text = if g.bytes().arbitrary()? {
            serde_json::to_string_pretty(&value)
        } else {
            serde_json::to_string(&value)
        }
        .expect("a Value always serializes");
        (text, value)
    };

    let normalizer = match Normalizer::compile(&schema) {
        Ok(normalizer) => normalizer.with_options(options),
        Err(error) => {
            let _ = error.to_string();
            return Ok(());
        }
    };
    let mut normalized = arguments.clone();
    let result = normalizer.normalize(&mut normalized);
    // Holds even when the depth bound stopped the walk: repairs made
    // before stopping are ones the rules allow.
    check_changes(
        normalizer.plan(),
        &normalizer.plan().root(),
        &arguments,
        &normalized,
        "",
    );
    let report = match result {
        Ok(report) => report,
        Err(error) => {
            let _ = error.to_string();
            return Ok(());
        }
    };
    assert_eq!(
        report.is_clean(),
        normalized == arguments,
        "report {report:?} disagrees with the change"
    );
    for repair in &report.repairs {
        assert!(
            normalized.pointer(&repair.pointer.to_string()).is_some(),
            "repair at a pointer not in the result: {repair:?}"
        );
    }
    // The text path writes the same repairs back into the text.
    let (spliced, text_report) = normalizer
        .normalize_text(&text)
        .expect("the original text is JSON, normalized above");
    assert_eq!(text_report, report);
    // Parsed without serde_json's fixed limit of 128: decoded strings may
    // nest deeper than the arguments text did.
    let back = toolargs::json::read(&spliced, usize::MAX)
        .unwrap_or_else(|e| panic!("spliced text is not JSON ({e}): {spliced}"));
    assert_eq!(back, normalized, "spliced text: {spliced}");
    Ok(())
}
