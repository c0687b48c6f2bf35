//! Streamed calls against a [`Toolbox`] (names resolved, each tool's schema
//! checked), and [`Session`]s that follow a response's calls by the
//! provider's index.

use super::args::ArgsStream;
use super::engine::{Checks, Engine, Finding, Found, OnEvent, lend};
use super::events::{Certainty, Early, Event, EventRef, Snapshot};
use super::lexer::Fragment;
use super::wire::CallDelta;
use crate::call::{Arguments, ToolCall, WireFormat};
use crate::normalizer::NormalizeError;
use crate::rejection::{
    CallError, InvalidArguments, Rejection, SyntaxError, SyntaxKind, UnknownTool,
};
use crate::tool_args::{ArgsError, Parsed, ToolArgs};
use crate::toolbox::{Checked, Toolbox};
use crate::validate::Violations;

/// A [`Toolbox`] prepared for streamed calls: each call reads its tool's
/// compiled schema (the plan of the schema the toolbox validates against,
/// its dialect's) and validator, both the toolbox's own, so nothing is
/// compiled again and preparing costs nothing.
pub struct ToolStreams<'t, C: ?Sized = ()> {
    toolbox: &'t Toolbox<C>,
}

impl<C: ?Sized> std::fmt::Debug for ToolStreams<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolStreams")
            .field("tools", &self.toolbox.names().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl<'t, C: ?Sized> ToolStreams<'t, C> {
    /// Streamed calls to the tools of `toolbox`.
    pub fn new(toolbox: &'t Toolbox<C>) -> Self {
        ToolStreams { toolbox }
    }

    /// The toolbox.
    pub fn toolbox(&self) -> &'t Toolbox<C> {
        self.toolbox
    }

    /// A call to the tool `name` (the whole name), whose arguments are about
    /// to stream.
    pub fn call(
        &self,
        id: Option<String>,
        name: &str,
        format: WireFormat,
    ) -> ToolCallStream<'_, 't, C> {
        let options = *self.toolbox.call_options();
        let (checks, unknown) = match self.toolbox.checked_against(name) {
            Some((plan, validator)) => (Checks::against(plan, validator), None),
            None => (
                Checks::none(),
                Some(UnknownTool::new(name, self.toolbox.names())),
            ),
        };
        ToolCallStream {
            streams: self,
            id,
            name: name.to_owned(),
            format,
            engine: Engine::new(checks, options, true),
            unknown,
        }
    }

    /// A session following the calls of one response in `format`.
    pub fn session(&self, format: WireFormat) -> Session<'_, 't, C> {
        Session {
            streams: self,
            format,
            calls: Keyed::default(),
        }
    }
}

/// One call to a toolbox, its arguments fed as they stream; at the end,
/// exactly [`Toolbox::check`] on the whole call.
pub struct ToolCallStream<'s, 't, C: ?Sized = ()> {
    streams: &'s ToolStreams<'t, C>,
    id: Option<String>,
    name: String,
    format: WireFormat,
    engine: Engine<'s>,
    unknown: Option<UnknownTool>,
}

impl<C: ?Sized> std::fmt::Debug for ToolCallStream<'_, '_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCallStream")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("received", &self.engine.received())
            .finish_non_exhaustive()
    }
}

impl<'s, 't, C: ?Sized> ToolCallStream<'s, 't, C> {
    /// The tool the call names.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The call's id, when the provider sent one.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// Reads the next fragment of the arguments text.
    #[inline]
    pub fn push(&mut self, fragment: &str) {
        self.engine.push(Fragment::Str(fragment));
    }

    /// Reads the next bytes of the arguments text.
    #[inline]
    pub fn push_bytes(&mut self, fragment: &[u8]) {
        self.engine.push(Fragment::Bytes(fragment));
    }

    /// Stops recording events (for a host that only wants the early
    /// rejection and the final result, or takes the events lent through
    /// [`ToolCallStream::push_with`]). Call before the first fragment.
    #[must_use]
    pub fn without_events(mut self) -> Self {
        self.engine.set_record_events(false);
        self
    }

