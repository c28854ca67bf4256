//! A stable sort with one copy of the sorting code in WebAssembly.
//!
//! `slice::sort_by` is generic: every element type and comparator gets its own copy of the standard
//! library's stable sort, about 4 KB of WebAssembly each, a dozen of them in the dashboard (9 KB of
//! its gzipped bundle). On wasm32 the slice's indices are sorted instead (one non-generic instance,
//! the comparator behind `dyn`), then the elements are moved into that order: the same result as
//! `sort_by` (both stable, same comparator), for an index vector and an indirect call per
//! comparison. Native builds, where size does not matter, call `sort_by` itself.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably, like `v.sort_by(cmp)`.
pub fn sort_by<T>(v: &mut [T], cmp: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(target_arch = "wasm32")]
    by_indices(v, cmp);
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_by(cmp);
}

/// `sort_by` through a sort of the indices.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn by_indices<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, &mut order);
}

/// Sorts `v` by a key, stably, like `v.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// The one instance of the standard library's stable sort.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn sort_indices(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Moves `v[order[i]]` to `i`, following each cycle of the permutation with swaps.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start || from == at {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as the standard library's stable sort, ties included: pseudo-random keys
    /// with many ties, every length up to 200.
    #[test]
    fn sorts_like_sort_by() {
        let mut seed = 7u64;
        for len in 0..200 {
            let v: Vec<(u64, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % (len as u64 / 3 + 1), i)
                })
                .collect();
            let mut ours = v.clone();
            by_indices(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v;
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std);
        }
    }
}
