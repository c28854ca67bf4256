//! The iteration order of Java's hash tables (`java.util.HashMap`, `HashSet`, `Hashtable`,
//! `Properties` and `java.util.concurrent.ConcurrentHashMap`), so that what RouteLab emits leaves in
//! the order Apache RocketMQ's NameServer emits it.
//!
//! RocketMQ keeps its route tables in hash maps and writes them (and lists built from them) in their
//! iteration order; a few of its rules even depend on it (which broker a closed shared channel
//! removes: the first one found). That order is a function of the keys' `hashCode`, the table's
//! capacity history and the order keys were inserted and removed — nothing random — so it can be
//! reproduced exactly. [`JavaTable`] does so: it keeps only the keys, in Java's buckets, and answers
//! "in which order would Java iterate them". The route tables themselves stay whatever structure is
//! quickest; each keeps a `JavaTable` beside it and consults it where order leaves.
//!
//! # What is modelled
//!
//! - `String.hashCode` over UTF-16 code units, `Long.hashCode`, and the two spreads
//!   (`h ^ h >>> 16` for HashMap, the same masked positive for ConcurrentHashMap).
//! - HashMap (and HashSet, a HashMap underneath): the initial capacity rounded up to a power of two,
//!   the default of 16, doubling when the size passes 0.75 × capacity with the split that keeps the
//!   relative order, appending within a bucket, and treeified bins: a bucket that reaches 9 keys
//!   becomes a red-black tree (or the table doubles while under 64), whose root moves to the front and
//!   whose new keys follow their tree parent; a split half of 6 or fewer becomes a list again, as
//!   does a tree too small after a removal. `clone()`, the copy constructors and `new HashSet<>(c)`
//!   size their tables as Java 8 to 17 do (`size / 0.75 + 1`; Java 19 changed it).
//! - ConcurrentHashMap (also `newKeySet()`): its capacity rule (`1 + n / 0.75` rounded up to a power
//!   of two), growing when the size reaches 0.75 × capacity, its transfer (a bucket's last run kept,
//!   the nodes before it reversed), tree bins whose new keys go first, and treeifying a small table
//!   by presizing it.
//! - Hashtable: capacity 11 by default, `(h & 0x7fffffff) % capacity`, new keys at the head of their
//!   bucket, rehash to `2n + 1` before an insert at the threshold, iteration from the last bucket.
//!
//! `java.util.Properties` is a Hashtable on Java 8 and wraps a `ConcurrentHashMap(8)` from Java 9 on:
//! [`PropertiesOrder`] picks which, Java 8 by default (the runtime RocketMQ 4.9.8 is released for).
//!
//! # What cannot be
//!
//! A tree bin of keys that are not `Comparable` (5.x's `BrokerAddrInfo`) orders equal-hash keys by
//! `System.identityHashCode`, which differs from run to run in Java itself; RouteLab breaks those ties
//! by a fixed rule of its own (the older table slot first). It takes nine such keys in one bucket of a table of at least 256.

mod table;
mod tree;

pub use table::{JavaTable, TableKind};

use std::cmp::Ordering;

/// A key as Java sees it: its `hashCode()` and, for `Comparable` classes (String, Long), its
/// `compareTo`, which orders equal hashes inside a tree bin.
pub trait JavaKey: Clone + Eq {
    /// `Object.hashCode()` of the Java key.
    fn hash_code(&self) -> i32;
    /// `compareTo`, or None when the key's class is not `Comparable`.
    fn compare_to(&self, other: &Self) -> Option<Ordering>;
}

/// `String.hashCode()`: `s[0]·31^(n-1) + … + s[n-1]` over UTF-16 code units, wrapping.
pub fn string_hash(s: &str) -> i32 {
    string_hash_from(0, s)
}

/// `String.hashCode()` of `prefix + s`, given `h` = the hash of `prefix`.
pub fn string_hash_from(h: i32, s: &str) -> i32 {
    let step = |h: i32, unit: u16| h.wrapping_mul(31).wrapping_add(i32::from(unit));
    if s.is_ascii() {
        s.bytes().fold(h, |h, b| step(h, u16::from(b)))
    } else {
        s.encode_utf16().fold(h, step)
    }
}

/// `String.compareTo`: lexicographic over UTF-16 code units (not code points: a character above
/// U+FFFF sorts before U+E000…U+FFFF).
pub fn string_compare(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        a.as_bytes().cmp(b.as_bytes())
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}

