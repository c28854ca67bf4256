//! Time travel over a run: the world at any moment of its history, and history rewritten from a
//! moment in the past.
//!
//! A [`Timeline`] owns the world the dashboard shows and everything needed to show it at an
//! earlier time: snapshots of the world along the history ([`checkpoints`]), the teacher's actions
//! with their times, and the marks the timeline is painted with ([`marks`]). Seeking replays from
//! the nearest snapshot: the simulator is deterministic, so the replay reaches exactly the state
//! the world had then. Playing on from the past replays the same history (the teacher's later
//! actions happen again at their times) until it passes the furthest time reached, the head,
//! where new history is recorded. Acting in the past forks: the teacher's actions after that time,
//! their marks and snapshots are set aside, and [`Timeline::undo_fork`] puts them back (one
//! level).
//!
//! The state at a time `t` is the world once every timer due up to `t` has fired and every action
//! due up to `t` has been applied (the scenario's, then the teacher's, in their order).
//!
//! # Layout
//!
//! - `checkpoints`: the snapshots, bounded in number, spaced by the work between them.
//! - `feed`: the event feed and producers' picks, derived from the events and kept with each
//!   snapshot.
//! - `marks`: what the timeline is painted with.

mod checkpoints;
mod feed;
mod marks;

pub use checkpoints::MAX_CHECKPOINTS;
pub use feed::{
    kind_name, target_of, Digest, FeedItem, Pick, Picks, Selection, FEED_LIMIT, PICKS_KEPT,
};
pub use marks::{Mark, MarkKind};

use checkpoints::{Checkpoint, Checkpoints};

use super::{Action, Scenario, ScenarioError, Sim, SimEvent, TimedAction};

/// While recording new history, the world is advanced at most this far at once, so that a long
/// jump (+2 min of a big cluster) still leaves snapshots along the way.
const RECORD_SLICE_MS: u64 = 1_000;

/// One teacher's action of the branch, at its virtual ms.
#[derive(Clone, Debug, PartialEq)]
struct BranchAction {
    at_ms: u64,
    action: Action,
}

/// What a fork set aside, for [`Timeline::undo_fork`].
#[derive(Clone, Debug)]
struct SetAside {
    /// The fork's time.
    at_ms: u64,
    /// How many actions, marks and snapshots the two branches share.
    kept_actions: usize,
    kept_marks: usize,
    kept_checkpoints: usize,
    actions: Vec<BranchAction>,
    marks: Vec<Mark>,
    checkpoints: Vec<Checkpoint>,
    head: (u64, u64),
}

/// What a fork did, for the notice the dashboard shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fork {
    /// History after this virtual ms was replaced.
    pub at_ms: u64,
}

/// A run whose every moment can be shown again. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Timeline {
    base: Scenario,
    sim: Sim,
    digest: Digest,
    /// The teacher's actions on this branch, in the order applied (times never decrease).
    actions: Vec<BranchAction>,
    /// How many of them `sim` has applied.
    applied: usize,
    /// The furthest point of the history: (virtual ms, the world's `fired()` there).
    head: (u64, u64),
    checkpoints: Checkpoints,
    marks: Vec<Mark>,
    set_aside: Option<SetAside>,
}

impl Timeline {
    /// The run of a valid scenario, at t = 0.
    pub fn new(scenario: Scenario) -> Self {
        let mut sim = Sim::new(&scenario);
        let mut digest = Digest::default();
        let mut marks = Vec::new();
        let events = sim.drain_events();
        digest.absorb(&events);
        marks::record(&mut marks, &events);
        let head = (sim.now(), sim.fired());
        let checkpoints = Checkpoints::new(Checkpoint {
            sim: sim.clone(),
            digest: digest.clone(),
            applied: 0,
        });
        Self {
            base: scenario,
            sim,
            digest,
            actions: Vec::new(),
            applied: 0,
            head,
            checkpoints,
            marks,
            set_aside: None,
        }
    }

    /// The world at the current position.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The feed and picks at the current position.
    pub fn digest(&self) -> &Digest {
        &self.digest
    }

    /// The scenario the run started from.
    pub fn base(&self) -> &Scenario {
        &self.base
    }

    /// The current position, virtual ms.
    pub fn now(&self) -> u64 {
        self.sim.now()
    }

    /// The furthest time reached on this branch.
    pub fn head(&self) -> u64 {
        self.head.0
    }

    /// Whether the current position is the head (new history is recorded from here).
    pub fn at_head(&self) -> bool {
        self.sim.fired() >= self.head.1 && self.sim.now() >= self.head.0
    }

