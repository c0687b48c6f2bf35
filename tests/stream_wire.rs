//! The wire readers of `toolargs::stream::wire` against recorded streams
//! whose events the providers' own Python SDKs built and serialized
//! (`scripts/stream-fixtures.py`; the SDK versions are in its header), and
//! against events broken on purpose.
//!
//! Each recorded stream `<name>.sse` comes with `<name>.expected.json`: the
//! calls the SDK's own stream accumulator reported at the end of the same
//! events. The deltas a reader gives must rebuild exactly those calls.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use toolargs::call::WireFormat;
use toolargs::rejection::Rejection;
use toolargs::stream::wire::{
    CallDelta, SseDecoder, SseEvent, StreamFormat, WireError, WireReader,
};

fn fixture(name: &str) -> (Vec<u8>, Value) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/streams/");
    let sse = std::fs::read(format!("{dir}{name}.sse")).expect("recorded stream");
    let expected =
        std::fs::read_to_string(format!("{dir}{name}.expected.json")).expect("expected calls");
    (
        sse,
        serde_json::from_str(&expected).expect("expected calls are JSON"),
    )
}

/// The stream's server-sent events, its bytes fed `chunk` at a time.
fn events(sse: &[u8], chunk: usize) -> Vec<SseEvent> {
    let mut decoder = SseDecoder::new();
    let mut events = Vec::new();
    for piece in sse.chunks(chunk) {
        events.extend(decoder.push(piece).expect("the recorded streams are UTF-8"));
    }
    assert!(
        !decoder.finish(),
        "the recorded streams end with a blank line"
    );
    events
}

/// Every delta of the stream, read through the SSE text of each event.
fn read_all(mut reader: WireReader, events: &[SseEvent]) -> Vec<CallDelta> {
    let mut deltas = Vec::new();
    for event in events {
        deltas.extend(
            reader
                .read_sse(event)
                .expect("the recorded events are well formed"),
        );
    }
    deltas
}

/// One call rebuilt from its deltas.
#[derive(Debug, Default, PartialEq)]
struct Rebuilt {
    id: Option<String>,
    name: String,
    arguments: String,
    ended: bool,
}

/// Rebuilds the calls, checking the order deltas must keep: a call begins
/// once, its name and arguments come between its begin and its end, and it
/// ends once.
fn rebuild(deltas: &[CallDelta]) -> BTreeMap<u64, Rebuilt> {
    let mut calls: BTreeMap<u64, Rebuilt> = BTreeMap::new();
    for delta in deltas {
        match delta {
            CallDelta::Begin { index, id, name } => {
                let fresh = Rebuilt {
                    id: id.clone(),
                    name: name.clone().unwrap_or_default(),
                    ..Rebuilt::default()
                };
                assert!(
                    calls.insert(*index, fresh).is_none(),
                    "call {index} began twice"
                );
            }
            CallDelta::Name { index, fragment } => {
                let call = calls.get_mut(index).expect("a name for a call that began");
                assert!(!call.ended, "a name for call {index} after its end");
                call.name.push_str(fragment);
            }
            CallDelta::Arguments { index, fragment } => {
                let call = calls
                    .get_mut(index)
                    .expect("arguments for a call that began");
                assert!(!call.ended, "arguments for call {index} after its end");
                assert!(!fragment.is_empty(), "an empty fragment for call {index}");
                call.arguments.push_str(fragment);
            }
            CallDelta::End { index } => {
                let call = calls.get_mut(index).expect("an end for a call that began");
                assert!(!call.ended, "call {index} ended twice");
                call.ended = true;
            }
        }
    }
    calls
}

