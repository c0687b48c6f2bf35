//! Call parsing and the toolbox pipeline on arbitrary bytes: `call::parse`
//! (format detection) and `call::parse_as` (every format) never panic; every
//! call read is run through toolboxes holding dynamic tools (canonical and
//! OpenAI strict dialects, a policy that allows, denies or holds for
//! approval, a body that can fail); every rejection renders its
//! `model_message()` and serializes; an approval, once granted, runs.
//!
//! The same text checks `json_text`, the parser every call and every
//! decoded string goes through: its pre-parse nesting count never
//! undercounts (it is what keeps the recursion-limit-free parse off the
//! stack), and within serde_json's own limit it accepts exactly what
//! serde_json accepts, with the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::LazyLock;
use toolargs::call::{self, ToolCall, WireFormat};
use toolargs::export::Dialect;
use toolargs::json_text::{self, JsonTextError};
use toolargs::policy::{Decision, PolicyRequest};
use toolargs::rejection::{CallError, Rejection};
use toolargs::toolbox::Toolbox;

const FORMATS: [WireFormat; 6] = [
    WireFormat::OpenAiChat,
    WireFormat::OpenAiResponses,
    WireFormat::Anthropic,
    WireFormat::Gemini,
    WireFormat::McpToolsCall,
    WireFormat::Plain,
];

fn refund_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[0-9]+$"},
            "amount_cents": {"type": "integer", "minimum": 1},
            "reason": {"enum": ["damaged", "late"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filter": {
                "anyOf": [
                    {"type": "object", "properties": {"since": {"type": "string"}}},
                    {"type": "null"}
                ]
            }
        },
        "required": ["order_id", "amount_cents"],
        "additionalProperties": false
    })
}

fn search_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer"},
            "fail": {"type": "boolean"}
        },
        "required": ["query"]
    })
}

fn policy(request: &PolicyRequest<'_, ()>) -> Decision {
    match request.arguments.get("query").and_then(Value::as_str) {
        Some(q) if q.contains("deny") => Decision::deny("no"),
        Some(q) if q.contains("ask") => Decision::require_approval("a person decides"),
        _ => Decision::Allow,
    }
}

fn body(args: Value) -> Result<Value, String> {
    if args.get("fail") == Some(&Value::Bool(true)) {
        Err("the body failed".to_owned())
    } else {
        Ok(args)
    }
}

fn toolbox(dialect: Dialect) -> Toolbox {
    let mut toolbox = Toolbox::with_dialect(dialect).policy(policy);
    toolbox
        .dynamic_tool_sync("refund", "Refunds an order.", refund_schema(), body)
        .expect("the refund schema registers")
        .dynamic_tool_sync("search", "Searches.", search_schema(), body)
        .expect("the search schema registers");
    toolbox
}

static CANONICAL: LazyLock<Toolbox> = LazyLock::new(|| toolbox(Dialect::Canonical));
static STRICT: LazyLock<Toolbox> = LazyLock::new(|| toolbox(Dialect::OpenAiStrict));

fn check_rejection(rejection: Rejection) {
    let _ = rejection.model_message();
    let _ = rejection.to_string();
    serde_json::to_value(&rejection).expect("a rejection serializes");
}

fn run(toolbox: &Toolbox, call: ToolCall) {
    match toolbox.call_blocking(&(), call) {
        Ok(done) => {
            serde_json::to_value(&done).expect("a completed call serializes");
        }
        Err(error) => {
            render(&error);
            if let CallError::ApprovalRequired(approval) = &error {
                match toolbox.call_approved_blocking(approval) {
                    Ok(done) => {
                        serde_json::to_value(&done).expect("a completed call serializes");
                    }
                    Err(error) => render(&error),
                }
            }
        }
    }
}

fn render(error: &CallError) {
    let _ = error.model_message();
    let _ = error.to_string();
    serde_json::to_value(error).expect("a call error serializes");
}

fn check_json_text(text: &str) {
    let nesting = json_text::nesting(text);
    let ours = json_text::from_str(text, 128);
    match &ours {
        Err(JsonTextError::TooDeep { found, limit }) => {
            assert_eq!((*found, *limit), (nesting, 128));
            assert!(nesting > 128);
        }
        // Well inside serde_json's own recursion limit, the two agree.
        _ if nesting <= 100 => match (&ours, serde_json::from_str::<Value>(text)) {
            (Ok(a), Ok(b)) => assert_eq!(a, &b, "json_text and serde_json disagree"),
            (Ok(_), Err(e)) => panic!("json_text accepted what serde_json rejects: {e}"),
            (Err(_), Ok(_)) => panic!("json_text rejected what serde_json accepts"),
            (Err(_), Err(_)) => {}
        },
        _ => {}
    }
    if let Ok(value) = &ours {
        assert!(
            depth(value) <= nesting,
            "nesting() counted {nesting}, the value nests {}",
            depth(value)
        );
    }
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_json_text(text);
    match call::parse(text) {
        Ok(calls) => {
            for call in calls {
                serde_json::to_value(&call).expect("a call serializes");
                run(&CANONICAL, call.clone());
                run(&STRICT, call);
            }
        }
        Err(error) => check_rejection(Rejection::Syntax(error)),
    }
    for format in FORMATS {
        match call::parse_as(format, text) {
            Ok(calls) => {
                for call in calls {
                    serde_json::to_value(&call).expect("a call serializes");
                }
            }
            Err(error) => check_rejection(Rejection::Syntax(error)),
        }
    }
});
