//! Every wire format a model's tool call arrives in, read into one
//! `ToolCall`, and the syntax rejections with their line and column; each
//! entry read on its own (a bad one never costs its neighbours), and what
//! "no arguments" means in every format.

use serde_json::json;
use toolargs::call::{
    Arguments, CallEntry, ReadCalls, Reader, ToolCall, Unreadable, UnreadableCall, WireFormat, read,
};
use toolargs::rejection::{CallError, Rejection, SyntaxKind};

fn one(text: &str) -> ToolCall {
    let mut calls = toolargs::call::read(text)
        .and_then(ReadCalls::into_calls)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
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
    let calls = toolargs::call::read(&message.to_string())
        .and_then(ReadCalls::into_calls)
        .unwrap();
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
    let calls = toolargs::call::read(&completion.to_string())
        .and_then(ReadCalls::into_calls)
        .unwrap();
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
    let calls = toolargs::call::read(&response.to_string())
        .and_then(ReadCalls::into_calls)
        .unwrap();
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
    let calls = toolargs::call::read(&message.to_string())
        .and_then(ReadCalls::into_calls)
        .unwrap();
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
    let calls = toolargs::call::read(&response.to_string())
        .and_then(ReadCalls::into_calls)
        .unwrap();
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

    let params = Reader::new()
        .format(WireFormat::McpToolsCall)
        .read(r#"{"name":"refund"}"#)
        .and_then(ReadCalls::into_calls)
        .unwrap();
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
    let error = toolargs::call::read("{\"name\": \"refund\",\n  \"arguments\": {\"a\": 1,}\n}")
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
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
    let error = Reader::new()
        .format(WireFormat::Anthropic)
        .read(r#"{"type":"tool_use","id":"t","input":{}}"#)
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(error.pointer.as_deref(), Some("/name"));
    assert_eq!(
        error.message,
        "expected `name` to be a string, found nothing"
    );

    let error = toolargs::call::read("[1, 2]")
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    let error = Reader::new()
        .format(WireFormat::OpenAiChat)
        .read(r#"{"type":"function","function":{"name":"x","arguments":5}}"#)
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
    assert_eq!(error.pointer.as_deref(), Some("/function/arguments"));
    assert_eq!(
        error.message,
        "expected `arguments` to be a string of JSON, found a number"
    );
}

// ----- each call on its own ---------------------------------------------

fn unreadable(entry: &CallEntry) -> &UnreadableCall {
    match &entry.call {
        Ok(call) => panic!("{}: read as {call:?}", entry.pointer),
        Err(unreadable) => unreadable,
    }
}

fn malformed(entry: &CallEntry) -> (&str, &str) {
    match &unreadable(entry).reason {
        Unreadable::Malformed { pointer, message } => (pointer.as_str(), message.as_str()),
        other => panic!("{}: {other:?}", entry.pointer),
    }
}

/// The outcome of each entry: the call's name, or the pointer of the
/// entry that could not be read.
fn outcomes(text: &str) -> Vec<Result<String, String>> {
    read(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .entries
        .into_iter()
        .map(|e| e.call.map(|c| c.name).map_err(|u| u.entry))
        .collect()
}

#[test]
fn one_malformed_tool_call_never_costs_its_neighbours() {
    let message = json!({"role": "assistant", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "one", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"arguments": "{}"}},
        5,
        {"id": "d", "type": "retrieval", "retrieval": {}},
        {"id": "e", "type": "function", "function": {"name": "two", "arguments": 7}},
        {"id": "f", "type": "function", "function": {"name": "three", "arguments": "{}"}}
    ]})
    .to_string();
    assert_eq!(
        outcomes(&message),
        [
            Ok("one".into()),
            Err("/tool_calls/1".into()),
            Err("/tool_calls/2".into()),
            Err("/tool_calls/3".into()),
            Err("/tool_calls/4".into()),
            Ok("three".into()),
        ]
    );
    let read = read(&message).unwrap();
    let missing_name = unreadable(&read.entries[1]);
    // Its id is kept, so the application can answer it.
    assert_eq!(missing_name.id.as_deref(), Some("b"));
    assert_eq!(missing_name.name, None);
    assert_eq!(
        malformed(&read.entries[1]),
        (
            "/tool_calls/1/function/name",
            "expected `name` to be a string, found nothing"
        )
    );
    assert_eq!(
        missing_name.raw,
        json!({"id": "b", "type": "function", "function": {"arguments": "{}"}})
    );
    assert_eq!(
        malformed(&read.entries[2]),
        (
            "/tool_calls/2",
            "expected a tool call object, found a number"
        )
    );
    assert_eq!(read.entries[2].call.as_ref().unwrap_err().raw, json!(5));
    assert_eq!(malformed(&read.entries[3]).0, "/tool_calls/3/type");
    let wrong_arguments = unreadable(&read.entries[4]);
    assert_eq!(wrong_arguments.name.as_deref(), Some("two"));
    assert_eq!(
        malformed(&read.entries[4]),
        (
            "/tool_calls/4/function/arguments",
            "expected `arguments` to be a string of JSON, found a number"
        )
    );

    // `into_calls` is all or nothing, and says which entry failed first.
    let error = toolargs::call::read(&message)
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(
        error.pointer.as_deref(),
        Some("/tool_calls/1/function/name")
    );
}

#[test]
fn each_format_keeps_the_good_calls_beside_a_bad_one() {
    let cases = [
        (
            json!({"output": [
                {"type": "function_call", "call_id": "c1", "name": "one", "arguments": "{}"},
                {"call_id": "c2", "name": "two", "arguments": "{}"},
                {"type": "function_call", "call_id": "c3", "name": "three", "arguments": "{}"}
            ]}),
            "/output/1",
        ),
        (
            json!({"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "one", "input": {}},
                {"type": "tool_use", "id": "t2", "name": 2, "input": {}},
                {"type": "tool_use", "id": "t3", "name": "three", "input": {}}
            ]}),
            "/content/1",
        ),
        (
            json!({"role": "model", "parts": [
                {"functionCall": {"name": "one", "args": {}}},
                {"function_call": {"args": {}}},
                {"function_call": {"name": "three", "args": {}}}
            ]}),
            "/parts/1",
        ),
        (
            json!([
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "one"}},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": []},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "three"}}
            ]),
            "/1",
        ),
    ];
    for (envelope, bad) in cases {
        assert_eq!(
            outcomes(&envelope.to_string()),
            [Ok("one".into()), Err(bad.into()), Ok("three".into())],
            "{envelope}"
        );
    }
}

