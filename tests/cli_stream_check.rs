//! `toolargs check` and streamed responses: a line that is one chunk or
//! event of a stream gets a chunk verdict in the default mode, and
//! `check --stream` assembles the calls of one recorded stream (server-sent
//! events or JSON Lines; OpenAI Chat, Responses, Anthropic) and gives each
//! the verdict the default mode gives the whole call.
//!
//! The recorded streams are `tests/data/streams/*.sse` (events built by the
//! providers' own SDKs); `<name>.expected.json` holds the calls each SDK
//! assembled from them, which the whole-call checks here are built from.
//! Streams needing repairs are built in this file, event by event, in each
//! provider's shape.

mod cli_support;

use cli_support::{Output, scratch, toolargs, write};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The two tools the recorded streams call.
const TOOLS: &str = r#"[
  {"type": "function", "function": {"name": "refund", "description": "Refund an order.",
    "parameters": {"type": "object",
      "properties": {
        "order_id": {"type": "string", "pattern": "^ord_[a-z0-9]{8}$"},
        "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
        "reason": {"enum": ["damaged", "late", "not_received"]},
        "note": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}}
      },
      "required": ["order_id", "amount_cents", "reason"],
      "additionalProperties": false}}},
  {"type": "function", "function": {"name": "write_file", "description": "Write a file.",
    "parameters": {"type": "object",
      "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
      "required": ["path", "content"],
      "additionalProperties": false}}}
]"#;

/// The refund tool alone, as `--schema` takes it.
fn refund_schema() -> String {
    let tools: Value = serde_json::from_str(TOOLS).unwrap();
    tools[0]["function"]["parameters"].to_string()
}

const RECORDED: [&str; 7] = [
    "openai_chat_parallel",
    "openai_chat_rejected",
    "openai_chat_two_choices",
    "openai_responses_parallel",
    "openai_responses_rejected",
    "anthropic_parallel",
    "anthropic_rejected",
];

fn recorded(name: &str) -> (String, Value) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/streams/");
    let sse = std::fs::read_to_string(format!("{dir}{name}.sse")).expect("recorded stream");
    let expected =
        std::fs::read_to_string(format!("{dir}{name}.expected.json")).expect("expected calls");
    (sse, serde_json::from_str(&expected).unwrap())
}

/// The events of a server-sent event stream, one JSON text per line.
fn json_lines(sse: &str) -> String {
    sse.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter(|data| *data != "[DONE]")
        .map(|data| format!("{data}\n"))
        .collect()
}

/// The whole call as the provider sends it outside a stream: what the
/// default mode checks.
fn whole_call(format: &str, id: &str, name: &str, arguments: &str) -> Value {
    match format {
        "openai_chat" => json!({"type": "function", "id": id,
            "function": {"name": name, "arguments": arguments}}),
        "openai_responses" => json!({"type": "function_call", "call_id": id,
            "name": name, "arguments": arguments}),
        "anthropic" => json!({"type": "tool_use", "id": id, "name": name,
            "input": serde_json::from_str::<Value>(arguments).expect("whole arguments")}),
        other => panic!("no whole-call shape for {other}"),
    }
}

/// The default mode's verdicts on `calls`, one line each.
fn whole_verdicts(tools: &str, calls: &[Value]) -> Vec<Value> {
    let input: String = calls.iter().map(|c| format!("{c}\n")).collect();
    let out = toolargs(&["check", "--tools", tools], input.as_bytes());
    assert!(out.code <= 1, "{}", out.stderr);
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), calls.len());
    verdicts
}

/// What a verdict says of its call, apart from where it stands.
fn judgement(verdict: &Value) -> Value {
    json!({
        "id": verdict["id"],
        "tool": verdict["tool"],
        "ok": verdict["ok"],
        "repairs": verdict["repairs"],
        "error": verdict["error"],
        "message": verdict["message"],
    })
}