    /// [`ToolCallStream::push`], handing each event to `on_event` as it
    /// happens, lent rather than copied (see
    /// [`ArgsStream::push_with`](super::ArgsStream::push_with)).
    #[inline]
    pub fn push_with(&mut self, fragment: &str, mut on_event: impl FnMut(EventRef<'_>)) {
        self.engine
            .push_with(Fragment::Str(fragment), &mut on_event);
    }

    /// [`ToolCallStream::push_bytes`], handing each event to `on_event`.
    #[inline]
    pub fn push_bytes_with(&mut self, fragment: &[u8], mut on_event: impl FnMut(EventRef<'_>)) {
        self.engine
            .push_with(Fragment::Bytes(fragment), &mut on_event);
    }

    /// [`ToolCallStream::end`], handing the event of a number standing
    /// alone as the whole text to `on_event`.
    pub fn end_with(&mut self, mut on_event: impl FnMut(EventRef<'_>)) {
        self.engine.finish_with(&mut on_event);
    }

    /// Bytes of arguments received so far.
    pub fn received(&self) -> usize {
        self.engine.received()
    }

    /// The events recorded since the last call (none for an unknown tool).
    pub fn events(&mut self) -> impl Iterator<Item = Event> + '_ {
        self.engine.take_events()
    }

    /// The arguments so far, for display.
    pub fn snapshot(&self) -> Option<Snapshot> {
        self.engine.snapshot()
    }

    /// The first certain rejection: an unknown tool as soon as the call
    /// starts, else what the arguments show (see the [module docs](super)).
    pub fn rejection(&self) -> Option<Early<Rejection>> {
        if let Some(unknown) = &self.unknown {
            return Some(Early {
                rejection: Rejection::UnknownTool(unknown.clone()),
                received: 0,
                certainty: Certainty::Certain,
            });
        }
        self.engine.certain().map(|found| self.early(found))
    }

    /// [`ToolCallStream::rejection`], or else the earliest rejection that
    /// holds unless the model repeats a key on its path.
    pub fn provisional(&self) -> Option<Early<Rejection>> {
        self.rejection()
            .or_else(|| self.engine.provisional().map(|found| self.early(found)))
    }

    fn early(&self, found: &Found) -> Early<Rejection> {
        Early {
            rejection: rejection(&self.name, &found.finding),
            received: found.received,
            certainty: found.certainty,
        }
    }

    /// The arguments are complete (the provider said so): a number
    /// standing alone as the whole text is reported now.
    /// [`ToolCallStream::finish`] implies it.
    pub fn end(&mut self) {
        self.engine.finish();
    }

    /// The arguments are complete: exactly [`Toolbox::check`] on the call
    /// with the whole text, `context` handed to the policy.
    ///
    /// # Errors
    ///
    /// The [`CallError`] the whole call gets.
    pub fn finish(&mut self, context: &C) -> Result<Checked<'t>, CallError> {
        self.engine.finish();
        let max_depth = self.engine.options().max_depth;
        if let Some((arguments, may_need_repair, text, repeated)) = self.engine.take_parsed() {
            // Parsed as it arrived, into exactly the text's value: the
            // phases after parsing.
            let read = crate::repeated_keys::Read::of(text, max_depth, repeated, true);
            return self.streams.toolbox.check_parsed(
                context,
                self.id.clone(),
                &self.name,
                arguments,
                may_need_repair,
                read,
            );
        }
        let text = match self.engine.text() {
            Err(bytes) => {
                let limit = self.engine.options().max_bytes;
                return Err(SyntaxError::limit(
                    SyntaxKind::Arguments,
                    &NormalizeError::TooLarge { bytes, limit },
                )
                .into());
            }
            Ok(Ok(text)) => text.to_owned(),
            Ok(Err(bytes)) => match std::str::from_utf8(bytes) {
                Ok(text) => text.to_owned(),
                Err(_) => return Err(super::engine::not_utf8(bytes).into()),
            },
        };
        self.streams.toolbox.check(
            context,
            ToolCall {
                id: self.id.clone(),
                name: self.name.clone(),
                arguments: Arguments::Text(text),
                format: self.format,
            },
        )
    }
}

/// A finding as [`Toolbox::check`] words it for tool `tool`.
fn rejection(tool: &str, finding: &Finding) -> Rejection {
    match finding {
        Finding::Syntax(syntax) => Rejection::Syntax((**syntax).clone()),
        Finding::TooLarge { bytes, limit } => Rejection::Syntax(SyntaxError::limit(
            SyntaxKind::Arguments,
            &NormalizeError::TooLarge {
                bytes: *bytes,
                limit: *limit,
            },
        )),
        Finding::TooDeep { found, limit } => {
            Rejection::Syntax(SyntaxError::too_deep(SyntaxKind::Arguments, *found, *limit))
        }
        Finding::Invalid(violation) => Rejection::InvalidArguments(InvalidArguments::new(
            tool,
            Violations(vec![violation.clone()]),
        )),
    }
}

/// One call of a session: its id and name as they arrive, then its stream.
#[derive(Debug)]
struct Entry<S> {
    index: u64,
    id: Option<String>,
    name: String,
    stream: Option<S>,
    ended: bool,
}

/// Calls by the provider's index (a response holds a handful).
#[derive(Debug)]
struct Keyed<S> {
    entries: Vec<Entry<S>>,
    /// Whether the calls' streams record events.
    record_events: bool,
}

impl<S> Default for Keyed<S> {
    fn default() -> Self {
        Keyed {
            entries: Vec::new(),
            record_events: true,
        }
    }
}

/// What a session needs of a call's stream: a fragment or the end, with
/// the events lent to `on_event` when there is one.
trait Fed: Sized {
    fn feed(&mut self, fragment: &str, on_event: Option<OnEvent<'_>>);
    fn end(&mut self, on_event: Option<OnEvent<'_>>);
    fn without_events(self) -> Self;
}

impl<S: Fed> Keyed<S> {
    fn entry(&mut self, index: u64) -> &mut Entry<S> {
        let at = match self.entries.iter().position(|e| e.index == index) {
            Some(at) => at,
            None => {
                self.entries.push(Entry {
                    index,
                    id: None,
                    name: String::new(),
                    stream: None,
                    ended: false,
                });
                self.entries.len() - 1
            }
        };
        &mut self.entries[at]
    }

    /// Applies one delta; `start` opens a call's stream once its name is
    /// complete (its first arguments fragment, or its end). Returns the
    /// touched call's stream once it has one.
    fn apply(
        &mut self,
        delta: &CallDelta,
        start: impl FnOnce(Option<String>, &str) -> S,
        mut on_event: Option<OnEvent<'_>>,
    ) -> Option<&mut S> {
        let (name_part, id, fragment, end) = match delta {
            CallDelta::Begin { id, name, .. } => (name.as_deref(), id.clone(), None, false),
            CallDelta::Name { fragment, .. } => (Some(fragment.as_str()), None, None, false),
            CallDelta::Arguments { fragment, .. } => (None, None, Some(fragment.as_str()), false),
            CallDelta::End { .. } => (None, None, None, true),
        };
        let record_events = self.record_events;
        let entry = self.entry(delta.index());
        if id.is_some() {
            entry.id = id;
        }
        if let Some(part) = name_part {
            // The name is complete once the arguments begin; a fragment
            // after that is not part of it.
            if entry.stream.is_none() {
                entry.name.push_str(part);
            }
        }
        if (fragment.is_some() || end) && entry.stream.is_none() {
            entry.stream = Some(with_recording(
                start(entry.id.clone(), &entry.name),
                record_events,
            ));
        }
        let stream = entry.stream.as_mut()?;
        if let Some(fragment) = fragment
            && !entry.ended
        {
            stream.feed(fragment, lend(&mut on_event));
        }
        if end && !entry.ended {
            entry.ended = true;
            stream.end(on_event);
        }
        Some(stream)
    }

    /// The stream of the call at `index`, opened now if its arguments
    /// never began (`None` for an index never seen).
    fn opened(
        &mut self,
        index: u64,
        start: impl FnOnce(Option<String>, &str) -> S,
    ) -> Option<&mut S> {
        let record_events = self.record_events;
        let entry = self.entries.iter_mut().find(|e| e.index == index)?;
        Some(entry.stream.get_or_insert_with(|| {
            with_recording(start(entry.id.clone(), &entry.name), record_events)
        }))
    }
}

/// A call's stream as its session opens it.
fn with_recording<S: Fed>(stream: S, record_events: bool) -> S {
    if record_events {
        stream
    } else {
        stream.without_events()
    }
}

impl<C: ?Sized> Fed for ToolCallStream<'_, '_, C> {
    fn feed(&mut self, fragment: &str, on_event: Option<OnEvent<'_>>) {
        self.engine.push_to(Fragment::Str(fragment), on_event);
    }
    fn end(&mut self, on_event: Option<OnEvent<'_>>) {
        self.engine.finish_to(on_event);
    }
    fn without_events(self) -> Self {
        ToolCallStream::without_events(self)
    }
}

impl<T: ToolArgs> Fed for ArgsStream<T> {
    fn feed(&mut self, fragment: &str, on_event: Option<OnEvent<'_>>) {
        self.engine.push_to(Fragment::Str(fragment), on_event);
    }
    fn end(&mut self, on_event: Option<OnEvent<'_>>) {
        self.engine.finish_to(on_event);
    }
    fn without_events(self) -> Self {
        ArgsStream::without_events(self)
    }
}

/// The tool calls of one streamed response, by the provider's index,
/// against a [`Toolbox`]: calls may interleave, a name may arrive in
/// fragments before the arguments (it is complete when they begin).
pub struct Session<'s, 't, C: ?Sized = ()> {
    streams: &'s ToolStreams<'t, C>,
    format: WireFormat,
    calls: Keyed<ToolCallStream<'s, 't, C>>,
}

impl<C: ?Sized> std::fmt::Debug for Session<'_, '_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("format", &self.format)
            .field("calls", &self.calls.entries.len())
            .finish_non_exhaustive()
    }
}

impl<'s, 't, C: ?Sized> Session<'s, 't, C> {
    /// Applies one delta; returns the call it touched once its arguments
    /// began (read its events and rejection there).
    pub fn apply(&mut self, delta: &CallDelta) -> Option<&mut ToolCallStream<'s, 't, C>> {
        self.apply_to(delta, None)
    }

