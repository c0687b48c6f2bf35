//! Reading each wire format's calls out of a parsed value.
//!
//! The reader walks the envelope (a completion, a response, a message, a
//! transcript, a list) down to its *entries*, the places where one call
//! stands: a `tool_calls` element, a Responses output item, a content block,
//! a Gemini part, a JSON-RPC request. Each entry is read on its own: a call,
//! or an [`UnreadableCall`] that keeps the raw entry and says why, so that one
//! bad entry never costs the calls beside it. Only the envelope's root can
//! fail the whole reading (a number is no envelope).
//!
//! An entry is checked by reference first and only taken apart once every
//! check passed: the arguments are moved, never cloned, and a refused entry
//! is kept whole.

use super::source::Source;
use super::{Arguments, CallEntry, ReadCalls, ToolCall, Unreadable, UnreadableCall, WireFormat};
use crate::rejection::SyntaxError;
use serde_json::{Map, Value};

/// Reads every entry of `format` in `value` (a single call, a list, or the
/// message, response or transcript that holds them); `source` is the text
/// it was parsed from, where there was one.
pub(super) fn read(
    format: WireFormat,
    value: Value,
    source: &Source<'_>,
) -> Result<ReadCalls, SyntaxError> {
    if !matches!(value, Value::Object(_) | Value::Array(_)) {
        return Err(SyntaxError::shape(
            "",
            format!(
                "expected a {} tool call, a list or a message holding calls, found {}",
                format,
                kind(&value)
            ),
        ));
    }
    let mut reader = Reader {
        format,
        choice: None,
        entries: Vec::new(),
        source,
    };
    reader.any(value, String::new());
    Ok(ReadCalls {
        format,
        entries: reader.entries,
    })
}

struct Reader<'s, 't> {
    format: WireFormat,
    /// The alternative (`choices[i]`, `candidates[i]`) being read, if any.
    choice: Option<usize>,
    entries: Vec<CallEntry>,
    /// The text, for number ids and arguments kept as text.
    source: &'s Source<'t>,
}

/// Why an entry cannot be read: where in the envelope, and what was
/// expected there.
struct Fault {
    pointer: String,
    message: String,
}

impl Fault {
    fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Fault {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

fn child(at: &str, key: &str) -> String {
    let mut out = String::with_capacity(at.len() + key.len() + 1);
    out.push_str(at);
    out.push('/');
    // Keys here are fixed protocol names without `~` or `/`.
    out.push_str(key);
    out
}

fn index(at: &str, i: usize) -> String {
    format!("{at}/{i}")
}

/// Where an entry's arguments are, once the entry passed its checks.
enum Args {
    /// None were sent (absent or `null`): no arguments, `{}`.
    None,
    /// JSON text at this path (OpenAI's `arguments` string).
    Text(&'static [&'static str]),
    /// A JSON value at this path, taken as sent.
    Value(&'static [&'static str]),
}

/// What a checked entry holds: everything but the arguments, which are
/// moved out of the entry afterwards.
struct Checked {
    id: Option<String>,
    name: String,
    args: Args,
}

