//! `toolargs::async_openai`: a toolbox's definitions in async-openai's tool
//! types are exactly the toolbox's own OpenAI export (canonical and
//! strict), and async-openai's tool calls become `ToolCall`s the toolbox
//! repairs, checks and runs, or refuses at every failing pointer.

use async_openai::types::chat::{
    ChatCompletionMessageCustomToolCall, ChatCompletionMessageToolCall,
    ChatCompletionMessageToolCalls, ChatCompletionRequestMessage, ChatCompletionResponseMessage,
    ChatCompletionTools, CreateChatCompletionRequestArgs, CustomTool, FunctionCall,
};
use async_openai::types::responses::{
    CreateResponseArgs, FunctionToolCall, InputItem, Item, OutputItem, Tool as ResponsesTool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolargs::ToolArgs;
use toolargs::async_openai::{
    answer_text, chat_function_call, chat_tool_calls, chat_tool_message, chat_tools,
    responses_function_call, responses_function_call_output, responses_tool_calls, responses_tools,
};
use toolargs::call::{self, Arguments, Unreadable, WireFormat};
use toolargs::export::{Dialect, Provider};
use toolargs::rejection::{CallError, Rejection};
use toolargs::toolbox::Toolbox;

/// Search the catalogue.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Search {
    /// Free-text query.
    query: String,
    #[serde(default)]
    tags: Vec<String>,
    /// At most this many results.
    limit: Option<u32>,
}

/// Refund part of an order.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Refund {
    order_id: String,
    amount_cents: u32,
}

fn toolbox(dialect: Dialect) -> Toolbox {
    let mut toolbox = Toolbox::with_dialect(dialect);
    toolbox
        .tool_sync("search", "Search the catalogue.", |args: Search| {
            Ok::<_, String>(args)
        })
        .expect("search registers")
        .tool_sync("refund", "", |args: Refund| Ok::<_, String>(args))
        .expect("refund registers");
    toolbox
}

const DIALECTS: [Dialect; 2] = [Dialect::Canonical, Dialect::OpenAiStrict];

#[test]
fn chat_tools_are_the_chat_export() {
    for dialect in DIALECTS {
        let toolbox = toolbox(dialect);
        let tools = chat_tools(&toolbox);
        let exported = toolbox.export(Provider::OpenAiChat);
        assert_eq!(
            serde_json::to_value(&tools).unwrap(),
            exported,
            "{dialect:?}"
        );
        // async-openai reads our export into the very same values.
        let read: Vec<ChatCompletionTools> = serde_json::from_value(exported).unwrap();
        assert_eq!(read, tools, "{dialect:?}");
    }
}

#[test]
fn responses_tools_are_the_responses_export() {
    for dialect in DIALECTS {
        let toolbox = toolbox(dialect);
        let tools = responses_tools(&toolbox);
        let exported = toolbox.export(Provider::OpenAiResponses);
        assert_eq!(
            serde_json::to_value(&tools).unwrap(),
            exported,
            "{dialect:?}"
        );
        let read: Vec<ResponsesTool> = serde_json::from_value(exported).unwrap();
        assert_eq!(read, tools, "{dialect:?}");
    }
}

#[test]
fn the_strict_dialect_says_strict_and_sends_the_strict_schema() {
    let toolbox = toolbox(Dialect::OpenAiStrict);
    let ChatCompletionTools::Function(search) = &chat_tools(&toolbox)[0] else {
        panic!("a function tool")
    };
    assert_eq!(search.function.strict, Some(true));
    assert_eq!(
        search.function.parameters.as_ref(),
        toolbox.schema("search")
    );
    // The strict form requires every field, optional ones as nullable.
    assert_eq!(
        search.function.parameters.as_ref().unwrap()["required"],
        json!(["query", "tags", "limit"])
    );
    let ResponsesTool::Function(search) = &responses_tools(&toolbox)[0] else {
        panic!("a function tool")
    };
    assert_eq!(search.strict, Some(true));

    let canonical = toolbox_tools_strict(Dialect::Canonical);
    assert_eq!(canonical, [Some(false), Some(false)]);
}

