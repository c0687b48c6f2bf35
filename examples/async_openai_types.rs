//! A toolbox on both sides of async-openai's types: its tools go into a
//! typed Chat Completions request, the tool calls of a typed response
//! message come back as `ToolCall`s the toolbox repairs, checks and runs,
//! and each outcome becomes the `tool` message that answers its call.
//! No HTTP client is involved: the response is read from JSON here, as the
//! client would read it.
//!
//! Run with `cargo run --example async_openai_types --features async-openai`.

use async_openai::types::chat::{ChatCompletionResponseMessage, CreateChatCompletionRequestArgs};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolargs::ToolArgs;
use toolargs::async_openai::{chat_tool_calls, chat_tool_message, chat_tools};
use toolargs::export::Dialect;
use toolargs::toolbox::Toolbox;

/// Search the catalogue.
#[derive(Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Search {
    /// Free-text query.
    query: String,
    /// Only items carrying every one of these tags.
    #[serde(default)]
    tags: Vec<String>,
    /// At most this many results.
    limit: Option<u32>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The strict dialect: OpenAI constrains the model to the strict form,
    // and the toolbox restores the declared form before the body runs.
    let mut toolbox = Toolbox::with_dialect(Dialect::OpenAiStrict);
    toolbox.tool_sync("search", "Search the catalogue.", |args: Search| {
        Ok::<_, String>(format!(
            "{} result(s) for {:?} {:?}",
            args.limit.unwrap_or(10),
            args.query,
            args.tags
        ))
    })?;

    let request = CreateChatCompletionRequestArgs::default()
        .model("any-model")
        .messages(Vec::new())
        .tools(chat_tools(&toolbox))
        .build()?;
    println!(
        "request tools: {}",
        serde_json::to_string_pretty(&request.tools)?
    );

    // What the client hands back: the assistant message of a completion.
    let message: ChatCompletionResponseMessage = serde_json::from_str(
        r#"{
            "role": "assistant",
            "tool_calls": [
                {"type": "function", "id": "call_1", "function": {"name": "search",
                 "arguments": "{\"query\": \"Ember &amp;amp; Oak\", \"tags\": \"[\\\"oak\\\"]\", \"limit\": null}"}},
                {"type": "function", "id": "call_2", "function": {"name": "search",
                 "arguments": "{\"query\": 5, \"tags\": [], \"limit\": \"20\"}"}}
            ]
        }"#,
    )?;
    for entry in chat_tool_calls(&message).entries {
        // A custom (free-text) tool call is no call of this toolbox: its
        // `model_message()` would answer it.
        let call = entry.call?;
        let id = call.id.clone().unwrap_or_default();
        let outcome = toolbox.call_blocking(&(), call);
        match &outcome {
            Ok(done) => println!("{id}: ran (repairs: {})", done.report.len()),
            Err(_) => println!("{id}: refused"),
        }
        // Each call is answered, a refused one too: the model reads what to fix.
        let answer = chat_tool_message(id, &outcome);
        println!("answer: {}", serde_json::to_string_pretty(&answer)?);
    }
    Ok(())
}
