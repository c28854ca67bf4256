//! [`JavaTable`]: the keys of one Java hash table, in its buckets, so that iterating gives Java's
//! order. One type serves the three table designs ([`TableKind`]); they share the bucket lists and
//! differ in their hash spread, growth and where a new key goes.
//!
//! One piece, over 500 lines: the three table designs share every bucket operation, and Java's
//! order is only right when growth, treeification and insertion are read side by side.

use std::cmp::Ordering;

use super::tree::{Forest, NIL};
use super::JavaKey;

const TREEIFY_THRESHOLD: usize = 8;
const UNTREEIFY_THRESHOLD: usize = 6;
const MIN_TREEIFY_CAPACITY: usize = 64;
const MAXIMUM_CAPACITY: usize = 1 << 30;

/// Which Java class a [`JavaTable`] reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// `java.util.HashMap` (and `HashSet`, `LinkedHashMap`'s table is not this).
    HashMap,
    /// `java.util.concurrent.ConcurrentHashMap` (and its `newKeySet()`), used single-threaded.
    ConcurrentHashMap,
    /// `java.util.Hashtable` (and Java 8's `Properties`).
    Hashtable,
}

#[derive(Clone, Debug)]
struct Slot {
    /// The spread hash (HashMap, ConcurrentHashMap) or the raw hash (Hashtable).
    hash: i32,
    /// The next slot of the bucket, or of the free list.
    next: u32,
}

/// The keys of a Java hash table and its layout: capacity, buckets in order, tree bins.
///
/// The keys sit apart from the layout ([`Core`], which knows slots and hashes only), so that the
/// layout's code exists once in a program rather than once per key type; it compares two keys
/// through [`Cmp`] when a tree bin needs it.
#[derive(Clone, Debug)]
pub struct JavaTable<K> {
    core: Core,
    /// The key of each slot.
    keys: Vec<Option<K>>,
}

/// Java's `compareTo` of the keys in two slots (None: not `Comparable`).
type Cmp<'a> = &'a dyn Fn(u32, u32) -> Option<Ordering>;

#[derive(Clone, Debug)]
struct Core {
    kind: TableKind,
    slots: Vec<Slot>,
    free: u32,
    /// The first slot of each bucket (empty until Java would allocate the table).
    heads: Vec<u32>,
    len: usize,
    /// HashMap: `threshold` (the initial capacity while no table); ConcurrentHashMap: `sizeCtl`;
    /// Hashtable: `threshold`.
    threshold: usize,
    /// Tree bins, rare: their links and each tree bucket's root.
    trees: Option<Box<Trees>>,
}

#[derive(Clone, Debug, Default)]
struct Trees {
    forest: Forest,
    /// (bucket, root slot) of every bucket that is a tree.
    roots: Vec<(u32, u32)>,
}

/// `HashMap.tableSizeFor`: the smallest power of two ≥ `cap` (1 for 0), capped.
fn table_size_for(cap: usize) -> usize {
    cap.max(1).next_power_of_two().min(MAXIMUM_CAPACITY)
}

/// `(int) (n * 0.75f)`, exact for the sizes tables have.
fn three_quarters(n: usize) -> usize {
    (n as f32 * 0.75) as usize
}

impl<K: JavaKey> Default for JavaTable<K> {
    fn default() -> Self {
        Self::hash_map()
    }
}

impl<K: JavaKey> JavaTable<K> {
    fn empty(kind: TableKind, threshold: usize) -> Self {
        Self {
            core: Core {
                kind,
                slots: Vec::new(),
                free: NIL,
                heads: Vec::new(),
                len: 0,
                threshold,
                trees: None,
            },
            keys: Vec::new(),
        }
    }

    /// `new HashMap<>()` / `new HashSet<>()`.
    pub fn hash_map() -> Self {
        Self::empty(TableKind::HashMap, 0)
    }

    /// `new HashMap<>(initialCapacity)`.
    pub fn hash_map_with_capacity(initial: usize) -> Self {
        Self::empty(TableKind::HashMap, table_size_for(initial))
    }

