//! Command-line normalizer: `toolargs normalize` under its old name, for the
//! scripts that call it (same flags, same output, same exit statuses; the
//! code is the binary's own, `src/bin/toolargs/normalize.rs`).
//!
//! ```text
//! cargo run --release --example normalize -- --schema SCHEMA.json [--entities attribute|text] [--max-passes N] [--max-bytes N] [--jobs N] [FILE|-]
//! cargo run --release --example normalize -- --cases [--max-repairs N] [--max-bytes N] [--jobs N] [FILE|-]
//! ```
//!
//! Exit status: 0 when every line was processed, 1 when any line was an
//! error, 2 for a usage error or an unreadable schema.

#![forbid(unsafe_code)]

#[path = "../src/bin/toolargs/fatal.rs"]
mod fatal;
#[path = "../src/bin/toolargs/lines.rs"]
mod lines;
#[path = "../src/bin/toolargs/normalize.rs"]
mod normalize;
#[path = "../src/bin/toolargs/schema_file.rs"]
mod schema_file;

use clap::Parser;
use std::process::ExitCode;

/// Normalize JSON Lines of tool arguments (RT-TOOL-8); the same as
/// `toolargs normalize`.
#[derive(Parser, Debug)]
#[command(name = "normalize")]
struct Cli {
    #[command(flatten)]
    args: normalize::NormalizeArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    fatal::main_with("normalize", move |out| {
        normalize::run(&cli.args, "normalize", out)
    })
}
