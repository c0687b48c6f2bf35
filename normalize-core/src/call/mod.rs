//! Tool calls as models send them, read from each provider's wire format
//! into one [`ToolCall`].
//!
//! | format | what is read |
//! |--------|--------------|
//! | [`WireFormat::OpenAiChat`] | a `tool_calls` entry (`function.name`, `function.arguments` as JSON text; a `custom` call is kept as [`Unreadable::FreeForm`]), a list of them, an assistant message (also its deprecated `function_call`), a transcript, or a whole completion (`choices[].message`, each choice an alternative) |
//! | [`WireFormat::OpenAiResponses`] | a `function_call` item (`name`, `arguments` as JSON text, `call_id`; a `custom_tool_call` is kept as [`Unreadable::FreeForm`]), a list of items, or a response (`output`) |
//! | [`WireFormat::Anthropic`] | a `tool_use` block (`name`, `input`, `id`), a list of content blocks, a message (`content`, a list or text), or a transcript |
//! | [`WireFormat::Gemini`] | a `functionCall` or `function_call` (`name`, `args`, `id`), a part holding one, a list of parts, a content (`parts`), a transcript, or a response (`candidates[].content`, each candidate an alternative) |
//! | [`WireFormat::McpToolsCall`] | `tools/call` params (`name`, `arguments`), the whole JSON-RPC request (its `id` is the call's id, a number as its JSON text), or a batch |
//! | [`WireFormat::Plain`] | `{"name": ..., "arguments": ...}` |
//!
//! Gemini is read in both spellings everywhere: the REST API writes
//! `functionCall`, the Python SDK's own serializers (`model_dump_json()`,
//! `to_json_dict()`) write `function_call`, with `null` for every unset
//! member.
//!
//! **Each call on its own.** [`read`] returns one [`CallEntry`] per place a
//! call stands, each with its own outcome: a [`ToolCall`], or an
//! [`UnreadableCall`] naming the entry (a JSON pointer into the envelope),
//! why it cannot be read, its id and name where they could be read, and the
//! raw entry, so that the application can answer it or keep it in history.
//! A malformed entry never costs the calls beside it. Items that are not
//! calls (text, reasoning, tool results, calls the provider ran itself) are
//! not entries. [`ReadCalls::into_calls`] is the all-or-nothing form over
//! it. A [`Reader`] reads in a format the application knows, with a
//! toolbox's depth limit, or from a value already parsed.
//!
//! **A turn without calls.** A message with text alone (an object with a
//! `role` and a `content` that is text, `null` or a list of typed parts; a
//! Responses `message` item; a transcript or completion of such) holds no
//! call: [`read`] gives a [`ReadCalls`] without entries, not an error,
//! since a model may answer in words. JSON that is neither a call nor a
//! message (a misspelt `{"nme": ...}`) is still a [`SyntaxError`].
//! [`ReadCalls::into_calls`] wants calls to run, and refuses a turn that
//! holds none.
//!
//! **Ids as sent.** An id is a string, or a number (JSON-RPC), kept as its
//! JSON text exactly as it was written (`100000000000000000000`, `1e3`,
//! `-0`), read from the text rather than from the parsed number, which
//! would round it; so in every format, and in a batch. Only
//! [`Reader::read_value`], which gets no text, writes a number as serde_json
//! does.
//!
//! **Depth.** [`Reader::max_depth`] reads for a toolbox's
//! [`max_depth`](crate::normalizer::Options::max_depth): the envelope's levels do not
//! count against the arguments' limit, and arguments that nest deeper are
//! refused alike whether they came as text or as a value.
//!
//! **Alternatives stay apart.** A completion with `n > 1` (or a Gemini
//! response with several candidates) holds alternative answers to one
//! turn: each entry says its [`choice`](CallEntry::choice), and
//! [`ReadCalls::into_turn`] and [`ReadCalls::into_calls`] refuse to merge calls of two
//! alternatives into one list.
//!
//! **No arguments.** In every format, arguments that are absent, `null`, or
//! text that is empty or only JSON whitespace (space, tab, line feed,
//! carriage return) mean "no arguments": `{}`. Other whitespace
//! (`"\u{a0}"`, `"\u{3000}"`) is not JSON whitespace: as text it is a
//! [`SyntaxError`]. Any other value goes to normalization and validation as
//! sent: where a format sends the arguments as JSON text (OpenAI), the text
//! is kept as [`Arguments::Text`] and parsed by the toolbox, which reports a
//! [`SyntaxError`] with line and column inside that text; where a format
//! sends a JSON value, a string there is left to normalization's root rule
//! (decoded when it holds a JSON object, since every tool's schema declares
//! an object). A call an application builds with [`ToolCall::new`] carries
//! its value as it is.

mod detect;
mod formats;
mod read;
mod source;
mod tool_call;
mod wire_format;

