//! The streaming engine against the whole-text entry point, over the
//! contract suite's derived types (`tests/contract`): generated calls,
//! clean, damaged (escaped strings, containers sent as JSON text, broken
//! syntax) and invalid (an undeclared key, a leaf of another type, a
//! string outside an enum, an undeclared key and a wrong leaf together, an
//! integer written with a fraction or an exponent, a unit-enum member
//! outside its enum, a tagged union's included, after its good tag),
//! each fed in every two-way split, in one-byte
//! deltas and in random multi-way splits.
//!
//! Besides, each value's text with characters and escapes put where they
//! break it or not: non-ASCII characters and escapes (valid, cut anywhere by
//! the splits) inside strings; invalid and lone surrogate escapes followed by
//! more of the string; a byte order mark, a fullwidth colon or non-ASCII
//! bytes outside strings and after the root value.
//!
//! For every split:
//! - `finish()` equals `T::from_model` on the whole text;
//! - the first certain rejection depends on the bytes received, not on the
//!   split: the same rejection, with the fragment that brings the byte at
//!   which one-byte deltas get it;
//! - a syntax error is rejected no later than the character after the
//!   position the parser gives it (compared with the parser's error on the
//!   whole text, never with a wording);
//! - every early rejection is sound: the whole text is rejected, and by the
//!   same syntax error, or with the early violation among its violations
//!   (or by an earlier phase, as the module documents);
//! - the events are the whole call's normalized values: each at its
//!   pointer in the normalized whole value, each value of the text covered
//!   once;
//! - in one-byte deltas, a snapshot's open string is the last member of its
//!   container, and a prefix of the whole text's string there.
//!
//! For invalid calls, how early the first rejection came (the fraction of
//! the text received) is computed and printed, certain and provisional.
#![allow(dead_code)]

mod contract;
#[path = "support/stream_sound.rs"]
mod stream_sound;

use contract::types::*;
use contract::{Rng, Subject, canonical, leaves, objects, with_replaced};
use serde_json::{Map, Value};
use std::fmt::Debug;
use stream_sound::{early_is_sound, has_repeated_keys};
use toolargs::ArgsError;
use toolargs::stream::{ArgsStream, Certainty, Event, EventRef};

/// Generated values per type.
const CASES: u64 = 6;
/// Texts up to this long get every two-way split; longer ones a sample.
const ALL_SPLITS_UP_TO: usize = 300;
/// Random multi-way splits per text.
const RANDOM_SPLITS: usize = 6;

/// One streamed run: the result, the first certain and provisional
/// rejections, the events.
struct Run<T: Subject> {
    result: Result<toolargs::tool_args::Parsed<T>, ArgsError>,
    certain: Option<(usize, ArgsError)>,
    provisional: Option<(usize, ArgsError, Certainty)>,
    events: Vec<Event>,
    /// Without recorded events: the events lent to `push_with`'s callback,
    /// made owned.
    lent: Vec<Event>,
}

fn run<T: Subject>(text: &str, cuts: &[usize]) -> Run<T> {
    run_with::<T>(text, cuts, true)
}