/// The expected calls of one choice (chat completions) or of the stream.
fn expected_calls(expected: &Value, choice: Option<u64>) -> Vec<&Value> {
    expected["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .filter(|call| choice.is_none_or(|choice| call["choice"] == json!(choice)))
        .collect()
}

/// The rebuilt calls are the SDK's: same keys, ids, names; the same
/// arguments text (OpenAI), or text that parses to the same input
/// (Anthropic, whose SDK reports the parsed input).
fn assert_same_calls(name: &str, rebuilt: &BTreeMap<u64, Rebuilt>, expected: &[&Value]) {
    assert_eq!(
        rebuilt.keys().copied().collect::<Vec<_>>(),
        expected
            .iter()
            .map(|call| call["index"].as_u64().expect("index"))
            .collect::<Vec<_>>(),
        "{name}: the calls' keys"
    );
    for call in expected {
        let index = call["index"].as_u64().expect("index");
        let got = &rebuilt[&index];
        assert!(got.ended, "{name}: call {index} never ended");
        assert_eq!(
            got.id.as_deref(),
            call["id"].as_str(),
            "{name}: id of {index}"
        );
        assert_eq!(got.name, call["name"], "{name}: name of {index}");
        match call.get("arguments") {
            Some(text) => assert_eq!(got.arguments, *text, "{name}: arguments of {index}"),
            None => assert_eq!(
                serde_json::from_str::<Value>(&got.arguments).expect("the arguments are JSON"),
                call["input"],
                "{name}: input of {index}"
            ),
        }
    }
}

const ONE_CHOICE: [(&str, StreamFormat); 6] = [
    ("openai_chat_parallel", StreamFormat::OpenAiChat),
    ("openai_chat_rejected", StreamFormat::OpenAiChat),
    ("openai_responses_parallel", StreamFormat::OpenAiResponses),
    ("openai_responses_rejected", StreamFormat::OpenAiResponses),
    ("anthropic_parallel", StreamFormat::Anthropic),
    ("anthropic_rejected", StreamFormat::Anthropic),
];

#[test]
fn each_recorded_stream_rebuilds_the_calls_the_sdk_reports() {
    for (name, format) in ONE_CHOICE {
        let (sse, expected) = fixture(name);
        let deltas = read_all(WireReader::new(format), &events(&sse, sse.len()));
        assert_same_calls(name, &rebuild(&deltas), &expected_calls(&expected, None));
    }
}

#[test]
fn the_deltas_do_not_depend_on_how_the_bytes_arrive() {
    for (name, format) in ONE_CHOICE {
        let (sse, _) = fixture(name);
        let whole = read_all(WireReader::new(format), &events(&sse, sse.len()));
        // One byte at a time cuts every UTF-8 character and every `\n\n`.
        for chunk in [1, 2, 3, 7, 64, 4096] {
            assert_eq!(
                read_all(WireReader::new(format), &events(&sse, chunk)),
                whole,
                "{name} fed {chunk} bytes at a time"
            );
        }
    }
}

#[test]
fn parsed_events_read_as_their_text_does() {
    for (name, format) in ONE_CHOICE {
        let (sse, _) = fixture(name);
        let events = events(&sse, sse.len());
        let mut reader = WireReader::new(format);
        let mut deltas = Vec::new();
        for event in &events {
            if event.data == "[DONE]" {
                deltas.extend(reader.read_str(&event.data).expect("[DONE]"));
                continue;
            }
            let value: Value = serde_json::from_str(&event.data).expect("events are JSON");
            deltas.extend(reader.read_value(&value).expect("well formed"));
        }
        assert_eq!(deltas, read_all(WireReader::new(format), &events), "{name}");
    }
}

#[test]
fn a_chat_call_opens_with_its_name_and_a_split_name_arrives_in_fragments() {
    let (sse, _) = fixture("openai_chat_parallel");
    let deltas = read_all(
        WireReader::new(StreamFormat::OpenAiChat),
        &events(&sse, 512),
    );
    let first = deltas
        .iter()
        .position(|delta| matches!(delta, CallDelta::Arguments { .. }));
    // Both calls are named before any argument arrives.
    assert_eq!(
        deltas[..first.expect("arguments")],
        [CallDelta::Begin {
            index: 0,
            id: Some("call_R3fUnd8f2k".into()),
            name: Some("refund".into()),
        },]
    );
    let write_file: Vec<&CallDelta> = deltas
        .iter()
        .filter(|delta| {
            matches!(
                delta,
                CallDelta::Begin { index: 1, .. } | CallDelta::Name { index: 1, .. }
            )
        })
        .collect();
    assert_eq!(
        write_file,
        [
            &CallDelta::Begin {
                index: 1,
                id: Some("call_Wr1teT0kyo".into()),
                name: Some("write_".into()),
            },
            &CallDelta::Name {
                index: 1,
                fragment: "file".into(),
            },
        ]
    );
    // The calls interleave, and end together at `finish_reason`.
    let order: Vec<u64> = deltas
        .iter()
        .filter_map(|delta| match delta {
            CallDelta::Arguments { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert!(order.windows(2).any(|pair| pair[0] != pair[1]), "{order:?}");
    assert_eq!(
        deltas[deltas.len() - 2..],
        [CallDelta::End { index: 0 }, CallDelta::End { index: 1 }]
    );
}

#[test]
fn escapes_and_multibyte_characters_split_across_deltas_join_back() {
    let (sse, _) = fixture("openai_responses_parallel");
    let deltas = read_all(
        WireReader::new(StreamFormat::OpenAiResponses),
        &events(&sse, sse.len()),
    );
    let fragments: Vec<&str> = deltas
        .iter()
        .filter_map(|delta| match delta {
            CallDelta::Arguments { index: 2, fragment } => Some(fragment.as_str()),
            _ => None,
        })
        .collect();
    // A backslash ends one fragment and the character it escapes starts the
    // next; the two halves of a surrogate pair arrive apart.
    assert!(
        fragments.iter().any(|f| f.ends_with("\\ud83d")),
        "{fragments:?}"
    );
    assert!(
        fragments.iter().any(|f| f.starts_with("\\ude00")),
        "{fragments:?}"
    );
    assert!(
        fragments
            .iter()
            .any(|f| f.ends_with('\\') && !f.ends_with("\\\\"))
    );
    let text = fragments.concat();
    let value: Value = serde_json::from_str(&text).expect("joined, the text is JSON");
    assert_eq!(value["content"], "# 東京\n\tline \"2\" \\ end 😀 😀");
}

#[test]
fn each_choice_of_a_chat_completion_reads_on_its_own() {
    let (sse, expected) = fixture("openai_chat_two_choices");
    let events = events(&sse, sse.len());
    for choice in [0, 1] {
        let deltas = read_all(WireReader::openai_chat_choice(choice), &events);
        assert_same_calls(
            "openai_chat_two_choices",
            &rebuild(&deltas),
            &expected_calls(&expected, Some(choice)),
        );
    }
    // The exact deltas of choice 0: its own `finish_reason` ends its call
    // while choice 1 still streams.
    assert_eq!(
        read_all(WireReader::openai_chat_choice(0), &events),
        [
            CallDelta::Begin {
                index: 0,
                id: Some("call_ChoiceZero01".into()),
                name: Some("refund".into()),
            },
            CallDelta::Arguments {
                index: 0,
                fragment: "{\"order_id\":\"ord_8f2k1x9q\",".into(),
            },
            CallDelta::Arguments {
                index: 0,
                fragment: "\"amount_cents\":2500,".into(),
            },
            CallDelta::Arguments {
                index: 0,
                fragment: "\"reason\":\"damaged\"}".into(),
            },
            CallDelta::End { index: 0 },
        ]
    );
    // A reader for one choice refuses the second instead of mixing it in.
    let mut reader = WireReader::new(StreamFormat::OpenAiChat);
    assert_eq!(
        reader.read_sse(&events[0]),
        Err(WireError::SeveralChoices { choice: 1 })
    );
    assert_eq!(
        reader.read_sse(&events[1]),
        Err(WireError::AfterError {
            format: StreamFormat::OpenAiChat
        })
    );
}

#[test]
fn events_about_no_tool_call_give_no_deltas() {
    let quiet = [
        (
            StreamFormat::OpenAiChat,
            json!({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi", "refusal": null}, "finish_reason": null, "logprobs": null}]}),
        ),
        (
            StreamFormat::OpenAiChat,
            json!({"id": "c", "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}),
        ),
        (
            StreamFormat::OpenAiChat,
            json!({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.created", "sequence_number": 0, "response": {"id": "r", "output": []}}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.output_text.delta", "sequence_number": 1, "item_id": "m", "output_index": 0, "content_index": 0, "delta": "Hi", "logprobs": []}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.reasoning_summary_text.delta", "sequence_number": 2, "item_id": "rs", "output_index": 0, "summary_index": 0, "delta": "thinking"}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.output_item.added", "sequence_number": 3, "output_index": 1, "item": {"type": "custom_tool_call", "call_id": "c", "name": "run_sql", "input": ""}}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.custom_tool_call_input.delta", "sequence_number": 4, "item_id": "ct", "output_index": 1, "delta": "SELECT"}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.output_item.added", "sequence_number": 5, "output_index": 2, "item": null}),
        ),
        (
            StreamFormat::OpenAiResponses,
            json!({"type": "response.completed", "sequence_number": 5, "response": {"id": "r", "output": []}}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "message_start", "message": {"id": "m", "content": [], "role": "assistant"}}),
        ),
        (StreamFormat::Anthropic, json!({"type": "ping"})),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me see"}}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig"}}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}}}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"x\"}"}}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "content_block_stop", "index": 1}),
        ),
        (
            StreamFormat::Anthropic,
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 3}}),
        ),
        (StreamFormat::Anthropic, json!({"type": "message_stop"})),
    ];
    let mut readers: BTreeMap<_, _> = [
        StreamFormat::OpenAiChat,
        StreamFormat::OpenAiResponses,
        StreamFormat::Anthropic,
    ]
    .into_iter()
    .map(|format| (format.to_string(), WireReader::new(format)))
    .collect();
    for (format, event) in quiet {
        let reader = readers.get_mut(&format.to_string()).expect("reader");
        assert_eq!(reader.read_value(&event), Ok(vec![]), "{event}");
    }
}