    /// The marks of the whole branch, in time order (also those after the current position).
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// How many snapshots are kept.
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// The snapshots' worlds (to measure their memory).
    pub fn checkpoint_worlds(&self) -> impl Iterator<Item = &Sim> {
        self.checkpoints.iter().map(|c| &c.sim)
    }

    /// The teacher's actions of this branch with their times: with [`Timeline::base`], what a
    /// share link or an exported scenario carries.
    pub fn teacher_actions(&self) -> Vec<TimedAction> {
        self.actions
            .iter()
            .map(|a| TimedAction {
                at: a.at_ms as f64 / 1000.0,
                action: a.action.clone(),
            })
            .collect()
    }

    /// The teacher's actions of this branch with their virtual ms, in the order applied.
    pub fn branch_actions(&self) -> impl Iterator<Item = (u64, &Action)> {
        self.actions.iter().map(|a| (a.at_ms, &a.action))
    }

    /// The scenario with the teacher's actions merged in: running it gives this branch.
    pub fn branch_scenario(&self) -> Scenario {
        let mut s = self.base.clone();
        s.actions.extend(self.teacher_actions());
        // Stable: a teacher's action after the scenario's at the same time, as it ran.
        crate::sort::sort_by(&mut s.actions, |a, b| a.at.total_cmp(&b.at));
        s
    }

    /// The time a fork replaced history after, while [`Timeline::undo_fork`] can restore it.
    pub fn fork(&self) -> Option<Fork> {
        self.set_aside.as_ref().map(|s| Fork { at_ms: s.at_ms })
    }

    /// Moves forward to `t` (no earlier than now). Returns the events that happened, oldest first.
    pub fn advance_to(&mut self, t: u64) -> Vec<SimEvent> {
        let mut events = Vec::new();
        self.run_to(t, &mut || true, &mut events);
        events
    }

    /// [`Timeline::advance_to`] in slices, asking `more()` after each step of the world whether
    /// to go on (the dashboard's frame budget). Returns whether `t` was reached; a later call goes
    /// on from where this one stopped.
    pub fn advance_toward(
        &mut self,
        t: u64,
        mut more: impl FnMut() -> bool,
        events: &mut Vec<SimEvent>,
    ) -> bool {
        self.run_to(t, &mut more, events)
    }

    /// Fires what is due at the next timer's time (or the teacher's next action of this branch,
    /// if it comes first). Returns the events.
    pub fn step(&mut self) -> Vec<SimEvent> {
        let next_action = self.actions.get(self.applied).map(|a| a.at_ms);
        let next = match (self.sim.next_timer(), next_action) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match next {
            Some(t) => self.advance_to(t.max(self.now())),
            None => Vec::new(),
        }
    }

    /// Applies the teacher's action now. In the past this forks: the branch's later history is
    /// set aside (see [`Timeline::undo_fork`]) and the returned [`Fork`] says from when.
    pub fn apply(
        &mut self,
        action: Action,
    ) -> Result<(Option<Fork>, Vec<SimEvent>), ScenarioError> {
        // Whatever is due now fires first, as it does when a scenario's action is replayed.
        let mut events = self.advance_to(self.now());
        let in_the_past = !self.at_head();
        let now = self.sim.now();
        // Checked once, by the world itself: a refused action changes nothing, forks nothing.
        self.sim.apply(&action)?;
        // The fork sets aside what came after now; the action's own events are taken in below.
        let fork = in_the_past.then(|| self.fork_here());
        self.actions.push(BranchAction { at_ms: now, action });
        self.applied = self.actions.len();
        let new = self.sim.drain_events();
        self.take_in(&new, true);
        events.extend(new);
        Ok((fork, events))
    }

    /// Sets the branch's history after now aside and makes now its head.
    fn fork_here(&mut self) -> Fork {
        let at_ms = self.sim.now();
        let kept_marks = self.marks.partition_point(|m| m.t <= at_ms);
        let set_aside = SetAside {
            at_ms,
            kept_actions: self.applied,
            kept_marks,
            kept_checkpoints: 0,
            actions: self.actions.split_off(self.applied),
            marks: self.marks.split_off(kept_marks),
            checkpoints: self.checkpoints.split_after(at_ms),
            head: self.head,
        };
        let kept_checkpoints = self.checkpoints.len();
        self.set_aside = Some(SetAside {
            kept_checkpoints,
            ..set_aside
        });
        self.head = (self.sim.now(), self.sim.fired());
        Fork { at_ms }
    }

