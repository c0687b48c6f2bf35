//! JSON Lines in, lines out: the streaming every line-at-a-time subcommand
//! shares.
//!
//! Promises kept here so that no subcommand has to keep them itself:
//!
//! * a line ending is written back as it came (`\r\n` stays `\r\n`);
//! * a line over the size limit is skipped in bounded chunks, never held in
//!   memory, and reported in its place;
//! * a UTF-8 byte order mark at the start of an input is not part of its
//!   first line (RFC 8259 lets a parser ignore it; editors on Windows write
//!   one);
//! * several inputs are read one after another, as `cat` reads them, each
//!   line numbered within its own file;
//! * with several jobs the lines are processed in parallel batches while the
//!   output keeps the input's order and only a fixed number of batches is
//!   ever in flight;
//! * the command can be a co-process: when the input is a pipe or a terminal,
//!   the output is flushed (and a `--jobs` batch closed) whenever the input
//!   has nothing more buffered, that is before every read that may wait for
//!   the writer. A program that writes one line and waits for its answer
//!   gets it. A regular file never makes a read wait, so from a file the
//!   output is written in large blocks and batches stay full.

use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

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

/// Bytes read from the input at a time. A read from a pipe returns what the
/// writer has written so far, up to this.
const READ_BYTES: usize = 1 << 16;

/// Most threads `--jobs` may ask for: far beyond any machine's cores, and
/// low enough that their stacks' address space is never the limit.
const MAX_JOBS: u64 = 1024;

/// The byte order mark, as UTF-8.
const BOM: &[u8] = b"\xEF\xBB\xBF";

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
    /// JSON Lines files to read, one after another; `-` or none reads
    /// standard input. With several, each output line or message names its
    /// file, and line numbers count within each file.
    #[arg(value_name = "FILE")]
    pub input: Vec<PathBuf>,
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

    /// The inputs in order, each still to be opened; standard input for `-`
    /// or none.
    ///
    /// # Errors
    ///
    /// A named file does not exist or is a directory: nothing is read then,
    /// so a typo costs no partial output.
    pub fn inputs(&self) -> io::Result<Vec<Input>> {
        let named = self.input.len() > 1;
        if self.input.is_empty() {
            return Ok(vec![Input::stdin(None)]);
        }
        self.input
            .iter()
            .map(|path| {
                let name = named.then(|| path.display().to_string());
                if path.as_os_str() == "-" {
                    return Ok(Input::stdin(name));
                }
                let metadata = std::fs::metadata(path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
                if metadata.is_dir() {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{}: is a directory", path.display()),
                    ));
                }
                Ok(Input {
                    name,
                    source: Source::File(path.clone()),
                    size: metadata.is_file().then_some(metadata.len()),
                })
            })
            .collect()
    }
}

/// One input: a file or standard input.
#[derive(Debug)]
pub struct Input {
    /// The name output lines and messages give it: set only when several
    /// inputs were named.
    name: Option<String>,
    source: Source,
    /// Its length when it is a regular file (for the progress display).
    size: Option<u64>,
}

#[derive(Debug)]
enum Source {
    Stdin,
    File(PathBuf),
}

impl Input {
    /// The name output lines and messages give it (set only when several
    /// inputs were named).
    #[allow(
        dead_code,
        reason = "`check --stream` reads it; the normalize example shares this file"
    )]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn stdin(name: Option<String>) -> Self {
        Input {
            name,
            source: Source::Stdin,
            size: None,
        }
    }

    /// Opens it for reading, and tells whether a read may wait for a writer
    /// (anything but a regular file).
    fn open(&self) -> io::Result<(Box<dyn Read + Send>, bool)> {
        match &self.source {
            Source::File(path) => {
                let file = std::fs::File::open(path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
                let interactive = !file.metadata().is_ok_and(|m| m.is_file());
                Ok((Box::new(file), interactive))
            }
            Source::Stdin => Ok((Box::new(io::stdin()), !stdin_is_file())),
        }
    }
}