pub use detect::detect;
pub use read::{CallEntry, ReadCalls, SeveralChoices, Unreadable, UnreadableCall};
pub(crate) use tool_call::is_json_whitespace;
pub use tool_call::{Arguments, ToolCall};
pub use wire_format::WireFormat;

use crate::json_text::{self, JsonTextError};
use crate::rejection::{SyntaxError, SyntaxKind};
use serde_json::Value;
use source::Source;
use std::collections::HashSet;

/// Parses `text` as JSON and reads every entry in it, detecting the format
/// from its shape: each entry is a call or an [`UnreadableCall`], and one
/// never costs the others.
///
/// # Errors
///
/// [`SyntaxError`] only when the text is not JSON (with line and column),
/// no known format fits it, or it is no envelope at all (a number, a
/// string). A malformed entry inside a good envelope is not an error of the
/// whole: it is an [`UnreadableCall`] in its place.
///
/// ```
/// use toolargs_core::call::{read, Unreadable};
///
/// // One good call beside one the toolbox cannot read (a custom tool's
/// // free-form input): the good one is kept.
/// let message = r#"{"role":"assistant","tool_calls":[
///   {"id":"call_a","type":"function","function":{"name":"refund","arguments":"{}"}},
///   {"id":"call_b","type":"custom","custom":{"name":"run_sql","input":"SELECT 1"}}]}"#;
/// let read = read(message)?;
/// let [good, free_form] = &read.entries[..] else { panic!("two entries") };
/// assert_eq!(good.call.as_ref().unwrap().name, "refund");
/// let unreadable = free_form.call.as_ref().unwrap_err();
/// assert_eq!(unreadable.entry, "/tool_calls/1");
/// assert_eq!(unreadable.id.as_deref(), Some("call_b")); // answer it with this id
/// assert!(matches!(&unreadable.reason, Unreadable::FreeForm { input } if input == "SELECT 1"));
/// # Ok::<(), toolargs_core::rejection::SyntaxError>(())
/// ```
pub fn read(text: &str) -> Result<ReadCalls, SyntaxError> {
    Reader::new().read(text)
}

/// How [`read`] reads: the one way to read calls, for an application that
/// knows the format, raised the arguments' depth limit, or holds a parsed
/// value. Each read gives every entry apart ([`ReadCalls`]); its
/// [`ReadCalls::into_calls`] is the all-or-nothing form.
///
/// ```
/// use toolargs_core::call::{Reader, WireFormat};
///
/// let reader = Reader::new().format(WireFormat::Anthropic).max_depth(64);
/// let calls = reader
///     .read(r#"{"type":"tool_use","id":"toolu_1","name":"refund","input":{"amount_cents":20}}"#)?
///     .into_calls()?;
/// assert_eq!(calls[0].name, "refund");
/// # Ok::<(), toolargs_core::rejection::SyntaxError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reader {
    format: Option<WireFormat>,
    max_depth: usize,
}

impl Default for Reader {
    fn default() -> Self {
        Reader::new()
    }
}

impl Reader {
    /// Detects the format from the envelope's shape; arguments nest at most
    /// [`crate::normalizer::DEFAULT_MAX_DEPTH`] levels.
    pub const fn new() -> Self {
        Reader {
            format: None,
            max_depth: crate::normalizer::DEFAULT_MAX_DEPTH,
        }
    }

    /// Reads the envelope as `format`, without detecting it.
    #[must_use]
    pub const fn format(mut self, format: WireFormat) -> Self {
        self.format = Some(format);
        self
    }

    /// Room for arguments that nest `max_depth` levels below the envelope's
    /// own levels, for a toolbox whose
    /// [`Options::max_depth`](crate::normalizer::Options::max_depth) is `max_depth`, so
    /// a limit raised for the arguments is not undone by the envelope
    /// around them.
    ///
    /// Arguments sent as a JSON value (Anthropic `input`, Gemini `args`, an
    /// MCP or plain `arguments` object) that nest deeper than `max_depth`
    /// are not built: the call keeps them as their JSON text
    /// ([`Arguments::Text`]), which the toolbox refuses as it refuses such
    /// text from OpenAI ([`SyntaxKind::Arguments`], "arguments nest N
    /// levels deep"), so the answer does not depend on the format. In an
    /// [`UnreadableCall`]'s `raw` entry they appear as that text, a string.
    /// So are arguments sent as a JSON value whose text has a key twice in
    /// one object: the parsed value would keep the last member and lose the
    /// repeat, which serde's derive refuses where a struct reads the key.
    /// The envelope's own levels (outside any `input`, `args` or
    /// `arguments` member) may nest up to `max_depth` or
    /// [`crate::normalizer::DEFAULT_MAX_DEPTH`], whichever is more.
    #[must_use]
    pub const fn max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Parses `text` as JSON and reads every entry in it (see [`read`]).
    ///
    /// # Errors
    ///
    /// As [`read`]; an envelope deeper than its own limit (see
    /// [`Reader::max_depth`]) is a [`SyntaxKind::Envelope`] error.
    pub fn read(&self, text: &str) -> Result<ReadCalls, SyntaxError> {
        let (value, source) = parse_envelope(text, self.max_depth)?;
        self.read_parsed(value, &source)
    }