impl Reader<'_, '_> {
    /// A list (each element in turn) or an object of this format.
    fn any(&mut self, value: Value, at: String) {
        match value {
            Value::Array(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    self.any(item, index(&at, i));
                }
            }
            Value::Object(map) => self.object(map, at),
            other => {
                let message = format!("expected an object or a list, found {}", kind(&other));
                self.refuse(other, at.clone(), Fault::new(at, message));
            }
        }
    }

    fn object(&mut self, map: Map<String, Value>, at: String) {
        match self.format {
            WireFormat::OpenAiChat => self.chat(map, at),
            WireFormat::OpenAiResponses => self.responses(map, at),
            WireFormat::Anthropic => self.anthropic(map, at),
            WireFormat::Gemini => self.gemini(map, at),
            WireFormat::McpToolsCall => self.mcp(map, at),
            WireFormat::Plain => {
                let checked = named_arguments(&map, &at, true, self.source);
                self.finish(map, at, checked);
            }
        }
    }

    // ----- OpenAI Chat Completions -------------------------------------

    fn chat(&mut self, mut map: Map<String, Value>, at: String) {
        if let Some(choices) = map.remove("choices") {
            // A completion: each choice is an alternative answer (`n > 1`).
            self.alternatives(choices, child(&at, "choices"), "message");
            return;
        }
        let is_message = map.contains_key("tool_calls")
            || map.contains_key("role")
            || map.contains_key("function_call");
        if is_message {
            self.chat_message(map, at);
        } else {
            self.chat_entry(Value::Object(map), at);
        }
    }

    /// An assistant message (or any message of a transcript: only an
    /// assistant's holds calls).
    fn chat_message(&mut self, mut map: Map<String, Value>, at: String) {
        if let Some(calls) = map.remove("tool_calls") {
            self.each(calls, child(&at, "tool_calls"), "a list", Self::chat_entry);
        }
        // The deprecated single `function_call` of an assistant message
        // (the SDKs still write it, as `null` when unused).
        match map.remove("function_call") {
            None | Some(Value::Null) => {}
            Some(Value::Object(call)) => {
                let entry_at = child(&at, "function_call");
                let checked = function_body(&call, &entry_at, &["arguments"], self.source).map(
                    |(name, args)| Checked {
                        id: None,
                        name,
                        args,
                    },
                );
                self.finish(call, entry_at, checked);
            }
            Some(other) => self.expected(other, child(&at, "function_call"), "an object"),
        }
    }

    /// One element of `tool_calls`.
    fn chat_entry(&mut self, entry: Value, at: String) {
        let map = match entry {
            Value::Object(map) => map,
            other => return self.expected(other, at, "a tool call object"),
        };
        let checked = match map.get("type") {
            None => chat_function(&map, &at, self.source),
            Some(Value::String(t)) if t == "function" => chat_function(&map, &at, self.source),
            Some(Value::String(t)) if t == "custom" => {
                return self.free_form(map, at, &["custom"]);
            }
            Some(Value::String(other)) => Err(Fault::new(
                child(&at, "type"),
                format!("unknown tool call type {other:?} (expected \"function\" or \"custom\")"),
            )),
            Some(other) => Err(expected_fault(&at, "type", "a string", Some(other))),
        };
        self.finish(map, at, checked);
    }

    // ----- OpenAI Responses --------------------------------------------

    fn responses(&mut self, mut map: Map<String, Value>, at: String) {
        // An item says its `type`; a response does not, and holds `output`.
        // (A `function_call_output` item also has an `output`, its result.)
        if !map.contains_key("type")
            && let Some(output) = map.remove("output")
        {
            self.each(output, child(&at, "output"), "a list", Self::any);
            return;
        }
        let checked = match map.get("type") {
            Some(Value::String(t)) if t == "function_call" => (|| {
                let id = match opt_id(&map, "call_id", &at, self.source)? {
                    Some(id) => Some(id),
                    None => opt_id(&map, "id", &at, self.source)?,
                };
                let name = required_string(&map, "name", &at)?;
                let args = text_arguments(&map, &at, "arguments", &["arguments"], self.source)?;
                Ok(Checked { id, name, args })
            })(),
            Some(Value::String(t)) if t == "custom_tool_call" => {
                return self.free_form(map, at, &[]);
            }
            // Messages, reasoning, tool outputs and server-run tools are
            // not calls for the application to run.
            Some(Value::String(_)) => return,
            Some(other) => Err(expected_fault(&at, "type", "a string", Some(other))),
            // An input message written without its `type`
            // (`{"role": "user", "content": "..."}`), as a transcript holds.
            None if map.contains_key("role") => return,
            None => Err(expected_fault(&at, "type", "\"function_call\"", None)),
        };
        self.finish(map, at, checked);
    }

    // ----- Anthropic Messages -------------------------------------------

    fn anthropic(&mut self, mut map: Map<String, Value>, at: String) {
        if let Some(content) = map.remove("content") {
            // Text content (`{"role": "user", "content": "hi"}`) holds
            // no tool calls; neither does an empty one.
            if !content.is_string() {
                self.each(
                    content,
                    child(&at, "content"),
                    "a list or text",
                    |r, block, at| {
                        r.object_element(block, at, "a content block", Self::anthropic_block);
                    },
                );
            }
            return;
        }
        self.anthropic_block(map, at);
    }

    fn anthropic_block(&mut self, map: Map<String, Value>, at: String) {
        match map.get("type") {
            None => {}
            Some(Value::String(t)) if t == "tool_use" => {}
            // Text, thinking, tool results and server-run tools are not
            // calls for the application to run.
            Some(Value::String(_)) => return,
            Some(other) => {
                let fault = expected_fault(&at, "type", "a string", Some(other));
                return self.refuse(Value::Object(map), at, fault);
            }
        }
        let checked = (|| {
            Ok(Checked {
                id: opt_id(&map, "id", &at, self.source)?,
                name: required_string(&map, "name", &at)?,
                args: value_arguments(&map, "input", &["input"]),
            })
        })();
        self.finish(map, at, checked);
    }

    // ----- Gemini --------------------------------------------------------

    fn gemini(&mut self, mut map: Map<String, Value>, at: String) {
        if let Some(candidates) = map.remove("candidates") {
            // A response: each candidate is an alternative answer
            // (`candidate_count > 1`).
            self.alternatives(candidates, child(&at, "candidates"), "content");
            return;
        }
        if let Some(content) = map.remove("content") {
            // A candidate; a blocked one has no content.
            match content {
                Value::Null => {}
                Value::Object(content) => self.gemini(content, child(&at, "content")),
                other => self.expected(other, child(&at, "content"), "an object"),
            }
            return;
        }
        if let Some(parts) = map.remove("parts") {
            self.each(parts, child(&at, "parts"), "a list", |r, part, at| {
                r.object_element(part, at, "a part object", Self::gemini_part);
            });
            return;
        }
        self.gemini_part(map, at);
    }

    /// A part, or a bare `FunctionCall`.
    fn gemini_part(&mut self, map: Map<String, Value>, at: String) {
        let checked = match gemini_key(&map, &at) {
            Ok(Some(key)) => match &map[key] {
                Value::Object(call) => {
                    let path: &'static [&'static str] = if key == "functionCall" {
                        &["functionCall", "args"]
                    } else {
                        &["function_call", "args"]
                    };
                    gemini_call(call, &child(&at, key), path, self.source)
                }
                other => Err(expected_fault(&at, key, "an object", Some(other))),
            },
            Err(fault) => Err(fault),
            // A bare call (`{"name", "args"}`); a function response has a
            // name too, and is not a call.
            Ok(None) if map.contains_key("name") && !map.contains_key("response") => {
                gemini_call(&map, &at, &["args"], self.source)
            }
            // Text, thoughts, data, function responses.
            Ok(None) => return,
        };
        self.finish(map, at, checked);
    }

    // ----- MCP -----------------------------------------------------------

    fn mcp(&mut self, map: Map<String, Value>, at: String) {
        let checked = match map.get("method") {
            Some(Value::String(m)) if m == "tools/call" => mcp_request(&map, &at, self.source),
            // Other requests and notifications are not tool calls.
            Some(Value::String(_)) => return,
            Some(other) => Err(expected_fault(&at, "method", "\"tools/call\"", Some(other))),
            // A JSON-RPC response or error, beside requests in a batch.
            None if map.contains_key("jsonrpc") => return,
            // `tools/call` params on their own.
            None => named_arguments(&map, &at, false, self.source),
        };
        self.finish(map, at, checked);
    }

    // ----- shared ----------------------------------------------------------

    /// `choices` or `candidates`: each element is one alternative answer,
    /// read with its index so that alternatives are never run as one turn.
    fn alternatives(&mut self, list: Value, at: String, inner: &str) {
        let items = match list {
            Value::Array(items) => items,
            Value::Null => return,
            other => return self.expected(other, at, "a list"),
        };
        let outer = self.choice;
        for (i, item) in items.into_iter().enumerate() {
            self.choice = Some(i);
            let item_at = index(&at, i);
            match item {
                Value::Object(mut item) => match item.remove(inner) {
                    // A streamed chunk has `delta`, a filtered candidate no
                    // content: neither holds a call to run.
                    None | Some(Value::Null) => {}
                    // A choice's `message` is a message even without a
                    // `role`; a candidate's `content` is a content.
                    Some(Value::Object(message)) if self.format == WireFormat::OpenAiChat => {
                        self.chat_message(message, child(&item_at, inner))
                    }
                    Some(Value::Object(message)) => self.object(message, child(&item_at, inner)),
                    Some(other) => self.expected(other, child(&item_at, inner), "an object"),
                },
                other => self.expected(other, item_at, "an object"),
            }
        }
        self.choice = outer;
    }

    /// A custom tool call: a name and free-form `input` text (OpenAI
    /// custom tools), at `path` inside the entry.
    fn free_form(&mut self, map: Map<String, Value>, at: String, path: &[&str]) {
        let body = path
            .iter()
            .try_fold(&map, |m, key| m.get(*key).and_then(Value::as_object));
        let checked = match body {
            None => Err(expected_fault(&at, path[0], "an object", map.get(path[0]))),
            Some(body) => {
                let body_at = path.iter().fold(at.clone(), |a, k| child(&a, k));
                (|| {
                    let name = required_string(body, "name", &body_at)?;
                    let input = match body.get("input") {
                        Some(Value::String(s)) => s.clone(),
                        None | Some(Value::Null) => String::new(),
                        Some(other) => {
                            return Err(expected_fault(&body_at, "input", "text", Some(other)));
                        }
                    };
                    Ok((name, input))
                })()
            }
        };
        let id_key = if self.format == WireFormat::OpenAiResponses {
            "call_id"
        } else {
            "id"
        };
        match checked {
            Ok((name, input)) => {
                let unreadable = UnreadableCall {
                    format: self.format,
                    entry: at.clone(),
                    id: peek_id(&map, id_key, &at, self.source)
                        .or_else(|| peek_id(&map, "id", &at, self.source)),
                    name: Some(name),
                    reason: Unreadable::FreeForm { input },
                    raw: Value::Object(map),
                };
                self.push(at, Err(unreadable));
            }
            Err(fault) => self.refuse(Value::Object(map), at, fault),
        }
    }

    /// Reads a checked entry into a call, or keeps it whole as unreadable.
    fn finish(&mut self, mut map: Map<String, Value>, at: String, checked: Result<Checked, Fault>) {
        match checked {
            Ok(Checked { id, name, args }) => {
                // Arguments whose text has a key twice are kept as that
                // text, so the repeat is judged as in any other text.
                let repeating = match args {
                    Args::Text(path) | Args::Value(path) => {
                        self.source.repeating_arguments(&at, path)
                    }
                    Args::None => None,
                };
                let arguments = match (args, repeating) {
                    (_, Some(text)) => Arguments::Text(text.to_owned()),
                    (Args::None, None) => Arguments::Value(Value::Object(Map::new())),
                    // Arguments too deep to be built are kept as their text
                    // (`super::Reader::max_depth`), refused when parsed like any
                    // other text that nests too deep.
                    (Args::Text(path) | Args::Value(path), None)
                        if self.source.is_textified(&at, path) =>
                    {
                        match take(&mut map, path) {
                            Some(Value::String(text)) => Arguments::Text(text),
                            Some(value) => Arguments::Value(value),
                            None => Arguments::Value(Value::Object(Map::new())),
                        }
                    }
                    (Args::Text(path), None) => match take(&mut map, path) {
                        Some(Value::String(text)) => Arguments::Text(text),
                        Some(value) => Arguments::Value(value),
                        None => Arguments::Value(Value::Object(Map::new())),
                    },
                    (Args::Value(path), None) => match take(&mut map, path) {
                        // Empty text means none here too, as it does where
                        // a format sends text: one rule in every format.
                        Some(Value::String(text)) if !super::is_json_whitespace(&text) => {
                            Arguments::Value(Value::String(text))
                        }
                        None | Some(Value::Null | Value::String(_)) => {
                            Arguments::Value(Value::Object(Map::new()))
                        }
                        Some(value) => Arguments::Value(value),
                    },
                };
                let call = ToolCall {
                    id,
                    name,
                    arguments,
                    format: self.format,
                };
                self.push(at, Ok(call));
            }
            Err(fault) => self.refuse(Value::Object(map), at, fault),
        }
    }

    /// Each element of the list `list` (at `at`) visited in turn; `null`
    /// holds nothing; any other value is refused as not `what`.
    fn each(
        &mut self,
        list: Value,
        at: String,
        what: &str,
        mut visit: impl FnMut(&mut Self, Value, String),
    ) {
        match list {
            Value::Null => {}
            Value::Array(items) => {
                for (i, item) in items.into_iter().enumerate() {
                    visit(self, item, index(&at, i));
                }
            }
            other => self.expected(other, at, what),
        }
    }

    /// `visit` for an element that must be an object (else refused as not
    /// `what`).
    fn object_element(
        &mut self,
        item: Value,
        at: String,
        what: &str,
        visit: impl FnOnce(&mut Self, Map<String, Value>, String),
    ) {
        match item {
            Value::Object(map) => visit(self, map, at),
            other => self.expected(other, at, what),
        }
    }

    fn expected(&mut self, found: Value, at: String, what: &str) {
        let message = format!("expected {what}, found {}", kind(&found));
        self.refuse(found, at.clone(), Fault::new(at, message));
    }

    fn refuse(&mut self, raw: Value, at: String, fault: Fault) {
        let (id, name) = peek(self.format, &raw, &at, self.source);
        let unreadable = UnreadableCall {
            format: self.format,
            entry: at.clone(),
            id,
            name,
            reason: Unreadable::Malformed {
                pointer: fault.pointer,
                message: fault.message,
            },
            raw,
        };
        self.push(at, Err(unreadable));
    }

    fn push(&mut self, pointer: String, call: Result<ToolCall, UnreadableCall>) {
        self.entries.push(CallEntry {
            pointer,
            choice: self.choice,
            call,
        });
    }
}

