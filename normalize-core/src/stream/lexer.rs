//! An incremental JSON lexer: bytes in any split, each byte looked at once.
//!
//! It keeps the whole text (a call that went wrong is answered by the real
//! entry point run on it) and a small state: where in a token it stopped, and the kinds of the
//! open containers. It reports structure to a [`Sink`] as it completes:
//! a container opened or closed, a key or a scalar complete (with its byte
//! range in the text). It checks RFC 8259's grammar strictly (what
//! `serde_json` accepts), so the first byte that no continuation can make
//! valid is found at once; the error itself is then worded by `serde_json`.

use crate::byte_scan::holds_any;

/// What the lexer tells its owner as the text grows.
pub(crate) trait Sink {
    /// `{` or `[` at byte `at`, opening a value.
    fn open(&mut self, at: usize, object: bool);
    /// A key complete (the quoted string).
    fn key(&mut self, token: Token<'_>);
    /// A scalar value complete (its JSON text).
    fn scalar(&mut self, token: Token<'_>);
    /// `}` or `]` at byte `at` of the text so far (`whole`, when every
    /// fragment came as text), closing the innermost container.
    fn close(&mut self, at: usize, whole: Option<&str>);
}

/// A complete key or scalar: `text[start..end]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    /// The text so far.
    pub(crate) text: &'a [u8],
    /// The text again when every fragment came as text (so a token needs
    /// no UTF-8 check).
    pub(crate) whole: Option<&'a str>,
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// Whether a string token holds a backslash escape.
    pub(crate) escaped: bool,
}

impl<'a> Token<'a> {
    /// The token's bytes.
    pub(crate) fn bytes(&self) -> &'a [u8] {
        &self.text[self.start..self.end]
    }

    /// The token as text, when the text is known to be UTF-8.
    pub(crate) fn known(&self) -> Option<&'a str> {
        self.whole.and_then(|whole| whole.get(self.start..self.end))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

impl Num {
    fn complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A value must come (the root, after `:`, after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrClose,
    /// After `{`: a key or `}`.
    KeyOrClose,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or a closer (or, at the root, only whitespace).
    After,
    /// Inside a string; `escape` is [`PLAIN`] (no escape), [`BACKSLASH`]
    /// (after `\`), [`HEX`] + the hex digits of a `\u` escape read so far,
    /// [`LOW_BACKSLASH`] or [`LOW_U`] (a high surrogate read: its low half
    /// must follow), or [`LOW_HEX`] + the digits of that low half read so
    /// far; `unit` is the value of the hex digits read.
    Str {
        key: bool,
        escape: u8,
        unit: u16,
    },
    Num(Num),
    /// Inside `true`, `false` or `null`: the word (an index into [`WORDS`],
    /// which keeps the state a few bytes, copied on every fragment) and
    /// how much of it is read.
    Lit {
        word: u8,
        read: u8,
    },
    /// A byte no continuation can make valid was found at `at`.
    Broken {
        at: usize,
    },
}

/// The text received so far: a `String` while every fragment came as text
/// (so the end needs no UTF-8 check), bytes once a fragment came as bytes.
#[derive(Debug)]
enum Text {
    Str(String),
    Bytes(Vec<u8>),
}

impl Text {
    fn bytes(&self) -> &[u8] {
        match self {
            Text::Str(text) => text.as_bytes(),
            Text::Bytes(bytes) => bytes,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Text::Str(text) => Some(text),
            Text::Bytes(_) => None,
        }
    }

    #[inline]
    fn push_str(&mut self, fragment: &str) {
        match self {
            // A one-byte fragment is one ASCII character: pushed without a
            // call to copy memory (one-byte deltas are common).
            // (The `is_ascii` test, always true, lets the compiler drop
            // `String::push`'s encoding of wider characters.)
            Text::Str(text) if fragment.len() == 1 && fragment.as_bytes()[0].is_ascii() => {
                text.push(char::from(fragment.as_bytes()[0]))
            }
            Text::Str(text) => text.push_str(fragment),
            Text::Bytes(bytes) => bytes.extend_from_slice(fragment.as_bytes()),
        }
    }