    /// `new HashSet<>(c)` of a collection of `n` elements (then insert them in `c`'s order):
    /// `new HashMap<>(max((int) (n / .75f) + 1, 16))`.
    pub fn hash_set_for(n: usize) -> Self {
        Self::hash_map_with_capacity((((n as f32) / 0.75) as usize + 1).max(16))
    }

    /// `new ConcurrentHashMap<>()` / `ConcurrentHashMap.newKeySet()`.
    pub fn concurrent() -> Self {
        Self::empty(TableKind::ConcurrentHashMap, 0)
    }

    /// `new ConcurrentHashMap<>(initialCapacity)`: `tableSizeFor(1 + n / 0.75)` (Java 11 and
    /// later; Java 8's `n + n/2 + 1` gives the same for every capacity RocketMQ passes).
    pub fn concurrent_with_capacity(initial: usize) -> Self {
        let size = (1.0 + f64::from((initial.max(1) as f32) / 0.75)) as usize;
        Self::empty(TableKind::ConcurrentHashMap, table_size_for(size))
    }

    /// `new Hashtable<>()` (capacity 11), as Java 8's `new Properties()`.
    pub fn hashtable() -> Self {
        Self::hashtable_with_capacity(11)
    }

    /// `new Hashtable<>(initialCapacity)`.
    pub fn hashtable_with_capacity(initial: usize) -> Self {
        let cap = initial.max(1);
        let mut t = Self::empty(TableKind::Hashtable, three_quarters(cap));
        t.core.heads = vec![NIL; cap];
        t
    }

    /// Which class this reproduces.
    pub fn kind(&self) -> TableKind {
        self.core.kind
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.core.len
    }

    /// True when no key is held.
    pub fn is_empty(&self) -> bool {
        self.core.len == 0
    }

    /// The table's length (0 before Java would allocate it).
    pub fn capacity(&self) -> usize {
        self.core.heads.len()
    }

