//! Normalization cost against the floor of parsing the call at all, on a
//! deterministic corpus (`support/corpus.rs`), and our reference decoding
//! against `htmlize` and `html-escape` on plain, sparse and dense text.
//!
//! `cargo bench --bench normalize`. BENCHMARKS.md records the figures.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use toolargs::entities::{EntityMode, decode_once};
use toolargs::{Normalizer, normalizer::Options};

#[path = "support/corpus.rs"]
mod corpus;

fn clean_calls(c: &mut Criterion) {
    let normalizer = Normalizer::compile(&corpus::schema()).unwrap();
    for size in corpus::Size::ALL {
        let call = corpus::clean(size, 1);
        let text = call.to_string();
        let mut group = c.benchmark_group(format!("clean/{}", size.name()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("parse_value", |b| {
            b.iter(|| black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap()))
        });
        // Clean input is not changed, so the same value is normalized again
        // and again without cloning it.
        let mut value = call.clone();
        group.bench_function("normalize", |b| {
            b.iter(|| black_box(normalizer.normalize(black_box(&mut value)).unwrap()))
        });
        group.finish();
    }
}

fn damaged_calls(c: &mut Criterion) {
    let normalizer = Normalizer::compile(&corpus::schema()).unwrap();
    for size in corpus::Size::ALL {
        let call = corpus::damaged(size, 1);
        let text = call.to_string();
        let mut group = c.benchmark_group(format!("damaged/{}", size.name()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("parse_value", |b| {
            b.iter(|| black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap()))
        });
        group.bench_function("normalize", |b| {
            b.iter_batched_ref(
                || call.clone(),
                |value| black_box(normalizer.normalize(value).unwrap()),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

fn decoders(c: &mut Criterion) {
    for (name, text) in corpus::decoder_texts() {
        let mut group = c.benchmark_group(format!("decode/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("toolargs", |b| {
            b.iter(|| black_box(decode_once(black_box(&text), EntityMode::Attribute)))
        });
        group.bench_function("htmlize", |b| {
            b.iter(|| black_box(htmlize::unescape_attribute(black_box(text.as_str()))))
        });
        group.bench_function("html-escape", |b| {
            b.iter(|| black_box(html_escape::decode_html_entities(black_box(&text))))
        });
        group.finish();
    }
}

fn options_cost(c: &mut Criterion) {
    // The pass bound caps the cost of hostile text: a string of 10,000
    // nested `&amp;` costs `max_passes` passes over it, no more.
    let text = format!("&{}lt;", "amp;".repeat(10_000));
    let mut group = c.benchmark_group("hostile/nested_amp_40kb");
    group.throughput(Throughput::Bytes(text.len() as u64));
    for passes in [1u32, 8, 64] {
        let normalizer = Normalizer::compile(&serde_json::json!({}))
            .unwrap()
            .with_options(Options::default().max_passes(passes));
        group.bench_function(format!("max_passes_{passes}"), |b| {
            b.iter_batched_ref(
                || Value::String(text.clone()),
                |value| black_box(normalizer.normalize(value).unwrap()),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, clean_calls, damaged_calls, decoders, options_cost);
criterion_main!(benches);