#[test]
fn transcripts_hold_messages_beside_calls() {
    // A Responses input list as an application grows it: its own message
    // (no `type`), the response's output items, then the call's output.
    let responses = json!([
        {"role": "user", "content": "Refund order ord_8f2k1x9q"},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "call_1", "name": "refund", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "done"}
    ]);
    assert_eq!(outcomes(&responses.to_string()), [Ok("refund".into())]);
    // A chat transcript: system, user, the assistant's calls, a tool answer.
    let chat = json!([
        {"role": "system", "content": "You refund orders."},
        {"role": "user", "content": "Refund order ord_8f2k1x9q"},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "refund", "arguments": "{}"}}
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "done"}
    ]);
    let read = read(&chat.to_string()).unwrap();
    assert_eq!(read.format, WireFormat::OpenAiChat);
    assert_eq!(read.entries[0].pointer, "/2/tool_calls/0");
    // An Anthropic transcript: text turns, the call, its result.
    let anthropic = json!([
        {"role": "user", "content": "Refund order ord_8f2k1x9q"},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {}}
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "done"}
        ]},
        {"role": "assistant", "content": "Refunded."}
    ]);
    assert_eq!(outcomes(&anthropic.to_string()), [Ok("refund".into())]);
}

#[test]
fn an_unreadable_call_can_be_answered_and_stored() {
    let text = r#"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_9","input":{}}]}"#;
    let read = read(text).unwrap();
    let unreadable = read.entries[0].call.clone().unwrap_err();
    assert_eq!(
        unreadable.to_string(),
        "cannot read the Anthropic tool call at `/content/0`: at `/content/0/name`: expected `name` to be a string, found nothing"
    );
    assert_eq!(
        unreadable.model_message(),
        "The tool call is malformed at `/content/0/name`: expected `name` to be a string, found nothing. Send it again with a `name` and an arguments object."
    );
    // Stored in history as structured data.
    assert_eq!(
        serde_json::to_value(&read.entries[0]).unwrap(),
        json!({
            "pointer": "/content/0",
            "choice": null,
            "unreadable": {
                "format": "anthropic",
                "entry": "/content/0",
                "id": "toolu_9",
                "name": null,
                "reason": {
                    "kind": "malformed",
                    "pointer": "/content/0/name",
                    "message": "expected `name` to be a string, found nothing"
                },
                "raw": {"type": "tool_use", "id": "toolu_9", "input": {}}
            }
        })
    );
    // Reported through the toolbox's error types, as a parse rejection.
    let error = CallError::from(toolargs::rejection::SyntaxError::from(unreadable));
    let CallError::Rejected(Rejection::Syntax(syntax)) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(syntax.pointer.as_deref(), Some("/content/0/name"));

    let good = Reader::new()
        .format(WireFormat::Anthropic)
        .read(r#"[{"type":"tool_use","id":"t","name":"x","input":{}}]"#)
        .unwrap();
    assert_eq!(
        serde_json::to_value(&good).unwrap()["entries"][0]["call"]["name"],
        "x"
    );
}

#[test]
fn a_completion_with_one_choice_is_one_turn() {
    let completion = json!({"choices": [{"index": 0, "message": {"role": "assistant",
    "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "one", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "two", "arguments": "{}"}}
    ]}}]});
    let read = read(&completion.to_string()).unwrap();
    assert_eq!(read.choices(), [Some(0)]);
    let turn = read.into_turn().unwrap();
    assert_eq!(turn.len(), 2);
    assert!(turn.iter().all(Result::is_ok));
    // A second choice that answered with text adds no entry: still one turn.
    let with_text = json!({"choices": [
        completion["choices"][0].clone(),
        {"index": 1, "message": {"role": "assistant", "content": "No refund needed."}}
    ]});
    assert_eq!(
        toolargs::call::read(&with_text.to_string())
            .and_then(ReadCalls::into_calls)
            .unwrap()
            .len(),
        2
    );
    // A choice's message is a message, with or without its `role`.
    let bare =
        toolargs::call::read(r#"{"choices":[{"index":0,"message":{"content":"hi"}}]}"#).unwrap();
    assert!(bare.entries.is_empty(), "{:?}", bare.entries);
}

#[test]
fn openai_deprecated_function_call_message_is_read() {
    let message = r#"{"role":"assistant","content":null,"function_call":{"name":"refund","arguments":"{\"amount_cents\":20}"}}"#;
    let read = read(message).unwrap();
    assert_eq!(read.format, WireFormat::OpenAiChat);
    assert_eq!(read.entries[0].pointer, "/function_call");
    let call = read.entries[0].call.clone().unwrap();
    assert_eq!(args(call), json!({"amount_cents": 20}));
}

#[test]
fn a_gemini_part_with_both_spellings_is_ambiguous() {
    let part = r#"{"functionCall":{"name":"a","args":{}},"function_call":{"name":"b","args":{}}}"#;
    let read = read(part).unwrap();
    assert_eq!(read.entries.len(), 1);
    assert!(
        malformed(&read.entries[0]).1.contains("both"),
        "{:?}",
        read.entries[0]
    );
    // `null` under one spelling is no call, so the other one is read.
    let calls =
        toolargs::call::read(r#"{"functionCall":null,"function_call":{"name":"b","args":{}}}"#)
            .and_then(ReadCalls::into_calls)
            .unwrap();
    assert_eq!(calls[0].name, "b");
}

#[test]
fn a_value_that_is_no_envelope_is_a_syntax_error() {
    let error = Reader::new()
        .format(WireFormat::Plain)
        .read("5")
        .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(error.pointer.as_deref(), Some(""));
    // Something that is neither a call nor a message stays a shape error
    // (a turn of text alone holds no call: see below).
    let error = read(r#"{"nme":"x","arguments":{}}"#).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    // In a known format, a message without calls is no entries, not an
    // error.
    let read = Reader::new()
        .format(WireFormat::Anthropic)
        .read(r#"{"role":"assistant","content":"hi"}"#)
        .unwrap();
    assert!(read.entries.is_empty());
}

// ----- what "no arguments" means -------------------------------------------

#[test]
fn absent_null_and_json_whitespace_text_are_no_arguments_in_every_format() {
    let no_arguments = [
        // OpenAI Chat: the arguments are JSON text.
        r#"{"type":"function","function":{"name":"f"}}"#,
        r#"{"type":"function","function":{"name":"f","arguments":null}}"#,
        r#"{"type":"function","function":{"name":"f","arguments":""}}"#,
        r#"{"type":"function","function":{"name":"f","arguments":" \t\r\n"}}"#,
        // OpenAI Responses.
        r#"{"type":"function_call","call_id":"c","name":"f"}"#,
        r#"{"type":"function_call","call_id":"c","name":"f","arguments":null}"#,
        r#"{"type":"function_call","call_id":"c","name":"f","arguments":"\n"}"#,
        // Anthropic: a JSON value.
        r#"{"type":"tool_use","id":"t","name":"f"}"#,
        r#"{"type":"tool_use","id":"t","name":"f","input":null}"#,
        r#"{"type":"tool_use","id":"t","name":"f","input":""}"#,
        // Gemini, both spellings.
        r#"{"functionCall":{"name":"f"}}"#,
        r#"{"functionCall":{"name":"f","args":null}}"#,
        r#"{"function_call":{"name":"f","args":" "}}"#,
        // MCP, request and params.
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":null}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":""}}"#,
        // Plain.
        r#"{"name":"f"}"#,
        r#"{"name":"f","arguments":null}"#,
        r#"{"name":"f","arguments":"\r\n"}"#,
    ];
    for text in no_arguments {
        let call = one(text);
        assert_eq!(call.arguments.into_value(128).unwrap(), json!({}), "{text}");
    }
    // A value an application builds itself is taken as it is: `null`
    // there is a wrong type for validation to report.
    assert_eq!(
        ToolCall::new("f", serde_json::Value::Null)
            .arguments
            .into_value(128)
            .unwrap(),
        serde_json::Value::Null
    );
}

#[test]
fn unicode_whitespace_is_not_json_whitespace() {
    // U+00A0 and U+3000 are whitespace to `str::trim`, not to JSON: as
    // text they are a syntax error, not "no arguments".
    let call = one(r#"{"type":"function","function":{"name":"f","arguments":"\u00a0\u3000"}}"#);
    assert_eq!(call.arguments, Arguments::Text("\u{a0}\u{3000}".into()));
    let error = call.arguments.into_value(128).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Arguments);
    assert_eq!((error.line, error.column), (Some(1), Some(1)));
    // Where a format sends a value, such a string is not `{}` either: it
    // goes on to normalization and validation as sent.
    let call = one(r#"{"type":"tool_use","id":"t","name":"f","input":"\u00a0"}"#);
    assert_eq!(call.arguments.into_value(128).unwrap(), json!("\u{a0}"));
    // Other non-object values go on as sent too.
    let call = one(r#"{"name":"f","arguments":[1]}"#);
    assert_eq!(call.arguments.into_value(128).unwrap(), json!([1]));
}

#[test]
fn mcp_request_id_numbers_keep_their_json_text() {
    for (id, expected) in [
        (json!(7), "7"),
        (json!(-3), "-3"),
        (json!(2.5), "2.5"),
        (json!("abc"), "abc"),
    ] {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "refund", "arguments": {}}});
        assert_eq!(one(&request.to_string()).id.as_deref(), Some(expected));
    }
    let request =
        r#"{"jsonrpc":"2.0","id":{"x":1},"method":"tools/call","params":{"name":"refund"}}"#;
    let read = read(request).unwrap();
    assert_eq!(malformed(&read.entries[0]).0, "/id");
}

// ----- turns without calls --------------------------------------------------

#[test]
fn a_turn_of_text_alone_holds_no_call() {
    let text_only = [
        // OpenAI Chat: text content, as a string or a list of parts.
        r#"{"role":"assistant","content":"Hello"}"#,
        r#"{"role":"assistant","content":[{"type":"text","text":"Hello"}]}"#,
        r#"{"role":"assistant","content":null,"refusal":"no"}"#,
        // Anthropic: a message of text blocks.
        r#"{"role":"assistant","content":[{"type":"text","text":"hi"}]}"#,
        // OpenAI Responses: a message item.
        r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}"#,
        // A transcript of such messages, of either kind.
        r#"[{"role":"user","content":"hi"},{"role":"assistant","content":"Hello"}]"#,
        r#"[{"role":"user","content":"hi"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}]"#,
        // A completion whose choices hold text alone.
        r#"{"id":"c","choices":[{"index":0,"message":{"role":"assistant","content":"Hello"}},{"index":1,"message":{"role":"assistant","content":[{"type":"text","text":"Hi"}]}}]}"#,
    ];
    for text in text_only {
        let read = read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(read.entries.is_empty(), "{text}: {:?}", read.entries);
        // All or nothing, "holds no call" is still refused.
        assert!(
            toolargs::call::read(text)
                .and_then(ReadCalls::into_calls)
                .is_err(),
            "{text}"
        );
    }
    // Neither a call nor a message: still not a tool call.
    for text in [
        r#"{"nme":"x","arguments":{}}"#,
        r#"{"role":"assistant"}"#,
        r#"{"role":"assistant","content":5}"#,
        r#"{"role":"assistant","content":[1]}"#,
        r#"[{"role":"user","content":"hi"},{"nme":"x"}]"#,
        "[]",
    ] {
        let error = read(text).unwrap_err();
        assert_eq!(error.kind, SyntaxKind::Shape, "{text}");
    }
}

