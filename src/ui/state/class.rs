//! The reducer's part for a classroom (`?room=CODE`, opened from `routelab classroom`'s links):
//! here the page's part in the room, the messages of the hook and the class bar, and what a
//! following student's touch does; `class_follow` takes in the hub's frames and brings the world to
//! the room's, `class_publish` says what the teacher's page shows.
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

use std::rc::Rc;

use super::{AppState, LessonMsg, Msg};
use crate::classroom::follow::Follower;
use crate::classroom::protocol::{Roster, StudentMsg, Tally, REPLACED_CLOSE_CODE};
use crate::classroom::publish::Publisher;
use crate::sim::lesson::player::Answered;
use crate::sim::lesson::predict::outcome;

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

/// A page's part in a classroom. Held by value in the state (behind an `Rc` changed with
/// `Rc::make_mut`), so each message makes a new state rather than changing the old one.
#[derive(Clone, Debug)]
pub struct Class {
    pub role: Role,
    pub code: String,
    pub link: Link,
    pub follower: Follower,
    pub(super) publisher: Publisher,
    /// The teacher's page has started publishing (else a welcome with a room going is adopted).
    pub(super) publishing: bool,
    /// A teacher's page opened without a scenario of its own (no share link, no `#lesson=`):
    /// it shows the room going on, if any, rather than replacing it.
    pub(super) adopt: bool,
    /// A student stepped aside ("Explore on my own").
    pub exploring: bool,
    /// …and changed their world meanwhile (following again starts it from the scenario).
    acted: bool,
    /// The page is loading the room's scenario; the world it makes is the room's.
    pub(super) awaiting_world: bool,
    /// A teacher's page taking over the room it opened on: it follows the room until its world is
    /// the room's, then drives.
    pub(super) adopting: bool,
    /// The `AppState::world` built for the room's current scenario.
    pub(super) room_world: Option<u64>,
    pub roster: Roster,
    pub tally: Option<Tally>,
    /// A student's answer to the room's current question, kept until the teacher reveals it:
    /// (lesson step, the answer with what the simulator found when it was given).
    pub pending: Option<(usize, Answered)>,
    /// The teacher revealed the answer of this lesson step.
    pub(super) revealed: Option<(String, usize)>,
    /// What the hub refused last.
    pub refused: Option<String>,
    pub(super) last_publish_ms: f64,
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
pub(super) fn text_of<T: serde::Serialize>(msg: &T) -> String {
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
    /// The page's part in its classroom, to change: a copy when an earlier state still holds it.
    pub(super) fn class_mut(&mut self) -> Option<&mut Class> {
        self.class.as_mut().map(Rc::make_mut)
    }

    /// Before a message: a following student touching the world starts exploring; a following
    /// student's answer is sent to the hub (and kept for the reveal) instead of shown at once.
    /// Returns whether the message was taken here.
    pub(super) fn class_before(&mut self, msg: &Msg) -> bool {
        let Some(c) = self.class.as_deref() else {
            return false;
        };
        if !c.following() {
            if c.exploring && leaves_the_teacher(msg) == Some(true) {
                if let Some(c) = self.class_mut() {
                    c.acted = true;
                }
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
            if let Some(c) = self.class_mut() {
                c.pending = Some((
                    q.step,
                    Answered {
                        chosen: *i,
                        outcome: o,
                    },
                ));
            }
            self.send(text_of(&StudentMsg::Answer {
                step: q.step,
                choice: *i,
            }));
            return true;
        }
        if let Some(acted) = leaves_the_teacher(msg) {
            if let Some(c) = self.class_mut() {
                c.exploring = true;
                c.acted = acted;
            }
            self.send(text_of(&StudentMsg::Explore));
            self.playing = false;
        }
        false
    }

    /// A classroom message. Returns a new state when the page starts another world.
    pub(super) fn class_msg(&mut self, m: ClassMsg) -> Option<Rc<AppState>> {
        self.class.as_ref()?;
        match m {
            ClassMsg::Opened => {
                let c = self.class_mut()?;
                c.link = Link::Open;
                c.failures = 0;
            }
            ClassMsg::Closed(code) if code == REPLACED_CLOSE_CODE => {
                let c = self.class_mut()?;
                c.link = Link::Replaced;
                // Asked to drive again, it takes the room as the other page left it.
                c.publishing = false;
                c.adopt = true;
            }
            ClassMsg::Closed(_) => {
                let c = self.class_mut()?;
                c.failures += 1;
                // 1, 2, 4, 8 s, then every 10 s: a restarting hub is back within seconds.
                let retry_ms = (1_000u32 << c.failures.min(4).saturating_sub(1)).min(10_000);
                c.link = Link::Lost { retry_ms };
            }
            ClassMsg::Retry => {
                let c = self.class_mut()?;
                c.link = Link::Connecting;
                c.generation += 1;
            }
            ClassMsg::Frame(text) => return self.hub_frame(&text),
            ClassMsg::Explore => {
                if self.class.as_ref().is_some_and(|c| c.following()) {
                    let c = self.class_mut()?;
                    c.exploring = true;
                    c.acted = false;
                    self.send(text_of(&StudentMsg::Explore));
                }
                self.playing = false;
            }
            ClassMsg::Follow => {
                self.send(text_of(&StudentMsg::Resync));
                let world = self.world;
                let reload = {
                    let c = self.class_mut()?;
                    c.exploring = false;
                    let acted = std::mem::take(&mut c.acted);
                    c.follower.rejoin(acted);
                    c.room_world != Some(world)
                };
                if reload {
                    return self.load_room_world();
                }
                self.follow_now();
            }
            ClassMsg::Reveal => {
                if let Some(run) = self.lesson.clone() {
                    self.class_mut()?.revealed = Some((run.name.clone(), run.player.current()));
                }
            }
            // Taken before the classroom's part of the reducer (`reduce`), as it changes nothing
            // shown.
            ClassMsg::Sent(upto) => self.sent(upto),
        }
        None
    }

    /// Queues a message's text for the hub (see [`text_of`]).
    pub(super) fn send(&mut self, text: String) {
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
}
