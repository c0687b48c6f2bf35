//! The per-call engine: the lexer's structure, the schema at each open
//! container, events, and early findings.

use super::build::{Built, decode_key, decode_scalar};
use super::events::{Certainty, Event, EventRef, Location, Snapshot, Steps};
use super::lexer::{Fragment, Lexer, Sink, Token};
use crate::normalizer::{NormalizeError, Options, Repairer};
use crate::path::Path;
use crate::path::Pointer;
use crate::plan::sites::{Child, Site, SiteId, Sites};
use crate::plan::{Bound, JsonType, Loc, SchemaPlan};
use crate::rejection::{SyntaxError, SyntaxKind};
use crate::report::Report;
use crate::validate::{Validator, Violation};
use serde_json::{Map, Value};

/// The parser words a syntax error the lexer found at byte `b` once the
/// text holds bytes up to `b + 7`: the four bytes after `\u` (`b` is one of
/// them, or after them), the last of them possibly the first of a
/// four-byte character. Past that the text is not checked again.
const WORDED_WITHIN: usize = 8;

/// How many provisional findings are followed at once.
const MAX_PROVISIONAL: usize = 4;
/// How many times one call's value is built and validated to word a
/// finding (each costs a validation of a skeleton of the arguments).
const MAX_WORDINGS: u32 = 16;

/// Something found wrong before the text is complete, before it is worded
/// in the caller's error type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Finding {
    /// The text cannot be JSON: the error the whole text gets, worded as
    /// each entry point words it.
    Syntax(Box<SyntaxError>),
    /// More bytes than [`Options::max_bytes`] arrived (so far).
    TooLarge { bytes: usize, limit: usize },
    /// Containers nest deeper than [`Options::max_depth`] (so far).
    TooDeep { found: usize, limit: usize },
    /// A value or key the schema refuses, worded by the validator.
    Invalid(Violation),
}

/// A syntax error as the whole-text entry points word it: made by their
/// own function from the parser's error, `error` on `text` (the arguments
/// so far; not UTF-8 only where the error is the bytes' own), so that the
/// early error is theirs.
pub(crate) fn syntax_error(error: &serde_json::Error, text: &[u8]) -> SyntaxError {
    SyntaxError::json(
        SyntaxKind::Arguments,
        None,
        error,
        &String::from_utf8_lossy(text),
    )
}

/// The parser's error on arguments that are not UTF-8 (what the entry
/// points get for them: they take text).
pub(crate) fn not_utf8(bytes: &[u8]) -> SyntaxError {
    match serde_json::from_slice::<Value>(bytes) {
        Err(error) => syntax_error(&error, bytes),
        // Unreachable (a byte that is not UTF-8 is refused outside a
        // string and in one), but worded all the same.
        Ok(_) => SyntaxError {
            kind: SyntaxKind::Arguments,
            line: Some(1),
            column: Some(1),
            pointer: None,
            message: "arguments are not UTF-8".to_owned(),
        },
    }
}

/// What the parser says of a text so far.
enum Parsed {
    /// An error no continuation changes.
    Error(serde_json::Error),
    /// Nothing yet: more bytes may decide it.
    NotYet,
    /// No syntax error will be reported early (the text nests too deep).
    Never,
}

/// A finding and when it became what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) finding: Finding,
    pub(crate) received: usize,
    pub(crate) certainty: Certainty,
}

/// A finding that holds unless an enclosing object repeats a key.
#[derive(Debug)]
struct Provisional {
    found: Found,
    /// The open objects on the finding's path (stack index, and the key
    /// whose sending again drops the finding: the member the path goes
    /// through, a tag; `None`: any key, in an object its first key
    /// decided).
    anchors: Vec<(usize, Option<String>)>,
}

/// What the schemas say at one location.
#[derive(Clone, Debug, Default)]
struct Slot {
    /// The normalizer's location, when it does not depend on values not yet
    /// complete.
    loc: Option<Loc>,
    /// The validator's subschemas, likewise.
    site: Option<SiteId>,
}

#[derive(Debug)]
pub(crate) struct Frame {
    object: bool,
    /// Where the container is (kept only while events are recorded; else
    /// built from the stack when a finding needs it).
    location: Option<Pointer>,
    /// Members or elements begun so far.
    count: usize,
    /// The key of the member being read (objects).
    key: String,
    /// Its location, while events are recorded.
    member: Option<Pointer>,
    /// What the member being read gets (objects).
    child: Slot,
    slot: Slot,
    /// The normalizer binds this container's members without its value:
    /// each member's location is known when it starts.
    settled: bool,
    /// Members are checked as they complete (the validator's subschemas
    /// are known for each).
    checked: bool,
    bound: Option<Bound>,
    /// Where its opening bracket is.
    start: usize,
    /// End of the last complete member (or just past the bracket).
    resume: usize,
    /// The location cannot hold this shape: the container is reported
    /// (with its content, as the validator words it) once complete.
    refused: bool,
    /// The container's value as parsed so far (members complete).
    built: Built,
    /// A union of objects its tag member decides (see [`Tagging`]).
    tagging: Tagging,
    /// An enclosing container reports its value whole once complete: this
    /// one and its members report nothing of their own.
    quiet: bool,
}

/// Where an object's union waits for, or was decided by, its tag member
/// (`Sites::by_tag`).
#[derive(Debug)]
enum Tagging {
    /// Not a tagged union, or no longer decidable (the tag was repeated).
    None,
    /// The union's site: the tag's value will pick the branch.
    Awaiting(SiteId),
    /// Decided by a tag: a finding below stands only while the tag is not
    /// sent again, and the validator words it with the tag in the
    /// skeleton. Boxed: every frame carries a `Tagging`, few this one.
    Decided(Box<Tag>),
    /// The union's site: the object's first key will pick the branch
    /// (`Sites::by_key`).
    AwaitingKey(SiteId),
    /// Decided by its first key: a finding below stands only while no
    /// other key arrives.
    DecidedByKey,
}

/// The tag member that decided a union, and its value.
#[derive(Debug)]
struct Tag {
    /// The union's site, which the tag sent again is checked against.
    union: SiteId,
    key: Box<str>,
    value: Value,
    /// The other members the normalizer's plan reads as tags there
    /// (`const`/`enum` members, `mode` of `Scan { mode: Mode, .. }`): one
    /// that disagrees with the branch makes the whole call bind the object
    /// otherwise, so what is found below another member holds only while
    /// none of them arrives (sorted).
    others: Box<[Box<str>]>,
    /// One of `others` arrived disagreeing with the branch (or as a
    /// container): only they are checked from then on.
    diverged: bool,
}

impl Tag {
    /// Whether `key` is one of the other tags.
    fn other(&self, key: &str) -> bool {
        self.others.iter().any(|name| **name == *key)
    }
}

