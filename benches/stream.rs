//! Streaming a call against parsing it whole: `ArgsStream<T>` fed the
//! corpus's calls in 1-, 8- and 64-byte deltas (events recorded, early
//! checks on, `finish()` at the end, which runs `from_model` on the whole
//! text) against `T::from_model` on the whole text, and against what peers
//! do on every delta: parse the entire prefix with a partial-JSON parser
//! (jiter's partial mode, the parser the OpenAI Python SDK streams tool
//! arguments with), then `from_model` at the end. `append_only_*` is the
//! floor under any accumulator: the deltas appended to a `String`, nothing
//! read. `stream_*_lent` hands the events to a callback instead of recording
//! them (`ArgsStream::push_with`), the host reading each one's value type
//! and location.
//!
//! `cargo bench --bench stream`. BENCHMARKS.md ("Streaming") records the
//! figures.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use toolargs::ToolArgs;
use toolargs::path::Segment;
use toolargs::plan::JsonType;
use toolargs::stream::{ArgsStream, EventRef};

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/fragments.rs"]
mod fragments;
#[path = "support/search_args.rs"]
mod search_args;

use fragments::fragments;
use search_args::SearchArgs;

/// Feeds the fragments and finishes.
fn stream(fragments: &[&str], events: bool) -> usize {
    let mut call = ArgsStream::<SearchArgs>::new();
    if !events {
        call = call.without_events();
    }
    let mut seen = 0;
    for fragment in fragments {
        call.push(fragment);
        seen += call.events().count();
        if call.rejection().is_some() {
            break;
        }
    }
    assert!(call.finish().is_ok());
    seen
}

/// Feeds the fragments with events lent to a callback (no events
/// recorded), the host reading each event's value and where it is, and
/// finishes.
fn stream_lent(fragments: &[&str]) -> usize {
    let mut call = ArgsStream::<SearchArgs>::new().without_events();
    let mut seen = 0;
    for fragment in fragments {
        call.push_with(fragment, |event| {
            let shape = match event {
                EventRef::Value { value, .. } | EventRef::Whole { value, .. } => {
                    JsonType::of(value) as usize
                }
                EventRef::Closed { shape, .. } => shape as usize,
                _ => 0,
            };
            let last = match event.location().segments().last() {
                Some(Segment::Key(key)) => key.len(),
                Some(Segment::Index(index)) => index,
                None => 0,
            };
            seen += shape + last + event.location().depth();
        });
        if call.rejection().is_some() {
            break;
        }
    }
    assert!(call.finish().is_ok());
    seen
}

/// The floor any accumulator pays: each delta appended to the text kept for
/// the end, nothing read.
fn append_only(fragments: &[&str]) -> usize {
    let mut text = String::with_capacity(512);
    for fragment in fragments {
        text.push_str(fragment);
    }
    text.len()
}

/// The peers' way: every delta appended, the whole prefix parsed again.
fn reparse_prefix(fragments: &[&str]) -> usize {
    let mut parsed = 0;
    let mut text = String::new();
    for fragment in fragments {
        text.push_str(fragment);
        if jiter::JsonValue::parse_with_config(
            text.as_bytes(),
            false,
            jiter::PartialMode::TrailingStrings,
        )
        .is_ok()
        {
            parsed += 1;
        }
    }
    assert!(SearchArgs::from_model(text.as_str()).is_ok());
    parsed
}

fn streaming(c: &mut Criterion, label: &str, make: fn(corpus::Size, u64) -> serde_json::Value) {
    for size in corpus::Size::ALL {
        let text = make(size, 1).to_string();
        assert!(SearchArgs::from_model(text.as_str()).is_ok());
        let cut: Vec<(usize, Vec<&str>)> = [1, 8, 64]
            .map(|delta| (delta, fragments(&text, delta)))
            .into();
        let mut group = c.benchmark_group(format!("stream_{label}/{}", size.name()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        if matches!(size, corpus::Size::Large) {
            group.sample_size(20);
        }
        group.bench_function("from_model", |b| {
            b.iter(|| black_box(SearchArgs::from_model(black_box(text.as_str())).is_ok()))
        });
        for (delta, pieces) in &cut {
            group.bench_function(format!("stream_{delta}"), |b| {
                b.iter(|| black_box(stream(black_box(pieces), true)))
            });
        }
        for (delta, pieces) in &cut {
            group.bench_function(format!("stream_{delta}_lent"), |b| {
                b.iter(|| black_box(stream_lent(black_box(pieces))))
            });
        }
        for (delta, pieces) in &cut {
            if *delta == 8 {
                continue;
            }
            group.bench_function(format!("stream_{delta}_no_events"), |b| {
                b.iter(|| black_box(stream(black_box(pieces), false)))
            });
        }
        for (delta, pieces) in &cut {
            group.bench_function(format!("append_only_{delta}"), |b| {
                b.iter(|| black_box(append_only(black_box(pieces))))
            });
        }
        group.bench_function("snapshot_every_1k", |b| {
            b.iter_batched(
                ArgsStream::<SearchArgs>::new,
                |mut call| {
                    let mut shown = 0;
                    for fragment in fragments(&text, 1024) {
                        call.push(fragment);
                        shown += usize::from(call.snapshot().is_some());
                    }
                    black_box(shown)
                },
                BatchSize::SmallInput,
            )
        });
        for (delta, pieces) in &cut {
            // 1-byte deltas re-parse too much to measure on the larger
            // calls (8-byte ones on the large call: ~0.2 GB per call).
            let skip = match size {
                corpus::Size::Small => false,
                corpus::Size::Medium => *delta == 1,
                corpus::Size::Large => *delta < 64,
            };
            if skip {
                continue;
            }
            group.bench_function(format!("reparse_prefix_{delta}"), |b| {
                b.iter(|| black_box(reparse_prefix(black_box(pieces))))
            });
        }
        group.finish();
    }
}

fn clean(c: &mut Criterion) {
    streaming(c, "clean", corpus::clean);
}

fn damaged(c: &mut Criterion) {
    streaming(c, "damaged", corpus::damaged);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = clean, damaged
}
criterion_main!(benches);
