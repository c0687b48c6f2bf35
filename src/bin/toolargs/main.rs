//! `toolargs`: the library's pipeline as a command, for teams outside Rust
//! (logs cleaned before training or evaluation, calls checked from a Python or
//! TypeScript agent, grammars for llama.cpp or llguidance).
//!
//! Every subcommand that reads JSON Lines streams them: one line (or, for
//! `check`, one verdict per call) out per line in, in input order, with
//! `--jobs N` threads and memory bounded by a few batches of lines.

#![forbid(unsafe_code)]

mod check;
mod export;
mod fatal;
mod grammar;
mod lines;
mod normalize;
mod schema_file;
mod stream_check;
mod tools_file;
mod verdict;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

const EXIT_STATUS: &str = "\
Exit status:
  0  every line was processed and every call accepted
  1  some line was an error line, or some call was rejected
  2  usage error, unreadable or uncompilable schema or tools file, or an
     input/output error";

/// Repair, check and describe language-model tool calls against their JSON
/// Schema (RT-TOOL-8 repairs, validation, grammars, provider definitions).
#[derive(Parser, Debug)]
#[command(name = "toolargs", version, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Normalize JSON Lines of tool arguments (RT-TOOL-8): one line out per
    /// line in, byte for byte except where a repair was made.
    #[command(after_help = EXIT_STATUS)]
    Normalize(normalize::NormalizeArgs),
    /// Check JSON Lines of calls (or of arguments) against a tools file (or a
    /// schema): one verdict line per call, with every repair and violation.
    #[command(after_help = EXIT_STATUS)]
    Check(check::CheckArgs),
    /// Print the GBNF or Lark grammar of a schema or of a whole tools file,
    /// and what it does not enforce.
    #[command(after_help = EXIT_STATUS)]
    Grammar(grammar::GrammarArgs),
    /// Print each provider's tool definitions for a schema or a tools file.
    #[command(after_help = EXIT_STATUS)]
    Export(export::ExportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    fatal::main_with("toolargs", move |out| match &cli.command {
        Command::Normalize(args) => normalize::run(args, "toolargs normalize", out),
        Command::Check(args) => check::run(args, out),
        Command::Grammar(args) => grammar::run(args, out),
        Command::Export(args) => export::run(args, out),
    })
}