/// `check --stream` on `input`, its verdicts keyed by (choice, index).
fn stream_verdicts(args: &[&str], input: &str) -> (Output, BTreeMap<(u64, u64), Value>) {
    let out = toolargs(args, input.as_bytes());
    assert!(out.code <= 1, "{}", out.stderr);
    let mut by_call = BTreeMap::new();
    for verdict in out.json_lines() {
        let key = (
            verdict["choice"].as_u64().unwrap_or(0),
            verdict["index"]
                .as_u64()
                .expect("a stream verdict names its index"),
        );
        assert!(
            by_call.insert(key, verdict).is_none(),
            "one verdict per call"
        );
    }
    (out, by_call)
}

#[test]
fn a_chunk_or_event_line_gets_a_chunk_verdict_in_the_default_mode() {
    let dir = scratch("stream-chunks");
    let tools = write(&dir, "tools.json", TOOLS);
    for name in [
        "openai_chat_parallel",
        "openai_responses_parallel",
        "anthropic_parallel",
    ] {
        let (sse, _) = recorded(name);
        let events = json_lines(&sse);
        let out = toolargs(&["check", "--tools", &tools], events.as_bytes());
        assert_eq!(
            out.code,
            0,
            "{name}: a chunk is not an error: {}",
            out.text()
        );
        let verdicts = out.json_lines();
        assert_eq!(verdicts.len(), events.lines().count(), "{name}");
        for (i, verdict) in verdicts.iter().enumerate() {
            assert_eq!(verdict["line"], i + 1, "{name}");
            assert_eq!(verdict["chunk"], true, "{name}: {verdict}");
            assert_eq!(verdict["calls"], 0, "{name}: {verdict}");
            assert_eq!(verdict["ok"], true, "{name}: {verdict}");
            assert!(
                verdict["note"].as_str().unwrap().contains("--stream"),
                "{name}: {verdict}"
            );
        }
    }

    // Beside chunks, whole calls are checked as before, and a line that
    // holds no call and is no chunk says only `calls: 0`.
    let mixed = [
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a"}}"#,
        r#"{"type":"tool_use","id":"t1","name":"write_file","input":{"path":"a","content":"b"}}"#,
        r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}"#,
        r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{"}"#,
        r#"{"type":"tool_use","id":"t2","name":"write_file","input":{"path":1}}"#,
    ]
    .join("\n");
    let out = toolargs(&["check", "--tools", &tools], mixed.as_bytes());
    assert_eq!(out.code, 1, "the last call is rejected");
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), 5);
    assert_eq!(verdicts[0]["chunk"], true);
    assert_eq!(verdicts[1]["ok"], true);
    assert_eq!(verdicts[1]["tool"], "write_file");
    assert!(verdicts[1].get("chunk").is_none());
    assert_eq!(verdicts[2], json!({"line": 3, "calls": 0, "ok": true}));
    assert_eq!(verdicts[3]["chunk"], true);
    assert_eq!(verdicts[4]["ok"], false);

    // A server-sent event line is not JSON: rejected as before, with a note
    // pointing at --stream (the model's message is unchanged).
    let (sse, _) = recorded("anthropic_rejected");
    let first_two: String = sse.lines().take(2).map(|l| format!("{l}\n")).collect();
    let out = toolargs(&["check", "--tools", &tools], first_two.as_bytes());
    assert_eq!(out.code, 1);
    for verdict in out.json_lines() {
        assert_eq!(verdict["ok"], false, "{verdict}");
        assert_eq!(verdict["error"]["kind"], "envelope", "{verdict}");
        assert!(verdict.get("chunk").is_none(), "{verdict}");
        assert!(
            verdict["note"].as_str().unwrap().contains("--stream"),
            "{verdict}"
        );
        assert!(!verdict["message"].as_str().unwrap().contains("--stream"));
    }

    // With --schema a line is one tool's arguments, whatever members it has.
    let schema = write(&dir, "refund.json", &refund_schema());
    let event = r#"{"type":"ping"}"#;
    let out = toolargs(&["check", "--schema", &schema], event.as_bytes());
    assert_eq!(out.code, 1);
    assert!(out.json_lines()[0].get("chunk").is_none());
}

