//! [`ArgsStream`]: one call's arguments streamed into a derived type.

use super::engine::{Checks, Engine, Finding, Found, not_utf8};
use super::events::{Early, Event, EventRef, Snapshot};
use super::lexer::Fragment;
use crate::normalizer::{NormalizeError, Options};
use crate::tool_args::{ArgsError, Parsed, ToolArgs};
use crate::validate::Violations;
use std::marker::PhantomData;

/// One call's arguments for `T`, fed as they stream.
///
/// Feed fragments in any split ([`ArgsStream::push`],
/// [`ArgsStream::push_bytes`]: a character may be split between two); read
/// what completed ([`ArgsStream::events`]), what is there so far
/// ([`ArgsStream::snapshot`]) and whether the call is already lost
/// ([`ArgsStream::rejection`]); at the end, [`ArgsStream::finish`] gives
/// exactly what [`ToolArgs::from_model_with`] gives on the whole text.
///
/// The README's "Streaming" section shows it with a derived type.
#[derive(Debug)]
pub struct ArgsStream<T: ToolArgs> {
    /// Fed by [`ArgsStream`]'s methods, or by a session's.
    pub(super) engine: Engine<'static>,
    _args: PhantomData<fn() -> T>,
}

impl<T: ToolArgs> Default for ArgsStream<T> {
    fn default() -> Self {
        ArgsStream::new()
    }
}

impl<T: ToolArgs> ArgsStream<T> {
    /// A stream with the default [`Options`] that records events.
    pub fn new() -> Self {
        ArgsStream::with_options(Options::default())
    }

    /// A stream with `options` (those [`ToolArgs::from_model_with`] gets at
    /// the end) that records events.
    pub fn with_options(options: Options) -> Self {
        // A contract that does not compile checks nothing while the text
        // arrives; `finish` then says why ([`ArgsError::Contract`]). The
        // plan is the one the contract compiled from the schema validation
        // reads (aliases are members too).
        let checks = match T::__contract() {
            Ok(compiled) => Checks::against(&compiled.plan, &compiled.validator),
            Err(_) => Checks::none(),
        };
        ArgsStream {
            engine: Engine::new(checks, options, true),
            _args: PhantomData,
        }
    }

    /// Stops recording events (for a host that only wants the early
    /// rejection and the final result). Call before the first fragment.
    #[must_use]
    pub fn without_events(mut self) -> Self {
        self.engine.set_record_events(false);
        self
    }

    /// Reads the next fragment of the arguments text.
    #[inline]
    pub fn push(&mut self, fragment: &str) {
        self.engine.push(Fragment::Str(fragment));
    }

    /// Reads the next bytes of the arguments text (UTF-8, possibly split
    /// inside a character).
    #[inline]
    pub fn push_bytes(&mut self, fragment: &[u8]) {
        self.engine.push(Fragment::Bytes(fragment));
    }

