//! Hostile inputs end with a result or a typed error, never a panic, a stack
//! overflow or a hang. (How their cost grows is measured by the benchmarks,
//! not timed here.)

use serde_json::{Value, json};
use toolargs::{Normalizer, normalizer::NormalizeError, normalizer::Options, report::RepairKind};

/// Runs `f` on a thread with a large stack: dropping a very deep
/// `serde_json::Value` is itself recursive.
fn with_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn megabyte_of_nested_references_stops_at_the_bound() {
    let text = format!("&{}lt;", "amp;".repeat(250_000));
    let normalizer = Normalizer::compile(&json!({})).unwrap();
    let mut args = json!({ "t": text });
    let report = normalizer.normalize(&mut args).unwrap();
    let expected = format!("&{}lt;", "amp;".repeat(250_000 - 8));
    assert_eq!(args["t"], Value::String(expected));
    assert_eq!(
        report.repairs[0].kind,
        RepairKind::ReferencesDecoded {
            passes: 8,
            bound_reached: true
        }
    );
}

#[test]
fn deeply_nested_arguments_are_a_typed_error() {
    with_big_stack(|| {
        let mut value = json!("leaf");
        for _ in 0..50_000 {
            value = Value::Array(vec![value]);
        }
        let normalizer = Normalizer::compile(&json!({"items": {"$ref": "#"}})).unwrap();
        let err = normalizer.normalize(&mut value).unwrap_err();
        assert!(
            matches!(err, NormalizeError::TooDeep { limit: 128, .. }),
            "{err}"
        );
        let raised = normalizer.with_options(Options::default().max_depth(60_000));
        assert!(raised.normalize(&mut value).is_ok());
    });
}

#[test]
fn deep_json_inside_a_string_is_a_typed_error() {
    let deep = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    let normalizer = Normalizer::compile(&json!({"properties": {"a": {"type": "array"}}})).unwrap();
    let mut args = json!({ "a": deep });
    assert!(matches!(
        normalizer.normalize(&mut args),
        Err(NormalizeError::TooDeep { pointer, .. }) if pointer == "/a"
    ));
}

#[test]
fn ten_thousand_element_stringified_array() {
    let items: Vec<String> = (0..10_000)
        .map(|i| format!("\"item &amp;amp; {i}\""))
        .collect();
    let normalizer = Normalizer::compile(
        &json!({"properties": {"a": {"type": "array", "items": {"type": "string"}}}}),
    )
    .unwrap();
    let mut args = json!({ "a": format!("[{}]", items.join(",")) });
    let report = normalizer.normalize(&mut args).unwrap();
    assert_eq!(args["a"].as_array().unwrap().len(), 10_000);
    assert_eq!(args["a"][9_999], "item & 9999");
    assert_eq!(report.len(), 10_001);
}

#[test]
fn huge_schema_with_ref_cycles() {
    let n = 5_000;
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        defs.insert(
            format!("D{i}"),
            json!({
                "anyOf": [
                    {"$ref": format!("#/$defs/D{}", (i + 1) % n)},
                    {"allOf": [{"$ref": format!("#/$defs/D{}", (i + n - 1) % n)}]},
                    {"type": "object", "properties": {"next": {"$ref": format!("#/$defs/D{}", (i * 7 + 3) % n)}, "tags": {"type": "array"}}}
                ]
            }),
        );
    }
    let schema = json!({"$ref": "#/$defs/D0", "$defs": defs});
    let normalizer = Normalizer::compile(&schema).unwrap();
    let mut args = json!({"next": {"next": {"tags": "[1]", "t": "&amp;"}}});
    normalizer.normalize(&mut args).unwrap();
    assert_eq!(args["next"]["next"]["t"], "&");
}

#[test]
fn unbounded_passes_still_terminate() {
    let normalizer = Normalizer::compile(&json!({}))
        .unwrap()
        .with_options(Options::default().max_passes(u32::MAX));
    let mut args = json!(format!("&{}lt;", "amp;".repeat(2_000)));
    let report = normalizer.normalize(&mut args).unwrap();
    assert_eq!(args, json!("<"));
    assert_eq!(
        report.repairs[0].kind,
        RepairKind::ReferencesDecoded {
            passes: 2_001,
            bound_reached: false
        }
    );
}

#[test]
fn services_can_reject_instead_of_record() {
    use toolargs::normalizer::PassBound;
    let normalizer = Normalizer::compile(&json!({})).unwrap().with_options(
        Options::default()
            .max_passes(2)
            .pass_bound(PassBound::Reject),
    );
    let mut args = json!({"ok": "&amp;amp;", "t": "&amp;amp;amp;lt;"});
    let err = normalizer.normalize(&mut args).unwrap_err();
    assert_eq!(
        err,
        NormalizeError::PassBound {
            pointer: "/t".into(),
            limit: 2
        }
    );

    let options = Options::default().max_bytes(1024);
    assert!(options.check_size(1024).is_ok());
    assert_eq!(
        options.check_size(1025),
        Err(NormalizeError::TooLarge {
            bytes: 1025,
            limit: 1024
        })
    );
}
