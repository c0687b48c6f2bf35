//! The per-call engine: the lexer's structure, the schema at each open
//! container, events, and early findings.

use super::events::{Certainty, Event, Snapshot};
use super::lexer::{Lexer, Sink};
use super::pointer::Location;
use super::schema::{Child, Site, Walker};
use crate::normalizer::{NormalizeError, Options, Repairer};
use crate::path::Path;
use crate::plan::{Bound, JsonType, Loc, SchemaPlan};
use crate::report::Report;
use crate::validate::{Validator, Violation};
use serde_json::{Map, Value};

/// How many provisional findings are followed at once.
const MAX_PROVISIONAL: usize = 4;
/// How many times one call's value is built and validated to word a
/// finding (each costs a validation of a skeleton of the arguments).
const MAX_WORDINGS: u32 = 16;

/// Something found wrong before the text is complete, before it is worded
/// in the caller's error type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Finding {
    /// The text cannot be JSON: `serde_json`'s error on the text so far.
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// More bytes than [`Options::max_bytes`] arrived (so far).
    TooLarge { bytes: usize, limit: usize },
    /// Containers nest deeper than [`Options::max_depth`] (so far).
    TooDeep { found: usize, limit: usize },
    /// A value or key the schema refuses, worded by the validator.
    Invalid(Violation),
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
    /// The open objects on the finding's path (stack index, and the member
    /// location the path goes through).
    anchors: Vec<(usize, Location)>,
}

/// What the schemas say at one location.
#[derive(Clone, Debug, Default)]
struct Slot<'s> {
    /// The normalizer's location, when it does not depend on values not yet
    /// complete.
    loc: Option<Loc>,
    /// The validator's subschemas, likewise.
    site: Option<Site<'s>>,
}

#[derive(Debug)]
struct Frame<'s> {
    object: bool,
    location: Location,
    start: usize,
    /// Members or elements begun so far.
    count: usize,
    /// The member being read (objects), once its key is complete.
    member: Option<Location>,
    /// What the member being read gets (objects).
    child: Slot<'s>,
    slot: Slot<'s>,
    /// The normalizer binds this container's members without its value:
    /// each member's location is known when it starts.
    settled: bool,
    /// Members are checked as they complete (the validator's subschemas
    /// are known for each).
    checked: bool,
    bound: Option<Bound>,
    /// End of the last complete member (or just past the bracket).
    resume: usize,
    /// The location cannot hold this shape: the container is reported
    /// (with its content, as the validator words it) once complete.
    refused: bool,
}

/// The schema, plan and validator a call is checked against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checks<'s> {
    pub(crate) schema: &'s Value,
    pub(crate) plan: Option<&'s SchemaPlan>,
    /// `None`: nothing is checked against the schema (an unknown tool's
    /// arguments are only read).
    pub(crate) validator: Option<&'s Validator>,
}

/// The state of one streamed call's arguments, apart from the text.
#[derive(Debug)]
pub(crate) struct Core<'s> {
    checks: Checks<'s>,
    walker: Walker<'s>,
    options: Options,
    frames: Vec<Frame<'s>>,
    root: Option<Slot<'s>>,
    events: Vec<Event>,
    record_events: bool,
    certain: Option<Found>,
    provisional: Vec<Provisional>,
    /// Bytes received so far.
    received: usize,
    wordings: u32,
    /// A string or number the lexer accepted that `serde_json` refuses (a
    /// lone surrogate escape): the text is checked by the real parser.
    suspect: bool,
}

/// One call's engine: the lexer and the core.
#[derive(Debug)]
pub(crate) struct Engine<'s> {
    lexer: Lexer,
    core: Core<'s>,
    /// Past the size limit: bytes are counted, not kept.
    overflowed: bool,
    finished: bool,
}

