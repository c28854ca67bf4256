//! A classroom page following the room: the hub's frames taken in, the room's world loaded, and
//! the page's world brought to the teacher's moment (the core's [`Follower`] says what to do).
//!
//! [`Follower`]: crate::classroom::follow::Follower

use std::rc::Rc;

use super::class::{text_of, Role};
use super::{AppState, Budget, Msg};
use crate::classroom::follow::Received;
use crate::classroom::protocol::{HubMsg, LessonPos, Source, StudentMsg, TeacherMsg};
use crate::sim::Scenario;

impl AppState {
    /// A text frame from the hub. Returns a new state when the page starts the room's world.
    pub(super) fn hub_frame(&mut self, text: &str) -> Option<Rc<AppState>> {
        let msg = match serde_json::from_str::<HubMsg>(text) {
            Ok(m) => m,
            Err(e) => {
                self.class_mut()?.refused = Some(format!(
                    "the classroom sent what this page cannot read: {e}"
                ));
                return None;
            }
        };
        let welcome = matches!(msg, HubMsg::Welcome { .. });
        let now_ms = self.now_ms;
        let c = self.class_mut()?;
        let received = c.follower.receive(msg, now_ms);
        let role = c.role;
        match received {
            Received::Roster(r) => c.roster = r,
            Received::Tally(t) => c.tally = Some(t),
            Received::Refused(why) => {
                c.refused = Some(why);
                // The hub has another idea of the room: ask for it (the welcome resets what
                // this page publishes).
                if role == Role::Teacher {
                    self.send(text_of(&TeacherMsg::Resync));
                }
            }
            Received::Missed => self.send(text_of(&StudentMsg::Resync)),
            Received::NewWorld | Received::Changed if role == Role::Teacher => {
                if !welcome {
                    return None;
                }
                let going = c.follower.room().source.is_some();
                if c.publishing || !going || !c.adopt {
                    // This page's world is the room's: tell the hub everything again.
                    let rev = c.follower.room().rev;
                    c.publisher.reconnected(rev);
                    c.publishing = true;
                } else {
                    // A teacher's page opened on a room going on: show what the room shows.
                    c.adopting = true;
                    return self.load_room_world();
                }
            }
            Received::NewWorld => {
                if c.following() {
                    return self.load_room_world();
                }
            }
            Received::Changed => self.follow_now(),
        }
        None
    }

    /// Starts the room's scenario: a new state at once for a scenario's text, or the preset
    /// fetched as any preset is (`ui::scenario_bar::use_preset_fetch`).
    pub(super) fn load_room_world(&mut self) -> Option<Rc<AppState>> {
        let c = self.class_mut()?;
        let source = c.follower.room().source.clone()?;
        c.awaiting_world = true;
        match source {
            Source::Preset { name } => {
                let asked = Rc::new(self.clone()).reduce_inner(Msg::LoadPreset(name), self.now_ms);
                // A compiled-in preset loads at once; else the world comes with PresetFetched.
                Some(asked)
            }
            Source::Json { text } => match Scenario::from_json(&text) {
                Ok(sc) => Some(self.world_loaded(AppState::new(sc))),
                Err(e) => {
                    self.class_mut()?.refused = Some(e.to_string());
                    None
                }
            },
        }
    }

    /// A new world replaces this state: it keeps the page's language and classroom, and when the
    /// classroom asked for it, it is the room's world, brought to the teacher's moment.
    pub(super) fn world_loaded(&self, mut next: AppState) -> Rc<AppState> {
        next.lang = self.lang;
        next.presenting = self.presenting;
        next.class = self.class.clone();
        // What is still to be sent, and the time, are the page's, not the world's.
        next.outbox = self.outbox.clone();
        next.outbox_first = self.outbox_first;
        next.now_ms = self.now_ms;
        let world = next.world;
        let Some(c) = next.class_mut() else {
            return Rc::new(next);
        };
        if std::mem::take(&mut c.awaiting_world) {
            c.follower.world_loaded();
            c.room_world = Some(world);
            let adopting = c.adopting;
            next.follow_now();
            if adopting {
                if let Some(c) = next.class_mut() {
                    let room = c.follower.room().clone();
                    c.publisher.adopted(world, room);
                    c.publishing = true;
                    c.adopting = false;
                }
            }
        }
        Rc::new(next)
    }

    /// Brings the world to the room at once (after a message from the hub).
    pub(super) fn follow_now(&mut self) {
        self.follow_for(None);
    }

    /// One step of following: the room's new actions and jumps at once, then (while the
    /// teacher's clock plays) forward toward the teacher's moment within `budget`.
    pub(super) fn follow_for(&mut self, budget: Option<&Budget>) {
        let world = self.world;
        if !self
            .class
            .as_ref()
            .is_some_and(|c| c.follows_clock() && c.room_world == Some(world))
        {
            return;
        }
        let now = self.now_ms;
        let timeline = self.timeline.clone();
        let Some(c) = self.class_mut() else {
            return;
        };
        let out = c.follower.sync(&mut timeline.borrow_mut(), now);
        let clock = c.follower.room().clock;
        let lesson = c.follower.room().lesson.clone();
        if !out.refused.is_empty() {
            c.refused = Some(out.refused.join("; "));
        }
        let mut events = out.events;
        if clock.playing && self.timeline.borrow().now() < out.target_ms {
            let mut more = || budget.is_none_or(|b| b.more());
            self.timeline
                .borrow_mut()
                .advance_toward(out.target_ms, &mut more, &mut events);
        }
        self.playing = clock.playing;
        self.speed = clock.speed;
        for a in &out.applied {
            self.after_lesson_action(a, &[]);
        }
        if out.jumped {
            self.jumped();
        }
        self.absorb(&events);
        self.follow_lesson(lesson.as_ref());
    }

    /// Shows the teacher's lesson step, and the student's answer once the teacher reveals it.
    fn follow_lesson(&mut self, pos: Option<&LessonPos>) {
        let Some(pos) = pos else {
            return;
        };
        let now = self.timeline.borrow().now();
        let on_step = self.lesson.as_ref().is_some_and(|r| r.name == pos.name);
        if !on_step {
            return;
        }
        let Some(run) = self.run_mut() else {
            return;
        };
        if run.player.current() != pos.step {
            let lesson = run.lesson.clone();
            run.player.go_to_step(&lesson, pos.step, now);
        }
        if !pos.revealed || run.player.answer().is_some() {
            return;
        }
        let pending = self.class_mut().and_then(|c| c.pending.take());
        if let Some((_, a)) = pending.filter(|(step, _)| *step == pos.step) {
            if let Some(run) = self.run_mut() {
                run.player.answer_with(a.chosen, a.outcome);
            }
        }
    }
}
