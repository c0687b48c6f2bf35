//! Reading each wire format's calls out of a parsed value.

use super::{Arguments, ToolCall, WireFormat};
use crate::rejection::SyntaxError;
use serde_json::{Map, Value};

/// Reads every call of `format` in `value` (a single call, a list, or the
/// message or response that holds them).
pub(super) fn read(format: WireFormat, value: Value) -> Result<Vec<ToolCall>, SyntaxError> {
    let mut calls = Vec::new();
    let mut reader = Reader {
        format,
        calls: &mut calls,
    };
    reader.any(value, String::new())?;
    if calls.is_empty() {
        return Err(SyntaxError::shape(
            "",
            format!("no {} tool call found", name(format)),
        ));
    }
    Ok(calls)
}

fn name(format: WireFormat) -> &'static str {
    match format {
        WireFormat::OpenAiChat => "OpenAI Chat Completions",
        WireFormat::OpenAiResponses => "OpenAI Responses",
        WireFormat::Anthropic => "Anthropic",
        WireFormat::Gemini => "Gemini",
        WireFormat::McpToolsCall => "MCP tools/call",
        WireFormat::Plain => "{\"name\", \"arguments\"}",
    }
}

struct Reader<'a> {
    format: WireFormat,
    calls: &'a mut Vec<ToolCall>,
}

fn child(at: &str, key: &str) -> String {
    let mut out = String::from(at);
    out.push('/');
    // Keys here are fixed protocol names without `~` or `/`.
    out.push_str(key);
    out
}

impl Reader<'_> {
    /// A list (each element in turn) or an object of this format.
    fn any(&mut self, value: Value, at: String) -> Result<(), SyntaxError> {
        match value {
            Value::Array(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    self.any(item, format!("{at}/{i}"))?;
                }
                Ok(())
            }
            Value::Object(map) => self.object(map, at),
            other => Err(SyntaxError::shape(
                at,
                format!("expected an object or a list, found {}", kind(&other)),
            )),
        }
    }

    fn object(&mut self, mut map: Map<String, Value>, at: String) -> Result<(), SyntaxError> {
        match self.format {
            WireFormat::OpenAiChat => {
                if let Some(choices) = map.remove("choices") {
                    return self.each(choices, child(&at, "choices"), |r, mut choice, at| {
                        match choice.remove("message") {
                            Some(message) => r.any(message, child(&at, "message")),
                            None => Ok(()),
                        }
                    });
                }
                if let Some(tool_calls) = map.remove("tool_calls") {
                    return match tool_calls {
                        Value::Null => Ok(()),
                        list => self.any(list, child(&at, "tool_calls")),
                    };
                }
                if map.contains_key("role") {
                    // An assistant message without tool calls.
                    return Ok(());
                }
                let id = take_string(&mut map, "id", &at)?;
                let mut function = match map.remove("function") {
                    Some(Value::Object(f)) => f,
                    other => return Err(missing(&at, "function", "an object", other.as_ref())),
                };
                let fat = child(&at, "function");
                let name = require_string(&mut function, "name", &fat)?;
                let arguments = text_arguments(&mut function, &fat)?;
                self.push(id, name, arguments);
                Ok(())
            }
            WireFormat::OpenAiResponses => {
                if let Some(output) = map.remove("output") {
                    return self.any(output, child(&at, "output"));
                }
                match map.get("type").and_then(Value::as_str) {
                    Some("function_call") => {}
                    // Messages, reasoning and other items are not calls.
                    Some(_) => return Ok(()),
                    None => return Err(missing(&at, "type", "\"function_call\"", None)),
                }
                let id = match take_string(&mut map, "call_id", &at)? {
                    Some(id) => Some(id),
                    None => take_string(&mut map, "id", &at)?,
                };
                let name = require_string(&mut map, "name", &at)?;
                let arguments = text_arguments(&mut map, &at)?;
                self.push(id, name, arguments);
                Ok(())
            }
            WireFormat::Anthropic => {
                if let Some(content) = map.remove("content") {
                    return self.any(content, child(&at, "content"));
                }
                match map.get("type").and_then(Value::as_str) {
                    Some("tool_use") | None => {}
                    // Text, thinking and other blocks are not calls.
                    Some(_) => return Ok(()),
                }
                let id = take_string(&mut map, "id", &at)?;
                let name = require_string(&mut map, "name", &at)?;
                let input = map
                    .remove("input")
                    .unwrap_or_else(|| Value::Object(Map::new()));
                self.push(id, name, Arguments::Value(input));
                Ok(())
            }
            WireFormat::Gemini => {
                if let Some(candidates) = map.remove("candidates") {
                    return self.each(
                        candidates,
                        child(&at, "candidates"),
                        |r, mut candidate, at| match candidate.remove("content") {
                            Some(content) => r.any(content, child(&at, "content")),
                            None => Ok(()),
                        },
                    );
                }
                if let Some(content) = map.remove("content") {
                    return self.any(content, child(&at, "content"));
                }
                if let Some(parts) = map.remove("parts") {
                    return self.each(parts, child(&at, "parts"), |r, mut part, at| {
                        match part.remove("functionCall") {
                            Some(Value::Object(call)) => {
                                r.gemini_call(call, child(&at, "functionCall"))
                            }
                            Some(other) => {
                                Err(missing(&at, "functionCall", "an object", Some(&other)))
                            }
                            None => Ok(()),
                        }
                    });
                }
                match map.remove("functionCall") {
                    Some(Value::Object(call)) => self.gemini_call(call, child(&at, "functionCall")),
                    Some(other) => Err(missing(&at, "functionCall", "an object", Some(&other))),
                    None if map.contains_key("name") => self.gemini_call(map, at),
                    // A text part.
                    None => Ok(()),
                }
            }
            WireFormat::McpToolsCall => {
                if map.contains_key("method") {
                    match map.get("method").and_then(Value::as_str) {
                        Some("tools/call") => {}
                        _ => {
                            return Err(missing(
                                &at,
                                "method",
                                "\"tools/call\"",
                                map.get("method"),
                            ));
                        }
                    }
                    let params = match map.remove("params") {
                        Some(Value::Object(params)) => params,
                        other => return Err(missing(&at, "params", "an object", other.as_ref())),
                    };
                    return self.named_arguments(params, child(&at, "params"));
                }
                self.named_arguments(map, at)
            }
            WireFormat::Plain => self.named_arguments(map, at),
        }
    }

    /// Each element of a list that must hold objects.
    fn each(
        &mut self,
        list: Value,
        at: String,
        mut f: impl FnMut(&mut Self, Map<String, Value>, String) -> Result<(), SyntaxError>,
    ) -> Result<(), SyntaxError> {
        let Value::Array(items) = list else {
            return Err(SyntaxError::shape(
                at,
                format!("expected a list, found {}", kind(&list)),
            ));
        };
        for (i, item) in items.into_iter().enumerate() {
            let item_at = format!("{at}/{i}");
            match item {
                Value::Object(map) => f(self, map, item_at)?,
                other => {
                    return Err(SyntaxError::shape(
                        item_at,
                        format!("expected an object, found {}", kind(&other)),
                    ));
                }
            }
        }
        Ok(())
    }

    fn gemini_call(&mut self, mut call: Map<String, Value>, at: String) -> Result<(), SyntaxError> {
        let id = take_string(&mut call, "id", &at)?;
        let name = require_string(&mut call, "name", &at)?;
        let args = call
            .remove("args")
            .unwrap_or_else(|| Value::Object(Map::new()));
        self.push(id, name, Arguments::Value(args));
        Ok(())
    }

    /// MCP params and the plain form: `name` and optional `arguments`.
    fn named_arguments(
        &mut self,
        mut map: Map<String, Value>,
        at: String,
    ) -> Result<(), SyntaxError> {
        let id = take_string(&mut map, "id", &at).unwrap_or(None);
        let name = require_string(&mut map, "name", &at)?;
        let arguments = match map.remove("arguments") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(value) => value,
        };
        self.push(id, name, Arguments::Value(arguments));
        Ok(())
    }

    fn push(&mut self, id: Option<String>, name: String, arguments: Arguments) {
        self.calls.push(ToolCall {
            id,
            name,
            arguments,
            format: self.format,
        });
    }
}

