//! Command-line normalizer: RT-TOOL-8 for logs, other languages and
//! conformance runs.
//!
//! ```text
//! cargo run --release --example normalize -- --schema SCHEMA.json [--entities attribute|text] [--max-passes N] [FILE|-]
//! cargo run --release --example normalize -- --cases [FILE|-]
//! ```
//!
//! Both modes read JSON Lines and write exactly one line per input line, in
//! order, streaming (memory stays that of the longest line).
//!
//! * `--schema`: each line is an arguments value; the output line is the
//!   normalized value, byte-identical to the input except where a repair was
//!   made. A line that is not JSON yields `{"error": "line N: ..."}` on
//!   stdout and the same message on stderr, and processing continues.
//! * `--cases`: each line is `{"id"?, "schema", "arguments", "options"?}`
//!   (other keys ignored); the output is `{"id": ..., "arguments": ...,
//!   "repairs": [...]}` or `{"id": ..., "error": "line N: ..."}`.
//!
//! Exit status: 0 when every line was processed, 1 when any line was an
//! error, 2 for a usage error or an unreadable schema.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;
use toolargs::{EntityMode, Normalizer, Options, Report, json_text, splice::splice};

/// Nesting accepted in an input line (and in the JSON its strings decode to).
/// Deep enough for any real call; the worker thread's stack is sized for it.
const MAX_DEPTH: usize = 10_000;
const STACK_BYTES: usize = 1 << 30;

enum Mode {
    Schema(Box<Normalizer>),
    Cases,
}

struct Cli {
    mode: Mode,
    input: Option<String>,
}

const USAGE: &str = "usage: normalize --schema SCHEMA.json [--entities attribute|text] [--max-passes N] [FILE|-]\n       normalize --cases [FILE|-]";

fn parse_args() -> Result<Cli, String> {
    let mut args = std::env::args().skip(1);
    let (mut schema_path, mut cases, mut input) = (None, false, None);
    let mut options = Options::default().max_depth(MAX_DEPTH);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--schema" => schema_path = Some(args.next().ok_or("--schema needs a file")?),
            "--cases" => cases = true,
            "--entities" => {
                let mode = args.next().ok_or("--entities needs a mode")?;
                options = options.entities(mode.parse::<EntityMode>().map_err(|e| e.to_string())?);
            }
            "--max-passes" => {
                let n = args.next().ok_or("--max-passes needs a number")?;
                options = options.max_passes(
                    n.parse()
                        .map_err(|_| format!("--max-passes: `{n}` is not a number"))?,
                );
            }
            "-h" | "--help" => return Err(String::new()),
            other if input.is_none() && (other == "-" || !other.starts_with('-')) => {
                input = Some(other.to_owned());
            }
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    let mode = match (schema_path, cases) {
        (Some(path), false) => {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
            let schema =
                json_text::from_str(&text, MAX_DEPTH).map_err(|e| format!("{path}: {e}"))?;
            let normalizer = Normalizer::compile(&schema).map_err(|e| format!("{path}: {e}"))?;
            Mode::Schema(Box::new(normalizer.with_options(options)))
        }
        (None, true) => Mode::Cases,
        _ => return Err("give exactly one of --schema SCHEMA.json or --cases".to_owned()),
    };
    Ok(Cli { mode, input })
}

fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(cli) => cli,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("normalize: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Deeply nested input is walked recursively; a large (lazily committed)
    // stack keeps MAX_DEPTH safe.
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || run(&cli))
        .expect("spawning the worker thread");
    match worker.join() {
        Ok(Ok(true)) => ExitCode::SUCCESS,
        Ok(Ok(false)) => ExitCode::from(1),
        Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("normalize: {e}");
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(101),
    }
}

