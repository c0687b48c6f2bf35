//! What normalization repaired, so services can log and count what their
//! models get wrong.

use crate::path::Pointer;
use crate::plan::JsonType;
use serde::{Deserialize, Serialize, Serializer};

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
    pub fn push(&mut self, pointer: Pointer, kind: RepairKind) {
        self.repairs.push(Repair { pointer, kind });
    }

    /// The first `max` repairs, serializable as a JSON array, with the
    /// number left out.
    ///
    /// A hostile line can carry a repair at every level of a deep value, and
    /// the pointers of all of them weigh the square of its depth as text: a
    /// log line or a command's output bounds what it shows and says how much
    /// it left out instead.
    ///
    /// ```
    /// use toolargs_core::Normalizer;
    /// use serde_json::json;
    ///
    /// let normalizer = Normalizer::compile(&json!({}))?;
    /// let mut args = json!(["&lt;", "&gt;", "&amp;"]);
    /// let report = normalizer.normalize(&mut args)?;
    /// let first = report.first(2);
    /// assert_eq!(first.omitted(), 1);
    /// assert_eq!(
    ///     serde_json::to_string(&first)?,
    ///     r#"[{"pointer":"/0","kind":"references_decoded","passes":1,"bound_reached":false},{"pointer":"/1","kind":"references_decoded","passes":1,"bound_reached":false}]"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first(&self, max: usize) -> FirstRepairs<'_> {
        let kept = self.repairs.len().min(max);
        FirstRepairs {
            repairs: &self.repairs[..kept],
            omitted: self.repairs.len() - kept,
        }
    }

    /// Writes the first `max` repairs to `writer` as a compact JSON array
    /// and returns the number left out ([`Report::first`], written).
    ///
    /// # Errors
    ///
    /// The writer's error, as a [`serde_json::Error`].
    pub fn write_json<W: std::io::Write>(
        &self,
        writer: W,
        max: usize,
    ) -> Result<usize, serde_json::Error> {
        let first = self.first(max);
        serde_json::to_writer(writer, &first)?;
        Ok(first.omitted)
    }
}

/// The first repairs of a [`Report`] ([`Report::first`]): serializes as the
/// array of those repairs.
#[derive(Clone, Copy, Debug)]
pub struct FirstRepairs<'r> {
    repairs: &'r [Repair],
    omitted: usize,
}

impl<'r> FirstRepairs<'r> {
    /// The repairs kept.
    pub fn repairs(&self) -> &'r [Repair] {
        self.repairs
    }

    /// How many repairs of the report were left out.
    pub fn omitted(&self) -> usize {
        self.omitted
    }
}

impl Serialize for FirstRepairs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.repairs.serialize(serializer)
    }
}

/// One repaired location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repair {
    /// Where the repaired value is in the arguments (serialized as its JSON
    /// pointer's text). Pointers of one report share their prefixes.
    pub pointer: Pointer,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_serde() {
        let mut report = Report::default();
        let tags = Pointer::root().key("tags");
        report.push(
            tags.clone(),
            RepairKind::JsonDecoded {
                into: JsonType::Array,
            },
        );
        report.push(
            tags.index(0),
            RepairKind::ReferencesDecoded {
                passes: 2,
                bound_reached: false,
            },
        );
        let text = serde_json::to_string(&report).unwrap();
        assert_eq!(
            text,
            r#"{"repairs":[{"pointer":"/tags","kind":"json_decoded","into":"array"},{"pointer":"/tags/0","kind":"references_decoded","passes":2,"bound_reached":false}]}"#
        );
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back, report);
    }

    #[test]
    fn bounds_what_it_writes() {
        let mut report = Report::default();
        for i in 0..5 {
            report.push(
                Pointer::root().index(i),
                RepairKind::ReferencesDecoded {
                    passes: 1,
                    bound_reached: false,
                },
            );
        }
        let mut out = Vec::new();
        assert_eq!(report.write_json(&mut out, 2).unwrap(), 3);
        let written: Vec<Repair> = serde_json::from_slice(&out).unwrap();
        assert_eq!(written, report.repairs[..2]);
        let mut all = Vec::new();
        assert_eq!(report.write_json(&mut all, usize::MAX).unwrap(), 0);
        assert_eq!(all, serde_json::to_vec(&report.repairs).unwrap());
        assert_eq!(report.first(0).repairs().len(), 0);
    }
}
