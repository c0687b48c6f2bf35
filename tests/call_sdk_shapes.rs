//! The calls that SDKs really produce, read from the JSON their own
//! serializers write: each constant below was written by the SDK type and
//! method its comment names (Python SDKs; the versions are in the
//! comments), byte for byte. A call an application holds is usually one of
//! these dumps (logged, queued, stored in history), not the provider's raw
//! HTTP body.

use serde_json::{Value, json};
use toolargs::call::{
    Arguments, CallEntry, ReadCalls, SeveralChoices, ToolCall, Unreadable, UnreadableCall,
    WireFormat,
};
use toolargs::rejection::SyntaxKind;

/// google-genai 3.6: `types.Part(function_call=FunctionCall(id=.., name=.., args=..),
/// thought_signature=b"sig").model_dump_json()`: snake_case, every unset member `null`.
const GEMINI_PART_DUMP: &str = r#"{"media_resolution":null,"code_execution_result":null,"executable_code":null,"file_data":null,"function_call":{"id":"call_1","args":{"order_id":"ord_8f2k1x9q","amount_cents":2500},"name":"refund","partial_args":null,"will_continue":null},"function_response":null,"inline_data":null,"text":null,"thought":null,"thought_signature":"c2ln","video_metadata":null,"tool_call":null,"tool_response":null,"part_metadata":null,"audio_transcription":null,"media_processing":null,"speech_metadata":null,"document_metadata":null,"spreadsheet_metadata":null,"audio_metadata":null}"#;

/// The same part, `json.dumps(part.to_json_dict())`: snake_case, unset members left out.
const GEMINI_PART_TO_JSON_DICT: &str = r#"{"function_call": {"id": "call_1", "args": {"order_id": "ord_8f2k1x9q", "amount_cents": 2500}, "name": "refund"}, "thought_signature": "c2ln"}"#;

/// `types.Content(role="model", parts=[Part(text=..), <the part above>]).model_dump_json()`.
const GEMINI_CONTENT_DUMP: &str = r#"{"parts":[{"media_resolution":null,"code_execution_result":null,"executable_code":null,"file_data":null,"function_call":null,"function_response":null,"inline_data":null,"text":"Refunding.","thought":null,"thought_signature":null,"video_metadata":null,"tool_call":null,"tool_response":null,"part_metadata":null,"audio_transcription":null,"media_processing":null,"speech_metadata":null,"document_metadata":null,"spreadsheet_metadata":null,"audio_metadata":null},{"media_resolution":null,"code_execution_result":null,"executable_code":null,"file_data":null,"function_call":{"id":"call_1","args":{"order_id":"ord_8f2k1x9q","amount_cents":2500},"name":"refund","partial_args":null,"will_continue":null},"function_response":null,"inline_data":null,"text":null,"thought":null,"thought_signature":"c2ln","video_metadata":null,"tool_call":null,"tool_response":null,"part_metadata":null,"audio_transcription":null,"media_processing":null,"speech_metadata":null,"document_metadata":null,"spreadsheet_metadata":null,"audio_metadata":null}],"role":"model"}"#;

/// The same content, `json.dumps(content.to_json_dict())`.
const GEMINI_CONTENT_TO_JSON_DICT: &str = r#"{"parts": [{"text": "Refunding."}, {"function_call": {"id": "call_1", "args": {"order_id": "ord_8f2k1x9q", "amount_cents": 2500}, "name": "refund"}, "thought_signature": "c2ln"}], "role": "model"}"#;

