//! Equality and order of names, eight bytes at a time.
//!
//! Why not `==` and `cmp` on `str`: those call `memcmp`/`bcmp`, which in WebAssembly is a byte-by-byte
//! loop behind a function call (natively it is a vector routine, still behind a call). The tables
//! compare names all the time — a heartbeat of 1,000 topics checks each key against its config's
//! name, every tree lookup compares a name per level — and the names are short (`broker-a`,
//! `10.0.0.1:10911`, `TopicTest`). Inline, a word at a time, both targets do one or two integer
//! comparisons per name where the call did a loop.
//!
//! The dashboard's build keeps `str`'s own comparisons: its bundle has a size budget, and the word
//! loops, inlined into every tree lookup, cost about 0.4 KB gzipped there.
//!
//! The order is the same as `str`'s (bytes compared as unsigned, a prefix first), so maps keyed by
//! names still iterate, print and serialize in RocketMQ's order, and `Borrow<str>` lookups agree.

use std::cmp::Ordering;

/// The eight bytes of `chunk` (a slice of exactly eight bytes, as `chunks_exact(8)` gives).
#[cfg(any(not(target_arch = "wasm32"), feature = "js-api"))]
#[inline(always)]
fn word(chunk: &[u8]) -> [u8; 8] {
    chunk.try_into().unwrap_or_default()
}

/// Whether `a` and `b` hold the same text.
#[cfg(any(not(target_arch = "wasm32"), feature = "js-api"))]
#[inline]
pub fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let (mut wa, mut wb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut wa).zip(&mut wb) {
        if word(x) != word(y) {
            return false;
        }
    }
    wa.remainder()
        .iter()
        .zip(wb.remainder())
        .all(|(x, y)| x == y)
}

/// `a.cmp(b)`: the first differing byte decides (as unsigned), else the shorter text comes first.
#[cfg(any(not(target_arch = "wasm32"), feature = "js-api"))]
#[inline]
pub fn cmp_text(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut wa, mut wb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut wa).zip(&mut wb) {
        // The first differing byte decides: the lowest set bit of x ^ y (little-endian) is in it.
        // Not a big-endian load compared whole: WebAssembly has no byte swap, and its emulation
        // costs more than the comparison.
        let (x, y) = (u64::from_le_bytes(word(x)), u64::from_le_bytes(word(y)));
        if x != y {
            let shift = (x ^ y).trailing_zeros() & !7;
            return ((x >> shift) & 0xff).cmp(&((y >> shift) & 0xff));
        }
    }
    // Past the last whole word of the shorter text: at most seven bytes of it remain.
    let done = a.len().min(b.len()) & !7;
    let (ta, tb) = (
        a.get(done..).unwrap_or_default(),
        b.get(done..).unwrap_or_default(),
    );
    for (x, y) in ta.iter().zip(tb) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// The dashboard's build: `str`'s own comparisons, the smaller code (its bundle has a size budget).
#[cfg(all(target_arch = "wasm32", not(feature = "js-api")))]
pub fn same_text(a: &str, b: &str) -> bool {
    a == b
}

/// The dashboard's build: `str`'s own order.
#[cfg(all(target_arch = "wasm32", not(feature = "js-api")))]
pub fn cmp_text(a: &str, b: &str) -> Ordering {
    a.cmp(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of every length around the word size, with shared prefixes, as the tables hold them.
    #[test]
    fn agrees_with_str_on_table_names() {
        let names = [
            "",
            "a",
            "b",
            "ab",
            "broker",
            "broker-",
            "broker-a",
            "broker-b",
            "broker-a1",
            "broker-10",
            "broker-9",
            "10.0.0.1:10911",
            "10.0.0.1:10912",
            "10.0.0.10:10911",
            "Topic1",
            "Topic10",
            "Topic100",
            "Topic1000",
            "TopicTest",
            "%RETRY%group",
            "\u{e9}t\u{e9}",
            "\u{7f}",
            "\u{80}",
        ];
        for a in names {
            for b in names {
                assert_eq!(cmp_text(a, b), a.cmp(b), "{a:?} vs {b:?}");
                assert_eq!(same_text(a, b), a == b, "{a:?} vs {b:?}");
            }
        }
    }
}