/// Every recorded stream, as server-sent events (with `\n` and with
/// `\r\n`) and as JSON Lines: one verdict per call the SDK assembled, each
/// saying what the default mode says of the whole call.
#[test]
fn stream_verdicts_are_the_whole_call_verdicts_on_every_recorded_stream() {
    let dir = scratch("stream-recorded");
    let tools = write(&dir, "tools.json", TOOLS);
    let mut rejected = 0;
    for name in RECORDED {
        let (sse, expected) = recorded(name);
        let format = expected["format"].as_str().unwrap();
        let calls = expected["calls"].as_array().unwrap();
        let wholes: Vec<Value> = calls
            .iter()
            .map(|call| {
                let arguments = match &call["arguments"] {
                    Value::String(text) => text.clone(),
                    _ => call["input"].to_string(),
                };
                whole_call(
                    format,
                    call["id"].as_str().unwrap(),
                    call["name"].as_str().unwrap(),
                    &arguments,
                )
            })
            .collect();
        let whole = whole_verdicts(&tools, &wholes);
        let any_rejected = whole.iter().any(|v| v["ok"] == false);
        rejected += usize::from(any_rejected);
        let crlf = sse.replace('\n', "\r\n");
        let framings = [
            ("sse", sse.clone()),
            ("crlf", crlf),
            ("jsonl", json_lines(&sse)),
        ];
        let mut judged = Vec::new();
        for (framing, input) in &framings {
            let (out, verdicts) = stream_verdicts(&["check", "--tools", &tools, "--stream"], input);
            assert_eq!(
                out.code,
                i32::from(any_rejected),
                "{name} {framing}: {}",
                out.text()
            );
            assert_eq!(
                verdicts.len(),
                calls.len(),
                "{name} {framing}: {}",
                out.text()
            );
            for (call, whole) in calls.iter().zip(&whole) {
                let key = (
                    call["choice"].as_u64().unwrap_or(0),
                    call["index"].as_u64().unwrap(),
                );
                let verdict = &verdicts[&key];
                assert_eq!(
                    judgement(verdict),
                    judgement(whole),
                    "{name} {framing} {key:?}"
                );
                if format == "openai_chat" {
                    assert_eq!(verdict["choice"], key.0, "{name} {framing}");
                } else {
                    assert!(verdict.get("choice").is_none(), "{name} {framing}");
                }
                let line = verdict["line"].as_u64().unwrap() as usize;
                let text = input.lines().nth(line - 1).unwrap();
                assert!(
                    text.contains('{'),
                    "{name} {framing}: the verdict names the event's line, not {text:?}"
                );
            }
            judged.push(verdicts.values().map(judgement).collect::<Vec<_>>());
        }
        assert!(judged.windows(2).all(|w| w[0] == w[1]), "{name}");
    }
    assert_eq!(
        rejected, 3,
        "each provider's recording with a rejected call"
    );
}