/// `types.GenerateContentResponse(candidates=[Candidate(content=<the content above>,
/// finish_reason="STOP", index=0)], model_version=..).model_dump_json()`.
const GEMINI_RESPONSE_DUMP: &str = r#"{"sdk_http_response":null,"candidates":[{"content":{"parts":[{"media_resolution":null,"code_execution_result":null,"executable_code":null,"file_data":null,"function_call":null,"function_response":null,"inline_data":null,"text":"Refunding.","thought":null,"thought_signature":null,"video_metadata":null,"tool_call":null,"tool_response":null,"part_metadata":null,"audio_transcription":null,"media_processing":null,"speech_metadata":null,"document_metadata":null,"spreadsheet_metadata":null,"audio_metadata":null},{"media_resolution":null,"code_execution_result":null,"executable_code":null,"file_data":null,"function_call":{"id":"call_1","args":{"order_id":"ord_8f2k1x9q","amount_cents":2500},"name":"refund","partial_args":null,"will_continue":null},"function_response":null,"inline_data":null,"text":null,"thought":null,"thought_signature":"c2ln","video_metadata":null,"tool_call":null,"tool_response":null,"part_metadata":null,"audio_transcription":null,"media_processing":null,"speech_metadata":null,"document_metadata":null,"spreadsheet_metadata":null,"audio_metadata":null}],"role":"model"},"citation_metadata":null,"finish_message":null,"token_count":null,"finish_reason":"STOP","grounding_metadata":null,"avg_logprobs":null,"index":0,"logprobs_result":null,"safety_ratings":null,"url_context_metadata":null,"continuation_token":null}],"create_time":null,"model_version":"gemini-2.5-flash","prompt_feedback":null,"response_id":null,"usage_metadata":null,"model_status":null,"automatic_function_calling_history":null,"parsed":null}"#;

/// The same response, `json.dumps(response.to_json_dict())`.
const GEMINI_RESPONSE_TO_JSON_DICT: &str = r#"{"candidates": [{"content": {"parts": [{"text": "Refunding."}, {"function_call": {"id": "call_1", "args": {"order_id": "ord_8f2k1x9q", "amount_cents": 2500}, "name": "refund"}, "thought_signature": "c2ln"}], "role": "model"}, "finish_reason": "STOP", "index": 0}], "model_version": "gemini-2.5-flash"}"#;

/// A user turn answering the call: `types.Content(role="user", parts=[Part(function_response=
/// FunctionResponse(..)), Part(inline_data=Blob(..))])`, `json.dumps(content.to_json_dict())`.
const GEMINI_FUNCTION_RESPONSE_TO_JSON_DICT: &str = r#"{"parts": [{"function_response": {"id": "call_1", "name": "refund", "response": {"ok": true}}}, {"inline_data": {"data": "iVBORw==", "mime_type": "image/png"}}], "role": "user"}"#;

/// A call without arguments: `types.Part(function_call=FunctionCall(name="ping")).model_dump_json()`
/// writes `"args": null` (and `"id": null`).
const GEMINI_NO_ARGS_PART_DUMP: &str = r#"{"media_resolution":null,"code_execution_result":null,"executable_code":null,"file_data":null,"function_call":{"id":null,"args":null,"name":"ping","partial_args":null,"will_continue":null},"function_response":null,"inline_data":null,"text":null,"thought":null,"thought_signature":null,"video_metadata":null,"tool_call":null,"tool_response":null,"part_metadata":null,"audio_transcription":null,"media_processing":null,"speech_metadata":null,"document_metadata":null,"spreadsheet_metadata":null,"audio_metadata":null}"#;

/// `types.FunctionCall(id=.., name=.., args=..).model_dump_json()` on its own.
const GEMINI_FUNCTION_CALL_DUMP: &str = r#"{"id":"call_1","args":{"order_id":"ord_8f2k1x9q","amount_cents":2500},"name":"refund","partial_args":null,"will_continue":null}"#;

/// `candidate_count=2`: `types.GenerateContentResponse(candidates=[Candidate(index=0, ..),
/// Candidate(index=1, ..)])`, `json.dumps(response.to_json_dict())`.
const GEMINI_TWO_CANDIDATES_TO_JSON_DICT: &str = r#"{"candidates": [{"content": {"parts": [{"function_call": {"args": {"order_id": "ord_8f2k1x9q", "amount_cents": 2500}, "name": "refund"}}], "role": "model"}, "finish_reason": "STOP", "index": 0}, {"content": {"parts": [{"function_call": {"args": {"order_id": "ord_8f2k1x9q", "amount_cents": 5000}, "name": "refund"}}], "role": "model"}, "finish_reason": "STOP", "index": 1}], "model_version": "gemini-2.5-flash"}"#;

