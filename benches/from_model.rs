//! The typed entry point against its floor: `serde_json::from_str::<T>`
//! alone vs `T::from_model` (parse + normalize + validate + deserialize),
//! with each phase on its own, on the deterministic corpus.
//!
//! `cargo bench --bench from_model`. BENCHMARKS.md records the figures.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use toolargs::{Normalizer, ToolArgs, normalizer::Options};

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/search_args.rs"]
mod search_args;

use search_args::SearchArgs;

fn clean(c: &mut Criterion) {
    let options = Options::default();
    let dynamic = Normalizer::compile(SearchArgs::input_schema()).unwrap();
    for size in corpus::Size::ALL {
        let call = corpus::clean(size, 1);
        let text = call.to_string();
        assert!(
            SearchArgs::from_model(text.as_str())
                .unwrap()
                .report
                .is_clean()
        );
        let mut group = c.benchmark_group(format!("typed_clean/{}", size.name()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("from_str_typed", |b| {
            b.iter(|| black_box(serde_json::from_str::<SearchArgs>(black_box(&text)).unwrap()))
        });
        group.bench_function("from_model", |b| {
            b.iter(|| black_box(SearchArgs::from_model(black_box(text.as_str())).unwrap()))
        });
        group.bench_function("parse_value", |b| {
            b.iter(|| black_box(serde_json::from_str::<Value>(black_box(&text)).unwrap()))
        });
        // What normalizing a clean call costs on the command's text path
        // (`Normalizer::normalize_text`): the scan that proves no repair can
        // apply, then a check that the text is JSON, with no value built.
        let (kept, report) = dynamic.normalize_text(&text).unwrap();
        assert!(matches!(kept, std::borrow::Cow::Borrowed(_)) && report.is_clean());
        group.bench_function("normalize_text", |b| {
            b.iter(|| black_box(dynamic.normalize_text(black_box(&text)).unwrap()))
        });
        let mut value = call.clone();
        group.bench_function("normalize_derived", |b| {
            b.iter(|| black_box(SearchArgs::normalize(black_box(&mut value), &options).unwrap()))
        });
        group.bench_function("normalize_dynamic", |b| {
            b.iter(|| black_box(dynamic.normalize(black_box(&mut value)).unwrap()))
        });
        group.bench_function("validate", |b| {
            b.iter(|| black_box(SearchArgs::validator().validate(black_box(&value)).is_ok()))
        });
        group.finish();
    }
}

fn damaged(c: &mut Criterion) {
    let options = Options::default();
    let dynamic = Normalizer::compile(SearchArgs::input_schema()).unwrap();
    for size in corpus::Size::ALL {
        let call = corpus::damaged(size, 1);
        let text = call.to_string();
        assert!(
            !SearchArgs::from_model(text.as_str())
                .unwrap()
                .report
                .is_clean()
        );
        let mut group = c.benchmark_group(format!("typed_damaged/{}", size.name()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("from_model", |b| {
            b.iter(|| black_box(SearchArgs::from_model(black_box(text.as_str())).unwrap()))
        });
        group.bench_function("normalize_derived", |b| {
            b.iter_batched_ref(
                || call.clone(),
                |value| black_box(SearchArgs::normalize(value, &options).unwrap()),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("normalize_dynamic", |b| {
            b.iter_batched_ref(
                || call.clone(),
                |value| black_box(dynamic.normalize(value).unwrap()),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

/// A list of structs each flattening an `Option` of an enum, every item's
/// variant mistyped: the rejection words why each member's part failed
/// (`validate::explain`), against accepting the same list well typed.
#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
enum Sort {
    Asc(u32),
    Desc(u32),
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Query {
    q: String,
    #[serde(flatten)]
    sort: Option<Sort>,
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Queries {
    items: Vec<Query>,
}

fn rejected(c: &mut Criterion) {
    for n in [10, 100, 1000] {
        let list = |asc: Value| {
            let items: Vec<Value> = (0..n)
                .map(|_| serde_json::json!({"q": "x", "Asc": asc}))
                .collect();
            serde_json::json!({ "items": items }).to_string()
        };
        let (good, bad) = (list(Value::from(1)), list(Value::from("1")));
        assert!(Queries::from_model(good.as_str()).is_ok());
        assert!(Queries::from_model(bad.as_str()).is_err());
        let mut group = c.benchmark_group(format!("rejected/{n}"));
        group.bench_function("accepted", |b| {
            b.iter(|| black_box(Queries::from_model(black_box(good.as_str())).is_ok()))
        });
        group.bench_function("rejected", |b| {
            b.iter(|| black_box(Queries::from_model(black_box(bad.as_str())).is_err()))
        });
        group.finish();
    }
}

/// A struct whose members are flattened as an `Option` (each read checked
/// whole: `x-toolargs-whole`, `dependentSchemas`), against the same struct
/// as a plain optional field.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Window {
    lo: u32,
    hi: u32,
    label: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Flat {
    q: String,
    #[serde(flatten)]
    window: Option<Window>,
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Nested {
    q: String,
    window: Option<Window>,
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Flats {
    items: Vec<Flat>,
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Nesteds {
    items: Vec<Nested>,
}

fn flattened(c: &mut Criterion) {
    for n in [10, 100, 1000] {
        let list = |flat: bool| {
            let items: Vec<Value> = (0..n)
                .map(|i| {
                    let window = serde_json::json!({"lo": i, "hi": i + 1, "label": "w"});
                    if flat {
                        let mut item = window;
                        item["q"] = Value::from("x");
                        item
                    } else {
                        serde_json::json!({"q": "x", "window": window})
                    }
                })
                .collect();
            serde_json::json!({ "items": items }).to_string()
        };
        let (flat, nested) = (list(true), list(false));
        assert!(Flats::from_model(flat.as_str()).is_ok());
        assert!(Nesteds::from_model(nested.as_str()).is_ok());
        let mut group = c.benchmark_group(format!("flattened/{n}"));
        group.bench_function("flattened_option", |b| {
            b.iter(|| black_box(Flats::from_model(black_box(flat.as_str())).is_ok()))
        });
        group.bench_function("nested_option", |b| {
            b.iter(|| black_box(Nesteds::from_model(black_box(nested.as_str())).is_ok()))
        });
        group.finish();
    }
}

/// A map whose keys serde may read the same from two texts (`PathBuf`):
/// validation reads it as its type does, to refuse entries that would
/// merge (`x-toolargs-distinct`), against the same map with `String` keys,
/// which the schema alone holds to one text each.
#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct PathFiles {
    files: std::collections::BTreeMap<std::path::PathBuf, String>,
}

/// The same map with its schema given elsewhere (`schemars(with)`), which
/// the derive does not ask of the type: no check, what the check costs
/// against `PathFiles`.
#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct UncheckedFiles {
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    files: std::collections::BTreeMap<std::path::PathBuf, String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct NamedFiles {
    files: std::collections::BTreeMap<String, String>,
}

fn distinct(c: &mut Criterion) {
    for n in [10, 100, 1000] {
        let files: serde_json::Map<String, Value> = (0..n)
            .map(|i| {
                (
                    format!("src/module_{i}/mod.rs"),
                    Value::from("fn main() {}"),
                )
            })
            .collect();
        let text = serde_json::json!({ "files": files }).to_string();
        // The last key is the first again, as a `PathBuf`: refused, at it.
        let mut repeated = files.clone();
        repeated.insert("src/module_0//mod.rs".to_owned(), Value::from("fn b() {}"));
        let repeated = serde_json::json!({ "files": repeated }).to_string();
        assert!(PathFiles::from_model(repeated.as_str()).is_err());
        assert!(PathFiles::from_model(text.as_str()).is_ok());
        assert!(NamedFiles::from_model(text.as_str()).is_ok());
        let mut group = c.benchmark_group(format!("distinct/{n}"));
        group.bench_function("path_keys", |b| {
            b.iter(|| black_box(PathFiles::from_model(black_box(text.as_str())).is_ok()))
        });
        group.bench_function("path_keys_repeated", |b| {
            b.iter(|| black_box(PathFiles::from_model(black_box(repeated.as_str())).is_err()))
        });
        group.bench_function("path_keys_unchecked", |b| {
            b.iter(|| black_box(UncheckedFiles::from_model(black_box(text.as_str())).is_ok()))
        });
        group.bench_function("string_keys", |b| {
            b.iter(|| black_box(NamedFiles::from_model(black_box(text.as_str())).is_ok()))
        });
        group.finish();
    }
}

criterion_group!(benches, clean, damaged, rejected, flattened, distinct);
criterion_main!(benches);