fn toolbox_tools_strict(dialect: Dialect) -> Vec<Option<bool>> {
    chat_tools(&toolbox(dialect))
        .into_iter()
        .map(|tool| match tool {
            ChatCompletionTools::Function(tool) => tool.function.strict,
            ChatCompletionTools::Custom(_) => None,
        })
        .collect()
}

#[test]
fn the_tools_go_into_async_openais_requests_unchanged() {
    let toolbox = toolbox(Dialect::Canonical);
    let request = CreateChatCompletionRequestArgs::default()
        .model("any-model")
        .messages(Vec::new())
        .tools(chat_tools(&toolbox))
        .build()
        .expect("a request");
    let request = serde_json::to_value(&request).unwrap();
    assert_eq!(request["tools"], toolbox.export(Provider::OpenAiChat));

    let request = CreateResponseArgs::default()
        .model("any-model")
        .input("find oak")
        .tools(responses_tools(&toolbox))
        .build()
        .expect("a request");
    let request = serde_json::to_value(&request).unwrap();
    assert_eq!(request["tools"], toolbox.export(Provider::OpenAiResponses));
}

fn chat_call(id: &str, name: &str, arguments: &str) -> ChatCompletionMessageToolCall {
    ChatCompletionMessageToolCall {
        id: id.into(),
        function: FunctionCall {
            name: name.into(),
            arguments: arguments.into(),
        },
    }
}

#[test]
fn a_chat_call_is_repaired_checked_and_run() {
    let toolbox = toolbox(Dialect::Canonical);
    let call = chat_function_call(&chat_call(
        "call_1",
        "search",
        r#"{"query": "Ember &amp;amp; Oak", "tags": "[\"oak\"]"}"#,
    ));
    assert_eq!(call.format, WireFormat::OpenAiChat);
    let done = toolbox.call_blocking(&(), call).expect("repaired and run");
    assert_eq!(done.call_id.as_deref(), Some("call_1"));
    assert_eq!(
        done.output,
        json!({"query": "Ember & Oak", "tags": ["oak"], "limit": null})
    );
    let pointers: Vec<String> = done
        .report
        .repairs
        .iter()
        .map(|r| r.pointer.to_string())
        .collect();
    assert_eq!(pointers, ["/query", "/tags"]);
}

#[test]
fn a_chat_call_is_refused_at_every_pointer() {
    let toolbox = toolbox(Dialect::Canonical);
    let call = chat_function_call(&chat_call(
        "call_2",
        "refund",
        r#"{"order_id": 7, "amount_cents": "20", "reason": "late"}"#,
    ));
    let Err(CallError::Rejected(Rejection::InvalidArguments(refused))) =
        toolbox.call_blocking(&(), call)
    else {
        panic!("invalid arguments")
    };
    let pointers: Vec<&str> = refused
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/order_id", "/amount_cents", "/reason"]);
    assert_eq!(refused.tool, "refund");
}

#[test]
fn a_chat_call_whose_text_is_not_json_is_a_syntax_error_inside_it() {
    let toolbox = toolbox(Dialect::Canonical);
    let call = chat_function_call(&chat_call("call_3", "search", r#"{"query": "oak",}"#));
    let Err(CallError::Rejected(Rejection::Syntax(error))) = toolbox.call_blocking(&(), call)
    else {
        panic!("a syntax error")
    };
    assert_eq!((error.line, error.column), (Some(1), Some(17)));
}

/// A completion's assistant message as async-openai reads it.
fn message() -> ChatCompletionResponseMessage {
    serde_json::from_value(json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"type": "function", "id": "call_a",
             "function": {"name": "search", "arguments": "\"{\\\"query\\\": \\\"oak\\\"}\""}},
            {"type": "function", "id": "call_b",
             "function": {"name": "refund", "arguments": "{\"order_id\": \"ord_1\", \"amount_cents\": 5}"}}
        ]
    }))
    .expect("async-openai reads the message")
}