/// A call's arguments in fragments of `size` bytes (on character bounds).
fn pieces(text: &str, size: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if current.len() >= size {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A stream of `calls` (id, name, arguments) in `format`, each call's
/// fragments after the previous call's, as events.
fn build_stream(format: &str, calls: &[(&str, &str, &str)]) -> Vec<Value> {
    let mut events = Vec::new();
    match format {
        "openai_chat" => {
            let chunk = |delta: Value, finish: Value| {
                json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
            };
            events.push(chunk(
                json!({"role": "assistant", "content": ""}),
                Value::Null,
            ));
            for (index, (id, name, arguments)) in calls.iter().enumerate() {
                events.push(chunk(
                    json!({"tool_calls": [{"index": index, "id": id, "type": "function",
                           "function": {"name": name, "arguments": ""}}]}),
                    Value::Null,
                ));
                for piece in pieces(arguments, 7) {
                    events.push(chunk(
                        json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}),
                        Value::Null,
                    ));
                }
            }
            events.push(chunk(json!({}), json!("tool_calls")));
        }
        "openai_responses" => {
            events.push(json!({"type": "response.created", "sequence_number": 0,
                               "response": {"id": "resp_1", "output": [], "status": "in_progress"}}));
            for (index, (id, name, arguments)) in calls.iter().enumerate() {
                let item = format!("fc_{index}");
                events.push(
                    json!({"type": "response.output_item.added", "output_index": index,
                    "item": {"type": "function_call", "id": item, "call_id": id, "name": name,
                             "arguments": "", "status": "in_progress"}}),
                );
                for piece in pieces(arguments, 7) {
                    events.push(json!({"type": "response.function_call_arguments.delta",
                        "output_index": index, "item_id": item, "delta": piece}));
                }
                events.push(json!({"type": "response.function_call_arguments.done",
                    "output_index": index, "item_id": item, "arguments": arguments}));
                events.push(
                    json!({"type": "response.output_item.done", "output_index": index,
                    "item": {"type": "function_call", "id": item, "call_id": id, "name": name,
                             "arguments": arguments, "status": "completed"}}),
                );
            }
            events.push(json!({"type": "response.completed",
                               "response": {"id": "resp_1", "output": [], "status": "completed"}}));
        }
        "anthropic" => {
            events.push(json!({"type": "message_start", "message": {"id": "msg_1",
                "type": "message", "role": "assistant", "content": []}}));
            events.push(json!({"type": "ping"}));
            for (index, (id, name, arguments)) in calls.iter().enumerate() {
                events.push(json!({"type": "content_block_start", "index": index,
                    "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}));
                for piece in pieces(arguments, 7) {
                    events.push(json!({"type": "content_block_delta", "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": piece}}));
                }
                events.push(json!({"type": "content_block_stop", "index": index}));
            }
            events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
            events.push(json!({"type": "message_stop"}));
        }
        other => panic!("no stream shape for {other}"),
    }
    events
}

fn as_sse(events: &[Value], done: bool) -> String {
    let mut text = String::new();
    for event in events {
        if let Some(kind) = event["type"].as_str() {
            text.push_str(&format!("event: {kind}\n"));
        }
        text.push_str(&format!("data: {event}\n\n"));
    }
    if done {
        text.push_str("data: [DONE]\n\n");
    }
    text
}

fn as_json_lines(events: &[Value]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

/// Calls the recordings lack: one repaired (a list sent as text, an
/// escaped `&`), one rejected, one clean.
const BUILT: [(&str, &str, &str); 3] = [
    (
        "call_repair",
        "refund",
        r#"{"order_id":"ord_8f2k1x9q","amount_cents":2500,"reason":"late","tags":"[\"vip\",\"late\"]","note":"Tom &amp;amp; Jerry"}"#,
    ),
    (
        "call_reject",
        "refund",
        r#"{"order_id":"ORD-1","amount_cents":0,"reason":"late"}"#,
    ),
    (
        "call_clean",
        "write_file",
        r#"{"path":"a.txt","content":"x"}"#,
    ),
];

#[test]
fn a_repaired_and_a_rejected_call_stream_as_they_check_whole_for_each_provider() {
    let dir = scratch("stream-built");
    let tools = write(&dir, "tools.json", TOOLS);
    for format in ["openai_chat", "openai_responses", "anthropic"] {
        let events = build_stream(format, &BUILT);
        let wholes: Vec<Value> = BUILT
            .iter()
            .map(|(id, name, arguments)| whole_call(format, id, name, arguments))
            .collect();
        let whole = whole_verdicts(&tools, &wholes);
        assert_eq!(whole[0]["ok"], true, "{format}: {}", whole[0]);
        assert!(
            whole[0]["repairs"].as_array().unwrap().len() >= 2,
            "{format}: the first call needs repairs: {}",
            whole[0]
        );
        assert_eq!(whole[1]["ok"], false, "{format}");
        assert_eq!(whole[2]["ok"], true, "{format}");
        let inputs = [
            ("sse", as_sse(&events, format == "openai_chat")),
            ("jsonl", as_json_lines(&events)),
        ];
        for (framing, input) in inputs {
            let out = toolargs(&["check", "--tools", &tools, "--stream"], input.as_bytes());
            assert_eq!(out.code, 1, "{format} {framing}: {}", out.stderr);
            let verdicts = out.json_lines();
            assert_eq!(verdicts.len(), 3, "{format} {framing}: {}", out.text());
            for (i, verdict) in verdicts.iter().enumerate() {
                // Each call ends before the next begins (except chat
                // completions, whose calls all end at `finish_reason`):
                // in either case, in the order they opened.
                assert_eq!(verdict["index"], i, "{format} {framing}");
                assert_eq!(
                    judgement(verdict),
                    judgement(&whole[i]),
                    "{format} {framing} call {i}"
                );
            }
            let lines: Vec<u64> = verdicts
                .iter()
                .map(|v| v["line"].as_u64().unwrap())
                .collect();
            if format == "openai_chat" {
                assert!(lines.windows(2).all(|w| w[0] == w[1]), "{format} {lines:?}");
            } else {
                assert!(lines.windows(2).all(|w| w[0] < w[1]), "{format} {lines:?}");
            }
        }
    }
}

#[test]
fn with_a_schema_every_streamed_call_is_a_call_to_the_one_tool() {
    let dir = scratch("stream-schema");
    let schema = write(&dir, "refund.json", &refund_schema());
    let (sse, _) = recorded("openai_chat_parallel");
    let (out, verdicts) = stream_verdicts(&["check", "--schema", &schema, "--stream"], &sse);
    assert_eq!(out.code, 1, "{}", out.text());
    assert_eq!(verdicts.len(), 2);
    // The refund call passes; the call streamed as `write_file` is checked
    // as a refund, and fails as one.
    assert_eq!(verdicts[&(0, 0)]["ok"], true);
    assert_eq!(verdicts[&(0, 0)]["tool"], "refund");
    let other = &verdicts[&(0, 1)];
    assert_eq!(other["tool"], "refund");
    assert_eq!(other["id"], "call_Wr1teT0kyo");
    assert_eq!(other["ok"], false);
    assert_eq!(other["error"]["rejection"], "invalid_arguments");
    assert_eq!(other["error"]["tool"], "refund");

    // --name names the one tool the calls are checked against.
    let (_, verdicts) = stream_verdicts(
        &[
            "check",
            "--schema",
            &schema,
            "--name",
            "give_back",
            "--stream",
        ],
        &sse,
    );
    assert_eq!(verdicts[&(0, 0)]["tool"], "give_back");
    assert_eq!(verdicts[&(0, 0)]["ok"], true);
}

#[test]
fn a_broken_stream_gets_an_error_verdict_naming_its_line() {
    let dir = scratch("stream-broken");
    let tools = write(&dir, "tools.json", TOOLS);
    let args = ["check", "--tools", &tools, "--stream"];

    // A delta for a call never opened, after one call ended: that call keeps
    // its verdict, the error names the event's line, and nothing after it
    // is read (the second call never gets a verdict).
    let mut events = build_stream("anthropic", &BUILT[2..]);
    let stop = events.len() - 2;
    events.insert(
        stop,
        json!({"type": "content_block_delta", "index": 7,
               "delta": {"type": "input_json_delta", "partial_json": "{"}}),
    );
    events.insert(
        stop + 1,
        json!({"type": "content_block_start", "index": 8,
               "content_block": {"type": "tool_use", "id": "t8", "name": "write_file", "input": {}}}),
    );
    let input = as_json_lines(&events);
    let out = toolargs(&args, input.as_bytes());
    assert_eq!(out.code, 1, "{}", out.text());
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), 2, "{}", out.text());
    assert_eq!(verdicts[0]["ok"], true);
    assert_eq!(verdicts[1]["line"], stop + 1);
    assert_eq!(verdicts[1]["ok"], false);
    assert_eq!(verdicts[1]["error"]["rejection"], "syntax");
    assert!(
        verdicts[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("never opened"),
        "{}",
        verdicts[1]
    );

    // An event that is not JSON, in server-sent events: its `data` line.
    let events = build_stream("openai_responses", &BUILT[2..]);
    let mut sse = as_sse(&events[..2], false);
    sse.push_str("event: response.function_call_arguments.delta\ndata: {\"type\":\n\n");
    let out = toolargs(&args, sse.as_bytes());
    assert_eq!(out.code, 1);
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), 1, "{}", out.text());
    let broken = sse.lines().position(|l| l == "data: {\"type\":").unwrap() + 1;
    assert_eq!(verdicts[0]["line"], broken);
    assert_eq!(verdicts[0]["error"]["kind"], "envelope");

    // A first event of no known stream.
    let out = toolargs(&args, b"\n{\"name\":\"refund\",\"arguments\":{}}\n");
    assert_eq!(out.code, 1);
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0]["line"], 2);
    assert_eq!(verdicts[0]["error"]["kind"], "shape");

    // A provider's streamed error.
    let mut events = build_stream("anthropic", &[]);
    events.insert(
        1,
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    );
    let out = toolargs(&args, as_json_lines(&events).as_bytes());
    assert_eq!(out.code, 1);
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0]["line"], 2);
    assert!(
        verdicts[0]["message"]
            .as_str()
            .unwrap()
            .contains("Overloaded")
    );
}