    /// The keys in Java's iteration order.
    pub fn iter(&self) -> Iter<'_, K> {
        let descending = self.core.kind == TableKind::Hashtable;
        Iter {
            table: self,
            bucket: if descending { self.core.heads.len() } else { 0 },
            slot: NIL,
            descending,
        }
    }

    /// The first key in Java's order.
    pub fn first(&self) -> Option<&K> {
        self.iter().next()
    }

    fn key(&self, slot: u32) -> Option<&K> {
        self.keys.get(slot as usize).and_then(Option::as_ref)
    }

    fn find(&self, hash: i32, key: &K) -> Option<u32> {
        let core = &self.core;
        if core.heads.is_empty() {
            return None;
        }
        let mut s = core.heads[core.index(hash, core.heads.len())];
        while s != NIL {
            if core.hash_of(s) == hash && self.key(s) == Some(key) {
                return Some(s);
            }
            s = core.next_of(s);
        }
        None
    }

    /// True when `key` is held.
    pub fn contains(&self, key: &K) -> bool {
        self.find(self.core.spread(key.hash_code()), key).is_some()
    }

    /// A slot for a new key, the key stored in it.
    fn store(&mut self, key: K, hash: i32) -> u32 {
        let slot = self.core.alloc(hash);
        let i = slot as usize;
        if self.keys.len() <= i {
            self.keys.resize_with(i + 1, || None);
        }
        self.keys[i] = Some(key);
        slot
    }

    /// `put(key, …)`: a new key takes its place as Java places it; a key already held stays where
    /// it is (Java replaces the value in place). Returns true when the key is new.
    pub fn insert(&mut self, key: K) -> bool {
        let hash = self.core.spread(key.hash_code());
        if let Some(slot) = self.find(hash, &key) {
            if self.core.kind == TableKind::ConcurrentHashMap {
                let keys = &self.keys;
                self.core
                    .replaced_concurrent(hash, slot, &|a, b| compare(keys, a, b));
            }
            return false;
        }
        let slot = self.store(key, hash);
        let Self { core, keys } = self;
        let cmp = |a: u32, b: u32| compare(keys, a, b);
        match core.kind {
            TableKind::HashMap => core.insert_hash_map(slot, hash, &cmp),
            TableKind::ConcurrentHashMap => core.insert_concurrent(slot, hash, &cmp),
            TableKind::Hashtable => core.insert_hashtable(slot, hash),
        }
        true
    }

    /// `HashMap.computeIfAbsent(key, …)` with a function that never returns null. Unlike `put` it
    /// grows the table first, when an earlier call left the size past the threshold (so even for a
    /// key already held), puts a new key at the **head** of its bucket and never grows after it.
    ///
    /// For a ConcurrentHashMap this is RocketMQ's `ConcurrentHashMapUtils.computeIfAbsent` on Java 8:
    /// `get`, then `putIfAbsent` only when absent (which appends like `put`). A Hashtable inserts.
    pub fn compute_if_absent(&mut self, key: K) -> bool {
        match self.core.kind {
            TableKind::HashMap => {}
            TableKind::ConcurrentHashMap if self.contains(&key) => return false,
            _ => return self.insert(key),
        }
        if self.core.len > self.core.threshold || self.core.heads.is_empty() {
            let keys = &self.keys;
            self.core.resize_hash_map(&|a, b| compare(keys, a, b));
        }
        let hash = self.core.spread(key.hash_code());
        if self.find(hash, &key).is_some() {
            return false;
        }
        let slot = self.store(key, hash);
        let Self { core, keys } = self;
        core.compute_new(slot, hash, &|a, b| compare(keys, a, b));
        true
    }

    /// `remove(key)`. Returns true when the key was held.
    pub fn remove(&mut self, key: &K) -> bool {
        self.remove_as(key, true)
    }

    /// `Iterator.remove()` on the key just returned: for a HashMap the same as [`Self::remove`]
    /// except in a tree bin, which then neither turns back into a list nor moves its root to the
    /// front (`removeNode(…, movable = false)`).
    pub fn remove_while_iterating(&mut self, key: &K) -> bool {
        self.remove_as(key, self.core.kind != TableKind::HashMap)
    }

    fn remove_as(&mut self, key: &K, movable: bool) -> bool {
        let hash = self.core.spread(key.hash_code());
        let Some(slot) = self.find(hash, key) else {
            return false;
        };
        self.core.remove_slot(hash, slot, movable);
        if let Some(k) = self.keys.get_mut(slot as usize) {
            *k = None;
        }
        true
    }

    /// Where `key` stands in Java's iteration order (its bucket's rank, then its place in the
    /// bucket), or None when it is not held. Finding it costs a bucket walk, not a table walk.
    pub fn position(&self, key: &K) -> Option<(usize, usize)> {
        let core = &self.core;
        let hash = core.spread(key.hash_code());
        if core.heads.is_empty() {
            return None;
        }
        let b = core.index(hash, core.heads.len());
        let mut s = core.heads[b];
        let mut place = 0;
        while s != NIL {
            if core.hash_of(s) == hash && self.key(s) == Some(key) {
                let rank = match core.kind {
                    TableKind::Hashtable => core.heads.len() - 1 - b,
                    _ => b,
                };
                return Some((rank, place));
            }
            place += 1;
            s = core.next_of(s);
        }
        None
    }

    /// `items` in the Java order of their keys (`key_of`), those whose key is not held last: for a
    /// few items out of a big table, cheaper than walking the table.
    pub fn in_order<T>(&self, items: Vec<T>, key_of: impl Fn(&T) -> &K) -> Vec<T> {
        let mut keyed: Vec<((usize, usize), T)> = items
            .into_iter()
            .map(|t| {
                let at = self
                    .position(key_of(&t))
                    .unwrap_or((usize::MAX, usize::MAX));
                (at, t)
            })
            .collect();
        crate::sort::sort_by(&mut keyed, |a, b| a.0.cmp(&b.0));
        keyed.into_iter().map(|(_, t)| t).collect()
    }

    /// `HashMap.clone()` (also `new HashMap<>(map)`): a table sized for this many keys
    /// (`tableSizeFor(size / 0.75 + 1)`, Java 8 to 17), the keys put in this table's order.
    /// `Hashtable.clone()` copies the buckets as they are.
    pub fn java_clone(&self) -> Self {
        if self.core.kind != TableKind::HashMap {
            return self.clone();
        }
        let mut copy = if self.core.len > 0 {
            Self::hash_map_with_capacity(((self.core.len as f32) / 0.75 + 1.0) as usize)
        } else {
            Self::hash_map()
        };
        for k in self.iter() {
            copy.insert(k.clone());
        }
        copy
    }
}