#[test]
fn the_recorded_streams_unrelated_events_give_no_deltas() {
    let related = [
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_stop",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
    ];
    for (name, format) in ONE_CHOICE {
        let (sse, _) = fixture(name);
        let mut reader = WireReader::new(format);
        let mut quiet = 0;
        for event in events(&sse, sse.len()) {
            let deltas = reader.read_sse(&event).expect("well formed");
            let kind = event.event.as_deref().unwrap_or("");
            if format != StreamFormat::OpenAiChat && !related.contains(&kind) {
                assert_eq!(deltas, [], "{name}: `{kind}`");
                quiet += 1;
            }
        }
        if format != StreamFormat::OpenAiChat {
            assert!(quiet >= 2, "{name} holds events about no call");
        }
    }
}

fn err(format: StreamFormat, events: &[Value]) -> WireError {
    let mut reader = WireReader::new(format);
    for event in events {
        if let Err(error) = reader.read_value(event) {
            return error;
        }
    }
    panic!("no error in {events:?}");
}

fn malformed(format: StreamFormat, event: &str, pointer: &str, message: &str) -> WireError {
    WireError::Malformed {
        format,
        event: event.into(),
        pointer: pointer.into(),
        message: message.into(),
    }
}

#[test]
fn malformed_chat_chunks_are_typed_errors_at_their_pointer() {
    let chat = StreamFormat::OpenAiChat;
    let chunk = "chat.completion.chunk";
    let with_calls =
        |calls: Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": calls}}]});
    assert_eq!(
        err(
            chat,
            &[with_calls(
                json!([{"id": "c", "function": {"name": "refund"}}])
            )]
        ),
        malformed(
            chat,
            chunk,
            "/choices/0/delta/tool_calls/0/index",
            "expected an index, found nothing"
        )
    );
    assert_eq!(
        err(chat, &[with_calls(json!([{"index": -1}]))]),
        malformed(
            chat,
            chunk,
            "/choices/0/delta/tool_calls/0/index",
            "expected an index (an integer from 0), found a number"
        )
    );
    assert_eq!(
        err(
            chat,
            &[with_calls(
                json!([{"index": 0, "function": {"name": "refund", "arguments": {"a": 1}}}])
            )]
        ),
        malformed(
            chat,
            chunk,
            "/choices/0/delta/tool_calls/0/function/arguments",
            "expected a string, found an object"
        )
    );
    assert_eq!(
        err(chat, &[with_calls(json!({"index": 0}))]),
        malformed(
            chat,
            chunk,
            "/choices/0/delta/tool_calls",
            "expected an array, found an object"
        )
    );
    assert_eq!(
        err(chat, &[json!({"choices": "none"})]),
        malformed(chat, chunk, "/choices", "expected an array, found a string")
    );
    assert_eq!(
        err(chat, &[json!([1, 2])]),
        malformed(chat, chunk, "", "expected an object, found an array")
    );
    // A call's arguments after its choice finished.
    assert_eq!(
        err(
            chat,
            &[
                with_calls(
                    json!([{"index": 0, "id": "c", "type": "function", "function": {"name": "refund", "arguments": ""}}])
                ),
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
                with_calls(json!([{"index": 0, "function": {"arguments": "{"}}])),
            ]
        ),
        WireError::AfterEnd {
            format: chat,
            index: 0
        }
    );
    assert_eq!(
        err(
            chat,
            &[
                json!({"error": {"message": "The server had an error", "type": "server_error", "code": null}})
            ]
        ),
        WireError::Provider {
            format: chat,
            kind: Some("server_error".into()),
            message: "The server had an error".into(),
        }
    );
}

