//! JSON Lines in, lines out: the streaming every line-at-a-time subcommand
//! shares.
//!
//! Three promises are kept here so that no subcommand has to keep them
//! itself: a line ending is written back as it came (`\r\n` stays `\r\n`);
//! a line over the size limit is skipped in bounded chunks, never held in
//! memory, and reported in its place; and with several jobs the lines are
//! processed in parallel batches while the output keeps the input's order and
//! only a fixed number of batches is ever in flight.

use std::io::{self, BufRead, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Stack of each thread that processes lines. Parsing and dropping a JSON
/// value recurse once per nesting level, and lines may nest as deep as the
/// subcommands allow; the stack is committed lazily, so the reservation
/// costs address space, not memory.
pub const STACK_BYTES: usize = 256 << 20;

/// A batch closes at this many lines, or at [`BATCH_BYTES`] of line text,
/// whichever comes first: large enough that handing batches between
/// threads costs little next to processing them, small enough that the
/// batches in flight stay a few megabytes.
const BATCH_LINES: usize = 256;
const BATCH_BYTES: usize = 1 << 20;

/// Most threads `--jobs` may ask for: far beyond any machine's cores, and
/// low enough that their stacks' address space is never the limit.
const MAX_JOBS: u64 = 1024;

/// Where the lines come from and how many threads process them (flags every
/// line-at-a-time subcommand takes).
#[derive(clap::Args, Debug, Clone)]
pub struct LineArgs {
    /// Process lines on N threads (at most 1024); output stays in input
    /// order and memory stays flat (a few batches of lines in flight per
    /// thread). 0 means one thread per available core.
    #[arg(
        long,
        short = 'j',
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_JOBS)
    )]
    pub jobs: usize,
    /// JSON Lines to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    pub input: Option<PathBuf>,
}

impl LineArgs {
    /// The number of processing threads `--jobs` asks for.
    pub fn threads(&self) -> usize {
        if self.jobs == 0 {
            std::thread::available_parallelism()
                .map_or(1, NonZeroUsize::get)
                .min(MAX_JOBS as usize)
        } else {
            self.jobs
        }
    }

    /// The input, buffered; standard input for `-` or no file.
    pub fn open(&self) -> io::Result<Box<dyn BufRead + Send>> {
        match &self.input {
            Some(path) if path.as_os_str() != "-" => Ok(Box::new(io::BufReader::with_capacity(
                1 << 16,
                std::fs::File::open(path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?,
            ))),
            _ => Ok(Box::new(io::BufReader::with_capacity(1 << 16, io::stdin()))),
        }
    }
}

/// How a line ended in the input; written back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// The last line, without a line ending: its output line gets `\n` (the
    /// output is JSON Lines, one terminated line per input line).
    Eof,
}

impl Ending {
    /// The bytes to end the line's output with.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Ending::CrLf => b"\r\n",
            Ending::Lf | Ending::Eof => b"\n",
        }
    }
}

/// What a line holds.
#[derive(Debug, Clone, Copy)]
pub enum Body<'a> {
    /// The line's bytes, line ending removed.
    Text(&'a [u8]),
    /// The line was longer than the limit; only its length was kept.
    TooLarge {
        /// Bytes in the line, line ending excluded.
        bytes: usize,
    },
}

/// One input line.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// 1-based line number in the input.
    pub number: usize,
    /// Its content.
    pub body: Body<'a>,
    /// How it ended.
    pub ending: Ending,
}

/// Where a line read into a shared buffer stands, and what it was.
#[derive(Debug, Clone, Copy)]
struct Head {
    number: usize,
    /// Offset of the line's bytes in the buffer.
    start: usize,
    /// Bytes in the line (line ending excluded).
    bytes: usize,
    /// Whether the bytes are in the buffer (`false`: over the limit).
    kept: bool,
    ending: Ending,
}

impl Head {
    fn line(self, buffer: &[u8]) -> Line<'_> {
        Line {
            number: self.number,
            body: if self.kept {
                Body::Text(&buffer[self.start..self.start + self.bytes])
            } else {
                Body::TooLarge { bytes: self.bytes }
            },
            ending: self.ending,
        }
    }
}

