//! Every wire format a model's tool call arrives in, read into one
//! `ToolCall`, and the syntax rejections with their line and column.

use serde_json::json;
use toolargs::call::{Arguments, ToolCall, WireFormat, parse, parse_as};
use toolargs::rejection::SyntaxKind;

fn one(text: &str) -> ToolCall {
    let mut calls = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(calls.len(), 1, "{calls:?}");
    calls.remove(0)
}

fn args(call: ToolCall) -> serde_json::Value {
    call.arguments.into_value(128).unwrap()
}

#[test]
fn openai_chat_tool_call_with_arguments_as_json_text() {
    let call = one(
        r#"{"id":"call_1","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"ord_1\"}"}}"#,
    );
    assert_eq!(call.format, WireFormat::OpenAiChat);
    assert_eq!(call.id.as_deref(), Some("call_1"));
    assert_eq!(call.name, "refund");
    assert_eq!(
        call.arguments,
        Arguments::Text("{\"order_id\":\"ord_1\"}".into())
    );
    assert_eq!(args(call), json!({"order_id": "ord_1"}));
}

#[test]
fn openai_chat_message_and_completion_yield_every_call() {
    let message = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "one", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "two", "arguments": ""}}
        ]
    });
    let calls = parse(&message.to_string()).unwrap();
    assert_eq!(
        calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["one", "two"]
    );
    // An empty arguments text is a call without arguments.
    assert_eq!(
        calls[1].arguments.clone().into_value(128).unwrap(),
        json!({})
    );

    let completion = json!({"id": "chatcmpl-1", "choices": [{"index": 0, "message": message}]});
    let calls = parse(&completion.to_string()).unwrap();
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.format == WireFormat::OpenAiChat));
}

#[test]
fn openai_responses_function_call_items() {
    let call = one(
        r#"{"type":"function_call","id":"fc_1","call_id":"call_9","name":"refund","arguments":"{\"amount_cents\":20}"}"#,
    );
    assert_eq!(call.format, WireFormat::OpenAiResponses);
    assert_eq!(call.id.as_deref(), Some("call_9"));
    assert_eq!(args(call), json!({"amount_cents": 20}));

    let response = json!({"output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "message", "content": [{"type": "output_text", "text": "Refunding."}]},
        {"type": "function_call", "call_id": "call_2", "name": "refund", "arguments": "{}"}
    ]});
    let calls = parse(&response.to_string()).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].id.as_deref(), Some("call_2"));
}

#[test]
fn anthropic_tool_use_blocks() {
    let call =
        one(r#"{"type":"tool_use","id":"toolu_1","name":"refund","input":{"amount_cents":20}}"#);
    assert_eq!(call.format, WireFormat::Anthropic);
    assert_eq!(call.id.as_deref(), Some("toolu_1"));
    assert_eq!(
        call.arguments,
        Arguments::Value(json!({"amount_cents": 20}))
    );

    let message = json!({"role": "assistant", "content": [
        {"type": "text", "text": "Let me do that."},
        {"type": "tool_use", "id": "toolu_2", "name": "lookup", "input": {"q": "x"}},
        {"type": "tool_use", "id": "toolu_3", "name": "refund", "input": {}}
    ]});
    let calls = parse(&message.to_string()).unwrap();
    assert_eq!(
        calls
            .iter()
            .map(|c| c.id.as_deref().unwrap())
            .collect::<Vec<_>>(),
        ["toolu_2", "toolu_3"]
    );
}

#[test]
fn gemini_function_calls() {
    let call = one(r#"{"functionCall":{"name":"refund","args":{"amount_cents":20}}}"#);
    assert_eq!(call.format, WireFormat::Gemini);
    assert_eq!(
        call.arguments,
        Arguments::Value(json!({"amount_cents": 20}))
    );

    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Sure."},
        {"functionCall": {"id": "g1", "name": "refund", "args": {"order_id": "ord_1"}}}
    ]}}]});
    let calls = parse(&response.to_string()).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].id.as_deref(), Some("g1"));
    assert_eq!(calls[0].format, WireFormat::Gemini);
}

#[test]
fn mcp_tools_call_params_and_request() {
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "refund", "arguments": {"amount_cents": 20}}});
    let call = one(&request.to_string());
    assert_eq!(call.format, WireFormat::McpToolsCall);
    assert_eq!(call.name, "refund");
    assert_eq!(
        call.arguments,
        Arguments::Value(json!({"amount_cents": 20}))
    );

    let params = parse_as(WireFormat::McpToolsCall, r#"{"name":"refund"}"#).unwrap();
    assert_eq!(params[0].arguments, Arguments::Value(json!({})));
}

#[test]
fn plain_name_and_arguments() {
    let call = one(
        r#"{"name":"refund","arguments":{"order_id":"ord_x","amount_cents":"20","force":true}}"#,
    );
    assert_eq!(call.format, WireFormat::Plain);
    assert_eq!(
        call.arguments,
        Arguments::Value(json!({"order_id": "ord_x", "amount_cents": "20", "force": true}))
    );
    // A string of a JSON object stays a string here: normalization's root
    // rule decodes it against the tool's object schema.
    let call = one(r#"{"name":"refund","arguments":"{\"amount_cents\":20}"}"#);
    assert_eq!(
        call.arguments,
        Arguments::Value(json!("{\"amount_cents\":20}"))
    );
}

#[test]
fn envelope_that_is_not_json_reports_line_and_column() {
    let error = parse("{\"name\": \"refund\",\n  \"arguments\": {\"a\": 1,}\n}").unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Envelope);
    assert_eq!((error.line, error.column), (Some(2), Some(24)));
    assert_eq!(error.message, "trailing comma");
    assert_eq!(
        error.model_message(),
        "The tool call is not valid JSON (line 2, column 24, trailing comma). Send the call again as valid JSON."
    );
}

#[test]
fn arguments_text_that_is_not_json_reports_line_and_column() {
    let call = one(
        r#"{"type":"function","function":{"name":"refund","arguments":"{\"order_id\": \"ord_1\""}}"#,
    );
    let error = call.arguments.into_value(128).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Arguments);
    assert_eq!((error.line, error.column), (Some(1), Some(20)));
    assert_eq!(error.message, "EOF while parsing an object");
    assert!(
        error
            .model_message()
            .starts_with("The tool call's arguments are not valid JSON (line 1, column 20")
    );
}

#[test]
fn json_that_is_not_a_call_names_the_member() {
    let error = parse_as(
        WireFormat::Anthropic,
        r#"{"type":"tool_use","id":"t","input":{}}"#,
    )
    .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(error.pointer.as_deref(), Some("/name"));
    assert_eq!(
        error.message,
        "expected `name` to be a string, found nothing"
    );

    let error = parse("[1, 2]").unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    let error = parse_as(
        WireFormat::OpenAiChat,
        r#"{"type":"function","function":{"name":"x","arguments":5}}"#,
    )
    .unwrap_err();
    assert_eq!(error.pointer.as_deref(), Some("/function/arguments"));
    assert_eq!(
        error.message,
        "expected `arguments` to be a string of JSON, found a number"
    );
}