impl Frame {
    /// The object standing for this one in a skeleton the validator words
    /// a finding from: empty but for the tag that decided its union
    /// (without it the validator would report the union, not the branch).
    fn skeleton(&self) -> Map<String, Value> {
        let mut object = Map::new();
        if let Tagging::Decided(tag) = &self.tagging {
            object.insert(tag.key.to_string(), tag.value.clone());
        }
        object
    }

    /// The step from this container to the member or element being read.
    pub(crate) fn segment(&self) -> crate::path::Segment<'_> {
        if self.object {
            crate::path::Segment::Key(&self.key)
        } else {
            crate::path::Segment::Index(self.count.saturating_sub(1))
        }
    }
}

impl Steps for Vec<Frame> {
    fn step(&self, i: usize) -> crate::path::Segment<'_> {
        self[i].segment()
    }
}

/// Where borrowed events go while a fragment is read.
pub(crate) type OnEvent<'e> = &'e mut dyn FnMut(EventRef<'_>);

/// The core as the lexer's sink, handing events to a callback as they
/// happen when there is one.
struct Reader<'c, 's, 'e> {
    core: &'c mut Core<'s>,
    on_event: Option<OnEvent<'e>>,
}

/// The callback, if any, lent for one call.
pub(crate) fn lend<'a>(on_event: &'a mut Option<OnEvent<'_>>) -> Option<OnEvent<'a>> {
    match on_event {
        Some(on_event) => Some(&mut **on_event),
        None => None,
    }
}

impl Sink for Reader<'_, '_, '_> {
    fn open(&mut self, at: usize, object: bool) {
        self.core.open_container(at, object);
    }

    fn key(&mut self, token: Token<'_>) {
        self.core.read_key(token);
    }

    fn scalar(&mut self, token: Token<'_>) {
        self.core.read_scalar(token, lend(&mut self.on_event));
    }

    fn close(&mut self, at: usize, whole: Option<&str>) {
        self.core
            .close_container(at, whole, lend(&mut self.on_event));
    }
}

/// The plan, sites and validator a call is checked against. Made by
/// [`Checks::against`] or [`Checks::none`] only, so the sites are always
/// the plan's own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checks<'s> {
    /// `plan.sites()`, taken once per call rather than through the plan's
    /// `OnceLock` at every key and value.
    sites: Option<&'s Sites>,
    plan: Option<&'s SchemaPlan>,
    /// `None`: nothing is checked against the schema (an unknown tool's
    /// arguments are only read).
    validator: Option<&'s Validator>,
}

impl<'s> Checks<'s> {
    /// Checks against `plan`, the compiled form of `validator`'s schema
    /// (its sites built on first use).
    pub(crate) fn against(plan: &'s SchemaPlan, validator: &'s Validator) -> Self {
        Checks {
            sites: Some(plan.sites()),
            plan: Some(plan),
            validator: Some(validator),
        }
    }

    /// Nothing checked: the text is only read (an unknown tool's
    /// arguments, a type whose contract does not compile).
    pub(crate) fn none() -> Self {
        Checks {
            sites: None,
            plan: None,
            validator: None,
        }
    }
}

/// The state of one streamed call's arguments, apart from the text.
#[derive(Debug)]
pub(crate) struct Core<'s> {
    checks: Checks<'s>,
    options: Options,
    frames: Vec<Frame>,
    root: Option<Slot>,
    events: Vec<Event>,
    record_events: bool,
    certain: Option<Found>,
    provisional: Vec<Provisional>,
    /// Bytes received so far.
    received: usize,
    wordings: u32,
    /// The text is broken, but the parser could not word its error yet
    /// (see [`Core::check_syntax`]): where, and the text's length when it
    /// was last asked.
    unworded: Option<(usize, usize)>,
    /// The root value, once complete: what `serde_json` parses from the
    /// text, built as it arrived.
    parsed: Option<Value>,
    /// Whether an object of the text had a key twice (the later member
    /// replaced the earlier, as `serde_json` does; [`crate::repeated_keys`]).
    repeated: bool,
    /// Whether the values built so far are exactly `serde_json`'s (a token
    /// it refuses, or a key its `Value` reads specially, clears it; the
    /// end then parses the text).
    intact: bool,
    /// The most containers open at once so far.
    deepest: usize,
}

/// The events recorded since the host last asked.
#[derive(Debug)]
pub(crate) struct Drained<'a>(Option<std::vec::Drain<'a, Event>>);

impl Iterator for Drained<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        self.0.as_mut()?.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.as_ref().map_or((0, Some(0)), Iterator::size_hint)
    }
}

/// One call's engine: the lexer and the core.
#[derive(Debug)]
pub(crate) struct Engine<'s> {
    lexer: Lexer,
    core: Core<'s>,
    /// Past the size limit: bytes are counted, not kept.
    overflowed: bool,
    /// The fast path of [`Engine::push_to`] takes a fragment when the bytes
    /// received with it stay below this: the size limit plus one while
    /// reading, 0 once past the limit or certain of a rejection (one
    /// comparison instead of three). Set again after each slow push and at
    /// the end, the only ways into either state.
    fast_below: usize,
    /// Some fragment was kept without being read (after a certain finding
    /// or a syntax error): the values built are not the whole text's.
    skipped: bool,
    finished: bool,
}

impl<'s> Engine<'s> {
    pub(crate) fn new(checks: Checks<'s>, options: Options, record_events: bool) -> Self {
        let root = Slot {
            loc: checks.plan.map(SchemaPlan::root),
            site: checks.sites.map(Sites::root),
        };
        Engine {
            lexer: Lexer::new(),
            core: Core {
                checks,
                options,
                frames: spare_frames(),
                root: Some(root),
                events: SPARE_EVENTS.with(std::cell::Cell::take).unwrap_or_default(),
                record_events,
                certain: None,
                provisional: Vec::new(),
                received: 0,
                wordings: 0,
                unworded: None,
                parsed: None,
                repeated: false,
                intact: true,
                deepest: 0,
            },
            overflowed: false,
            fast_below: 0,
            skipped: false,
            finished: false,
        }
    }

    /// Reads the next fragment of the arguments text.
    #[inline(always)]
    pub(crate) fn push(&mut self, fragment: Fragment<'_>) {
        self.push_to(fragment, None);
    }

    /// [`Engine::push`], handing each event to `on_event` as it happens.
    #[inline(always)]
    pub(crate) fn push_with(&mut self, fragment: Fragment<'_>, on_event: OnEvent<'_>) {
        self.push_to(fragment, Some(on_event));
    }