fn run_with<T: Subject>(text: &str, cuts: &[usize], events_on: bool) -> Run<T> {
    let mut call = ArgsStream::<T>::new();
    if !events_on {
        call = call.without_events();
    }
    let bytes = text.as_bytes();
    let mut certain = None;
    let mut provisional = None;
    let mut events = Vec::new();
    let mut lent = Vec::new();
    let recorded = events_on;
    let mut from = 0;
    // Text fragments where every cut falls between characters (the common
    // case), bytes otherwise: both ways of feeding are exercised.
    let as_text = cuts.iter().all(|&cut| text.is_char_boundary(cut));
    for &to in cuts.iter().chain(std::iter::once(&bytes.len())) {
        let mut lend = |event: EventRef<'_>| lent.push(event.to_event());
        match (as_text, recorded) {
            (true, true) => call.push(&text[from..to]),
            (false, true) => call.push_bytes(&bytes[from..to]),
            (true, false) => call.push_with(&text[from..to], &mut lend),
            (false, false) => call.push_bytes_with(&bytes[from..to], &mut lend),
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
        events.extend(call.events());
    }
    if !recorded {
        call.end_with(|event| lent.push(event.to_event()));
    }
    let result = call.finish();
    events.extend(call.events());
    Run {
        result,
        certain,
        provisional,
        events,
        lent,
    }
}

/// The events agree with the whole text: each value event is the
/// normalized whole value at its pointer, and every value of the text is
/// covered by exactly one value event (its own or an enclosing one).
fn events_agree<T: Subject>(text: &str, events: &[Event]) -> Result<(), String> {
    let Ok(raw) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    if has_repeated_keys(text) {
        return Ok(());
    }
    let mut normalized = raw.clone();
    if T::normalize(&mut normalized, &toolargs::normalizer::Options::default()).is_err() {
        return Ok(());
    }
    let mut covering = Vec::new();
    for event in events {
        let (location, value) = match event {
            Event::Value { location, value } | Event::Whole { location, value } => {
                (location.to_string(), value)
            }
            _ => continue,
        };
        match normalized.pointer(&location) {
            Some(whole) if whole == value => covering.push(location),
            other => {
                return Err(format!(
                    "event at `{location}` says {value}, the whole call has {other:?}"
                ));
            }
        }
    }
    let mut all = Vec::new();
    leaves(&raw, "", &mut all);
    for leaf in all {
        if matches!(raw.pointer(&leaf), Some(Value::Array(a)) if a.is_empty())
            || matches!(raw.pointer(&leaf), Some(Value::Object(o)) if o.is_empty())
        {
            continue;
        }
        let count = covering
            .iter()
            .filter(|c| contract::is_within(&leaf, c))
            .count();
        if count != 1 {
            return Err(format!("`{leaf}` covered by {count} value events"));
        }
    }
    Ok(())
}

/// The splits a text is fed in: every two-way split (or a sample of them),
/// one-byte deltas, and random multi-way splits.
fn splits(text: &str, rng: &mut Rng) -> Vec<Vec<usize>> {
    let n = text.len();
    let mut out: Vec<Vec<usize>> = Vec::new();
    if n <= ALL_SPLITS_UP_TO {
        out.extend((0..=n).map(|cut| vec![cut]));
    } else {
        out.extend((0..64).map(|_| vec![rng.below(n + 1)]));
    }
    out.push((1..n).collect());
    for _ in 0..RANDOM_SPLITS {
        let mut cuts: Vec<usize> = (0..1 + rng.below(12)).map(|_| rng.below(n + 1)).collect();
        cuts.sort_unstable();
        out.push(cuts);
    }
    out
}

/// The texts one generated value gives: clean, damaged, broken, and
/// invalid (with whether it is meant to be), plus a copy of an invalid one
/// where a root key is sent again with its valid value.
fn texts<T: Subject>(j: &Value, rng: &mut Rng) -> Vec<(String, &'static str)> {
    let mut out = vec![(j.to_string(), "clean")];
    out.push((damaged(j, rng).to_string(), "damaged"));
    let clean = j.to_string();
    if clean.len() > 2 {
        let mut cut = 1 + rng.below(clean.len() - 1);
        while !clean.is_char_boundary(cut) {
            cut -= 1;
        }
        let junk = *rng.pick(&["}", ",", "]", "x", "\"", ":"]);
        out.push((
            format!("{}{junk}{}", &clean[..cut], &clean[cut..]),
            "broken",
        ));
    }
    out.extend(characters(&clean, rng));
    let mut holders = Vec::new();
    objects(j, "", &mut holders);
    let mut unknown = None;
    if !holders.is_empty() {
        let at = rng.pick(&holders).clone();
        let mut mutated = j.clone();
        if let Some(Value::Object(members)) = mutated.pointer_mut(&at)
            && !members.contains_key("zz_unknown")
        {
            members.insert("zz_unknown".to_owned(), Value::from(1));
            out.push((mutated.to_string(), "unknown key"));
            unknown = Some(mutated);
        }
    }
    let mut all = Vec::new();
    leaves(j, "", &mut all);
    if !all.is_empty() {
        let at = rng.pick(&all).clone();
        let old = j.pointer(&at).cloned().unwrap_or(Value::Null);
        let candidates: Vec<Value> = [
            Value::from(7),
            Value::from("x"),
            Value::from("zz-not-a-variant"),
            Value::Bool(true),
            Value::Null,
        ]
        .into_iter()
        .filter(|r| *r != old)
        .collect();
        let replacement = rng.pick(&candidates).clone();
        let mutated = with_replaced(j, &at, replacement.clone());
        out.push((mutated.to_string(), "wrong leaf"));
        // An integer written with a fraction or an exponent: refused where
        // the Rust type is an integer, as early as the number completes.
        let integers: Vec<&String> = all
            .iter()
            .filter(|at| j.pointer(at).is_some_and(|v| v.is_u64() || v.is_i64()))
            .collect();
        if !integers.is_empty() {
            let at = *rng.pick(&integers);
            let n = j.pointer(at).cloned().unwrap_or(Value::Null);
            let marker = Value::from("\u{1}integer\u{1}");
            let text = with_replaced(j, at, marker.clone()).to_string();
            let written = *rng.pick(&["{n}.0", "{n}e0", "{n}.5", "{n}E+1"]);
            let written = written.replace("{n}", &n.to_string());
            out.push((
                text.replace(&marker.to_string(), &written),
                "integer written",
            ));
        }
        // A unit-enum member (the suite's `Speed`) outside its enum, each of
        // the first two in turn: below a tagged union, after its good tag,
        // the tag decides the branch it is reported in.
        let speeds = all.iter().filter(
            |at| matches!(j.pointer(at), Some(Value::String(s)) if s == "fast" || s == "slow"),
        );
        for at in speeds.take(2) {
            let mutated = with_replaced(j, at, Value::from("warp"));
            out.push((mutated.to_string(), "outside its enum"));
        }
        // Both at once: a finding early in the text must stand whatever
        // fails after it (a wrong tag can change how a union is reported).
        if let Some(unknown) = &unknown {
            let both = with_replaced(unknown, &at, replacement);
            out.push((both.to_string(), "two wrongs"));
        }
        // The same, then the root member on its path sent again, valid.
        if let (Value::Object(root), Some(first)) = (j, at.split('/').nth(1)) {
            let key = first.replace("~1", "/").replace("~0", "~");
            if let (Some(original), Value::Object(_)) = (root.get(&key), &mutated) {
                let text = mutated.to_string();
                let body = &text[..text.len() - 1];
                let again = format!("{body},{}:{original}}}", Value::String(key.clone()));
                out.push((again, "repeated key"));
            }
        }
    }
    out
}

/// Characters and escapes that keep a string valid.
const VALID_IN_STRING: &[&str] = &[
    "é",
    "€",
    "😀",
    "\u{ff1a}",
    r"\u00e9",
    r"\ud83d\ude00",
    r"\uD83D\uDE00",
    r#"\""#,
    r"\\",
    r"\n",
    r"\/",
    r"\u0041",
];

/// Escapes the parser refuses: lone surrogates, a high surrogate followed
/// by something other than a low one, bad hex digits, an unknown escape.
const INVALID_IN_STRING: &[&str] = &[
    r"\ud800",
    r"\udc00",
    r"\ud800\u0041",
    r"\ud800\n",
    "\\ud800é",
    r"\ud800\ud800",
    r"\uDBFF\u00e9",
    r"\u00G1",
    r"\uG",
    "\\u0é",
    r"\x",
];

/// Characters outside strings, none JSON: a byte order mark, a fullwidth
/// colon, an ideographic space, a letter.
const OUTSIDE_STRINGS: &[&str] = &["\u{feff}", "\u{ff1a}", "\u{3000}", "é", "😀"];

/// Where a character or escape may go inside a string of `text` (JSON):
/// after its opening quote up to its closing one, never inside an escape
/// or a character; and where one may go between tokens (after `{`, `[`,
/// `,` or `:` outside strings).
fn insertion_points(text: &str) -> (Vec<usize>, Vec<usize>) {
    let bytes = text.as_bytes();
    let (mut inside, mut between) = (Vec::new(), Vec::new());
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        if in_string {
            inside.push(i);
        }
        match bytes[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => {
                i += if bytes.get(i + 1) == Some(&b'u') {
                    6
                } else {
                    2
                }
            }
            b'{' | b'[' | b',' | b':' if !in_string => {
                i += 1;
                between.push(i);
            }
            _ => i += text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    (inside, between)
}

/// The text with characters and escapes put in it: valid ones inside
/// strings ("characters"); an invalid escape inside a string, more of the
/// string after it ("bad escape"); a character outside strings, at the
/// start, after the root, or between tokens, or a fullwidth colon for a
/// colon ("outside").
fn characters(clean: &str, rng: &mut Rng) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let (inside, between) = insertion_points(clean);
    if !inside.is_empty() {
        let mut text = clean.to_owned();
        // From the end, so the earlier points stay where they were.
        let mut points: Vec<usize> = (0..1 + rng.below(3)).map(|_| *rng.pick(&inside)).collect();
        points.sort_unstable();
        for at in points.into_iter().rev() {
            let valid: &&str = rng.pick(VALID_IN_STRING);
            text.insert_str(at, valid);
        }
        out.push((text, "characters"));
        let at = *rng.pick(&inside);
        let bad = format!("{}{}", rng.pick(INVALID_IN_STRING), "more é");
        out.push((
            format!("{}{bad}{}", &clean[..at], &clean[at..]),
            "bad escape",
        ));
    }
    let odd = rng.pick(OUTSIDE_STRINGS);
    let outside = match rng.below(4) {
        0 => format!("{odd}{clean}"),
        1 => format!("{clean}{}{odd}", if rng.chance(50) { " " } else { "" }),
        2 if !between.is_empty() => {
            let at = *rng.pick(&between);
            format!("{}{odd}{}", &clean[..at], &clean[at..])
        }
        _ => {
            let colons: Vec<usize> = between
                .iter()
                .map(|&at| at - 1)
                .filter(|&at| clean.as_bytes()[at] == b':')
                .collect();
            if colons.is_empty() {
                format!("{clean}{odd}")
            } else {
                let at = *rng.pick(&colons);
                format!("{}\u{ff1a}{}", &clean[..at], &clean[at + 1..])
            }
        }
    };
    out.push((outside, "outside"));
    out
}

/// Escapes some string leaves and sends some containers as JSON text.
fn damaged(value: &Value, rng: &mut Rng) -> Value {
    match value {
        Value::String(text) if rng.chance(40) => Value::String(
            text.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('"', "&quot;"),
        ),
        Value::Array(items) => {
            let inner = Value::Array(items.iter().map(|v| damaged(v, rng)).collect());
            if rng.chance(15) {
                Value::String(inner.to_string())
            } else {
                inner
            }
        }
        Value::Object(members) => {
            let inner = Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), damaged(v, rng)))
                    .collect::<Map<String, Value>>(),
            );
            if rng.chance(10) {
                Value::String(inner.to_string())
            } else {
                inner
            }
        }
        other => other.clone(),
    }
}

