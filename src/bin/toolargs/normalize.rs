//! `toolargs normalize`: RT-TOOL-8 for logs, other languages and
//! conformance runs (also `cargo run --example normalize`, which shares this
//! code).
//!
//! * `--schema`: each line is an arguments value; the output line is the
//!   normalized value, byte-identical to the input except where a repair was
//!   made. A line that is not JSON yields `{"error": "line N: ..."}` on
//!   stdout and the same message on stderr, and processing continues.
//! * `--cases`: each line is `{"id"?, "schema", "arguments", "options"?}`
//!   (other keys ignored); the output is `{"id": ..., "arguments": ...,
//!   "repairs": [...]}` (plus `"repairs_omitted": K` when `--max-repairs`
//!   cut the list) or `{"id": ..., "error": "line N: ..."}`. A line that is
//!   not a JSON object (an array too, which serde's derive would read as
//!   the fields in order) is an error line.
//!
//! A blank line is an error line in both modes. With several input files,
//! messages say `FILE: line N: ...`.

use crate::fatal::Fatal;
use crate::lines::{self, Line, LineArgs, Process, Tally};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use toolargs::rejection::{SyntaxError, SyntaxKind};
use toolargs::{
    Normalizer, entities::EntityMode, normalizer::DEFAULT_MAX_BYTES,
    normalizer::NormalizeTextError, normalizer::Options, report::Report,
};

/// Nesting accepted in an input line (and in the JSON its strings decode to).
/// Deep enough for any real call; the processing threads' stacks are sized
/// for it.
pub const MAX_DEPTH: usize = 10_000;

/// Repairs listed per case by default: a log line with a thousand repairs
/// is already one to read by hand, and a hostile line can hold millions (each
/// with a pointer as long as its depth), so the report is cut, not the work.
pub const DEFAULT_MAX_REPAIRS: usize = 1_000;

/// Normalize JSON Lines of tool arguments (RT-TOOL-8); one output line per
/// input line, in order.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["schema", "cases"])))]
pub struct NormalizeArgs {
    /// Each line is an arguments value, normalized against this JSON Schema
    /// and written back byte for byte except where a repair was made.
    #[arg(long, value_name = "SCHEMA.json")]
    pub schema: Option<PathBuf>,
    /// Each line is a case `{"id"?, "schema", "arguments", "options"?}`;
    /// writes `{"id", "arguments", "repairs"}` or `{"id", "error"}`.
    #[arg(long)]
    pub cases: bool,
    /// How legacy references without `;` are read: `attribute` (the HTML
    /// attribute-value rule) or `text`. With --cases, a case's own
    /// `options.entities` wins.
    #[arg(long, value_name = "MODE", default_value = "attribute")]
    pub entities: EntityMode,
    /// Decoding passes per string (default 8). With --cases, a case's own
    /// `options.max_passes` wins.
    #[arg(long, value_name = "N")]
    pub max_passes: Option<u32>,
    /// Longest line accepted, in bytes (line ending excluded); a longer line
    /// is skipped without being read into memory and gets an error line.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,
    /// With --cases: list at most N repairs per case; the output object then
    /// says how many were left out (`"repairs_omitted": K`).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_REPAIRS)]
    pub max_repairs: usize,
    #[command(flatten)]
    pub lines: LineArgs,
}