    fn push_bytes(&mut self, fragment: &[u8]) {
        if let Text::Str(text) = self {
            *self = Text::Bytes(std::mem::take(text).into_bytes());
        }
        if let Text::Bytes(bytes) = self {
            bytes.extend_from_slice(fragment);
        }
    }
}

/// Text buffers kept longer than this are not reused (a thread keeps one).
const SPARE_TEXT_LIMIT: usize = 1 << 20;

thread_local! {
    /// The text buffer of the last stream this thread dropped: a stream's
    /// buffer grows by doubling, and large allocations made and freed per
    /// call cost the allocator more than the reading costs (they also
    /// empty its caches of small blocks).
    static SPARE_TEXT: std::cell::Cell<Option<String>> = const { std::cell::Cell::new(None) };
}

/// An empty text buffer: the spare one, or a new one most calls fit in.
fn spare_text() -> String {
    match SPARE_TEXT.with(std::cell::Cell::take) {
        Some(mut text) => {
            text.clear();
            text
        }
        None => String::with_capacity(512),
    }
}

impl Drop for Lexer {
    fn drop(&mut self) {
        let text = match std::mem::replace(&mut self.text, Text::Str(String::new())) {
            Text::Str(text) => text,
            Text::Bytes(mut bytes) => {
                bytes.clear();
                String::from_utf8(bytes).unwrap_or_default()
            }
        };
        if text.capacity() <= SPARE_TEXT_LIMIT {
            SPARE_TEXT.with(|spare| spare.set(Some(text)));
        }
    }
}

/// A fragment of the arguments: text, or bytes that may split a character.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fragment<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
}

impl<'a> Fragment<'a> {
    #[inline]
    pub(crate) fn bytes(self) -> &'a [u8] {
        match self {
            Fragment::Str(text) => text.as_bytes(),
            Fragment::Bytes(bytes) => bytes,
        }
    }

    #[inline]
    pub(crate) fn len(self) -> usize {
        self.bytes().len()
    }
}

/// [`State::Str`]'s `escape`: no escape pending.
const PLAIN: u8 = 0;
/// After a backslash.
const BACKSLASH: u8 = 1;
/// After `\u`, plus the hex digits read (up to 3).
const HEX: u8 = 2;
/// After a `\u` escape of a high surrogate (D800-DBFF): `serde_json`
/// refuses it unless `\u` and a low surrogate (DC00-DFFF) follow at once.
const LOW_BACKSLASH: u8 = 6;
/// After a high surrogate and `\`.
const LOW_U: u8 = 7;
/// After a high surrogate and `\u`, plus the hex digits read (up to 3).
const LOW_HEX: u8 = 8;

/// The literals, as [`State::Lit`] names them.
const WORDS: [&[u8]; 3] = [b"true", b"false", b"null"];

/// Lexer state and the text received so far.
#[derive(Debug)]
pub(crate) struct Lexer {
    text: Text,
    /// Bytes looked at so far (`text[..scanned]`).
    scanned: usize,
    state: State,
    /// Open containers: `true` for an object.
    open: Vec<bool>,
    /// Start of the token being read (string, number, literal).
    token: usize,
    /// Whether the string being read holds an escape.
    escaped: bool,
    /// Whether a `\u` escape was read, or a string value whose content
    /// starts like JSON: with the text's `&`s, what normalization needs to
    /// know, gathered as the text is read (see [`Lexer::may_need_repair`]).
    repairable: bool,
}

impl Lexer {
    pub(crate) fn new() -> Self {
        Lexer {
            text: Text::Str(spare_text()),
            scanned: 0,
            state: State::Value,
            open: Vec::new(),
            token: 0,
            escaped: false,
            repairable: false,
        }
    }

    /// [`crate::json_text::inspect`]'s `may_need_repair`, without reading
    /// the structure again: the text's `&`s are searched (one vector search
    /// when there are none), the rest was noted as the text was read. Keys
    /// that start like JSON are not noted, as normalization never decodes a
    /// key.
    pub(crate) fn may_need_repair(&self) -> bool {
        self.repairable || crate::entities::has_reference_candidate(self.text.bytes())
    }

    /// The text received so far.
    pub(crate) fn text(&self) -> &[u8] {
        self.text.bytes()
    }

    /// The text received so far, when every fragment came as text (else
    /// `Err` with the bytes).
    pub(crate) fn text_str(&self) -> Result<&str, &[u8]> {
        match &self.text {
            Text::Str(text) => Ok(text),
            Text::Bytes(bytes) => Err(bytes),
        }
    }