/// `compareTo` of the keys in slots `a` and `b`.
fn compare<K: JavaKey>(keys: &[Option<K>], a: u32, b: u32) -> Option<Ordering> {
    match (keys.get(a as usize)?, keys.get(b as usize)?) {
        (Some(x), Some(y)) => x.compare_to(y),
        _ => None,
    }
}

impl Core {
    fn spread(&self, h: i32) -> i32 {
        match self.kind {
            TableKind::HashMap => h ^ ((h as u32) >> 16) as i32,
            TableKind::ConcurrentHashMap => (h ^ ((h as u32) >> 16) as i32) & 0x7fff_ffff,
            TableKind::Hashtable => h,
        }
    }

    fn index(&self, hash: i32, len: usize) -> usize {
        match self.kind {
            TableKind::Hashtable => (hash & 0x7fff_ffff) as usize % len,
            _ => (hash as u32 as usize) & (len - 1),
        }
    }

    fn hash_of(&self, slot: u32) -> i32 {
        self.slots.get(slot as usize).map_or(0, |s| s.hash)
    }

    fn next_of(&self, slot: u32) -> u32 {
        self.slots.get(slot as usize).map_or(NIL, |s| s.next)
    }

    fn set_next(&mut self, slot: u32, next: u32) {
        if let Some(s) = self.slots.get_mut(slot as usize) {
            s.next = next;
        }
    }

    /// The slots of bucket `b`, in order.
    fn chain(&self, b: usize) -> Vec<u32> {
        self.chain_from(self.heads.get(b).copied().unwrap_or(NIL))
    }

    /// The slots linked from `head`, in order.
    fn chain_from(&self, mut s: u32) -> Vec<u32> {
        let mut out = Vec::new();
        while s != NIL {
            out.push(s);
            s = self.next_of(s);
        }
        out
    }

    /// Links `slot` at the end of bucket `b`'s list; returns how many nodes were there.
    fn append(&mut self, b: usize, slot: u32) -> usize {
        self.set_next(slot, NIL);
        let mut s = self.heads[b];
        if s == NIL {
            self.heads[b] = slot;
            return 0;
        }
        let mut before = 1;
        while self.next_of(s) != NIL {
            s = self.next_of(s);
            before += 1;
        }
        self.set_next(s, slot);
        before
    }

    /// How many nodes bucket `b` holds.
    fn bucket_len(&self, b: usize) -> usize {
        let mut n = 0;
        let mut s = self.heads.get(b).copied().unwrap_or(NIL);
        while s != NIL {
            n += 1;
            s = self.next_of(s);
        }
        n
    }

    /// Relinks bucket `b` as `slots`, in that order.
    fn set_chain(&mut self, b: usize, slots: &[u32]) {
        for w in slots.windows(2) {
            self.set_next(w[0], w[1]);
        }
        if let Some(&last) = slots.last() {
            self.set_next(last, NIL);
        }
        if let Some(h) = self.heads.get_mut(b) {
            *h = slots.first().copied().unwrap_or(NIL);
        }
    }

    fn alloc(&mut self, hash: i32) -> u32 {
        let slot = Slot { hash, next: NIL };
        if self.free != NIL {
            let s = self.free;
            self.free = self.next_of(s);
            self.slots[s as usize] = slot;
            s
        } else {
            self.slots.push(slot);
            (self.slots.len() - 1) as u32
        }
    }

    fn release(&mut self, slot: u32) {
        if let Some(s) = self.slots.get_mut(slot as usize) {
            s.next = self.free;
            self.free = slot;
        }
        if let Some(t) = self.trees.as_mut() {
            t.forest.clear(slot);
        }
    }

    /// `putVal`'s placement of a new key's `slot` in bucket `b`: first in an empty bucket, into a
    /// tree, or at the end of a list. True when the list already held 8 or more (time to treeify).
    fn put_in_bucket(&mut self, b: usize, slot: u32, cmp: Cmp) -> bool {
        if self.heads[b] == NIL {
            self.heads[b] = slot;
            false
        } else if self.tree_root(b).is_some() {
            self.tree_put(b, slot, cmp);
            false
        } else {
            self.append(b, slot) >= TREEIFY_THRESHOLD
        }
    }

