//! Telling the wire format from the shape of the JSON.

use super::WireFormat;
use serde_json::{Map, Value};

/// The format `value` looks like, or `None`. A list is judged by its first
/// tool-call-like element.
pub fn detect(value: &Value) -> Option<WireFormat> {
    match value {
        Value::Array(items) => items.iter().find_map(detect),
        Value::Object(map) => detect_object(map),
        _ => None,
    }
}

fn detect_object(map: &Map<String, Value>) -> Option<WireFormat> {
    let kind = map.get("type").and_then(Value::as_str);
    let present = |key: &str| map.get(key).is_some_and(|v| !v.is_null());
    if map.contains_key("choices") || map.contains_key("tool_calls") {
        return Some(WireFormat::OpenAiChat);
    }
    if matches!(kind, Some("function" | "custom"))
        && (map.get("function").is_some_and(Value::is_object)
            || map.get("custom").is_some_and(Value::is_object))
    {
        return Some(WireFormat::OpenAiChat);
    }
    if matches!(kind, Some("function_call" | "custom_tool_call"))
        || map.get("output").is_some_and(Value::is_array)
    {
        return Some(WireFormat::OpenAiResponses);
    }
    if kind == Some("tool_use") {
        return Some(WireFormat::Anthropic);
    }
    // `function_call` is Gemini's call in the Python SDK's spelling, and
    // OpenAI's deprecated message-level call: OpenAI's has `arguments`.
    if let Some(Value::Object(call)) = map.get("function_call") {
        return Some(if call.contains_key("arguments") {
            WireFormat::OpenAiChat
        } else {
            WireFormat::Gemini
        });
    }
    match map.get("content") {
        Some(Value::Array(blocks)) => return blocks.iter().find_map(detect),
        Some(content @ Value::Object(_)) => return detect(content),
        // Text content (`{"role": "user", "content": "hi"}`): no call here.
        _ => {}
    }
    if present("functionCall") || map.contains_key("candidates") || map.contains_key("parts") {
        return Some(WireFormat::Gemini);
    }
    if map.get("method").and_then(Value::as_str) == Some("tools/call") {
        return Some(WireFormat::McpToolsCall);
    }
    if map.contains_key("name") {
        if map.contains_key("args") {
            return Some(WireFormat::Gemini);
        }
        if map.contains_key("input") {
            return Some(WireFormat::Anthropic);
        }
        return Some(WireFormat::Plain);
    }
    None
}