// ----- ids as sent ------------------------------------------------------------

#[test]
fn number_ids_keep_their_json_text_as_sent() {
    let ids = [
        "100000000000000000000",
        "-9223372036854775809",
        "18446744073709551616",
        "1.0",
        "1e3",
        "-0",
        "2.50",
        "7",
    ];
    for id in ids {
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"refund","arguments":{{}}}}}}"#
        );
        assert_eq!(one(&request).id.as_deref(), Some(id), "{request}");
        // In a batch, each request keeps its own.
        let batch = format!(
            r#"[{request}, {{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{{"name":"b"}}}}, {request}]"#
        );
        let calls = Reader::new()
            .format(WireFormat::McpToolsCall)
            .read(&batch)
            .and_then(ReadCalls::into_calls)
            .unwrap();
        let got: Vec<_> = calls.iter().map(|c| c.id.as_deref()).collect();
        assert_eq!(got, [Some(id), Some("s"), Some(id)]);
        // An unreadable request still says its id as sent.
        let broken =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{}}}}"#);
        let read = read(&broken).unwrap();
        assert_eq!(unreadable(&read.entries[0]).id.as_deref(), Some(id));
    }
    // Every format that takes a number id takes it as sent; escaped and
    // repeated keys are read as the parser reads them.
    for (text, id) in [
        (
            r#"{"type":"tool_use","id":1E2,"name":"f","input":{"id":3}}"#,
            "1E2",
        ),
        (
            r#"{"functionCall":{"name":"f","args":{},"id":-0.0}}"#,
            "-0.0",
        ),
        (
            r#"{"type":"function_call","call_id":12345678901234567890123,"name":"f"}"#,
            "12345678901234567890123",
        ),
        (r#"{"name":"f","\u0069d":1.000,"arguments":{}}"#, "1.000"),
        (r#"{"name":"f","id":1.5,"id":2.50}"#, "2.50"),
        (
            r#"{"role":"assistant","tool_calls":[{"id":1e1,"function":{"name":"f"}}]}"#,
            "1e1",
        ),
    ] {
        assert_eq!(one(text).id.as_deref(), Some(id), "{text}");
    }
    // A value parsed by the application no longer knows how its numbers
    // were written.
    let value: serde_json::Value = serde_json::from_str(
        r#"{"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{"name":"f"}}"#,
    )
    .unwrap();
    let read = Reader::new()
        .format(WireFormat::McpToolsCall)
        .read_value(value)
        .unwrap();
    assert_eq!(read.calls().next().unwrap().id.as_deref(), Some("1000.0"));
}

// ----- depth ------------------------------------------------------------------

/// An object nested `levels` deep: `{"a":{"a":...{}}}`.
fn nested(levels: usize) -> String {
    format!(
        "{}{{}}{}",
        r#"{"a":"#.repeat(levels - 1),
        "}".repeat(levels - 1)
    )
}

#[test]
fn arguments_are_held_to_the_callers_depth_whatever_the_format() {
    let deep = nested(200);
    assert_eq!(
        toolargs::json::read(&deep, 199).unwrap_err().message,
        "JSON nests 200 levels deep, more than the limit of 199"
    );
    let anthropic = format!(
        r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"t","name":"f","input":{deep}}}]}}"#
    );
    let gemini = format!(
        r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"name":"f","args":{deep}}}}}]}}}}]}}"#
    );
    let mcp = format!(
        r#"[{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"f","arguments":{deep}}}}}]"#
    );
    let openai = format!(
        r#"{{"role":"assistant","tool_calls":[{{"id":"c","type":"function","function":{{"name":"f","arguments":{}}}}}]}}"#,
        serde_json::Value::String(deep.clone())
    );
    for text in [&anthropic, &gemini, &mcp, &openai] {
        // Room for 1000 levels of arguments: read, and parsed, whole.
        let wide = Reader::new()
            .max_depth(1000)
            .read(text)
            .unwrap_or_else(|e| panic!("{e}"));
        let call = wide.calls().next().unwrap().clone();
        let value = call.arguments.into_value(1000).unwrap();
        assert_eq!(value, toolargs::json::read(&deep, 1000).unwrap());
        // With the default, the call is read and its arguments refused as
        // text nested too deep is, in every format alike.
        let narrow = read(text).unwrap_or_else(|e| panic!("{e}"));
        let call = narrow.calls().next().unwrap().clone();
        let error = call.arguments.into_value(128).unwrap_err();
        assert_eq!(error.kind, SyntaxKind::Arguments, "{text:.60}");
        assert_eq!(
            error.message,
            "arguments nest 200 levels deep, more than the limit of 128"
        );
        // Valid JSON, only too deep: neither called invalid JSON nor given
        // a position it does not have.
        assert_eq!(
            error.to_string(),
            "tool call arguments could not be read: arguments nest 200 levels deep, more than \
             the limit of 128"
        );
        assert_eq!(
            error.model_message(),
            "The tool call's arguments could not be read (arguments nest 200 levels deep, more \
             than the limit of 128). Send the arguments again as one JSON object."
        );
    }
    // A value within the reader's limit but past the toolbox's is refused
    // the same way as text.
    let wide = Reader::new().max_depth(1000).read(&anthropic).unwrap();
    let call = wide.calls().next().unwrap().clone();
    let error = call.arguments.into_value(150).unwrap_err();
    assert_eq!(
        (error.kind, error.message.as_str()),
        (
            SyntaxKind::Arguments,
            "arguments nest 200 levels deep, more than the limit of 150"
        )
    );
    // Beside a too-deep call, a shallow one is read as it came.
    let two = format!(
        r#"[{{"type":"tool_use","id":"a","name":"f","input":{deep}}},{{"type":"tool_use","id":"b","name":"g","input":{{"x":[1]}}}}]"#
    );
    let both = read(&two).unwrap();
    let calls: Vec<_> = both.calls().collect();
    assert!(matches!(&calls[0].arguments, Arguments::Text(t) if *t == deep));
    assert_eq!(calls[1].arguments, Arguments::Value(json!({"x": [1]})));
    // A list too deep to be built is still a list where OpenAI wants text.
    let list = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let chat = format!(
        r#"{{"tool_calls":[{{"id":"c","type":"function","function":{{"name":"f","arguments":{list}}}}}]}}"#
    );
    for reading in [
        read(&chat).unwrap(),
        Reader::new().max_depth(1000).read(&chat).unwrap(),
    ] {
        assert_eq!(
            malformed(&reading.entries[0]),
            (
                "/tool_calls/0/function/arguments",
                "expected `arguments` to be a string of JSON, found a list"
            )
        );
    }
    // The envelope's own levels have their limit still.
    let lists = format!(
        "{}{}{}",
        "[".repeat(200),
        r#"{"name":"f"}"#,
        "]".repeat(200)
    );
    let error = read(&lists).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Envelope);
    assert_eq!(
        error.message,
        "the call nests 201 levels deep, more than the limit of 128"
    );
    assert_eq!(
        error.model_message(),
        "The tool call could not be read (the call nests 201 levels deep, more than the limit \
         of 128). Send the call again as valid JSON."
    );
    // A deep argument value that is not JSON is a syntax error of the
    // envelope, at its place.
    let broken = format!(
        r#"{{"type":"tool_use","name":"f","input":{}1,]}}"#,
        "[".repeat(300)
    );
    let error = read(&broken).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Envelope);
    assert_eq!(error.column, Some(38 + 300 + 3));
}