/// Lines read into one buffer: a batch handed to a worker with a single
/// allocation for its text.
struct Batch {
    text: Vec<u8>,
    heads: Vec<Head>,
}

/// Splits a byte stream into [`Line`]s, holding at most `limit + 1` bytes of
/// any one line.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    number: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `inner`; a line longer than `limit` bytes (its ending
    /// excluded) becomes [`Body::TooLarge`].
    pub fn new(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            limit,
            number: 0,
        }
    }

    /// Appends the next line's bytes to `buffer` (nothing when it is over
    /// the limit) and says where they are; `None` at the end of the input.
    fn read_into(&mut self, buffer: &mut Vec<u8>) -> io::Result<Option<Head>> {
        let start = buffer.len();
        let (mut total, mut over, mut last, mut terminated, mut any) =
            (0usize, false, None, false, false);
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, newline) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            if take > 0 {
                last = Some(chunk[take - 1]);
            }
            total += take;
            // One byte over the limit is kept: it may be the `\r` of `\r\n`.
            if !over && total > self.limit.saturating_add(1) {
                over = true;
                buffer.truncate(start);
            }
            if !over {
                buffer.extend_from_slice(&chunk[..take]);
            }
            self.inner.consume(take + usize::from(newline));
            if newline {
                terminated = true;
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        let crlf = terminated && last == Some(b'\r');
        let bytes = total - usize::from(crlf);
        let kept = !over && bytes <= self.limit;
        buffer.truncate(if kept { start + bytes } else { start });
        Ok(Some(Head {
            number: self.number,
            start,
            bytes,
            kept,
            ending: match (terminated, crlf) {
                (false, _) => Ending::Eof,
                (true, true) => Ending::CrLf,
                (true, false) => Ending::Lf,
            },
        }))
    }

    /// The next batch of lines; empty at the end of the input.
    fn next_batch(&mut self) -> io::Result<Batch> {
        let mut batch = Batch {
            text: Vec::with_capacity(BATCH_BYTES),
            heads: Vec::with_capacity(BATCH_LINES),
        };
        while batch.heads.len() < BATCH_LINES && batch.text.len() < BATCH_BYTES {
            let Some(head) = self.read_into(&mut batch.text)? else {
                break;
            };
            batch.heads.push(head);
        }
        Ok(batch)
    }
}

/// What processing one line does: append its output (line endings
/// included) to the buffer, and say whether the line passed.
pub trait Process: Sync {
    /// Writes `line`'s output into `out`; `false` when the line failed.
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>) -> bool;
}

/// Reads every line of `input`, processes it with `process` on `threads`
/// threads and writes the outputs to `out` in input order. Returns whether
/// every line passed.
///
/// # Errors
///
/// Reading or writing failed (a closed pipe included: the caller decides
/// what that means).
pub fn run(
    input: Box<dyn BufRead + Send>,
    limit: usize,
    threads: usize,
    process: &dyn Process,
    out: &mut dyn Write,
) -> io::Result<bool> {
    let mut reader = LineReader::new(input, limit);
    if threads <= 1 {
        // One line buffer and one output buffer for the whole run.
        let mut all_ok = true;
        let (mut text, mut buffer) = (Vec::new(), Vec::new());
        loop {
            text.clear();
            let Some(head) = reader.read_into(&mut text)? else {
                return Ok(all_ok);
            };
            buffer.clear();
            all_ok &= process.line(&head.line(&text), &mut buffer);
            out.write_all(&buffer)?;
        }
    }
    parallel(reader, threads, process, out)
}

type Done = (Vec<u8>, bool);

