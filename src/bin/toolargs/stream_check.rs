//! `toolargs check --stream`: the calls of one recorded streamed response,
//! assembled by the library's stream engine and checked as they end.
//!
//! A stream's calls are spread over many events, and an event means
//! something only after the ones before it, so the input is read in order
//! on one thread, through one [`WireReader`] and one [`Session`] (for a
//! chat completion, one of each per choice: alternatives never mix). What
//! the session says when a call ends is exactly [`Toolbox::check`] on the
//! whole call, so a verdict here is the verdict `check` gives the finished
//! call in its default mode.
//!
//! The same shape tests tell a streaming chunk or event in the default
//! mode, where such a line holds no whole call ([`is_chunk`],
//! [`is_sse_line`]).

use crate::fatal::Fatal;
use crate::lines::{self, Body, Input, Line, Process, Tally};
use crate::verdict::{self, Verdict};
use serde_json::Value;
use std::sync::{Mutex, PoisonError};
use toolargs::rejection::{Rejection, SyntaxError, SyntaxKind};
use toolargs::stream::wire::{CallDelta, SseDecoder, StreamFormat, WireError, WireReader};
use toolargs::stream::{Session, ToolStreams};
use toolargs::toolbox::Toolbox;

/// The event types of Anthropic's Messages stream.
const ANTHROPIC_EVENTS: [&str; 8] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
    "error",
];

/// The streaming protocol an event belongs to, judged by the members each
/// protocol names its events with: a chunk's `object`, an event's `type`.
/// (The library's readers take the format as given and have no such test.)
fn event_format(event: &Value) -> Option<StreamFormat> {
    let object = event.as_object()?;
    if object.get("object").and_then(Value::as_str) == Some("chat.completion.chunk") {
        return Some(StreamFormat::OpenAiChat);
    }
    let kind = object.get("type").and_then(Value::as_str)?;
    if kind.starts_with("response.") {
        return Some(StreamFormat::OpenAiResponses);
    }
    if kind == "error" && !object.get("error").is_some_and(Value::is_object) {
        // Responses streams an error as `{"type": "error", "code",
        // "message"}`; Anthropic nests it under `error`.
        return Some(StreamFormat::OpenAiResponses);
    }
    ANTHROPIC_EVENTS
        .contains(&kind)
        .then_some(StreamFormat::Anthropic)
}

/// The format a stream's first event announces: [`event_format`], or a
/// chat completion chunk that does not say it is one (some servers leave
/// out `object`) or the error a chat stream sends instead of a chunk.
fn first_event_format(event: &Value) -> Option<StreamFormat> {
    event_format(event).or_else(|| {
        let object = event.as_object()?;
        (object.contains_key("choices") || object.get("error").is_some_and(Value::is_object))
            .then_some(StreamFormat::OpenAiChat)
    })
}

/// Whether a line is one chunk or event of a stream (as JSON Lines hold
/// them), for the default mode's verdict.
pub(crate) fn is_chunk(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|event| event_format(&event).is_some())
}

/// Whether a line is a field of a server-sent event stream.
pub(crate) fn is_sse_line(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ["data:", "event:", "id:", "retry:", ":"]
        .iter()
        .any(|field| text.starts_with(field))
        || matches!(text, "data" | "event")
}

/// Checks the calls of the stream in each of `inputs` (each file its own
/// stream) against `toolbox`; with `single`, every call is checked as a
/// call to that one tool, whatever name it streamed (as `--schema` reads
/// every line as that tool's arguments). Returns what was counted: a
/// stream that broke its format counts as an error.
///
/// # Errors
///
/// Reading or writing failed.
pub(crate) fn run(
    toolbox: &Toolbox,
    single: Option<&str>,
    inputs: &[Input],
    max_bytes: usize,
    out: &mut dyn std::io::Write,
) -> Result<Tally, Fatal> {
    let streams = ToolStreams::new(toolbox);
    let mut tally = Tally::default();
    for input in inputs {
        let replay = StreamCheck {
            state: Mutex::new(Replay {
                streams: &streams,
                single,
                file: input.name(),
                framing: None,
                decoder: SseDecoder::new(),
                data_line: None,
                last_line: 0,
                reading: None,
                failed: false,
            }),
        };
        let mut counted = lines::run(std::slice::from_ref(input), max_bytes, 1, &replay, out)?;
        let mut state = replay
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let mut buffer = Vec::new();
        state.finish(&mut buffer, &mut counted);
        out.write_all(&buffer)?;
        tally.add(counted);
    }
    Ok(tally)
}

