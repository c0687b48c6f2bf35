//! async-openai's request and response types on both sides of a
//! [`Toolbox`]: its tool definitions are made from the toolbox's export, the
//! tool calls it reads from a completion or a response become [`ToolCall`]s
//! that the toolbox checks and runs, and each outcome becomes the message
//! that answers the call.
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use toolargs::ToolArgs;
//! use toolargs::async_openai::{chat_tool_calls, chat_tools};
//! use toolargs::toolbox::Toolbox;
//! use async_openai::types::chat::ChatCompletionResponseMessage;
//!
//! /// Search the catalogue.
//! #[derive(Deserialize, JsonSchema, ToolArgs)]
//! struct Search {
//!     query: String,
//! }
//!
//! let mut toolbox = Toolbox::new();
//! toolbox.tool_sync("search", "Search the catalogue.", |args: Search| {
//!     Ok::<_, String>(format!("results for {}", args.query))
//! })?;
//!
//! // Into the request: `CreateChatCompletionRequestArgs::default().tools(tools)`.
//! let tools = chat_tools(&toolbox);
//! assert_eq!(tools.len(), 1);
//!
//! // Out of the response: every function call, checked and run.
//! let message: ChatCompletionResponseMessage = serde_json::from_str(r#"{
//!     "role": "assistant",
//!     "tool_calls": [{"type": "function", "id": "call_1",
//!                     "function": {"name": "search", "arguments": "{\"query\": \"oak &amp; ash\"}"}}]
//! }"#)?;
//! for entry in chat_tool_calls(&message).entries {
//!     let call = entry.call?; // or answer an unreadable call with its model message
//!     let id = call.id.clone().unwrap_or_default();
//!     let outcome = toolbox.call_blocking(&(), call);
//!     // The answer for the next request: the result, or what to fix.
//!     let answer = toolargs::async_openai::chat_tool_message(id, &outcome);
//!     assert_eq!(answer.tool_call_id, "call_1");
//!     assert_eq!(outcome?.output, "results for oak & ash");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The feature `async-openai` builds async-openai with its types only (its
//! `chat-completion-types` and `response-types` features): no HTTP client,
//! no TLS, no runtime. Send the request with async-openai's client (its
//! `chat-completion` or `responses` feature) or any other.
//!
//! The definitions are read from [`Toolbox::export`], so they carry the
//! schema the toolbox validates against and, in the
//! [`OpenAiStrict`](crate::export::Dialect::OpenAiStrict) dialect, its strict
//! form with `strict: true`; in the canonical dialect `strict` is `false`,
//! written out, since the Responses API otherwise assumes `true`.

use crate::call::{
    Arguments, CallEntry, ReadCalls, ToolCall, Unreadable, UnreadableCall, WireFormat,
};
use crate::export::{self, Provider};
use crate::rejection::CallError;
use crate::toolbox::{Completed, Toolbox};
use ::async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls,
    ChatCompletionRequestToolMessage, ChatCompletionRequestToolMessageContent,
    ChatCompletionResponseMessage, ChatCompletionTool, ChatCompletionTools, FunctionObject,
};
use ::async_openai::types::responses::{
    FunctionCallOutput, FunctionCallOutputItemParam, FunctionTool, FunctionToolCall, OutputItem,
    Tool,
};
use serde_json::Value;

/// One tool as the toolbox exports it, whatever the provider's envelope.
struct Definition {
    name: String,
    description: Option<String>,
    parameters: Option<Value>,
    strict: Option<bool>,
}

/// The toolbox's definitions, read from its Responses export (the flat
/// shape: `name`, `description`, `parameters`, `strict` side by side), so
/// that every field async-openai is given is the one the export writes.
fn definitions<C: ?Sized>(toolbox: &Toolbox<C>) -> Vec<Definition> {
    let provider = Provider::OpenAiResponses;
    let exported = toolbox.export(provider);
    let Some(list) = export::definition_list(provider, &exported) else {
        return Vec::new();
    };
    list.iter()
        .map(|definition| Definition {
            name: export::name_of(provider, definition)
                .unwrap_or_default()
                .to_owned(),
            description: definition
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            parameters: export::schema_of(provider, definition).cloned(),
            strict: definition.get("strict").and_then(Value::as_bool),
        })
        .collect()
}

/// Every tool of `toolbox` as Chat Completions tools (the request's
/// `tools`): the same definitions as `toolbox.export(Provider::OpenAiChat)`.
pub fn chat_tools<C: ?Sized>(toolbox: &Toolbox<C>) -> Vec<ChatCompletionTools> {
    definitions(toolbox)
        .into_iter()
        .map(|d| {
            ChatCompletionTools::Function(ChatCompletionTool {
                function: FunctionObject {
                    name: d.name,
                    description: d.description,
                    parameters: d.parameters,
                    strict: d.strict,
                },
            })
        })
        .collect()
}

/// Every tool of `toolbox` as Responses tools (the request's `tools`): the
/// same definitions as `toolbox.export(Provider::OpenAiResponses)`.
pub fn responses_tools<C: ?Sized>(toolbox: &Toolbox<C>) -> Vec<Tool> {
    definitions(toolbox)
        .into_iter()
        .map(|d| {
            Tool::Function(FunctionTool {
                name: d.name,
                parameters: d.parameters,
                strict: d.strict,
                description: d.description,
                ..FunctionTool::default()
            })
        })
        .collect()
}