/// Processes every line; returns whether all lines succeeded.
fn run(cli: &Cli) -> io::Result<bool> {
    let reader: Box<dyn BufRead> = match cli.input.as_deref() {
        None | Some("-") => Box::new(io::stdin().lock()),
        Some(path) => Box::new(io::BufReader::new(std::fs::File::open(path)?)),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let all_ok = process(reader, &mut out, &cli.mode)?;
    out.flush()?;
    Ok(all_ok)
}

fn process(mut reader: impl BufRead, out: &mut impl Write, mode: &Mode) -> io::Result<bool> {
    let mut all_ok = true;
    let mut buffer = Vec::new();
    let mut line_no = 0usize;
    loop {
        buffer.clear();
        if reader.read_until(b'\n', &mut buffer)? == 0 {
            break;
        }
        line_no += 1;
        let mut bytes = buffer.as_slice();
        if let [rest @ .., b'\n'] = bytes {
            bytes = rest;
        }
        if let [rest @ .., b'\r'] = bytes {
            bytes = rest;
        }
        let line = match std::str::from_utf8(bytes) {
            Ok(line) => Ok(line),
            Err(e) => Err(format!("line {line_no}: not UTF-8: {e}")),
        };
        let result = match mode {
            Mode::Schema(normalizer) => line.and_then(|l| schema_line(normalizer, l, line_no)),
            Mode::Cases => line.map(|l| case_line(l, line_no)),
        };
        match result {
            Ok((text, ok)) => {
                all_ok &= ok;
                out.write_all(text.as_bytes())?;
            }
            Err(message) => {
                all_ok = false;
                eprintln!("normalize: {message}");
                serde_json::to_writer(&mut *out, &serde_json::json!({ "error": message }))?;
            }
        }
        out.write_all(b"\n")?;
    }
    Ok(all_ok)
}

/// Normalizes one arguments text and splices the repairs into it.
fn normalize_text(
    normalizer: &Normalizer,
    text: &str,
    line_no: usize,
) -> Result<(String, Report), String> {
    let (mut value, facts) = json_text::from_str_inspected(text, MAX_DEPTH)
        .map_err(|e| format!("line {line_no}: not JSON: {e}"))?;
    // The scan that bounded the nesting may already prove the line clean.
    if !facts.may_need_repair {
        return Ok((text.to_owned(), Report::default()));
    }
    let report = normalizer
        .normalize(&mut value)
        .map_err(|e| format!("line {line_no}: {e}"))?;
    let spliced = splice(text, &value, &report).map_err(|e| format!("line {line_no}: {e}"))?;
    Ok((spliced, report))
}

fn schema_line(
    normalizer: &Normalizer,
    line: &str,
    line_no: usize,
) -> Result<(String, bool), String> {
    normalize_text(normalizer, line, line_no).map(|(text, _)| (text, true))
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

/// One `--cases` line: always produces an output line; `false` when it is an
/// error line.
fn case_line(line: &str, line_no: usize) -> (String, bool) {
    let parsed = parse_case(line, line_no);
    let id = match &parsed {
        Ok(case) => case.id.map(|raw| raw.get().to_owned()),
        // The line may still be JSON with an `id` (a case with a bad field).
        Err(_) => json_text::from_str(line, MAX_DEPTH)
            .ok()
            .and_then(|value| value.get("id").map(Value::to_string)),
    }
    .unwrap_or_else(|| "null".to_owned());
    match parsed.and_then(|case| run_case(&case, line_no)) {
        Ok((arguments, repairs)) => (
            format!("{{\"id\":{id},\"arguments\":{arguments},\"repairs\":{repairs}}}"),
            true,
        ),
        Err(message) => {
            eprintln!("normalize: {message}");
            let message = Value::String(message);
            (format!("{{\"id\":{id},\"error\":{message}}}"), false)
        }
    }
}

fn parse_case(line: &str, line_no: usize) -> Result<Case<'_>, String> {
    let nesting = json_text::nesting(line);
    if nesting > MAX_DEPTH {
        return Err(format!(
            "line {line_no}: nests {nesting} levels deep, more than {MAX_DEPTH}"
        ));
    }
    let mut de = serde_json::Deserializer::from_str(line);
    de.disable_recursion_limit();
    Case::deserialize(&mut de)
        .and_then(|case| de.end().map(|()| case))
        .map_err(|e| format!("line {line_no}: not a case: {e}"))
}

/// Normalizes a case's arguments; returns (arguments text, repairs JSON).
fn run_case(case: &Case<'_>, line_no: usize) -> Result<(String, String), String> {
    let schema = case
        .schema
        .as_ref()
        .ok_or_else(|| format!("line {line_no}: the case has no `schema`"))?;
    let arguments = case
        .arguments
        .ok_or_else(|| format!("line {line_no}: the case has no `arguments`"))?;
    let mut options = Options::default().max_depth(MAX_DEPTH);
    if let Some(o) = &case.options {
        if let Some(mode) = o.entities {
            options = options.entities(mode);
        }
        if let Some(passes) = o.max_passes {
            options = options.max_passes(passes);
        }
    }
    let normalizer = Normalizer::compile(schema)
        .map_err(|e| format!("line {line_no}: schema does not compile: {e}"))?
        .with_options(options);
    let (spliced, report) = normalize_text(&normalizer, arguments.get(), line_no)?;
    let repairs =
        serde_json::to_string(&report.repairs).map_err(|e| format!("line {line_no}: {e}"))?;
    Ok((spliced, repairs))
}