/// OpenAI's `arguments`: JSON text (a JSON object is accepted too, as some
/// gateways send one).
fn text_arguments(map: &mut Map<String, Value>, at: &str) -> Result<Arguments, SyntaxError> {
    match map.remove("arguments") {
        Some(Value::String(text)) => Ok(Arguments::Text(text)),
        None | Some(Value::Null) => Ok(Arguments::Text(String::new())),
        Some(value @ Value::Object(_)) => Ok(Arguments::Value(value)),
        Some(other) => Err(missing(at, "arguments", "a string of JSON", Some(&other))),
    }
}

fn require_string(
    map: &mut Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<String, SyntaxError> {
    match take_string(map, key, at)? {
        Some(s) => Ok(s),
        None => Err(missing(at, key, "a string", None)),
    }
}

/// A string member, absent, or (for ids) a number rendered as text.
fn take_string(
    map: &mut Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<String>, SyntaxError> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(Value::Number(n)) if key == "id" => Ok(Some(n.to_string())),
        Some(other) => Err(missing(at, key, "a string", Some(&other))),
    }
}

fn missing(at: &str, key: &str, expected: &str, found: Option<&Value>) -> SyntaxError {
    let found = found.map_or("nothing".to_owned(), kind);
    SyntaxError::shape(
        child(at, key),
        format!("expected `{key}` to be {expected}, found {found}"),
    )
}

fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(_) => "a boolean".to_owned(),
        Value::Number(_) => "a number".to_owned(),
        Value::String(_) => "a string".to_owned(),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}
