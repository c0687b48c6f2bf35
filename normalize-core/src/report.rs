//! What normalization repaired, so services can log and count what their
//! models get wrong.

use crate::plan::JsonType;
use serde::{Deserialize, Serialize};

/// The repairs made to one arguments value, in the order they were made
/// (a container's own repair before its members').
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// One record per repaired location.
    pub repairs: Vec<Repair>,
}

impl Report {
    /// Whether nothing was repaired.
    pub fn is_clean(&self) -> bool {
        self.repairs.is_empty()
    }

    /// Number of repairs.
    pub fn len(&self) -> usize {
        self.repairs.len()
    }

    /// Whether the report holds no repair (same as [`Report::is_clean`]).
    pub fn is_empty(&self) -> bool {
        self.repairs.is_empty()
    }

    /// Records a repair.
    pub fn push(&mut self, pointer: String, kind: RepairKind) {
        self.repairs.push(Repair { pointer, kind });
    }
}

/// One repaired location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repair {
    /// JSON pointer (RFC 6901) of the repaired value in the arguments.
    pub pointer: String,
    /// What was done there.
    #[serde(flatten)]
    pub kind: RepairKind,
}

/// The two RT-TOOL-8 repairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RepairKind {
    /// A string holding JSON was replaced by the array or object it encodes,
    /// because the schema declares that shape here.
    JsonDecoded {
        /// `array` or `object`.
        into: JsonType,
    },
    /// HTML character references in a string were decoded.
    ReferencesDecoded {
        /// Passes that changed the text (2 for a doubly escaped value).
        passes: u32,
        /// The pass bound stopped decoding while references remained.
        bound_reached: bool,
    },
}
