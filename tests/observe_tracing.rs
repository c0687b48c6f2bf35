//! With the `tracing` feature, every repair and every failure is a
//! `tracing` event (target `toolargs`) carrying tool, pointer and kind.
//! Run with `cargo test --features tracing --test observe_tracing`.
#![cfg(feature = "tracing")]

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use toolargs::call::ToolCall;
use toolargs::toolbox::Toolbox;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Collects `(level, tool, pointer, kind)` of every `toolargs` event.
#[derive(Clone, Default)]
struct Collect(Arc<Mutex<Vec<[String; 4]>>>);

#[derive(Default)]
struct Fields {
    tool: String,
    pointer: String,
    kind: String,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let text = format!("{value:?}");
        match field.name() {
            "tool" => self.tool = text,
            "pointer" => self.pointer = text,
            _ => {}
        }
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "kind" {
            self.kind = value.to_owned();
        } else {
            self.record_debug(field, &value);
        }
    }
}

impl Subscriber for Collect {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target() == "toolargs"
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        self.0.lock().unwrap().push([
            event.metadata().level().to_string(),
            fields.tool,
            fields.pointer,
            fields.kind,
        ]);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn repairs_and_failures_are_traced() {
    let collect = Collect::default();
    let mut toolbox: Toolbox = Toolbox::new();
    toolbox
        .dynamic_tool_sync(
            "tag",
            "Tag a document.",
            json!({"type": "object", "properties": {"tags": {"type": "array"}, "n": {"type": "integer"}}, "additionalProperties": false}),
            |args: Value| Ok::<_, String>(args),
        )
        .unwrap();
    tracing::subscriber::with_default(collect.clone(), || {
        toolbox
            .call_blocking(&(), ToolCall::new("tag", json!({"tags": "[\"a\"]"})))
            .unwrap();
        toolbox
            .call_blocking(&(), ToolCall::new("tag", json!({"n": "1"})))
            .unwrap_err();
    });
    let events = collect.0.lock().unwrap().clone();
    assert_eq!(
        events,
        [
            ["INFO", "tag", "/tags", "json_decoded"].map(str::to_owned),
            ["WARN", "tag", "/n", "type"].map(str::to_owned),
        ]
    );
}
