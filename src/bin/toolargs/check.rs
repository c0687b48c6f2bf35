//! `toolargs check`: the library's whole check (parse, resolve, normalize,
//! validate) on JSON Lines of calls, one verdict line per call.
//!
//! With `--schema`, each line is one tool's arguments value (JSON text, as
//! OpenAI sends it). With `--tools`, each line holds calls in any shape
//! `toolargs::call::read` accepts (`{"name", "arguments"}`, an OpenAI message
//! or completion, a Responses item, an Anthropic block or message, a Gemini
//! part or response, an MCP `tools/call`); a line with several calls gets a
//! verdict for each, in order, and a line with none gets one verdict saying
//! `"calls": 0`.
//!
//! A verdict is `{"file"?, "line", "entry"?, "choice"?, "id"?, "tool"?, "ok": true,
//! "repairs": [...]}` or `{..., "ok": false, "error": <the rejection>,
//! "message": <what to tell the model>}`, where the rejection is the
//! library's own serialized [`Rejection`]: its kind (`syntax`,
//! `unknown_tool`, `invalid_arguments`) and, for invalid arguments, every
//! violation's pointer, keyword, expected, found and message. `file` is set
//! when several input files were given. A line that holds no JSON value
//! (blank, not UTF-8, over `--max-bytes`) gets a `syntax` rejection.
//!
//! At the end, unless `--quiet`, one line on stderr sums the run up:
//! `toolargs check: 4 lines, 5 calls, 1 repaired, 2 rejected, 1 error`,
//! where an error is a line that holds no readable call at all.

use crate::fatal::Fatal;
use crate::lines::{self, Line, LineArgs, Process, Tally};
use crate::tools_file::Source;
use serde::Serialize;
use toolargs::call::{self, Arguments, ToolCall, WireFormat};
use toolargs::export::Dialect;
use toolargs::rejection::{CallError, Rejection, SyntaxError, SyntaxKind};
use toolargs::toolbox::Toolbox;
use toolargs::{DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, EntityMode, Options, Repair};

/// Check JSON Lines of calls (or arguments) against a tools file (or a
/// schema); one verdict line per call, in order.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub source: Source,
    /// Check in the OpenAI strict dialect, as a toolbox built with it does:
    /// the strict form is validated, then restored and validated against the
    /// declared schema.
    #[arg(long)]
    pub strict: bool,
    /// How legacy references without `;` are read: `attribute` or `text`.
    #[arg(long, value_name = "MODE", default_value = "attribute")]
    pub entities: EntityMode,
    /// Deepest nesting accepted in arguments (the library's default).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// Longest line accepted, in bytes (line ending excluded); a longer line
    /// is skipped without being read into memory and gets a rejected verdict.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_BYTES)]
    pub max_bytes: usize,
    /// Print no summary on standard error at the end.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub lines: LineArgs,
}

/// Runs the subcommand; `Ok(false)` when a call was rejected.
///
/// # Errors
///
/// The schema or tools file cannot be read or compiled; reading or writing
/// failed.
pub fn run(args: &CheckArgs, out: &mut dyn std::io::Write) -> Result<bool, Fatal> {
    let options = Options::default()
        .entities(args.entities)
        .max_depth(args.max_depth)
        .max_bytes(args.max_bytes);
    let tools = args.source.load()?;
    let dialect = if args.strict {
        Dialect::OpenAiStrict
    } else {
        Dialect::Canonical
    };
    let toolbox = args.source.toolbox(&tools, dialect, options)?;
    let process = Check {
        toolbox,
        // With --schema, every line is a call to the one tool.
        single: args.source.schema.is_some().then(|| tools[0].name.clone()),
        options,
    };
    let inputs = args.lines.inputs()?;
    let tally = lines::run(&inputs, args.max_bytes, args.lines.threads(), &process, out)?;
    if !args.quiet {
        // After the verdicts, also where both streams share one pipe.
        out.flush()?;
        eprintln!("toolargs check: {}", summary(&tally));
    }
    Ok(tally.all_ok())
}

/// The run in one line: `3 lines, 4 calls, 1 repaired, 2 rejected, 0
/// errors` (errors: lines that hold no readable call at all).
fn summary(tally: &Tally) -> String {
    format!(
        "{} {}, {} {}, {} repaired, {} rejected, {} {}",
        tally.lines,
        if tally.lines == 1 { "line" } else { "lines" },
        tally.calls,
        if tally.calls == 1 { "call" } else { "calls" },
        tally.repaired,
        tally.rejected,
        tally.errors,
        if tally.errors == 1 { "error" } else { "errors" },
    )
}