/// A `tool_calls` element of type `function`.
fn chat_function(
    map: &Map<String, Value>,
    at: &str,
    source: &Source<'_>,
) -> Result<Checked, Fault> {
    let id = opt_id(map, "id", at, source)?;
    let function = match map.get("function") {
        Some(Value::Object(f)) => f,
        other => return Err(expected_fault(at, "function", "an object", other)),
    };
    let (name, args) = function_body(
        function,
        &child(at, "function"),
        &["function", "arguments"],
        source,
    )?;
    Ok(Checked { id, name, args })
}

/// `{"name", "arguments"}` of an OpenAI function (in a tool call, or the
/// deprecated message-level `function_call`); `path` is where the
/// arguments are, from the entry.
fn function_body(
    function: &Map<String, Value>,
    at: &str,
    path: &'static [&'static str],
    source: &Source<'_>,
) -> Result<(String, Args), Fault> {
    let name = required_string(function, "name", at)?;
    let args = text_arguments(function, at, "arguments", path, source)?;
    Ok((name, args))
}

/// Gemini's `FunctionCall`: `id`, `name`, `args` (`null` when the Python
/// SDK serializes a call without arguments).
fn gemini_call(
    call: &Map<String, Value>,
    at: &str,
    path: &'static [&'static str],
    source: &Source<'_>,
) -> Result<Checked, Fault> {
    Ok(Checked {
        id: opt_id(call, "id", at, source)?,
        name: required_string(call, "name", at)?,
        args: value_arguments(call, "args", path),
    })
}

