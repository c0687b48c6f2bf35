//! `toolargs grammar`: the constrained-decoding grammar of one schema (the
//! arguments) or of a whole tools file (a call `{"name", "arguments"}` to
//! any of its tools), and what the grammar leaves to the validator.
//!
//! An `enum` or `const` number is written as the file writes it (`1e2`,
//! `-0`, `12345678901234567890123`), not as it reads back from a parsed
//! `f64`.

use crate::fatal::Fatal;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use toolargs::grammar::{CallGrammar, Grammar, Unenforced};

/// The grammar dialects `toolargs::grammar` prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// llama.cpp's GBNF (start rule `root`).
    Gbnf,
    /// llguidance's Lark dialect (start rule `start`).
    Lark,
}

/// Print the grammar of a schema (its arguments) or of a tools file (a whole
/// call to any of its tools).
#[derive(clap::Args, Debug)]
pub struct GrammarArgs {
    #[command(flatten)]
    pub source: crate::tools_file::Source,
    /// The grammar dialect.
    #[arg(long, value_enum, default_value = "gbnf")]
    pub format: Format,
    /// Write the keywords the grammar does not enforce to this file, as JSON
    /// Lines `{"tool"?, "pointer", "keyword", "reason"}`, instead of one
    /// line each on stderr.
    #[arg(long, value_name = "FILE")]
    pub not_enforced: Option<PathBuf>,
}

/// One keyword the grammar leaves to validation.
#[derive(Serialize)]
struct Gap<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    pointer: &'a str,
    keyword: &'a str,
    reason: &'a str,
}

/// Prints the grammar on `out` and the report where `--not-enforced` says.
///
/// # Errors
///
/// The file cannot be read, a schema cannot be turned into a grammar, or
/// writing failed.
pub fn run(args: &GrammarArgs, out: &mut dyn Write) -> Result<bool, Fatal> {
    let tools = args.source.load()?;
    let schema_error = |message: String| Fatal::Schema {
        path: args.source.path().display().to_string(),
        message,
    };
    let (text, gaps): (String, Vec<(Option<&str>, &Unenforced)>);
    let single;
    let call;
    if args.source.schema.is_some() {
        single = Grammar::from_schema_with_numbers(&tools[0].schema, &tools[0].numbers)
            .map_err(|e| schema_error(e.to_string()))?;
        text = match args.format {
            Format::Gbnf => single.gbnf(),
            Format::Lark => single.lark(),
        };
        gaps = single.not_enforced().iter().map(|g| (None, g)).collect();
    } else {
        call = CallGrammar::with_numbers(
            tools
                .iter()
                .map(|t| (t.name.as_str(), &t.schema, &t.numbers)),
        )
        .map_err(|e| schema_error(e.to_string()))?;
        text = match args.format {
            Format::Gbnf => call.gbnf(),
            Format::Lark => call.lark(),
        };
        gaps = call
            .tools()
            .flat_map(|name| {
                call.not_enforced(name)
                    .unwrap_or_default()
                    .iter()
                    .map(move |g| (Some(name), g))
            })
            .collect();
    }
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    match &args.not_enforced {
        Some(path) => {
            let mut report = Vec::new();
            for (tool, gap) in &gaps {
                let gap = Gap {
                    tool: *tool,
                    pointer: &gap.pointer,
                    keyword: &gap.keyword,
                    reason: &gap.reason,
                };
                serde_json::to_writer(&mut report, &gap).map_err(std::io::Error::other)?;
                report.push(b'\n');
            }
            std::fs::write(path, report).map_err(|e| Fatal::Unreadable {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        }
        None => {
            for (tool, gap) in &gaps {
                match tool {
                    Some(tool) => eprintln!("not enforced: {tool}: {gap}"),
                    None => eprintln!("not enforced: {gap}"),
                }
            }
        }
    }
    Ok(true)
}
