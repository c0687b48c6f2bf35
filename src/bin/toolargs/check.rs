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
//! where an error is a line that holds no readable call at all (with
//! `--stream`, a stream that breaks its format).
//!
//!
//! **Streamed responses.** With `--tools`, a line that holds no call and is
//! one chunk or event of a stream (OpenAI Chat `chat.completion.chunk`, a
//! Responses `response.*` event, an Anthropic `message_start`,
//! `content_block_*`, `message_delta`, `message_stop`, `ping` or `error`
//! event) gets `{"line", "chunk": true, "calls": 0, "ok": true, "note"}`: no
//! call is in it to reject, and the note says to check the whole stream with
//! `--stream`. A server-sent event line (`data: ...`, `event: ...`) is not
//! JSON and is rejected as before, with the same kind of note (`message`,
//! for the model, is unchanged). With `--schema` a line is arguments, whatever
//! members it holds, so no line is a chunk.
//!
//! `--stream` reads the input as ONE recorded streamed response
//! (module `stream_check`): server-sent events as the provider sent them,
//! or one event's JSON per line, told apart by the first non-blank line; the
//! provider by the first event. The calls are assembled by the library's
//! stream readers and engine, and each gets, when it ends, the verdict the
//! default mode gives the whole call, at the line of the event that ended it
//! and with its `"index"` in the response (and `"choice"` for a chat
//! completion: one streamed with `n > 1` is read one choice at a time, its
//! choices never mixed). Calls the recording leaves open are ended and
//! checked at its last line, in the order they opened; a stream without a
//! call gets one `{"line", "calls": 0, "ok": true}`. An event that breaks
//! the stream's format (not JSON, a member missing, a delta for a call never
//! opened, an error the provider streamed) gets one rejected verdict at its
//! line, with a `syntax` rejection saying what is wrong, and ends the check:
//! the events after it are not read. With `--schema`, every call is checked
//! as a call to the one tool, whatever name it streamed. A stream is read in
//! order, so `--stream` refuses `--jobs`.
//!
//! The exit status counts both modes alike: 1 when a call was rejected or
//! a line (or stream) was in error.

use crate::fatal::Fatal;
use crate::lines::{self, Line, LineArgs, Process, Tally};
use crate::stream_check;
use crate::tools_file::Source;
use crate::verdict::{Verdict, outcome, rejected, write};
use toolargs::call::{self, Arguments, ToolCall, WireFormat};
use toolargs::export::Dialect;
use toolargs::rejection::{Rejection, SyntaxError, SyntaxKind};
use toolargs::toolbox::Toolbox;
use toolargs::{
    entities::EntityMode, normalizer::DEFAULT_MAX_BYTES, normalizer::DEFAULT_MAX_DEPTH,
    normalizer::Options,
};

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
    /// Read the input as ONE recorded streamed response (server-sent events,
    /// or one event's JSON per line; OpenAI Chat chunks, Responses or
    /// Anthropic events, told by the first event) and check each call it
    /// assembles: one verdict per call, when it ends, with its `index`, as
    /// the whole call would get. Without it, a line that is one chunk or
    /// event gets `"chunk": true`. Refuses --jobs (a stream is read in order).
    #[arg(long, conflicts_with = "jobs")]
    pub stream: bool,
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
    let tally = if args.stream {
        let single = process.single.as_deref();
        stream_check::run(&process.toolbox, single, &inputs, args.max_bytes, out)?
    } else {
        lines::run(&inputs, args.max_bytes, args.lines.threads(), &process, out)?
    };
    if !args.quiet {
        // After the verdicts, also where both streams share one pipe.
        out.flush()?;
        eprintln!("toolargs check: {}", summary(&tally));
    }
    Ok(tally.all_ok())
}

/// The run in one line: `3 lines, 4 calls, 1 repaired, 2 rejected, 0
/// errors` (errors: lines that hold no readable call at all, and streams
/// that break their format).
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

/// The note of a line that is a streaming chunk or event.
const CHUNK_NOTE: &str =
    "a streaming chunk or event: check the whole recorded stream with --stream";
/// The note of a line that is a server-sent event field.
const SSE_NOTE: &str = "a server-sent event line: check the whole recorded stream with --stream";

impl Process for Check {
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>, tally: &mut Tally) {
        let kind = if self.single.is_some() {
            SyntaxKind::Arguments
        } else {
            SyntaxKind::Envelope
        };
        let ending = line.ending.bytes();
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
                return rejected(here, line.number, &rejection, ending, out);
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
        let read = match call::Reader::new()
            .max_depth(self.options.max_depth)
            .read(text)
        {
            Ok(read) => read,
            Err(_) if stream_check::is_chunk(text) => return chunk(here, ending, out),
            Err(e) => {
                tally.errors += 1;
                let at = Verdict {
                    note: stream_check::is_sse_line(text).then_some(SSE_NOTE),
                    ..here
                };
                return rejected(at, line.number, &Rejection::Syntax(e), ending, out);
            }
        };
        if read.entries.is_empty() {
            if stream_check::is_chunk(text) {
                return chunk(here, ending, out);
            }
            let verdict = Verdict {
                calls: Some(0),
                ok: true,
                ..here
            };
            return write(&verdict, ending, out);
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
                    rejected(at, line.number, &rejection, ending, out);
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
        let result = self.toolbox.check(&(), call);
        outcome(at, line.number, result, line.ending.bytes(), out, tally);
    }
}

/// A line that is one chunk or event of a stream: it holds no whole call,
/// and is no error either (the stream as a whole is what `--stream` checks).
fn chunk(at: Verdict<'_>, ending: &[u8], out: &mut Vec<u8>) {
    let verdict = Verdict {
        chunk: Some(true),
        calls: Some(0),
        ok: true,
        note: Some(CHUNK_NOTE),
        ..at
    };
    write(&verdict, ending, out);
}
