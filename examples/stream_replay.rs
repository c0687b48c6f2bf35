//! Replays recorded tool-call streams of each provider (chat completions,
//! Responses, Anthropic messages; events built and serialized by the
//! providers' own SDKs, see `scripts/stream-fixtures.py`) through the
//! streaming checker, as a host would: the bytes arrive in small pieces,
//! [`SseDecoder`] cuts them into events, [`WireReader`] turns each event
//! into call deltas, and a [`Session`](toolargs::stream::Session) checks
//! each call against the toolbox while its arguments grow.
//!
//! It prints every member as it completes, the early rejection when a call
//! is certainly wrong (the moment a host would cancel the generation, and
//! how many bytes of the arguments had arrived), and the final outcome,
//! which is exactly what the toolbox says of the whole call.
//!
//! ```text
//! cargo run --example stream_replay
//! cargo run --example stream_replay -- anthropic my-recording.sse
//! ```
//!
//! With a format and a file, it replays that recording (server-sent events
//! as the provider sent them) against the same two tools.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use toolargs::ToolArgs;
use toolargs::rejection::Rejection;
use toolargs::stream::wire::{CallDelta, SseDecoder, StreamFormat, WireReader};
use toolargs::stream::{Certainty, Event, Session, ToolStreams};
use toolargs::toolbox::Toolbox;

/// Refund part or all of an order to the customer's original payment method.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Refund {
    /// The order to refund: `ord_` followed by eight lowercase letters or digits.
    #[schemars(regex(pattern = r"^ord_[a-z0-9]{8}$"))]
    order_id: String,
    /// Amount to refund, in cents (1 to 50000).
    #[schemars(range(min = 1, max = 50000))]
    amount_cents: u32,
    /// Why the customer is refunded.
    reason: Reason,
    /// A note shown to the customer.
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
    NotReceived,
}

/// Write a text file in the workspace.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct WriteFile {
    /// Path relative to the workspace.
    path: String,
    /// The whole content.
    content: String,
}

/// The recorded streams: name, format, the SSE text, and for chat
/// completions streamed with `n > 1`, how many choices it holds.
const STREAMS: [(&str, StreamFormat, &str, u64); 7] = [
    (
        "openai_chat_parallel",
        StreamFormat::OpenAiChat,
        include_str!("../tests/data/streams/openai_chat_parallel.sse"),
        1,
    ),
    (
        "openai_chat_rejected",
        StreamFormat::OpenAiChat,
        include_str!("../tests/data/streams/openai_chat_rejected.sse"),
        1,
    ),
    (
        "openai_chat_two_choices",
        StreamFormat::OpenAiChat,
        include_str!("../tests/data/streams/openai_chat_two_choices.sse"),
        2,
    ),
    (
        "openai_responses_parallel",
        StreamFormat::OpenAiResponses,
        include_str!("../tests/data/streams/openai_responses_parallel.sse"),
        1,
    ),
    (
        "openai_responses_rejected",
        StreamFormat::OpenAiResponses,
        include_str!("../tests/data/streams/openai_responses_rejected.sse"),
        1,
    ),
    (
        "anthropic_parallel",
        StreamFormat::Anthropic,
        include_str!("../tests/data/streams/anthropic_parallel.sse"),
        1,
    ),
    (
        "anthropic_rejected",
        StreamFormat::Anthropic,
        include_str!("../tests/data/streams/anthropic_rejected.sse"),
        1,
    ),
];

/// Bytes handed to the decoder at a time, as a network might deliver them
/// (it cuts events, lines and UTF-8 characters anywhere).
const PIECE: usize = 61;

/// The two tools the recorded calls call. (The bodies never run here, the
/// example only checks the calls; they say what a run would do.)
pub fn toolbox() -> Result<Toolbox, toolargs::toolbox::RegisterError> {
    let mut toolbox = Toolbox::new();
    toolbox.tool_sync(
        "refund",
        "Refund part or all of an order.",
        |refund: Refund| {
            Ok::<_, String>(format!(
                "refunded {} cents on {} ({:?}, note: {:?})",
                refund.amount_cents, refund.order_id, refund.reason, refund.note
            ))
        },
    )?;
    toolbox.tool_sync(
        "write_file",
        "Write a text file in the workspace.",
        |file: WriteFile| {
            Ok::<_, String>(format!(
                "wrote {} bytes to {}",
                file.content.len(),
                file.path
            ))
        },
    )?;
    Ok(toolbox)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let toolbox = toolbox()?;
    let streams = ToolStreams::new(&toolbox);

    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {
            for (name, format, sse, choices) in STREAMS {
                replay(&streams, name, format, sse, choices)?;
            }
        }
        [format, file] => {
            let format = match format.as_str() {
                "chat" => StreamFormat::OpenAiChat,
                "responses" => StreamFormat::OpenAiResponses,
                "anthropic" => StreamFormat::Anthropic,
                other => return Err(format!("unknown format `{other}`: {USAGE}").into()),
            };
            let sse = std::fs::read_to_string(file)?;
            replay(&streams, file, format, &sse, 1)?;
        }
        _ => return Err(USAGE.into()),
    }
    Ok(())
}

const USAGE: &str = "usage: stream_replay [chat|responses|anthropic FILE.sse]";