/// The reader fills batches, the workers process them, and this thread
/// writes their outputs in the order the batches were read. Each batch's
/// result comes back on its own channel; those channels queue in read order
/// in a bounded channel, so at most `2 × threads` batches wait to be written
/// and the reader stops reading while they do.
fn parallel(
    mut reader: LineReader<Box<dyn BufRead + Send>>,
    threads: usize,
    process: &dyn Process,
    out: &mut dyn Write,
) -> io::Result<bool> {
    let (work_tx, work_rx) = sync_channel::<(Batch, SyncSender<Done>)>(threads);
    let (order_tx, order_rx) = sync_channel::<Receiver<Done>>(2 * threads);
    let work_rx = Mutex::new(work_rx);
    std::thread::scope(|scope| {
        // Owned by this closure: should a thread fail to start, returning
        // drops it and the workers already started stop waiting for work.
        let work_tx = work_tx;
        for _ in 0..threads {
            let work_rx = &work_rx;
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    loop {
                        // A poisoned lock means another worker panicked; the
                        // scope re-raises that panic, so this one just stops.
                        let Ok(next) = work_rx.lock().map(|rx| rx.recv()) else {
                            return;
                        };
                        let Ok((batch, reply)) = next else { return };
                        let mut buffer = Vec::new();
                        let mut all_ok = true;
                        for head in &batch.heads {
                            all_ok &= process.line(&head.line(&batch.text), &mut buffer);
                        }
                        // The writer only stops listening after an error of
                        // its own, which it reports.
                        let _ = reply.send((buffer, all_ok));
                    }
                })?;
        }
        let feeder = scope.spawn(move || -> io::Result<()> {
            loop {
                let batch = reader.next_batch()?;
                if batch.heads.is_empty() {
                    return Ok(());
                }
                let (reply, result) = sync_channel(1);
                // Either send fails only once the writer has stopped.
                if order_tx.send(result).is_err() || work_tx.send((batch, reply)).is_err() {
                    return Ok(());
                }
            }
        });
        let mut all_ok = true;
        for result in order_rx {
            let (buffer, ok) = result
                .recv()
                .map_err(|_| io::Error::other("a worker thread stopped"))?;
            all_ok &= ok;
            out.write_all(&buffer)?;
        }
        feeder
            .join()
            .map_err(|_| io::Error::other("the reading thread stopped"))??;
        Ok(all_ok)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(usize, String, Ending)> {
        let mut reader = LineReader::new(input, limit);
        let mut all = Vec::new();
        let mut text = Vec::new();
        while let Some(head) = reader.read_into(&mut text).unwrap() {
            let line = head.line(&text);
            let body = match line.body {
                Body::Text(t) => String::from_utf8(t.to_vec()).unwrap(),
                Body::TooLarge { bytes } => format!("<{bytes}>"),
            };
            all.push((line.number, body, line.ending));
        }
        all
    }

    #[test]
    fn endings_are_kept_and_long_lines_are_measured() {
        let got = lines(b"ab\r\n12345\nxy\r\n\r\nlast", 4);
        assert_eq!(
            got,
            vec![
                (1, "ab".to_owned(), Ending::CrLf),
                (2, "<5>".to_owned(), Ending::Lf),
                (3, "xy".to_owned(), Ending::CrLf),
                (4, String::new(), Ending::CrLf),
                (5, "last".to_owned(), Ending::Eof),
            ]
        );
        // Exactly at the limit, with and without `\r`.
        assert_eq!(lines(b"abcd\r\n", 4)[0].1, "abcd");
        assert_eq!(lines(b"abcde\r\n", 4)[0].1, "<5>");
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_through_small_buffers() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\nok\n");
        let reader = io::BufReader::with_capacity(16, input.as_slice());
        let mut reader = LineReader::new(reader, 10);
        let mut batch = reader.next_batch().unwrap();
        assert_eq!(batch.heads.len(), 2);
        let first = batch.heads[0].line(&batch.text);
        assert!(matches!(first.body, Body::TooLarge { bytes: 100_000 }));
        let second = batch.heads[1].line(&batch.text);
        assert!(matches!(second.body, Body::Text(b"ok")));
        assert_eq!(batch.text, b"ok", "the long line was never kept");
        batch = reader.next_batch().unwrap();
        assert!(batch.heads.is_empty());
    }
}