/// Runs the subcommand; `Ok(false)` when a line was an error line.
///
/// # Errors
///
/// The schema cannot be read or compiled, or reading or writing failed.
pub fn run(args: &NormalizeArgs, name: &'static str, out: &mut dyn Write) -> Result<bool, Fatal> {
    let mut options = Options::default()
        .max_depth(MAX_DEPTH)
        .max_bytes(args.max_bytes)
        .entities(args.entities);
    if let Some(passes) = args.max_passes {
        options = options.max_passes(passes);
    }
    let mode = match &args.schema {
        Some(path) => {
            let schema = crate::schema_file::read(path, MAX_DEPTH)?;
            let normalizer = Normalizer::compile(&schema).map_err(|e| Fatal::Schema {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            Mode::Schema(Box::new(normalizer.with_options(options)))
        }
        None => Mode::Cases,
    };
    let process = Normalize {
        mode,
        options,
        max_repairs: args.max_repairs,
        name,
    };
    let inputs = args.lines.inputs()?;
    let tally = lines::run(&inputs, args.max_bytes, args.lines.threads(), &process, out)?;
    Ok(tally.all_ok())
}

/// A line answered with an error line (already written).
struct ErrorLine;

enum Mode {
    Schema(Box<Normalizer>),
    Cases,
}

struct Normalize {
    mode: Mode,
    /// The flags' options: the `--schema` normalizer's, and each case's
    /// starting point.
    options: Options,
    max_repairs: usize,
    /// The program name stderr messages start with.
    name: &'static str,
}

impl Process for Normalize {
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>, tally: &mut Tally) {
        let place = line.place();
        let text = line
            .text(&self.options)
            .map_err(|message| format!("{place}: {message}"));
        let outcome = match (&self.mode, text) {
            (Mode::Schema(normalizer), Ok(text)) => {
                match normalize_text(normalizer, text, &place) {
                    Ok((spliced, report)) => {
                        out.extend_from_slice(spliced.as_bytes());
                        Ok(!report.is_clean())
                    }
                    Err(message) => Err(self.error_line(None, &message, out)),
                }
            }
            (Mode::Schema(_), Err(message)) => Err(self.error_line(None, &message, out)),
            (Mode::Cases, Ok(text)) => self.case_line(text, &place, out),
            (Mode::Cases, Err(message)) => Err(self.error_line(Some("null"), &message, out)),
        };
        match outcome {
            Ok(repaired) => tally.repaired += u64::from(repaired),
            Err(ErrorLine) => tally.errors += 1,
        }
        out.extend_from_slice(line.ending.bytes());
    }
}

impl Normalize {
    /// `{"error": ...}` (`--schema`) or `{"id": ..., "error": ...}`
    /// (`--cases`), and the message on stderr.
    fn error_line(&self, id: Option<&str>, message: &str, out: &mut Vec<u8>) -> ErrorLine {
        eprintln!("{}: {message}", self.name);
        let message = Value::String(message.to_owned());
        match id {
            None => out.extend_from_slice(format!("{{\"error\":{message}}}").as_bytes()),
            Some(id) => {
                out.extend_from_slice(format!("{{\"id\":{id},\"error\":{message}}}").as_bytes());
            }
        }
        ErrorLine
    }

    /// One `--cases` line: always produces an output line; whether a repair
    /// was made, or `Err` when it is an error line.
    fn case_line(&self, line: &str, place: &str, out: &mut Vec<u8>) -> Result<bool, ErrorLine> {
        let parsed = parse_case(line, place);
        let id = match &parsed {
            Ok(case) => case.id.map(|raw| raw.get().to_owned()),
            // The line may still be JSON with an `id` (a case with a bad field).
            Err(_) => toolargs::json::read(line, MAX_DEPTH)
                .ok()
                .and_then(|value| value.get("id").map(Value::to_string)),
        }
        .unwrap_or_else(|| "null".to_owned());
        match parsed.and_then(|case| self.run_case(&case, place)) {
            Ok((arguments, report)) => {
                // Writing into memory cannot fail.
                let _ = write!(out, "{{\"id\":{id},\"arguments\":{arguments},\"repairs\":");
                // Writing into memory cannot fail; should serialization ever
                // refuse a repair, an empty list (all left out) stands in.
                let mark = out.len();
                let omitted = match report.write_json(&mut *out, self.max_repairs) {
                    Ok(omitted) => omitted,
                    Err(_) => {
                        out.truncate(mark);
                        out.extend_from_slice(b"[]");
                        report.len()
                    }
                };
                if omitted > 0 {
                    out.extend_from_slice(format!(",\"repairs_omitted\":{omitted}").as_bytes());
                }
                out.push(b'}');
                Ok(!report.is_clean())
            }
            Err(message) => Err(self.error_line(Some(&id), &message, out)),
        }
    }

    /// Normalizes a case's arguments; returns the arguments text and the
    /// report.
    fn run_case<'c>(&self, case: &Case<'c>, place: &str) -> Result<(Cow<'c, str>, Report), String> {
        let schema = case
            .schema
            .as_ref()
            .ok_or_else(|| format!("{place}: the case has no `schema`"))?;
        let arguments = case
            .arguments
            .ok_or_else(|| format!("{place}: the case has no `arguments`"))?;
        let mut options = self.options;
        if let Some(o) = &case.options {
            if let Some(mode) = o.entities {
                options = options.entities(mode);
            }
            if let Some(passes) = o.max_passes {
                options = options.max_passes(passes);
            }
        }
        let normalizer = Normalizer::compile(schema)
            .map_err(|e| format!("{place}: schema does not compile: {e}"))?
            .with_options(options);
        normalize_text(&normalizer, arguments.get(), place)
    }
}