/// Whether standard input is a regular file (`< file`), read without ever
/// waiting for a writer.
#[cfg(unix)]
fn stdin_is_file() -> bool {
    use std::os::fd::AsFd;
    io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .map(std::fs::File::from)
        .and_then(|file| file.metadata().ok())
        .is_some_and(|m| m.is_file())
}

/// Elsewhere standard input is taken to be interactive: flushing more often
/// than needed costs speed, never an answer.
#[cfg(not(unix))]
fn stdin_is_file() -> bool {
    false
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
    /// The line's bytes, line ending (and a leading byte order mark)
    /// removed.
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
    /// 1-based line number in its input.
    pub number: usize,
    /// The input's name, when several were given.
    pub file: Option<&'a str>,
    /// Its content.
    pub body: Body<'a>,
    /// How it ended.
    pub ending: Ending,
}

impl Line<'_> {
    /// Where the line is, for messages: `line 3`, or `a.jsonl: line 3` when
    /// several inputs were given.
    pub fn place(&self) -> String {
        match self.file {
            Some(file) => format!("{file}: line {}", self.number),
            None => format!("line {}", self.number),
        }
    }

    /// The line as text, or why it cannot hold a JSON value: longer than
    /// `options` allow, not UTF-8, or blank.
    ///
    /// A blank line (empty, or only JSON whitespace) is an error line in
    /// every subcommand: a JSON Lines record is one JSON value, and a blank
    /// line holds none. (Arguments sent as empty *text* inside a call mean
    /// "no arguments"; a line of a file is not such a text.)
    ///
    /// # Errors
    ///
    /// The message, without the line's place.
    pub fn text(&self, options: &toolargs::normalizer::Options) -> Result<&str, String> {
        match self.body {
            Body::Text(bytes) => {
                let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
                if text
                    .bytes()
                    .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                {
                    return Err(
                        "a blank line: each line of JSON Lines holds one JSON value".to_owned()
                    );
                }
                Ok(text)
            }
            Body::TooLarge { bytes } => Err(match options.check_size(bytes) {
                Err(e) => e.to_string(),
                Ok(()) => "longer than the limit".to_owned(),
            }),
        }
    }
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
    fn line<'a>(self, buffer: &'a [u8], file: Option<&'a str>) -> Line<'a> {
        Line {
            number: self.number,
            file,
            body: if self.kept {
                Body::Text(&buffer[self.start..self.start + self.bytes])
            } else {
                Body::TooLarge { bytes: self.bytes }
            },
            ending: self.ending,
        }
    }
}

/// Lines of one input read into one buffer: a batch handed to a worker
/// with a single allocation for its text.
struct Batch {
    /// Index of the input the lines come from.
    input: usize,
    text: Vec<u8>,
    heads: Vec<Head>,
}

/// A reader that can tell, without waiting, whether it holds unread bytes.
pub trait Buffered: BufRead {
    /// Whether the next read is served from memory (no wait for a writer).
    fn has_buffered(&self) -> bool;
}

impl<R: Read> Buffered for BufReader<R> {
    fn has_buffered(&self) -> bool {
        !self.buffer().is_empty()
    }
}

impl Buffered for &[u8] {
    fn has_buffered(&self) -> bool {
        !self.is_empty()
    }
}

/// Splits a byte stream into [`Line`]s, holding at most `limit + 1` bytes of
/// any one line.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    number: usize,
    /// Bytes consumed so far, line endings included.
    consumed: u64,
}

