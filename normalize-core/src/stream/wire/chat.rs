//! OpenAI Chat Completions chunks.
//!
//! A call opens with the first `choices[c].delta.tool_calls[j]` carrying a
//! new `index` (OpenAI sends the `id`, `type` and `function.name` there,
//! with `function.arguments: ""`); later entries at that index bring
//! `function.arguments` fragments, and `function.name` fragments when a
//! server splits the name (the SDK joins name fragments the same way). A
//! later `id` is not read: the call's id is the one it opened with. An
//! entry whose `type` is present and not `function` opens nothing we read
//! (its later entries are skipped). Any `finish_reason` ends the open calls
//! of its choice: `tool_calls` when they are complete, `length` when the
//! text was cut (the engine then reports what arrived). A chunk without
//! choices (the usage chunk) and a delta without `tool_calls` (role, text,
//! refusal) carry nothing.

use super::calls::{Calls, Slot, arguments};
use super::fields::{Event, member, provider_error};
use super::{CallDelta, StreamFormat, WireError};
use crate::path::Path;
use serde_json::Value;

const EVENT: Event<'static> = Event {
    format: StreamFormat::OpenAiChat,
    kind: "chat.completion.chunk",
};

#[derive(Debug, Clone)]
pub(super) struct Chat {
    /// The choice read: `None` for a stream of one choice (index 0, any
    /// other is an error), `Some(c)` to read choice `c` among several.
    only: Option<u64>,
    calls: Calls<()>,
}

impl Chat {
    pub(super) fn new(only: Option<u64>) -> Self {
        Chat {
            only,
            calls: Calls::new(StreamFormat::OpenAiChat),
        }
    }

    pub(super) fn read(
        &mut self,
        chunk: &Value,
        out: &mut Vec<CallDelta>,
    ) -> Result<(), WireError> {
        let root = Path::ROOT;
        let chunk = EVENT.object(chunk, &root)?;
        let choices = EVENT.opt_array(chunk, &root, "choices")?;
        if choices.is_none()
            && let Some(Value::Object(error)) = member(chunk, "error")
        {
            return Err(provider_error(StreamFormat::OpenAiChat, error));
        }
        let at_choices = root.key("choices");
        for (position, choice) in choices.unwrap_or_default().iter().enumerate() {
            let at = at_choices.index(position);
            let choice = EVENT.object(choice, &at)?;
            let index = EVENT.req_index(choice, &at, "index")?;
            match self.only {
                None if index != 0 => return Err(WireError::SeveralChoices { choice: index }),
                Some(only) if only != index => continue,
                _ => {}
            }
            if let Some(delta) = EVENT.opt_object(choice, &at, "delta")? {
                let at_delta = at.key("delta");
                let at_calls = at_delta.key("tool_calls");
                let entries = EVENT.opt_array(delta, &at_delta, "tool_calls")?;
                for (position, entry) in entries.unwrap_or_default().iter().enumerate() {
                    self.entry(entry, &at_calls.index(position), out)?;
                }
            }
            if EVENT.opt_str(choice, &at, "finish_reason")?.is_some() {
                self.calls.end_all(out);
            }
        }
        Ok(())
    }

    /// One `tool_calls` entry.
    fn entry(
        &mut self,
        entry: &Value,
        at: &Path<'_>,
        out: &mut Vec<CallDelta>,
    ) -> Result<(), WireError> {
        let entry = EVENT.object(entry, at)?;
        let index = EVENT.req_index(entry, at, "index")?;
        let id = EVENT.opt_str(entry, at, "id")?;
        let kind = EVENT.opt_str(entry, at, "type")?;
        let (name, text) = match EVENT.opt_object(entry, at, "function")? {
            Some(function) => {
                let at = at.key("function");
                (
                    EVENT.opt_str(function, &at, "name")?,
                    EVENT.opt_str(function, &at, "arguments")?,
                )
            }
            None => (None, None),
        };
        match self.calls.get(index) {
            None if kind.is_some_and(|kind| kind != "function") => {
                return self.calls.open(index, Slot::Skipped);
            }
            None => {
                self.calls.open(index, Slot::Open(()))?;
                out.push(CallDelta::Begin {
                    index,
                    id: id.map(str::to_owned),
                    name: name.map(str::to_owned),
                });
            }
            Some(_) => {
                if self.calls.open_mut(index)?.is_none() {
                    return Ok(());
                }
                if let Some(fragment) = name.filter(|name| !name.is_empty()) {
                    out.push(CallDelta::Name {
                        index,
                        fragment: fragment.to_owned(),
                    });
                }
            }
        }
        arguments(index, text.unwrap_or_default(), out);
        Ok(())
    }

    pub(super) fn finish(&mut self, out: &mut Vec<CallDelta>) {
        self.calls.end_all(out);
    }
}