    /// Reads the next fragment, handing events to `on_event` if there is one.
    #[inline(always)]
    pub(crate) fn push_to(&mut self, fragment: Fragment<'_>, on_event: Option<OnEvent<'_>>) {
        // Most fragments fall inside a string and end nothing: read here,
        // without a call into the state machine. Inlined into the host's
        // loop (`inline(always)` here, in `push`, `push_with` and
        // `Lexer::extend_string`), this costs no call and no register
        // saves: measured, 10–18% fewer instructions in 1-byte deltas.
        let core = &mut self.core;
        let received = core.received.saturating_add(fragment.len());
        if received < self.fast_below && self.lexer.extend_string(fragment) {
            core.received = received;
            return;
        }
        self.push_slow(fragment, received, on_event);
        self.fast_below = if self.overflowed || self.core.certain.is_some() {
            0
        } else {
            self.core.options.max_bytes.saturating_add(1)
        };
    }

    /// [`Engine::push_to`] for a fragment that is not only string content;
    /// `received` counts it.
    #[inline(never)]
    fn push_slow(
        &mut self,
        fragment: Fragment<'_>,
        received: usize,
        on_event: Option<OnEvent<'_>>,
    ) {
        let core = &mut self.core;
        core.received = received;
        if self.overflowed {
            return;
        }
        if core.received > core.options.max_bytes {
            self.overflowed = true;
            core.settle(Finding::TooLarge {
                bytes: core.received,
                limit: core.options.max_bytes,
            });
            return;
        }
        if core.certain.is_some() || self.lexer.broken().is_some() {
            self.skipped = true;
            self.lexer.append(fragment);
            let text = self.lexer.text();
            match core.unworded {
                Some((at, read)) if core.certain.is_none() && read < text.len() => {
                    core.check_syntax(text, at);
                }
                _ => {}
            }
            return;
        }
        self.lexer.feed(fragment, &mut Reader { core, on_event });
        let core = &mut self.core;
        if let Some(at) = self.lexer.broken() {
            core.check_syntax(self.lexer.text(), at);
        }
    }

    /// The text is complete.
    pub(crate) fn finish(&mut self) {
        self.finish_to(None);
    }

    /// [`Engine::finish`], handing an event to `on_event` (a number
    /// standing alone as the whole text completes here).
    pub(crate) fn finish_with(&mut self, on_event: OnEvent<'_>) {
        self.finish_to(Some(on_event));
    }

    /// The text is complete, the event of a number standing alone as the
    /// whole text handed to `on_event` if there is one.
    pub(crate) fn finish_to(&mut self, on_event: Option<OnEvent<'_>>) {
        if self.finished {
            return;
        }
        self.finished = true;
        self.fast_below = 0;
        if !self.overflowed && self.core.certain.is_none() && self.lexer.broken().is_none() {
            let core = &mut self.core;
            self.lexer.finish(&mut Reader { core, on_event });
        }
    }

    /// The whole text's value as `serde_json` parses it, built while it
    /// streamed, and whether normalizing it could change anything (the
    /// facts [`crate::json_text::inspect`] gives the text, as the whole-text
    /// entry points use them), with the text. `Some` only after
    /// [`Engine::finish`], when
    /// every byte was read, the text is one complete JSON value, nothing
    /// was found wrong for certain, and every token was parsed exactly as
    /// `serde_json` parses it. Otherwise the caller parses the text.
    pub(crate) fn take_parsed(&mut self) -> Option<(Value, bool, &str, bool)> {
        let clean = self.finished
            && !self.overflowed
            && !self.skipped
            && self.core.intact
            && self.core.certain.is_none()
            && self.core.frames.is_empty()
            && self.lexer.broken().is_none();
        if !clean {
            return None;
        }
        let text = match self.lexer.text_str() {
            Ok(text) => text,
            Err(bytes) => std::str::from_utf8(bytes).ok()?,
        };
        let may_need_repair = self.lexer.may_need_repair();
        let repeated = self.core.repeated;
        Some((self.core.parsed.take()?, may_need_repair, text, repeated))
    }

    pub(crate) fn set_record_events(&mut self, record: bool) {
        self.core.record_events = record;
    }

    /// The text so far: `Ok(Ok(text))`, `Ok(Err(bytes))` when some fragment
    /// came as bytes, or `Err(received)` when it was too large to keep.
    pub(crate) fn text(&self) -> Result<Result<&str, &[u8]>, usize> {
        if self.overflowed {
            Err(self.core.received)
        } else {
            Ok(self.lexer.text_str())
        }
    }

    pub(crate) fn received(&self) -> usize {
        self.core.received
    }

    pub(crate) fn options(&self) -> &Options {
        &self.core.options
    }

    /// The first certain finding.
    pub(crate) fn certain(&self) -> Option<&Found> {
        self.core.certain.as_ref()
    }

    /// The first certain finding, or else the earliest provisional one.
    pub(crate) fn provisional(&self) -> Option<&Found> {
        self.core
            .certain
            .as_ref()
            .or_else(|| self.core.provisional.first().map(|p| &p.found))
    }

    /// Takes the events recorded since the last call.
    #[inline]
    pub(crate) fn take_events(&mut self) -> Drained<'_> {
        // Most fragments complete nothing: no drain to set up and tear down.
        Drained(if self.core.events.is_empty() {
            None
        } else {
            Some(self.core.events.drain(..))
        })
    }

    /// The value so far, for display.
    pub(crate) fn snapshot(&self) -> Option<Snapshot> {
        self.core.snapshot(&self.lexer)
    }

    /// The snapshot both ways: from the values built, and from the text
    /// (`None` for the first where it is not built).
    #[cfg(test)]
    pub(crate) fn snapshots(&self) -> (Option<Option<Snapshot>>, Option<Snapshot>) {
        let core = &self.core;
        let built = core
            .snapshot_is_built()
            .then(|| core.snapshot_of_built(&self.lexer));
        (built, core.snapshot_of_text(&self.lexer))
    }
}

impl<'s> Core<'s> {
    /// Records a certain finding (the first one stays).
    fn settle(&mut self, finding: Finding) {
        if self.certain.is_none() {
            self.certain = Some(Found {
                finding,
                received: self.received,
                certainty: Certainty::Certain,
            });
        }
    }