#[test]
fn malformed_responses_events_are_typed_errors() {
    let responses = StreamFormat::OpenAiResponses;
    let added = json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "refund", "arguments": ""}});
    let delta = |index: u64, item: &str, text: &str| json!({"type": "response.function_call_arguments.delta", "output_index": index, "item_id": item, "delta": text});
    assert_eq!(
        err(responses, &[json!({"output_index": 1})]),
        malformed(responses, "", "/type", "expected a string, found nothing")
    );
    assert_eq!(
        err(
            responses,
            &[
                json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "function_call", "call_id": "c"}})
            ]
        ),
        malformed(
            responses,
            "response.output_item.added",
            "/item/name",
            "expected a string, found nothing"
        )
    );
    assert_eq!(
        err(responses, &[delta(3, "fc_3", "{")]),
        WireError::UnknownCall {
            format: responses,
            index: 3
        }
    );
    assert_eq!(
        err(responses, &[added.clone(), delta(1, "fc_9", "{")]),
        WireError::OtherItem {
            index: 1,
            expected: "fc_1".into(),
            found: "fc_9".into()
        }
    );
    assert_eq!(
        err(responses, &[added.clone(), added.clone()]),
        WireError::Reopened {
            format: responses,
            index: 1
        }
    );
    assert_eq!(
        err(
            responses,
            &[
                added.clone(),
                delta(1, "fc_1", "{\"a\":"),
                json!({"type": "response.function_call_arguments.done", "output_index": 1, "item_id": "fc_1", "arguments": "{\"a\":1}"}),
            ]
        ),
        WireError::ArgumentsDiffer {
            index: 1,
            received: 5,
            reported: 7
        }
    );
    assert_eq!(
        err(
            responses,
            &[
                json!({"type": "error", "code": "rate_limit_exceeded", "message": "Slow down", "param": null, "sequence_number": 4})
            ]
        ),
        WireError::Provider {
            format: responses,
            kind: Some("rate_limit_exceeded".into()),
            message: "Slow down".into(),
        }
    );
}

