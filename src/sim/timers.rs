//! The simulator's timer queue: timers fire in (time, insertion order), exactly as the min-heap it
//! replaced fired them.
//!
//! Why not a heap or one sorted vector: every simulated send schedules and fires two timers (the
//! send tick, then the attempt's end), due within a few milliseconds, and placing them by sifting or
//! by a search was a large part of a send's cost. Here a timer due within [`WHEEL_MS`] of the
//! earliest pending time goes into a wheel with one slot per millisecond: placing it is an append
//! to its slot, and the next slot with timers is found from a bit mask. The wheel spans fewer
//! milliseconds than it has slots, so a slot only ever holds timers of one time, in the order they
//! were set. Timers due further ahead (scans, registrations, route polls, a send's timeout) are
//! few and set rarely; they wait in a vector sorted latest first, and each pop takes whichever of
//! the two fronts comes first by (time, insertion order).

use super::Timer;

/// A pending timer of the far list: (time, insertion order, what it does). Insertion orders are
/// unique, so the order of two entries never depends on the timer itself.
type Entry = (u64, u64, Timer);

/// Milliseconds (and slots) of the wheel: a power of two no wider than the bit mask.
const WHEEL_MS: u64 = 64;

/// The wheel's timers due at one time, in insertion order: (order, what it does). Taken from the
/// front by a cursor, so firing one moves nothing.
#[derive(Clone, Debug, Default)]
struct Slot {
    timers: Vec<(u64, Timer)>,
    next: usize,
}

#[derive(Clone, Debug)]
pub(crate) struct TimerQueue {
    /// Slot `at % WHEEL_MS` holds the wheel's timers due at `at`. Every wheel timer is due in
    /// `base..base + WHEEL_MS`, so one slot never mixes two times.
    slots: [Slot; WHEEL_MS as usize],
    /// Bit `i` is set when slot `i` holds a timer.
    occupied: u64,
    /// No wheel timer is due before this; it only moves forward while the wheel holds timers.
    base: u64,
    /// The other timers, sorted by (time, order), latest first: the next is the last.
    far: Vec<Entry>,
    /// The last insertion order given.
    seq: u64,
}

impl Default for TimerQueue {
    fn default() -> Self {
        Self {
            slots: std::array::from_fn(|_| Slot::default()),
            occupied: 0,
            base: 0,
            far: Vec::new(),
            seq: 0,
        }
    }
}

/// The wheel slot of time `at`.
fn slot_of(at: u64) -> usize {
    (at % WHEEL_MS) as usize
}

impl TimerQueue {
    /// Schedules `timer` at `at`.
    #[inline]
    pub fn push(&mut self, at: u64, timer: Timer) {
        self.seq += 1;
        if self.occupied == 0 && at < self.base {
            // An empty wheel may start anywhere: from here, the timers set next fit in it.
            self.base = at;
        }
        if at >= self.base && at - self.base < WHEEL_MS {
            let slot = slot_of(at);
            self.slots[slot].timers.push((self.seq, timer));
            self.occupied |= 1 << slot;
        } else {
            self.push_far(at, timer);
        }
    }

    #[inline(never)]
    fn push_far(&mut self, at: u64, timer: Timer) {
        // After the last entry due later than the new one: among timers due at the same time, the
        // new one (the latest set) fires last.
        let pos = self.far.partition_point(|e| e.0 > at);
        self.far.insert(pos, (at, self.seq, timer));
    }

    /// Where the next timer is — a wheel slot, or the far list (None) — and its time.
    #[inline]
    fn next(&self) -> Option<(Option<usize>, u64)> {
        if self.occupied == 0 {
            return self.far.last().map(|e| (None, e.0));
        }
        // Slots from the base's onwards, wrapping: the first set bit is the earliest time.
        let offset = self
            .occupied
            .rotate_right(slot_of(self.base) as u32)
            .trailing_zeros();
        let at = self.base + u64::from(offset);
        let slot = slot_of(at);
        match self.far.last() {
            Some(f) if f.0 < at => Some((None, f.0)),
            Some(f) if f.0 == at => {
                // One time in both: the one set first fires first.
                let s = &self.slots[slot];
                let wheel_first = s.timers.get(s.next).is_some_and(|w| w.0 < f.1);
                Some((wheel_first.then_some(slot), at))
            }
            _ => Some((Some(slot), at)),
        }
    }

    /// The time of the next timer, if any.
    #[inline]
    pub fn next_time(&self) -> Option<u64> {
        self.next().map(|(_, at)| at)
    }

