//! The simulator's timer queue: timers fire in (time, insertion order), exactly as one min-heap
//! would fire them, but a producer's send chain does not go through the heap.
//!
//! Why: every simulated send schedules and fires two timers (the send tick, then the attempt's
//! end), and a shared heap made those pushes and pops a large part of a send's cost. A producer has
//! at most one send-chain timer pending (each one, when it fires, schedules at most the next), so
//! each producer gets one slot for it; everything else (scans, registrations, route polls, actions)
//! stays in the heap. The queue's head is the smaller of the heap's head and the earliest slot.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Timer;

/// A pending timer: (time, insertion order, what it does). Insertion orders are unique, so the
/// order of two entries never depends on the timer itself.
type Entry = (u64, u64, Timer);

/// An empty slot's key: later than any timer.
const EMPTY: u128 = u128::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct TimerQueue {
    /// Every timer that is not in a slot.
    heap: BinaryHeap<Reverse<Entry>>,
    /// Per producer, the (time, order) key of its pending send-chain timer, as one number (time in
    /// the high half) so that finding the earliest is a plain minimum; [`EMPTY`] when none.
    slot_keys: Vec<u128>,
    /// Per producer, its pending send-chain timer (meaningful when its key is not [`EMPTY`]).
    slot_timers: Vec<Option<Timer>>,
    /// The producer whose slot holds the earliest key (any, when every slot is empty).
    earliest_slot: usize,
    /// The last insertion order given.
    seq: u64,
}

fn pack(at: u64, seq: u64) -> u128 {
    (u128::from(at) << 64) | u128::from(seq)
}

/// The time of a packed key.
fn time_of(key: u128) -> u64 {
    (key >> 64) as u64
}

impl TimerQueue {
    /// Schedules `timer` at `at`.
    pub fn push(&mut self, at: u64, timer: Timer) {
        self.seq += 1;
        let Some(p) = timer.send_chain_producer() else {
            self.heap.push(Reverse((at, self.seq, timer)));
            return;
        };
        if self.slot_keys.len() <= p {
            self.slot_keys.resize(p + 1, EMPTY);
            self.slot_timers.resize(p + 1, None);
        }
        if self.slot_keys[p] != EMPTY {
            // Not expected (one chain per producer), but the heap keeps the order right anyway.
            self.heap.push(Reverse((at, self.seq, timer)));
            return;
        }
        let key = pack(at, self.seq);
        self.slot_keys[p] = key;
        self.slot_timers[p] = Some(timer);
        if key < self.slot_head() {
            self.earliest_slot = p;
        }
    }

    /// The earliest slot's key ([`EMPTY`] when none).
    fn slot_head(&self) -> u128 {
        self.slot_keys
            .get(self.earliest_slot)
            .copied()
            .unwrap_or(EMPTY)
    }

    /// The heap head's key ([`EMPTY`] when none).
    fn heap_head(&self) -> u128 {
        self.heap
            .peek()
            .map_or(EMPTY, |Reverse((at, seq, _))| pack(*at, *seq))
    }

    /// The time of the next timer, if any.
    pub fn next_time(&self) -> Option<u64> {
        let head = self.heap_head().min(self.slot_head());
        (head != EMPTY).then(|| time_of(head))
    }

    /// Removes and returns the next timer if it is due at or before `t`.
    pub fn pop_due(&mut self, t: u64) -> Option<Timer> {
        let (heap, slot) = (self.heap_head(), self.slot_head());
        let head = heap.min(slot);
        if head == EMPTY || time_of(head) > t {
            return None;
        }
        if slot < heap {
            let p = self.earliest_slot;
            self.slot_keys[p] = EMPTY;
            let timer = self.slot_timers[p].take();
            self.earliest_slot = self.find_earliest_slot();
            timer
        } else {
            self.heap.pop().map(|Reverse((_, _, timer))| timer)
        }
    }

    fn find_earliest_slot(&self) -> usize {
        let mut best = (EMPTY, 0);
        for (p, &key) in self.slot_keys.iter().enumerate() {
            if key < best.0 {
                best = (key, p);
            }
        }
        best.1
    }
}
