//! The reducer's part for a classroom (`?room=CODE`, opened from `routelab classroom`'s links).
//!
//! The teacher's page publishes what it shows after every message (the core's
//! [`Publisher`] says only what changed); a student's page brings its own world to the teacher's
//! moment on every message from the hub and every frame while the teacher's clock plays (the
//! core's [`Follower`]). Touching a control that changes the world makes a student explore: their
//! own fork from the moment shown, nothing sent. The WebSocket itself is the hook's
//! (`ui::classroom`): this only queues what to send in the state's outbox, which the hook sends and
//! then acknowledges (`ClassMsg::Sent`). The time the room's clock needs is the message's
//! ([`AppState::now_ms`], stamped by the store as the message was dispatched): nothing here reads a
//! clock.

use std::cell::RefCell;
use std::rc::Rc;

use super::{AppState, Budget, LessonMsg, Msg};
use crate::classroom::follow::{Follower, Received};
use crate::classroom::protocol::{
    HubMsg, LessonPos, Roster, Source, StudentMsg, Tally, TeacherMsg, REPLACED_CLOSE_CODE,
};
use crate::classroom::publish::{Publisher, Shown};
use crate::sim::lesson::player::Answered;
use crate::sim::lesson::predict::outcome;
use crate::sim::Scenario;

/// A playing teacher's clock is sent again this often (real ms), so pages do not drift from a
/// teacher's page that runs slower than its speed.
const CLOCK_REFRESH_MS: f64 = 2_000.0;

/// Which side of the room this page is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Teacher,
    Student,
}

/// The page's connection to the hub.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Link {
    Connecting,
    Open,
    /// Closed; the hook tries again after `retry_ms`.
    Lost {
        retry_ms: u32,
    },
    /// A teacher's page another teacher's page took over from: it waits to be asked to drive.
    Replaced,
}

/// A page's part in a classroom.
#[derive(Debug)]
pub struct Class {
    pub role: Role,
    pub code: String,
    pub link: Link,
    pub follower: Follower,
    publisher: Publisher,
    /// The teacher's page has started publishing (else a welcome with a room going is adopted).
    publishing: bool,
    /// A teacher's page opened without a scenario of its own (no share link, no `#lesson=`):
    /// it shows the room going on, if any, rather than replacing it.
    adopt: bool,
    /// A student stepped aside ("Explore on my own").
    pub exploring: bool,
    /// …and changed their world meanwhile (following again starts it from the scenario).
    acted: bool,
    /// The page is loading the room's scenario; the world it makes is the room's.
    awaiting_world: bool,
    /// A teacher's page taking over the room it opened on: it follows the room until its world is
    /// the room's, then drives.
    adopting: bool,
    /// The `AppState::world` built for the room's current scenario.
    room_world: Option<u64>,
    pub roster: Roster,
    pub tally: Option<Tally>,
    /// A student's answer to the room's current question, kept until the teacher reveals it:
    /// (lesson step, the answer with what the simulator found when it was given).
    pub pending: Option<(usize, Answered)>,
    /// The teacher revealed the answer of this lesson step.
    revealed: Option<(String, usize)>,
    /// What the hub refused last.
    pub refused: Option<String>,
    last_publish_ms: f64,
    /// Bumped on each reconnect, so the hook opens a new socket.
    pub generation: u32,
    failures: u32,
}

impl Class {
    /// `adopt`: see [`Class`]'s field.
    pub fn new(role: Role, code: String, adopt: bool) -> Self {
        Self {
            role,
            code,
            adopt,
            link: Link::Connecting,
            follower: Follower::new(),
            publisher: Publisher::new(),
            publishing: false,
            exploring: false,
            acted: false,
            awaiting_world: false,
            adopting: false,
            room_world: None,
            roster: Roster::default(),
            tally: None,
            pending: None,
            revealed: None,
            refused: None,
            last_publish_ms: 0.0,
            generation: 0,
            failures: 0,
        }
    }

    /// A student following the teacher (not exploring).
    pub fn following(&self) -> bool {
        self.role == Role::Student && !self.exploring
    }

    /// Whether the page's clock follows the teacher's: a following student, or a teacher's page
    /// still taking over the room it opened on (a teacher's page the hub has not answered yet
    /// plays on its own).
    pub fn follows_clock(&self) -> bool {
        self.following() || self.adopting
    }
}

