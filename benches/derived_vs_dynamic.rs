//! The generated normalizer against the dynamic one (the plan compiled from
//! the same type's schema), on the same type and the same inputs, clean and
//! damaged.
//!
//! `cargo bench --bench derived_vs_dynamic -- --warm-up-time 1 --measurement-time 3`

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::hint::black_box;
use toolargs::{Normalizer, ToolArgs, normalizer::Options};

#[allow(dead_code)]
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    query: String,
    tags: Vec<String>,
    filter: Option<Filter>,
    sort: Vec<SortKey>,
    limit: Option<u32>,
    facets: BTreeMap<String, Vec<String>>,
}

#[allow(dead_code)]
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Filter {
    authors: Vec<String>,
    published_after: Option<String>,
    languages: Vec<String>,
}

#[allow(dead_code)]
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SortKey {
    field: String,
    descending: bool,
}

fn clean() -> Value {
    json!({
        "query": "rust async runtimes",
        "tags": ["rust", "async", "tokio", "performance"],
        "filter": {
            "authors": ["Ana", "Bo", "Chen"],
            "published_after": "2023-01-01",
            "languages": ["en", "de"]
        },
        "sort": [{"field": "date", "descending": true}, {"field": "score", "descending": false}],
        "limit": 20,
        "facets": {"topic": ["io", "net"], "level": ["advanced"]}
    })
}

fn damaged() -> Value {
    json!({
        "query": "rust &amp;amp; async runtimes",
        "tags": "[\"rust\", \"async &amp; await\", \"tokio\", \"performance\"]",
        "filter": "{\"authors\": [\"Ana\", \"Bo &amp;amp; Chen\"], \"published_after\": \"2023-01-01\", \"languages\": \"[\\\"en\\\"]\"}",
        "sort": "[{\"field\": \"date\", \"descending\": true}]",
        "limit": 20,
        "facets": {"topic": "[\"io\", \"net\"]", "level": ["advanced &lt;3"]}
    })
}

fn bench(c: &mut Criterion) {
    let options = Options::default();
    let dynamic = Normalizer::compile(SearchArgs::input_schema()).expect("schema compiles");
    for (name, input) in [("clean", clean()), ("damaged", damaged())] {
        // Same result first: a faster wrong answer would mean nothing.
        let (mut a, mut b) = (input.clone(), input.clone());
        let generated_report = SearchArgs::normalize(&mut a, &options).unwrap();
        let dynamic_report = dynamic.normalize(&mut b).unwrap();
        assert_eq!((a, generated_report), (b, dynamic_report));

        let mut group = c.benchmark_group(name);
        group.bench_function("generated", |bencher| {
            bencher.iter_batched_ref(
                || input.clone(),
                |value| black_box(SearchArgs::normalize(value, &options)),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("dynamic", |bencher| {
            bencher.iter_batched_ref(
                || input.clone(),
                |value| black_box(dynamic.normalize(value)),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