impl<R: Buffered> LineReader<R> {
    /// Lines of `inner`; a line longer than `limit` bytes (its ending
    /// excluded) becomes [`Body::TooLarge`].
    pub fn new(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            limit,
            number: 0,
            consumed: 0,
        }
    }

    /// Whether the next line can be read without waiting for a writer.
    fn has_buffered(&self) -> bool {
        self.inner.has_buffered()
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
            // One byte over the limit is kept: it may be the `\r` of `\r\n`;
            // so are the three of a byte order mark that starts the input.
            let slack = if self.number == 0 { 1 + BOM.len() } else { 1 };
            if !over && total > self.limit.saturating_add(slack) {
                over = true;
                buffer.truncate(start);
            }
            if !over {
                buffer.extend_from_slice(&chunk[..take]);
            }
            self.inner.consume(take + usize::from(newline));
            self.consumed += (take + usize::from(newline)) as u64;
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
        let mut bytes = total - usize::from(crlf);
        if self.number == 1 && !over && buffer[start..].starts_with(BOM) {
            buffer.drain(start..start + BOM.len());
            bytes -= BOM.len();
        }
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

    /// The next batch of lines of input `input`; empty at its end. With
    /// `interactive`, the batch also closes when the input has nothing more
    /// buffered, so no line waits in a batch for lines not yet written.
    fn next_batch(&mut self, input: usize, interactive: bool) -> io::Result<Batch> {
        let mut batch = Batch {
            input,
            text: Vec::with_capacity(if interactive { 0 } else { BATCH_BYTES }),
            heads: Vec::with_capacity(if interactive { 0 } else { BATCH_LINES }),
        };
        while batch.heads.len() < BATCH_LINES && batch.text.len() < BATCH_BYTES {
            if interactive && !batch.heads.is_empty() && !self.has_buffered() {
                break;
            }
            let Some(head) = self.read_into(&mut batch.text)? else {
                break;
            };
            batch.heads.push(head);
        }
        Ok(batch)
    }
}

/// What a run counted: the subcommands fill it in line by line, the
/// summary and the exit status read it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Lines read.
    pub lines: u64,
    /// Calls checked (`check`).
    pub calls: u64,
    /// Lines or calls that passed with at least one repair.
    pub repaired: u64,
    /// Calls rejected (`check`).
    pub rejected: u64,
    /// Lines that could not be processed at all (not JSON, not UTF-8,
    /// blank, too large, not a case, a schema that does not compile).
    pub errors: u64,
}

impl Tally {
    /// Whether every line and call passed.
    pub fn all_ok(&self) -> bool {
        self.rejected == 0 && self.errors == 0
    }

    /// Counts `other` in too.
    pub fn add(&mut self, other: Tally) {
        self.lines += other.lines;
        self.calls += other.calls;
        self.repaired += other.repaired;
        self.rejected += other.rejected;
        self.errors += other.errors;
    }
}

