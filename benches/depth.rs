//! Cost of a line nested `depth` levels deep with a repair at every level,
//! through what the command-line tool does with it: parse, normalize, splice.
//! Linear cost means the time per level stays flat from 1,000 to 10,000
//! levels (criterion's throughput is in levels).
//!
//! `cargo bench --bench depth`. BENCHMARKS.md ("Deep nesting") records the
//! figures, with the peak memory measured by `examples/deep_nesting.rs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;
use toolargs::{Normalizer, Options, deep, json_text, splice::splice};

const DEPTHS: [usize; 4] = [1_000, 2_000, 5_000, 10_000];

/// `{"a":"&amp;","n":{…}}`: an entity-escaped string at every level.
fn amp_line(depth: usize) -> String {
    format!(
        "{}null{}",
        r#"{"a":"&amp;","n":"#.repeat(depth),
        "}".repeat(depth)
    )
}

/// `{"xs":"[\"&amp;\",[…]]"}`: the same nesting inside one string the
/// schema declares an array.
fn strings_line(depth: usize) -> String {
    format!(
        r#"{{"xs":"{}null{}"}}"#,
        r#"[\"&amp;\","#.repeat(depth),
        "]".repeat(depth)
    )
}

fn process(normalizer: &Normalizer, line: &str) -> String {
    let mut value = json_text::from_str(line, usize::MAX).unwrap();
    let report = normalizer.normalize(&mut value).unwrap();
    let spliced = splice(line, &value, &report).unwrap();
    deep::drop_value(value);
    spliced
}

/// A generator's name, the schema its lines are normalized against, and
/// the line of a given depth.
type Generator = (&'static str, Value, fn(usize) -> String);

fn deep_lines(c: &mut Criterion) {
    let options = Options::default().max_depth(usize::MAX);
    let generators: [Generator; 2] = [
        ("amp", json!({}), amp_line),
        (
            "strings",
            json!({"type": "object", "properties": {"xs": {"type": "array"}}}),
            strings_line,
        ),
    ];
    for (name, schema, generate) in generators {
        let normalizer = Normalizer::compile(&schema).unwrap().with_options(options);
        let mut group = c.benchmark_group(format!("depth/{name}"));
        group.sample_size(10);
        for depth in DEPTHS {
            let line = generate(depth);
            group.throughput(Throughput::Elements(depth as u64));
            group.bench_function(depth.to_string(), |b| {
                b.iter(|| black_box(process(&normalizer, black_box(&line))))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, deep_lines);
criterion_main!(benches);
