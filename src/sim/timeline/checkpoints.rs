//! Snapshots of the world along one history, a bounded number of them, spaced by the work a
//! replay from one to the next repeats.

use super::feed::Digest;
use crate::sim::Sim;

/// At most this many snapshots are kept. Measured on big-cluster (200 brokers, 10,000 topics),
/// whose snapshot costs about 0.5 MB once its tables are shared (see BENCHMARKS.md): 64 of them
/// stay within the 64 MB budget with room for the tables a change copies.
pub const MAX_CHECKPOINTS: usize = 64;
/// The work (timers fired and actions applied) between two snapshots at first; doubled each time
/// the snapshots are thinned, so a run of any length keeps at most [`MAX_CHECKPOINTS`] and
/// replaying from one to the next always repeats about the same share of the run. Small: a small
/// world's hour (crash-hang-stop fires about 16,000 timers) then fills the snapshots it may keep
/// rather than 8 of them, and a seek replays an eighth of the work (in the page, where a replay
/// costs ten times what it does natively); a big world thins to the same spacing as before.
const FIRST_SPACING: u64 = 250;

/// The world at a moment of the history, with what the dashboard derived up to it.
#[derive(Clone, Debug)]
pub(crate) struct Checkpoint {
    pub sim: Sim,
    pub digest: Digest,
    /// How many of the branch's teacher actions the world has applied.
    pub applied: usize,
}

impl Checkpoint {
    pub fn t(&self) -> u64 {
        self.sim.now()
    }

    pub fn fired(&self) -> u64 {
        self.sim.fired()
    }
}

/// The snapshots of one history, oldest first (the first is t = 0 and is never dropped).
#[derive(Clone, Debug)]
pub(crate) struct Checkpoints {
    list: Vec<Checkpoint>,
    /// The work between two snapshots.
    spacing: u64,
}

impl Checkpoints {
    pub fn new(first: Checkpoint) -> Self {
        Self {
            list: vec![first],
            spacing: FIRST_SPACING,
        }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the world at `fired` has done enough work since the last snapshot for another.
    pub fn due(&self, fired: u64) -> bool {
        self.list
            .last()
            .is_none_or(|c| fired >= c.fired() + self.spacing)
    }

    /// Keeps a snapshot (taken at the end of the history); thins them when there are too many.
    pub fn push(&mut self, c: Checkpoint) {
        self.list.push(c);
        if self.list.len() > MAX_CHECKPOINTS {
            // Every second one goes (never the first); the spacing doubles to match.
            let mut i = 0;
            self.list.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.spacing *= 2;
        }
    }

    /// The latest snapshot at or before `t`.
    pub fn at_or_before(&self, t: u64) -> &Checkpoint {
        let i = self.list.partition_point(|c| c.t() <= t);
        &self.list[i.saturating_sub(1)]
    }

    /// Drops the snapshots after `t`, returning them (oldest first).
    pub fn split_after(&mut self, t: u64) -> Vec<Checkpoint> {
        let i = self.list.partition_point(|c| c.t() <= t).max(1);
        self.list.split_off(i)
    }

    /// Drops every snapshot after the first `n` and puts `tail` after them.
    pub fn restore(&mut self, n: usize, tail: Vec<Checkpoint>) {
        self.list.truncate(n.max(1));
        self.list.extend(tail);
    }

    /// The snapshots' worlds (for measuring their memory).
    pub fn iter(&self) -> impl Iterator<Item = &Checkpoint> {
        self.list.iter()
    }
}