/// What processing one line does: append its output (line endings
/// included) to the buffer, and count what it found.
pub trait Process: Sync {
    /// Writes `line`'s output into `out` and counts it in `tally` (the line
    /// itself is counted by the caller).
    fn line(&self, line: &Line<'_>, out: &mut Vec<u8>, tally: &mut Tally);
}

/// Reads every line of `inputs`, in order, processes it with `process` on
/// `threads` threads and writes the outputs to `out` in input order.
/// Returns what was counted.
///
/// # Errors
///
/// Opening, reading or writing failed (a closed pipe included: the caller
/// decides what that means).
pub fn run(
    inputs: &[Input],
    limit: usize,
    threads: usize,
    process: &dyn Process,
    out: &mut dyn Write,
) -> io::Result<Tally> {
    let mut progress = Progress::new(inputs);
    if threads <= 1 {
        return sequential(inputs, limit, process, out, &mut progress);
    }
    parallel(inputs, limit, threads, process, out, &mut progress)
}

fn sequential(
    inputs: &[Input],
    limit: usize,
    process: &dyn Process,
    out: &mut dyn Write,
    progress: &mut Progress,
) -> io::Result<Tally> {
    let mut tally = Tally::default();
    // One line buffer and one output buffer for the whole run.
    let (mut text, mut buffer) = (Vec::new(), Vec::new());
    for input in inputs {
        let (read, interactive) = input.open()?;
        let mut reader = LineReader::new(BufReader::with_capacity(READ_BYTES, read), limit);
        loop {
            text.clear();
            let Some(head) = reader.read_into(&mut text)? else {
                break;
            };
            buffer.clear();
            tally.lines += 1;
            process.line(
                &head.line(&text, input.name.as_deref()),
                &mut buffer,
                &mut tally,
            );
            out.write_all(&buffer)?;
            if interactive && !reader.has_buffered() {
                out.flush()?;
            }
            progress.advance(reader.consumed, tally.lines);
        }
        progress.finish_input(reader.consumed);
    }
    progress.clear();
    Ok(tally)
}

/// A batch's outputs and counts.
type Done = (Vec<u8>, Tally);

/// The reader fills batches, the workers process them, and this thread
/// writes their outputs in the order the batches were read. Each batch's
/// result comes back on its own channel; those channels queue in read order
/// in a bounded channel, so at most `2 × threads` batches wait to be written
/// and the reader stops reading while they do. A batch closed because an
/// interactive input had nothing more to give is flushed once written.
fn parallel(
    inputs: &[Input],
    limit: usize,
    threads: usize,
    process: &dyn Process,
    out: &mut dyn Write,
    progress: &mut Progress,
) -> io::Result<Tally> {
    let (work_tx, work_rx) = sync_channel::<(Batch, SyncSender<Done>)>(threads);
    let (order_tx, order_rx) = sync_channel::<(Receiver<Done>, bool)>(2 * threads);
    let work_rx = Mutex::new(work_rx);
    let consumed = std::sync::atomic::AtomicU64::new(0);
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
                        let file = inputs[batch.input].name.as_deref();
                        let mut buffer = Vec::new();
                        let mut tally = Tally::default();
                        for head in &batch.heads {
                            tally.lines += 1;
                            process.line(&head.line(&batch.text, file), &mut buffer, &mut tally);
                        }
                        // The writer only stops listening after an error of
                        // its own, which it reports.
                        let _ = reply.send((buffer, tally));
                    }
                })?;
        }
        let consumed = &consumed;
        let feeder = scope.spawn(move || -> io::Result<()> {
            let mut before = 0;
            for (index, input) in inputs.iter().enumerate() {
                let (read, interactive) = input.open()?;
                let mut reader = LineReader::new(BufReader::with_capacity(READ_BYTES, read), limit);
                loop {
                    let batch = reader.next_batch(index, interactive)?;
                    consumed.store(
                        before + reader.consumed,
                        std::sync::atomic::Ordering::Relaxed,
                    );
                    if batch.heads.is_empty() {
                        break;
                    }
                    let flush = interactive && !reader.has_buffered();
                    let (reply, result) = sync_channel(1);
                    // Either send fails only once the writer has stopped.
                    if order_tx.send((result, flush)).is_err()
                        || work_tx.send((batch, reply)).is_err()
                    {
                        return Ok(());
                    }
                }
                before += reader.consumed;
            }
            Ok(())
        });
        let mut tally = Tally::default();
        for (result, flush) in order_rx {
            let (buffer, counted) = result
                .recv()
                .map_err(|_| io::Error::other("a worker thread stopped"))?;
            tally.add(counted);
            out.write_all(&buffer)?;
            if flush {
                out.flush()?;
            }
            progress.advance_total(
                consumed.load(std::sync::atomic::Ordering::Relaxed),
                tally.lines,
            );
        }
        feeder
            .join()
            .map_err(|_| io::Error::other("the reading thread stopped"))??;
        progress.clear();
        Ok(tally)
    })
}

/// A one-line progress display on standard error, for a person waiting on
/// a large file: only when standard error is a terminal (never in a pipe or
/// a log) and the inputs are regular files of at least [`Progress::MIN_BYTES`]
/// in all. Redrawn at most a few times a second, erased at the end.
struct Progress {
    /// Bytes of all inputs together; `None` when no display is shown.
    total: Option<u64>,
    /// Bytes of the inputs already read to their end.
    done: u64,
    last: Instant,
    drawn: bool,
}

impl Progress {
    /// Inputs smaller than this take a few seconds at most.
    const MIN_BYTES: u64 = 64 << 20;
    const EVERY: Duration = Duration::from_millis(250);

    fn new(inputs: &[Input]) -> Self {
        let sizes: Option<u64> = inputs.iter().map(|i| i.size).sum();
        Progress {
            total: sizes.filter(|&total| Self::shown(total, io::stderr().is_terminal())),
            done: 0,
            last: Instant::now(),
            drawn: false,
        }
    }

