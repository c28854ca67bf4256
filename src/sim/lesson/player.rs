//! Where a learner is in a lesson and what they did: the state of the dashboard's lesson player,
//! kept apart from the world (the timeline holds that). Back returns the moment an earlier step
//! began, for the timeline to seek to; Next is never refused — a task or question left undone is
//! marked skipped.

use super::predict::Outcome;
use super::Lesson;
use crate::sim::{Action, SimEvent};

/// How a step ended, or that it is the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepState {
    /// Not reached yet.
    Ahead,
    Current,
    /// Left with its task and question done.
    Done,
    /// Left with its task or question undone.
    Skipped,
}

/// A learner's answer to a step's question and what really happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    pub chosen: usize,
    pub outcome: Outcome,
}

impl Answered {
    /// Whether the chosen answer was the right one.
    pub fn correct(&self) -> bool {
        self.outcome.right.contains(&self.chosen)
    }
}

/// A learner's way through a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    current: usize,
    states: Vec<StepState>,
    /// When each step reached so far began (virtual ms).
    entered: Vec<Option<u64>>,
    task_done: Vec<bool>,
    answers: Vec<Option<Answered>>,
    /// Whether the current step's `until` has come.
    until_reached: Vec<bool>,
}

impl Player {
    /// At the first step of `lesson`, begun at `now`.
    pub fn new(lesson: &Lesson, now: u64) -> Self {
        let n = lesson.steps.len();
        let mut states = vec![StepState::Ahead; n];
        let mut entered = vec![None; n];
        if n > 0 {
            states[0] = StepState::Current;
            entered[0] = Some(now);
        }
        Self {
            current: 0,
            states,
            entered,
            task_done: vec![false; n],
            answers: vec![None; n],
            until_reached: vec![false; n],
        }
    }

    /// The current step, from 0.
    pub fn current(&self) -> usize {
        self.current
    }

    /// How many steps.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the lesson has no steps.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Every step's state.
    pub fn states(&self) -> &[StepState] {
        &self.states
    }

    /// When the step began, if it was reached.
    pub fn entered(&self, step: usize) -> Option<u64> {
        self.entered.get(step).copied().flatten()
    }

    /// Whether the current step's task was done.
    pub fn task_done(&self) -> bool {
        self.task_done.get(self.current).copied().unwrap_or(false)
    }

    /// The current step's answer, once given.
    pub fn answer(&self) -> Option<&Answered> {
        self.answers.get(self.current).and_then(Option::as_ref)
    }

    /// Whether the current step's `until` has come.
    pub fn until_reached(&self) -> bool {
        self.until_reached
            .get(self.current)
            .copied()
            .unwrap_or(false)
    }

    /// An action was applied: the current step's task is done if it asked for it ([`super::Task::done_by`]).
    /// Returns whether it completed the task.
    pub fn action_applied(&mut self, lesson: &Lesson, action: &Action) -> bool {
        let Some(step) = lesson.steps.get(self.current) else {
            return false;
        };
        let matches = step.task.as_ref().is_some_and(|t| t.done_by(action));
        if matches && !self.task_done[self.current] {
            self.task_done[self.current] = true;
            return true;
        }
        false
    }

    /// The learner chose `chosen` for the current step's question; `outcome` is what the simulator
    /// found. A question is answered once: later choices change nothing.
    pub fn answer_with(&mut self, chosen: usize, outcome: Outcome) {
        if let Some(slot) = self.answers.get_mut(self.current) {
            if slot.is_none() {
                *slot = Some(Answered { chosen, outcome });
            }
        }
    }

    /// Events that happened during the current step: its `until` has come when one of them is the
    /// event it waits for. A task's own events count (resuming an old master changes its role at
    /// once), as the headless walk counts them.
    pub fn saw(&mut self, lesson: &Lesson, events: &[SimEvent]) {
        let Some(m) = lesson
            .steps
            .get(self.current)
            .and_then(|s| s.until.as_ref())
            .and_then(|u| u.event.as_ref())
        else {
            return;
        };
        if events.iter().any(|e| m.matches(&e.kind)) {
            self.reach_until();
        }
    }

    /// The current step's `until` came.
    pub fn reach_until(&mut self) {
        if let Some(r) = self.until_reached.get_mut(self.current) {
            *r = true;
        }
    }

    /// To the next step, begun at `now` (the caller first runs the current step's `until`, if any
    /// and not reached). The step left is done, or skipped when its task or question was left
    /// undone. Returns false at the last step.
    pub fn next(&mut self, lesson: &Lesson, now: u64) -> bool {
        if self.current + 1 >= self.len() {
            if let Some(step) = lesson.steps.get(self.current) {
                self.states[self.current] = self.left_state(step);
            }
            return false;
        }
        let step = &lesson.steps[self.current];
        self.states[self.current] = self.left_state(step);
        self.current += 1;
        self.states[self.current] = StepState::Current;
        // Entered anew: a step visited before (after Back) begins where it begins now.
        self.entered[self.current] = Some(now);
        self.task_done[self.current] = false;
        self.answers[self.current] = None;
        self.until_reached[self.current] = false;
        true
    }

    fn left_state(&self, step: &super::Step) -> StepState {
        let task_ok = step.task.is_none() || self.task_done[self.current];
        let predict_ok = step.predict.is_none() || self.answers[self.current].is_some();
        if task_ok && predict_ok {
            StepState::Done
        } else {
            StepState::Skipped
        }
    }

    /// Back to the step before: returns the moment it began, for the world to return to. The
    /// step left becomes ahead again, and the one returned to starts over (its task, answer and
    /// until undone: the world is as it was when it began). None at the first step.
    pub fn back(&mut self) -> Option<u64> {
        if self.current == 0 {
            return None;
        }
        self.states[self.current] = StepState::Ahead;
        self.current -= 1;
        self.states[self.current] = StepState::Current;
        self.task_done[self.current] = false;
        self.answers[self.current] = None;
        self.until_reached[self.current] = false;
        self.entered[self.current]
    }

    /// Shows step `step` as someone else walks the lesson (a classroom's teacher): steps passed
    /// are left as by Next, steps returned to as by Back, the new ones begun at `now`.
    pub fn go_to_step(&mut self, lesson: &Lesson, step: usize, now: u64) {
        let step = step.min(self.len().saturating_sub(1));
        while self.current < step && self.next(lesson, now) {}
        while self.current > step && self.back().is_some() {}
    }

    /// Whether the whole lesson was walked (the last step left with Next).
    pub fn finished(&self) -> bool {
        self.states
            .last()
            .is_some_and(|s| matches!(s, StepState::Done | StepState::Skipped))
    }
}