    /// [`ArgsStream::push`], handing each event to `on_event` as it
    /// happens, lent rather than copied: the same events, in the same
    /// order, as [`ArgsStream::events`] gives. A stream made
    /// [`without_events`](ArgsStream::without_events) records none besides,
    /// so it pays for no copy of a value and no location it is not asked
    /// for.
    #[inline]
    pub fn push_with(&mut self, fragment: &str, mut on_event: impl FnMut(EventRef<'_>)) {
        self.engine
            .push_with(Fragment::Str(fragment), &mut on_event);
    }

    /// [`ArgsStream::push_bytes`], handing each event to `on_event` as
    /// [`ArgsStream::push_with`] does.
    #[inline]
    pub fn push_bytes_with(&mut self, fragment: &[u8], mut on_event: impl FnMut(EventRef<'_>)) {
        self.engine
            .push_with(Fragment::Bytes(fragment), &mut on_event);
    }

    /// [`ArgsStream::end`], handing the event of a number standing alone as
    /// the whole text (the only value that completes at the end) to
    /// `on_event`.
    pub fn end_with(&mut self, mut on_event: impl FnMut(EventRef<'_>)) {
        self.engine.finish_with(&mut on_event);
    }

    /// Bytes received so far.
    pub fn received(&self) -> usize {
        self.engine.received()
    }

    /// The events recorded since the last call, oldest first.
    pub fn events(&mut self) -> impl Iterator<Item = Event> + '_ {
        self.engine.take_events()
    }

    /// The value so far, for display (`None` before any value begins, or
    /// once the text is not JSON).
    pub fn snapshot(&self) -> Option<Snapshot> {
        self.engine.snapshot()
    }

    /// The first [certain](super::Certainty::Certain) rejection: the call
    /// is lost, whatever follows (see the [module docs](super) for what is
    /// guaranteed). From then on the stream only keeps the text for
    /// [`ArgsStream::finish`]: no more events, checks or snapshots past it.
    pub fn rejection(&self) -> Option<Early<ArgsError>> {
        self.engine.certain().map(early)
    }

    /// [`ArgsStream::rejection`], or else the earliest rejection that holds
    /// unless the model repeats a key on its path
    /// ([`Certainty::UnlessRepeated`](super::Certainty::UnlessRepeated)).
    pub fn provisional(&self) -> Option<Early<ArgsError>> {
        self.engine.provisional().map(early)
    }

    /// The text is complete (the provider said so): a number standing
    /// alone as the whole text is reported now. [`ArgsStream::finish`]
    /// implies it.
    pub fn end(&mut self) {
        self.engine.finish();
    }

    /// The text is complete: exactly [`ToolArgs::from_model_with`] on the
    /// whole text, with this stream's options. (Bytes that are not UTF-8
    /// are not JSON: the error is the parser's.) A clean text is not parsed
    /// again: the value built while it streamed goes on through the same
    /// normalize, validate and deserialize steps (see the
    /// [module docs](super)). Those are the provided
    /// [`ToolArgs::from_model_with`]'s steps: a hand-written `ToolArgs`
    /// impl that overrides that method is not called here.
    ///
    /// # Errors
    ///
    /// The [`ArgsError`] the whole text gets.
    pub fn finish(&mut self) -> Result<Parsed<T>, ArgsError> {
        self.engine.finish();
        let options = *self.engine.options();
        if let Some((value, may_need_repair, text, repeated)) = self.engine.take_parsed() {
            // Parsed as it arrived, into exactly the text's value: the rest
            // of `from_model_with`.
            // Numbers are not tracked as they arrive: all are checked.
            let read = crate::repeated_keys::Read::of(text, options.max_depth, repeated, true);
            return crate::tool_args::check_parsed(
                value,
                may_need_repair,
                &options,
                Some(text),
                read,
            );
        }
        match self.engine.text() {
            Err(bytes) => Err(ArgsError::Limit(NormalizeError::TooLarge {
                bytes,
                limit: options.max_bytes,
            })),
            Ok(Ok(text)) => T::from_model_with(text, &options),
            Ok(Err(bytes)) => match std::str::from_utf8(bytes) {
                Ok(text) => T::from_model_with(text, &options),
                Err(_) => Err(ArgsError::Syntax(not_utf8(bytes))),
            },
        }
    }
}

fn early(found: &Found) -> Early<ArgsError> {
    Early {
        rejection: args_error(&found.finding),
        received: found.received,
        certainty: found.certainty,
    }
}

/// A finding as [`ToolArgs::from_model`] words it.
pub(crate) fn args_error(finding: &Finding) -> ArgsError {
    match finding {
        Finding::Syntax(syntax) => ArgsError::Syntax((**syntax).clone()),
        Finding::TooLarge { bytes, limit } => ArgsError::Limit(NormalizeError::TooLarge {
            bytes: *bytes,
            limit: *limit,
        }),
        Finding::TooDeep { limit, .. } => ArgsError::Limit(NormalizeError::TooDeep {
            pointer: String::new(),
            limit: *limit,
        }),
        Finding::Invalid(violation) => ArgsError::Invalid(Violations(vec![violation.clone()])),
    }
}