    /// Where the text first went wrong, if it did.
    pub(crate) fn broken(&self) -> Option<usize> {
        match self.state {
            State::Broken { at } => Some(at),
            _ => None,
        }
    }

    /// Appends bytes without looking at them (once nothing more is to be
    /// learned from them).
    #[inline]
    pub(crate) fn append(&mut self, fragment: Fragment<'_>) {
        match fragment {
            Fragment::Str(text) => self.text.push_str(text),
            Fragment::Bytes(bytes) => self.text.push_bytes(bytes),
        }
    }

    /// Whether the lexer stopped inside a string value (not a key), and
    /// where that string started.
    pub(crate) fn open_string(&self) -> Option<(usize, bool)> {
        match self.state {
            State::Str { key, .. } => Some((self.token, key)),
            _ => None,
        }
    }

    /// Whether the string being read has had a backslash escape so far.
    pub(crate) fn open_string_escaped(&self) -> bool {
        self.escaped
    }

    /// Appends `fragment` and reads it when it only extends the string
    /// being read (no quote, backslash or control byte, no escape pending);
    /// otherwise leaves everything as it was. Whether it did.
    #[inline(always)]
    pub(crate) fn extend_string(&mut self, fragment: Fragment<'_>) -> bool {
        let plain = matches!(self.state, State::Str { escape: PLAIN, .. })
            && self.scanned == self.text.bytes().len()
            && !fragment_holds_special(fragment.bytes());
        if plain {
            self.append(fragment);
            self.scanned += fragment.len();
        }
        plain
    }

    /// Appends `fragment` and reads it, reporting to `sink`. Stops at the
    /// first byte no continuation can make valid (see [`Lexer::broken`]).
    /// A fragment that only extends the string being read is cheaper
    /// through [`Lexer::extend_string`], which the caller tries first.
    #[inline]
    pub(crate) fn feed(&mut self, fragment: Fragment<'_>, sink: &mut impl Sink) {
        self.append(fragment);
        self.run(sink);
    }

    /// The text is complete: a number at the root ends here.
    pub(crate) fn finish(&mut self, sink: &mut impl Sink) {
        if let State::Num(num) = self.state
            && num.complete()
            && self.open.is_empty()
        {
            let text = self.text.bytes();
            sink.scalar(Token {
                text,
                whole: self.text.as_str(),
                start: self.token,
                end: text.len(),
                escaped: false,
            });
            self.state = State::After;
        }
    }