#[test]
fn every_call_of_a_message_in_order_as_the_wire_reader_reads_it() {
    let message = message();
    let calls = chat_tool_calls(&message)
        .into_calls()
        .expect("function calls only");
    let ids: Vec<Option<&str>> = calls.iter().map(|c| c.id.as_deref()).collect();
    assert_eq!(ids, [Some("call_a"), Some("call_b")]);
    // The same calls as toolargs' own reader of the wire format.
    let wire = serde_json::to_value(&message).unwrap();
    assert_eq!(
        calls,
        call::Reader::new()
            .format(WireFormat::OpenAiChat)
            .read_value(wire)
            .and_then(call::ReadCalls::into_calls)
            .expect("wire calls")
    );
    let toolbox = toolbox(Dialect::Canonical);
    let outputs: Vec<Value> = calls
        .into_iter()
        .map(|c| toolbox.call_blocking(&(), c).expect("runs").output)
        .collect();
    assert_eq!(
        outputs,
        [
            json!({"query": "oak", "tags": [], "limit": null}),
            json!({"order_id": "ord_1", "amount_cents": 5}),
        ]
    );
}

#[test]
fn a_message_without_tool_calls_has_none() {
    let message: ChatCompletionResponseMessage =
        serde_json::from_value(json!({"role": "assistant", "content": "done"})).unwrap();
    let read = chat_tool_calls(&message);
    assert_eq!(read.format, WireFormat::OpenAiChat);
    assert!(read.entries.is_empty());
}

#[test]
fn a_custom_tool_call_is_an_entry_of_its_own_not_dropped() {
    let message = ChatCompletionResponseMessage {
        tool_calls: Some(vec![
            ChatCompletionMessageToolCalls::Function(chat_call("call_a", "search", "{}")),
            ChatCompletionMessageToolCalls::Custom(ChatCompletionMessageCustomToolCall {
                id: "call_c".into(),
                custom_tool: CustomTool {
                    name: "shell".into(),
                    input: "ls -la".into(),
                },
            }),
        ]),
        ..ChatCompletionResponseMessage::default()
    };
    let read = chat_tool_calls(&message);
    let pointers: Vec<&str> = read.entries.iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(pointers, ["/tool_calls/0", "/tool_calls/1"]);
    let [good, custom] =
        <[_; 2]>::try_from(read.into_turn().expect("one turn")).expect("two entries");
    // The function call is kept beside the custom one.
    assert_eq!(good.expect("a function call").id.as_deref(), Some("call_a"));
    let custom = custom.expect_err("a custom call");
    assert_eq!(custom.format, WireFormat::OpenAiChat);
    assert_eq!(custom.entry, "/tool_calls/1");
    assert_eq!(custom.id.as_deref(), Some("call_c"));
    assert_eq!(custom.name.as_deref(), Some("shell"));
    assert_eq!(
        custom.reason,
        Unreadable::FreeForm {
            input: "ls -la".into()
        }
    );
    assert!(
        custom.model_message().contains("`shell`"),
        "{}",
        custom.model_message()
    );
}

#[test]
fn responses_function_calls_are_read_and_other_items_skipped() {
    let output: Vec<OutputItem> = serde_json::from_value(json!([
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_r1", "name": "search",
         "arguments": "{\"query\": \"Tom &amp; Jerry\", \"limit\": \"5\"}", "status": "completed"},
        {"type": "function_call", "id": "fc_2", "call_id": "call_r2", "name": "search",
         "arguments": "{\"query\": \"oak\", \"tags\": \"[\\\"ash\\\"]\"}"},
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_r3", "name": "shell",
         "input": "ls -la"}
    ]))
    .expect("async-openai reads the output");
    let entries = responses_tool_calls(&output);
    // Each entry as toolargs' own reader reads the same items.
    let wire = call::Reader::new()
        .format(WireFormat::OpenAiResponses)
        .read_value(serde_json::to_value(&output).unwrap())
        .expect("wire entries");
    assert_eq!(entries, wire);
    let entries = entries.into_turn().expect("one turn");
    let [refused, repaired, custom] = <[_; 3]>::try_from(entries).expect("three entries");
    let custom = custom.expect_err("a custom call");
    assert_eq!(
        (custom.entry.as_str(), custom.id.as_deref()),
        ("/3", Some("call_r3"))
    );
    let (refused, repaired) = (refused.expect("a call"), repaired.expect("a call"));
    assert_eq!(refused.id.as_deref(), Some("call_r1"));

    let toolbox = toolbox(Dialect::Canonical);
    let Err(CallError::Rejected(Rejection::InvalidArguments(invalid))) =
        toolbox.call_blocking(&(), refused)
    else {
        panic!("invalid arguments")
    };
    let pointers: Vec<&str> = invalid
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/limit"]);

    let done = toolbox
        .call_blocking(&(), repaired)
        .expect("repaired and run");
    assert_eq!(done.call_id.as_deref(), Some("call_r2"));
    assert_eq!(
        done.output,
        json!({"query": "oak", "tags": ["ash"], "limit": null})
    );
}

