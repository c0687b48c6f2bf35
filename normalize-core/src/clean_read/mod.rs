//! The clean path: a call that needs no repair and breaks no rule is read
//! once, by the type's own `Deserialize` over serde_json's parser, with no
//! `Value` built, no normalizer run and no validator walk.
//!
//! Most calls are clean, and for them the full path (parse to a `Value`,
//! normalize, validate, deserialize) costs two to four times serde's read
//! alone. The clean path gives the same result as the full path or gives
//! none: it never rejects a call. Whatever it cannot vouch for ends the read
//! and the call takes the full path, which repairs, validates and names
//! every pointer. Two things vouch for a call:
//!
//! 1. the type ([`eligible`]): its model says everything serde does, and
//!    its schema says nothing serde's read does not enforce;
//! 2. the read itself, watched ([`observer`]): serde's own refusals (a
//!    missing or repeated field, `5.0` for an integer, a type mismatch),
//!    and the observer's (a string a repair would change, an undeclared or
//!    aliased key, a repeated map key, a struct written as an array, an
//!    `f32` past its range, nesting past what the caller's stack is trusted
//!    with).
//!
//! The checks ride on serde_json's own pass, with one exception: the text
//! is searched once for a character reference candidate before the read
//! (`entities::no_candidate_in_any_part`, a `memchr` per `&`). Where it
//! holds none, a string serde_json hands as a slice of the text needs no
//! search of its own; one decoded from escapes is searched as decoded. One
//! search of the whole text costs less than one per string, whose setup
//! dominates for the short strings most calls are made of.
//!
//! Only the default [`Options`] and calls as text take it; other options
//! change what the full path does (the entity mode, the limits, the pass
//! bound), and a parsed `Value` has been read already.

mod eligible;
mod observer;

pub use eligible::Fallback;

use crate::contract::model::Node;
use crate::normalizer::Options;
use serde::de::DeserializeOwned;
use std::cell::Cell;

pub(crate) use eligible::check as eligibility;

/// Which path a call took, counted per thread: how tests see that the clean
/// path is taken where it should be, and left where it must be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathsTaken {
    /// Calls read by the clean path.
    pub clean: u64,
    /// Calls of a type or with options the clean path never reads.
    pub never: u64,
    /// Calls the clean path tried and left to the full path.
    pub left: u64,
}

thread_local! {
    static TAKEN: Cell<PathsTaken> = const { Cell::new(PathsTaken { clean: 0, never: 0, left: 0 }) };
}

/// The paths taken on this thread so far.
pub fn paths_taken() -> PathsTaken {
    TAKEN.with(Cell::get)
}

fn count(change: impl FnOnce(&mut PathsTaken)) {
    TAKEN.with(|taken| {
        let mut now = taken.get();
        change(&mut now);
        taken.set(now);
    });
}

/// `T` from `text` by the clean path, or, when the full path is to read it,
/// what the clean path learned on the way: whether it searched the text for
/// a character reference candidate and found none in any part (`None`: not
/// searched). The full path needs that answer too, and takes this one
/// rather than search again. `eligible` is the type's [`eligibility`],
/// `node` its model.
pub(crate) fn read<T: DeserializeOwned>(
    text: &str,
    options: &Options,
    eligible: bool,
    node: &'static Node,
) -> Result<T, Option<bool>> {
    if !eligible || *options != Options::default() {
        count(|taken| taken.never += 1);
        return Err(None);
    }
    let read = attempt::<T>(text, options, node);
    count(|taken| match read {
        Ok(_) => taken.clean += 1,
        Err(_) => taken.left += 1,
    });
    read
}

fn attempt<T: DeserializeOwned>(
    text: &str,
    options: &Options,
    node: &'static Node,
) -> Result<T, Option<bool>> {
    if options.check_size(text.len()).is_err() || crate::call::is_json_whitespace(text) {
        return Err(None);
    }
    let free = observer::Free::of(text);
    let left = Some(free.vouches());
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(observer::Observed::root(&mut de, node, &free)).map_err(|_| left)?;
    de.end().map_err(|_| left)?;
    Ok(value)
}
