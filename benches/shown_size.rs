//! The size of what a model is shown: for each of the contract suite's
//! types, the definition each provider's export carries (canonical dialect)
//! and the OpenAI strict form where the type has one, as compact JSON bytes,
//! summed over the types.
//!
//! `cargo bench --bench shown_size`. BENCHMARKS.md records the figures.

#![allow(dead_code)]

use toolargs::ToolArgs;
use toolargs::export::{Dialect, Provider, StrictSchema, ToolSpec, definition};

#[path = "../tests/contract/mod.rs"]
mod contract;

type Sizes = fn() -> ([usize; 5], Option<usize>);

macro_rules! shown_size {
    ($($test:ident: $ty:ty $(, unions $unions:expr)? $(, aliases $aliases:expr)?;)*) => {
        fn all() -> Vec<(&'static str, Sizes)> {
            vec![$((
                stringify!($ty),
                (|| {
                    let schema = <$ty as ToolArgs>::input_schema();
                    let spec = ToolSpec { name: "tool", description: "", schema };
                    let canonical = Provider::ALL
                        .map(|p| definition(p, Dialect::Canonical, spec).to_string().len());
                    let strict = StrictSchema::new(schema)
                        .ok()
                        .map(|strict| strict.schema().to_string().len());
                    (canonical, strict)
                }) as Sizes,
            )),*]
        }
    };
}

use contract::types::*;
contract::types::contract_types!(shown_size);

fn main() {
    let mut canonical = [0usize; 5];
    let (mut strict, mut strict_types) = (0usize, 0usize);
    let types = all();
    for (_, sizes) in &types {
        let (each, strict_size) = sizes();
        for (sum, size) in canonical.iter_mut().zip(each) {
            *sum += size;
        }
        if let Some(size) = strict_size {
            strict += size;
            strict_types += 1;
        }
    }
    for (provider, bytes) in Provider::ALL.iter().zip(canonical) {
        println!("{provider:?}: {bytes} bytes over {} types", types.len());
    }
    println!("OpenAI strict schema: {strict} bytes over {strict_types} types with a strict form");
}