    #[inline(never)]
    fn run(&mut self, sink: &mut impl Sink) {
        let text = self.text.bytes();
        let whole = self.text.as_str();
        let mut i = self.scanned;
        let mut state = self.state;
        let token = |start, end, escaped| Token {
            text,
            whole,
            start,
            end,
            escaped,
        };
        while i < text.len() {
            let byte = text[i];
            state = match state {
                State::Broken { .. } => break,
                State::Str {
                    key, escape: PLAIN, ..
                } => {
                    // Skip to the next quote, backslash or control
                    // character (not allowed raw in a string) in one pass.
                    match find_special(&text[i..]) {
                        None => {
                            i = text.len();
                            continue;
                        }
                        Some(k) => {
                            i += k;
                            match text[i] {
                                b'\\' => {
                                    self.escaped = true;
                                    State::Str {
                                        key,
                                        escape: BACKSLASH,
                                        unit: 0,
                                    }
                                }
                                b'"' if key => {
                                    sink.key(token(self.token, i + 1, self.escaped));
                                    State::Colon
                                }
                                b'"' => {
                                    self.repairable |= crate::json_text::starts_like_json(
                                        &text[self.token + 1..i],
                                    );
                                    sink.scalar(token(self.token, i + 1, self.escaped));
                                    State::After
                                }
                                _ => State::Broken { at: i },
                            }
                        }
                    }
                }
                State::Str {
                    key,
                    escape: BACKSLASH,
                    ..
                } => match byte {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => State::Str {
                        key,
                        escape: PLAIN,
                        unit: 0,
                    },
                    b'u' => {
                        self.repairable = true;
                        State::Str {
                            key,
                            escape: HEX,
                            unit: 0,
                        }
                    }
                    _ => State::Broken { at: i },
                },
                // The low half of a surrogate pair must follow its high half
                // at once (`serde_json` refuses a lone one): its `\u`.
                State::Str {
                    key,
                    escape: LOW_BACKSLASH,
                    ..
                } if byte == b'\\' => State::Str {
                    key,
                    escape: LOW_U,
                    unit: 0,
                },
                State::Str {
                    key, escape: LOW_U, ..
                } if byte == b'u' => State::Str {
                    key,
                    escape: LOW_HEX,
                    unit: 0,
                },
                State::Str {
                    escape: LOW_BACKSLASH | LOW_U,
                    ..
                } => State::Broken { at: i },
                State::Str { key, escape, unit } => match hex_value(byte) {
                    // The last digit: the escape is whole. A high
                    // surrogate awaits its low half; a low surrogate is
                    // one only there.
                    Some(digit) if escape == HEX + 3 || escape == LOW_HEX + 3 => {
                        let unit = unit << 4 | digit;
                        let low = (0xDC00..=0xDFFF).contains(&unit);
                        match (escape == LOW_HEX + 3, low) {
                            (false, false) if (0xD800..=0xDBFF).contains(&unit) => State::Str {
                                key,
                                escape: LOW_BACKSLASH,
                                unit: 0,
                            },
                            (false, false) | (true, true) => State::Str {
                                key,
                                escape: PLAIN,
                                unit: 0,
                            },
                            _ => State::Broken { at: i },
                        }
                    }
                    Some(digit) => State::Str {
                        key,
                        escape: escape + 1,
                        unit: unit << 4 | digit,
                    },
                    None => State::Broken { at: i },
                },
                State::Num(num) => match step_number(num, byte) {
                    Some(next) => State::Num(next),
                    None if num.complete() => {
                        sink.scalar(token(self.token, i, false));
                        // The byte ends the number; read it as what follows.
                        state = State::After;
                        continue;
                    }
                    None => State::Broken { at: i },
                },
                State::Lit { word, read } => {
                    let spelled = WORDS.get(usize::from(word)).copied().unwrap_or_default();
                    if spelled.get(usize::from(read)) == Some(&byte) {
                        if usize::from(read) + 1 == spelled.len() {
                            sink.scalar(token(self.token, i + 1, false));
                            State::After
                        } else {
                            State::Lit {
                                word,
                                read: read + 1,
                            }
                        }
                    } else {
                        State::Broken { at: i }
                    }
                }
                _ if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') => state,
                State::Value | State::ValueOrClose => {
                    if byte == b']' && state == State::ValueOrClose {
                        self.open.pop();
                        sink.close(i, whole);
                        State::After
                    } else {
                        self.token = i;
                        match byte {
                            b'{' => {
                                self.open.push(true);
                                sink.open(i, true);
                                State::KeyOrClose
                            }
                            b'[' => {
                                self.open.push(false);
                                sink.open(i, false);
                                State::ValueOrClose
                            }
                            b'"' => {
                                self.escaped = false;
                                State::Str {
                                    key: false,
                                    escape: PLAIN,
                                    unit: 0,
                                }
                            }
                            b'-' => State::Num(Num::Minus),
                            b'0' => State::Num(Num::Zero),
                            b'1'..=b'9' => State::Num(Num::Int),
                            b't' => State::Lit { word: 0, read: 1 },
                            b'f' => State::Lit { word: 1, read: 1 },
                            b'n' => State::Lit { word: 2, read: 1 },
                            _ => State::Broken { at: i },
                        }
                    }
                }
                State::KeyOrClose | State::Key => match byte {
                    b'"' => {
                        self.token = i;
                        self.escaped = false;
                        State::Str {
                            key: true,
                            escape: PLAIN,
                            unit: 0,
                        }
                    }
                    b'}' if state == State::KeyOrClose => {
                        self.open.pop();
                        sink.close(i, whole);
                        State::After
                    }
                    _ => State::Broken { at: i },
                },
                State::Colon => match byte {
                    b':' => State::Value,
                    _ => State::Broken { at: i },
                },
                State::After => match (byte, self.open.last()) {
                    (b',', Some(true)) => State::Key,
                    (b',', Some(false)) => State::Value,
                    (b'}', Some(true)) | (b']', Some(false)) => {
                        self.open.pop();
                        sink.close(i, whole);
                        State::After
                    }
                    _ => State::Broken { at: i },
                },
            };
            if let State::Broken { .. } = state {
                break;
            }
            i += 1;
        }
        self.scanned = i.min(text.len());
        self.state = state;
    }
}