    /// [`Session::apply`], handing the events of the touched call to
    /// `on_event` as they happen, lent rather than copied (see
    /// [`ToolCallStream::push_with`]); the call is `delta.index()`.
    pub fn apply_with(
        &mut self,
        delta: &CallDelta,
        mut on_event: impl FnMut(EventRef<'_>),
    ) -> Option<&mut ToolCallStream<'s, 't, C>> {
        self.apply_to(delta, Some(&mut on_event))
    }

    /// The session's calls record no events (see
    /// [`ToolCallStream::without_events`]): for a host that only wants the
    /// early rejections and the results, or takes the events through
    /// [`Session::apply_with`]. Call before the first delta.
    #[must_use]
    pub fn without_events(mut self) -> Self {
        self.calls.record_events = false;
        self
    }

    fn apply_to(
        &mut self,
        delta: &CallDelta,
        on_event: Option<OnEvent<'_>>,
    ) -> Option<&mut ToolCallStream<'s, 't, C>> {
        let (streams, format) = (self.streams, self.format);
        self.calls
            .apply(delta, |id, name| streams.call(id, name, format), on_event)
    }

    /// The call at `index`, once its arguments began.
    pub fn call(&mut self, index: u64) -> Option<&mut ToolCallStream<'s, 't, C>> {
        self.calls.entry_of(index)
    }

    /// Whether the provider said the call at `index` is complete.
    pub fn ended(&self, index: u64) -> bool {
        self.calls.ended(index)
    }

    /// The indexes seen, in order of first appearance.
    pub fn indexes(&self) -> impl Iterator<Item = u64> + '_ {
        self.calls.entries.iter().map(|e| e.index)
    }

