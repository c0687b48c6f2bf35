//! toolargs side of the peer comparison (run by `benches/peers/run.sh`, not
//! by CI): writes the corpus the peer reads, then times `from_model` over it
//! the same way the peer script times pydantic (median of seven passes over
//! the whole corpus, nanoseconds per call).
//!
//! `cargo bench --bench peers -- CORPUS.jsonl`

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;
use toolargs::ToolArgs;

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/search_args.rs"]
mod search_args;

use search_args::SearchArgs;

/// 1,000 clean calls: small, medium and large in turn.
fn calls() -> Vec<String> {
    (0..1000u64)
        .map(|i| corpus::clean(corpus::Size::ALL[(i % 3) as usize], i).to_string())
        .collect()
}

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(|| "target/peers-corpus.jsonl".to_owned());
    let calls = calls();
    let mut file = std::fs::File::create(&path).expect("corpus file");
    for call in &calls {
        writeln!(file, "{call}").expect("write corpus");
    }
    let accepted = calls
        .iter()
        .filter(|c| SearchArgs::from_model(c.as_str()).is_ok())
        .count();
    let mut runs: Vec<f64> = (0..7)
        .map(|_| {
            let start = Instant::now();
            for call in &calls {
                let _ = black_box(SearchArgs::from_model(black_box(call.as_str())));
            }
            start.elapsed().as_nanos() as f64 / calls.len() as f64
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    let floor: Vec<f64> = (0..7)
        .map(|_| {
            let start = Instant::now();
            for call in &calls {
                let _ = black_box(serde_json::from_str::<SearchArgs>(black_box(call)));
            }
            start.elapsed().as_nanos() as f64 / calls.len() as f64
        })
        .collect();
    let mut floor = floor;
    floor.sort_by(f64::total_cmp);
    println!("corpus {path} ({} calls)", calls.len());
    println!(
        "toolargs from_model {accepted} accepted {:.0} ns/call",
        runs[3]
    );
    println!("serde_json from_str::<T> {:.0} ns/call", floor[3]);
}