#[test]
fn malformed_anthropic_events_are_typed_errors() {
    let anthropic = StreamFormat::Anthropic;
    let start = json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {}}});
    let stop = json!({"type": "content_block_stop", "index": 0});
    let delta = json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{"}});
    assert_eq!(
        err(
            anthropic,
            &[
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "input": {}}})
            ]
        ),
        malformed(
            anthropic,
            "content_block_start",
            "/content_block/name",
            "expected a string, found nothing"
        )
    );
    assert_eq!(
        err(
            anthropic,
            &[
                start.clone(),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": 7}})
            ]
        ),
        malformed(
            anthropic,
            "content_block_delta",
            "/delta/partial_json",
            "expected a string, found a number"
        )
    );
    assert_eq!(
        err(anthropic, std::slice::from_ref(&delta)),
        WireError::UnknownCall {
            format: anthropic,
            index: 0
        }
    );
    assert_eq!(
        err(anthropic, &[start.clone(), stop.clone(), delta.clone()]),
        WireError::AfterEnd {
            format: anthropic,
            index: 0
        }
    );
    assert_eq!(
        err(anthropic, &[start.clone(), start.clone()]),
        WireError::Reopened {
            format: anthropic,
            index: 0
        }
    );
    assert_eq!(
        err(
            anthropic,
            &[
                start.clone(),
                json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
            ]
        ),
        WireError::Provider {
            format: anthropic,
            kind: Some("overloaded_error".into()),
            message: "Overloaded".into(),
        }
    );
}

#[test]
fn text_that_is_not_an_event_is_a_typed_error_and_ends_the_reader() {
    let mut reader = WireReader::new(StreamFormat::Anthropic);
    match reader.read_str("{\"type\": \"ping\",") {
        Err(WireError::NotJson {
            format,
            line,
            column,
            ..
        }) => {
            assert_eq!((format, line), (StreamFormat::Anthropic, 1));
            assert!(column >= 16, "{column}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        reader.read_str("{\"type\": \"ping\"}"),
        Err(WireError::AfterError {
            format: StreamFormat::Anthropic
        })
    );
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(
        WireReader::new(StreamFormat::OpenAiChat).read_str(&deep),
        Err(WireError::TooDeep { found: 100_000, .. })
    ));
}

#[test]
fn done_ends_the_calls_still_open_and_the_stream() {
    let mut reader = WireReader::new(StreamFormat::OpenAiChat);
    let opened = reader
        .read_value(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 2, "id": "c", "type": "function", "function": {"name": "refund", "arguments": "{\"order"}}]}}]}))
        .expect("opens");
    assert_eq!(opened.len(), 2);
    assert_eq!(
        reader.read_str("[DONE]"),
        Ok(vec![CallDelta::End { index: 2 }])
    );
    assert!(reader.is_done());
    assert_eq!(
        reader.read_str("{}"),
        Err(WireError::AfterDone {
            format: StreamFormat::OpenAiChat
        })
    );
}

#[test]
fn a_cut_chat_completion_ends_its_calls_at_finish_reason_length() {
    let mut reader = WireReader::new(StreamFormat::OpenAiChat);
    reader
        .read_value(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c", "type": "function", "function": {"name": "refund", "arguments": "{\"order_id\": \"ord_"}}]}}]}))
        .expect("opens");
    assert_eq!(
        reader.read_value(
            &json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]})
        ),
        Ok(vec![CallDelta::End { index: 0 }])
    );
}

