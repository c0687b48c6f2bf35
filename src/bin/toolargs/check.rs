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
//! A verdict is `{"line", "entry"?, "choice"?, "id"?, "tool"?, "ok": true,
//! "repairs": [...]}` or `{..., "ok": false, "error": <the rejection>,
//! "message": <what to tell the model>}`, where the rejection is the
//! library's own serialized [`Rejection`]: its kind (`syntax`,
//! `unknown_tool`, `invalid_arguments`) and, for invalid arguments, every
//! violation's pointer, keyword, expected, found and message.

use crate::fatal::Fatal;
use crate::lines::{self, Body, Line, LineArgs, Process};
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
    let input = args.lines.open()?;
    Ok(lines::run(
        input,
        args.max_bytes,
        args.lines.threads(),
        &process,
        out,
    )?)
}

struct Check {
    toolbox: Toolbox,
    single: Option<String>,
    options: Options,
}

/// One verdict line.
#[derive(Serialize, Default)]
struct Verdict<'a> {
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
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>) -> bool {
        let ending = line.ending.bytes();
        let kind = if self.single.is_some() {
            SyntaxKind::Arguments
        } else {
            SyntaxKind::Envelope
        };
        let text = match &line.body {
            Body::Text(bytes) => std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}")),
            Body::TooLarge { bytes } => Err(match self.options.check_size(*bytes) {
                Err(e) => e.to_string(),
                Ok(()) => "longer than the limit".to_owned(),
            }),
        };
        let text = match text {
            Ok(text) => text,
            Err(message) => {
                let rejection = Rejection::Syntax(SyntaxError {
                    kind,
                    line: None,
                    column: None,
                    pointer: None,
                    message,
                });
                return rejected(Verdict::default(), line.number, &rejection, ending, out);
            }
        };
        if let Some(name) = &self.single {
            let call = ToolCall {
                id: None,
                name: name.clone(),
                arguments: Arguments::Text(text.to_owned()),
                format: WireFormat::Plain,
            };
            return self.verdict(Verdict::default(), line.number, call, ending, out);
        }
        let read = match call::read_with(text, self.options.max_depth) {
            Ok(read) => read,
            Err(e) => {
                let rejection = Rejection::Syntax(e);
                return rejected(Verdict::default(), line.number, &rejection, ending, out);
            }
        };
        if read.entries.is_empty() {
            let verdict = Verdict {
                line: line.number,
                calls: Some(0),
                ok: true,
                ..Verdict::default()
            };
            write(&verdict, ending, out);
            return true;
        }
        let mut all_ok = true;
        for entry in read.entries {
            let at = Verdict {
                entry: Some(&entry.pointer),
                choice: entry.choice,
                ..Verdict::default()
            };
            all_ok &= match entry.call {
                Ok(call) => self.verdict(at, line.number, call, ending, out),
                Err(unreadable) => {
                    let at = Verdict {
                        id: unreadable.id.as_deref(),
                        tool: unreadable.name.as_deref(),
                        ..at
                    };
                    let rejection = Rejection::Syntax(SyntaxError::from(unreadable.clone()));
                    rejected(at, line.number, &rejection, ending, out)
                }
            };
        }
        all_ok
    }
}

impl Check {
    /// Runs one call through the toolbox's checks and writes its verdict.
    fn verdict(
        &self,
        at: Verdict<'_>,
        number: usize,
        call: ToolCall,
        ending: &[u8],
        out: &mut Vec<u8>,
    ) -> bool {
        let (id, name) = (call.id.clone(), call.name.clone());
        let at = Verdict {
            id: id.as_deref(),
            tool: Some(&name),
            ..at
        };
        match self.toolbox.check(&(), call) {
            Ok(checked) => {
                let verdict = Verdict {
                    line: number,
                    ok: true,
                    repairs: Some(&checked.report().repairs),
                    ..at
                };
                write(&verdict, ending, out);
                true
            }
            Err(CallError::Rejected(rejection)) => rejected(at, number, &rejection, ending, out),
            // No policy is installed, so nothing is held for approval and no
            // body runs; should that change, the call did not pass.
            Err(other) => {
                let verdict = Verdict {
                    line: number,
                    message: Some(other.model_message()),
                    ..at
                };
                write(&verdict, ending, out);
                false
            }
        }
    }
}

fn rejected(
    at: Verdict<'_>,
    number: usize,
    rejection: &Rejection,
    ending: &[u8],
    out: &mut Vec<u8>,
) -> bool {
    let verdict = Verdict {
        line: number,
        ok: false,
        error: Some(rejection),
        message: Some(rejection.model_message()),
        ..at
    };
    write(&verdict, ending, out);
    false
}

fn write(verdict: &Verdict<'_>, ending: &[u8], out: &mut Vec<u8>) {
    // A verdict holds strings, numbers and the library's own serializable
    // types: writing it into memory cannot fail.
    if serde_json::to_writer(&mut *out, verdict).is_err() {
        out.extend_from_slice(b"{\"ok\":false}");
    }
    out.extend_from_slice(ending);
}