/// What the hook and the class bar say to the reducer.
#[derive(Clone, Debug, PartialEq)]
pub enum ClassMsg {
    Opened,
    /// The socket closed, with its close code.
    Closed(u16),
    /// The reconnect timer fired (or the teacher asked to drive from this page again).
    Retry,
    /// A text frame from the hub.
    Frame(String),
    Explore,
    Follow,
    /// The teacher shows everyone the answer of the current question.
    Reveal,
    /// The hook took the outbox's texts numbered below this (sent them, or dropped them while the
    /// connection was not open).
    Sent(u64),
}

/// A message for the hub as text: through the scenario's own serializer type, so the actions a
/// message carries are written by the same code as a scenario's (one copy in the bundle). Empty if
/// it could not be written.
fn text_of<T: serde::Serialize>(msg: &T) -> String {
    crate::json_text::to_text(msg, false)
}

/// Messages that change a student's world: touching them while following starts exploring
/// (`true`: the branch itself changes, so following again starts the world anew).
fn leaves_the_teacher(msg: &Msg) -> Option<bool> {
    Some(match msg {
        Msg::Apply(_) | Msg::Load(_) | Msg::LoadPreset(_) | Msg::Reset | Msg::UndoFork => true,
        Msg::TogglePlay
        | Msg::SetSpeed(_)
        | Msg::Step
        | Msg::Advance(_)
        | Msg::AdvanceToExpiry
        | Msg::Seek(_)
        | Msg::SeekBy(_)
        | Msg::PrevMark
        | Msg::NextMark
        | Msg::SeekHead
        | Msg::KeyBack
        | Msg::KeyForward => false,
        Msg::Lesson(LessonMsg::Next | LessonMsg::Back | LessonMsg::RunUntil) => false,
        _ => return None,
    })
}

impl AppState {
    /// Before a message: a following student touching the world starts exploring; a following
    /// student's answer is sent to the hub (and kept for the reveal) instead of shown at once.
    /// Returns whether the message was taken here.
    pub(super) fn class_before(&mut self, msg: &Msg) -> bool {
        let Some(class) = self.class.clone() else {
            return false;
        };
        let mut c = class.borrow_mut();
        if !c.following() {
            if c.exploring {
                c.acted |= leaves_the_teacher(msg) == Some(true);
            }
            return false;
        }
        if let Msg::Lesson(LessonMsg::Answer(i)) = msg {
            let question = c.follower.room().lesson.clone();
            let (Some(q), Some(run)) = (question, self.lesson.clone()) else {
                return false;
            };
            // After the reveal (or without a question from the teacher) a student answers alone.
            if q.revealed || q.choices == 0 || q.step != run.player.current() {
                return false;
            }
            let Some(p) = run.step().and_then(|s| s.predict.as_ref()) else {
                return false;
            };
            let task = run
                .step()
                .and_then(|s| s.task.as_ref())
                .filter(|_| !run.player.task_done())
                .map(|t| &t.action);
            let o = outcome(p, &self.sim(), task);
            c.pending = Some((
                q.step,
                Answered {
                    chosen: *i,
                    outcome: o,
                },
            ));
            drop(c);
            self.send(text_of(&StudentMsg::Answer {
                step: q.step,
                choice: *i,
            }));
            return true;
        }
        if let Some(acted) = leaves_the_teacher(msg) {
            c.exploring = true;
            c.acted = acted;
            drop(c);
            self.send(text_of(&StudentMsg::Explore));
            self.playing = false;
        }
        false
    }

