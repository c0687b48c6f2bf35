//! `T::from_model` on the bench corpus, a fixed number of times, for an
//! instruction count (`valgrind --tool=callgrind`): the counts of two builds
//! compare where wall-clock times on a shared machine do not.
//!
//! `cargo bench --bench from_model_count --no-run`, then
//! `valgrind --tool=callgrind <binary> small clean 1000` (sizes `small`,
//! `medium`, `large`; `clean`, `damaged`, or `invalid`: clean text that
//! breaks the contract). A run with 0 calls measures
//! what the process costs without them, to subtract. A fourth argument,
//! `bare`, counts `serde_json::from_str::<T>` instead, the floor; `toolbox`
//! counts `Toolbox::check` of the call for a typed tool; `full`, the full
//! path alone (what a type the clean read cannot vouch for always takes);
//! `pipeline`, the validating pipeline of `benches/clean_path.rs`
//! (`from_str::<Value>`, `jsonschema` `is_valid` against the same closed
//! schema, `from_value::<T>`); `stream8`/`stream64`, the text fed to an
//! `ArgsStream<T>` in fragments of 8 or 64 bytes (moved on to a character
//! boundary), its recorded events drained after each, then `finish()`, as
//! `benches/stream.rs` does (`stream8quiet`/`stream64quiet`: a stream made
//! `without_events()`); `eventfloor`, `from_model` plus the owned
//! events a stream records for the call (each location and a copy of each
//! value, made from the parsed value): the least a stream that records
//! them can cost; `valuefloor`, the same with the values' copies alone (no
//! locations).

use std::hint::black_box;
use toolargs::ToolArgs;

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/fragments.rs"]
mod fragments;
#[path = "support/search_args.rs"]
mod search_args;

use search_args::SearchArgs;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let size = match args.first().map(String::as_str) {
        Some("medium") => corpus::Size::Medium,
        Some("large") => corpus::Size::Large,
        _ => corpus::Size::Small,
    };
    let kind = args.get(1).map(String::as_str);
    let calls: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let call = match kind {
        Some("damaged") => corpus::damaged(size, 1),
        Some("invalid") => {
            // Clean text that breaks the contract: `limit` is a `u32`.
            let mut call = corpus::clean(size, 1);
            call["limit"] = serde_json::json!(-1);
            call
        }
        _ => corpus::clean(size, 1),
    };
    let text = call.to_string();
    // First use (compiling the contract) happens before the counted calls.
    assert_eq!(
        SearchArgs::from_model(text.as_str()).is_ok(),
        kind != Some("invalid")
    );
    if args.get(3).map(String::as_str) == Some("toolbox") {
        let mut toolbox: toolargs::toolbox::Toolbox = toolargs::toolbox::Toolbox::new();
        toolbox
            .tool_sync("search", "Searches.", |args: SearchArgs| {
                Ok::<_, String>(args.documents.len())
            })
            .expect("registers");
        let call = |text: &str| toolargs::call::ToolCall {
            id: None,
            name: "search".to_owned(),
            arguments: toolargs::call::Arguments::Text(text.to_owned()),
            format: toolargs::call::WireFormat::Plain,
        };
        assert!(toolbox.check(&(), call(&text)).is_ok());
        for _ in 0..calls {
            let _ = black_box(toolbox.check(&(), call(black_box(&text))).is_ok());
        }
        return;
    }
    if args.get(3).map(String::as_str) == Some("full") {
        let options = toolargs::normalizer::Options::default();
        for _ in 0..calls {
            let _ = black_box(
                toolargs::__private::from_model_full::<SearchArgs>(
                    black_box(text.as_str()).into(),
                    &options,
                )
                .is_ok(),
            );
        }
        return;
    }
    if let Some(delta) = args.get(3).and_then(|mode| mode.strip_prefix("stream")) {
        // `stream64quiet`: made `without_events()`, nothing drained.
        let (delta, quiet) = match delta.strip_suffix("quiet") {
            Some(delta) => (delta, true),
            None => (delta, false),
        };
        let delta: usize = delta.parse().expect("stream8 or stream64");
        let fragments = fragments::fragments(&text, delta);
        for _ in 0..calls {
            let mut call = toolargs::stream::ArgsStream::<SearchArgs>::new();
            if quiet {
                call = call.without_events();
            }
            let mut seen = 0;
            for fragment in &fragments {
                call.push(black_box(fragment));
                seen += call.events().count();
            }
            let _ = black_box((call.finish().is_ok(), seen));
        }
        return;
    }
    if let Some(mode @ ("eventfloor" | "valuefloor")) = args.get(3).map(String::as_str) {
        // What any stream that records owned events pays at least, beside
        // `from_model`: each event's location and its own copy of the value
        // (`valuefloor`: the copies alone). The parsed value stands in for
        // what the stream reads.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let (mut events, mut values) = (Vec::new(), Vec::new());
        for _ in 0..calls {
            let parsed = SearchArgs::from_model(black_box(text.as_str()));
            let made = if mode == "eventfloor" {
                let root = toolargs::path::Pointer::root();
                record(black_box(&value), &root, &mut events);
                events.drain(..).count()
            } else {
                copy_values(black_box(&value), &mut values);
                values.drain(..).count()
            };
            let _ = black_box((parsed.is_ok(), made));
        }
        return;
    }
    if args.get(3).map(String::as_str) == Some("pipeline") {
        let pipeline =
            jsonschema::validator_for(SearchArgs::input_schema()).expect("the schema compiles");
        for _ in 0..calls {
            let value: serde_json::Value = serde_json::from_str(black_box(&text)).unwrap();
            assert!(pipeline.is_valid(&value));
            let _ = black_box(serde_json::from_value::<SearchArgs>(value).unwrap());
        }
        return;
    }
    if args.get(3).map(String::as_str) == Some("bare") {
        for _ in 0..calls {
            let _ = black_box(serde_json::from_str::<SearchArgs>(black_box(&text)));
        }
        return;
    }
    for _ in 0..calls {
        let _ = black_box(SearchArgs::from_model(black_box(text.as_str())));
    }
}

/// The events a stream records for `value` at `at`, in its order: each
/// scalar, then each container after its members.
fn record(
    value: &serde_json::Value,
    at: &toolargs::path::Pointer,
    events: &mut Vec<toolargs::stream::Event>,
) {
    use serde_json::Value;
    use toolargs::plan::JsonType;
    use toolargs::stream::Event;
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                record(member, &at.key(key), events);
            }
            events.push(Event::Closed {
                location: at.clone(),
                shape: JsonType::Object,
            });
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                record(item, &at.index(index), events);
            }
            events.push(Event::Closed {
                location: at.clone(),
                shape: JsonType::Array,
            });
        }
        scalar => events.push(Event::Value {
            location: at.clone(),
            value: scalar.clone(),
        }),
    }
}

/// The copies of `value`'s scalars a stream's events hold, without their
/// locations.
fn copy_values(value: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
    match value {
        serde_json::Value::Object(members) => {
            members.values().for_each(|member| copy_values(member, out));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|item| copy_values(item, out)),
        scalar => out.push(scalar.clone()),
    }
}