/// `Long.hashCode(v)`: the two 32-bit halves xor-ed.
pub fn long_hash(v: i64) -> i32 {
    let u = v as u64;
    (u ^ (u >> 32)) as u32 as i32
}

impl JavaKey for String {
    fn hash_code(&self) -> i32 {
        string_hash(self)
    }
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(string_compare(self, other))
    }
}

impl JavaKey for &str {
    fn hash_code(&self) -> i32 {
        string_hash(self)
    }
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(string_compare(self, other))
    }
}

impl JavaKey for i64 {
    fn hash_code(&self) -> i32 {
        long_hash(*self)
    }
    fn compare_to(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Which `java.util.Properties` a NameServer runs on: a Hashtable (Java 8) or a
/// ConcurrentHashMap(8) inside (Java 9 and later). The order of GET_NAMESRV_CONFIG's lines, and of
/// what mqadmin prints from them, follows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PropertiesOrder {
    /// Java 8: `Properties extends Hashtable` (RocketMQ 4.9.8's runtime).
    #[default]
    #[serde(rename = "java8")]
    Java8,
    /// Java 9 and later: a `ConcurrentHashMap` with initial capacity 8.
    #[serde(rename = "java9")]
    Java9,
}

impl PropertiesOrder {
    /// An empty `new Properties()` on that runtime.
    pub fn new_properties<K: JavaKey>(self) -> JavaTable<K> {
        match self {
            Self::Java8 => JavaTable::hashtable(),
            Self::Java9 => JavaTable::concurrent_with_capacity(8),
        }
    }

    /// Parses `java8`/`8` or `java9`/`9` and later versions (`11`, `java17` …).
    pub fn parse(text: &str) -> Option<Self> {
        let digits = text.trim().trim_start_matches("java");
        match digits.parse::<u32>().ok()? {
            1..=8 => Some(Self::Java8),
            _ => Some(Self::Java9),
        }
    }
}

/// The bucket `key` falls in within a `HashMap` table of `capacity` (a power of two).
pub fn hash_map_bucket<K: JavaKey>(key: &K, capacity: usize) -> usize {
    let h = key.hash_code();
    let spread = h ^ ((h as u32) >> 16) as i32;
    (spread as u32 as usize) & (capacity - 1)
}

/// The order of `keys` once put, in that order, into a fresh table of `kind` (a Java collection
/// built by `addAll` or by a loop of puts).
pub fn order_of<K: JavaKey>(mut table: JavaTable<K>, keys: impl IntoIterator<Item = K>) -> Vec<K> {
    for k in keys {
        table.insert(k);
    }
    table.iter().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Values from the JDK's documented definitions (String.hashCode javadoc, Long.hashCode javadoc),
    // checked by hand: "Aa" and "BB" collide (65·31 + 97 = 66·31 + 66 = 2112).
    #[test]
    fn hashes_follow_the_javadoc_definitions() {
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("a"), 97);
        assert_eq!(string_hash("Aa"), 2112);
        assert_eq!(string_hash("BB"), 2112);
        // U+1F600 is two UTF-16 units (0xD83D 0xDE00): 0xD83D·31 + 0xDE00.
        assert_eq!(string_hash("😀"), 0xD83D * 31 + 0xDE00);
        assert_eq!(long_hash(0), 0);
        assert_eq!(long_hash(1), 1);
        assert_eq!(long_hash(-1), 0);
        assert_eq!(long_hash(1 << 32), 1);
    }

    #[test]
    fn string_order_is_by_utf16_units() {
        assert_eq!(string_compare("a", "b"), Ordering::Less);
        // U+FF21 (one unit 0xFF21) sorts after U+1F600 (first unit 0xD83D) in Java.
        assert_eq!(string_compare("\u{FF21}", "😀"), Ordering::Greater);
    }

    #[test]
    fn properties_runtime_parses() {
        assert_eq!(
            PropertiesOrder::parse("java8"),
            Some(PropertiesOrder::Java8)
        );
        assert_eq!(PropertiesOrder::parse("8"), Some(PropertiesOrder::Java8));
        assert_eq!(PropertiesOrder::parse("17"), Some(PropertiesOrder::Java9));
        assert_eq!(
            PropertiesOrder::parse("java11"),
            Some(PropertiesOrder::Java9)
        );
        assert_eq!(PropertiesOrder::parse("seven"), None);
    }
}
