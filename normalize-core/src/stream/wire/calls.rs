//! Which calls a stream has opened and ended, by the provider's key.

use super::{CallDelta, StreamFormat, WireError};
use std::collections::BTreeMap;

/// Where one key stands.
#[derive(Debug, Clone)]
pub(super) enum Slot<T> {
    /// A call, open, with what the format keeps about it.
    Open(T),
    /// A call, ended.
    Ended,
    /// Something at that key that is not a call of ours (a text block, a
    /// tool the provider runs itself): its deltas are skipped.
    Skipped,
}

/// The calls of one stream (one choice), by key. A map, not a vector:
/// keys come from the wire and may be sparse.
#[derive(Debug, Clone)]
pub(super) struct Calls<T> {
    format: StreamFormat,
    slots: BTreeMap<u64, Slot<T>>,
}

impl<T> Calls<T> {
    pub(super) fn new(format: StreamFormat) -> Self {
        Calls {
            format,
            slots: BTreeMap::new(),
        }
    }

    pub(super) fn get(&self, index: u64) -> Option<&Slot<T>> {
        self.slots.get(&index)
    }

    /// Opens `index` as `slot`.
    ///
    /// # Errors
    ///
    /// [`WireError::Reopened`] when the key is taken.
    pub(super) fn open(&mut self, index: u64, slot: Slot<T>) -> Result<(), WireError> {
        if self.slots.contains_key(&index) {
            return Err(WireError::Reopened {
                format: self.format,
                index,
            });
        }
        self.slots.insert(index, slot);
        Ok(())
    }

    /// The open call at `index`, for a delta.
    ///
    /// # Errors
    ///
    /// [`WireError::UnknownCall`] or [`WireError::AfterEnd`].
    pub(super) fn open_mut(&mut self, index: u64) -> Result<Option<&mut T>, WireError> {
        match self.slots.get_mut(&index) {
            Some(Slot::Open(call)) => Ok(Some(call)),
            Some(Slot::Skipped) => Ok(None),
            Some(Slot::Ended) => Err(WireError::AfterEnd {
                format: self.format,
                index,
            }),
            None => Err(WireError::UnknownCall {
                format: self.format,
                index,
            }),
        }
    }

    /// Ends the call at `index`.
    pub(super) fn end(&mut self, index: u64, out: &mut Vec<CallDelta>) {
        if let Some(slot) = self.slots.get_mut(&index)
            && matches!(slot, Slot::Open(_))
        {
            *slot = Slot::Ended;
            out.push(CallDelta::End { index });
        }
    }

    /// Ends every call still open, in key order.
    pub(super) fn end_all(&mut self, out: &mut Vec<CallDelta>) {
        for (&index, slot) in &mut self.slots {
            if matches!(slot, Slot::Open(_)) {
                *slot = Slot::Ended;
                out.push(CallDelta::End { index });
            }
        }
    }
}

/// An `Arguments` delta, unless the fragment is empty (providers open a
/// call with `""`).
pub(super) fn arguments(index: u64, fragment: &str, out: &mut Vec<CallDelta>) {
    if !fragment.is_empty() {
        out.push(CallDelta::Arguments {
            index,
            fragment: fragment.to_owned(),
        });
    }
}
