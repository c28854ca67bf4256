//! A set of controller ids, as Java's `Set<Long>` holds a SyncStateSet or a group's replicas: here a
//! sorted `Vec` without repeats. A group has a few replicas, and a `Vec` keeps the workshop's bundle
//! free of another `BTreeSet` and of the sort its `collect` brings.

/// Controller ids, sorted, each once.
pub type Ids = Vec<i64>;

/// Adds `id` in its place; false when it was there.
pub fn insert(set: &mut Ids, id: i64) -> bool {
    match set.binary_search(&id) {
        Ok(_) => false,
        Err(at) => {
            set.insert(at, id);
            true
        }
    }
}

/// The set of `ids`.
pub fn of(ids: impl IntoIterator<Item = i64>) -> Ids {
    let mut set = Ids::new();
    for id in ids {
        insert(&mut set, id);
    }
    set
}

/// The set as people read it: `{1, 2}` (the feed, the inspector).
pub fn words(set: &[i64]) -> String {
    let ids: Vec<String> = set.iter().map(i64::to_string).collect();
    format!("{{{}}}", ids.join(", "))
}

/// Whether `id` is in `set`.
pub fn has(set: &[i64], id: i64) -> bool {
    set.binary_search(&id).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn a_set_is_sorted_without_repeats() {
        let mut s = of([3, 1, 3, 2]);
        assert_eq!(s, vec![1, 2, 3]);
        assert!(!insert(&mut s, 2));
        assert!(insert(&mut s, 0));
        assert_eq!(s, vec![0, 1, 2, 3]);
        assert!(has(&s, 3) && !has(&s, 4));
        assert_eq!(words(&s), "{0, 1, 2, 3}");
        assert_eq!(words(&[]), "{}");
    }
}