#[test]
fn complete_arguments_without_deltas_are_delivered_once() {
    // Responses: only `arguments.done` carries them.
    let mut reader = WireReader::new(StreamFormat::OpenAiResponses);
    let mut deltas = Vec::new();
    for event in [
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "refund", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_1", "arguments": "{\"order_id\":\"ord_8f2k1x9q\"}"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "refund", "arguments": "{\"order_id\":\"ord_8f2k1x9q\"}"}}),
        json!({"type": "response.completed", "response": {"id": "r"}}),
    ] {
        deltas.extend(reader.read_value(&event).expect("well formed"));
    }
    assert_eq!(
        deltas,
        [
            CallDelta::Begin {
                index: 0,
                id: Some("call_1".into()),
                name: Some("refund".into())
            },
            CallDelta::Arguments {
                index: 0,
                fragment: "{\"order_id\":\"ord_8f2k1x9q\"}".into()
            },
            CallDelta::End { index: 0 },
        ]
    );
    // Anthropic: a block replayed with its whole input and no delta.
    let mut reader = WireReader::new(StreamFormat::Anthropic);
    let mut deltas = Vec::new();
    for event in [
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {"order_id": "ord_8f2k1x9q"}}}),
        json!({"type": "content_block_stop", "index": 0}),
    ] {
        deltas.extend(reader.read_value(&event).expect("well formed"));
    }
    assert_eq!(
        deltas[1],
        CallDelta::Arguments {
            index: 0,
            fragment: "{\"order_id\":\"ord_8f2k1x9q\"}".into()
        }
    );
    assert_eq!(deltas[2], CallDelta::End { index: 0 });
}

#[test]
fn sse_line_ends_comments_and_multiline_data() {
    let text = b": keep-alive\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\nevent: empty\n\ndata: x\rid: 7\rretry: 10\r\rdata: cut";
    for chunk in 1..text.len() {
        let mut decoder = SseDecoder::new();
        let mut got = Vec::new();
        for piece in text.chunks(chunk) {
            got.extend(decoder.push(piece).expect("UTF-8"));
        }
        assert_eq!(
            got,
            [
                SseEvent {
                    event: Some("a".into()),
                    data: "one\ntwo".into()
                },
                SseEvent {
                    event: None,
                    data: "x".into()
                },
            ],
            "fed {chunk} bytes at a time"
        );
        // `data: cut` has no blank line after it: discarded, and said so.
        assert!(decoder.finish());
    }
}

#[test]
fn sse_a_byte_order_mark_opening_the_stream_is_dropped() {
    let text = "\u{feff}data: x\n\n\u{feff}data: y\n\n".as_bytes();
    for chunk in 1..text.len() {
        let mut decoder = SseDecoder::new();
        let mut got = Vec::new();
        for piece in text.chunks(chunk) {
            got.extend(decoder.push(piece).expect("UTF-8"));
        }
        // Only the first: later, the mark is part of a field name, and a
        // line with an unknown field is ignored.
        assert_eq!(
            got,
            [SseEvent {
                event: None,
                data: "x".into()
            }],
            "fed {chunk} bytes at a time"
        );
    }
}

#[test]
fn sse_bytes_that_are_not_utf8_are_a_typed_error_at_their_offset() {
    let mut decoder = SseDecoder::new();
    assert_eq!(
        decoder.push(b"data: ok\n\ndata: \xe6\x9d"),
        Ok(vec![SseEvent {
            event: None,
            data: "ok".into()
        }])
    );
    // The cut character may still complete; a wrong byte after it cannot.
    assert_eq!(decoder.push(b"A\n"), Err(WireError::NotUtf8 { offset: 16 }));
}

#[test]
fn each_stream_format_names_its_whole_call_format() {
    assert_eq!(
        WireFormat::from(StreamFormat::OpenAiChat),
        WireFormat::OpenAiChat
    );
    assert_eq!(
        WireFormat::from(StreamFormat::OpenAiResponses),
        WireFormat::OpenAiResponses
    );
    assert_eq!(
        WireFormat::from(StreamFormat::Anthropic),
        WireFormat::Anthropic
    );
}

/// The replay example, for the toolbox its recorded calls call.
#[allow(dead_code)]
#[path = "../examples/stream_replay.rs"]
mod stream_replay;

/// What a session says of one call of a recorded stream, and the first
/// certain and provisional early rejections, with the bytes received then.
struct Streamed {
    outcome: Result<(String, Value), Rejection>,
    received: usize,
    certain: Option<(Rejection, usize)>,
    provisional: Option<usize>,
}

