//! Cost of a line nested `depth` levels deep with a repair at every level,
//! through what the command-line tool does with it: parse, normalize, write
//! the repairs back into the text (`Normalizer::normalize_text`).
//! Linear cost means the time per level stays flat from 1,000 to 10,000
//! levels (criterion's throughput is in levels).
//!
//! `cargo bench --bench depth`. BENCHMARKS.md ("Deep nesting") records the
//! figures, with the peak memory measured by `examples/deep_nesting.rs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::borrow::Cow;
use std::hint::black_box;
use toolargs::{Normalizer, normalizer::Options};

const DEPTHS: [usize; 4] = [1_000, 2_000, 5_000, 10_000];

/// The lines and schemas `examples/deep_nesting.rs` measures memory with.
#[allow(dead_code)]
#[path = "../examples/deep_nesting.rs"]
mod deep_nesting;

fn process<'l>(normalizer: &Normalizer, line: &'l str) -> Cow<'l, str> {
    normalizer.normalize_text(line).unwrap().0
}

fn deep_lines(c: &mut Criterion) {
    let options = Options::default().max_depth(usize::MAX);
    for name in ["amp", "strings"] {
        let (schema, generate) = deep_nesting::lines(name).expect("a generator");
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
