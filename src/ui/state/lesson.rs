//! The reducer's part for a lesson: Back and Next, answers, and running to a step's `until`. The
//! player's rules (what is done or skipped, where Back returns) are the core's
//! [`crate::sim::lesson::player::Player`]; this moves the timeline accordingly.

use std::rc::Rc;

use super::AppState;
use crate::sim::lesson::player::Player;
use crate::sim::lesson::predict::outcome;
use crate::sim::lesson::{Lesson, Step, HORIZON_MS};
use crate::sim::Action;

/// A lesson being walked.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonRun {
    /// Its file's name (`lesson-2-heartbeats`).
    pub name: String,
    pub lesson: Rc<Lesson>,
    pub player: Player,
}

impl LessonRun {
    pub fn new(name: String, lesson: Lesson) -> Self {
        let player = Player::new(&lesson, 0);
        Self {
            name,
            lesson: Rc::new(lesson),
            player,
        }
    }

    /// The current step.
    pub fn step(&self) -> Option<&Step> {
        self.lesson.steps.get(self.player.current())
    }
}

/// What a learner does in the lesson panel (or with its keys).
#[derive(Clone, Debug, PartialEq)]
pub enum LessonMsg {
    /// To the next step (running the current one's `until` first when it has not come).
    Next,
    /// To the step before, the world as it was when that step began.
    Back,
    /// The learner's choice for the current step's question.
    Answer(usize),
    /// Runs the world to the current step's `until`.
    RunUntil,
    /// Leaves the lesson (the world stays).
    Close,
}

impl AppState {
    pub(super) fn lesson_msg(&mut self, msg: LessonMsg) {
        let Some(run) = self.lesson.clone() else {
            return;
        };
        self.playing = false;
        match msg {
            LessonMsg::Next => {
                self.run_until();
                let now = self.timeline.borrow().now();
                if let Some(run) = self.run_mut() {
                    let lesson = run.lesson.clone();
                    run.player.next(&lesson, now);
                }
            }
            LessonMsg::Back => {
                if let Some(t) = self.run_mut().and_then(|run| run.player.back()) {
                    self.seek(t);
                }
            }
            LessonMsg::Answer(i) => {
                let Some(step) = run.step() else {
                    return;
                };
                let Some(p) = &step.predict else {
                    return;
                };
                // About what the task will cause, when the learner has not done it yet.
                let task = step
                    .task
                    .as_ref()
                    .filter(|_| !run.player.task_done())
                    .map(|t| &t.action);
                let o = outcome(p, &self.sim(), task);
                drop(run);
                if let Some(run) = self.run_mut() {
                    run.player.answer_with(i, o);
                }
            }
            LessonMsg::RunUntil => self.run_until(),
            LessonMsg::Close => self.lesson = None,
        }
    }

    /// Runs the world to the current step's `until`, if it has one that has not come.
    fn run_until(&mut self) {
        let Some(run) = self.lesson.clone() else {
            return;
        };
        let Some(until) = run.step().and_then(|s| s.until.as_ref()) else {
            return;
        };
        if run.player.until_reached() {
            return;
        }
        let mut events = Vec::new();
        if let Some(at) = until.at {
            let t = (at * 1000.0).round() as u64;
            let now = self.timeline.borrow().now();
            if t > now {
                events = self.timeline.borrow_mut().advance_to(t);
            }
        } else if let Some(m) = &until.event {
            let end = self.timeline.borrow().now().saturating_add(HORIZON_MS);
            while self.sim().next_timer().is_some_and(|t| t <= end) {
                let new = self.timeline.borrow_mut().step();
                let found = new.iter().any(|e| m.matches(&e.kind));
                events.extend(new);
                if found {
                    break;
                }
            }
        }
        self.absorb(&events);
        if let Some(run) = self.run_mut() {
            run.player.reach_until();
        }
    }

    /// The lesson being walked, to change (the state's copy of it: states are cloned per message).
    pub(super) fn run_mut(&mut self) -> Option<&mut LessonRun> {
        self.lesson.as_mut().map(Rc::make_mut)
    }

    /// Before the learner's action: an action at the very moment the current step began is moved
    /// a millisecond on, so that Back (which shows the world at that moment) shows it undone.
    pub(super) fn before_lesson_action(&mut self) {
        let Some(run) = &self.lesson else {
            return;
        };
        let now = self.timeline.borrow().now();
        if run.player.entered(run.player.current()) == Some(now) {
            let events = self.timeline.borrow_mut().advance_to(now + 1);
            self.absorb(&events);
        }
    }

    /// After the learner's action was applied: the current step's task may be done, and its
    /// `until` may have come with the action's own `events`.
    pub(super) fn after_lesson_action(&mut self, action: &Action, events: &[crate::sim::SimEvent]) {
        if let Some(run) = self.run_mut() {
            let lesson = run.lesson.clone();
            run.player.action_applied(&lesson, action);
            run.player.saw(&lesson, events);
        }
    }
}