impl<'s> Engine<'s> {
    pub(crate) fn new(checks: Checks<'s>, options: Options, record_events: bool) -> Self {
        let walker = Walker::new(checks.schema);
        let root = Slot {
            loc: checks.plan.map(SchemaPlan::root),
            site: Some(walker.root()),
        };
        Engine {
            lexer: Lexer::new(),
            core: Core {
                checks,
                walker,
                options,
                frames: Vec::new(),
                root: Some(root),
                events: Vec::new(),
                record_events,
                certain: None,
                provisional: Vec::new(),
                received: 0,
                wordings: 0,
                suspect: false,
            },
            overflowed: false,
            finished: false,
        }
    }

    /// Reads the next bytes of the arguments text.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        let core = &mut self.core;
        core.received += bytes.len();
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
            self.lexer.append(bytes);
            return;
        }
        self.lexer.feed(bytes, core);
        if self.lexer.broken().is_some() || std::mem::take(&mut core.suspect) {
            core.check_syntax(self.lexer.text());
        }
    }

    /// The text is complete.
    pub(crate) fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if !self.overflowed && self.core.certain.is_none() && self.lexer.broken().is_none() {
            self.lexer.finish(&mut self.core);
        }
    }

    pub(crate) fn set_record_events(&mut self, record: bool) {
        self.core.record_events = record;
    }

    /// The text so far, or `Err(bytes)` when it was too large to keep.
    pub(crate) fn text(&self) -> Result<&[u8], usize> {
        if self.overflowed {
            Err(self.core.received)
        } else {
            Ok(self.lexer.text())
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
    pub(crate) fn take_events(&mut self) -> std::vec::Drain<'_, Event> {
        self.core.events.drain(..)
    }

    /// The value so far, for display.
    pub(crate) fn snapshot(&self) -> Option<Snapshot> {
        self.core.snapshot(&self.lexer)
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

    /// Words the syntax error `serde_json` reports on the text so far, when
    /// no continuation can change it (it is not "end of input").
    fn check_syntax(&mut self, text: &[u8]) {
        let valid = match std::str::from_utf8(text) {
            Ok(text) => text,
            Err(error) => std::str::from_utf8(&text[..error.valid_up_to()]).unwrap_or_default(),
        };
        if crate::call::is_json_whitespace(valid) {
            return;
        }
        if let Err(crate::json_text::JsonTextError::Syntax(error)) =
            crate::json_text::from_str(valid, self.options.max_depth)
        {
            if error.classify() != serde_json::error::Category::Eof {
                self.settle(Finding::Syntax {
                    line: error.line(),
                    column: error.column(),
                    message: crate::tool_args::syntax_message(&error),
                });
            }
        }
    }

    /// The schemas of the value starting now, and its location; counts it
    /// in its container.
    fn next_value(&mut self) -> (Slot<'s>, Location) {
        let walker = self.walker;
        let plan = self.checks.plan;
        match self.frames.last_mut() {
            None => (self.root.take().unwrap_or_default(), Location::root()),
            Some(frame) if frame.object => (
                std::mem::take(&mut frame.child),
                frame.member.clone().unwrap_or_default(),
            ),
            Some(frame) => {
                let index = frame.count;
                frame.count += 1;
                let location = frame.location.index(index);
                let mut slot = Slot::default();
                if frame.settled {
                    if let (Some(plan), Some(bound)) = (plan, &frame.bound) {
                        slot.loc = Some(plan.item(bound, index));
                    }
                }
                if frame.checked {
                    if let Some(site) = &frame.slot.site {
                        if let Child::Known(child) = walker.item(site, index) {
                            slot.site = Some(child);
                        }
                    }
                }
                (slot, location)
            }
        }
    }

    /// Whether checks run for a value starting in the innermost container.
    fn checking(&self) -> bool {
        self.certain.is_none()
            && self.wordings < MAX_WORDINGS
            && self.frames.last().is_none_or(|frame| frame.checked)
    }

    fn open_container(&mut self, at: usize, object: bool) {
        let depth = self.frames.len() + 1;
        if depth > self.options.max_depth {
            self.settle(Finding::TooDeep {
                found: depth,
                limit: self.options.max_depth,
            });
        }
        let (slot, location) = self.next_value();
        let dummy = if object {
            Value::Object(Map::new())
        } else {
            Value::Array(Vec::new())
        };
        let plan = self.checks.plan;
        let settled = match (&slot.loc, &slot.site, plan) {
            (Some(loc), Some(site), Some(plan)) => !site.unions && !plan.verbatim(loc, &dummy),
            _ => false,
        };
        let bound = match (&slot.loc, plan) {
            (Some(loc), Some(plan)) if settled => Some(plan.bind(loc, &dummy)),
            _ => None,
        };
        let checked = settled
            && self.frames.last().is_none_or(|frame| frame.checked)
            && slot
                .site
                .as_ref()
                .is_some_and(|site| !site.open && !site.never);
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
        self.frames.push(Frame {
            object,
            location,
            start: at,
            count: 0,
            member: None,
            child: Slot::default(),
            slot,
            settled,
            checked,
            bound,
            resume: at + 1,
            refused,
        });
    }

    fn read_key(&mut self, text: &[u8], start: usize, end: usize) {
        let Some(key) = decode_string(&text[start..end]) else {
            self.suspect = true;
            return;
        };
        let top = self.frames.len() - 1;
        // A repeated key replaces the member's value: findings inside the
        // earlier value no longer hold.
        if !self.provisional.is_empty() {
            self.provisional.retain(|p| {
                !p.anchors
                    .iter()
                    .any(|(i, at)| *i == top && at.last_key() == Some(key.as_str()))
            });
        }
        let walker = self.walker;
        let plan = self.checks.plan;
        let checking = self.checking();
        let frame = &mut self.frames[top];
        frame.count += 1;
        let member = frame.location.key(&key);
        let mut child = Slot::default();
        if frame.settled {
            if let (Some(plan), Some(bound)) = (plan, &frame.bound) {
                child.loc = Some(plan.member(bound, &key));
            }
        }
        let mut forbidden = false;
        if frame.checked {
            if let Some(site) = &frame.slot.site {
                match walker.member(site, &key) {
                    Child::Known(site) => child.site = Some(site),
                    Child::Forbidden => forbidden = true,
                    Child::Unknown => {}
                }
            }
        }
        frame.member = Some(member.clone());
        frame.child = child;
        if forbidden && checking {
            let mut object = Map::new();
            object.insert(key, Value::Null);
            self.report(Value::Object(object), top, &member, false);
        }
    }

    fn read_scalar(&mut self, text: &[u8], start: usize, end: usize) {
        let checking = self.checking();
        let (slot, location) = self.next_value();
        let depth = self.frames.len();
        if let Some(parent) = self.frames.last_mut() {
            parent.resume = end;
        }
        let Some(loc) = slot.loc else {
            return;
        };
        let raw = match &text[start] {
            b'"' => decode_string(&text[start..end]).map(Value::String),
            _ => serde_json::from_slice::<Value>(&text[start..end]).ok(),
        };
        let Some(mut value) = raw else {
            self.suspect = true;
            return;
        };
        let Some(plan) = self.checks.plan else {
            return;
        };
        if normalize(plan, &loc, &mut value, depth, &self.options).is_err() {
            // The whole call stops at a limit there; the final answer says so.
            return;
        }
        if checking {
            if let Some(site) = &slot.site {
                let refused = site.never
                    || !plan.declared(&loc).contains(JsonType::of(&value))
                    || site.refuses_value(&value);
                if refused {
                    let at = self.frames.len();
                    self.report(value.clone(), at, &location, true);
                }
            }
        }
        if self.record_events {
            self.events.push(Event::Value { location, value });
        }
    }

    fn close_container(&mut self, text: &[u8], at: usize) {
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
        if frame.refused && self.checking() {
            if let (Some(plan), Some(loc)) = (self.checks.plan, &frame.slot.loc) {
                if let Ok(mut value) = serde_json::from_slice::<Value>(&text[frame.start..=at]) {
                    if normalize(plan, loc, &mut value, depth, &self.options).is_ok() {
                        self.report(value, depth, &frame.location, true);
                    }
                }
            }
        }
        if !self.record_events {
            return;
        }
        let Some(loc) = &frame.slot.loc else {
            return;
        };
        if frame.settled {
            let shape = if frame.object {
                JsonType::Object
            } else {
                JsonType::Array
            };
            self.events.push(Event::Closed {
                location: frame.location,
                shape,
            });
            return;
        }
        // Members were not placed one by one: the whole value, normalized
        // against its location with the real value bound.
        let Some(plan) = self.checks.plan else {
            return;
        };
        let Ok(mut value) = serde_json::from_slice::<Value>(&text[frame.start..=at]) else {
            self.suspect = true;
            return;
        };
        if normalize(plan, loc, &mut value, depth, &self.options).is_ok() {
            self.events.push(Event::Whole {
                location: frame.location,
                value,
            });
        }
    }

    /// Words and records a finding: `leaf` stands at `location`, the member
    /// being read in the containers `frames[..depth]` (for a key finding,
    /// `leaf` is the object holding only that key, at the innermost frame,
    /// and `location` the key's own location). The validator checks a
    /// skeleton of the arguments holding only that path; the violation at
    /// `location` (or, for a value, below it) is the one the whole call
    /// gets there.
    fn report(&mut self, leaf: Value, depth: usize, location: &Location, below: bool) {
        self.wordings += 1;
        let mut value = leaf;
        for frame in self.frames[..depth].iter().rev() {
            value = if frame.object {
                let key = frame
                    .member
                    .as_ref()
                    .and_then(Location::last_key)
                    .unwrap_or_default()
                    .to_owned();
                let mut object = Map::new();
                object.insert(key, value);
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
        let target = location.to_pointer();
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
        let anchors: Vec<(usize, Location)> = self.frames[..depth]
            .iter()
            .enumerate()
            .filter(|(_, frame)| frame.object)
            .filter_map(|(i, frame)| frame.member.clone().map(|m| (i, m)))
            .collect();
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

    fn snapshot(&self, lexer: &Lexer) -> Option<Snapshot> {
        let text = lexer.text();
        let mut open = Vec::new();
        let mut out: Vec<u8>;
        if self.frames.is_empty() {
            match lexer.open_string() {
                Some((start, false)) if lexer.broken().is_none() => {
                    out = text[start..safe_end(text, start)].to_vec();
                    out.push(b'"');
                    open.push(Location::root());
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
                    open.extend(self.frames.iter().map(|f| f.location.clone()));
                    let string_at = if top.object {
                        top.member.clone().unwrap_or_default()
                    } else {
                        top.location.index(top.count.saturating_sub(1))
                    };
                    open.push(string_at);
                }
                _ => {
                    out = text[..top.resume].to_vec();
                    open.extend(self.frames.iter().map(|f| f.location.clone()));
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

impl Sink for Core<'_> {
    fn open(&mut self, _text: &[u8], at: usize, object: bool) {
        self.open_container(at, object);
    }

    fn key(&mut self, text: &[u8], start: usize, end: usize) {
        self.read_key(text, start, end);
    }

    fn scalar(&mut self, text: &[u8], start: usize, end: usize) {
        self.read_scalar(text, start, end);
    }

    fn close(&mut self, text: &[u8], at: usize) {
        self.close_container(text, at);
    }
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

/// A complete JSON string token (quotes included) as text; `None` when
/// `serde_json` refuses it.
fn decode_string(token: &[u8]) -> Option<String> {
    let inner = token.get(1..token.len().checked_sub(1)?)?;
    if !inner.contains(&b'\\') {
        return std::str::from_utf8(inner).ok().map(str::to_owned);
    }
    serde_json::from_slice::<String>(token).ok()
}

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

/// Whether four hex digits spell a UTF-16 high surrogate (D800-DBFF).
fn is_high_surrogate(hex: Option<&[u8]>) -> bool {
    hex.and_then(|hex| std::str::from_utf8(hex).ok())
        .and_then(|hex| u16::from_str_radix(hex, 16).ok())
        .is_some_and(|unit| (0xD800..0xDC00).contains(&unit))
}