#[test]
fn a_responses_call_built_as_a_value_keeps_its_call_id_and_text() {
    let call = FunctionToolCall {
        call_id: "call_x".into(),
        name: "refund".into(),
        arguments: String::new(),
        id: Some("fc_x".into()),
        ..FunctionToolCall::default()
    };
    let read = responses_function_call(&call);
    assert_eq!(read.id.as_deref(), Some("call_x"));
    assert_eq!(read.arguments, Arguments::Text(String::new()));
    assert_eq!(read.format, WireFormat::OpenAiResponses);
    // No arguments at all: every required field is named.
    let Err(CallError::Rejected(Rejection::InvalidArguments(invalid))) =
        toolbox(Dialect::Canonical).call_blocking(&(), read)
    else {
        panic!("invalid arguments")
    };
    let pointers: Vec<&str> = invalid
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/order_id", "/amount_cents"]);
}

#[test]
fn a_strict_toolbox_takes_the_strict_form_of_a_call() {
    // In the strict dialect the model sends every field, `null` for an
    // absent optional one: the strict toolbox restores the declared form.
    let toolbox = toolbox(Dialect::OpenAiStrict);
    let call = chat_function_call(&chat_call(
        "call_s",
        "search",
        r#"{"query": "oak &amp; ash", "tags": [], "limit": null}"#,
    ));
    let done = toolbox.call_blocking(&(), call).expect("strict call runs");
    assert_eq!(
        done.output,
        json!({"query": "oak & ash", "tags": [], "limit": null})
    );
}

#[test]
fn each_outcome_answers_its_call_in_async_openais_message_types() {
    let toolbox = toolbox(Dialect::Canonical);
    let ran = toolbox.call_blocking(
        &(),
        chat_function_call(&chat_call("call_ok", "search", r#"{"query": "oak"}"#)),
    );
    let refused = toolbox.call_blocking(
        &(),
        chat_function_call(&chat_call("call_no", "search", r#"{"query": 5}"#)),
    );
    let refusal = refused.as_ref().expect_err("refused").model_message();
    assert!(refusal.contains("- /query: expected string"), "{refusal}");

    let messages: Vec<ChatCompletionRequestMessage> = vec![
        chat_tool_message("call_ok", &ran).into(),
        chat_tool_message("call_no", &refused).into(),
    ];
    assert_eq!(
        serde_json::to_value(&messages).unwrap(),
        json!([
            {"role": "tool", "tool_call_id": "call_ok",
             "content": r#"{"query":"oak","tags":[],"limit":null}"#},
            {"role": "tool", "tool_call_id": "call_no", "content": refusal},
        ])
    );

    let item = responses_function_call_output("call_no", &refused);
    assert_eq!(
        serde_json::to_value(InputItem::Item(Item::FunctionCallOutput(item))).unwrap(),
        json!({"type": "function_call_output", "call_id": "call_no", "output": refusal})
    );
}

#[test]
fn a_string_output_is_the_answer_itself() {
    let mut toolbox = Toolbox::new();
    toolbox
        .tool_sync("echo", "Echo the query.", |args: Search| {
            Ok::<_, String>(args.query)
        })
        .unwrap();
    let outcome = toolbox.call_blocking(
        &(),
        chat_function_call(&chat_call("c", "echo", r#"{"query": "a &lt; b"}"#)),
    );
    assert_eq!(answer_text(&outcome), "a < b");
}
