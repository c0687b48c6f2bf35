//! Call parsing and the toolbox pipeline on arbitrary bytes: `call::read`
//! (format detection) and `call::Reader::format` (every format), read all
//! or nothing (`ReadCalls::into_calls`), never panic; every
//! call read is run through toolboxes holding dynamic tools (canonical and
//! OpenAI strict dialects, a policy that allows, denies or holds for
//! approval, a body that can fail); every rejection renders its
//! `model_message()` and serializes; an approval, once granted, runs.
//!
//! `call::read` and `Reader::format` (every format), where they succeed,
//! give entries each of which is a call or an unreadable call named by its
//! own pointer, which resolves in the parsed envelope (and the member at
//! fault lies inside the entry); an id read from a number is that number's
//! JSON text exactly as sent (found independently, through serde_json's
//! `RawValue`). A syntax error that names a lone surrogate escape points
//! at that escape, in the envelope or in arguments sent as text.
//!
//! The same text checks `toolargs::json::read`, the parser every call and
//! every decoded string goes through: it refuses text for its depth exactly
//! when the text nests past the limit (counted here apart from it), never
//! builds a value deeper than the text, and within serde_json's own limit it
//! accepts exactly what serde_json accepts, with the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::LazyLock;
use toolargs::call::{self, Arguments, ReadCalls, ToolCall, Unreadable, WireFormat};
use toolargs::export::Dialect;
use toolargs::json;
use toolargs::policy::{Decision, PolicyRequest};
use toolargs::rejection::{CallError, Rejection, SyntaxError};
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

/// A lone surrogate is named where its escape stands in `text`.
fn check_syntax(text: &str, error: &SyntaxError) {
    let Some(escape) = error.message.strip_prefix("lone surrogate ") else {
        return;
    };
    let (Some(line), Some(column)) = (error.line, error.column) else {
        panic!("a lone surrogate without its place: {error:?}");
    };
    let line = text.split('\n').nth(line - 1).expect("the line exists");
    let written = line
        .get(column - 1..column + 5)
        .expect("the escape is on its line");
    assert_eq!(
        written.to_ascii_uppercase(),
        escape.to_ascii_uppercase(),
        "{error:?}"
    );
}

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
    let nesting = toolargs_fuzz::nesting(text);
    let ours = json::read(text, 128);
    match &ours {
        Err(SyntaxError {
            line: None,
            message,
            ..
        }) => {
            assert_eq!(
                message,
                &format!("JSON nests {nesting} levels deep, more than the limit of 128")
            );
            assert!(nesting > 128);
        }
        // Well inside serde_json's own recursion limit, the two agree.
        _ if nesting <= 100 => match (&ours, serde_json::from_str::<Value>(text)) {
            (Ok(a), Ok(b)) => assert_eq!(a, &b, "json::read and serde_json disagree"),
            (Ok(_), Err(e)) => panic!("json::read accepted what serde_json rejects: {e}"),
            (Err(_), Ok(_)) => panic!("json::read rejected what serde_json accepts"),
            (Err(_), Err(_)) => {}
        },
        _ => {}
    }
    if let Ok(value) = &ours {
        assert!(
            depth(value) <= nesting,
            "the text nests {nesting}, the value {}",
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

/// The raw text of the value at `pointer` in `text`, walked with
/// `RawValue` (a repeated key: the last one, as `Value` keeps it).
fn raw_at<'a>(text: &'a str, pointer: &str) -> Option<&'a str> {
    fn from<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Option<T> {
        let mut de = serde_json::Deserializer::from_str(text);
        de.disable_recursion_limit();
        T::deserialize(&mut de).ok()
    }
    let mut raw: &'a RawValue = from(text)?;
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        raw = match raw.get().trim_start().as_bytes().first()? {
            b'[' => {
                let items: Vec<&'a RawValue> = from(raw.get())?;
                *items.get(segment.parse::<usize>().ok()?)?
            }
            b'{' => {
                let members: HashMap<String, &'a RawValue> = from(raw.get())?;
                *members.get(&segment)?
            }
            _ => return None,
        };
    }
    Some(raw.get())
}

