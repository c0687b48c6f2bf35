//! No depth a caller may allow overflows the stack: on a 2 MiB thread (an
//! async runtime's worker) with `max_depth = usize::MAX`, lines nested
//! 100,000 deep are parsed, normalized (by a plan and by derived code),
//! written back into their text and dropped, with the right output. How their cost grows is
//! measured by `benches/depth.rs`, not timed here.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolargs::{Normalizer, ToolArgs, json, normalizer::NormalizeError, normalizer::Options};

const DEPTH: usize = 100_000;
/// The stack of a typical worker thread.
const WORKER_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a worker's stack.
fn on_worker<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .expect("spawning a worker")
        .join()
        .expect("the worker finished without a panic or an overflow")
}

/// Drops `value` level by level: `Value`'s own drop recurses once per
/// level, which a worker's stack cannot hold 100,000 times (`json::read`'s
/// docs). An application that allows such depths drops its values so, or on
/// a thread with the stack for it.
fn drop_flat(value: Value) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(members) => pending.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

fn unbounded() -> Options {
    Options::default().max_depth(usize::MAX)
}

/// Parses, normalizes and writes the repairs back into `line`
/// (`Normalizer::normalize_text`, which drops the value level by level);
/// returns the text and the number of repairs.
fn process(schema: &Value, line: &str) -> (String, usize) {
    let normalizer = Normalizer::compile(schema)
        .unwrap()
        .with_options(unbounded());
    let (spliced, report) = normalizer.normalize_text(line).unwrap();
    (spliced.into_owned(), report.len())
}

/// The labels of a chain of `{"label": .., "next": ..}` objects, read link
/// by link (no recursion).
fn labels(chain: &Value) -> Vec<&str> {
    let mut labels = Vec::new();
    let mut at = chain;
    while let Some(label) = at.get("label").and_then(Value::as_str) {
        labels.push(label);
        at = &at["next"];
    }
    labels
}

#[test]
fn plain_nesting() {
    let (spliced, repairs) = on_worker(|| {
        let line = format!(
            "{}\"a&amp;b\"{}",
            r#"[1.50, {"k": "#.repeat(DEPTH),
            "}]".repeat(DEPTH)
        );
        process(&json!({}), &line)
    });
    let expected = format!(
        "{}\"a&b\"{}",
        r#"[1.50, {"k": "#.repeat(DEPTH),
        "}]".repeat(DEPTH)
    );
    assert_eq!(repairs, 1);
    assert!(spliced == expected, "the spliced line differs");
}

#[test]
fn nesting_inside_a_string() {
    let (spliced, repairs) = on_worker(|| {
        let line = format!(
            r#"{{"xs": "{}\"&lt;\"{}"}}"#,
            "[1e5, ".repeat(DEPTH),
            "]".repeat(DEPTH)
        );
        let schema = json!({"type": "object", "properties": {"xs": {"type": "array"}}});
        process(&schema, &line)
    });
    let expected = format!(
        r#"{{"xs": {}"<"{}}}"#,
        "[1e5, ".repeat(DEPTH),
        "]".repeat(DEPTH)
    );
    assert_eq!(repairs, 2);
    assert!(spliced == expected, "the spliced line differs");
}

#[test]
fn a_reference_at_every_level() {
    let (spliced, repairs) = on_worker(|| {
        let line = format!(
            "{}null{}",
            r#"{"a": "&amp;", "n": "#.repeat(DEPTH),
            "}".repeat(DEPTH)
        );
        // A recursive schema: the plan follows `$ref` at every level.
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "n": {"$ref": "#"}}
        });
        process(&schema, &line)
    });
    let expected = format!(
        "{}null{}",
        r#"{"a": "&", "n": "#.repeat(DEPTH),
        "}".repeat(DEPTH)
    );
    assert_eq!(repairs, DEPTH);
    assert!(spliced == expected, "the spliced line differs");
}

#[test]
fn a_reference_at_every_level_inside_a_string() {
    let (spliced, repairs) = on_worker(|| {
        let line = format!(
            r#"{{"xs": "{}null{}"}}"#,
            r#"[\"&amp;\", "#.repeat(DEPTH),
            "]".repeat(DEPTH)
        );
        let schema = json!({"type": "object", "properties": {"xs": {"type": "array"}}});
        process(&schema, &line)
    });
    let expected = format!(
        r#"{{"xs": {}null{}}}"#,
        r#"["&", "#.repeat(DEPTH),
        "]".repeat(DEPTH)
    );
    assert_eq!(repairs, DEPTH + 1);
    assert!(spliced == expected, "the spliced line differs");
}

