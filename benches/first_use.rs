//! What a derived type's first use costs: compiling its contract (schemars'
//! schema, the derive's annotations, the validator, the normalization
//! plan), once per type per process. Each of the contract suite's types is
//! compiled afresh many times; the median per type is printed, with the
//! sum over all types.
//!
//! `cargo bench --bench first_use` (`-- --rounds N` for more rounds).
//! BENCHMARKS.md records the figures.

#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../tests/contract/mod.rs"]
mod contract;

type Compile = fn();

macro_rules! first_use {
    ($($test:ident: $ty:ty $(, unions $unions:expr)? $(, aliases $aliases:expr)?;)*) => {
        fn all() -> Vec<(&'static str, Compile)> {
            vec![$((
                stringify!($ty),
                (|| {
                    let _ = black_box(toolargs::__private::Compiled::of::<$ty>());
                }) as Compile,
            )),*]
        }
    };
}

use contract::types::*;
contract::types::contract_types!(first_use);

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip_while(|a| a != "--rounds");
    let rounds: usize = args.nth(1).and_then(|n| n.parse().ok()).unwrap_or(21);
    let types = all();
    let mut total = Duration::ZERO;
    println!("{:<28} {:>12}", "type", "first use");
    for (name, compile) in &types {
        compile(); // Warm: the generator's own caches, the allocator.
        let times: Vec<Duration> = (0..rounds)
            .map(|_| {
                let start = Instant::now();
                compile();
                start.elapsed()
            })
            .collect();
        let median = median(times);
        total += median;
        println!("{name:<28} {:>9.1} µs", median.as_secs_f64() * 1e6);
    }
    println!(
        "{:<28} {:>9.1} µs over {} types (median of {rounds} per type)",
        "sum",
        total.as_secs_f64() * 1e6,
        types.len()
    );
}