    /// Exactly [`Toolbox::check`] on the call at `index` with its whole
    /// text (`None` for an index never seen).
    pub fn finish(&mut self, index: u64, context: &C) -> Option<Result<Checked<'t>, CallError>> {
        let (streams, format) = (self.streams, self.format);
        let stream = self
            .calls
            .opened(index, |id, name| streams.call(id, name, format))?;
        Some(stream.finish(context))
    }
}

/// The calls of one streamed response, by the provider's index, all with
/// arguments of type `T` (the names are kept, not resolved).
#[derive(Debug)]
pub struct ArgsSession<T: ToolArgs> {
    options: crate::normalizer::Options,
    calls: Keyed<ArgsStream<T>>,
}

impl<T: ToolArgs> Default for ArgsSession<T> {
    fn default() -> Self {
        ArgsSession::new(crate::normalizer::Options::default())
    }
}

impl<T: ToolArgs> ArgsSession<T> {
    /// A session whose calls are read with `options`.
    pub fn new(options: crate::normalizer::Options) -> Self {
        ArgsSession {
            options,
            calls: Keyed::default(),
        }
    }

    /// Applies one delta; returns the call it touched once its arguments
    /// began.
    pub fn apply(&mut self, delta: &CallDelta) -> Option<&mut ArgsStream<T>> {
        self.apply_to(delta, None)
    }