    /// Removes and returns the next timer if it is due at or before `t`.
    #[cfg(test)]
    pub fn pop_due(&mut self, t: u64) -> Option<Timer> {
        self.pop_due_with_time(t).map(|(_, timer)| timer)
    }

    /// Removes and returns the next timer and its time if it is due at or before `t`.
    #[inline]
    pub fn pop_due_with_time(&mut self, t: u64) -> Option<(u64, Timer)> {
        let (slot, at) = self.next()?;
        if at > t {
            return None;
        }
        // Nothing pending is due before the timer taken now.
        self.base = self.base.max(at);
        let Some(slot) = slot else {
            return self.far.pop().map(|e| (at, e.2));
        };
        let s = &mut self.slots[slot];
        let timer = s.timers.get(s.next)?.1;
        s.next += 1;
        if s.next == s.timers.len() {
            s.timers.clear();
            s.next = 0;
            self.occupied &= !(1 << slot);
        }
        Some((at, timer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SeededRng;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Timers fire by time, then in the order they were set, as a (time, order) min-heap fires them.
    #[test]
    fn fires_by_time_then_insertion_order() {
        let mut q = TimerQueue::default();
        let set = [(5, 0), (3, 1), (5, 2), (3, 3), (9, 4), (3, 5)];
        for (at, i) in set {
            q.push(at, Timer::Scan(i));
        }
        assert_eq!(q.next_time(), Some(3));
        assert_eq!(q.pop_due(2), None);
        let mut fired = Vec::new();
        while let Some(Timer::Scan(i)) = q.pop_due(5) {
            fired.push(i);
        }
        assert_eq!(fired, vec![1, 3, 5, 0, 2]);
        // A timer set for a time already reached fires after those set before it for that time.
        q.push(9, Timer::Scan(6));
        q.push(7, Timer::Scan(7));
        assert_eq!(q.pop_due(9), Some(Timer::Scan(7)));
        assert_eq!(q.pop_due(9), Some(Timer::Scan(4)));
        assert_eq!(q.pop_due(9), Some(Timer::Scan(6)));
        assert_eq!(q.pop_due(u64::MAX), None);
        assert_eq!(q.next_time(), None);
    }

    /// Many timers, many of them at the same times, set in a scrambled order: the same order.
    #[test]
    fn long_queues_keep_the_order() {
        let mut q = TimerQueue::default();
        let n = 200;
        // Times 0, 7, 14, … modulo 10: many ties, set in a scrambled order.
        for i in 0..n {
            q.push((i as u64 * 7) % 10, Timer::Scan(i));
        }
        let mut fired = Vec::new();
        while let Some(Timer::Scan(i)) = q.pop_due(u64::MAX) {
            fired.push(i);
        }
        let mut expected: Vec<usize> = (0..n).collect();
        expected.sort_by_key(|&i| ((i as u64 * 7) % 10, i));
        assert_eq!(fired, expected);
    }

    /// Against a plain sorted list, with timers set while others fire: near and far ahead (across
    /// the wheel's edge), at the current time, and before it.
    #[test]
    fn matches_a_sorted_list_under_mixed_use() {
        let mut rng = SeededRng::new(7);
        let mut q = TimerQueue::default();
        let mut reference: Vec<(u64, usize)> = Vec::new();
        let mut now = 0u64;
        let mut next_id = 0usize;
        for _ in 0..20_000 {
            if rng.next_below(5) < 3 {
                let at = match rng.next_below(6) {
                    0 => now + 30_000 + rng.next_below(100),
                    1 => now + WHEEL_MS - 2 + rng.next_below(4),
                    2 => now,
                    3 => now.saturating_sub(rng.next_below(5)),
                    _ => now + rng.next_below(12),
                };
                q.push(at, Timer::Scan(next_id));
                reference.push((at, next_id));
                next_id += 1;
            } else {
                // The reference: earliest time, then earliest set (ids grow with insertion).
                let best = reference.iter().copied().min();
                assert_eq!(q.next_time(), best.map(|(at, _)| at));
                let t = best.map_or(now, |(at, _)| at.max(now));
                assert_eq!(q.pop_due(t), best.map(|(_, id)| Timer::Scan(id)));
                if let Some(b) = best {
                    reference.retain(|e| *e != b);
                    now = t;
                }
            }
        }
        while let Some(b) = reference.iter().copied().min() {
            assert_eq!(q.pop_due(u64::MAX), Some(Timer::Scan(b.1)));
            reference.retain(|e| *e != b);
        }
        assert_eq!(q.next_time(), None);
    }
}
