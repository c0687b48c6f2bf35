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

/// The format to read a value in which [`detect`] found no call, when it is
/// a message (or a list of messages) that holds none: an object with a
/// `role` and a text `content` (a string, `null`, or a list of typed
/// parts), a Responses `message` item, or a list of these. Such a turn
/// holds no call, which is not an error; anything else that is no call
/// (a misspelt `{"nme": ...}`) stays one.
///
/// Text content is common to OpenAI Chat and Anthropic, so the format is
/// the first that fits: OpenAI Responses for a list with a `message`
/// item, OpenAI Chat otherwise. Either reads it as no entries.
pub(super) fn without_calls(value: &Value) -> Option<WireFormat> {
    match value {
        Value::Array(items) if !items.is_empty() => {
            let mut format = WireFormat::OpenAiChat;
            for item in items {
                if without_calls(item)? == WireFormat::OpenAiResponses {
                    format = WireFormat::OpenAiResponses;
                }
            }
            Some(format)
        }
        Value::Object(map) => {
            let text_content = match map.get("content") {
                Some(Value::Null | Value::String(_)) => true,
                Some(Value::Array(parts)) => parts
                    .iter()
                    .all(|part| part.get("type").is_some_and(Value::is_string)),
                _ => false,
            };
            match map.get("type") {
                _ if !text_content => None,
                Some(Value::String(kind)) if kind == "message" => Some(WireFormat::OpenAiResponses),
                None if map.get("role").is_some_and(Value::is_string) => {
                    Some(WireFormat::OpenAiChat)
                }
                _ => None,
            }
        }
        _ => None,
    }
}
