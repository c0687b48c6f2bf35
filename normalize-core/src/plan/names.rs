//! Member name → compiled subschema, for the plan and the stream's sites.

use std::collections::HashMap;

/// A table of member names. Tool schemas have a handful of properties, for
/// which comparing lengths and then bytes beats hashing every lookup; large
/// ones get a hash map.
#[derive(Debug)]
pub(crate) struct NameTable<V> {
    small: Vec<(Box<str>, V)>,
    large: Option<HashMap<Box<str>, V>>,
}

impl<V> Default for NameTable<V> {
    fn default() -> Self {
        NameTable {
            small: Vec::new(),
            large: None,
        }
    }
}

impl<V: Copy> NameTable<V> {
    /// Names kept in the list before it becomes a map.
    const SCAN_LIMIT: usize = 16;

    /// Sets `name`'s value (a later insert of the same name wins).
    pub(crate) fn insert(&mut self, name: &str, value: V) {
        match &mut self.large {
            Some(map) => {
                map.insert(name.into(), value);
            }
            None if self.small.len() < Self::SCAN_LIMIT => self.small.push((name.into(), value)),
            None => {
                let mut map: HashMap<Box<str>, V> = self.small.drain(..).collect();
                map.insert(name.into(), value);
                self.large = Some(map);
            }
        }
    }

    /// The value of `name`.
    pub(crate) fn get(&self, name: &str) -> Option<V> {
        match &self.large {
            Some(map) => map.get(name).copied(),
            None => self
                .small
                .iter()
                .find(|(key, _)| key.len() == name.len() && **key == *name)
                .map(|(_, value)| *value),
        }
    }

    /// Whether `name` is in the table.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every name and its value.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, V)> {
        let large = self.large.iter().flatten().map(|(k, v)| (&**k, *v));
        self.small.iter().map(|(k, v)| (&**k, *v)).chain(large)
    }
}