/// Replays one recorded response: its bytes in pieces, through one reader
/// and one session per choice (alternatives never mix).
fn replay(
    streams: &ToolStreams<'_>,
    name: &str,
    format: StreamFormat,
    sse: &str,
    choices: u64,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("== {name} ({format}, {} bytes of events)", sse.len());
    let mut replays: Vec<Replay<'_, '_>> = (0..choices)
        .map(|choice| Replay {
            tag: if choices > 1 {
                format!("choice {choice} ")
            } else {
                String::new()
            },
            reader: if choices > 1 {
                WireReader::openai_chat_choice(choice)
            } else {
                WireReader::new(format)
            },
            session: streams.session(format.into()),
            early: BTreeMap::new(),
            provisional: BTreeSet::new(),
        })
        .collect();
    let mut decoder = SseDecoder::new();
    for piece in sse.as_bytes().chunks(PIECE) {
        for event in decoder.push(piece)? {
            for replay in &mut replays {
                for delta in replay.reader.read_sse(&event)? {
                    replay.apply(&delta);
                }
            }
        }
    }
    if decoder.finish() {
        println!("(the recording ends inside an event, which is dropped)");
    }
    println!();
    Ok(())
}

/// One choice of one response being replayed.
struct Replay<'s, 't> {
    /// What each printed line starts with: the choice, when there are several.
    tag: String,
    reader: WireReader,
    session: Session<'s, 't>,
    /// The certain early rejection of each call that had one, and the
    /// byte it came at.
    early: BTreeMap<u64, (Rejection, usize)>,
    /// The calls whose provisional rejection was shown.
    provisional: BTreeSet<u64>,
}

impl Replay<'_, '_> {
    fn apply(&mut self, delta: &CallDelta) {
        let tag = &self.tag;
        match delta {
            CallDelta::Begin { index, id, name } => println!(
                "{tag}call {index} begins: {} (id {})",
                name.as_deref().unwrap_or("?"),
                id.as_deref().unwrap_or("-")
            ),
            CallDelta::Name { index, fragment } => {
                println!("{tag}call {index} name continues: {fragment:?}");
            }
            CallDelta::Arguments { .. } | CallDelta::End { .. } => {}
        }
        if let Some(call) = self.session.apply(delta) {
            let index = delta.index();
            for event in call.events() {
                match event {
                    Event::Value { location, value } | Event::Whole { location, value } => {
                        println!("{tag}call {index}   {} = {value}", pointer(&location));
                    }
                    Event::Closed { location, shape } => {
                        println!(
                            "{tag}call {index}   {} closed ({shape:?})",
                            pointer(&location)
                        );
                    }
                    _ => {}
                }
            }
            if !self.provisional.contains(&index)
                && let Some(early) = call.provisional()
            {
                if early.certainty == Certainty::UnlessRepeated {
                    println!(
                        "{tag}call {index} wrong at byte {} of its arguments, unless the model sends that key again: {}",
                        early.received,
                        early.rejection.model_message()
                    );
                }
                self.provisional.insert(index);
            }
            if let Entry::Vacant(slot) = self.early.entry(index)
                && let Some(early) = call.rejection()
            {
                println!(
                    "{tag}call {index} REJECTED EARLY at byte {} of its arguments: {}",
                    early.received,
                    early.rejection.model_message()
                );
                println!("{tag}call {index}   (a host would cancel the generation here)");
                slot.insert((early.rejection, early.received));
            }
        }
        if let CallDelta::End { index } = delta {
            self.end(*index);
        }
    }

    fn end(&mut self, index: u64) {
        let received = self.session.call(index).map_or(0, |call| call.received());
        let Some(outcome) = self.session.finish(index, &()) else {
            return;
        };
        let tag = &self.tag;
        match outcome {
            Ok(checked) => println!(
                "{tag}call {index} ends after {received} bytes: {} {}",
                checked.tool(),
                checked.arguments()
            ),
            Err(error) => {
                println!(
                    "{tag}call {index} ends after {received} bytes, rejected: {}",
                    error.model_message()
                );
                if let Some((early, at)) = self.early.get(&index) {
                    println!(
                        "{tag}call {index}   the early rejection came at byte {at} of {received} ({:.0}%); the whole call's rejection {} it",
                        100.0 * *at as f64 / received.max(1) as f64,
                        if error
                            .rejection()
                            .is_some_and(|whole| includes(whole, early))
                        {
                            "includes"
                        } else {
                            "DOES NOT include"
                        }
                    );
                }
            }
        }
    }
}

/// Whether the whole call's rejection says what the early one said: the
/// same rejection, or, for invalid arguments, the same tool with every
/// violation found early among the whole call's (the whole text may show
/// more, a missing member for one).
fn includes(whole: &Rejection, early: &Rejection) -> bool {
    match (whole, early) {
        (Rejection::InvalidArguments(whole), Rejection::InvalidArguments(early)) => {
            whole.tool == early.tool
                && early
                    .violations
                    .iter()
                    .all(|violation| whole.violations.contains(violation))
        }
        _ => whole == early,
    }
}

/// A location as a JSON pointer, `(root)` for the whole arguments.
fn pointer(location: &toolargs::path::Pointer) -> String {
    match location.to_string() {
        pointer if pointer.is_empty() => "(root)".to_owned(),
        pointer => pointer,
    }
}
