//! Tool calls checked while they stream.
//!
//! Models stream a call's arguments as text fragments (chat completions'
//! `tool_calls[i].function.arguments` deltas, the Responses API's
//! `response.function_call_arguments.delta`, Anthropic's `input_json_delta`);
//! [`wire`] reads each provider's events into [`wire::CallDelta`]s keyed by
//! the provider's call index. This module checks the arguments as they
//! grow:
//!
//! - [`ArgsStream<T>`](ArgsStream): one call's arguments for a derived type
//!   `T`; [`ArgsSession<T>`](ArgsSession) follows a response's calls by
//!   index.
//! - [`ToolStreams`]: a [`Toolbox`](crate::toolbox::Toolbox) prepared once
//!   for streaming; [`ToolCallStream`] is one call to it (the name resolved
//!   when the arguments begin), [`Session`] a response's calls by index.
//!
//! Fragments may split the text anywhere, inside a character included. Each
//! byte is read once: a lexer keeps its place between fragments and a stack
//! of the open containers with the schema at each, so the whole stream
//! costs O(its bytes), never a re-parse of the prefix. While it grows, a
//! call gives:
//!
//! - [`Event`]s: each value as it completes, normalized as the whole call
//!   will be (RT-TOOL-8), at a [`Pointer`](crate::path::Pointer) that
//!   shares its prefix with its container's; or the same events lent to a
//!   callback as they happen ([`EventRef`], [`ArgsStream::push_with`],
//!   [`Session::apply_with`] for a response's calls), which copies no
//!   value and builds no location it is not asked for;
//! - a [`Snapshot`] on demand, for display: what has arrived, the string
//!   being received shown so far, the open containers named;
//! - an [`Early`] rejection, only where it is certain (below);
//! - at the end, `finish`: exactly [`ToolArgs::from_model_with`] (or
//!   [`Toolbox::check`]) on the whole text, which the stream keeps.
//!
//! The stream builds the arguments' value as it reads them, exactly the
//! value `serde_json` parses from the whole text (member order, repeated
//! keys and number representation included; tokens `serde_json` reads on
//! its own terms, such as a float, are handed to it). So
//! [`ArgsStream::finish`] does not parse the text again: it runs the rest
//! of [`ToolArgs::from_model_with`] (normalize, validate, deserialize) on
//! that value. Where anything went wrong (a syntax error, a limit, a
//! certain rejection), `finish` runs the whole entry point on the text.
//!
//! Each thread keeps the emptied buffers of the last stream it dropped (its
//! text, up to 1 MiB; its stack of open containers; its event queue) for
//! the next stream it starts: allocating and freeing them per call cost
//! more than reading a short call.
//!
//! [`ToolArgs::from_model_with`]: crate::ToolArgs::from_model_with
//! [`Toolbox::check`]: crate::toolbox::Toolbox::check
//!
//! # Early rejection, and what it guarantees
//!
//! A call is rejected early when the text so far shows, for every way it
//! could continue, that the whole call is rejected:
//!
//! - the text cannot be JSON: from the first byte no continuation makes
//!   valid, once the parser words its error the same way whatever follows.
//!   The error is the whole text's, worded by the entry point's own
//!   functions (its message, line and column), in every split, a cut inside
//!   a character included. By what is wrong, it comes with the fragment
//!   that brings:
//!   - a byte out of place (structure, a number, `true`/`false`/`null`, an
//!     unknown escape, a control character in a string): that byte;
//!   - a character out of place, which JSON never allows outside a string
//!     (a byte order mark, a fullwidth colon, anything after the root
//!     value): the character's last byte;
//!   - a `\u` escape with a byte that is not a hex digit: the fourth byte
//!     after `\u` (the parser reads four before it says what is wrong; a
//!     text that ends sooner is refused as cut short, at its end);
//!   - a lone surrogate escape: a low surrogate (`\uDC00`–`\uDFFF`) not
//!     after a high one, its fourth hex digit; a high surrogate
//!     (`\uD800`–`\uDBFF`), the first byte after it that is not `\`, the
//!     byte after that `\` that is not `u`, or the fourth hex digit of the
//!     escape that follows when it is not a low surrogate;
//!   - a number out of the parser's range (`1e400`): the byte after it;
//!   - bytes that are not UTF-8 (fed with `push_bytes`): in a string or a
//!     key, its closing quote; elsewhere, the first byte that shows it (the
//!     error is the one the parser gives the bytes, as at the end);
//! - more bytes than [`Options::max_bytes`](crate::normalizer::Options::max_bytes) (the
//!   fragment that crosses the limit), or containers nested deeper than
//!   [`Options::max_depth`](crate::normalizer::Options::max_depth) (the bracket past
//!   the limit);
//! - a toolbox call naming no registered tool (the name is complete when
//!   the arguments begin: before their first byte);
//! - a key the schema forbids whatever its value (`additionalProperties:
//!   false`, or `unevaluatedProperties: false` with nothing declaring it),
//!   once the key is complete;
//! - a complete string, number, boolean or null (after normalization: a
//!   string is entity-decoded, or JSON-decoded where the location declares
//!   an array or object) whose type the location does not declare, or
//!   that is outside its `enum`/`const`; and an array or object where the
//!   location declares neither, once complete;
//! - a number written with a fraction or an exponent where the location
//!   declares `integer`, once complete (the byte after it): `5.5` always,
//!   and `5.0` or `5e0` where a derived type's contract model reads a Rust
//!   integer there, which refuses them (`crate::contract`);
//! - a tag no branch allows: where every object branch of a union fixes one
//!   member to string values of its own (serde's internally and adjacently
//!   tagged enums), a value of that member outside them all, once complete
//!   (a string at its closing quote, anything else at the byte after it),
//!   whatever the branches constrain besides: every branch fails at the
//!   tag, and the validator reports it there whatever follows. A value
//!   normalization would change is left to the end;
//! - after a tag a branch allows, a member that branch constrains to
//!   strings by `enum`/`const` (a unit-enum member, `mode` of
//!   `Scan { mode: Mode, .. }`) sent outside them, once complete (a string
//!   at its closing quote, anything else at the byte after it): the
//!   validator reports it inside the branch the tag picks, at the member,
//!   whatever follows (see **by a tag member** below).
//!
//! Only where the schema there is known before the value is complete: every
//! enclosing location's subschemas apply whatever the rest of the value is
//! (`properties`, `items`, `prefixItems`, `additionalProperties`, `$ref`,
//! `allOf`). A union (`anyOf`/`oneOf`) counts once its branch is picked
//! and the validator's report would name that branch whatever follows:
//!
//! - **by the container's shape**: one branch admits an object (or an
//!   array), every other refuses it by `type`, `const` or `enum`. An
//!   `Option<Struct>` holding an object, an untagged enum's one object
//!   variant.
//! - **by a tag member**: every object branch fixes the same member to
//!   string values no other branch allows (serde's internally and
//!   adjacently tagged enums), or the one object branch constrains exactly
//!   one member, to strings (`Option<Struct>` with a unit-enum field).
//!   Once that member is complete, with a value
//!   normalization leaves alone, the members after it are checked against
//!   its branch; the tag is put in the skeleton the validator words a
//!   finding from, and the finding stands only while the tag is not sent
//!   again (see **Repeated keys**). The branches may constrain other
//!   members to strings too (an enum member, `mode` of
//!   `Scan { mode: Mode, .. }`), where no two branches constrain one of
//!   them to different values: the validator's report is then inside the
//!   branch the tag picks whatever they hold, so a value outside such a
//!   member's enum is refused once complete (a string at its closing
//!   quote, anything else at the byte after it), at the member. The
//!   normalizer's plan reads those members as tags too, and binds the
//!   object otherwise where one of them disagrees with the branch: a
//!   finding below any other member stands only while none of them
//!   arrives, and once one arrived disagreeing (or sent as a container)
//!   only they are checked in that object.
//! - **by the object's first key**: every object branch declares one
//!   member, requires it and allows nothing else, each a different one
//!   (serde's externally tagged variants with data). The key decides the
//!   branch while the object holds that member alone: a finding below
//!   stands only until another key arrives in that object.
//!
//! By shape or by first key, the branch taken constrains no direct member
//! or element by `const`/`enum` (the report names the union, not the
//! branch, when such a member fails); by a tag, none but as above. Below it
//! no branch is picked by a tag the plan would read from members not yet
//! seen. A group of branches that only
//! require names (a required field's aliases) constrains no member and is
//! left to the end. A branch that is itself a union and nothing else (an
//! `Option` of an enum with data) is taken by shape, and its own union is
//! then decided the same ways. Below any other `anyOf`/`oneOf` (a struct
//! with two unit-enum members in an `Option`, a tag that comes after the
//! members, a flattened enum), `patternProperties`, `if`/`then`,
//! `dependentSchemas`, or a remote reference, nothing is rejected before
//! the end: which subschema applies, and how the validator words a failure
//! there, depends on the whole value.
//!
//! The rejection is worded by the validator itself: the stream validates a
//! skeleton of the arguments holding only the path to the refused value,
//! and reports the [`Violation`](crate::validate::Violation) found at that value's
//! pointer, which is the one the whole call gets there (the validator words
//! a violation from the value and the subschemas at its pointer, and these
//! are the same).
//!
//! **Soundness.** Let `p` be the text when an early rejection `r` appears,
//! and `w` any text that starts with `p`:
//!
//! 1. `w` is rejected: no continuation makes the call succeed.
//! 2. The whole-text rejection of `w` is `r` itself (syntax, limits), or
//!    holds `r`'s violation, with the same pointer, keyword and message
//!    (invalid arguments, unknown tool) — provided the phases before `r`'s
//!    pass on `w`, since the whole call reports its first failing phase:
//!    a size or nesting limit crossed later in `w` comes before everything
//!    (as in `from_model`); a syntax error later in `w` comes before an
//!    unknown tool or invalid arguments; a limit crossed while normalizing
//!    (JSON nested in a string, the pass bound) before invalid arguments.
//!    A host that cancels at `r` never sees `w`; one that keeps reading gets
//!    the exact answer from `finish`.
//! 3. Limits are counted on the text so far: an early `TooLarge` names the
//!    bytes received when the limit was crossed, a toolbox's early nesting
//!    error the depth reached then; the whole text's may be larger.
//!
//! **Repeated keys.** JSON text may repeat a key; the parser keeps the last
//! value, in the first one's place. So a refused value inside an object
//! member (at any depth) is certain only once every enclosing object has
//! closed without sending that member's key again: until then it is an
//! early rejection with [`Certainty::UnlessRepeated`], which
//! `provisional()` returns and `rejection()` does not. The same holds for a
//! value below a union its tag decided, with the tag's key (sent again, it
//! may pick another branch) and, below a member that is not one of them,
//! the keys of the object's other tags (an enum member that disagrees
//! makes the plan bind the object otherwise), and below a union an
//! object's first key decided, with any further key of that object.
//! Statements 1 and 2 hold for it on every continuation that sends none of
//! those keys; it becomes [`Certainty::Certain`] when the objects close,
//! and is dropped when one of them arrives. Keys forbidden in the root object, values
//! of the root array, syntax, limits and unknown tools are certain at once.
//!
//! Not early: a missing required member (the end decides), bounds such as
//! `minimum` or `pattern` (the end reports them with everything else), a
//! value the Rust type refuses after validation.

mod args;
mod build;
mod engine;
mod events;
mod lexer;
#[cfg(test)]
mod parsed_tests;
mod session;
pub mod wire;

pub use args::ArgsStream;
pub use events::{Certainty, Early, Event, EventRef, Location, Snapshot};
pub use session::{ArgsSession, Session, ToolCallStream, ToolStreams};