    /// Puts back the history the last fork set aside, and shows the moment of the fork on it.
    /// False when there is nothing to undo.
    pub fn undo_fork(&mut self) -> bool {
        let Some(old) = self.set_aside.take() else {
            return false;
        };
        self.actions.truncate(old.kept_actions);
        self.actions.extend(old.actions);
        self.marks.truncate(old.kept_marks);
        self.marks.extend(old.marks);
        self.checkpoints
            .restore(old.kept_checkpoints, old.checkpoints);
        self.head = old.head;
        // The world shown is on the other branch: replay from a snapshot of this one.
        self.seek_from_snapshot(old.at_ms, false);
        true
    }

    /// Shows the world at `t` (clamped to the head): replays from the nearest snapshot at or
    /// before it, or goes on from the current position when that is nearer.
    pub fn seek(&mut self, t: u64) {
        self.seek_from_snapshot(t, true);
    }

    fn seek_from_snapshot(&mut self, t: u64, may_go_on: bool) {
        let t = t.min(self.head.0);
        let from = self.checkpoints.at_or_before(t);
        let here = self.sim.now();
        let go_on = may_go_on && here <= t && here >= from.t() && self.sim.fired() >= from.fired();
        if !go_on {
            let from = from.clone();
            self.sim = from.sim;
            self.digest = from.digest;
            self.applied = from.applied;
        }
        let mut events = Vec::new();
        self.run_to(t, &mut || true, &mut events);
    }

    /// Goes back to the head.
    pub fn seek_head(&mut self) {
        self.seek(self.head.0);
    }

    /// The time of the last mark before the current position, if any.
    pub fn prev_mark(&self) -> Option<u64> {
        let now = self.now();
        let i = self.marks.partition_point(|m| m.t < now);
        i.checked_sub(1).map(|i| self.marks[i].t)
    }

    /// The time of the first mark after the current position, if any.
    pub fn next_mark(&self) -> Option<u64> {
        let now = self.now();
        let i = self.marks.partition_point(|m| m.t <= now);
        self.marks.get(i).map(|m| m.t)
    }

    /// The one loop that moves the world forward: to `t`, applying the branch's teacher actions
    /// at their times, recording marks and snapshots past the head.
    fn run_to(
        &mut self,
        t: u64,
        more: &mut dyn FnMut() -> bool,
        events: &mut Vec<SimEvent>,
    ) -> bool {
        let t = t.max(self.sim.now());
        loop {
            let recording = self.at_head();
            let now = self.sim.now();
            let mut stop = t;
            if let Some(a) = self.actions.get(self.applied) {
                stop = stop.min(a.at_ms);
            }
            if recording {
                stop = stop.min(now.saturating_add(RECORD_SLICE_MS));
            } else if now < self.head.0 {
                // A replay stops at the head, where recording takes over.
                stop = stop.min(self.head.0);
            }
            let reached = self.sim.advance_toward(stop, &mut *more);
            let new = self.sim.drain_events();
            self.take_in(&new, recording);
            events.extend(new);
            if !reached {
                return false;
            }
            while self
                .actions
                .get(self.applied)
                .is_some_and(|a| a.at_ms == self.sim.now())
            {
                let action = self.actions[self.applied].action.clone();
                self.applied += 1;
                // Checked when it was first applied, on this very history.
                let _ = self.sim.apply(&action);
                let new = self.sim.drain_events();
                let recording = self.past_head();
                self.take_in(&new, recording);
                events.extend(new);
            }
            if self.at_head() && self.checkpoints.due(self.sim.fired()) {
                self.checkpoints.push(Checkpoint {
                    sim: self.sim.clone(),
                    digest: self.digest.clone(),
                    applied: self.applied,
                });
            }
            if self.sim.now() >= t {
                return true;
            }
        }
    }

    /// Whether the world has gone past the head (what happens now is new history).
    fn past_head(&self) -> bool {
        self.sim.fired() > self.head.1
    }

    /// Takes in the events the world just produced: into the feed, and when they are new history,
    /// into the marks, moving the head.
    fn take_in(&mut self, events: &[SimEvent], recording: bool) {
        self.digest.absorb(events);
        if recording || self.past_head() {
            marks::record(&mut self.marks, events);
        }
        if self.sim.fired() >= self.head.1 {
            self.head = (self.sim.now().max(self.head.0), self.sim.fired());
        }
    }
}

#[cfg(test)]
mod tests;
