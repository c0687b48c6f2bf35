//! serde's reading of a map or set field, counted: whether two entries that
//! differ as JSON become one ([`crate::validate::distinct_entries`]).

use serde::Deserialize as _;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

/// A collection that keeps one entry per key (or element): what is left of
/// the entries it was given once read.
pub trait Entries {
    /// The collection with the same keys and no values (a set is its own),
    /// which says as much for less: only the keys are read.
    type Keys: DeserializeOwned + Entries;

    /// How many entries it holds.
    fn entries(&self) -> usize;

    /// The positions of the first entry of `value` whose key (or element)
    /// is, once read, one an earlier entry has, and of that earlier one:
    /// each key read alone, in order, into a collection of the same kind.
    /// `None` where none repeats, or where a key cannot be read.
    fn first_repeat_in(value: &Value) -> Option<(usize, usize)>;
}

/// A map's key read alone, as the map `M` reads it (a JSON object's key).
fn read_key<K, M>(key: &str) -> Option<K>
where
    M: DeserializeOwned + IntoIterator<Item = (K, IgnoredAny)>,
{
    let alone = Value::Object(Map::from_iter([(key.to_owned(), Value::Null)]));
    M::deserialize(&alone)
        .ok()?
        .into_iter()
        .next()
        .map(|(key, _)| key)
}

/// The first of `keys` (read in order; `None` where one cannot be read)
/// that `insert` finds already seen, with the position it was seen at.
fn first_seen_again<K>(
    keys: impl Iterator<Item = Option<K>>,
    mut insert: impl FnMut(K, usize) -> Option<usize>,
) -> Option<(usize, usize)> {
    for (at, key) in keys.enumerate() {
        if let Some(earlier) = insert(key?, at) {
            return Some((at, earlier));
        }
    }
    None
}

impl<K: DeserializeOwned + Ord, V> Entries for BTreeMap<K, V> {
    type Keys = BTreeMap<K, IgnoredAny>;

    fn entries(&self) -> usize {
        self.len()
    }

    fn first_repeat_in(value: &Value) -> Option<(usize, usize)> {
        let keys = value.as_object()?.keys();
        let mut seen = BTreeMap::new();
        first_seen_again(keys.map(|key| read_key::<K, Self::Keys>(key)), |key, at| {
            seen.insert(key, at)
        })
    }
}

impl<K, V, S> Entries for HashMap<K, V, S>
where
    K: DeserializeOwned + Eq + Hash,
    S: BuildHasher + Default,
{
    type Keys = HashMap<K, IgnoredAny, S>;

    fn entries(&self) -> usize {
        self.len()
    }

    fn first_repeat_in(value: &Value) -> Option<(usize, usize)> {
        let keys = value.as_object()?.keys();
        let mut seen = HashMap::with_hasher(S::default());
        first_seen_again(keys.map(|key| read_key::<K, Self::Keys>(key)), |key, at| {
            seen.insert(key, at)
        })
    }
}

impl<T: DeserializeOwned + Ord> Entries for BTreeSet<T> {
    type Keys = Self;

    fn entries(&self) -> usize {
        self.len()
    }

    fn first_repeat_in(value: &Value) -> Option<(usize, usize)> {
        let items = value.as_array()?.iter();
        let mut seen = BTreeMap::new();
        first_seen_again(items.map(|item| T::deserialize(item).ok()), |item, at| {
            seen.insert(item, at)
        })
    }
}

impl<T, S> Entries for HashSet<T, S>
where
    T: DeserializeOwned + Eq + Hash,
    S: BuildHasher + Default,
{
    type Keys = Self;

    fn entries(&self) -> usize {
        self.len()
    }

    fn first_repeat_in(value: &Value) -> Option<(usize, usize)> {
        let items = value.as_array()?.iter();
        let mut seen = HashMap::with_hasher(S::default());
        first_seen_again(items.map(|item| T::deserialize(item).ok()), |item, at| {
            seen.insert(item, at)
        })
    }
}

impl<M: Entries> Entries for Box<M> {
    type Keys = M::Keys;

    fn entries(&self) -> usize {
        (**self).entries()
    }

    fn first_repeat_in(value: &Value) -> Option<(usize, usize)> {
        M::first_repeat_in(value)
    }
}

/// [`RepeatFn`](crate::validate::distinct_entries::RepeatFn) for a field of type
/// `M`: reads the keys of `value` as `M` does, at once (the values are
/// skipped: what `M` makes of them is serde's to say); only where fewer
/// are left than were sent, each key alone, to find which repeats which.
/// O(n log n) either way.
pub(crate) fn first_repeat<M: Entries>(value: &Value) -> Option<(usize, usize)> {
    let sent = match value {
        Value::Object(map) => map.len(),
        Value::Array(items) => items.len(),
        _ => return None,
    };
    if M::Keys::deserialize(value).ok()?.entries() >= sent {
        return None;
    }
    M::first_repeat_in(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::net::IpAddr;
    use std::path::PathBuf;

    #[test]
    fn finds_the_entry_that_repeats_and_the_one_it_repeats() {
        let read = first_repeat::<BTreeMap<PathBuf, u32>>;
        assert_eq!(read(&json!({"a/b": 1, "c": 2})), None);
        assert_eq!(read(&json!({"a/b": 1, "c": 2, "a//b": 3})), Some((2, 0)));
        assert_eq!(
            read(&json!({"x": 0, "a/b": 1, "a/./b": 2, "a//b": 3})),
            Some((2, 1))
        );
        // Only the keys are read: a value the type refuses is serde's to
        // report.
        assert_eq!(read(&json!({"a": "not a number", "a/": 1})), Some((1, 0)));
        assert_eq!(read(&json!([1, 2])), None, "not a map");
        let read = first_repeat::<HashSet<IpAddr>>;
        assert_eq!(read(&json!(["::1", "::2"])), None);
        assert_eq!(read(&json!(["::2", "::1", "0:0::1"])), Some((2, 1)));
        assert_eq!(
            read(&json!(["not an address", "::1", "::1"])),
            None,
            "refused"
        );
        let read = first_repeat::<BTreeMap<String, u32>>;
        assert_eq!(read(&json!({})), None);
        // Every position of the repeat, in maps of many sizes.
        for size in 2..12 {
            for later in 1..size {
                for earlier in 0..later {
                    let keys: Map<String, Value> = (0..size)
                        .map(|at| {
                            let key = if at == later {
                                format!("k{earlier}//x")
                            } else {
                                format!("k{at}/x")
                            };
                            (key, json!(at))
                        })
                        .collect();
                    assert_eq!(
                        first_repeat::<BTreeMap<PathBuf, u32>>(&Value::Object(keys)),
                        Some((later, earlier)),
                        "{size} {later} {earlier}"
                    );
                }
            }
        }
    }
}