/// Which spelling of the call a part uses: the REST API and the JavaScript
/// SDK write `functionCall`, the Python SDK's serializers (`model_dump_json`,
/// `to_json_dict`) `function_call`. A `null` member is no call.
fn gemini_key(map: &Map<String, Value>, at: &str) -> Result<Option<&'static str>, Fault> {
    let present = |key| map.get(key).is_some_and(|v: &Value| !v.is_null());
    match (present("functionCall"), present("function_call")) {
        (false, false) => Ok(None),
        (true, false) => Ok(Some("functionCall")),
        (false, true) => Ok(Some("function_call")),
        (true, true) => Err(Fault::new(
            at,
            "the part has both `functionCall` and `function_call`: which one to run is unclear",
        )),
    }
}

/// A JSON-RPC `tools/call` request: the request's `id` is the call's id.
fn mcp_request(map: &Map<String, Value>, at: &str, source: &Source<'_>) -> Result<Checked, Fault> {
    let id = opt_id(map, "id", at, source)?;
    let params = match map.get("params") {
        Some(Value::Object(p)) => p,
        other => return Err(expected_fault(at, "params", "an object", other)),
    };
    let name = required_string(params, "name", &child(at, "params"))?;
    Ok(Checked {
        id,
        name,
        args: value_arguments(params, "arguments", &["params", "arguments"]),
    })
}

