//! A handful of realistic, nearly-right tool calls: what the model sent,
//! what the tool receives, and the repair records a service would log.
//!
//! Run with `cargo run --example quickstart`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolargs::{
    ArgsError, Normalizer, ToolArgs, entities::EntityMode, normalizer::Options, report::Report,
};

/// Search the catalogue.
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    /// Free-text query.
    query: String,
    /// Only items carrying every one of these tags.
    #[serde(default)]
    tags: Vec<String>,
    /// Narrow the results.
    filter: Option<Filter>,
    /// At most this many results.
    limit: Option<u32>,
}

/// Which items to keep.
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Filter {
    /// ISO date, e.g. 2026-01-31.
    published_after: Option<String>,
    authors: Vec<String>,
}

fn print_report(report: &Report) -> Result<(), serde_json::Error> {
    if report.is_clean() {
        println!("  repairs:  none");
    }
    for repair in &report.repairs {
        println!("  repair:   {}", serde_json::to_string(repair)?);
    }
    Ok(())
}

fn typed(title: &str, sent: &str) -> Result<(), Box<dyn std::error::Error>> {
    println!("## {title}\n  sent:     {sent}");
    match SearchArgs::from_model(sent) {
        Ok(parsed) => {
            let args = &parsed.value;
            let filter = args
                .filter
                .as_ref()
                .map(|f| (&f.published_after, &f.authors));
            println!(
                "  received: query={:?} tags={:?} filter={filter:?} limit={:?}",
                args.query, args.tags, args.limit
            );
            print_report(&parsed.report)?;
        }
        Err(ArgsError::Invalid(violations)) => {
            println!("  rejected, every problem at once:");
            for v in &violations {
                println!(
                    "    {}: expected {}, found {}",
                    v.pointer, v.expected, v.found
                );
            }
        }
        Err(other) => println!("  rejected: {other}"),
    }
    println!();
    Ok(())
}

fn dynamic(
    title: &str,
    normalizer: &Normalizer,
    sent: Value,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut received = sent.clone();
    let report = normalizer.normalize(&mut received)?;
    println!("## {title}\n  sent:     {sent}\n  received: {received}");
    print_report(&report)?;
    println!();
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("# #[derive(ToolArgs)]: the schema the model is shown\n");
    println!(
        "{}\n",
        serde_json::to_string_pretty(SearchArgs::input_schema())?
    );

    typed(
        "an array sent as a string, a title escaped twice",
        r#"{"query": "Ember &amp;amp; Oak", "tags": "[\"wood\", \"oak\"]"}"#,
    )?;
    typed(
        "an optional object sent as a string, with a stringified array inside",
        r#"{"query": "oak", "filter": "{\"authors\": \"[\\\"Ana\\\"]\"}"}"#,
    )?;
    typed(
        "the whole arguments object wrapped in one JSON string",
        r#""{\"query\": \"caf&eacute;\", \"limit\": 5}""#,
    )?;
    typed(
        "nothing is coerced, nothing undeclared rides along",
        r#"{"query": "oak", "limit": "20", "sort": "new"}"#,
    )?;
    typed(
        "JSON of the wrong shape is left for validation to report",
        r#"{"query": "oak", "tags": "{\"wood\": true}"}"#,
    )?;

    println!("# Normalizer: a schema known only at run time (an MCP server's tools)\n");
    let search = Normalizer::compile(SearchArgs::input_schema())?;
    dynamic(
        "a declared string is never decoded; a URL query survives (attribute-value mode)",
        &search,
        json!({"query": "[1, 2]", "tags": ["https://shop.test/?a=1&region=us&copy=2"]}),
    )?;
    let text_mode = Normalizer::compile(&json!({"type": "object"}))?
        .with_options(Options::default().entities(EntityMode::Text).max_passes(2));
    dynamic(
        "text mode (like Python's html.unescape) and a pass bound of 2",
        &text_mode,
        json!({"url": "?a=1&region=us", "note": "&amp;amp;amp;lt;"}),
    )?;
    Ok(())
}
