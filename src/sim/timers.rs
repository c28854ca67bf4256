//! The simulator's timer queue: timers fire in (time, insertion order), exactly as the min-heap it
//! replaces fired them.
//!
//! Why not a heap: every simulated send schedules and fires two timers (the send tick, then the
//! attempt's end), and the heap's sifting made those a large part of a send's cost. Here the
//! pending timers are one vector sorted latest first: the next timer is the last element (a pop),
//! and a new one is placed by a search from the end. Send-chain timers are due within
//! milliseconds, so they land near the end and an insertion moves only the few timers due before
//! them; timers due far ahead (scans, registrations, route polls) are few and set rarely. With
//! hundreds of producers an insertion moves more (linear in the pending timers, against the
//! heap's logarithm): a cost accepted for the scenarios a workshop runs, which have a few dozen.

use super::Timer;

/// A pending timer: (time, insertion order, what it does). Insertion orders are unique, so the
/// order of two entries never depends on the timer itself.
type Entry = (u64, u64, Timer);

/// Up to this many pending timers, a new one is placed by a scan from the end.
const LINEAR_SEARCH_MAX: usize = 64;

#[derive(Clone, Debug, Default)]
pub(crate) struct TimerQueue {
    /// Sorted by (time, order), latest first: the next timer is the last.
    pending: Vec<Entry>,
    /// The last insertion order given.
    seq: u64,
}

impl TimerQueue {
    /// Schedules `timer` at `at`.
    pub fn push(&mut self, at: u64, timer: Timer) {
        self.seq += 1;
        let key = (at, self.seq);
        // After the last entry later than the new one (no entry has an equal key). Searched from
        // the end while the queue is short: a send-chain timer is due soon, so only a few entries
        // are due before it, and a short scan beats a binary search's mispredicted branches.
        let later = |e: &Entry| (e.0, e.1) > key;
        let pos = if self.pending.len() <= LINEAR_SEARCH_MAX {
            self.pending.iter().rposition(later).map_or(0, |i| i + 1)
        } else {
            self.pending.partition_point(later)
        };
        self.pending.insert(pos, (at, self.seq, timer));
    }

    /// The time of the next timer, if any.
    pub fn next_time(&self) -> Option<u64> {
        self.pending.last().map(|e| e.0)
    }

    /// Removes and returns the next timer if it is due at or before `t`.
    pub fn pop_due(&mut self, t: u64) -> Option<Timer> {
        if self.pending.last()?.0 > t {
            return None;
        }
        self.pending.pop().map(|e| e.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Timers fire by time, then in the order they were set, as a (time, order) min-heap fires them.
    #[test]
    fn fires_by_time_then_insertion_order() {
        let mut q = TimerQueue::default();
        let set = [(5, 0), (3, 1), (5, 2), (3, 3), (9, 4), (3, 5)];
        for (at, i) in set {
            q.push(at, Timer::Action(i));
        }
        assert_eq!(q.next_time(), Some(3));
        assert_eq!(q.pop_due(2), None);
        let mut fired = Vec::new();
        while let Some(Timer::Action(i)) = q.pop_due(5) {
            fired.push(i);
        }
        assert_eq!(fired, vec![1, 3, 5, 0, 2]);
        // A timer set for a time already reached fires after those set before it for that time.
        q.push(9, Timer::Action(6));
        q.push(7, Timer::Action(7));
        assert_eq!(q.pop_due(9), Some(Timer::Action(7)));
        assert_eq!(q.pop_due(9), Some(Timer::Action(4)));
        assert_eq!(q.pop_due(9), Some(Timer::Action(6)));
        assert_eq!(q.pop_due(u64::MAX), None);
        assert_eq!(q.next_time(), None);
    }

    /// Past the length where placement switches to a binary search, the order is the same.
    #[test]
    fn long_queues_keep_the_order() {
        let mut q = TimerQueue::default();
        let n = 3 * LINEAR_SEARCH_MAX;
        // Times 0, 7, 14, … modulo 10: many ties, set in a scrambled order.
        for i in 0..n {
            q.push((i as u64 * 7) % 10, Timer::Action(i));
        }
        let mut fired = Vec::new();
        while let Some(Timer::Action(i)) = q.pop_due(u64::MAX) {
            fired.push(i);
        }
        let mut expected: Vec<usize> = (0..n).collect();
        expected.sort_by_key(|&i| ((i as u64 * 7) % 10, i));
        assert_eq!(fired, expected);
    }
}