    /// [`ArgsSession::apply`], handing the events of the touched call to
    /// `on_event` as they happen, lent rather than copied (see
    /// [`ArgsStream::push_with`]); the call is `delta.index()`.
    pub fn apply_with(
        &mut self,
        delta: &CallDelta,
        mut on_event: impl FnMut(EventRef<'_>),
    ) -> Option<&mut ArgsStream<T>> {
        self.apply_to(delta, Some(&mut on_event))
    }

    /// The session's calls record no events (see
    /// [`ArgsStream::without_events`]): for a host that only wants the
    /// early rejections and the results, or takes the events through
    /// [`ArgsSession::apply_with`]. Call before the first delta.
    #[must_use]
    pub fn without_events(mut self) -> Self {
        self.calls.record_events = false;
        self
    }

    fn apply_to(
        &mut self,
        delta: &CallDelta,
        on_event: Option<OnEvent<'_>>,
    ) -> Option<&mut ArgsStream<T>> {
        let options = self.options;
        self.calls
            .apply(delta, |_, _| ArgsStream::with_options(options), on_event)
    }

    /// The call at `index`, once its arguments began.
    pub fn call(&mut self, index: u64) -> Option<&mut ArgsStream<T>> {
        self.calls.entry_of(index)
    }

    /// The name the call at `index` gave (complete once its arguments
    /// began).
    pub fn name(&self, index: u64) -> Option<&str> {
        self.calls
            .entries
            .iter()
            .find(|e| e.index == index)
            .map(|e| e.name.as_str())
    }

    /// The id the call at `index` gave.
    pub fn id(&self, index: u64) -> Option<&str> {
        self.calls
            .entries
            .iter()
            .find(|e| e.index == index)
            .and_then(|e| e.id.as_deref())
    }

    /// Whether the provider said the call at `index` is complete.
    pub fn ended(&self, index: u64) -> bool {
        self.calls.ended(index)
    }

    /// The indexes seen, in order of first appearance.
    pub fn indexes(&self) -> impl Iterator<Item = u64> + '_ {
        self.calls.entries.iter().map(|e| e.index)
    }

    /// Exactly [`ToolArgs::from_model_with`] on the whole arguments text of
    /// the call at `index` (`None` for an index never seen).
    pub fn finish(&mut self, index: u64) -> Option<Result<Parsed<T>, ArgsError>> {
        let options = self.options;
        let stream = self
            .calls
            .opened(index, |_, _| ArgsStream::with_options(options))?;
        Some(stream.finish())
    }
}

impl<S> Keyed<S> {
    fn entry_of(&mut self, index: u64) -> Option<&mut S> {
        self.entries
            .iter_mut()
            .find(|e| e.index == index)
            .and_then(|e| e.stream.as_mut())
    }

    fn ended(&self, index: u64) -> bool {
        self.entries.iter().any(|e| e.index == index && e.ended)
    }
}