/// `part.model_dump_json(by_alias=True, exclude_none=True)`: the REST API's camelCase.
const GEMINI_PART_CAMEL: &str =
    r#"{"functionCall":{"args":{"amount_cents":2500},"name":"refund"}}"#;

/// openai 3.57: `ChatCompletion.model_dump_json()` of a completion with `n=2`: choice 0 calls a
/// function tool and a custom tool (`ChatCompletionMessageCustomToolCall`), choice 1 calls the
/// function with other arguments.
const OPENAI_COMPLETION_DUMP: &str = r#"{"id":"chatcmpl-1","choices":[{"finish_reason":"tool_calls","index":0,"logprobs":null,"message":{"content":null,"refusal":null,"role":"assistant","annotations":[],"audio":null,"function_call":null,"tool_calls":[{"id":"call_a","function":{"arguments":"{\"order_id\":\"ord_8f2k1x9q\",\"amount_cents\":2500}","name":"refund"},"type":"function"},{"id":"call_b","custom":{"input":"SELECT 1","name":"run_sql"},"type":"custom"}]}},{"finish_reason":"tool_calls","index":1,"logprobs":null,"message":{"content":null,"refusal":null,"role":"assistant","annotations":[],"audio":null,"function_call":null,"tool_calls":[{"id":"call_c","function":{"arguments":"{\"order_id\":\"ord_8f2k1x9q\",\"amount_cents\":5000}","name":"refund"},"type":"function"}]}}],"created":1764500000,"model":"gpt-5","object":"chat.completion","metadata":null,"moderation":null,"service_tier":null,"system_fingerprint":null,"usage":{"completion_tokens":20,"prompt_tokens":10,"total_tokens":30,"completion_tokens_details":null,"prompt_tokens_details":null}}"#;

/// The same completion, `completion.to_json(indent=None)` (unset members left out).
const OPENAI_COMPLETION_TO_JSON: &str = r#"{"id":"chatcmpl-1","choices":[{"finish_reason":"tool_calls","index":0,"logprobs":null,"message":{"content":null,"refusal":null,"role":"assistant","annotations":[],"tool_calls":[{"id":"call_a","function":{"arguments":"{\"order_id\":\"ord_8f2k1x9q\",\"amount_cents\":2500}","name":"refund"},"type":"function"},{"id":"call_b","custom":{"input":"SELECT 1","name":"run_sql"},"type":"custom"}]}},{"finish_reason":"tool_calls","index":1,"logprobs":null,"message":{"content":null,"refusal":null,"role":"assistant","annotations":[],"tool_calls":[{"id":"call_c","function":{"arguments":"{\"order_id\":\"ord_8f2k1x9q\",\"amount_cents\":5000}","name":"refund"},"type":"function"}]}}],"created":1764500000,"model":"gpt-5","object":"chat.completion","usage":{"completion_tokens":20,"prompt_tokens":10,"total_tokens":30}}"#;

/// `Response.to_json(indent=None)` of a response whose `output` holds a reasoning item, a
/// `ResponseFunctionToolCall` and a `ResponseCustomToolCall`.
const OPENAI_RESPONSE_TO_JSON: &str = r#"{"id":"resp_1","created_at":1764500000.0,"model":"gpt-5","object":"response","output":[{"id":"rs_1","summary":[],"type":"reasoning"},{"arguments":"{\"amount_cents\":2500}","call_id":"call_1","name":"refund","type":"function_call","id":"fc_1","status":"completed"},{"call_id":"call_2","input":"SELECT 1","name":"run_sql","type":"custom_tool_call","id":"ctc_1"}],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],"status":"completed"}"#;

/// The same output items, each `item.model_dump_json()`, as a list.
const OPENAI_RESPONSE_OUTPUT_DUMP: &str = r#"[{"arguments":"{\"amount_cents\":2500}","call_id":"call_1","name":"refund","type":"function_call","id":"fc_1","async_":null,"caller":null,"namespace":null,"status":"completed"},{"call_id":"call_2","input":"SELECT 1","name":"run_sql","type":"custom_tool_call","id":"ctc_1","async_":null,"caller":null,"namespace":null}]"#;

