//! Removing from a B-tree map or set without the tree's rebalancing code in WebAssembly.
//!
//! `BTreeMap::remove` brings the B-tree's merging and stealing code into a bundle once per key and
//! value type, about 2.5 KB of WebAssembly each (some 700 bytes of the workshop's first load under
//! brotli). For the route manager's small maps (a group's broker ids, a cluster's groups, the
//! clusters) the wasm32 build rebuilds the map without the key instead: the same contents, at the
//! cost of one pass over a few entries. Native builds, where size does not matter and tables can
//! be large, call `remove` itself.

use std::collections::{BTreeMap, BTreeSet};

/// `map.remove(key)`.
pub fn remove<K: Ord, V>(map: &mut BTreeMap<K, V>, key: &K) -> Option<V> {
    #[cfg(target_arch = "wasm32")]
    {
        if !map.contains_key(key) {
            return None;
        }
        let mut removed = None;
        for (k, v) in std::mem::take(map) {
            if k == *key {
                removed = Some(v);
            } else {
                map.insert(k, v);
            }
        }
        removed
    }
    #[cfg(not(target_arch = "wasm32"))]
    map.remove(key)
}

/// `set.remove(value)`.
pub fn remove_from_set<T: Ord>(set: &mut BTreeSet<T>, value: &T) -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        if !set.contains(value) {
            return false;
        }
        // Inserted one by one: collecting would bring in a stable sort for the element type.
        for v in std::mem::take(set) {
            if v != *value {
                set.insert(v);
            }
        }
        true
    }
    #[cfg(not(target_arch = "wasm32"))]
    set.remove(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The same answers and contents as `remove`, on both targets.
    #[test]
    fn removes_as_btree_remove_does() {
        let mut map: BTreeMap<i64, &str> = [(0, "a"), (1, "b"), (3, "c")].into();
        assert_eq!(remove(&mut map, &1), Some("b"));
        assert_eq!(remove(&mut map, &1), None);
        assert_eq!(map, [(0, "a"), (3, "c")].into());
        let mut set: BTreeSet<&str> = ["x", "y"].into();
        assert!(remove_from_set(&mut set, &"x"));
        assert!(!remove_from_set(&mut set, &"x"));
        assert_eq!(set, ["y"].into());
    }
}