/// A Chat Completions function call as a [`ToolCall`]: its id, its name,
/// and its arguments as the JSON text the model wrote (the toolbox parses
/// it, and reports a syntax error with line and column inside it).
pub fn chat_function_call(call: &ChatCompletionMessageToolCall) -> ToolCall {
    ToolCall {
        id: Some(call.id.clone()),
        name: call.function.name.clone(),
        arguments: Arguments::Text(call.function.arguments.clone()),
        format: WireFormat::OpenAiChat,
    }
}

/// One Chat Completions tool call as an entry at `entry`: a function
/// call, or, for a custom tool call, an [`UnreadableCall`]
/// ([`Unreadable::FreeForm`]): its input is free text for a tool the
/// toolbox cannot define, so there are no arguments to check.
fn chat_entry(call: &ChatCompletionMessageToolCalls, entry: String) -> CallEntry {
    let call = match call {
        ChatCompletionMessageToolCalls::Function(call) => Ok(chat_function_call(call)),
        ChatCompletionMessageToolCalls::Custom(custom) => Err(UnreadableCall {
            format: WireFormat::OpenAiChat,
            entry: entry.clone(),
            id: Some(custom.id.clone()),
            name: Some(custom.custom_tool.name.clone()),
            reason: Unreadable::FreeForm {
                input: custom.custom_tool.input.clone(),
            },
            raw: serde_json::to_value(call).unwrap_or(Value::Null),
        }),
    };
    CallEntry {
        pointer: entry,
        choice: None,
        call,
    }
}

/// Every tool call of an assistant message, in order, each on its own, as
/// [`crate::call::read`] reads the wire (no entry when the message has no
/// `tool_calls`): a custom tool call is an [`UnreadableCall`] at
/// `/tool_calls/<i>` beside the others, never a reason to lose them. Answer
/// every entry with its id ([`UnreadableCall::model_message`] for those);
/// [`ReadCalls::into_calls`] takes them all or nothing.
pub fn chat_tool_calls(message: &ChatCompletionResponseMessage) -> ReadCalls {
    ReadCalls {
        format: WireFormat::OpenAiChat,
        entries: message
            .tool_calls
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, call)| chat_entry(call, format!("/tool_calls/{i}")))
            .collect(),
    }
}

/// A Responses `function_call` item as a [`ToolCall`]: `call_id` is the
/// id to answer with a `function_call_output`; the arguments are the JSON
/// text the model wrote. A `namespace` is not part of the name, as in
/// [`crate::call`]'s reader of the same format.
pub fn responses_function_call(call: &FunctionToolCall) -> ToolCall {
    ToolCall {
        id: Some(call.call_id.clone()),
        name: call.name.clone(),
        arguments: Arguments::Text(call.arguments.clone()),
        format: WireFormat::OpenAiResponses,
    }
}

/// Every call of a response's `output`, in order, each on its own, as
/// [`crate::call::read`] reads the wire: a `function_call` item as a
/// [`ToolCall`], a custom tool call as an [`UnreadableCall`]
/// ([`Unreadable::FreeForm`]) at `/<i>` (its position in `output`). Other
/// items (messages, reasoning, calls of built-in tools the provider ran
/// itself) are not calls of the toolbox's tools and are not entries.
pub fn responses_tool_calls<'a>(output: impl IntoIterator<Item = &'a OutputItem>) -> ReadCalls {
    let entries = output
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let call = match item {
                OutputItem::FunctionCall(call) => Ok(responses_function_call(call)),
                OutputItem::CustomToolCall(custom) => Err(UnreadableCall {
                    format: WireFormat::OpenAiResponses,
                    entry: format!("/{i}"),
                    id: Some(custom.call_id.clone()),
                    name: Some(custom.name.clone()),
                    reason: Unreadable::FreeForm {
                        input: custom.input.clone(),
                    },
                    raw: serde_json::to_value(item).unwrap_or(Value::Null),
                }),
                _ => return None,
            };
            Some(CallEntry {
                pointer: format!("/{i}"),
                choice: None,
                call,
            })
        })
        .collect();
    ReadCalls {
        format: WireFormat::OpenAiResponses,
        entries,
    }
}

/// The text that answers a call: the body's output (a JSON string as its
/// text, any other value as JSON text), or, when the call did not run or
/// failed, [`CallError::model_message`], which names what to fix.
pub fn answer_text(outcome: &Result<Completed, CallError>) -> String {
    match outcome {
        Ok(done) => match &done.output {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        },
        Err(error) => error.model_message(),
    }
}

/// The Chat Completions `tool` message answering call `call_id` with
/// [`answer_text`]. Every call of an assistant message needs one, a
/// refused call too: the refusal is what lets the model correct it.
pub fn chat_tool_message(
    call_id: impl Into<String>,
    outcome: &Result<Completed, CallError>,
) -> ChatCompletionRequestToolMessage {
    ChatCompletionRequestToolMessage {
        content: ChatCompletionRequestToolMessageContent::Text(answer_text(outcome)),
        tool_call_id: call_id.into(),
    }
}

/// The Responses `function_call_output` item answering call `call_id`
/// (the call's `call_id`) with [`answer_text`].
pub fn responses_function_call_output(
    call_id: impl Into<String>,
    outcome: &Result<Completed, CallError>,
) -> FunctionCallOutputItemParam {
    FunctionCallOutputItemParam {
        call_id: Some(call_id.into()),
        output: FunctionCallOutput::Text(answer_text(outcome)),
        id: None,
        status: None,
        name: None,
        namespace: None,
        caller: None,
    }
}