/// Whether `byte` ends plain string content: `"`, `\\`, or a control
/// character (below U+0020).
#[inline(always)]
fn is_special(byte: u8) -> bool {
    (byte == b'"') | (byte == b'\\') | (byte < 0x20)
}

/// Whether `bytes` holds a byte that ends plain string content, tested
/// whole ([`holds_any`]): about a third of the instructions a word at a
/// time costs.
#[inline(always)]
fn holds_special(bytes: &[u8]) -> bool {
    holds_any(bytes, is_special)
}

/// [`holds_special`] on fewer than [`WORDS_TEST`] bytes: from 8 on, two
/// words that overlap cover them (whether a word holds one is exact, only
/// where in it is not), shorter ones byte by byte.
#[inline(always)]
fn holds_special_short(bytes: &[u8]) -> bool {
    match (bytes, bytes) {
        ([a, b, c, d, e, f, g, h, ..], [.., i, j, k, l, m, n, o, p]) => {
            let first = u64::from_le_bytes([*a, *b, *c, *d, *e, *f, *g, *h]);
            let last = u64::from_le_bytes([*i, *j, *k, *l, *m, *n, *o, *p]);
            special_bytes(first) | special_bytes(last) != 0
        }
        _ => holds_special(bytes),
    }
}

/// Fragments shorter than this are tested by [`holds_special_short`] (the
/// compared-whole test costs more to set up than one or two words).
const WORDS_TEST: usize = 16;

/// Fragments up to this long are tested whole by [`holds_special`]; a
/// longer one is searched with an early exit, so that a fragment which
/// ends the string is not read to its end twice.
const WHOLE_TEST: usize = 256;

/// Whether `fragment` holds a byte that ends plain string content, by the
/// test that costs least at its length: one byte (the common one-byte
/// delta) compared alone, no test to set up.
#[inline(always)]
fn fragment_holds_special(fragment: &[u8]) -> bool {
    if let [only] = fragment {
        is_special(*only)
    } else if fragment.len() < WORDS_TEST {
        holds_special_short(fragment)
    } else if fragment.len() <= WHOLE_TEST {
        holds_special(fragment)
    } else {
        find_special(fragment).is_some()
    }
}

/// The first byte of `rest` that ends plain string content.
#[inline]
fn find_special(rest: &[u8]) -> Option<usize> {
    if rest.len() >= HEAD + LONG {
        return find_special_long(rest);
    }
    find_special_in_words(rest)
}

/// [`find_special`], a word at a time.
#[inline]
fn find_special_in_words(rest: &[u8]) -> Option<usize> {
    let mut words = rest.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        // Spelled out rather than `try_into` (whose error path is never
        // taken): measured, 2% fewer instructions for the bench's large
        // call in 64-byte deltas.
        let word = [
            word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
        ];
        let found = special_bytes(u64::from_le_bytes(word));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&byte| is_special(byte))
        .map(|k| at + k)
}

/// Bytes read a word at a time before the vector searches take over: most
/// strings end within them, and the searches cost more to set up.
const HEAD: usize = 32;

/// From this many bytes past the head on, the vector searches (a quote or
/// backslash, then a control character before it) beat one pass over
/// words.
const LONG: usize = 64;

/// [`find_special`] on a long `rest`: the head by words, the rest by the
/// vector searches.
#[inline(never)]
fn find_special_long(rest: &[u8]) -> Option<usize> {
    if let Some(k) = find_special_in_words(&rest[..HEAD]) {
        return Some(k);
    }
    let tail = &rest[HEAD..];
    let end = memchr::memchr2(b'"', b'\\', tail);
    let plain = &tail[..end.unwrap_or(tail.len())];
    // The common answer is "none": tested whole first.
    let found = if !holds_any(plain, |b| b < 0x20) {
        end
    } else {
        plain.iter().position(|&b| b < 0x20)
    };
    found.map(|k| HEAD + k)
}

/// The high bit of each byte of `word` set where that byte is `"`, `\\` or
/// below 0x20 (and possibly in bytes after the first such one: only the
/// lowest set bit is exact, which is the one used).
fn special_bytes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x;
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    (zero_in(quote) | zero_in(backslash) | control) & HIGH
}

/// The value of a hex digit.
fn hex_value(byte: u8) -> Option<u16> {
    char::from(byte).to_digit(16).map(|digit| digit as u16)
}

