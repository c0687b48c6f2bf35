//! The streaming engine on arbitrary text in an arbitrary split: the
//! outcome is `from_model_with` on the whole text; every early rejection
//! obeys the soundness rule (`tests/support/stream_sound.rs`, shared with
//! the tests); the first certain rejection depends on the bytes received,
//! not on the split (the same rejection as one-byte deltas get, with the
//! fragment that brings the byte at which they get it); never a panic.
//!
//! Input: byte 0 picks the options, the type, and how fragments are fed
//! (as text or bytes, events recorded or lent, snapshots taken); byte 1 the
//! number `k` (mod 8) of fragment lengths that follow, repeated over the
//! text (none: the text in one fragment); the rest is the text (UTF-8).
#![no_main]

#[path = "../../tests/support/stream_sound.rs"]
mod stream_sound;

use libfuzzer_sys::fuzz_target;
use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use toolargs::stream::{ArgsStream, Certainty};
use toolargs::{ArgsError, ToolArgs, normalizer::Options, tool_args::Parsed};

/// Which orders to refund.
#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read by the checks only
struct RefundArgs {
    order_id: String,
    amount_cents: u32,
    reason: Reason,
    #[serde(default, alias = "labels")]
    tags: Vec<String>,
    filter: Option<Filter>,
    #[serde(default)]
    lines: Vec<Line>,
    #[serde(default)]
    notes: BTreeMap<String, Vec<String>>,
    ratio: Option<f64>,
    action: Option<Action>,
}

#[derive(Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Reason {
    Damaged,
    Late,
    Other { detail: String },
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Filter {
    since: Option<String>,
    kinds: Option<Vec<String>>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[allow(dead_code)]
struct Line {
    sku: String,
    quantity: u16,
    children: Vec<Line>,
}

/// An internally tagged enum: checked once its tag is complete.
#[derive(Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[allow(dead_code)]
enum Action {
    Move { to: String, by: Option<i32> },
    Label { names: Vec<String> },
    Stop,
}

/// A call whose root is the tagged enum itself, in a struct.
#[derive(Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
#[allow(dead_code)]
struct Act {
    action: Action,
    note: Option<String>,
}

/// The options a stream and the whole text are checked with: the default,
/// shallow nesting, and few bytes.
fn options(pick: u8) -> Options {
    match pick % 4 {
        1 => Options::default().max_depth(4),
        2 => Options::default().max_bytes(48),
        _ => Options::default(),
    }
}

/// How fragments are fed.
#[derive(Clone, Copy)]
struct Feed {
    bytes: bool,
    lend: bool,
    snapshots: bool,
}

/// The first certain rejection (bytes received then, rejection), the first
/// provisional one, and the final result.
type Run<T> = (
    Option<(usize, ArgsError)>,
    Option<(usize, ArgsError, Certainty)>,
    Result<Parsed<T>, ArgsError>,
);

fn run<T: ToolArgs>(text: &str, ends: &[usize], options: Options, feed: Feed) -> Run<T> {
    let mut call = ArgsStream::<T>::with_options(options);
    if feed.lend {
        call = call.without_events();
    }
    let (mut certain, mut provisional) = (None, None);
    let mut from = 0;
    for &to in ends {
        let bytes = &text.as_bytes()[from..to];
        let whole_chars = text.is_char_boundary(from) && text.is_char_boundary(to);
        match (feed.bytes || !whole_chars, feed.lend) {
            (false, false) => call.push(&text[from..to]),
            (true, false) => call.push_bytes(bytes),
            (false, true) => call.push_with(&text[from..to], |event| drop(event.to_event())),
            (true, true) => call.push_bytes_with(bytes, |event| drop(event.to_event())),
        }
        from = to;
        if certain.is_none() {
            certain = call.rejection().map(|e| (e.received, e.rejection));
        }
        if provisional.is_none() {
            provisional = call
                .provisional()
                .map(|e| (e.received, e.rejection, e.certainty));
        }
        if feed.snapshots {
            drop(call.snapshot());
        }
        call.events().for_each(drop);
    }
    (certain, provisional, call.finish())
}

fn check<T: ToolArgs + std::fmt::Debug + PartialEq>(
    text: &str,
    ends: &[usize],
    options: Options,
    feed: Feed,
) {
    let whole = T::from_model_with(text, &options);
    let (certain, provisional, result) = run::<T>(text, ends, options, feed);
    assert_eq!(result, whole, "finish differs from the whole text's");
    if let Some((_, early)) = &certain {
        if let Err(e) = stream_sound::early_is_sound(early, &whole) {
            panic!("certain: {e}");
        }
    }
    if let Some((_, early, _)) = &provisional {
        if !stream_sound::has_repeated_keys(text) {
            if let Err(e) = stream_sound::early_is_sound(early, &whole) {
                panic!("provisional: {e}");
            }
        }
    }
    // The same rejection as one-byte deltas get, with the fragment that
    // brings the byte at which they get it. (Not past the size limit: an
    // early `TooLarge` names the bytes received with the fragment that
    // crossed it.)
    if options.max_bytes >= text.len() {
        let bytes: Vec<usize> = (1..=text.len()).collect();
        let one_byte = Feed {
            bytes: true,
            ..feed
        };
        let (by_byte, _, _) = run::<T>(text, &bytes, options, one_byte);
        let expected = by_byte.map(|(at, error)| {
            let end = ends.iter().copied().find(|&end| end >= at);
            (end.unwrap_or(text.len()), error)
        });
        assert_eq!(certain, expected, "the split changed the certain rejection");
    }
}

fuzz_target!(|data: &[u8]| {
    let [flags, k, rest @ ..] = data else {
        return;
    };
    let k = usize::from(*k % 8).min(rest.len());
    let (pattern, text) = rest.split_at(k);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    // Fragment ends: the lengths repeated over the text (an empty fragment
    // for a 0), then the end.
    let mut ends = Vec::new();
    if pattern.iter().any(|&len| len > 0) {
        let mut at = 0;
        for &len in pattern.iter().cycle() {
            at += usize::from(len);
            if at >= text.len() {
                break;
            }
            ends.push(at);
        }
    }
    ends.push(text.len());
    let options = options(*flags);
    let feed = Feed {
        bytes: flags & 0x08 != 0,
        lend: flags & 0x10 != 0,
        snapshots: flags & 0x20 != 0,
    };
    if flags & 0x04 == 0 {
        check::<RefundArgs>(text, &ends, options, feed);
    } else {
        check::<Act>(text, &ends, options, feed);
    }
});