/// MCP params and the plain form: `name`, optional `arguments`, and an
/// `id` (the plain form tolerates an id of another type, and ignores it).
fn named_arguments(
    map: &Map<String, Value>,
    at: &str,
    lenient_id: bool,
    source: &Source<'_>,
) -> Result<Checked, Fault> {
    let id = match opt_id(map, "id", at, source) {
        Ok(id) => id,
        Err(_) if lenient_id => None,
        Err(fault) => return Err(fault),
    };
    let name = required_string(map, "name", at)?;
    Ok(Checked {
        id,
        name,
        args: value_arguments(map, "arguments", &["arguments"]),
    })
}

/// Arguments sent as a JSON value (`holder[key]`, at `path` from the
/// entry): absent and `null` mean none, and so does a string that is empty
/// or only JSON whitespace (read in [`Reader::finish`]).
fn value_arguments(holder: &Map<String, Value>, key: &str, path: &'static [&'static str]) -> Args {
    match holder.get(key) {
        None | Some(Value::Null) => Args::None,
        Some(_) => Args::Value(path),
    }
}

/// OpenAI's `arguments` (`holder[key]`, at `path` from the entry): JSON
/// text (a JSON object is accepted too, as some gateways send one); absent
/// and `null` mean none.
fn text_arguments(
    holder: &Map<String, Value>,
    at: &str,
    key: &str,
    path: &'static [&'static str],
    source: &Source<'_>,
) -> Result<Args, Fault> {
    match holder.get(key) {
        None | Some(Value::Null) => Ok(Args::None),
        // A list too deep to be built stands as its text: still a list.
        Some(Value::String(text)) if text.starts_with('[') && source.is_textified(at, &[key]) => {
            Err(Fault::new(
                child(at, key),
                format!("expected `{key}` to be a string of JSON, found a list"),
            ))
        }
        Some(Value::String(_) | Value::Object(_)) => Ok(Args::Text(path)),
        Some(other) => Err(expected_fault(at, key, "a string of JSON", Some(other))),
    }
}

