//! `from_model` against what a Rust service writes without toolargs, same
//! run, on the corpus: the validating pipeline (`from_str::<Value>`,
//! `jsonschema` `is_valid` against the same closed schema, `from_value`)
//! and bare `serde_json::from_str::<T>`, which checks nothing. Clean calls
//! take the clean path (`from_model`); the full path alone is timed beside
//! it (`full_path`), on damaged calls too, where `from_model` first tries
//! and leaves the clean path.
//!
//! `cargo bench --bench clean_path`. BENCHMARKS.md records the figures.

use criterion::{Criterion, criterion_group, criterion_main};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;
use toolargs::__private::from_model_full;
use toolargs::{ToolArgs, normalizer::Options};

#[path = "support/action_args.rs"]
mod action_args;
#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/search_args.rs"]
mod search_args;

use action_args::ActionArgs;
use search_args::SearchArgs;

/// Times the four readings of `text` in one group.
fn compare<T: ToolArgs + DeserializeOwned>(
    c: &mut Criterion,
    group: &str,
    text: &str,
    clean: bool,
) {
    let pipeline = jsonschema::validator_for(T::input_schema()).expect("the schema compiles");
    let options = Options::default();
    let mut group = c.benchmark_group(group);
    group.bench_function("from_model", |b| {
        b.iter(|| black_box(T::from_model(black_box(text)).is_ok()))
    });
    group.bench_function("full_path", |b| {
        b.iter(|| black_box(from_model_full::<T>(black_box(text).into(), &options).is_ok()))
    });
    if clean {
        assert!(T::from_model(text).is_ok());
        group.bench_function("pipeline", |b| {
            b.iter(|| {
                let value: Value = serde_json::from_str(black_box(text)).unwrap();
                assert!(pipeline.is_valid(&value));
                black_box(serde_json::from_value::<T>(value).unwrap())
            })
        });
        group.bench_function("bare_serde", |b| {
            b.iter(|| black_box(serde_json::from_str::<T>(black_box(text)).unwrap()))
        });
    }
    group.finish();
}

fn clean_path(c: &mut Criterion) {
    for size in corpus::Size::ALL {
        let clean = corpus::clean(size, 1).to_string();
        compare::<SearchArgs>(c, &format!("clean/{}", size.name()), &clean, true);
        let damaged = corpus::damaged(size, 1).to_string();
        compare::<SearchArgs>(c, &format!("damaged/{}", size.name()), &damaged, false);
    }
    let action = action_args::clean(8);
    compare::<ActionArgs>(c, "clean/action", &action, true);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = clean_path
}
criterion_main!(benches);