    /// Settles the syntax error the whole text gets, once the text so far
    /// decides it: the parser's error on the text up to the byte at `at`
    /// (where the lexer found it broken, or the end of a token the parser
    /// refuses), when no continuation can change it (it is not "end of
    /// input"), worded by the entry points' own functions. The parser may
    /// need a few bytes more than the lexer to word its error (the four
    /// after `\u`, the rest of a character cut at the end): the text is read
    /// a byte further each time until it does, then as it grows
    /// ([`Core::unworded`]). So the error depends on the bytes received, not
    /// on how they were split, nor on any byte past those the parser needs
    /// (a bracket further on nesting past the limit).
    fn check_syntax(&mut self, text: &[u8], at: usize) {
        let bound = at.saturating_add(WORDED_WITHIN);
        let from = match self.unworded.take() {
            Some((same, read)) if same == at => read + 1,
            _ => at + 1,
        };
        let last = text.len().min(bound);
        for end in from..=last {
            match self.parse_error(&text[..end]) {
                Parsed::Error(error) => {
                    self.settle(Finding::Syntax(Box::new(syntax_error(
                        &error,
                        &text[..end],
                    ))));
                    return;
                }
                Parsed::Never => return,
                Parsed::NotYet => {}
            }
        }
        if last < bound {
            self.unworded = Some((at, last));
        }
    }

    /// The parser's error on `text`, as the entry points read the whole
    /// text.
    fn parse_error(&self, text: &[u8]) -> Parsed {
        let error = match std::str::from_utf8(text) {
            // No continuation makes the text UTF-8: the entry points get
            // the parser's error on the bytes ([`not_utf8`]).
            Err(error) if error.error_len().is_some() => serde_json::from_slice::<Value>(text)
                .map(crate::deep::drop_value)
                .err(),
            valid => {
                let valid = match valid {
                    Ok(valid) => valid,
                    // A character cut at the end: read once complete.
                    Err(error) => {
                        std::str::from_utf8(&text[..error.valid_up_to()]).unwrap_or_default()
                    }
                };
                if crate::call::is_json_whitespace(valid) {
                    return Parsed::NotYet;
                }
                match crate::json_text::from_str(valid, self.options.max_depth) {
                    Err(crate::json_text::JsonTextError::Syntax(error)) => Some(error),
                    // Nested deeper than the limit: the whole text is
                    // refused for that first.
                    Err(crate::json_text::JsonTextError::TooDeep { .. }) => return Parsed::Never,
                    Ok(value) => {
                        crate::deep::drop_value(value);
                        None
                    }
                }
            }
        };
        match error {
            Some(error) if error.classify() != serde_json::error::Category::Eof => {
                Parsed::Error(error)
            }
            _ => Parsed::NotYet,
        }
    }

    /// The schemas of the value starting now, and its location (while
    /// events are recorded); counts it in its container.
    fn next_value(&mut self) -> (Slot, Option<Pointer>) {
        let sites = self.checks.sites;
        let plan = self.checks.plan;
        let record = self.record_events;
        match self.frames.last_mut() {
            None => (
                self.root.take().unwrap_or_default(),
                record.then(Pointer::root),
            ),
            Some(frame) if frame.object => (std::mem::take(&mut frame.child), frame.member.take()),
            Some(frame) => {
                let index = frame.count;
                frame.count += 1;
                let location = frame.location.as_ref().map(|at| at.index(index));
                let mut slot = Slot::default();
                if let (Some(plan), Some(bound)) = (plan, &frame.bound) {
                    slot.loc = Some(plan.item(bound, index));
                }
                if frame.checked
                    && let (Some(sites), Some(site)) = (sites, frame.slot.site)
                    && let Child::Known(child) = sites.item(site, index)
                {
                    slot.site = Some(child);
                }
                (slot, location)
            }
        }
    }