/// How the recording holds its events, told by its first non-blank line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// Server-sent events, as the provider sent them.
    Sse,
    /// One event's JSON per line.
    JsonLines,
}

/// [`Replay`] behind the lock [`Process`] asks for; only one thread ever
/// takes it.
struct StreamCheck<'s, 't> {
    state: Mutex<Replay<'s, 't>>,
}

impl Process for StreamCheck<'_, '_> {
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>, tally: &mut Tally) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.line(line, out, tally);
    }
}

/// The stream read so far.
struct Replay<'s, 't> {
    streams: &'s ToolStreams<'t>,
    single: Option<&'s str>,
    /// The input's name, when several were given (verdicts carry it).
    file: Option<&'s str>,
    framing: Option<Framing>,
    decoder: SseDecoder,
    /// The line of the first `data` field of the server-sent event being
    /// built: the event's line in verdicts.
    data_line: Option<usize>,
    last_line: usize,
    /// Set by the first event.
    reading: Option<Reading<'s, 't>>,
    /// The stream broke its format: later lines are not read.
    failed: bool,
}

/// The readers of a stream whose format is known.
struct Reading<'s, 't> {
    format: StreamFormat,
    /// One per choice for a chat completion (the first made for choice 0,
    /// the others as their choices appear), else one.
    choices: Vec<Choice<'s, 't>>,
}

/// One choice of the response (the only one, except for chat completions
/// streamed with `n > 1`).
struct Choice<'s, 't> {
    /// The choice's index, for chat completions.
    choice: Option<u64>,
    reader: WireReader,
    session: Session<'s, 't>,
}

