//! Server-sent events (the HTML Standard's `text/event-stream`), cut from a
//! byte stream fed in chunks of any size.
//!
//! Push-based, so the same decoder serves a blocking reader, an async body
//! or a recorded file: hand it whatever bytes arrived, get back the events
//! they complete. Lines end with `\n`, `\r\n` or `\r` (a `\r\n` split
//! between two chunks is one line end); a chunk may end inside a line or
//! inside a UTF-8 character. `data` lines join with `\n`; `event` names the
//! event; comments (`:` lines), `id` and `retry` are not needed here and
//! are skipped; a byte order mark opening the stream is dropped. As the
//! standard says, an event is dispatched by a blank line, and one without
//! data is not an event.

use super::WireError;

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event` field (`content_block_delta`, `response.completed`),
    /// when sent; chat completions send none.
    pub event: Option<String>,
    /// The `data` lines, joined with `\n`.
    pub data: String,
}

/// Cuts a byte stream into [`SseEvent`]s.
#[derive(Debug, Clone, Default)]
pub struct SseDecoder {
    /// Bytes of the current line carried over from earlier chunks.
    line: Vec<u8>,
    /// The last byte fed was `\r`: a `\n` first in the next chunk belongs
    /// to that line end.
    after_cr: bool,
    /// The event being built.
    event: SseEvent,
    /// Whether a `data` line was seen for it.
    has_data: bool,
    /// Bytes fed so far.
    fed: u64,
    /// Stream offset of the current line's first byte (0 for the first
    /// line, the only one that may start with a byte order mark).
    line_start: u64,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        SseDecoder::default()
    }

    /// Feeds the next bytes of the stream; returns the events they
    /// complete, in order.
    ///
    /// # Errors
    ///
    /// [`WireError::NotUtf8`] when a complete line is not UTF-8 (a
    /// character cut at the end of the chunk waits for the next one).
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, WireError> {
        let start = self.fed;
        self.fed += chunk.len() as u64;
        let mut events = Vec::new();
        let mut pos = 0;
        if std::mem::take(&mut self.after_cr) && chunk.first() == Some(&b'\n') {
            pos = 1;
            self.line_start = start + 1;
        }
        while let Some(found) = memchr::memchr2(b'\n', b'\r', &chunk[pos..]) {
            let end = pos + found;
            let mut next = end + 1;
            if chunk[end] == b'\r' {
                match chunk.get(next) {
                    Some(b'\n') => next += 1,
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            if self.line.is_empty() {
                self.line_ended(&chunk[pos..end], &mut events)?;
            } else {
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(&chunk[pos..end]);
                let ended = self.line_ended(&line, &mut events);
                line.clear();
                self.line = line;
                ended?;
            }
            self.line_start = start + next as u64;
            pos = next;
        }
        self.line.extend_from_slice(&chunk[pos..]);
        Ok(events)
    }

    /// The stream ended. An event not closed by a blank line is discarded,
    /// as the standard says (the connection may have been cut mid-event);
    /// returns whether one was.
    pub fn finish(&mut self) -> bool {
        let pending = self.has_data || !self.line.is_empty();
        *self = SseDecoder::default();
        pending
    }

    fn line_ended(&mut self, line: &[u8], events: &mut Vec<SseEvent>) -> Result<(), WireError> {
        let line = std::str::from_utf8(line).map_err(|error| WireError::NotUtf8 {
            offset: self.line_start + error.valid_up_to() as u64,
        })?;
        let line = match self.line_start {
            0 => line.strip_prefix('\u{feff}').unwrap_or(line),
            _ => line,
        };
        if line.is_empty() {
            let event = std::mem::take(&mut self.event);
            if std::mem::take(&mut self.has_data) {
                events.push(event);
            }
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.event.data.push('\n');
                }
                self.event.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event.event = Some(value.to_owned()),
            // A comment (empty field name), `id`, `retry`, or a field the
            // standard says to ignore.
            _ => {}
        }
        Ok(())
    }
}