fn replay(
    streams: &toolargs::stream::ToolStreams<'_>,
    format: StreamFormat,
    mut reader: WireReader,
    sse: &[u8],
) -> BTreeMap<u64, Streamed> {
    let mut session = streams.session(format.into());
    let mut early = BTreeMap::new();
    let mut done = BTreeMap::new();
    for event in events(sse, 61) {
        for delta in reader.read_sse(&event).expect("well formed") {
            if let Some(call) = session.apply(&delta) {
                let index = delta.index();
                let seen: &mut (Option<_>, Option<usize>) = early.entry(index).or_default();
                if seen.0.is_none() {
                    seen.0 = call
                        .rejection()
                        .map(|early| (early.rejection, early.received));
                }
                if seen.1.is_none() {
                    seen.1 = call.provisional().map(|early| early.received);
                }
            }
            if let CallDelta::End { index } = delta {
                let received = session.call(index).map_or(0, |call| call.received());
                let outcome = session
                    .finish(index, &())
                    .expect("the call began")
                    .map(|checked| (checked.tool().to_owned(), checked.arguments().clone()))
                    .map_err(|error| error.rejection().cloned().expect("a rejection"));
                let (certain, provisional) = early.remove(&index).unwrap_or_default();
                done.insert(
                    index,
                    Streamed {
                        outcome,
                        received,
                        certain,
                        provisional,
                    },
                );
            }
        }
    }
    done
}

#[test]
fn a_session_fed_each_recorded_stream_checks_each_call_as_the_toolbox_checks_the_sdks_call() {
    let toolbox = stream_replay::toolbox().expect("the tools register");
    let streams = toolargs::stream::ToolStreams::new(&toolbox);
    let runs = [
        ("openai_chat_parallel", StreamFormat::OpenAiChat, None),
        ("openai_chat_rejected", StreamFormat::OpenAiChat, None),
        ("openai_chat_two_choices", StreamFormat::OpenAiChat, Some(0)),
        ("openai_chat_two_choices", StreamFormat::OpenAiChat, Some(1)),
        (
            "openai_responses_parallel",
            StreamFormat::OpenAiResponses,
            None,
        ),
        (
            "openai_responses_rejected",
            StreamFormat::OpenAiResponses,
            None,
        ),
        ("anthropic_parallel", StreamFormat::Anthropic, None),
        ("anthropic_rejected", StreamFormat::Anthropic, None),
    ];
    for (name, format, choice) in runs {
        let (sse, expected) = fixture(name);
        let reader = match choice {
            Some(choice) => WireReader::openai_chat_choice(choice),
            None => WireReader::new(format),
        };
        let streamed = replay(&streams, format, reader, &sse);
        let calls = expected_calls(&expected, choice);
        assert_eq!(streamed.len(), calls.len(), "{name}: calls checked");
        for call in calls {
            let index = call["index"].as_u64().expect("index");
            let arguments = match call.get("arguments") {
                Some(text) => toolargs::call::Arguments::Text(text.as_str().expect("text").into()),
                None => toolargs::call::Arguments::Value(call["input"].clone()),
            };
            let whole = toolbox
                .check(
                    &(),
                    toolargs::call::ToolCall {
                        id: call["id"].as_str().map(str::to_owned),
                        name: call["name"].as_str().expect("name").to_owned(),
                        arguments,
                        format: format.into(),
                    },
                )
                .map(|checked| (checked.tool().to_owned(), checked.arguments().clone()))
                .map_err(|error| error.rejection().cloned().expect("a rejection"));
            let got = &streamed[&index];
            assert_eq!(got.outcome, whole, "{name}: call {index}");
            let rejected = name.ends_with("_rejected");
            assert_eq!(got.outcome.is_err(), rejected, "{name}: call {index}");
            if rejected {
                // Seen before the end, at least provisionally.
                let provisional = got.provisional.expect("a provisional rejection");
                assert!(
                    provisional < got.received,
                    "{name}: at {provisional} of {}",
                    got.received
                );
                let (early, _) = got.certain.as_ref().expect("a certain rejection");
                let (Err(Rejection::InvalidArguments(whole)), Rejection::InvalidArguments(early)) =
                    (&got.outcome, early)
                else {
                    panic!("{name}: invalid arguments expected");
                };
                assert!(
                    early
                        .violations
                        .iter()
                        .all(|v| whole.violations.contains(v)),
                    "{name}: {early:?} within {whole:?}"
                );
            } else {
                assert!(got.certain.is_none() && got.provisional.is_none(), "{name}");
            }
        }
    }
    // An unknown key is certain at once: long before the end of its call.
    let (sse, _) = fixture("openai_responses_rejected");
    let streamed = replay(
        &streams,
        StreamFormat::OpenAiResponses,
        WireReader::new(StreamFormat::OpenAiResponses),
        &sse,
    );
    let (_, at) = streamed[&1].certain.as_ref().expect("certain");
    assert!(
        *at < streamed[&1].received / 2,
        "{at} of {}",
        streamed[&1].received
    );
}

