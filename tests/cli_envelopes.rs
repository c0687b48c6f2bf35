//! `toolargs check --tools` on envelopes: a turn of text alone holds no
//! call, a JSON-RPC id is echoed as it was sent, and `--max-depth` reaches
//! arguments inside an envelope, whatever the format sends them as.

mod cli_support;

use cli_support::{scratch, toolargs, write};
use serde_json::{Value, json};

/// An MCP tools file with one tool, `f`, that takes any object.
const TOOLS: &str =
    r#"[{"name":"f","description":"Takes anything.","inputSchema":{"type":"object"}}]"#;

#[test]
fn a_turn_of_text_alone_is_zero_calls() {
    let dir = scratch("envelopes-text");
    let tools = write(&dir, "tools.json", TOOLS);
    let lines = [
        r#"{"role":"assistant","content":"Hello"}"#,
        r#"{"role":"assistant","content":[{"type":"text","text":"hi"}]}"#,
        r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}"#,
        r#"{"choices":[{"message":{"role":"assistant","content":"Hello"}}]}"#,
        r#"{"nme":"f","arguments":{}}"#,
    ];
    let out = toolargs(&["check", "--tools", &tools], lines.join("\n").as_bytes());
    let v = out.json_lines();
    for (i, verdict) in v[..4].iter().enumerate() {
        assert_eq!(verdict, &json!({"line": i + 1, "calls": 0, "ok": true}));
    }
    // A misspelt call is still refused.
    assert_eq!(v[4]["ok"], false);
    assert_eq!(v[4]["error"]["kind"], "shape");
    assert_eq!(out.code, 1, "{}", out.stderr);
}

#[test]
fn a_json_rpc_id_is_echoed_as_sent() {
    let dir = scratch("envelopes-ids");
    let tools = write(&dir, "tools.json", TOOLS);
    let ids = [
        "100000000000000000000",
        "-9223372036854775809",
        "1.0",
        "1e3",
        "-0",
    ];
    let lines: Vec<String> = ids
        .iter()
        .map(|id| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"f","arguments":{{}}}}}}"#
            )
        })
        .collect();
    let out = toolargs(&["check", "--tools", &tools], lines.join("\n").as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got: Vec<Value> = out.json_lines().iter().map(|v| v["id"].clone()).collect();
    let want: Vec<Value> = ids.iter().map(|id| json!(id)).collect();
    assert_eq!(got, want);
}

#[test]
fn max_depth_reaches_arguments_inside_an_envelope() {
    let dir = scratch("envelopes-depth");
    let tools = write(&dir, "tools.json", TOOLS);
    let deep = format!("{}{{}}{}", r#"{"a":"#.repeat(199), "}".repeat(199));
    let anthropic = format!(
        r#"{{"role":"assistant","content":[{{"type":"tool_use","id":"t","name":"f","input":{deep}}}]}}"#
    );
    let openai = format!(
        r#"{{"role":"assistant","tool_calls":[{{"id":"c","type":"function","function":{{"name":"f","arguments":{}}}}}]}}"#,
        Value::String(deep.clone())
    );
    let lines = format!("{anthropic}\n{openai}\n");
    let out = toolargs(
        &["check", "--tools", &tools, "--max-depth", "1000"],
        lines.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v = out.json_lines();
    assert_eq!(v.len(), 2);
    for verdict in &v {
        assert_eq!(verdict["ok"], true, "{verdict}");
    }
    // With the default limit, both are refused alike.
    let out = toolargs(&["check", "--tools", &tools], lines.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v = out.json_lines();
    assert_eq!(v.len(), 2);
    for verdict in &v {
        assert_eq!(verdict["ok"], false, "{verdict}");
        assert_eq!(verdict["tool"], "f", "{verdict}");
        assert_eq!(verdict["error"]["rejection"], "syntax", "{verdict}");
        assert_eq!(verdict["error"]["kind"], "arguments", "{verdict}");
        assert_eq!(
            verdict["error"]["message"],
            "arguments nest 200 levels deep, more than the limit of 128"
        );
    }
}

#[test]
fn a_lone_surrogate_is_named_in_the_verdict() {
    let dir = scratch("envelopes-surrogate");
    let tools = write(&dir, "tools.json", TOOLS);
    let out = toolargs(
        &["check", "--tools", &tools],
        br#"{"name":"f","arguments":{"a":"x\ud800"}}"#,
    );
    let v = out.json_lines();
    assert_eq!(v[0]["error"]["message"], r"lone surrogate \uD800");
    assert_eq!(v[0]["error"]["column"], 32);
}
