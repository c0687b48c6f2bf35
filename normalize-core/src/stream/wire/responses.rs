//! OpenAI Responses events.
//!
//! A call opens with `response.output_item.added` of a `function_call`
//! item, keyed by its `output_index`, with the item's `call_id` and `name`.
//! `response.function_call_arguments.delta` brings fragments;
//! `response.function_call_arguments.done` (or, failing it,
//! `response.output_item.done`) ends the call. Both of those carry the
//! complete arguments: when no delta came, they are delivered as one
//! fragment; when deltas came, their length must match. The end of the
//! response (`response.completed`, `response.incomplete`,
//! `response.failed`) ends calls still open. Other items (messages,
//! reasoning, custom tool calls with free-form input, tools the provider
//! runs) and their events carry nothing, and so does an
//! `output_item` event whose `item` is `null`.

use super::calls::{Calls, Slot, arguments};
use super::fields::{provider_error, typed_event};
use super::{CallDelta, StreamFormat, WireError};
use crate::path::Path;
use serde_json::Value;

const FORMAT: StreamFormat = StreamFormat::OpenAiResponses;

#[derive(Debug, Clone)]
pub(super) struct Responses {
    calls: Calls<Open>,
}

impl Default for Responses {
    fn default() -> Self {
        Responses {
            calls: Calls::new(FORMAT),
        }
    }
}

/// An open function call.
#[derive(Debug, Clone)]
pub(super) struct Open {
    /// The item's `id`, which its deltas name.
    item_id: Option<String>,
    /// Bytes of arguments delivered so far.
    received: usize,
}

impl Responses {
    pub(super) fn read(
        &mut self,
        event: &Value,
        out: &mut Vec<CallDelta>,
    ) -> Result<(), WireError> {
        let (object, event) = typed_event(FORMAT, event)?;
        let kind = event.kind;
        let root = Path::ROOT;
        match kind {
            "response.output_item.added" => {
                let index = event.req_index(object, &root, "output_index")?;
                let at = root.key("item");
                // Some servers announce an index with no item (the SDK skips
                // those too).
                let Some(item) = event.opt_object(object, &root, "item")? else {
                    return Ok(());
                };
                if event.req_str(item, &at, "type")? != "function_call" {
                    return self.calls.open(index, Slot::Skipped);
                }
                let name = event.req_str(item, &at, "name")?;
                let call_id = event.opt_str(item, &at, "call_id")?;
                let item_id = event.opt_str(item, &at, "id")?;
                let text = event.opt_str(item, &at, "arguments")?.unwrap_or_default();
                self.calls.open(
                    index,
                    Slot::Open(Open {
                        item_id: item_id.map(str::to_owned),
                        received: text.len(),
                    }),
                )?;
                out.push(CallDelta::Begin {
                    index,
                    id: call_id.map(str::to_owned),
                    name: Some(name.to_owned()),
                });
                arguments(index, text, out);
            }
            "response.function_call_arguments.delta" => {
                let index = event.req_index(object, &root, "output_index")?;
                let fragment = event.req_str(object, &root, "delta")?;
                let item_id = event.opt_str(object, &root, "item_id")?;
                let Some(call) = self.calls.open_mut(index)? else {
                    return Err(WireError::UnknownCall {
                        format: FORMAT,
                        index,
                    });
                };
                same_item(index, call, item_id)?;
                call.received += fragment.len();
                arguments(index, fragment, out);
            }
            "response.function_call_arguments.done" => {
                let index = event.req_index(object, &root, "output_index")?;
                let text = event.req_str(object, &root, "arguments")?;
                let item_id = event.opt_str(object, &root, "item_id")?;
                self.complete(index, item_id, text, out)?;
            }
            "response.output_item.done" => {
                let index = event.req_index(object, &root, "output_index")?;
                let at = root.key("item");
                // Some servers announce an index with no item (the SDK skips
                // those too).
                let Some(item) = event.opt_object(object, &root, "item")? else {
                    return Ok(());
                };
                if event.req_str(item, &at, "type")? != "function_call" {
                    return Ok(());
                }
                match self.calls.get(index) {
                    // Already complete through `arguments.done`.
                    Some(Slot::Ended) => {}
                    _ => {
                        let text = event.req_str(item, &at, "arguments")?;
                        let item_id = event.opt_str(item, &at, "id")?;
                        self.complete(index, item_id, text, out)?;
                    }
                }
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                self.calls.end_all(out);
            }
            "error" => return Err(provider_error(FORMAT, object)),
            _ => {}
        }
        Ok(())
    }

    /// The complete arguments arrived: deliver them if no delta did, check
    /// their length if some did, and end the call.
    fn complete(
        &mut self,
        index: u64,
        item_id: Option<&str>,
        text: &str,
        out: &mut Vec<CallDelta>,
    ) -> Result<(), WireError> {
        let Some(call) = self.calls.open_mut(index)? else {
            return Err(WireError::UnknownCall {
                format: FORMAT,
                index,
            });
        };
        same_item(index, call, item_id)?;
        if call.received == 0 {
            arguments(index, text, out);
        } else if call.received != text.len() {
            return Err(WireError::ArgumentsDiffer {
                index,
                received: call.received,
                reported: text.len(),
            });
        }
        self.calls.end(index, out);
        Ok(())
    }

    pub(super) fn finish(&mut self, out: &mut Vec<CallDelta>) {
        self.calls.end_all(out);
    }
}

/// An event for `output_index` that names an item must name the one opened
/// there.
fn same_item(index: u64, call: &Open, item_id: Option<&str>) -> Result<(), WireError> {
    match (&call.item_id, item_id) {
        (Some(expected), Some(found)) if expected != found => Err(WireError::OtherItem {
            index,
            expected: expected.clone(),
            found: found.to_owned(),
        }),
        _ => Ok(()),
    }
}