// ----- lone surrogates ---------------------------------------------------------

#[test]
fn a_lone_surrogate_escape_is_named_at_its_place() {
    for (text, line, column, escape) in [
        (
            r#"{"name":"f","arguments":{"a":"x\ud800"}}"#,
            1,
            32,
            r"\uD800",
        ),
        (
            r#"{"name":"f","arguments":{"a":"x\ud800y"}}"#,
            1,
            32,
            r"\uD800",
        ),
        (
            r#"{"name":"f","arguments":{"a":"x\ud800\u0041"}}"#,
            1,
            32,
            r"\uD800",
        ),
        (
            r#"{"name":"f","arguments":{"a":"\\\udc00"}}"#,
            1,
            33,
            r"\uDC00",
        ),
        ("{\n  \"name\": \"f\\uDBFF\\n\"}", 2, 13, r"\uDBFF"),
        // serde_json stops at the raw line break after it, on the next line.
        ("{\"name\":\"\\ud800\n\"}", 1, 10, r"\uD800"),
        (r#"{"name":"\ud83d\ude00","a":"\ud800"}"#, 1, 29, r"\uD800"),
    ] {
        let error = read(text).unwrap_err();
        assert_eq!(error.kind, SyntaxKind::Envelope, "{text}");
        assert_eq!(error.message, format!("lone surrogate {escape}"), "{text}");
        assert_eq!(
            (error.line, error.column),
            (Some(line), Some(column)),
            "{text}"
        );
    }
    // In arguments sent as text, too.
    let call =
        one(r#"{"type":"function","function":{"name":"f","arguments":"{\"a\": \"\\ud800\"}"}}"#);
    let error = call.arguments.into_value(128).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Arguments);
    assert_eq!(error.message, r"lone surrogate \uD800");
    assert_eq!((error.line, error.column), (Some(1), Some(8)));
    // A pair is no error.
    assert_eq!(one(r#"{"name":"\ud83d\ude00"}"#).name, "\u{1f600}");
}

/// One reader for every way of reading: a format and a depth limit
/// together, and a parsed value whose format is detected.
#[test]
fn a_reader_takes_a_format_a_depth_and_a_value() {
    let text = r#"{"type":"tool_use","id":"toolu_1","name":"refund","input":{"a":{"b":1}}}"#;
    let narrow = Reader::new()
        .format(WireFormat::Anthropic)
        .max_depth(1)
        .read(text)
        .unwrap();
    let call = narrow.into_calls().unwrap().remove(0);
    assert_eq!(call.arguments, Arguments::Text(r#"{"a":{"b":1}}"#.into()));
    assert_eq!(call.format, WireFormat::Anthropic);

    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let read = Reader::new().read_value(value.clone()).unwrap();
    assert_eq!(read.format, WireFormat::Anthropic);
    let from_text = toolargs::call::read(text).unwrap().into_calls().unwrap();
    assert_eq!(read.into_calls().unwrap(), from_text);
    let error = Reader::new()
        .read_value(json!({"nme": "refund"}))
        .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(Reader::default(), Reader::new());
}
