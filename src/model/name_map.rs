//! [`NameMap`]: a small map keyed by a shared name, in the order of the names' text — the same
//! iteration, JSON and equality as a `BTreeMap` keyed by that name — for the few entries a producer
//! keeps per broker group (its fault table, its pick counts).
//!
//! Why not a `BTreeMap`: these are looked up on every send with the name of the queue just picked,
//! and a tree lookup compares text at every step. Here the keys are copies of the names the lookups
//! come with (see [`NameMap::get_mut_shared`]), so a lookup first looks for a key sharing the text
//! it is given — a comparison of two pointers per entry of a short vector — and compares text only
//! when none does (a name not seen yet, or the same name from a newer route).

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::text::cmp_text;

/// Entries sorted by their key's text, each key once.
#[derive(Clone, PartialEq, Eq)]
pub struct NameMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for NameMap<K, V> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<K: Borrow<str> + Clone, V> NameMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// The position of `name`'s entry: first a key that shares its text (same pointer and length:
    /// necessarily the same text), then by comparing text.
    #[inline]
    fn position(&self, name: &str) -> Option<usize> {
        match self.shared_position(name) {
            Some(i) => Some(i),
            None => self.search(name).ok(),
        }
    }

    /// The position of the key that shares `name`'s text, if any.
    #[inline]
    fn shared_position(&self, name: &str) -> Option<usize> {
        self.entries
            .iter()
            .position(|(k, _)| std::ptr::eq(k.borrow(), name))
    }

    /// Binary search by text (out of line: the lookups of a send find their key by pointer), a word
    /// at a time (`text`: `str`'s order without a `memcmp` call, a byte loop in WebAssembly).
    #[inline(never)]
    fn search(&self, name: &str) -> Result<usize, usize> {
        self.entries
            .binary_search_by(|(k, _)| cmp_text(k.borrow(), name))
    }

    /// The value of `name`.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&V> {
        self.position(name)
            .and_then(|i| self.entries.get(i))
            .map(|e| &e.1)
    }

    /// The value of `name`, to change.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut V> {
        self.position(name)
            .and_then(|i| self.entries.get_mut(i))
            .map(|e| &mut e.1)
    }

    /// The value of `name`, to change; when the entry's key does not share `name`'s text yet, it
    /// becomes a copy of `name`, so that the next lookups with it find the entry by pointer.
    #[inline]
    pub fn get_mut_shared(&mut self, name: &K) -> Option<&mut V> {
        let text: &str = name.borrow();
        if let Some(i) = self.shared_position(text) {
            return self.entries.get_mut(i).map(|e| &mut e.1);
        }
        self.adopt(name)
    }

    /// [`NameMap::get_mut_shared`] for a key found by text (or not found).
    #[inline(never)]
    fn adopt(&mut self, name: &K) -> Option<&mut V> {
        let i = self.search(name.borrow()).ok()?;
        let entry = self.entries.get_mut(i)?;
        entry.0 = name.clone();
        Some(&mut entry.1)
    }

    /// Whether `name` has an entry.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Sets the value of `key`, returning the one it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.search(key.borrow()) {
            Ok(i) => self
                .entries
                .get_mut(i)
                .map(|e| std::mem::replace(&mut e.1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `name`'s entry, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<V> {
        let i = self.position(name)?;
        Some(self.entries.remove(i).1)
    }
}

impl<K, V> NameMap<K, V> {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in the order of their names.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The names, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values, in the order of their names.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K: Borrow<str> + Clone, V> std::ops::Index<&str> for NameMap<K, V> {
    type Output = V;

    // Index has no way to say "missing" but to panic, as a BTreeMap's does; `get` is the checked
    // lookup.
    #[allow(clippy::panic)]
    fn index(&self, name: &str) -> &V {
        match self.get(name) {
            Some(v) => v,
            None => panic!("no entry for {name:?}"),
        }
    }
}

/// As a `BTreeMap` is built from pairs: sorted by name, the last value of a name kept.
impl<K: Ord, V> FromIterator<(K, V)> for NameMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self {
            entries: iter
                .into_iter()
                .collect::<BTreeMap<K, V>>()
                .into_iter()
                .collect(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for NameMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

/// A JSON object (a map), in name order, as a `BTreeMap` serializes.
impl<K: Serialize, V: Serialize> Serialize for NameMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.entries.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for NameMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::<K, V>::deserialize(deserializer).map(|m| m.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::BrokerName;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Same order, lookups, JSON and Debug as the BTreeMap it stands for.
    #[test]
    fn behaves_like_a_btreemap() {
        let names = ["b", "a", "broker-2", "broker-10", "a", "é", "Z"];
        let mut map: NameMap<BrokerName, u64> = NameMap::new();
        let mut tree: BTreeMap<BrokerName, u64> = BTreeMap::new();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(
                map.insert(BrokerName::from(*n), i as u64),
                tree.insert(BrokerName::from(*n), i as u64)
            );
        }
        assert!(map.iter().eq(tree.iter()));
        assert_eq!(map.len(), tree.len());
        assert_eq!(
            serde_json::to_string(&map).ok(),
            serde_json::to_string(&tree).ok()
        );
        assert_eq!(format!("{map:?}"), format!("{tree:?}"));
        for n in ["a", "b", "c", "broker-10", ""] {
            assert_eq!(map.get(n), tree.get(n));
            assert_eq!(map.contains_key(n), tree.contains_key(n));
        }
        assert_eq!(map["é"], 5);
        assert_eq!(map.remove("b"), tree.remove("b"));
        assert_eq!(map.remove("b"), None);
        assert!(map.values().eq(tree.values()));
        let back: Option<NameMap<BrokerName, u64>> = serde_json::to_string(&tree)
            .ok()
            .and_then(|s| serde_json::from_str(&s).ok());
        assert_eq!(back, Some(map));
    }

    /// A lookup with a copy of a key finds it by pointer; with an equal name of other text, by text,
    /// after which the key is a copy of that name.
    #[test]
    fn shared_lookups_adopt_the_name() {
        let mut map: NameMap<BrokerName, u64> = NameMap::new();
        let first = BrokerName::from("broker-a");
        map.insert(first.clone(), 1);
        map.insert(BrokerName::from("broker-b"), 2);
        let newer = BrokerName::from("broker-a");
        assert!(!newer.shares_text(&first));
        if let Some(n) = map.get_mut_shared(&newer) {
            *n += 1;
        }
        assert_eq!(map.get(newer.as_str()), Some(&2));
        assert!(map.keys().any(|k| k.shares_text(&newer)));
        assert_eq!(map.get_mut_shared(&BrokerName::from("broker-c")), None);
        assert_eq!(map.get("broker-b"), Some(&2));
    }
}