/// Other draws than the committed ones: `TOOLARGS_STREAM_DRAW=N` offsets
/// every seed (0, the default, is what CI runs).
fn draw() -> u64 {
    std::env::var("TOOLARGS_STREAM_DRAW")
        .ok()
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(0)
}

/// The generated texts of `T`, with their kind.
fn generated<T: Subject>(name: &str) -> Vec<(String, &'static str, Rng)> {
    let mut out = Vec::new();
    let draw = draw().wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for case in 0..CASES {
        let mut rng = Rng::new((0x5EED_0000 + case * 7919 + name.len() as u64) ^ draw);
        let Some((_, j)) = canonical(T::generate(&mut rng, 0)) else {
            continue;
        };
        for (text, kind) in texts::<T>(&j, &mut rng) {
            let seed = rng.next();
            out.push((text, kind, Rng::new(seed)));
        }
    }
    out
}

fn check_type<T: Subject>(name: &str) {
    let mut failures = Vec::new();
    let generated = generated::<T>(name);
    assert!(!generated.is_empty(), "{name}: no text generated");
    for (text, kind, mut rng) in generated {
        let whole = T::from_model(&text);
        if let Err(e) = events_agree::<T>(&text, &run::<T>(&text, &[]).events) {
            failures.push(format!("{kind} {text}\n  events: {e}"));
        }
        let repeated = has_repeated_keys(&text);
        // Without events the engine takes other paths: the same findings.
        let bytes: Vec<usize> = (1..text.len()).collect();
        let (with, without) = (
            run_with::<T>(&text, &bytes, true),
            run_with::<T>(&text, &bytes, false),
        );
        if format!("{:?} {:?}", with.certain, with.provisional)
            != format!("{:?} {:?}", without.certain, without.provisional)
            || !without.events.is_empty()
        {
            failures.push(format!(
                "{kind} {text}\n  with events {:?} {:?}\n  without     {:?} {:?}",
                with.certain, with.provisional, without.certain, without.provisional
            ));
        }
        // Events lent to a callback are the recorded ones, in order.
        if without.lent != with.events {
            failures.push(format!(
                "{kind} {text}\n  recorded {:?}\n  lent     {:?}",
                with.events, without.lent
            ));
        }
        // Where one-byte deltas are first rejected for certain: every split
        // gets the same rejection with the fragment that brings that byte.
        let by_byte = with.certain.clone();
        if let Err(e) = prompt(&text, &whole, by_byte.as_ref().map(|(at, _)| *at)) {
            failures.push(format!("{kind} {text:?}\n  {e}"));
        }
        if matches!(kind, "clean" | "damaged" | "characters")
            && text.len() <= ALL_SPLITS_UP_TO
            && let Err(e) = snapshots_agree::<T>(&text)
        {
            failures.push(format!("{kind} {text:?}\n  snapshot: {e}"));
        }
        for cuts in splits(&text, &mut rng) {
            let got = run::<T>(&text, &cuts);
            if got.result != whole {
                failures.push(format!(
                    "{kind} {text} split at {cuts:?}\n  stream {:?}\n  whole  {whole:?}",
                    got.result
                ));
                break;
            }
            let expected = by_byte.as_ref().map(|(at, error)| {
                let end = cuts
                    .iter()
                    .copied()
                    .chain([text.len()])
                    .find(|end| end >= at);
                (end.unwrap_or(text.len()), error.clone())
            });
            if got.certain != expected {
                failures.push(format!(
                    "{kind} {text:?} split at {cuts:?}\n  certain {:?}\n  in one-byte deltas {by_byte:?}",
                    got.certain
                ));
                break;
            }
            if let Some((_, early)) = &got.certain
                && let Err(e) = early_is_sound(early, &whole)
            {
                failures.push(format!("{kind} {text} split at {cuts:?}\n  certain: {e}"));
                break;
            }
            if let Some((_, early, _)) = &got.provisional
                && !repeated
                && let Err(e) = early_is_sound(early, &whole)
            {
                failures.push(format!(
                    "{kind} {text} split at {cuts:?}\n  provisional: {e}"
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} failures; first:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
}

/// A syntax error the parser places (not at the end of input) is rejected
/// early, in one-byte deltas (`first`: the bytes received then), once the
/// character after the bytes the parser read is complete: the parser's
/// error on the whole text gives the place (its wording is not compared).
fn prompt<T: Debug>(
    text: &str,
    whole: &Result<toolargs::tool_args::Parsed<T>, ArgsError>,
    first: Option<usize>,
) -> Result<(), String> {
    let Err(ArgsError::Syntax(syntax)) = whole else {
        return Ok(());
    };
    let Err(error) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    if error.classify() == serde_json::error::Category::Eof
        || (Some(error.line()), Some(error.column())) != (syntax.line, syntax.column)
    {
        return Ok(());
    }
    // The parser's column counts bytes from the line's start: the bytes it
    // read when it failed.
    let line_start = text
        .match_indices('\n')
        .nth(error.line().wrapping_sub(2))
        .map_or(0, |(at, _)| at + 1);
    let read = (line_start + error.column()).min(text.len());
    let bound = (read + 1..=text.len())
        .find(|&at| text.is_char_boundary(at))
        .unwrap_or(text.len());
    match first {
        Some(at) if at <= bound => Ok(()),
        other => Err(format!(
            "the parser fails after {read} bytes ({syntax}); rejected early at {other:?}"
        )),
    }
}

/// Fed one byte at a time: while the call is not rejected, a snapshot's
/// open string (its last open location) is the last member of its
/// container, and the whole text's string there starts with it.
fn snapshots_agree<T: Subject>(text: &str) -> Result<(), String> {
    let Ok(whole) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    if has_repeated_keys(text) {
        return Ok(());
    }
    let mut call = ArgsStream::<T>::new().without_events();
    for (i, byte) in text.as_bytes().iter().enumerate() {
        call.push_bytes(std::slice::from_ref(byte));
        if call.rejection().is_some() {
            break;
        }
        let Some(snapshot) = call.snapshot() else {
            continue;
        };
        let Some(at) = snapshot.open.last().map(ToString::to_string) else {
            continue;
        };
        let Some(Value::String(so_far)) = snapshot.value.pointer(&at) else {
            continue;
        };
        let whole_chars = (0..=i + 1).rev().find(|&at| text.is_char_boundary(at));
        let prefix = &text[..whole_chars.unwrap_or(0)];
        if let Some(slash) = at.rfind('/')
            && let Some(Value::Array(items)) = snapshot.value.pointer(&at[..slash])
            && at[slash + 1..] != (items.len() - 1).to_string()
        {
            return Err(format!(
                "after {prefix:?} the open string is at `{at}`, the array holds {}",
                items.len()
            ));
        }
        match whole.pointer(&at) {
            Some(Value::String(all)) if all.starts_with(so_far.as_str()) => {}
            other => {
                return Err(format!(
                    "after {prefix:?} the open string `{at}` is {so_far:?}, the whole text has {other:?}"
                ));
            }
        }
    }
    Ok(())
}

/// How early `T`'s invalid texts are rejected, fed one byte at a time:
/// (fraction of the text received at the first certain rejection, at the
/// first provisional one), `None` when not before the end.
fn earliness<T: Subject>(name: &str, out: &mut Vec<(Option<f64>, Option<f64>)>) {
    for (text, _, _) in generated::<T>(name) {
        if has_repeated_keys(&text) || !matches!(T::from_model(&text), Err(ArgsError::Invalid(_))) {
            continue;
        }
        let cuts: Vec<usize> = (1..text.len()).collect();
        let got = run::<T>(&text, &cuts);
        let n = text.len() as f64;
        out.push((
            got.certain.map(|(at, _)| at as f64 / n),
            got.provisional.map(|(at, _, _)| at as f64 / n),
        ));
    }
}

macro_rules! streaming {
    ($($test:ident: $ty:ty $(, unions $unions:expr)? $(, aliases $aliases:expr)?;)*) => {
        $(
            #[test]
            fn $test() {
                check_type::<$ty>(stringify!($test));
            }
        )*

        #[test]
        fn how_early_invalid_calls_are_rejected() {
            let mut all = Vec::new();
            $( earliness::<$ty>(stringify!($test), &mut all); )*
            report(&all);
        }
    };
}

contract_types!(streaming);

/// The generation covers tagged unions whose branches carry enums, with a
/// member outside its enum after a good tag, and the stream refuses such a
/// call before its last byte (at that member, once it completes).
#[test]
fn a_member_outside_its_enum_after_a_good_tag_is_refused_before_the_end() {
    let mut sent = 0;
    let mut early = 0;
    for (text, kind, _) in generated::<Pacing>("pacing") {
        if kind != "outside its enum" {
            continue;
        }
        sent += 1;
        let cuts: Vec<usize> = (1..text.len()).collect();
        let got = run::<Pacing>(&text, &cuts);
        if let Some((at, rejection, _)) = got.provisional {
            let ArgsError::Invalid(violations) = rejection else {
                panic!("{text}: {rejection:?}");
            };
            let warp = text.find(r#""warp""#).expect("the member") + 6;
            if at == warp && violations.0[0].keyword == "enum" {
                early += 1;
            }
        }
    }
    assert!(
        sent > 0 && early > 0,
        "{early} of {sent} refused at the member"
    );
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    Some(values[values.len() / 2])
}

fn report(all: &[(Option<f64>, Option<f64>)]) {
    let total = all.len();
    assert!(total > 0, "no invalid call was generated");
    // Found before the last byte: the call could have been stopped.
    let before_end = |f: &Option<f64>| f.filter(|f| *f < 1.0);
    let certain: Vec<f64> = all.iter().filter_map(|(c, _)| before_end(c)).collect();
    let provisional: Vec<f64> = all.iter().filter_map(|(_, p)| before_end(p)).collect();
    // A call not rejected before its end counts as the whole text.
    let certain_all: Vec<f64> = all.iter().map(|(c, _)| c.unwrap_or(1.0)).collect();
    let provisional_all: Vec<f64> = all.iter().map(|(_, p)| p.unwrap_or(1.0)).collect();
    println!(
        "invalid calls: {total}\n\
         rejected before the last byte: certain {} (median fraction of the text received {:.3}), \
         provisional {} (median {:.3})\n\
         median over all invalid calls (not before the end = 1.0): certain {:.3}, provisional {:.3}",
        certain.len(),
        median(certain.clone()).unwrap_or(f64::NAN),
        provisional.len(),
        median(provisional.clone()).unwrap_or(f64::NAN),
        median(certain_all).unwrap_or(f64::NAN),
        median(provisional_all).unwrap_or(f64::NAN),
    );
}
