//! What a streamed call tells its host while it grows: events, a snapshot
//! for display, and early rejections.

use crate::path::{Pointer, Segment};
use crate::plan::JsonType;
use serde_json::Value;

/// Something that completed in the arguments.
///
/// Every value of the arguments is reported once: a string, number,
/// boolean or null as a [`Event::Value`], and then each array and object
/// that holds it as a [`Event::Closed`] — except below a location whose
/// members' schema depends on the whole value there (a union whose branch
/// a tag picks, such as a tagged enum; a verbatim mark), where one
/// [`Event::Whole`] carries all of it once it is complete. So the events of
/// a call cost O(its size) together, however deep or wide it is.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// A string, number, boolean or null is complete, as normalization
    /// makes it (RT-TOOL-8): character references decoded, a string of
    /// JSON decoded where the location declares an array or object and no
    /// string.
    Value {
        /// Where it is.
        location: Pointer,
        /// The normalized value.
        value: Value,
    },
    /// An array or object is complete; its members were reported before it.
    Closed {
        /// Where it is.
        location: Pointer,
        /// [`JsonType::Array`] or [`JsonType::Object`].
        shape: JsonType,
    },
    /// An array or object is complete at a location whose members' schema
    /// depends on its whole value: all of it, normalized (its members were
    /// not reported one by one).
    Whole {
        /// Where it is.
        location: Pointer,
        /// The normalized value.
        value: Value,
    },
}

impl Event {
    /// Where the completed value is.
    pub fn location(&self) -> &Pointer {
        match self {
            Event::Value { location, .. }
            | Event::Closed { location, .. }
            | Event::Whole { location, .. } => location,
        }
    }
}

/// An event as it happens, lent to the callback of
/// [`ArgsStream::push_with`](super::ArgsStream::push_with): the same events
/// as [`Event`], in the same order, but nothing is copied or allocated for
/// them. The value is the one the stream builds (or its normalized form),
/// and the location is read from the stream's open containers on demand.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum EventRef<'a> {
    /// A string, number, boolean or null is complete (see [`Event::Value`]).
    Value {
        /// Where it is.
        location: Location<'a>,
        /// The normalized value.
        value: &'a Value,
    },
    /// An array or object is complete (see [`Event::Closed`]).
    Closed {
        /// Where it is.
        location: Location<'a>,
        /// [`JsonType::Array`] or [`JsonType::Object`].
        shape: JsonType,
    },
    /// An array or object is complete where its members' schema depends on
    /// its whole value (see [`Event::Whole`]).
    Whole {
        /// Where it is.
        location: Location<'a>,
        /// The normalized value.
        value: &'a Value,
    },
}

impl<'a> EventRef<'a> {
    /// Where the completed value is.
    pub fn location(&self) -> Location<'a> {
        match *self {
            EventRef::Value { location, .. }
            | EventRef::Closed { location, .. }
            | EventRef::Whole { location, .. } => location,
        }
    }

    /// The owned [`Event`]: what [`ArgsStream::events`](super::ArgsStream::events)
    /// yields for it.
    pub fn to_event(&self) -> Event {
        match *self {
            EventRef::Value { location, value } => Event::Value {
                location: location.to_pointer(),
                value: value.clone(),
            },
            EventRef::Closed { location, shape } => Event::Closed {
                location: location.to_pointer(),
                shape,
            },
            EventRef::Whole { location, value } => Event::Whole {
                location: location.to_pointer(),
                value: value.clone(),
            },
        }
    }
}

/// Where an [`EventRef`]'s value is: the steps from the root through the
/// containers still open, read in place.
#[derive(Clone, Copy)]
pub struct Location<'a> {
    steps: &'a dyn Steps,
    depth: usize,
}

/// The open containers a [`Location`] reads its steps from (the stream
/// engine's stack), without this module knowing how they are kept.
pub(crate) trait Steps {
    /// The step from the `i`-th open container into the value being read.
    fn step(&self, i: usize) -> Segment<'_>;
}

impl<'a> Location<'a> {
    /// The location through the first `depth` containers of `steps`.
    pub(crate) fn new(steps: &'a dyn Steps, depth: usize) -> Self {
        Location { steps, depth }
    }

    /// Number of steps (0 for the root).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The steps, outermost first.
    pub fn segments(&self) -> impl Iterator<Item = Segment<'a>> + 'a {
        let steps = self.steps;
        (0..self.depth).map(move |i| steps.step(i))
    }

    /// The location as a [`Pointer`] (allocates one link a step).
    pub fn to_pointer(&self) -> Pointer {
        self.segments()
            .fold(Pointer::root(), |at, segment| at.child(segment))
    }
}

impl std::fmt::Debug for Location<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_pointer().to_string())
    }
}

/// The arguments received so far, for display: complete members as sent,
/// the string being received shown up to its last complete character, and
/// the containers and string still open.
///
/// Made on demand, a copy of the values the stream has built so far
/// (O(their size)), so a host that shows a snapshot now and then does not
/// pay for one per fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The value so far: open containers closed after their last complete
    /// member, the open string closed where it stands. Not normalized: a
    /// string may still grow.
    pub value: Value,
    /// The open containers, outermost first, then the open string, if one
    /// is being received.
    pub open: Vec<Pointer>,
}

impl Snapshot {
    /// Whether the value at `location` is still being received.
    pub fn is_open(&self, location: &Pointer) -> bool {
        self.open.contains(location)
    }
}

/// How sure an early rejection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Certainty {
    /// Every continuation of the text is rejected, this way (see the module
    /// documentation for the precise statement).
    Certain,
    /// The same, unless the model later sends again a key on the path of
    /// the rejected value, or the tag member of a tagged union on it, or
    /// any second key in an externally tagged variant's object on it: a
    /// repeated key replaces the earlier member in the whole text (as the
    /// parser reads JSON), and the rejected value with it; a tag or a
    /// second key changes which branch the union takes. It becomes
    /// [`Certainty::Certain`] when the enclosing objects close without
    /// them.
    UnlessRepeated,
}

/// A rejection known before the text is complete.
#[derive(Clone, Debug, PartialEq)]
pub struct Early<E> {
    /// The rejection, as the whole call reports it.
    pub rejection: E,
    /// Bytes of arguments text received when it became known (at this
    /// certainty).
    pub received: usize,
    /// How sure it is.
    pub certainty: Certainty,
}
