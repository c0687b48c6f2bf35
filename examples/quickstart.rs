//! A handful of realistic, nearly-right tool calls, normalized against their
//! tools' schemas: what the model sent, what the tool receives, and the
//! repair records a service would log.
//!
//! Run with `cargo run --example quickstart`.

use serde_json::{Value, json};
use toolargs::{EntityMode, Normalizer, Options};

fn show(
    title: &str,
    normalizer: &Normalizer,
    sent: Value,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut received = sent.clone();
    let report = normalizer.normalize(&mut received)?;
    println!("## {title}");
    println!("  sent:     {sent}");
    println!("  received: {received}");
    if report.is_clean() {
        println!("  repairs:  none");
    }
    for repair in &report.repairs {
        println!("  repair:   {}", serde_json::to_string(repair)?);
    }
    println!();
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let search = Normalizer::compile(&json!({
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filter": {
                "anyOf": [
                    {"type": "object", "properties": {"since": {"type": "string"}, "authors": {"type": "array", "items": {"type": "string"}}}},
                    {"type": "null"}
                ]
            },
            "url": {"type": "string"}
        },
        "additionalProperties": false
    }))?;

    show(
        "an array sent as a string",
        &search,
        json!({"query": "rust json schema", "tags": "[\"rust\", \"serde\"]"}),
    )?;
    show(
        "a title escaped twice, an optional object sent as a string with a stringified array inside",
        &search,
        json!({"query": "Ember &amp;amp; Oak", "filter": "{\"since\": \"2026-01-01\", \"authors\": \"[\\\"Ana\\\"]\"}"}),
    )?;
    show(
        "JSON that is the wrong shape is left for validation to report",
        &search,
        json!({"query": "x", "tags": "{\"rust\": true}"}),
    )?;
    show(
        "a declared string is never decoded; a URL query survives (attribute-value mode)",
        &search,
        json!({"query": "[1, 2]", "url": "https://shop.test/?a=1&region=us&copy=2"}),
    )?;
    show(
        "the whole arguments object sent as one JSON string",
        &search,
        json!("{\"query\": \"caf&eacute;\", \"tags\": [\"&lt;b&gt;\"]}"),
    )?;

    let text_mode =
        Normalizer::compile(&json!({"type": "object", "properties": {"url": {"type": "string"}}}))?
            .with_options(Options::default().entities(EntityMode::Text).max_passes(2));
    show(
        "text mode (like Python's html.unescape) and a pass bound of 2",
        &text_mode,
        json!({"url": "?a=1&region=us", "note": "&amp;amp;amp;lt;"}),
    )?;
    Ok(())
}