    /// HashMap's `treeifyBin`: a table under 64 doubles instead.
    fn treeify_hash_map_bin(&mut self, b: usize, cmp: Cmp) {
        if self.heads.len() < MIN_TREEIFY_CAPACITY {
            self.resize_hash_map(cmp);
        } else {
            self.treeify(b, cmp);
        }
    }

    fn insert_hash_map(&mut self, slot: u32, hash: i32, cmp: Cmp) {
        if self.heads.is_empty() {
            self.resize_hash_map(cmp);
        }
        let b = self.index(hash, self.heads.len());
        if self.put_in_bucket(b, slot, cmp) {
            self.treeify_hash_map_bin(b, cmp);
        }
        self.len += 1;
        if self.len > self.threshold {
            self.resize_hash_map(cmp);
        }
    }

    fn insert_concurrent(&mut self, slot: u32, hash: i32, cmp: Cmp) {
        if self.heads.is_empty() {
            let n = if self.threshold > 0 {
                self.threshold
            } else {
                16
            };
            self.heads = vec![NIL; n];
            self.threshold = n - (n >> 2);
        }
        let b = self.index(hash, self.heads.len());
        if self.put_in_bucket(b, slot, cmp) {
            self.treeify_concurrent_bin(b, cmp);
        }
        self.len += 1;
        while self.len >= self.threshold && self.heads.len() < MAXIMUM_CAPACITY {
            self.transfer_concurrent(cmp);
        }
    }

    /// ConcurrentHashMap's `putVal` counts the nodes it walks before the key it replaces too, and
    /// treeifies the bucket when that key is 8th or later in a list.
    fn replaced_concurrent(&mut self, hash: i32, slot: u32, cmp: Cmp) {
        let b = self.index(hash, self.heads.len());
        if self.tree_root(b).is_some() {
            return;
        }
        let walked = self
            .chain(b)
            .iter()
            .position(|&s| s == slot)
            .map_or(0, |i| i + 1);
        if walked >= TREEIFY_THRESHOLD {
            self.treeify_concurrent_bin(b, cmp);
        }
    }

    fn treeify_concurrent_bin(&mut self, b: usize, cmp: Cmp) {
        let n = self.heads.len();
        if n < MIN_TREEIFY_CAPACITY {
            self.presize_concurrent(n << 1, cmp);
        } else {
            self.treeify(b, cmp);
        }
    }

    fn insert_hashtable(&mut self, slot: u32, hash: i32) {
        if self.len >= self.threshold {
            self.rehash_hashtable();
        }
        let b = self.index(hash, self.heads.len());
        self.set_next(slot, self.heads[b]);
        self.heads[b] = slot;
        self.len += 1;
    }

    /// Unlinks `slot` (holding `hash`) from its bucket, as `remove` (`movable`) or an iterator's
    /// `remove()` does.
    fn remove_slot(&mut self, hash: i32, slot: u32, movable: bool) {
        let b = self.index(hash, self.heads.len());
        let mut chain = self.chain(b);
        chain.retain(|&s| s != slot);
        self.set_chain(b, &chain);
        if let Some(root) = self.tree_root(b) {
            self.tree_remove(b, root, slot, &chain, movable);
        }
        self.release(slot);
        self.len -= 1;
    }

    /// `HashMap.computeIfAbsent`'s insertion of a new key's `slot` (growth already done): at the
    /// head of its bucket, or into its tree; treeified when 7 or more nodes were there.
    fn compute_new(&mut self, slot: u32, hash: i32, cmp: Cmp) {
        let b = self.index(hash, self.heads.len());
        if self.tree_root(b).is_some() {
            self.tree_put(b, slot, cmp);
        } else {
            let before = self.bucket_len(b);
            self.set_next(slot, self.heads[b]);
            self.heads[b] = slot;
            if before >= TREEIFY_THRESHOLD - 1 {
                self.treeify_hash_map_bin(b, cmp);
            }
        }
        self.len += 1;
    }

