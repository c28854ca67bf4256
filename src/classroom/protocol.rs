//! What the teacher's page, the hub and the students' pages say to each other: JSON text messages
//! over one WebSocket each (`/room/ws`), each an object whose one key names it (`{"clock": {…}}`;
//! a message without fields is a string: `"resync"`). That form, serde's default for enums, is
//! read without buffering the message first: in the page's WebAssembly a `type` field cost about
//! 35 KB of reader code. docs/classroom-protocol.md describes
//! them for people; this is the one definition the three sides share.
//!
//! The room is never a state of the world: it is the scenario, the teacher's actions with their
//! virtual times and the teacher's clock. The simulator is deterministic, so every page rebuilds
//! the same world from those.

use serde::{Deserialize, Serialize};

use crate::sim::Action;

/// Where the room's scenario comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A shipped preset or lesson by name: every page has it (`scenarios/NAME.json`).
    Preset { name: String },
    /// A scenario file's text (a loaded file, a fork of live mode, an edited preset).
    Json { text: String },
}

/// One of the teacher's actions on the branch shown, at its virtual ms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomAction {
    pub at_ms: u64,
    pub action: Action,
}

/// The teacher's clock: the virtual time shown and how it moves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Virtual ms shown when the teacher sent this.
    pub t_ms: u64,
    pub playing: bool,
    /// Virtual seconds per real second.
    pub speed: f64,
    /// Bumped by the teacher on every jump (seek, fork, undo, a lesson's Back): followers then go
    /// to `t_ms` exactly, even backwards; between jumps they only move forward.
    pub jump: u64,
}

impl Default for Clock {
    fn default() -> Self {
        Self {
            t_ms: 0,
            playing: false,
            speed: 10.0,
            jump: 0,
        }
    }
}

/// The lesson step the teacher shows, and its question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonPos {
    /// The lesson's file name (`lesson-2-heartbeats`).
    pub name: String,
    /// 0-based.
    pub step: usize,
    /// How many choices the step's question has (0: the step asks nothing).
    #[serde(default)]
    pub choices: usize,
    /// Whether the teacher revealed the answer to this step's question.
    #[serde(default)]
    pub revealed: bool,
}

/// Everything a page needs to show what the teacher shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomState {
    /// Bumped by the teacher on each load or reset: followers start the world again.
    pub rev: u64,
    /// `None` until the teacher's page has connected once.
    pub source: Option<Source>,
    pub actions: Vec<RoomAction>,
    pub clock: Clock,
    /// The hub's clock (ms since the Unix epoch) when it took `clock`: a playing clock has moved
    /// on by `speed` times what passed since.
    #[serde(default)]
    pub clock_hub_ms: u64,
    pub lesson: Option<LessonPos>,
}

impl RoomState {
    /// Takes in one of the teacher's changes, as the hub and every follower do alike. The hub has
    /// checked it first ([`super::room::Room::teacher`]); a follower takes what the hub relayed.
    /// `hub_ms` is the hub's clock when it took the change.
    pub fn take(&mut self, change: &TeacherMsg, hub_ms: u64) {
        match change {
            TeacherMsg::Scenario { rev, source } => {
                self.rev = *rev;
                self.source = Some(source.clone());
                self.actions.clear();
                self.clock.t_ms = 0;
                self.clock.jump += 1;
                self.clock_hub_ms = hub_ms;
            }
            TeacherMsg::Actions { from, actions, .. } => {
                self.actions.truncate(*from);
                self.actions.extend(actions.iter().cloned());
            }
            TeacherMsg::Clock(c) => {
                self.clock = *c;
                self.clock_hub_ms = hub_ms;
            }
            TeacherMsg::Lesson { lesson } => self.lesson = lesson.clone(),
            TeacherMsg::Reveal { step } => {
                if let Some(l) = self.lesson.as_mut().filter(|l| l.step == *step) {
                    l.revealed = true;
                }
            }
            TeacherMsg::Resync => {}
        }
    }
}

/// What only the teacher's connection may send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TeacherMsg {
    /// A new world: a scenario loaded or reset (`rev` bumped). Actions start empty.
    Scenario {
        rev: u64,
        source: Source,
    },
    /// The branch's actions from index `from` on are replaced by these (usually one appended; a
    /// fork or an undo replaces more).
    Actions {
        rev: u64,
        from: usize,
        actions: Vec<RoomAction>,
    },
    Clock(Clock),
    /// The lesson step shown (or none).
    Lesson {
        lesson: Option<LessonPos>,
    },
    /// Shows the answer of the current step's question to everyone.
    Reveal {
        step: usize,
    },
    /// Asks for the room as the hub has it (after a reconnect).
    Resync,
}

/// What a student's connection may send. Anything else closes that student's connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StudentMsg {
    /// The student's choice for the question of lesson step `step`.
    Answer { step: usize, choice: usize },
    /// "Follow the teacher": the whole room again, and the teacher counts this student as
    /// following.
    Resync,
    /// "Explore on my own": nothing the student does is sent; the teacher counts them as
    /// exploring.
    Explore,
}

/// How many students are where, for the teacher's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roster {
    pub following: usize,
    pub exploring: usize,
    /// Students who were here and whose page is not connected now.
    pub disconnected: usize,
}

/// The answers to a step's question so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub step: usize,
    /// Per choice, how many students picked it (a student's last choice counts).
    pub counts: Vec<usize>,
}

/// What the hub sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HubMsg {
    /// The whole room: on connecting and on a resync. `hub_ms` is the hub's clock when sent (ms
    /// since the Unix epoch, so it goes on across a restart of the hub).
    Welcome {
        room: RoomState,
        /// The `seq` of the last change taken in it (the next `changed` carries `seq + 1`).
        seq: u64,
        hub_ms: u64,
        /// The room's code and the link students open (for the teacher's page to show).
        code: String,
        student_url: String,
        /// Whether this connection is the teacher's.
        teacher: bool,
    },
    /// The teacher's change, as the hub took it, stamped with the hub's clock.
    Changed {
        seq: u64,
        hub_ms: u64,
        change: TeacherMsg,
    },
    /// To teachers: who follows.
    Roster(Roster),
    /// To teachers: the answers so far.
    Tally(Tally),
    /// To the sender: what was wrong with its message (the teacher's stays connected; a student
    /// is closed after this).
    Refused { why: String },
}

/// The close code a teacher's page gets when another teacher's page took over the room (one
/// page drives a room; 4000–4999 are the application's own codes). The page does not reconnect by
/// itself: it offers to drive again.
pub const REPLACED_CLOSE_CODE: u16 = 4001;

/// Largest message a student may send (an answer is about 40 bytes).
pub const MAX_STUDENT_MESSAGE: usize = 1024;
/// Largest message the teacher may send: a scenario file (a fork of a 10,000-topic live cluster
/// is about 2 MB).
pub const MAX_TEACHER_MESSAGE: usize = 8 * 1024 * 1024;
/// At most this many choices in a question (the lessons have 2–4).
pub const MAX_CHOICES: usize = 16;
/// The teacher's speed is between these (the workshop offers 1–60).
pub const SPEED_RANGE: (f64, f64) = (0.01, 1000.0);