    /// The location of the value being read in `frames[..depth]` (the
    /// root for 0).
    fn location_at(&self, depth: usize) -> Location<'_> {
        Location::new(&self.frames, depth)
    }

    /// The locations of the open containers, outermost first, and (with
    /// `string`) of the value being read in the innermost, each sharing
    /// its prefix with the one before.
    fn open_locations(&self, string: bool) -> Vec<Pointer> {
        let mut open = Vec::with_capacity(self.frames.len() + 1);
        let mut at = Pointer::root();
        for (depth, frame) in self.frames.iter().enumerate() {
            // An array counts an item when it completes, unless it is a
            // container (counted when it opens): the string being read is
            // the item after those counted.
            let segment = match frame.object {
                false if string && depth + 1 == self.frames.len() => {
                    crate::path::Segment::Index(frame.count)
                }
                _ => frame.segment(),
            };
            let next = at.child(segment);
            open.push(std::mem::replace(&mut at, next));
        }
        if string {
            open.push(at);
        }
        open
    }

    /// Whether checks run for a value starting in the innermost container.
    fn checking(&self) -> bool {
        self.certain.is_none()
            && self.wordings < MAX_WORDINGS
            && self.frames.last().is_none_or(|frame| frame.checked)
    }

    fn open_container(&mut self, at: usize, object: bool) {
        // A container where the plan reads a tag: it disagrees with the
        // branch the object's tag picked.
        if let Some(parent) = self.frames.last_mut()
            && let Tagging::Decided(tag) = &mut parent.tagging
        {
            tag.diverged |= tag.other(&parent.key);
        }
        let depth = self.frames.len() + 1;
        self.deepest = self.deepest.max(depth);
        if depth > self.options.max_depth {
            self.settle(Finding::TooDeep {
                found: depth,
                limit: self.options.max_depth,
            });
        }
        let (mut slot, location) = self.next_value();
        let dummy = empty_container(object);
        let plan = self.checks.plan;
        // A union the container's shape decides: its branch's site. The
        // plan binds members as they come where its branches apply by
        // shape alone.
        let mut unions = false;
        let site = match (self.checks.sites, slot.site) {
            (Some(sites), Some(id)) => {
                unions = sites.site(id).unions;
                let id = sites.resolved(id, object);
                slot.site = Some(id);
                Some(sites.site(id))
            }
            _ => None,
        };
        // A location that is itself a union's branch (a member below a
        // decided union) applies by the value too: an externally tagged
        // variant's shape only to an object holding its one member.
        let settled = match (&slot.loc, site, plan) {
            (Some(loc), Some(_), Some(plan)) => {
                let by_shape = (!unions && matches!(loc, Loc::Node(_))) || plan.binds_by_shape(loc);
                by_shape && !plan.verbatim(loc, dummy)
            }
            _ => false,
        };
        let bound = match (&slot.loc, plan) {
            (Some(loc), Some(plan)) if settled => Some(plan.bind(loc, dummy)),
            _ => None,
        };
        let checked = settled
            && self.frames.last().is_none_or(|frame| frame.checked)
            && site.is_some_and(|site| !site.open && !site.never);
        let shape = if object {
            JsonType::Object
        } else {
            JsonType::Array
        };
        let refused = self.checking()
            && slot.site.is_some()
            && match (&slot.loc, plan) {
                (Some(loc), Some(plan)) => !plan.declared(loc).contains(shape),
                _ => false,
            };
        let tagging = match (self.checks.sites, slot.site) {
            (Some(sites), Some(id)) if object && !settled => {
                if sites.tag_key(id).is_some() {
                    Tagging::Awaiting(id)
                } else if sites.keyed(id) {
                    Tagging::AwaitingKey(id)
                } else {
                    Tagging::None
                }
            }
            _ => Tagging::None,
        };
        let quiet = self
            .frames
            .last()
            .is_some_and(|parent| parent.quiet || !parent.settled);
        self.frames.push(Frame {
            object,
            location,
            count: 0,
            key: String::new(),
            member: None,
            child: Slot::default(),
            slot,
            settled,
            checked,
            bound,
            start: at,
            resume: at + 1,
            refused,
            built: Built::new(object),
            tagging,
            quiet,
        });
    }

    /// The tag member of the innermost object, when its union awaits it,
    /// is complete: the branch its value selects is taken, and members
    /// that follow are checked against it (not normalized one by one: the
    /// object's value still comes whole).
    #[cold]
    fn decide_by_tag(&mut self, value: &Value) {
        let (Some(sites), Some(plan)) = (self.checks.sites, self.checks.plan) else {
            return;
        };
        let intact = self.intact;
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let Tagging::Awaiting(union) = frame.tagging else {
            return;
        };
        let Some(key) = sites.tag_key(union) else {
            return;
        };
        if frame.key != key {
            return;
        }
        frame.tagging = Tagging::None;
        // A tag normalization would change is left to the end.
        let plain = value
            .as_str()
            .is_some_and(|text| !crate::entities::has_reference_candidate(text.as_bytes()));
        let (true, Some(loc)) = (plain, &frame.slot.loc) else {
            return;
        };
        let Some(decided) = sites.by_tag(union, value) else {
            return;
        };
        let Some((bound, others)) = plan.bind_by_tag(loc, key, value) else {
            return;
        };
        // Another tag sent before this one may already disagree (or the
        // members so far are not `serde_json`'s: then they may).
        let diverged = !others.is_empty()
            && (!intact
                || match &frame.built {
                    Built::Object(members) => others.iter().any(|name| {
                        members.get(&**name).is_some_and(|member| {
                            !plan.bind_agrees(loc, (key, value), (name, member), &bound)
                        })
                    }),
                    Built::Array(_) => false,
                });
        let tag = Tagging::Decided(Box::new(Tag {
            union,
            key: Box::from(key),
            value: value.clone(),
            others: others.into_boxed_slice(),
            diverged,
        }));
        self.take_branch(decided, bound, tag);
    }

    /// A member of the innermost object, whose tag decided its union, is
    /// complete: where the plan reads it as another tag (`Tag::others`),
    /// whether it agrees with the branch is noted. Whether to check it: not
    /// a string normalization would change (the plan reads tags as sent,
    /// the validator normalized).
    fn another_tag(&mut self, value: &Value) -> bool {
        let (plan, intact) = (self.checks.plan, self.intact);
        let Some(frame) = self.frames.last_mut() else {
            return true;
        };
        let Tagging::Decided(tag) = &mut frame.tagging else {
            return true;
        };
        if !tag.other(&frame.key) {
            return true;
        }
        let agrees = match (plan, &frame.slot.loc, &frame.bound) {
            (Some(plan), Some(loc), Some(bound)) => {
                plan.bind_agrees(loc, (&tag.key, &tag.value), (&frame.key, value), bound)
            }
            _ => false,
        };
        tag.diverged |= !agrees || !intact;
        value
            .as_str()
            .is_none_or(|text| !crate::entities::has_reference_candidate(text.as_bytes()))
    }

    /// A tag (a member every object branch of the innermost object's union
    /// fixes) whose value no branch allows: refused as it completes, in the
    /// validator's words. A value normalization would change is left to
    /// the end; a tag sent again later drops the finding (`report`).
    fn refuse_outside_every_tag(&mut self, value: &Value, depth: usize) {
        let Some(sites) = self.checks.sites else {
            return;
        };
        let Some((frame, outer)) = self.frames.split_last() else {
            return;
        };
        // Most scalars are no tag: the site's tag is asked first.
        let tag = frame.object
            && frame
                .slot
                .site
                .is_some_and(|union| sites.outside_every_tag(union, &frame.key, value));
        if !tag {
            return;
        }
        // The union's object itself is undecided (not `checked`); what
        // encloses it must be, as for every other finding (`checking`).
        let enclosing = outer.last().is_none_or(|parent| parent.checked);
        let plain = match value {
            Value::String(text) => !crate::entities::has_reference_candidate(text.as_bytes()),
            _ => true,
        };
        if self.certain.is_none() && self.wordings < MAX_WORDINGS && enclosing && plain {
            self.report(value.clone(), depth, depth, true);
        }
    }

    /// The innermost object's union takes the branch whose site is
    /// `decided`, bound to `bound`, as `tagging` says.
    fn take_branch(&mut self, decided: SiteId, bound: Bound, tagging: Tagging) {
        let Some(sites) = self.checks.sites else {
            return;
        };
        let depth = self.frames.len();
        let parent_checked = depth < 2 || self.frames[depth - 2].checked;
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let site = sites.site(decided);
        frame.bound = Some(bound);
        frame.slot.site = Some(decided);
        frame.checked = parent_checked && !site.open && !site.never;
        frame.tagging = tagging;
    }

    /// The innermost object's first key is complete, and its union is
    /// decided by which member it holds: that branch is taken while the
    /// object holds that member alone.
    #[cold]
    fn decide_by_key(&mut self, key: &str) {
        let (Some(sites), Some(plan)) = (self.checks.sites, self.checks.plan) else {
            return;
        };
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let Tagging::AwaitingKey(union) = frame.tagging else {
            return;
        };
        frame.tagging = Tagging::None;
        if frame.count != 0 {
            return;
        }
        let (Some(decided), Some(loc)) = (sites.by_key(union, key), &frame.slot.loc) else {
            return;
        };
        let Some(bound) = plan.bind_by_key(loc, key) else {
            return;
        };
        self.take_branch(decided, bound, Tagging::DecidedByKey);
    }

    /// A key that may change which branch a decided union takes: nothing
    /// below is decided any more (findings anchored to it were dropped).
    /// The object's site is its union's again: a tag sent again outside
    /// every branch is still refused as it completes.
    fn undecide(&mut self, top: usize) {
        let frame = &mut self.frames[top];
        if let Tagging::Decided(tag) = &frame.tagging {
            frame.slot.site = Some(tag.union);
        }
        frame.tagging = Tagging::None;
        frame.bound = None;
        frame.checked = false;
    }

    fn read_key(&mut self, token: Token<'_>) {
        let Some(key) = decode_key(token) else {
            // Not a key `serde_json` reads (bytes that are not UTF-8): the
            // values built so far are not its either. The parser's error
            // is checked here, before anything after the key is read.
            self.intact = false;
            self.check_syntax(token.text, token.end - 1);
            return;
        };
        let key: &str = &key;
        let top = self.frames.len() - 1;
        // A repeated key replaces the member's value: findings inside the
        // earlier value no longer hold.
        if !self.provisional.is_empty() {
            self.provisional.retain(|p| {
                !p.anchors
                    .iter()
                    .any(|(i, at)| *i == top && at.as_deref().is_none_or(|at| at == key))
            });
        }
        let sites = self.checks.sites;
        let plan = self.checks.plan;
        let checking = self.checking();
        if self.frames[top].count == 0 && key.starts_with("$serde_json::private::") {
            // serde_json's `Value` reads an object with this first key
            // (a raw value, an arbitrary-precision number) its own way.
            self.intact = false;
        }
        match &self.frames[top].tagging {
            Tagging::AwaitingKey(_) => self.decide_by_key(key),
            Tagging::DecidedByKey => self.undecide(top),
            // The tag sent again may select another branch.
            Tagging::Decided(tag) if *tag.key == *key => self.undecide(top),
            _ => {}
        }
        let frame = &mut self.frames[top];
        frame.count += 1;
        // Placing a member takes its key's buffer: a new one is sized to
        // the key at once (growing an empty one costs a third more).
        if frame.key.capacity() == 0 {
            frame.key = key.to_owned();
        } else {
            frame.key.clear();
            frame.key.push_str(key);
        }
        frame.member = frame.location.as_ref().map(|at| at.key(key));
        let mut child = Slot::default();
        if let (Some(plan), Some(bound)) = (plan, &frame.bound) {
            child.loc = Some(plan.member(bound, key));
        }
        let mut forbidden = false;
        // Once another tag disagreed with the branch, the whole call binds
        // the object otherwise: only the tags are checked.
        let diverged = match &frame.tagging {
            Tagging::Decided(tag) => tag.diverged && !tag.other(key),
            _ => false,
        };
        if frame.checked
            && !diverged
            && let (Some(sites), Some(site)) = (sites, frame.slot.site)
        {
            match sites.member(site, key) {
                Child::Known(site) => child.site = Some(site),
                Child::Forbidden => forbidden = true,
                Child::Unknown => {}
            }
        }
        frame.child = child;
        if forbidden && checking {
            let mut object = self.frames[top].skeleton();
            object.insert(key.to_owned(), Value::Null);
            self.report(Value::Object(object), top, top + 1, false);
        }
    }

    fn read_scalar(&mut self, token: Token<'_>, on_event: Option<OnEvent<'_>>) {
        let checking = self.checking();
        let (mut slot, location) = self.next_value();
        let depth = self.frames.len();
        if let Some(parent) = self.frames.last_mut() {
            parent.resume = token.end;
        }
        let Some(value) = decode_scalar(token) else {
            // A token `serde_json` refuses (bytes that are not UTF-8, a
            // number out of its range): its error is checked here, before
            // anything after the token is read. (A number ends at the
            // byte after it, or at the text's end.)
            self.intact = false;
            let at = match token.bytes().first() {
                Some(b'"') => token.end - 1,
                _ => token.end.min(token.text.len().saturating_sub(1)),
            };
            self.check_syntax(token.text, at);
            return;
        };
        // Below a container reported whole, members report nothing.
        let (loud, awaiting, decided) = match self.frames.last() {
            None => (true, false, false),
            Some(frame) => (
                frame.settled && !frame.quiet,
                matches!(frame.tagging, Tagging::Awaiting(_)),
                matches!(frame.tagging, Tagging::Decided(_)),
            ),
        };
        if awaiting {
            self.decide_by_tag(&value);
        }
        if decided && !self.another_tag(&value) {
            slot.site = None;
        }
        self.refuse_outside_every_tag(&value, depth);
        let (location, on_event) = if loud {
            (location, on_event)
        } else {
            (None, None)
        };
        if let (Some(loc), Some(plan)) = (slot.loc, self.checks.plan) {
            let site = match (checking, self.checks.sites, slot.site) {
                (true, Some(sites), Some(id)) => Some(sites.site(id)),
                _ => None,
            };
            // What the normalized value is needed for: an event, or a
            // check that reads it (a string may decode into a container or
            // hit an `enum`); a type check alone needs only the raw shape.
            let wanted = location.is_some()
                || on_event.is_some()
                || site.is_some_and(|site| {
                    let declared = plan.declared(&loc);
                    site.never
                        || !declared.contains(JsonType::of(&value))
                        || site.constrains_value()
                        || (value.is_string() && declared.wants_json())
                        || (site.integer && value.is_f64())
                });
            if wanted {
                self.inspect_scalar(plan, &loc, site, &value, (location, on_event), depth);
            }
        }
        self.place(value);
    }

    /// Checks a complete scalar against its location and records its
    /// event, both on its normalized form.
    fn inspect_scalar(
        &mut self,
        plan: &SchemaPlan,
        loc: &Loc,
        site: Option<&Site>,
        value: &Value,
        (location, on_event): (Option<Pointer>, Option<OnEvent<'_>>),
        depth: usize,
    ) {
        let declared = plan.declared(loc);
        // A string that holds no reference and is not decoded as JSON here
        // is its own normal form: the walk would only confirm it.
        let plain = match value {
            Value::String(text) => {
                !declared.wants_json() && !crate::entities::has_reference_candidate(text.as_bytes())
            }
            _ => true,
        };
        let normalized = if plain {
            std::borrow::Cow::Borrowed(value)
        } else {
            let mut copy = value.clone();
            if normalize(plan, loc, &mut copy, depth, &self.options).is_err() {
                // The whole call stops at a limit there; the end says so.
                return;
            }
            std::borrow::Cow::Owned(copy)
        };
        if let Some(site) = site {
            // A number with a fraction or an exponent where an integer is
            // declared: the validator says whether it is refused (`5.5`
            // always; `5.0` where the model has a Rust integer).
            let refused = site.never
                || !declared.contains(JsonType::of(&normalized))
                || site.refuses_value(&normalized)
                || (site.integer && normalized.is_f64());
            if refused {
                self.report(normalized.as_ref().clone(), depth, depth, true);
            }
        }
        if let Some(on_event) = on_event {
            on_event(EventRef::Value {
                location: Location::new(&self.frames, self.frames.len()),
                value: &normalized,
            });
        }
        if let Some(location) = location {
            let value = normalized.into_owned();
            self.events.push(Event::Value { location, value });
        }
    }

    /// Places a complete value in its container (or as the root).
    fn place(&mut self, value: Value) {
        match self.frames.last_mut() {
            None => self.parsed = Some(value),
            Some(frame) => self.repeated |= frame.built.place(&mut frame.key, value),
        }
    }

    /// Closes the innermost container at byte `at` of the text so far
    /// (`whole`, when every fragment came as text).
    fn close_container(&mut self, at: usize, whole: Option<&str>, on_event: Option<OnEvent<'_>>) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let depth = self.frames.len();
        if let Some(parent) = self.frames.last_mut() {
            parent.resume = at + 1;
        }
        // Findings whose open objects have all closed are now certain.
        if !self.provisional.is_empty() {
            let mut promoted = None;
            for p in &mut self.provisional {
                p.anchors.retain(|(i, _)| *i < depth);
                if p.anchors.is_empty() && promoted.is_none() {
                    promoted = Some(p.found.finding.clone());
                }
            }
            self.provisional.retain(|p| !p.anchors.is_empty());
            if let Some(finding) = promoted {
                self.settle(finding);
            }
        }
        let value = frame.built.into_value();
        if frame.refused
            && self.checking()
            && self.intact
            && let (Some(plan), Some(loc)) = (self.checks.plan, &frame.slot.loc)
        {
            let mut copy = crate::deep::clone_value(&value, depth);
            if normalize(plan, loc, &mut copy, depth, &self.options).is_ok() {
                self.report(copy, depth, depth, true);
            }
        }
        let recording = (frame.location.is_some() || on_event.is_some()) && !frame.quiet;
        if let (true, Some(loc)) = (recording, &frame.slot.loc) {
            if frame.settled {
                let shape = if frame.object {
                    JsonType::Object
                } else {
                    JsonType::Array
                };
                if let Some(on_event) = on_event {
                    let location = Location::new(&self.frames, self.frames.len());
                    on_event(EventRef::Closed { location, shape });
                }
                if let Some(location) = frame.location {
                    self.events.push(Event::Closed { location, shape });
                }
            } else if let (Some(plan), true) = (self.checks.plan, self.intact) {
                // Members were not placed one by one: the whole value,
                // normalized against its location with the real value bound.
                // A text the whole-text entry points would skip normalizing
                // (`json_text::inspect`) is its own normal form here too.
                let plain = whole
                    .and_then(|text| text.get(frame.start..=at))
                    .is_some_and(|text| !crate::json_text::inspect(text).may_need_repair);
                let normalized = if plain {
                    Some(std::borrow::Cow::Borrowed(&value))
                } else {
                    let mut copy = crate::deep::clone_value(&value, depth);
                    normalize(plan, loc, &mut copy, depth, &self.options)
                        .is_ok()
                        .then_some(std::borrow::Cow::Owned(copy))
                };
                if let Some(normalized) = normalized {
                    if let Some(on_event) = on_event {
                        let location = Location::new(&self.frames, self.frames.len());
                        on_event(EventRef::Whole {
                            location,
                            value: &normalized,
                        });
                    }
                    if let Some(location) = frame.location {
                        let value = match normalized {
                            std::borrow::Cow::Borrowed(value) => {
                                crate::deep::clone_value(value, depth)
                            }
                            std::borrow::Cow::Owned(value) => value,
                        };
                        self.events.push(Event::Whole { location, value });
                    }
                }
            }
        }
        self.place(value);
    }

    /// Words and records a finding. `leaf` is the value being read in
    /// `frames[..depth]` (for a key finding: the object holding only that
    /// key, in place of the innermost container); the finding is at the
    /// value being read in `frames[..at]`, or (`below`) under it. The
    /// validator checks a skeleton of the arguments holding only that path;
    /// the violation found there is the one the whole call gets there.
    fn report(&mut self, leaf: Value, depth: usize, at: usize, below: bool) {
        self.wordings += 1;
        let mut value = leaf;
        for frame in self.frames[..depth].iter().rev() {
            value = if frame.object {
                let mut object = frame.skeleton();
                object.insert(frame.key.clone(), value);
                Value::Object(object)
            } else {
                let mut items = vec![Value::Null; frame.count.saturating_sub(1)];
                items.push(value);
                Value::Array(items)
            };
        }
        let Some(validator) = self.checks.validator else {
            return;
        };
        let Err(violations) = validator.validate(&value) else {
            return;
        };
        let target = self.location_at(at).to_pointer().to_string();
        let found = violations.into_iter().find(|v| {
            v.pointer == target
                || (below
                    && v.pointer.len() > target.len()
                    && v.pointer.starts_with(&target)
                    && v.pointer.as_bytes()[target.len()] == b'/')
        });
        let Some(violation) = found else {
            return;
        };
        // The objects on the path (the key's own object excepted for a key
        // finding) may still repeat the key the path goes through.
        let mut anchors: Vec<(usize, Option<String>)> = self.frames[..depth]
            .iter()
            .enumerate()
            .filter(|(_, frame)| frame.object)
            .map(|(i, frame)| (i, Some(frame.key.clone())))
            .collect();
        // Likewise what decided unions on the path: a tag, or (any key) the
        // object's only member.
        let reach = at.min(self.frames.len());
        for (i, frame) in self.frames[..reach].iter().enumerate() {
            match &frame.tagging {
                Tagging::Decided(tag) => {
                    anchors.push((i, Some(tag.key.to_string())));
                    // Below another member, the object's other tags too: one
                    // that disagrees binds the whole call's object otherwise.
                    if !tag.other(&frame.key) {
                        anchors.extend(tag.others.iter().map(|name| (i, Some(name.to_string()))));
                    }
                }
                Tagging::DecidedByKey => anchors.push((i, None)),
                _ => {}
            }
        }
        let finding = Finding::Invalid(violation);
        if anchors.is_empty() {
            self.settle(finding);
        } else if self.provisional.len() < MAX_PROVISIONAL {
            self.provisional.push(Provisional {
                found: Found {
                    finding,
                    received: self.received,
                    certainty: Certainty::UnlessRepeated,
                },
                anchors,
            });
        }
    }

    /// The snapshot, from the values built so far: the open containers'
    /// complete members, copied, with the string being received. The text
    /// is parsed instead where the built values are not `serde_json`'s, or
    /// the snapshot could nest deeper than `serde_json` parses (it then
    /// has none), so both ways give the same snapshot.
    fn snapshot(&self, lexer: &Lexer) -> Option<Snapshot> {
        if self.snapshot_is_built() {
            self.snapshot_of_built(lexer)
        } else {
            self.snapshot_of_text(lexer)
        }
    }

    fn snapshot_is_built(&self) -> bool {
        !self.frames.is_empty() && self.intact && self.deepest < SNAPSHOT_DEPTH
    }

    fn snapshot_of_built(&self, lexer: &Lexer) -> Option<Snapshot> {
        let text = lexer.text();
        let (mut value, open) = match lexer.open_string() {
            Some((start, false)) if lexer.broken().is_none() => {
                // With nothing to unescape (and no control byte, or the text
                // would be broken), the content as sent up to its last whole
                // character; else (or if it is not UTF-8) the token decoded.
                let plain = (!lexer.open_string_escaped())
                    .then(|| whole_characters(&text[start + 1..]))
                    .flatten();
                let string = match plain {
                    Some(plain) => plain.to_owned(),
                    None => {
                        let mut token = text[start..safe_end(text, start)].to_vec();
                        token.push(b'"');
                        serde_json::from_slice::<String>(&token).ok()?
                    }
                };
                (Some(Value::String(string)), self.open_locations(true))
            }
            _ => (None, self.open_locations(false)),
        };
        for (depth, frame) in self.frames.iter().enumerate().rev() {
            let mut container = frame.built.copy(depth);
            if let Some(member) = value {
                let _ = container.place(&mut frame.key.clone(), member);
            }
            value = Some(container.into_value());
        }
        Some(Snapshot {
            value: value?,
            open,
        })
    }

    /// The snapshot, parsed from the text so far (closed where it stands).
    fn snapshot_of_text(&self, lexer: &Lexer) -> Option<Snapshot> {
        let text = lexer.text();
        let mut open = Vec::new();
        let mut out: Vec<u8>;
        if self.frames.is_empty() {
            match lexer.open_string() {
                Some((start, false)) if lexer.broken().is_none() => {
                    out = text[start..safe_end(text, start)].to_vec();
                    out.push(b'"');
                    open.push(Pointer::root());
                }
                _ => {
                    let value = serde_json::from_slice::<Value>(text).ok()?;
                    return Some(Snapshot { value, open });
                }
            }
        } else {
            let top = self.frames.last()?;
            match lexer.open_string() {
                Some((start, false)) if lexer.broken().is_none() => {
                    out = text[..safe_end(text, start)].to_vec();
                    out.push(b'"');
                    open = self.open_locations(true);
                }
                _ => {
                    out = text[..top.resume].to_vec();
                    open = self.open_locations(false);
                }
            }
            for frame in self.frames.iter().rev() {
                out.push(if frame.object { b'}' } else { b']' });
            }
        }
        let value = serde_json::from_slice::<Value>(&out).ok()?;
        Some(Snapshot { value, open })
    }
}

