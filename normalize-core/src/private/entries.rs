//! serde's reading of a map or set field, counted: whether two entries that
//! differ as JSON become one ([`crate::validate::distinct`]).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A collection that keeps one entry per key (or element): what is left of
/// the entries it was given once read.
pub trait Entries {
    /// How many entries it holds.
    fn entries(&self) -> usize;
}

impl<K, V> Entries for BTreeMap<K, V> {
    fn entries(&self) -> usize {
        self.len()
    }
}

impl<K, V, S> Entries for HashMap<K, V, S> {
    fn entries(&self) -> usize {
        self.len()
    }
}

impl<T> Entries for BTreeSet<T> {
    fn entries(&self) -> usize {
        self.len()
    }
}

impl<T, S> Entries for HashSet<T, S> {
    fn entries(&self) -> usize {
        self.len()
    }
}

/// The entries of `value` (an object's members, an array's elements) at
/// `positions`, as a value of the same kind.
fn pick(value: &Value, positions: impl Iterator<Item = usize>) -> Value {
    match value {
        Value::Object(map) => {
            let entries: Vec<(&String, &Value)> = map.iter().collect();
            Value::Object(
                positions
                    .filter_map(|at| entries.get(at))
                    .map(|(key, member)| ((*key).clone(), (*member).clone()))
                    .collect::<Map<String, Value>>(),
            )
        }
        Value::Array(items) => {
            Value::Array(positions.filter_map(|at| items.get(at)).cloned().collect())
        }
        other => other.clone(),
    }
}

/// [`RepeatFn`](crate::validate::distinct::RepeatFn) for a field of type
/// `M`: reads `value` as `M`; where fewer entries are left than were sent,
/// finds the first one that repeats an earlier one (the shortest prefix
/// that loses one, by halving) and that earlier one. Only a value that
/// loses an entry pays more than the one reading.
pub(crate) fn first_repeat<M: DeserializeOwned + Entries>(value: &Value) -> Option<(usize, usize)> {
    let sent = match value {
        Value::Object(map) => map.len(),
        Value::Array(items) => items.len(),
        _ => return None,
    };
    let kept = |value: &Value| M::deserialize(value).ok().map(|read| read.entries());
    if kept(value)? >= sent {
        return None;
    }
    let loses = |n: usize| kept(&pick(value, 0..n)).is_some_and(|left| left < n);
    // The first `n` entries lose one for `n = sent`, and never for `n = 1`.
    let (mut low, mut high) = (2, sent);
    while low < high {
        let middle = low + (high - low) / 2;
        if loses(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    let later = high - 1;
    let earlier = (0..later).find(|&at| kept(&pick(value, [at, later].into_iter())) == Some(1))?;
    Some((later, earlier))
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
        assert_eq!(
            read(&json!({"a": "not a number", "a/": 1})),
            None,
            "refused"
        );
        assert_eq!(read(&json!([1, 2])), None, "not a map");
        let read = first_repeat::<HashSet<IpAddr>>;
        assert_eq!(read(&json!(["::1", "::2"])), None);
        assert_eq!(read(&json!(["::2", "::1", "0:0::1"])), Some((2, 1)));
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