    // ---- growth ----

    /// `HashMap.resize()`: allocate or double, splitting each bucket into its low and high halves
    /// in order; tree bins split as `TreeNode.split` does.
    fn resize_hash_map(&mut self, cmp: Cmp) {
        let old_cap = self.heads.len();
        let old_thr = self.threshold;
        let mut new_thr = 0;
        let new_cap;
        if old_cap > 0 {
            if old_cap >= MAXIMUM_CAPACITY {
                self.threshold = i32::MAX as usize;
                return;
            }
            new_cap = old_cap << 1;
            if new_cap < MAXIMUM_CAPACITY && old_cap >= 16 {
                new_thr = old_thr << 1;
            }
        } else if old_thr > 0 {
            new_cap = old_thr;
        } else {
            new_cap = 16;
            new_thr = 12;
        }
        if new_thr == 0 {
            new_thr = if new_cap < MAXIMUM_CAPACITY {
                three_quarters(new_cap)
            } else {
                i32::MAX as usize
            };
        }
        self.threshold = new_thr;
        let old_heads = std::mem::replace(&mut self.heads, vec![NIL; new_cap]);
        let old_roots = self.take_roots();
        for (j, &head) in old_heads.iter().enumerate() {
            if head == NIL {
                continue;
            }
            let tree = old_roots
                .iter()
                .find(|(b, _)| *b as usize == j)
                .map(|r| r.1);
            if tree.is_none() {
                self.split_list(head, j, old_cap);
                continue;
            }
            let chain = self.chain_from(head);
            let (lo, hi): (Vec<u32>, Vec<u32>) = chain
                .iter()
                .partition(|&&s| (self.hash_of(s) as u32 as usize) & old_cap == 0);
            self.set_chain(j, &lo);
            self.set_chain(j + old_cap, &hi);
            // A lone node lands where it belongs even if it was a tree's (Java tests `next == null`
            // first); a tree bin splits.
            match tree.filter(|_| chain.len() > 1) {
                Some(root) => self.split_tree(root, [(&lo, j), (&hi, j + old_cap)], cmp),
                None => self.untreeify(&chain),
            }
        }
    }

    /// Splits the list from `head` (old bucket `j`) into buckets `j` and `j + bit`, keeping the
    /// order of each half (HashMap's resize of a list bin).
    fn split_list(&mut self, head: u32, j: usize, bit: usize) {
        let (mut lo_tail, mut hi_tail) = (NIL, NIL);
        let mut s = head;
        while s != NIL {
            let next = self.next_of(s);
            self.set_next(s, NIL);
            let high = (self.hash_of(s) as u32 as usize) & bit != 0;
            let (tail, b) = if high {
                (&mut hi_tail, j + bit)
            } else {
                (&mut lo_tail, j)
            };
            if *tail == NIL {
                self.heads[b] = s;
            } else {
                let t = *tail;
                self.set_next(t, s);
            }
            *tail = s;
            s = next;
        }
    }

    /// ConcurrentHashMap's `transfer` to a table twice as long. A list bucket keeps its last run
    /// (the tail from the last change of half) and puts the nodes before it in front of it,
    /// reversed; a tree bin splits in order.
    fn transfer_concurrent(&mut self, cmp: Cmp) {
        let n = self.heads.len();
        let old_heads = std::mem::replace(&mut self.heads, vec![NIL; n << 1]);
        let old_roots = self.take_roots();
        for (i, &head) in old_heads.iter().enumerate() {
            if head == NIL {
                continue;
            }
            let high = |t: &Self, s: u32| (t.hash_of(s) as u32 as usize) & n != 0;
            let tree = old_roots
                .iter()
                .find(|(b, _)| *b as usize == i)
                .map(|r| r.1);
            let (lo, hi): (Vec<u32>, Vec<u32>);
            if let Some(root) = tree {
                let chain = self.chain_from(head);
                (lo, hi) = chain.iter().partition(|&&s| !high(self, s));
                self.set_chain(i, &lo);
                self.set_chain(i + n, &hi);
                self.split_tree(root, [(&lo, i), (&hi, i + n)], cmp);
                continue;
            }
            let mut run_high = high(self, head);
            let mut last_run = head;
            let mut p = self.next_of(head);
            while p != NIL {
                if high(self, p) != run_high {
                    run_high = !run_high;
                    last_run = p;
                }
                p = self.next_of(p);
            }
            let (mut ln, mut hn) = if run_high {
                (NIL, last_run)
            } else {
                (last_run, NIL)
            };
            let mut p = head;
            while p != last_run {
                let next = self.next_of(p);
                if high(self, p) {
                    self.set_next(p, hn);
                    hn = p;
                } else {
                    self.set_next(p, ln);
                    ln = p;
                }
                p = next;
            }
            self.heads[i] = ln;
            self.heads[i + n] = hn;
        }
        self.threshold = (n << 1) - (n >> 1);
    }