    /// Reads every entry of an already parsed value. The value no longer
    /// knows how its numbers were written (a number id is serde_json's
    /// rendering of it: `1e20`, not `100000000000000000000`) nor whether its
    /// text repeated a key; its arguments are kept as they are, at any
    /// depth.
    ///
    /// # Errors
    ///
    /// As [`read`]: no known format fits it, or it is neither an object
    /// nor a list.
    pub fn read_value(&self, value: Value) -> Result<ReadCalls, SyntaxError> {
        self.read_parsed(value, &Source::none())
    }

    fn read_parsed(&self, value: Value, source: &Source<'_>) -> Result<ReadCalls, SyntaxError> {
        let format = match self.format {
            Some(format) => format,
            None => detect(&value)
                .or_else(|| detect::without_calls(&value))
                .ok_or_else(|| {
                    SyntaxError::shape(
                        "",
                        "not a tool call in a known format (OpenAI, Anthropic, Gemini, MCP or {\"name\", \"arguments\"})",
                    )
                })?,
        };
        formats::read(format, value, source)
    }
}

/// Parses the envelope for [`Reader::read`]: with the text beside it, for
/// number ids and for arguments kept as text.
fn parse_envelope(text: &str, max_depth: usize) -> Result<(Value, Source<'_>), SyntaxError> {
    let syntax = |e: JsonTextError| SyntaxError::of_text(SyntaxKind::Envelope, e, text);
    // The common case: nothing in it nests past the limit, and the one read
    // (which holds the limit as it goes) is all it takes. Only text nested
    // past it is scanned for where.
    match json_text::from_str_noting_repeats(text, max_depth) {
        Err(JsonTextError::TooDeep { .. }) => {}
        read => {
            let (value, repeated) = read.map_err(syntax)?;
            return Ok((value, Source::new(text, None, HashSet::new(), repeated)));
        }
    }
    let scan = source::scan(text);
    let own_limit = max_depth.max(crate::normalizer::DEFAULT_MAX_DEPTH);
    if scan.own_nesting > own_limit {
        return Err(SyntaxError::too_deep(
            SyntaxKind::Envelope,
            scan.own_nesting,
            own_limit,
        ));
    }
    let deep: Vec<(&String, &source::Member)> = scan
        .arguments
        .iter()
        .filter(|(_, member)| member.nesting > max_depth)
        .collect();
    // Within these bounds, the value nests at most `own_limit + max_depth`
    // levels once the deep arguments are left out.
    let limit = own_limit.saturating_add(max_depth);
    if deep.is_empty() {
        let (value, repeated) =
            json_text::from_str_noting_repeats(text, usize::MAX).map_err(syntax)?;
        return Ok((
            value,
            Source::new(text, Some(scan), HashSet::new(), repeated),
        ));
    }
    // The whole text must be JSON, deep arguments included; checked
    // without building anything.
    json_text::check_with_facts(text, json_text::inspect(text), usize::MAX).map_err(syntax)?;
    // Each deep argument value is blanked to `0` (and spaces, so the
    // rest keeps its place); the parsed `0` is then replaced by the text.
    let mut masked = text.as_bytes().to_vec();
    for (_, member) in &deep {
        if let Some(bytes) = masked.get_mut(member.range.clone()) {
            bytes.fill(b' ');
            bytes[0] = b'0';
        }
    }
    // Only ASCII replaced whole characters (the range starts and ends on a
    // bracket), so this is the text it was, as UTF-8.
    let masked = String::from_utf8_lossy(&masked);
    let (mut value, repeated) =
        json_text::from_str_noting_repeats(&masked, limit).map_err(syntax)?;
    let mut textified = HashSet::new();
    for (pointer, member) in deep {
        let Some(slot) = value.pointer_mut(pointer) else {
            continue;
        };
        if let (Some(0), Some(raw)) = (slot.as_u64(), text.get(member.range.clone())) {
            *slot = Value::String(raw.to_owned());
            textified.insert(pointer.clone());
        }
    }
    Ok((value, Source::new(text, Some(scan), textified, repeated)))
}

#[cfg(test)]
mod tests {
    use super::tool_call::nesting;
    use super::*;

    #[test]
    fn a_value_nests_as_its_text_does() {
        for text in [
            "1",
            "[]",
            "{}",
            "[1,[2,[3]],{}]",
            r#"{"a":{"b":[[]]},"c":[]}"#,
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            assert_eq!(nesting(&value), json_text::nesting(text), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let value = json_text::from_str(&deep, usize::MAX).unwrap();
        assert_eq!(nesting(&value), 100_000);
        crate::deep::drop_value(value);
    }
}
