//! Members whose key repeats an earlier key of the same object. JSON leaves
//! them to the reader: serde_json's `Value` keeps the last, and serde's
//! derive refuses a repeated field (`duplicate field`). The arguments'
//! value is built with [`Tracked`], which notes that a repeat happened at
//! no cost to the text that has none; only then does [`pointers`] read the
//! text again to say where.

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::{Cell, RefCell};
use std::fmt;

/// What reading a call's text said of it, beyond its value.
#[derive(Debug, Default)]
pub(crate) struct Read {
    /// The pointers of the members whose key an earlier member of the same
    /// object has ([`pointers`]).
    pub(crate) repeated: Vec<String>,
    /// No number of the text has a fraction or an exponent (`false` when
    /// not known).
    pub(crate) plain_numbers: bool,
}

impl Read {
    /// Nothing known: a value that arrived parsed.
    pub(crate) const UNKNOWN: Read = Read {
        repeated: Vec::new(),
        plain_numbers: false,
    };

    /// What the parse of `text` noted: `repeated`, whether an object had a
    /// key twice (then found again; `nesting` bounds how deep the text
    /// nests), and `fractions`, whether a number had a fraction or an
    /// exponent.
    pub(crate) fn of(text: &str, nesting: usize, repeated: bool, fractions: bool) -> Read {
        Read {
            repeated: if repeated {
                pointers(text, nesting)
            } else {
                Vec::new()
            },
            plain_numbers: !fractions,
        }
    }
}

/// What a read of a text through [`Tracked`] noticed on the way.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    /// Some object had a key twice.
    pub(crate) repeated: Cell<bool>,
    /// Some number was read as a float (written with a fraction or an
    /// exponent, or past 64 bits).
    pub(crate) fractions: Cell<bool>,
    /// The deepest nesting read (the root container is at 1).
    pub(crate) nesting: Cell<usize>,
    /// Some string value could be repaired (see [`Tracked::strings`]).
    pub(crate) may_need_repair: Cell<bool>,
}

/// A `Value` read the way serde_json reads one, noting what the read saw in
/// [`Notes`], and refusing to nest past `limit` levels (on a stack with room
/// for them at any depth, [`crate::deep::guard`]). So one pass over a text
/// both parses it and tells what a scan before the parse used to.
#[derive(Clone, Copy)]
pub(crate) struct Tracked<'a> {
    pub(crate) notes: &'a Notes,
    /// Level of the value being read: the root is at 0.
    pub(crate) depth: usize,
    /// Most levels of nesting allowed.
    pub(crate) limit: usize,
    /// Whether to note string values normalization could change: one whose
    /// text starts like JSON (after JSON whitespace), or, decoded from
    /// escapes, holds a `&` that could start a character reference. A
    /// string read as a plain slice of the text is not searched for a `&`:
    /// the caller searched the whole text once and found none in any part
    /// (`entities::no_candidate_in_any_part`).
    pub(crate) strings: bool,
}

impl Tracked<'_> {
    /// The seed of a container's members, or an error past the limit.
    fn members<E: serde::de::Error>(self) -> Result<Self, E> {
        if self.depth >= self.limit {
            return Err(E::custom(format_args!(
                "nesting past the limit of {}",
                self.limit
            )));
        }
        self.notes
            .nesting
            .set(self.notes.nesting.get().max(self.depth + 1));
        Ok(Tracked {
            depth: self.depth + 1,
            ..self
        })
    }

    fn note_string(self, value: &str, escaped: bool) {
        if self.strings
            && (crate::byte_scan::opens_like_json(value)
                || (escaped && crate::entities::has_reference_candidate(value.as_bytes())))
        {
            self.notes.may_need_repair.set(true);
        }
    }
}