impl<'s, 't> Replay<'s, 't> {
    fn line(&mut self, line: &Line<'_>, out: &mut Vec<u8>, tally: &mut Tally) {
        self.last_line = line.number;
        if self.failed {
            return;
        }
        let ending = line.ending.bytes();
        let text = match line.body {
            Body::Text(bytes) => std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}")),
            Body::TooLarge { bytes } => Err(format!(
                "the line holds {bytes} bytes, more than the limit (--max-bytes)"
            )),
        };
        let text = match text {
            Ok(text) => text,
            Err(message) => {
                return self.fail(
                    line.number,
                    error(SyntaxKind::Envelope, message),
                    ending,
                    out,
                    tally,
                );
            }
        };
        let framing = match self.framing {
            Some(framing) => framing,
            None if text.trim().is_empty() => return,
            None => *self.framing.insert(if is_sse_line(text) {
                Framing::Sse
            } else {
                Framing::JsonLines
            }),
        };
        match framing {
            Framing::JsonLines if text.trim().is_empty() => {}
            Framing::JsonLines => self.event(line.number, text, ending, out, tally),
            Framing::Sse => {
                let field = text.strip_prefix('\u{feff}').unwrap_or(text);
                if (field == "data" || field.starts_with("data:")) && self.data_line.is_none() {
                    self.data_line = Some(line.number);
                }
                // Lines arrive without their ending; one `\n` ends each
                // again (the text is UTF-8, checked above).
                let mut events = match self.decoder.push(text.as_bytes()) {
                    Ok(events) => events,
                    Err(e) => {
                        return self.fail(line.number, wire_rejection(&e), ending, out, tally);
                    }
                };
                match self.decoder.push(b"\n") {
                    Ok(more) => events.extend(more),
                    Err(e) => {
                        return self.fail(line.number, wire_rejection(&e), ending, out, tally);
                    }
                }
                for event in events {
                    let number = self.data_line.take().unwrap_or(line.number);
                    self.event(number, &event.data, ending, out, tally);
                }
                if text.is_empty() {
                    self.data_line = None;
                }
            }
        }
    }

    /// One event's text, at line `number`.
    fn event(
        &mut self,
        number: usize,
        data: &str,
        ending: &[u8],
        out: &mut Vec<u8>,
        tally: &mut Tally,
    ) {
        if self.failed {
            return;
        }
        // Parsed once here for every reader (and to tell the format); text
        // this parser refuses goes to the readers as text, so that what is
        // wrong with it is said in the library's words.
        let parsed = serde_json::from_str::<Value>(data);
        if self.reading.is_none() {
            let rejection = match &parsed {
                Ok(event) => match first_event_format(event) {
                    Some(format) => Ok(format),
                    None => Err(error(
                        SyntaxKind::Shape,
                        "the first event is of no known stream (OpenAI Chat \
                         `chat.completion.chunk`, OpenAI Responses `response.*`, Anthropic \
                         `message_start` ...)"
                            .to_owned(),
                    )),
                },
                Err(_) if data.trim() == "[DONE]" => Err(error(
                    SyntaxKind::Shape,
                    "the stream ends ([DONE]) before its first event".to_owned(),
                )),
                Err(e) => Err(Rejection::Syntax(SyntaxError {
                    kind: SyntaxKind::Envelope,
                    line: Some(e.line()),
                    column: Some(e.column()),
                    pointer: None,
                    message: format!("the first event is not JSON: {e}"),
                })),
            };
            let format = match rejection {
                Ok(format) => format,
                Err(rejection) => return self.fail(number, rejection, ending, out, tally),
            };
            let first = match format {
                StreamFormat::OpenAiChat => Some(0),
                _ => None,
            };
            let choice = self.choice(format, first);
            self.reading = Some(Reading {
                format,
                choices: vec![choice],
            });
        }
        let parsed = parsed.ok();
        if let Some(Value::Object(chunk)) = &parsed {
            self.open_choices(chunk);
        }
        let Some(reading) = self.reading.as_mut() else {
            return;
        };
        let mut failure = None;
        for choice in &mut reading.choices {
            let deltas = match &parsed {
                Some(event) => choice.reader.read_value(event),
                None => choice.reader.read_str(data),
            };
            match deltas {
                Ok(deltas) => {
                    choice.apply(self.single, self.file, &deltas, number, ending, out, tally);
                }
                // Every reader reads the same event: the first one's error
                // is the stream's.
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        if let Some(e) = failure {
            self.fail(number, wire_rejection(&e), ending, out, tally);
        }
    }

    /// A reader and a session for one choice of a stream in `format`.
    fn choice(&self, format: StreamFormat, choice: Option<u64>) -> Choice<'s, 't> {
        Choice {
            choice,
            reader: match choice {
                Some(choice) => WireReader::openai_chat_choice(choice),
                None => WireReader::new(format),
            },
            // Verdicts only: the calls' events are never read, so none is
            // recorded (each would copy its value, for the whole call).
            session: self.streams.session(format.into()).without_events(),
        }
    }

    /// Opens a reader for each choice of a chat chunk not seen before. A
    /// reader made late misses nothing: the chunks before were of other
    /// choices, which it would have skipped.
    fn open_choices(&mut self, chunk: &serde_json::Map<String, Value>) {
        let Some(reading) = &self.reading else { return };
        if reading.format != StreamFormat::OpenAiChat {
            return;
        }
        let Some(Value::Array(choices)) = chunk.get("choices") else {
            return;
        };
        let new: Vec<u64> = choices
            .iter()
            .filter_map(|choice| choice.get("index").and_then(Value::as_u64))
            .filter(|index| !reading.choices.iter().any(|c| c.choice == Some(*index)))
            .collect();
        for index in new {
            let choice = self.choice(StreamFormat::OpenAiChat, Some(index));
            if let Some(reading) = self.reading.as_mut()
                && !reading.choices.iter().any(|c| c.choice == Some(index))
            {
                reading.choices.push(choice);
            }
        }
    }

    /// The stream broke its format at line `number`: one error verdict, and
    /// the rest of the input is not read (the reader cannot trust it).
    fn fail(
        &mut self,
        number: usize,
        rejection: Rejection,
        ending: &[u8],
        out: &mut Vec<u8>,
        tally: &mut Tally,
    ) {
        self.failed = true;
        tally.errors += 1;
        let at = Verdict {
            file: self.file,
            ..Verdict::default()
        };
        verdict::rejected(at, number, &rejection, ending, out);
    }

    /// The input ended: a last server-sent event needs no blank line after
    /// it (a recording is often trimmed), and calls still open are ended
    /// and checked as the reader ends them at `[DONE]`, in the order they
    /// opened. A stream that held no call gets one verdict saying so.
    /// `tally` holds this stream's counts.
    fn finish(&mut self, out: &mut Vec<u8>, tally: &mut Tally) {
        let number = self.last_line;
        let ending = b"\n".as_slice();
        if self.framing == Some(Framing::Sse) && !self.failed {
            match self.decoder.push(b"\n") {
                Ok(events) => {
                    for event in events {
                        let at = self.data_line.take().unwrap_or(number);
                        self.event(at, &event.data, ending, out, tally);
                    }
                }
                Err(e) => self.fail(number, wire_rejection(&e), ending, out, tally),
            }
        }
        if self.failed {
            return;
        }
        if let Some(reading) = self.reading.as_mut() {
            for choice in &mut reading.choices {
                if choice.reader.is_done() {
                    continue;
                }
                // `[DONE]` ends the calls still open and nothing else.
                if let Ok(deltas) = choice.reader.read_str("[DONE]") {
                    choice.apply(self.single, self.file, &deltas, number, ending, out, tally);
                }
            }
        }
        if tally.calls == 0 && number > 0 {
            let verdict = Verdict {
                file: self.file,
                line: number,
                calls: Some(0),
                ok: true,
                ..Verdict::default()
            };
            verdict::write(&verdict, ending, out);
        }
    }
}

impl Choice<'_, '_> {
    /// Applies the deltas of one event; each call they end gets its
    /// verdict, at line `number`.
    #[allow(clippy::too_many_arguments)]
    fn apply(
        &mut self,
        single: Option<&str>,
        file: Option<&str>,
        deltas: &[CallDelta],
        number: usize,
        ending: &[u8],
        out: &mut Vec<u8>,
        tally: &mut Tally,
    ) {
        for delta in deltas {
            match (single, delta) {
                // With one tool, the name a call streams is not read.
                (Some(_), CallDelta::Name { .. }) => {}
                (Some(tool), CallDelta::Begin { index, id, .. }) => {
                    self.session.apply(&CallDelta::Begin {
                        index: *index,
                        id: id.clone(),
                        name: Some(tool.to_owned()),
                    });
                }
                _ => {
                    self.session.apply(delta);
                }
            }
            if let CallDelta::End { index } = delta {
                self.verdict(*index, file, number, ending, out, tally);
            }
        }
    }

    /// The verdict of the call at `index`, which just ended.
    fn verdict(
        &mut self,
        index: u64,
        file: Option<&str>,
        number: usize,
        ending: &[u8],
        out: &mut Vec<u8>,
        tally: &mut Tally,
    ) {
        let Some(result) = self.session.finish(index, &()) else {
            return;
        };
        let (id, name) = match self.session.call(index) {
            Some(call) => (call.id().map(str::to_owned), call.name().to_owned()),
            None => (None, String::new()),
        };
        let at = Verdict {
            file,
            choice: self.choice.and_then(|c| usize::try_from(c).ok()),
            index: Some(index),
            id: id.as_deref(),
            tool: Some(&name),
            ..Verdict::default()
        };
        verdict::outcome(at, number, result, ending, out, tally);
    }
}

/// A stream error as a rejection of the envelope: the events that carry
/// the calls, not the calls' arguments, are at fault.
fn wire_rejection(e: &WireError) -> Rejection {
    match e {
        WireError::NotJson {
            line,
            column,
            message,
            ..
        } => Rejection::Syntax(SyntaxError {
            kind: SyntaxKind::Envelope,
            line: Some(*line),
            column: Some(*column),
            pointer: None,
            message: message.clone(),
        }),
        WireError::Malformed { pointer, .. } => Rejection::Syntax(SyntaxError {
            kind: SyntaxKind::Shape,
            line: None,
            column: None,
            pointer: Some(pointer.clone()),
            message: e.to_string(),
        }),
        _ => error(SyntaxKind::Shape, e.to_string()),
    }
}

fn error(kind: SyntaxKind, message: String) -> Rejection {
    Rejection::Syntax(SyntaxError {
        kind,
        line: None,
        column: None,
        pointer: None,
        message,
    })
}