fn take(map: &mut Map<String, Value>, path: &[&str]) -> Option<Value> {
    let (last, inner) = path.split_last()?;
    let mut holder = map;
    for key in inner {
        holder = holder.get_mut(*key)?.as_object_mut()?;
    }
    holder.remove(*last)
}

fn required_string(map: &Map<String, Value>, key: &str, at: &str) -> Result<String, Fault> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        other => Err(expected_fault(at, key, "a string", other)),
    }
}

/// An id: a string, or a number kept as its JSON text as sent (JSON-RPC
/// ids: `1e20` stays `1e20`, see [`Source`]); absent or `null` is none.
fn opt_id(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
    source: &Source<'_>,
) -> Result<Option<String>, Fault> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value @ (Value::String(_) | Value::Number(_))) => {
            Ok(source.id(value, &child(at, key)))
        }
        Some(other) => Err(expected_fault(at, key, "a string or a number", Some(other))),
    }
}

fn peek_id(map: &Map<String, Value>, key: &str, at: &str, source: &Source<'_>) -> Option<String> {
    source.id(map.get(key)?, &child(at, key))
}

/// The id and name of an entry that could not be read, where they can be
/// found: with the id, the application can still answer the call.
fn peek(
    format: WireFormat,
    raw: &Value,
    at: &str,
    source: &Source<'_>,
) -> (Option<String>, Option<String>) {
    let Some(map) = raw.as_object() else {
        return (None, None);
    };
    let name_in = |m: &Map<String, Value>| m.get("name").and_then(Value::as_str).map(str::to_owned);
    let nested = |key: &str| map.get(key).and_then(Value::as_object);
    let peek_id = |map: &Map<String, Value>, key: &str| peek_id(map, key, at, source);
    match format {
        WireFormat::OpenAiChat => (
            peek_id(map, "id"),
            nested("function")
                .or_else(|| nested("custom"))
                .and_then(name_in)
                .or_else(|| name_in(map)),
        ),
        WireFormat::OpenAiResponses => (
            peek_id(map, "call_id").or_else(|| peek_id(map, "id")),
            name_in(map),
        ),
        WireFormat::Gemini => match ["functionCall", "function_call"]
            .into_iter()
            .find_map(|key| Some((key, nested(key)?)))
        {
            Some((key, call)) => (
                self::peek_id(call, "id", &child(at, key), source),
                name_in(call),
            ),
            None => (peek_id(map, "id"), name_in(map)),
        },
        WireFormat::McpToolsCall => (
            peek_id(map, "id"),
            nested("params").and_then(name_in).or_else(|| name_in(map)),
        ),
        WireFormat::Anthropic | WireFormat::Plain => (peek_id(map, "id"), name_in(map)),
    }
}

fn expected_fault(at: &str, key: &str, expected: &str, found: Option<&Value>) -> Fault {
    let found = found.map_or("nothing".to_owned(), kind);
    Fault::new(
        child(at, key),
        format!("expected `{key}` to be {expected}, found {found}"),
    )
}

pub(super) fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(_) => "a boolean".to_owned(),
        Value::Number(_) => "a number".to_owned(),
        Value::String(_) => "a string".to_owned(),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}