/// anthropic 2.14: `Message.model_dump_json()` of an assistant turn with a text block and a
/// `ToolUseBlock`.
const ANTHROPIC_MESSAGE_DUMP: &str = r#"{"id":"msg_1","container":null,"content":[{"citations":null,"text":"Refunding.","type":"text"},{"id":"toolu_1","caller":null,"input":{"order_id":"ord_8f2k1x9q","amount_cents":2500},"name":"refund","type":"tool_use","toolset_name":null}],"diagnostics":null,"model":"claude-sonnet-4-5","role":"assistant","stop_details":null,"stop_reason":"tool_use","stop_sequence":null,"type":"message","usage":{"cache_creation":null,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"inference_geo":null,"input_tokens":10,"output_tokens":20,"output_tokens_details":null,"server_tool_use":null,"service_tier":null,"speed":null}}"#;

/// The same message, `message.to_json(indent=None)`.
const ANTHROPIC_MESSAGE_TO_JSON: &str = r#"{"id":"msg_1","content":[{"text":"Refunding.","type":"text"},{"id":"toolu_1","input":{"order_id":"ord_8f2k1x9q","amount_cents":2500},"name":"refund","type":"tool_use"}],"model":"claude-sonnet-4-5","role":"assistant","stop_reason":"tool_use","stop_sequence":null,"type":"message","usage":{"input_tokens":10,"output_tokens":20}}"#;

/// The `messages` list of the SDK's tool-use loop, `json.dumps(messages)`: the user's
/// `MessageParam` with string content, then `{"role": "assistant", "content":
/// [block.model_dump() for block in message.content]}`.
const ANTHROPIC_TRANSCRIPT: &str = r#"[{"role": "user", "content": "Refund order ord_8f2k1x9q"}, {"role": "assistant", "content": [{"citations": null, "text": "Refunding.", "type": "text"}, {"id": "toolu_1", "caller": null, "input": {"order_id": "ord_8f2k1x9q", "amount_cents": 2500}, "name": "refund", "type": "tool_use", "toolset_name": null}]}]"#;

/// mcp 2.3: `JSONRPCRequest(jsonrpc="2.0", id=7, method="tools/call", params=..)
/// .model_dump_json(by_alias=True, exclude_none=True)`, as the Python SDK's client sends it.
const MCP_REQUEST_NUMBER_ID: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"refund","arguments":{"order_id":"ord_8f2k1x9q","amount_cents":2500}}}"#;

/// The same request with a string id (`id="req-7"`).
const MCP_REQUEST_STRING_ID: &str = r#"{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"name":"refund","arguments":{"order_id":"ord_8f2k1x9q","amount_cents":2500}}}"#;