/// Normalizes one arguments text and writes the repairs into it (the text
/// itself, not a copy, when nothing was repaired).
fn normalize_text<'t>(
    normalizer: &Normalizer,
    text: &'t str,
    place: &str,
) -> Result<(Cow<'t, str>, Report), String> {
    normalizer.normalize_text(text).map_err(|e| match e {
        // Said as any JSON text the command reads is: `not JSON: ... at
        // line L column C`, or (nested too deep) what the limit is.
        NormalizeTextError::Syntax(e) => format!(
            "{place}: {}",
            SyntaxError {
                kind: SyntaxKind::Document,
                ..e
            }
        ),
        e => format!("{place}: {e}"),
    })
}

#[derive(Deserialize)]
struct Case<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    schema: Option<Value>,
    // `"arguments": null` is an arguments value, not a missing one.
    #[serde(borrow, default, deserialize_with = "present")]
    arguments: Option<&'a RawValue>,
    #[serde(default)]
    options: Option<CaseOptions>,
}

fn present<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(de).map(Some)
}

#[derive(Deserialize)]
struct CaseOptions {
    entities: Option<EntityMode>,
    max_passes: Option<u32>,
}

fn parse_case<'a>(line: &'a str, place: &str) -> Result<Case<'a>, String> {
    // serde's derive also reads a struct from a JSON array (its fields in
    // order); a case is an object.
    if line
        .trim_start_matches([' ', '\t', '\r', '\n'])
        .starts_with('[')
    {
        return Err(format!(
            "{place}: not a case: a case is a JSON object, found an array"
        ));
    }
    // Most cases nest well within serde_json's own limit and are read in
    // one pass. Otherwise the line is read once more, by the reader every
    // JSON text of the command goes through: it holds the nesting to
    // `MAX_DEPTH` (the processing threads' stacks are sized for that) and
    // says where the text is not JSON.
    let read = |unlimited: bool| {
        let mut de = serde_json::Deserializer::from_str(line);
        if unlimited {
            de.disable_recursion_limit();
        }
        Case::deserialize(&mut de).and_then(|case| de.end().map(|()| case))
    };
    let not_a_case = |e: serde_json::Error| format!("{place}: not a case: {e}");
    match read(false) {
        Ok(case) => Ok(case),
        Err(e) => match toolargs::json::read(line, MAX_DEPTH) {
            Err(e) => Err(match (e.line, e.column) {
                (Some(line), Some(column)) => format!(
                    "{place}: not a case: {} at line {line} column {column}",
                    e.message
                ),
                // Nested past the limit: the message says how deep.
                _ => format!("{place}: not a case: {}", e.message),
            }),
            // JSON within the command's limit that serde_json's own refused
            // for its depth: read without it.
            Ok(_) if e.classify() == serde_json::error::Category::Syntax => {
                read(true).map_err(not_a_case)
            }
            Ok(_) => Err(not_a_case(e)),
        },
    }
}