fn step_number(num: Num, byte: u8) -> Option<Num> {
    Some(match (num, byte) {
        (Num::Minus, b'0') => Num::Zero,
        (Num::Minus, b'1'..=b'9') => Num::Int,
        (Num::Int, b'0'..=b'9') => Num::Int,
        (Num::Zero | Num::Int, b'.') => Num::Dot,
        (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
        (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
        (Num::Exp, b'+' | b'-') => Num::ExpSign,
        (Num::Exp | Num::ExpSign | Num::ExpDigits, b'0'..=b'9') => Num::ExpDigits,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Log(Vec<String>);

    impl Sink for Log {
        fn open(&mut self, at: usize, object: bool) {
            self.0
                .push(format!("open{} {at}", if object { '{' } else { '[' }));
        }
        fn key(&mut self, token: Token<'_>) {
            self.0
                .push(format!("key {}", String::from_utf8_lossy(token.bytes())));
        }
        fn scalar(&mut self, token: Token<'_>) {
            self.0
                .push(format!("scalar {}", String::from_utf8_lossy(token.bytes())));
        }
        fn close(&mut self, at: usize, _whole: Option<&str>) {
            self.0.push(format!("close {at}"));
        }
    }

    fn lex(parts: &[&str]) -> (Vec<String>, Option<usize>) {
        let mut lexer = Lexer::new();
        let mut log = Log::default();
        for part in parts {
            lexer.feed(Fragment::Str(part), &mut log);
        }
        lexer.finish(&mut log);
        (log.0, lexer.broken())
    }

    #[test]
    fn reports_the_same_structure_in_any_split() {
        let text = r#" {"a\"b": [1, -2.5e+3, "x\u00e9", true, null, {}], "c": false} "#;
        let (whole, broken) = lex(&[text]);
        assert_eq!(broken, None);
        assert_eq!(
            whole,
            [
                "open{ 1",
                r#"key "a\"b""#,
                "open[ 10",
                "scalar 1",
                "scalar -2.5e+3",
                r#"scalar "x\u00e9""#,
                "scalar true",
                "scalar null",
                "open{ 46",
                "close 47",
                "close 48",
                r#"key "c""#,
                "scalar false",
                "close 61"
            ]
        );
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let parts: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(lex(&parts).0, whole);
        for cut in 0..text.len() {
            assert_eq!(lex(&[&text[..cut], &text[cut..]]).0, whole, "cut at {cut}");
        }
    }

    #[test]
    fn finds_the_first_byte_that_ends_plain_string_content() {
        // Every position and every kind of special byte, in words, in the
        // remainder, in the head read by words and past it, against a plain
        // scan.
        let lengths = (0..=17).chain([31, 32, 33, 63, 64, 65, 95, 96, 97, 130, 255, 256, 257, 300]);
        for len in lengths {
            for at in 0..=len {
                for special in [b'"', b'\\', 0x00, 0x1F, b'\n'] {
                    let mut bytes: Vec<u8> = (0..len).map(|i| b' ' + (i % 90) as u8).collect();
                    bytes.iter_mut().for_each(|b| {
                        if *b == b'"' || *b == b'\\' {
                            *b = b'a';
                        }
                    });
                    // Bytes above 0x7F and just above 0x20 around it.
                    if at > 0 {
                        bytes[at - 1] = 0xE9;
                    }
                    if at < len {
                        bytes[at] = special;
                        if at + 1 < len {
                            bytes[at + 1] = 0x20;
                        }
                    }
                    let expected = bytes
                        .iter()
                        .position(|&b| b == b'"' || b == b'\\' || b < 0x20);
                    assert_eq!(
                        find_special(&bytes),
                        expected,
                        "len {len} at {at} {special}"
                    );
                    assert_eq!(
                        fragment_holds_special(&bytes),
                        expected.is_some(),
                        "len {len} at {at} {special}"
                    );
                }
            }
        }
    }

    #[test]
    fn extends_a_string_by_one_byte_only_where_it_ends_nothing() {
        // One-byte fragments take their own test: every byte, as text
        // (ASCII) and as bytes (any, a character cut).
        for byte in 0..=u8::MAX {
            let ends = byte == b'"' || byte == b'\\' || byte < 0x20;
            let text = [byte];
            let mut fragments = vec![Fragment::Bytes(&text)];
            if let Ok(text) = std::str::from_utf8(&text) {
                fragments.push(Fragment::Str(text));
            }
            for fragment in fragments {
                let mut lexer = Lexer::new();
                lexer.feed(Fragment::Str(r#"{"k": "ab"#), &mut Log::default());
                let extended = lexer.extend_string(fragment);
                assert_eq!(extended, !ends, "byte {byte:#04x}");
                let expected = if ends { 9 } else { 10 };
                assert_eq!(lexer.text.bytes().len(), expected, "byte {byte:#04x}");
                assert_eq!(lexer.scanned, expected, "byte {byte:#04x}");
            }
        }
    }

    /// What normalization needs to know, gathered while reading, agrees
    /// with one scan of the whole text, in any split (keys aside: the scan
    /// counts a key that starts like JSON, which is never decoded).
    #[test]
    fn knows_when_no_repair_can_apply_in_any_split() {
        use crate::json_text::tests::{CLEAN, MAYBE};
        let more = [
            r#"{"a": "\t\r["}"#,
            r#"{"\u0041": 1}"#,
            r#"["x", "  ", " {"]"#,
        ];
        let texts = CLEAN.into_iter().chain(MAYBE).chain(more);
        let read = |parts: &[&str]| {
            let mut lexer = Lexer::new();
            let mut log = Log::default();
            for part in parts {
                if !lexer.extend_string(Fragment::Str(part)) {
                    lexer.feed(Fragment::Str(part), &mut log);
                }
            }
            lexer.finish(&mut log);
            assert_eq!(lexer.broken(), None, "{parts:?}");
            lexer.may_need_repair()
        };
        for text in texts {
            let expected = crate::json_text::inspect(text).may_need_repair;
            let bytes: Vec<String> = text.chars().map(String::from).collect();
            let parts: Vec<&str> = bytes.iter().map(String::as_str).collect();
            assert_eq!(read(&parts), expected, "{text} in characters");
            for cut in 0..=text.len() {
                assert_eq!(
                    read(&[&text[..cut], &text[cut..]]),
                    expected,
                    "{text} cut at {cut}"
                );
            }
        }
        let key = r#"{"[k]": 1}"#;
        assert!(crate::json_text::inspect(key).may_need_repair);
        assert!(!read(&[key]));
    }

    #[test]
    fn a_number_at_the_root_ends_with_the_text() {
        assert_eq!(lex(&["1", "2"]).0, ["scalar 12"]);
        assert_eq!(lex(&["-"]).0, Vec::<String>::new());
    }

    #[test]
    fn stops_at_the_first_byte_no_continuation_can_fix() {
        assert_eq!(lex(&["{\"a\" 1}"]).1, Some(5));
        assert_eq!(lex(&["[1,]"]).1, Some(3));
        assert_eq!(lex(&["[01]"]).1, Some(2));
        assert_eq!(lex(&["\"a\u{1}\""]).1, Some(2));
        assert_eq!(lex(&["\"\\x\""]).1, Some(2));
        assert_eq!(lex(&["\"\\u12g4\""]).1, Some(5));
        assert_eq!(lex(&["tru", "e", " x"]).1, Some(5));
        assert_eq!(lex(&["{} {}"]).1, Some(3));
        assert_eq!(lex(&["[1.]"]).1, Some(3));
        assert_eq!(lex(&["{\"a\":1,}"]).1, Some(7));
        assert_eq!(lex(&["[", "1", "}"]).1, Some(2));
        // Surrogate escapes: a low one alone, a high one not followed at
        // once by a low one's `\u` escape.
        assert_eq!(lex(&["\"\\udc00\""]).1, Some(6));
        assert_eq!(lex(&["\"\\ud800x\""]).1, Some(7));
        assert_eq!(lex(&["\"\\ud800\""]).1, Some(7));
        assert_eq!(lex(&["\"\\ud800\\n\""]).1, Some(8));
        assert_eq!(lex(&["\"\\ud8", "00\\u00", "41\""]).1, Some(12));
        assert_eq!(lex(&["\"\\ud800\\ud800\""]).1, Some(12));
        assert_eq!(lex(&["\"\\ud83d\\ude00\\uD83D\\uDE00\""]).1, None);
        assert_eq!(lex(&["{\"\\uDBFF\\uDFFF\": 1}"]).1, None);
    }
}