    /// A tree bin split in two by a resize (`TreeNode.split`, the TreeBin case of `transfer`),
    /// each half already linked at its bucket: a half of 6 or fewer becomes a list; a half that
    /// got every node keeps the tree; otherwise each half is treeified anew.
    fn split_tree(&mut self, root: u32, halves: [(&Vec<u32>, usize); 2], cmp: Cmp) {
        let whole = halves.iter().any(|(h, _)| h.is_empty());
        for (half, bucket) in halves {
            if half.is_empty() {
                continue;
            }
            if half.len() <= UNTREEIFY_THRESHOLD {
                self.untreeify(half);
            } else if whole {
                self.set_root(bucket, root);
            } else {
                self.treeify(bucket, cmp);
            }
        }
    }

    /// ConcurrentHashMap's `tryPresize(size)` on a table that exists: double until `sizeCtl`
    /// reaches `tableSizeFor(size + size/2 + 1)`.
    fn presize_concurrent(&mut self, size: usize, cmp: Cmp) {
        let c = if size >= MAXIMUM_CAPACITY >> 1 {
            MAXIMUM_CAPACITY
        } else {
            table_size_for(size + (size >> 1) + 1)
        };
        while c > self.threshold && self.heads.len() < MAXIMUM_CAPACITY {
            self.transfer_concurrent(cmp);
        }
    }

    /// Hashtable's `rehash()`: capacity `2n + 1`, old buckets from the last, each key put at the
    /// head of its new bucket.
    fn rehash_hashtable(&mut self) {
        let old = self.heads.len();
        let new_cap = (old << 1) + 1;
        self.threshold = three_quarters(new_cap);
        let old_heads = std::mem::replace(&mut self.heads, vec![NIL; new_cap]);
        for &head in old_heads.iter().rev() {
            let mut s = head;
            while s != NIL {
                let next = self.next_of(s);
                let b = self.index(self.hash_of(s), new_cap);
                self.set_next(s, self.heads[b]);
                self.heads[b] = s;
                s = next;
            }
        }
    }

    // ---- tree bins ----

    fn trees(&mut self) -> &mut Trees {
        self.trees.get_or_insert_with(Default::default)
    }

    fn tree_root(&self, b: usize) -> Option<u32> {
        let t = self.trees.as_ref()?;
        t.roots
            .iter()
            .find(|(bb, _)| *bb as usize == b)
            .map(|r| r.1)
    }

    fn set_root(&mut self, b: usize, root: u32) {
        let roots = &mut self.trees().roots;
        match roots.iter_mut().find(|(bb, _)| *bb as usize == b) {
            Some(r) => r.1 = root,
            None => roots.push((b as u32, root)),
        }
    }

    fn take_roots(&mut self) -> Vec<(u32, u32)> {
        self.trees
            .as_mut()
            .map(|t| std::mem::take(&mut t.roots))
            .unwrap_or_default()
    }

    /// Turns `slots` back into plain list nodes (their bucket's root entry is dropped by the
    /// caller or was taken).
    fn untreeify(&mut self, slots: &[u32]) {
        if let Some(t) = self.trees.as_mut() {
            for &s in slots {
                t.forest.clear(s);
            }
        }
    }

    fn drop_root(&mut self, b: usize) {
        if let Some(t) = self.trees.as_mut() {
            t.roots.retain(|(bb, _)| *bb as usize != b);
        }
    }