    /// A classroom message. Returns a new state when the page starts another world.
    pub(super) fn class_msg(&mut self, m: ClassMsg) -> Option<Rc<AppState>> {
        let class = self.class.clone()?;
        match m {
            ClassMsg::Opened => {
                let mut c = class.borrow_mut();
                c.link = Link::Open;
                c.failures = 0;
            }
            ClassMsg::Closed(code) if code == REPLACED_CLOSE_CODE => {
                let mut c = class.borrow_mut();
                c.link = Link::Replaced;
                // Asked to drive again, it takes the room as the other page left it.
                c.publishing = false;
                c.adopt = true;
            }
            ClassMsg::Closed(_) => {
                let mut c = class.borrow_mut();
                c.failures += 1;
                // 1, 2, 4, 8 s, then every 10 s: a restarting hub is back within seconds.
                let retry_ms = (1_000u32 << c.failures.min(4).saturating_sub(1)).min(10_000);
                c.link = Link::Lost { retry_ms };
            }
            ClassMsg::Retry => {
                let mut c = class.borrow_mut();
                c.link = Link::Connecting;
                c.generation += 1;
            }
            ClassMsg::Frame(text) => return self.hub_frame(&class, &text),
            ClassMsg::Explore => {
                let mut c = class.borrow_mut();
                if c.following() {
                    c.exploring = true;
                    c.acted = false;
                    drop(c);
                    self.send(text_of(&StudentMsg::Explore));
                }
                self.playing = false;
            }
            ClassMsg::Follow => {
                self.send(text_of(&StudentMsg::Resync));
                let reload = {
                    let mut c = class.borrow_mut();
                    c.exploring = false;
                    let acted = std::mem::take(&mut c.acted);
                    c.follower.rejoin(acted);
                    c.room_world != Some(self.world)
                };
                if reload {
                    return self.load_room_world(&class);
                }
                self.follow_now();
            }
            ClassMsg::Reveal => {
                if let Some(run) = &self.lesson {
                    class.borrow_mut().revealed = Some((run.name.clone(), run.player.current()));
                }
            }
            // Taken before the classroom's part of the reducer (`reduce`), as it changes nothing
            // shown.
            ClassMsg::Sent(upto) => self.sent(upto),
        }
        None
    }

    /// Queues a message's text for the hub (see [`text_of`]).
    fn send(&mut self, text: String) {
        if !text.is_empty() {
            Rc::make_mut(&mut self.outbox).push(text);
        }
    }

    /// Forgets the outbox's texts numbered below `upto`: the hook took them.
    pub(super) fn sent(&mut self, upto: u64) {
        let taken = upto.saturating_sub(self.outbox_first);
        let taken = (taken as usize).min(self.outbox.len());
        if taken > 0 {
            Rc::make_mut(&mut self.outbox).drain(..taken);
            self.outbox_first += taken as u64;
        }
    }

    fn hub_frame(&mut self, class: &Rc<RefCell<Class>>, text: &str) -> Option<Rc<AppState>> {
        let msg = match serde_json::from_str::<HubMsg>(text) {
            Ok(m) => m,
            Err(e) => {
                class.borrow_mut().refused = Some(format!(
                    "the classroom sent what this page cannot read: {e}"
                ));
                return None;
            }
        };
        let welcome = matches!(msg, HubMsg::Welcome { .. });
        let received = class.borrow_mut().follower.receive(msg, self.now_ms);
        let role = class.borrow().role;
        match received {
            Received::Roster(r) => class.borrow_mut().roster = r,
            Received::Tally(t) => class.borrow_mut().tally = Some(t),
            Received::Refused(why) => {
                class.borrow_mut().refused = Some(why);
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
                let mut c = class.borrow_mut();
                let going = c.follower.room().source.is_some();
                if c.publishing || !going || !c.adopt {
                    // This page's world is the room's: tell the hub everything again.
                    let rev = c.follower.room().rev;
                    c.publisher.reconnected(rev);
                    c.publishing = true;
                } else {
                    // A teacher's page opened on a room going on: show what the room shows.
                    c.adopting = true;
                    drop(c);
                    return self.load_room_world(class);
                }
            }
            Received::NewWorld => {
                if class.borrow().following() {
                    return self.load_room_world(class);
                }
            }
            Received::Changed => self.follow_now(),
        }
        None
    }

