//! Anthropic Messages events.
//!
//! A call opens with `content_block_start` of a `tool_use` block, keyed by
//! the block's `index`, with its `id` and `name`; `content_block_delta`s of
//! type `input_json_delta` bring `partial_json` fragments; the block's
//! `content_block_stop` ends it (`message_stop` ends any left open). The
//! API opens a block with `input: {}` and sends the arguments in the
//! deltas; a block opened with a non-empty `input` and no delta (a replayed
//! message) delivers that input, as JSON text, when it stops. Other blocks
//! (text, thinking, tools the provider runs itself such as
//! `server_tool_use`, their results) and their deltas carry nothing, and
//! so do `message_start`, `message_delta`, `ping`.

use super::calls::{Calls, Slot, arguments};
use super::fields::{member, provider_error, typed_event};
use super::{CallDelta, StreamFormat, WireError};
use crate::path::Path;
use serde_json::Value;

const FORMAT: StreamFormat = StreamFormat::Anthropic;

#[derive(Debug, Clone)]
pub(super) struct Anthropic {
    calls: Calls<Open>,
}

impl Default for Anthropic {
    fn default() -> Self {
        Anthropic {
            calls: Calls::new(FORMAT),
        }
    }
}

/// An open `tool_use` block.
#[derive(Debug, Clone)]
pub(super) struct Open {
    /// A non-empty `input` sent with the start, delivered at the stop if no
    /// delta came.
    input: Option<Value>,
    /// Whether an `input_json_delta` came.
    streamed: bool,
}

impl Anthropic {
    pub(super) fn read(
        &mut self,
        event: &Value,
        out: &mut Vec<CallDelta>,
    ) -> Result<(), WireError> {
        let (object, event) = typed_event(FORMAT, event)?;
        let kind = event.kind;
        let root = Path::ROOT;
        match kind {
            "content_block_start" => {
                let index = event.req_index(object, &root, "index")?;
                let at = root.key("content_block");
                let block = event.req_object(object, &root, "content_block")?;
                if event.req_str(block, &at, "type")? != "tool_use" {
                    return self.calls.open(index, Slot::Skipped);
                }
                let id = event.opt_str(block, &at, "id")?;
                let name = event.req_str(block, &at, "name")?;
                let input = match member(block, "input") {
                    Some(Value::Object(input)) if input.is_empty() => None,
                    Some(input @ Value::Object(_)) => Some(input.clone()),
                    Some(_) => {
                        return Err(event.malformed(&at.key("input"), "expected an object"));
                    }
                    None => None,
                };
                self.calls.open(
                    index,
                    Slot::Open(Open {
                        input,
                        streamed: false,
                    }),
                )?;
                out.push(CallDelta::Begin {
                    index,
                    id: id.map(str::to_owned),
                    name: Some(name.to_owned()),
                });
            }
            "content_block_delta" => {
                let index = event.req_index(object, &root, "index")?;
                let at = root.key("delta");
                let delta = event.req_object(object, &root, "delta")?;
                if event.req_str(delta, &at, "type")? != "input_json_delta" {
                    return Ok(());
                }
                let fragment = event.req_str(delta, &at, "partial_json")?;
                if let Some(call) = self.calls.open_mut(index)? {
                    call.streamed = true;
                    arguments(index, fragment, out);
                }
            }
            "content_block_stop" => {
                let index = event.req_index(object, &root, "index")?;
                if let Some(call) = self.calls.open_mut(index)? {
                    if let (Some(input), false) = (call.input.take(), call.streamed) {
                        arguments(index, &input.to_string(), out);
                    }
                    self.calls.end(index, out);
                }
            }
            "message_stop" => self.calls.end_all(out),
            "error" => {
                return Err(match member(object, "error") {
                    Some(Value::Object(error)) => provider_error(FORMAT, error),
                    _ => provider_error(FORMAT, object),
                });
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) fn finish(&mut self, out: &mut Vec<CallDelta>) {
        self.calls.end_all(out);
    }
}