thread_local! {
    /// The frame stack of the last call this thread dropped (emptied): a
    /// frame is a few hundred bytes, so even a shallow stack is a large
    /// allocation, which costs the allocator more per call than reusing it.
    static SPARE_FRAMES: std::cell::Cell<Option<Vec<Frame>>> = const { std::cell::Cell::new(None) };
    /// Likewise the event queue (events are drained, the queue stays).
    static SPARE_EVENTS: std::cell::Cell<Option<Vec<Event>>> = const { std::cell::Cell::new(None) };
}

/// Frame stacks deeper than this, and event queues longer than this, are
/// not kept for reuse.
const SPARE_FRAMES_LIMIT: usize = 64;
const SPARE_EVENTS_LIMIT: usize = 256;

fn spare_frames() -> Vec<Frame> {
    SPARE_FRAMES.with(std::cell::Cell::take).unwrap_or_default()
}

impl Drop for Core<'_> {
    fn drop(&mut self) {
        // A call left unfinished may hold a value nested deeper than the
        // stack allows `Value`'s recursive drop (see `crate::deep`).
        if let Some(parsed) = self.parsed.take() {
            crate::deep::drop_value(parsed);
        }
        let mut frames = std::mem::take(&mut self.frames);
        for frame in frames.drain(..) {
            crate::deep::drop_value(frame.built.into_value());
        }
        if frames.capacity() <= SPARE_FRAMES_LIMIT {
            SPARE_FRAMES.with(|spare| spare.set(Some(frames)));
        }
        let mut events = std::mem::take(&mut self.events);
        if events.capacity() <= SPARE_EVENTS_LIMIT {
            events.clear();
            SPARE_EVENTS.with(|spare| spare.set(Some(events)));
        }
    }
}