    /// Starts the room's scenario: a new state at once for a scenario's text, or the preset
    /// fetched as the scenario bar fetches one.
    fn load_room_world(&mut self, class: &Rc<RefCell<Class>>) -> Option<Rc<AppState>> {
        let source = class.borrow().follower.room().source.clone()?;
        class.borrow_mut().awaiting_world = true;
        match source {
            Source::Preset { name } => {
                let asked = Rc::new(self.clone()).reduce_inner(Msg::LoadPreset(name), self.now_ms);
                // A compiled-in preset loads at once; else the world comes with PresetFetched.
                Some(asked)
            }
            Source::Json { text } => match Scenario::from_json(&text) {
                Ok(sc) => Some(self.world_loaded(AppState::new(sc))),
                Err(e) => {
                    class.borrow_mut().refused = Some(e.to_string());
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
        if let Some(class) = next.class.clone() {
            let mut c = class.borrow_mut();
            if std::mem::take(&mut c.awaiting_world) {
                c.follower.world_loaded();
                c.room_world = Some(next.world);
                let adopting = c.adopting;
                drop(c);
                next.follow_now();
                if adopting {
                    let mut c = class.borrow_mut();
                    let room = c.follower.room().clone();
                    c.publisher.adopted(next.world, room);
                    c.publishing = true;
                    c.adopting = false;
                }
            }
        }
        Rc::new(next)
    }

    /// Brings the world to the room at once (after a message from the hub).
    fn follow_now(&mut self) {
        self.follow_for(None);
    }

    /// One step of following: the room's new actions and jumps at once, then (while the
    /// teacher's clock plays) forward toward the teacher's moment within `budget`.
    pub(super) fn follow_for(&mut self, budget: Option<&Budget>) {
        let Some(class) = self.class.clone() else {
            return;
        };
        let mut c = class.borrow_mut();
        if !c.follows_clock() || c.room_world != Some(self.world) {
            return;
        }
        let now = self.now_ms;
        let out = c.follower.sync(&mut self.timeline.borrow_mut(), now);
        let clock = c.follower.room().clock;
        let lesson = c.follower.room().lesson.clone();
        if !out.refused.is_empty() {
            c.refused = Some(out.refused.join("; "));
        }
        drop(c);
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
            self.after_lesson_action(a);
        }
        if out.jumped {
            self.jumped();
        }
        self.absorb(&events);
        self.follow_lesson(&class, lesson.as_ref());
    }

    /// Shows the teacher's lesson step, and the student's answer once the teacher reveals it.
    fn follow_lesson(&mut self, class: &Rc<RefCell<Class>>, pos: Option<&LessonPos>) {
        let Some(pos) = pos else {
            return;
        };
        let now = self.timeline.borrow().now();
        let Some(run) = self.run_mut().filter(|r| r.name == pos.name) else {
            return;
        };
        if run.player.current() != pos.step {
            let lesson = run.lesson.clone();
            run.player.go_to_step(&lesson, pos.step, now);
        }
        if pos.revealed && run.player.answer().is_none() {
            let mut c = class.borrow_mut();
            if let Some((step, a)) = c.pending.take() {
                if step == pos.step {
                    run.player.answer_with(a.chosen, a.outcome);
                }
            }
        }
    }

    /// What the teacher's page shows, as the room should have it.
    fn shown(&self) -> Shown {
        let tl = self.timeline.borrow();
        let revealed = self
            .class
            .as_ref()
            .and_then(|c| c.borrow().revealed.clone());
        let lesson = self.lesson.as_ref().map(|run| {
            let step = run.player.current();
            LessonPos {
                name: run.name.clone(),
                step,
                choices: run
                    .step()
                    .and_then(|s| s.predict.as_ref())
                    .map_or(0, |p| p.choices.len()),
                revealed: revealed.as_ref() == Some(&(run.name.clone(), step)),
            }
        });
        let clock = (self.playing, self.speed, self.jumps);
        Shown::of(&tl, self.world, clock, lesson)
    }

    /// The room's source for this world: a preset or lesson by name when unchanged, else the
    /// scenario's text.
    fn source(&self) -> Source {
        match (&self.lesson, &self.preset) {
            (Some(run), _) => Source::Preset {
                name: run.name.clone(),
            },
            (None, Some(name)) => Source::Preset { name: name.clone() },
            (None, None) => Source::Json {
                text: self.base.to_json(),
            },
        }
    }

    /// After every message on the teacher's page: what changed, as texts for the hub (the reducer
    /// queues them).
    pub(super) fn publish(&self) -> Vec<String> {
        let Some(class) = &self.class else {
            return Vec::new();
        };
        {
            let c = class.borrow();
            if c.role != Role::Teacher || !c.publishing || c.link != Link::Open {
                return Vec::new();
            }
        }
        // Before borrowing the class to change it: `shown` reads it.
        let shown = self.shown();
        let mut c = class.borrow_mut();
        let now = self.now_ms;
        let refresh = self.playing && now - c.last_publish_ms >= CLOCK_REFRESH_MS;
        let msgs = c.publisher.publish(&shown, || self.source(), refresh);
        if refresh || !msgs.is_empty() {
            c.last_publish_ms = now;
        }
        msgs.iter().map(text_of).collect()
    }

    /// Queues what [`publish`](Self::publish) gave.
    pub(super) fn queue(&mut self, texts: Vec<String>) {
        for text in texts {
            self.send(text);
        }
    }
}