    /// Java's placement comparison of slot `x` against slot `p`: by hash, then `compareTo`, then
    /// (not Comparable, or equal) the tie-break, here the older slot first.
    fn dir(&self, x: u32, p: u32, cmp: Cmp) -> i32 {
        let (h, ph) = (self.hash_of(x), self.hash_of(p));
        if ph > h {
            return -1;
        }
        if ph < h {
            return 1;
        }
        match cmp(x, p) {
            Some(Ordering::Less) => -1,
            Some(Ordering::Greater) => 1,
            _ if x <= p => -1,
            _ => 1,
        }
    }

    /// Builds bucket `b`'s tree from its list (`treeifyBin` → `treeify`, or `new TreeBin`); a
    /// HashMap then moves the root to the front.
    fn treeify(&mut self, b: usize, cmp: Cmp) {
        let chain = self.chain(b);
        let mut forest = std::mem::take(&mut self.trees().forest);
        let root = forest.build(&chain, &mut |x, p| self.dir(x, p, cmp));
        self.trees().forest = forest;
        self.set_root(b, root);
        if self.kind == TableKind::HashMap {
            self.move_root_to_front(b, root);
        }
    }

    fn move_root_to_front(&mut self, b: usize, root: u32) {
        let mut chain = self.chain(b);
        if chain.first() != Some(&root) {
            chain.retain(|&s| s != root);
            chain.insert(0, root);
            self.set_chain(b, &chain);
        }
    }

    /// Puts new slot `x` into bucket `b`'s tree: a HashMap links it right after its tree parent and
    /// moves the root to the front; a ConcurrentHashMap puts it first.
    fn tree_put(&mut self, b: usize, x: u32, cmp: Cmp) {
        let Some(root) = self.tree_root(b) else {
            return;
        };
        let mut forest = std::mem::take(&mut self.trees().forest);
        let (new_root, parent) = forest.insert(root, x, &mut |x, p| self.dir(x, p, cmp));
        self.trees().forest = forest;
        self.set_root(b, new_root);
        let mut chain = self.chain(b);
        match self.kind {
            TableKind::HashMap => {
                let at = chain.iter().position(|&s| s == parent).map_or(0, |i| i + 1);
                chain.insert(at, x);
                self.set_chain(b, &chain);
                self.move_root_to_front(b, new_root);
            }
            _ => {
                chain.insert(0, x);
                self.set_chain(b, &chain);
            }
        }
    }

    /// Removes `slot` from bucket `b`'s tree once it has left the bucket's list (`rest`): an
    /// emptied bin or a tree too small becomes a list (for a HashMap only when `movable`); else the
    /// node is unlinked and a HashMap moves the root to the front when `movable`.
    fn tree_remove(&mut self, b: usize, root: u32, slot: u32, rest: &[u32], movable: bool) {
        if rest.is_empty() {
            self.drop_root(b);
            return;
        }
        let concurrent = self.kind == TableKind::ConcurrentHashMap;
        let small = match self.trees.as_ref() {
            Some(t) => t.forest.too_small(root),
            None => true,
        };
        if small && (concurrent || movable) {
            self.untreeify(rest);
            self.drop_root(b);
            return;
        }
        let new_root = self.trees().forest.remove(root, slot);
        self.set_root(b, new_root);
        if !concurrent && movable {
            self.move_root_to_front(b, new_root);
        }
    }
}

/// The keys of a [`JavaTable`] in Java's order.
pub struct Iter<'a, K> {
    table: &'a JavaTable<K>,
    bucket: usize,
    slot: u32,
    descending: bool,
}

impl<'a, K: JavaKey> Iterator for Iter<'a, K> {
    type Item = &'a K;

    fn next(&mut self) -> Option<&'a K> {
        loop {
            if self.slot != NIL {
                let s = self.slot;
                self.slot = self.table.core.next_of(s);
                return self.table.key(s);
            }
            if self.descending {
                if self.bucket == 0 {
                    return None;
                }
                self.bucket -= 1;
                self.slot = self.table.core.heads[self.bucket];
            } else {
                if self.bucket >= self.table.core.heads.len() {
                    return None;
                }
                self.slot = self.table.core.heads[self.bucket];
                self.bucket += 1;
            }
        }
    }
}