/// An empty object or array: what the plan is asked about when a container
/// opens (its members are not known yet). Built once: an empty map seeds
/// its hasher from thread-local state on every construction.
fn empty_container(object: bool) -> &'static Value {
    static EMPTY: std::sync::OnceLock<[Value; 2]> = std::sync::OnceLock::new();
    let [array, map] = EMPTY.get_or_init(|| [Value::Array(Vec::new()), Value::Object(Map::new())]);
    if object { map } else { array }
}

/// Normalizes a complete value found at `loc`, `depth` containers deep.
fn normalize(
    plan: &SchemaPlan,
    loc: &Loc,
    value: &mut Value,
    depth: usize,
    options: &Options,
) -> Result<(), NormalizeError> {
    let mut report = Report::default();
    let mut repairer = Repairer::new(options, &mut report);
    repairer.walk(plan, loc, value, &Path::ROOT, depth)
}

/// Nesting from which a snapshot is parsed from the text: `serde_json`
/// parses no deeper, and a host drops the snapshot's value recursively.
const SNAPSHOT_DEPTH: usize = 128;

/// The end of the longest prefix of an open string (starting with its quote
/// at `start`) that holds only complete characters and escapes.
fn safe_end(text: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut safe = i;
    while i < text.len() {
        let step = match text[i] {
            b'\\' => match text.get(i + 1) {
                // A high surrogate needs its low half to be shown.
                Some(b'u') if is_high_surrogate(text.get(i + 2..i + 6)) => 12,
                Some(b'u') => 6,
                Some(_) => 2,
                None => break,
            },
            byte if byte < 0x80 => 1,
            byte if byte >= 0xF0 => 4,
            byte if byte >= 0xE0 => 3,
            _ => 2,
        };
        if i + step > text.len() {
            break;
        }
        i += step;
        safe = i;
    }
    safe
}

/// `bytes` up to the last whole character, when they are UTF-8 but for a
/// character cut at the end.
fn whole_characters(bytes: &[u8]) -> Option<&str> {
    match std::str::from_utf8(bytes) {
        Ok(whole) => Some(whole),
        Err(error) if error.error_len().is_none() => {
            std::str::from_utf8(&bytes[..error.valid_up_to()]).ok()
        }
        Err(_) => None,
    }
}

/// Whether four hex digits spell a UTF-16 high surrogate (D800-DBFF).
fn is_high_surrogate(hex: Option<&[u8]>) -> bool {
    hex.and_then(|hex| std::str::from_utf8(hex).ok())
        .and_then(|hex| u16::from_str_radix(hex, 16).ok())
        .is_some_and(|unit| (0xD800..0xDC00).contains(&unit))
}