/// Each level a string holding the JSON of the next: every level's escapes
/// double the next one's, so such a chain is as deep as its text is
/// exponentially long: 18 levels are 1 MB.
#[test]
fn strings_within_strings() {
    const LEVELS: usize = 18;
    let (spliced, repairs, bytes) = on_worker(|| {
        let mut line = "[0.10]".to_owned();
        for _ in 0..LEVELS {
            line = format!(
                r#"[1.50, "&amp;", {}]"#,
                serde_json::to_string(&line).unwrap()
            );
        }
        let schema = json!({"type": "array", "items": {"$ref": "#"}});
        let (spliced, repairs) = process(&schema, &line);
        (spliced, repairs, line.len())
    });
    assert!(bytes > 1_000_000, "{bytes} bytes");
    let expected = format!(
        "{}[0.10]{}",
        r#"[1.50, "&", "#.repeat(LEVELS),
        "]".repeat(LEVELS)
    );
    // A reference decoded and a string JSON-decoded at each level.
    assert_eq!(repairs, 2 * LEVELS);
    assert_eq!(spliced, expected);
}

#[test]
fn the_bound_stops_a_deep_line_with_a_typed_error() {
    let error = on_worker(|| {
        let line = format!("{}0{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
        let normalizer = Normalizer::compile(&json!({}))
            .unwrap()
            .with_options(Options::default().max_depth(DEPTH / 2));
        let mut value = json::read(&line, usize::MAX).unwrap();
        let error = normalizer.normalize(&mut value).unwrap_err();
        drop_flat(value);
        error
    });
    match error {
        NormalizeError::TooDeep { pointer, limit } => {
            assert_eq!(limit, DEPTH / 2);
            assert_eq!(pointer, "/0".repeat(DEPTH / 2));
        }
        other => panic!("expected TooDeep, got {other:?}"),
    }
}

/// A recursive derived type: its generated normalizer calls itself through
/// the walkers of `toolargs::__private` at every level.
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Chain {
    label: String,
    next: Option<Box<Chain>>,
}

#[test]
fn a_shallow_chain_is_its_type() {
    let parsed =
        Chain::from_model(r#"{"label": "a", "next": {"label": "&lt;b", "next": null}}"#).unwrap();
    let next = parsed.value.next.expect("the second link");
    assert_eq!(
        (parsed.value.label.as_str(), next.label.as_str()),
        ("a", "<b")
    );
    assert!(next.next.is_none());
}

#[test]
fn derived_code_walks_any_depth() {
    let (found, repairs) = on_worker(|| {
        let line = format!(
            "{}null{}",
            r#"{"label": "&lt;", "next": "#.repeat(DEPTH),
            "}".repeat(DEPTH)
        );
        let mut value = json::read(&line, usize::MAX).unwrap();
        let report = Chain::normalize(&mut value, &unbounded()).unwrap();
        let decoded = labels(&value).iter().filter(|label| **label == "<").count();
        let links = labels(&value).len();
        drop_flat(value);
        ((decoded, links), report.len())
    });
    // Every link's label decoded.
    assert_eq!(found, (DEPTH, DEPTH));
    assert_eq!(repairs, DEPTH);
}

#[test]
fn derived_and_dynamic_agree_on_a_deep_chain() {
    let (derived, dynamic) = on_worker(|| {
        let line = format!(
            "{}null{}",
            r#"{"label": "&amp;amp;", "next": "#.repeat(1_000),
            "}".repeat(1_000)
        );
        let mut derived = json::read(&line, usize::MAX).unwrap();
        let derived_report = Chain::normalize(&mut derived, &unbounded()).unwrap();
        let mut dynamic = json::read(&line, usize::MAX).unwrap();
        let dynamic_report = Normalizer::compile(Chain::input_schema())
            .unwrap()
            .with_options(unbounded())
            .normalize(&mut dynamic)
            .unwrap();
        assert_eq!(derived_report, dynamic_report);
        let labels = (labels(&derived).join(","), labels(&dynamic).join(","));
        drop_flat(derived);
        drop_flat(dynamic);
        labels
    });
    assert_eq!(derived, dynamic);
    // Decoded until stable: `&amp;amp;` is `&`.
    assert_eq!(derived, vec!["&"; 1_000].join(","));
}