#[test]
fn a_cut_stream_checks_its_open_calls_at_the_end_and_a_stream_without_calls_says_so() {
    let dir = scratch("stream-cut");
    let tools = write(&dir, "tools.json", TOOLS);
    let args = ["check", "--tools", &tools, "--stream"];

    // The recording stops in the middle of the arguments (and the last
    // event has no blank line after it): the call is checked as far as it
    // came, at the last line, as the whole call with that text would be.
    let events = build_stream("openai_chat", &BUILT[2..]);
    let cut = &events[..events.len() - 3];
    let mut sse = as_sse(cut, false);
    sse.pop();
    let out = toolargs(&args, sse.as_bytes());
    assert_eq!(out.code, 1, "{}", out.text());
    let verdicts = out.json_lines();
    assert_eq!(verdicts.len(), 1, "{}", out.text());
    assert_eq!(verdicts[0]["line"], sse.lines().count());
    let text: String = cut
        .iter()
        .filter_map(|e| e["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"].as_str())
        .collect();
    let whole = whole_verdicts(
        &tools,
        &[whole_call("openai_chat", "call_clean", "write_file", &text)],
    );
    assert_eq!(whole[0]["ok"], false);
    assert_eq!(judgement(&verdicts[0]), judgement(&whole[0]));

    // A stream with text and no call: one verdict saying so.
    let events = build_stream("anthropic", &[]);
    let input = as_json_lines(&events);
    let out = toolargs(&args, input.as_bytes());
    assert_eq!(out.code, 0);
    assert_eq!(
        out.json_lines(),
        vec![json!({"line": events.len(), "calls": 0, "ok": true})]
    );
}

#[test]
fn stream_refuses_jobs_and_is_in_the_help() {
    let dir = scratch("stream-jobs");
    let tools = write(&dir, "tools.json", TOOLS);
    for jobs in ["0", "2"] {
        let out = toolargs(
            &["check", "--tools", &tools, "--stream", "--jobs", jobs],
            b"",
        );
        assert_eq!(out.code, 2);
        assert!(out.stderr.contains("--jobs"), "{}", out.stderr);
    }
    let help = toolargs(&["check", "--help"], b"");
    assert!(help.text().contains("--stream"));
}
