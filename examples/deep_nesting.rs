//! How the cost of one deeply nested line grows with its depth, a repair at
//! every level: the figures of BENCHMARKS.md's "Deep nesting" table.
//!
//! ```text
//! cargo build --release --example deep_nesting
//! /usr/bin/time -v target/release/examples/deep_nesting amp 10000
//! /usr/bin/time -v target/release/examples/deep_nesting strings 10000
//! ```
//!
//! `amp` nests objects `{"a":"&amp;","n":{…}}`, each holding a string to
//! entity-decode; `strings` puts the same nesting, written as arrays, inside
//! one string the schema declares an array (one JSON decoding, then a repair
//! at every level of the decoded text). The line is parsed, normalized and
//! its repairs written back into it (`Normalizer::normalize_text`) as the
//! command-line tool does, and the report is written with at most 100
//! repairs. Prints one JSON line of timings; peak memory is what
//! `time -v` reports. Runs on a 2 MiB thread: nothing here needs a larger
//! stack.

use serde_json::json;
use std::time::Instant;
use toolargs::{Normalizer, normalizer::Options};

/// The stack of a typical worker thread (an async runtime's default).
const STACK_BYTES: usize = 2 << 20;
/// Repairs written out of the report, as a command line bounding it would.
const MAX_REPAIRS: usize = 100;

fn main() {
    let mut args = std::env::args().skip(1);
    let generator = args.next().unwrap_or_else(|| "amp".to_owned());
    let depth: usize = args.next().and_then(|d| d.parse().ok()).unwrap_or(10_000);
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || run(&generator, depth));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(message))) => {
            eprintln!("deep_nesting: {message}");
            std::process::exit(1);
        }
        _ => {
            eprintln!("deep_nesting: the worker failed");
            std::process::exit(2);
        }
    }
}

fn run(generator: &str, depth: usize) -> Result<(), String> {
    let (schema, make) = lines(generator)
        .ok_or_else(|| format!("unknown generator `{generator}` (amp or strings)"))?;
    let line = make(depth);
    let normalizer = Normalizer::compile(&schema)
        .map_err(|e| e.to_string())?
        .with_options(Options::default().max_depth(usize::MAX));

    let start = Instant::now();
    // Parsed, normalized, written back, and the value dropped level by
    // level: the text path of the command.
    let (spliced, report) = normalizer
        .normalize_text(&line)
        .map_err(|e| e.to_string())?;
    let written = start.elapsed();
    let mut repairs = Vec::new();
    let omitted = report
        .write_json(&mut repairs, MAX_REPAIRS)
        .map_err(|e| e.to_string())?;
    let reported = start.elapsed();

    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "{}",
        json!({
            "generator": generator,
            "depth": depth,
            "bytes": line.len(),
            "repairs": report.len(),
            "omitted": omitted,
            "out_bytes": spliced.len(),
            "normalize_text_ms": ms(written),
            "report_ms": ms(reported - written),
            "total_ms": ms(reported),
        })
    );
    Ok(())
}

/// A generator: the schema its lines are normalized against, and its line
/// of a given depth (a repair at every level).
pub type Lines = (serde_json::Value, fn(usize) -> String);

/// The generator `name`: `amp` or `strings`.
pub fn lines(name: &str) -> Option<Lines> {
    match name {
        "amp" => Some((json!({}), amp_line)),
        "strings" => Some((
            json!({"type": "object", "properties": {"xs": {"type": "array"}}}),
            strings_line,
        )),
        _ => None,
    }
}

/// `{"a":"&amp;","n":{"a":"&amp;","n":{…}}}`, `depth` objects deep.
fn amp_line(depth: usize) -> String {
    let mut line = String::with_capacity(depth * 22);
    for _ in 0..depth {
        line.push_str(r#"{"a":"&amp;","n":"#);
    }
    line.push_str("null");
    line.push_str(&"}".repeat(depth));
    line
}

/// `{"xs":"[\"&amp;\",[\"&amp;\",[…]]]"}`: `depth` arrays inside a string.
fn strings_line(depth: usize) -> String {
    let mut line = String::with_capacity(depth * 14 + 16);
    line.push_str(r#"{"xs":""#);
    for _ in 0..depth {
        line.push_str(r#"[\"&amp;\","#);
    }
    line.push_str("null");
    line.push_str(&"]".repeat(depth));
    line.push_str(r#""}"#);
    line
}