/// Every entry of a reading: its pointer resolves in the envelope, an
/// unreadable one is named by it, and an id is its member's string or the
/// number's text as sent.
fn check_read(text: &str, read: &ReadCalls) {
    // Inputs are at most 4,096 bytes (run.sh): a value nests at most 2,048
    // levels and drops as serde_json drops it, on the fuzzer's thread.
    let envelope = json::read(text, usize::MAX).expect("a text read is JSON");
    for entry in &read.entries {
        assert!(
            envelope.pointer(&entry.pointer).is_some(),
            "the entry `{}` is not in the envelope",
            entry.pointer
        );
        let id = match &entry.call {
            Ok(call) => call.id.as_deref(),
            Err(unreadable) => {
                assert_eq!(unreadable.entry, entry.pointer);
                assert_eq!(unreadable.format, read.format);
                if let Unreadable::Malformed { pointer, .. } = &unreadable.reason {
                    assert!(
                        pointer.starts_with(&entry.pointer),
                        "the fault `{pointer}` is outside its entry `{}`",
                        entry.pointer
                    );
                }
                unreadable.id.as_deref()
            }
        };
        let Some(id) = id else { continue };
        let places = ["/id", "/call_id", "/functionCall/id", "/function_call/id"]
            .map(|member| format!("{}{member}", entry.pointer));
        let as_sent = places.iter().any(|at| match envelope.pointer(at) {
            Some(Value::String(s)) => s == id,
            Some(Value::Number(_)) => raw_at(text, at) == Some(id),
            _ => false,
        });
        assert!(
            as_sent,
            "the id {id:?} at `{}` is not as sent",
            entry.pointer
        );
    }
}

/// `Reader::max_depth` under a tight limit reads what `call::read` reads, the
/// same entries with the same ids, names and arguments (too-deep values
/// kept as their text, which parses to the same value), and what it parses
/// within the limit nests within it.
fn check_depths(text: &str, wide: &ReadCalls) {
    // At 1, every argument value past `{}` is kept as text.
    let depth = 1;
    let narrow = call::Reader::new()
        .max_depth(depth)
        .read(text)
        .expect("a tighter limit on the arguments still reads the envelope");
    check_read(text, &narrow);
    assert_eq!(narrow.entries.len(), wide.entries.len());
    for (n, w) in narrow.entries.iter().zip(&wide.entries) {
        assert_eq!((&n.pointer, n.choice), (&w.pointer, w.choice));
        match (&n.call, &w.call) {
            (Ok(n), Ok(w)) => {
                assert_eq!((&n.id, &n.name, n.format), (&w.id, &w.name, w.format));
                let whole = |a: &Arguments| a.clone().into_value(usize::MAX).ok();
                let (a, b) = (whole(&n.arguments), whole(&w.arguments));
                assert!(a == b, "the arguments differ at `{}`", n.name);
                if let Ok(value) = n.arguments.clone().into_value(depth) {
                    assert!(self::depth(&value) <= depth);
                }
            }
            (Err(n), Err(w)) => {
                assert_eq!((&n.entry, &n.id, &n.name), (&w.entry, &w.id, &w.name));
                assert_eq!(n.reason, w.reason);
            }
            _ => panic!("the outcome differs at `{}`", n.pointer),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_json_text(text);
    if let Ok(read) = call::read(text) {
        check_read(text, &read);
        check_depths(text, &read);
    }
    match call::read(text).and_then(call::ReadCalls::into_calls) {
        Ok(calls) => {
            for call in calls {
                serde_json::to_value(&call).expect("a call serializes");
                if let Arguments::Text(arguments) = &call.arguments {
                    if let Err(error) = call.arguments.clone().into_value(128) {
                        check_syntax(arguments, &error);
                    }
                }
                run(&CANONICAL, call.clone());
                run(&STRICT, call);
            }
        }
        Err(error) => {
            check_syntax(text, &error);
            check_rejection(Rejection::Syntax(error));
        }
    }
    for format in FORMATS {
        if let Ok(read) = call::Reader::new().format(format).read(text) {
            check_read(text, &read);
        }
        match call::Reader::new()
            .format(format)
            .read(text)
            .and_then(call::ReadCalls::into_calls)
        {
            Ok(calls) => {
                for call in calls {
                    serde_json::to_value(&call).expect("a call serializes");
                }
            }
            Err(error) => check_rejection(Rejection::Syntax(error)),
        }
    }
});