fn read_ok(text: &str) -> ReadCalls {
    toolargs::call::read(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn call(entry: &CallEntry) -> &ToolCall {
    entry
        .call
        .as_ref()
        .unwrap_or_else(|e| panic!("{}: {e}", entry.pointer))
}

fn unreadable(entry: &CallEntry) -> &UnreadableCall {
    match &entry.call {
        Ok(call) => panic!("{}: read as {call:?}", entry.pointer),
        Err(unreadable) => unreadable,
    }
}

fn value(call: &ToolCall) -> Value {
    call.arguments.clone().into_value(128).unwrap()
}

fn refund(amount_cents: u32) -> Value {
    json!({"order_id": "ord_8f2k1x9q", "amount_cents": amount_cents})
}

#[test]
fn gemini_python_sdk_parts_in_snake_case_are_calls() {
    for text in [
        GEMINI_PART_DUMP,
        GEMINI_PART_TO_JSON_DICT,
        GEMINI_FUNCTION_CALL_DUMP,
    ] {
        let calls = toolargs::call::read(text)
            .and_then(ReadCalls::into_calls)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(calls.len(), 1, "{text}");
        assert_eq!(calls[0].format, WireFormat::Gemini);
        assert_eq!(calls[0].id.as_deref(), Some("call_1"));
        assert_eq!(calls[0].name, "refund");
        assert_eq!(calls[0].arguments, Arguments::Value(refund(2500)));
    }
    let read = read_ok(GEMINI_PART_DUMP);
    assert_eq!(read.entries[0].pointer, "");
    assert_eq!(read.entries[0].choice, None);
    // The REST spelling still reads the same.
    let calls = toolargs::call::read(GEMINI_PART_CAMEL)
        .and_then(ReadCalls::into_calls)
        .unwrap();
    assert_eq!(
        calls[0].arguments,
        Arguments::Value(json!({"amount_cents": 2500}))
    );
}

#[test]
fn gemini_python_sdk_contents_and_responses_in_snake_case_are_calls() {
    for (text, pointer, choice) in [
        (GEMINI_CONTENT_DUMP, "/parts/1", None),
        (GEMINI_CONTENT_TO_JSON_DICT, "/parts/1", None),
        (
            GEMINI_RESPONSE_DUMP,
            "/candidates/0/content/parts/1",
            Some(0),
        ),
        (
            GEMINI_RESPONSE_TO_JSON_DICT,
            "/candidates/0/content/parts/1",
            Some(0),
        ),
    ] {
        let read = read_ok(text);
        assert_eq!(read.format, WireFormat::Gemini, "{text}");
        // The text part is no entry; the call is the only one.
        assert_eq!(read.entries.len(), 1, "{text}");
        let entry = &read.entries[0];
        assert_eq!((entry.pointer.as_str(), entry.choice), (pointer, choice));
        assert_eq!(call(entry).name, "refund");
        assert_eq!(value(call(entry)), refund(2500));
        assert_eq!(
            toolargs::call::read(text)
                .and_then(ReadCalls::into_calls)
                .unwrap()
                .len(),
            1
        );
    }
}

#[test]
fn gemini_function_responses_and_data_are_no_calls() {
    let read = read_ok(GEMINI_FUNCTION_RESPONSE_TO_JSON_DICT);
    assert_eq!(read.format, WireFormat::Gemini);
    assert!(read.entries.is_empty(), "{:?}", read.entries);
    let error = toolargs::call::read(GEMINI_FUNCTION_RESPONSE_TO_JSON_DICT)
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(error.message, "no Gemini tool call found");
}

#[test]
fn gemini_call_without_arguments_dumps_null_args_which_mean_none() {
    let calls = toolargs::call::read(GEMINI_NO_ARGS_PART_DUMP)
        .and_then(ReadCalls::into_calls)
        .unwrap();
    assert_eq!(calls[0].name, "ping");
    assert_eq!(calls[0].id, None);
    assert_eq!(calls[0].arguments, Arguments::Value(json!({})));
}

#[test]
fn gemini_candidates_are_alternatives_never_one_turn() {
    let read = read_ok(GEMINI_TWO_CANDIDATES_TO_JSON_DICT);
    assert_eq!(read.choices(), [Some(0), Some(1)]);
    let amounts: Vec<Value> = read
        .entries
        .iter()
        .map(|e| value(call(e))["amount_cents"].clone())
        .collect();
    assert_eq!(amounts, [json!(2500), json!(5000)]);
    assert_eq!(
        read.clone().into_turn().unwrap_err(),
        SeveralChoices {
            format: WireFormat::Gemini,
            choices: vec![Some(0), Some(1)],
        }
    );
    let error = toolargs::call::read(GEMINI_TWO_CANDIDATES_TO_JSON_DICT)
        .and_then(ReadCalls::into_calls)
        .unwrap_err();
    assert_eq!(
        error.pointer.as_deref(),
        Some("/candidates/1/content/parts/0")
    );
    assert!(error.message.contains("2 alternative choices"), "{error}");
}

#[test]
fn openai_completion_with_two_choices_and_a_custom_call_keeps_everything_apart() {
    for text in [OPENAI_COMPLETION_DUMP, OPENAI_COMPLETION_TO_JSON] {
        let read = read_ok(text);
        assert_eq!(read.format, WireFormat::OpenAiChat);
        let shape: Vec<(&str, Option<usize>, bool)> = read
            .entries
            .iter()
            .map(|e| (e.pointer.as_str(), e.choice, e.call.is_ok()))
            .collect();
        assert_eq!(
            shape,
            [
                ("/choices/0/message/tool_calls/0", Some(0), true),
                ("/choices/0/message/tool_calls/1", Some(0), false),
                ("/choices/1/message/tool_calls/0", Some(1), true),
            ]
        );
        // The function call beside the custom one is read.
        let first = call(&read.entries[0]);
        assert_eq!(first.id.as_deref(), Some("call_a"));
        assert_eq!(value(first), refund(2500));
        // The custom call is kept, with what the application needs to
        // answer it.
        let custom = unreadable(&read.entries[1]);
        assert_eq!(custom.id.as_deref(), Some("call_b"));
        assert_eq!(custom.name.as_deref(), Some("run_sql"));
        assert_eq!(
            custom.reason,
            Unreadable::FreeForm {
                input: "SELECT 1".into()
            }
        );
        assert_eq!(custom.raw["custom"]["input"], "SELECT 1");
        // Choice 0 is one turn; choice 1 another.
        assert_eq!(read.choice(Some(0)).count(), 2);
        assert_eq!(
            value(call(read.choice(Some(1)).next().unwrap())),
            refund(5000)
        );
        assert!(read.clone().into_turn().is_err());
        // `parse` will not merge the alternatives.
        let error = toolargs::call::read(text)
            .and_then(ReadCalls::into_calls)
            .unwrap_err();
        assert_eq!(
            error.pointer.as_deref(),
            Some("/choices/1/message/tool_calls/0")
        );
    }
}

#[test]
fn openai_responses_custom_tool_call_items_are_kept_not_skipped() {
    for (text, function_at, custom_at) in [
        (OPENAI_RESPONSE_TO_JSON, "/output/1", "/output/2"),
        (OPENAI_RESPONSE_OUTPUT_DUMP, "/0", "/1"),
    ] {
        let read = read_ok(text);
        assert_eq!(read.format, WireFormat::OpenAiResponses);
        // The reasoning item is no entry.
        assert_eq!(read.entries.len(), 2, "{text}");
        assert_eq!(read.entries[0].pointer, function_at);
        let function = call(&read.entries[0]);
        assert_eq!(function.id.as_deref(), Some("call_1"));
        assert_eq!(value(function), json!({"amount_cents": 2500}));
        let custom = unreadable(&read.entries[1]);
        assert_eq!(custom.entry, custom_at);
        assert_eq!(read.entries[1].pointer, custom_at);
        assert_eq!(custom.id.as_deref(), Some("call_2"));
        assert_eq!(custom.name.as_deref(), Some("run_sql"));
        assert!(matches!(&custom.reason, Unreadable::FreeForm { input } if input == "SELECT 1"));
        // All or nothing: `parse` refuses rather than drop the custom call.
        let error = toolargs::call::read(text)
            .and_then(ReadCalls::into_calls)
            .unwrap_err();
        assert_eq!(error.pointer.as_deref(), Some(custom.entry.as_str()));
    }
}

#[test]
fn anthropic_messages_and_transcripts_with_text_content() {
    for text in [
        ANTHROPIC_MESSAGE_DUMP,
        ANTHROPIC_MESSAGE_TO_JSON,
        ANTHROPIC_TRANSCRIPT,
    ] {
        let calls = toolargs::call::read(text)
            .and_then(ReadCalls::into_calls)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].format, WireFormat::Anthropic);
        assert_eq!(calls[0].id.as_deref(), Some("toolu_1"));
        assert_eq!(calls[0].arguments, Arguments::Value(refund(2500)));
    }
    let read = read_ok(ANTHROPIC_TRANSCRIPT);
    assert_eq!(read.entries[0].pointer, "/1/content/1");
}

#[test]
fn mcp_json_rpc_id_is_the_call_id() {
    let calls = toolargs::call::read(MCP_REQUEST_NUMBER_ID)
        .and_then(ReadCalls::into_calls)
        .unwrap();
    assert_eq!(calls[0].format, WireFormat::McpToolsCall);
    assert_eq!(calls[0].id.as_deref(), Some("7"));
    assert_eq!(calls[0].arguments, Arguments::Value(refund(2500)));
    let calls = toolargs::call::read(MCP_REQUEST_STRING_ID)
        .and_then(ReadCalls::into_calls)
        .unwrap();
    assert_eq!(calls[0].id.as_deref(), Some("req-7"));
}