impl<'de> DeserializeSeed<'de> for Tracked<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Tracked<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }
    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }
    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }
    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        self.notes.fractions.set(true);
        Ok(serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number))
    }
    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Value, E> {
        self.note_string(value, false);
        Ok(Value::String(value.to_owned()))
    }
    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        // serde_json hands a string with escapes over decoded, here.
        self.note_string(value, true);
        Ok(Value::String(value.to_owned()))
    }
    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        self.note_string(&value, true);
        Ok(Value::String(value))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let item = self.members()?;
        crate::deep::guard(self.depth, || {
            let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(value) = seq.next_element_seed(item)? {
                items.push(value);
            }
            Ok(Value::Array(items))
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let member = self.members()?;
        crate::deep::guard(self.depth, || {
            let mut members = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                let value = map.next_value_seed(member)?;
                if members.insert(key, value).is_some() {
                    self.notes.repeated.set(true);
                }
            }
            Ok(Value::Object(members))
        })
    }
}

/// The JSON pointer of every member of `text` whose key an earlier member
/// of the same object has, in the order of the text. `text` is JSON that
/// parsed, nesting at most `nesting` levels.
pub(crate) fn pointers(text: &str, nesting: usize) -> Vec<String> {
    let finder = Finder {
        path: &RefCell::new(Vec::new()),
        found: &RefCell::new(Vec::new()),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let read = if nesting <= crate::deep::UNGUARDED {
        finder.deserialize(&mut de)
    } else {
        finder.deserialize(serde_stacker::Deserializer::new(&mut de))
    };
    debug_assert!(read.is_ok(), "the text parsed once already");
    finder.found.take()
}

/// Reads a JSON value, keeping the path to the member being read and the
/// pointers of the repeated keys found.
#[derive(Clone, Copy)]
struct Finder<'a> {
    path: &'a RefCell<Vec<String>>,
    found: &'a RefCell<Vec<String>>,
}

impl<'de> DeserializeSeed<'de> for Finder<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Finder<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            self.path.borrow_mut().push(index.to_string());
            let item = seq.next_element_seed(self);
            self.path.borrow_mut().pop();
            if item?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                let mut pointer = String::new();
                for token in self.path.borrow().iter().chain([&key]) {
                    pointer.push('/');
                    // A pointer token escapes `~` and `/` (RFC 6901).
                    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
                }
                self.found.borrow_mut().push(pointer);
            }
            self.path.borrow_mut().push(key);
            let member = map.next_value_seed(self);
            self.path.borrow_mut().pop();
            member?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracked(text: &str) -> (Value, bool) {
        let notes = Notes::default();
        let mut de = serde_json::Deserializer::from_str(text);
        let value = Tracked {
            notes: &notes,
            depth: 0,
            limit: usize::MAX,
            strings: true,
        }
        .deserialize(&mut de)
        .unwrap();
        de.end().unwrap();
        (value, notes.repeated.get())
    }

    #[test]
    fn builds_what_serde_json_builds() {
        for text in [
            r#"{"a": [1, -2, 3.5, 1e300, "x\u0026", null, true], "b": {"c": {}}}"#,
            r#"{"a": 1, "b": 2, "a": 3}"#,
            r#"[{"k": 1, "k": {"k": 2}}]"#,
            "18446744073709551616",
        ] {
            let ours = tracked(text).0;
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
            // The same member order too (`preserve_order`).
            assert_eq!(ours.to_string(), theirs.to_string());
        }
    }

    #[test]
    fn notes_a_repeat_only_where_there_is_one() {
        assert!(!tracked(r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#).1);
        assert!(tracked(r#"{"a": 1, "b": [{"x": 1, "x": 2}]}"#).1);
    }

    #[test]
    fn points_at_each_later_repeat() {
        let text =
            r#"{"a": 1, "b": [{"x": 1}, {"x": 2, "x": 3, "x": 4}], "a/~": 0, "a/~": 1, "a": 5}"#;
        assert_eq!(pointers(text, 128), ["/b/1/x", "/b/1/x", "/a~1~0", "/a"]);
        assert!(pointers(r#"{"a": {"a": 1}}"#, 128).is_empty());
    }
}