    /// Whether a display is shown for inputs of `total` bytes.
    fn shown(total: u64, terminal: bool) -> bool {
        terminal && total >= Self::MIN_BYTES
    }

    /// `consumed` bytes of the current input read, `lines` lines in all.
    fn advance(&mut self, consumed: u64, lines: u64) {
        self.advance_total(self.done + consumed, lines);
    }

    fn advance_total(&mut self, read: u64, lines: u64) {
        let Some(total) = self.total else { return };
        if self.last.elapsed() < Self::EVERY {
            return;
        }
        self.last = Instant::now();
        self.drawn = true;
        let percent = read.saturating_mul(100) / total.max(1);
        eprint!(
            "\r{percent:>3}% of {} MiB, {lines} lines\x1b[K",
            total >> 20
        );
    }

    fn finish_input(&mut self, consumed: u64) {
        self.done += consumed;
    }

    fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[K");
            self.drawn = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(usize, String, Ending)> {
        let mut reader = LineReader::new(input, limit);
        let mut all = Vec::new();
        let mut text = Vec::new();
        while let Some(head) = reader.read_into(&mut text).unwrap() {
            let line = head.line(&text, None);
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
    fn a_byte_order_mark_starts_no_line_but_the_first() {
        let got = lines(b"\xEF\xBB\xBF{}\r\n\xEF\xBB\xBF{}\n", 2);
        assert_eq!(got[0], (1, "{}".to_owned(), Ending::CrLf));
        // Later in the input it is the line's own text (and here too long).
        assert_eq!(got[1].1, "<5>");
        // A mark alone is an empty first line.
        assert_eq!(lines(b"\xEF\xBB\xBF", 4)[0].1, "");
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_through_small_buffers() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\nok\n");
        let reader = io::BufReader::with_capacity(16, input.as_slice());
        let mut reader = LineReader::new(reader, 10);
        let mut batch = reader.next_batch(0, false).unwrap();
        assert_eq!(batch.heads.len(), 2);
        let first = batch.heads[0].line(&batch.text, None);
        assert!(matches!(first.body, Body::TooLarge { bytes: 100_000 }));
        let second = batch.heads[1].line(&batch.text, None);
        assert!(matches!(second.body, Body::Text(b"ok")));
        assert_eq!(batch.text, b"ok", "the long line was never kept");
        batch = reader.next_batch(0, false).unwrap();
        assert!(batch.heads.is_empty());
    }

    #[test]
    fn an_interactive_batch_closes_when_nothing_more_is_buffered() {
        // Three lines, read 8 bytes at a time: the buffer empties after
        // the first line, so an interactive batch holds that one only.
        let input = b"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n";
        let reader = io::BufReader::with_capacity(8, &input[..]);
        let mut reader = LineReader::new(reader, 100);
        assert_eq!(reader.next_batch(0, true).unwrap().heads.len(), 1);
        let reader = io::BufReader::with_capacity(8, &input[..]);
        let mut reader = LineReader::new(reader, 100);
        assert_eq!(reader.next_batch(0, false).unwrap().heads.len(), 3);
    }

    #[test]
    fn progress_is_shown_on_a_terminal_for_large_inputs_only() {
        assert!(Progress::shown(Progress::MIN_BYTES, true));
        assert!(!Progress::shown(Progress::MIN_BYTES, false));
        assert!(!Progress::shown(Progress::MIN_BYTES - 1, true));
    }

    #[test]
    fn a_blank_line_holds_no_value() {
        let options = toolargs::normalizer::Options::default();
        for blank in [&b""[..], b"  ", b"\t \r"] {
            let line = Line {
                number: 1,
                file: None,
                body: Body::Text(blank),
                ending: Ending::Lf,
            };
            assert!(line.text(&options).unwrap_err().contains("blank line"));
        }
        let line = Line {
            number: 7,
            file: Some("a.jsonl"),
            body: Body::Text(b" {} "),
            ending: Ending::Lf,
        };
        assert_eq!(line.text(&options), Ok(" {} "));
        assert_eq!(line.place(), "a.jsonl: line 7");
    }
}
