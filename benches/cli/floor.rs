//! The parse-and-write floor for the command-line benchmark
//! (`benches/cli/run.py`): every line parsed into a `serde_json::Value` and
//! written back with `serde_json::to_writer`, nothing else. A command that
//! reads, repairs and writes JSON Lines cannot beat this by much; the
//! benchmark reports `toolargs normalize` as a fraction of it.
//!
//! ```text
//! cargo build --release --example cli_floor
//! target/release/examples/cli_floor FILE > /dev/null
//! ```

#![forbid(unsafe_code)]

use serde_json::Value;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: cli_floor FILE");
        return ExitCode::from(2);
    };
    match run(&path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cli_floor: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(path: &std::ffi::OsStr) -> io::Result<()> {
    let input = io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    for line in input.lines() {
        let line = line?;
        let value: Value = serde_json::from_str(&line).map_err(io::Error::other)?;
        serde_json::to_writer(&mut out, &value).map_err(io::Error::other)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