struct Check {
    toolbox: Toolbox,
    single: Option<String>,
    options: Options,
}

/// One verdict line.
#[derive(Serialize, Default)]
struct Verdict<'a> {
    /// The input file, when several were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: usize,
    /// Pointer to the call in the line's envelope.
    #[serde(skip_serializing_if = "Option::is_none")]
    entry: Option<&'a str>,
    /// The alternative (`choices` / `candidates` index) the call belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    /// Set (to 0) only for a line that holds no call.
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<usize>,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    repairs: Option<&'a [Repair]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a Rejection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

impl Process for Check {
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>, tally: &mut Tally) {
        let kind = if self.single.is_some() {
            SyntaxKind::Arguments
        } else {
            SyntaxKind::Envelope
        };
        let here = Verdict {
            file: line.file,
            line: line.number,
            ..Verdict::default()
        };
        let text = match line.text(&self.options) {
            Ok(text) => text,
            Err(message) => {
                let rejection = Rejection::Syntax(SyntaxError {
                    kind,
                    line: None,
                    column: None,
                    pointer: None,
                    message,
                });
                tally.errors += 1;
                return rejected(here, &rejection, line, out);
            }
        };
        if let Some(name) = &self.single {
            let call = ToolCall {
                id: None,
                name: name.clone(),
                arguments: Arguments::Text(text.to_owned()),
                format: WireFormat::Plain,
            };
            return self.verdict(here, call, line, out, tally);
        }
        let read = match call::read(text) {
            Ok(read) => read,
            Err(e) => {
                tally.errors += 1;
                return rejected(here, &Rejection::Syntax(e), line, out);
            }
        };
        if read.entries.is_empty() {
            let verdict = Verdict {
                calls: Some(0),
                ok: true,
                ..here
            };
            return write(&verdict, line, out);
        }
        for entry in read.entries {
            let at = Verdict {
                file: line.file,
                line: line.number,
                entry: Some(&entry.pointer),
                choice: entry.choice,
                ..Verdict::default()
            };
            match entry.call {
                Ok(call) => self.verdict(at, call, line, out, tally),
                Err(unreadable) => {
                    let at = Verdict {
                        id: unreadable.id.as_deref(),
                        tool: unreadable.name.as_deref(),
                        ..at
                    };
                    let rejection = Rejection::Syntax(SyntaxError::from(unreadable.clone()));
                    tally.calls += 1;
                    tally.rejected += 1;
                    rejected(at, &rejection, line, out);
                }
            }
        }
    }
}

impl Check {
    /// Runs one call through the toolbox's checks and writes its verdict.
    fn verdict(
        &self,
        at: Verdict<'_>,
        call: ToolCall,
        line: &Line<'_>,
        out: &mut Vec<u8>,
        tally: &mut Tally,
    ) {
        let (id, name) = (call.id.clone(), call.name.clone());
        let at = Verdict {
            id: id.as_deref(),
            tool: Some(&name),
            ..at
        };
        tally.calls += 1;
        match self.toolbox.check(&(), call) {
            Ok(checked) => {
                let repairs = &checked.report().repairs;
                tally.repaired += u64::from(!repairs.is_empty());
                let verdict = Verdict {
                    ok: true,
                    repairs: Some(repairs),
                    ..at
                };
                write(&verdict, line, out);
            }
            Err(CallError::Rejected(rejection)) => {
                tally.rejected += 1;
                rejected(at, &rejection, line, out);
            }
            // No policy is installed, so nothing is held for approval and no
            // body runs; should that change, the call did not pass.
            Err(other) => {
                tally.rejected += 1;
                let verdict = Verdict {
                    message: Some(other.model_message()),
                    ..at
                };
                write(&verdict, line, out);
            }
        }
    }
}

fn rejected(at: Verdict<'_>, rejection: &Rejection, line: &Line<'_>, out: &mut Vec<u8>) {
    let verdict = Verdict {
        ok: false,
        error: Some(rejection),
        message: Some(rejection.model_message()),
        ..at
    };
    write(&verdict, line, out);
}

fn write(verdict: &Verdict<'_>, line: &Line<'_>, out: &mut Vec<u8>) {
    // A verdict holds strings, numbers and the library's own serializable
    // types: writing it into memory cannot fail.
    if serde_json::to_writer(&mut *out, verdict).is_err() {
        out.extend_from_slice(b"{\"ok\":false}");
    }
    out.extend_from_slice(line.ending.bytes());
}