mod generated {
    //! Calls of any text, cut anywhere and interleaved at random, in each
    //! format: the readers neither lose, reorder nor mix fragments, and the
    //! bytes of the event stream may be cut anywhere too.

    use super::{CallDelta, SseDecoder, StreamFormat, WireReader, rebuild};
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// One call: its name, and its arguments text cut into fragments.
    fn calls() -> impl Strategy<Value = Vec<(String, Vec<String>)>> {
        prop::collection::vec(
            ("[a-z_]{1,12}", prop::collection::vec(any::<String>(), 0..6)),
            1..4,
        )
    }

    fn events(
        format: StreamFormat,
        calls: &[(String, Vec<String>)],
        order: &[usize],
    ) -> Vec<Value> {
        let whole = |fragments: &[String]| fragments.concat();
        let mut events: Vec<Value> = Vec::new();
        for (i, (name, _)) in calls.iter().enumerate() {
            events.push(match format {
                StreamFormat::OpenAiChat => json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                    {"index": i, "id": format!("call_{i}"), "type": "function", "function": {"name": name, "arguments": ""}}]}}]}),
                StreamFormat::OpenAiResponses => json!({"type": "response.output_item.added", "output_index": i,
                    "item": {"type": "function_call", "id": format!("fc_{i}"), "call_id": format!("call_{i}"), "name": name, "arguments": ""}}),
                StreamFormat::Anthropic => json!({"type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": format!("call_{i}"), "name": name, "input": {}}}),
            });
        }
        let mut next = vec![0; calls.len()];
        let mut pending: usize = calls.iter().map(|(_, fragments)| fragments.len()).sum();
        let mut pick = order.iter().cycle();
        while pending > 0 {
            // The next call with fragments left, from a random start.
            let start = pick.next().copied().unwrap_or(0) % calls.len();
            let i = (0..calls.len())
                .map(|k| (start + k) % calls.len())
                .find(|&i| next[i] < calls[i].1.len())
                .expect("a call with fragments left");
            let fragment = &calls[i].1[next[i]];
            next[i] += 1;
            pending -= 1;
            events.push(match format {
                StreamFormat::OpenAiChat => {
                    json!({"choices": [{"index": 0, "delta": {"tool_calls": [
                    {"index": i, "function": {"arguments": fragment}}]}}]})
                }
                StreamFormat::OpenAiResponses => {
                    json!({"type": "response.function_call_arguments.delta",
                    "output_index": i, "item_id": format!("fc_{i}"), "delta": fragment})
                }
                StreamFormat::Anthropic => json!({"type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": fragment}}),
            });
            if next[i] == calls[i].1.len() {
                match format {
                    StreamFormat::OpenAiChat => {}
                    StreamFormat::OpenAiResponses => events.push(json!({"type": "response.function_call_arguments.done",
                        "output_index": i, "item_id": format!("fc_{i}"), "arguments": whole(&calls[i].1)})),
                    StreamFormat::Anthropic => events.push(json!({"type": "content_block_stop", "index": i})),
                }
            }
        }
        events.push(match format {
            StreamFormat::OpenAiChat => {
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
            }
            StreamFormat::OpenAiResponses => {
                json!({"type": "response.completed", "response": {"id": "r"}})
            }
            StreamFormat::Anthropic => json!({"type": "message_stop"}),
        });
        events
    }

    proptest! {
        #[test]
        fn fragments_cut_anywhere_and_interleaved_rebuild_each_call(
            calls in calls(),
            order in prop::collection::vec(0usize..3, 1..40),
            chunk in 1usize..50,
        ) {
            for format in [StreamFormat::OpenAiChat, StreamFormat::OpenAiResponses, StreamFormat::Anthropic] {
                let events = events(format, &calls, &order);
                let sse: String = events.iter().map(|event| format!("data: {event}\n\n")).collect();
                let mut decoder = SseDecoder::new();
                let mut reader = WireReader::new(format);
                let mut deltas: Vec<CallDelta> = Vec::new();
                for piece in sse.as_bytes().chunks(chunk) {
                    for event in decoder.push(piece).expect("UTF-8") {
                        deltas.extend(reader.read_sse(&event).expect("well formed"));
                    }
                }
                let rebuilt = rebuild(&deltas);
                prop_assert_eq!(rebuilt.len(), calls.len());
                for (i, (name, fragments)) in calls.iter().enumerate() {
                    let call = &rebuilt[&(i as u64)];
                    prop_assert!(call.ended, "{} call {} never ended", format, i);
                    prop_assert_eq!(&call.name, name);
                    prop_assert_eq!(call.id.clone(), Some(format!("call_{i}")));
                    prop_assert_eq!(&call.arguments, &fragments.concat());
                }
            }
        }
    }
}
