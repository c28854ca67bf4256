//! The dashboard's state and its reducer. The reducer only drives the run's timeline (pure, no
//! clock, no I/O): time arrives as `Msg::Tick` from the clock effect, once per animation frame, and
//! the page's wall clock as each message's stamp (`Msg::At`, from the store); what the classroom
//! sends leaves through the state's outbox, which the socket effect sends.
//! What the panels show of a moment (the world, the feed, the picks) comes from the core's
//! [`Timeline`], so a moment in the past shows exactly what it showed then.
//!
//! Here: the state and how time moves it. `msg` holds the messages, `load` the constructors and
//! preset loading, `reduce` the reducer; `class`, `class_follow` and `class_publish` the
//! classroom's part; `lesson` the lesson's; `sim_ref` the panels' handle on the world shown.

mod changes;
mod class;
mod class_follow;
mod class_publish;
mod frames;
mod lesson;
mod load;
mod msg;
mod reduce;
mod sim_ref;
mod traffic;

use changes::{changed_keys, touches_tables};
pub use class::{Class, ClassMsg, Link, Role};
pub use frames::{Budget, Panels};
pub use lesson::{LessonMsg, LessonRun};
pub use load::DEFAULT_PRESET;
pub use msg::Msg;
pub use sim_ref::SimRef;
use traffic::record_traffic;
pub use traffic::{collapsed, Traffic};

use std::cell::{Ref, RefCell};
use std::collections::{HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use crate::i18n::{controls, Lang};
pub use crate::sim::timeline::{FeedItem, Selection};
use crate::sim::timeline::{Fork, Timeline};
use crate::sim::{Action, Scenario, Sim, SimEvent, SimEventKind};

/// Speeds offered (virtual seconds per real second).
pub const SPEEDS: [f64; 5] = [1.0, 5.0, 10.0, 30.0, 60.0];

/// The dashboard's state. The timeline sits behind `Rc<RefCell<_>>` and the bulky parts behind
/// `Rc`/`Arc`, so a tick (one per animation frame) copies no list; `version` changes on every
/// mutation so components re-render, and the narrower counters below let a panel skip frames that
/// did not touch what it shows.
#[derive(Clone)]
pub struct AppState {
    /// The run: the world now, and every earlier moment of it.
    pub timeline: Rc<RefCell<Timeline>>,
    pub version: u64,
    /// The scenario as loaded (reset and share start from it).
    pub base: Rc<Scenario>,
    pub playing: bool,
    pub speed: f64,
    /// Virtual ms the clock owes the simulator: what the last frames asked for and their time budget
    /// did not reach (carried to the next frame; fractions of a ms included).
    pub owed_ms: f64,
    /// The timeline's feed at the moment shown: replaced (a new `Arc`), never changed in place,
    /// whenever an item comes or grows: the feed panel compares the pointer.
    pub feed: Arc<VecDeque<FeedItem>>,
    pub topic: String,
    pub selection: Option<Selection>,
    /// Keys of table rows changed by the last update that changed a table (`ns/topic/broker`,
    /// `ns/broker-addr`); kept until the next one, so the highlight outlasts a 16 ms frame.
    pub changed: Rc<HashSet<String>>,
    /// Bumped when an event may have changed a table other than brokerLiveTable's timestamps
    /// (topics, perms, brokers coming or going), so the tables re-render their rows only then.
    pub tables_version: u64,
    /// An error to show (bad import, invalid action …).
    pub error: Option<String>,
    /// The preset the scenario came from, if any.
    pub preset: Option<String>,
    /// A preset asked for whose file is on its way (`Msg::PresetFetched` brings it).
    pub loading: Option<String>,
    /// The last send attempts per producer group, newest last (the timeline's, at the moment shown).
    pub picks: Arc<crate::sim::timeline::Picks>,
    /// Bumped when a topic appears in or leaves a table, so the topic list is rebuilt only then.
    pub topics_version: u64,
    /// The `version` each group of panels last rendered at (indexed by [`Panels`]): a frame of the
    /// clock renders one group or none, any other message all of them.
    pub panel_versions: [u64; Panels::COUNT],
    /// Bumped when a fork or an undo replaces the timeline's marks (they are otherwise only added).
    pub marks_epoch: u64,
    /// The fork whose notice is shown ("history after 02:10 replaced — Undo").
    pub fork_notice: Option<Fork>,
    /// Whether the list of keyboard shortcuts is open.
    pub shortcuts_open: bool,
    /// Presentation mode: only what the room watches (picture, time bar, timeline, feed, lesson),
    /// in large type. Kept when another scenario is loaded, like the language.
    pub presenting: bool,
    /// Recent heartbeats, polls and sends, for the picture's pulses (cleared by a seek).
    pub traffic: Rc<VecDeque<Traffic>>,
    pub traffic_seq: u64,
    /// Whether the picture is shown (`None`: by the cluster's size).
    pub picture: Option<bool>,
    /// The lesson being walked, if one was opened.
    pub lesson: Option<Rc<LessonRun>>,
    /// The language lessons are shown in.
    pub lang: Lang,
    /// Which world this is: a new number for every scenario loaded or reset (the classroom's
    /// teacher publishes a new one, its students start theirs again).
    pub world: u64,
    /// Bumped on every jump of the moment shown (seek, fork, undo), for the classroom's clock.
    pub jumps: u64,
    /// The classroom this page is in (`?room=`): a new one (`Rc::make_mut`) whenever a message
    /// changes it, so an earlier state keeps the classroom as it was.
    pub class: Option<Rc<Class>>,
    /// The page's wall-clock time (ms) of the message being reduced, as the store stamped it
    /// (`Msg::At`): the classroom's clock. A message reduced without a stamp keeps the last one.
    pub now_ms: f64,
    /// Texts for the classroom's hub, oldest first, that the socket effect has not taken yet
    /// (it takes them after every change and says so with `ClassMsg::Sent`).
    pub outbox: Rc<Vec<String>>,
    /// The number of the outbox's first text (texts are numbered from 0 as they are queued).
    pub outbox_first: u64,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline) && self.version == other.version
    }
}

/// At most this many real ms of simulation are owed: when the simulator cannot keep up with the
/// speed asked, the clock runs slower instead of falling ever further behind.
const MAX_OWED_REAL_MS: f64 = 250.0;

impl AppState {
    /// What a group of panels shows changed since this key last did (see [`super::gate::Gate`]).
    pub fn panel_key(&self, group: Panels) -> (usize, u64) {
        (
            Rc::as_ptr(&self.timeline) as usize,
            self.panel_versions[group as usize],
        )
    }

    /// Whether the picture is shown: as chosen, else for clusters small enough to draw broker by
    /// broker.
    pub fn picture_shown(&self) -> bool {
        self.picture.unwrap_or_else(|| !collapsed(&self.sim()))
    }

    /// A panel's handle on the world shown (see [`SimRef`]).
    pub fn sim_ref(&self) -> SimRef {
        SimRef::new(self.timeline.clone(), self.version)
    }

    /// The world at the moment shown.
    pub fn sim(&self) -> Ref<'_, Sim> {
        Ref::map(self.timeline.borrow(), Timeline::sim)
    }

    /// True while playing with the simulator well behind the speed asked (more than half the owed
    /// cap): the virtual clock then runs slower than the speed shown, and the time bar says so.
    pub fn falling_behind(&self) -> bool {
        self.playing && self.owed_ms > MAX_OWED_REAL_MS * self.speed / 2.0
    }

    /// Takes in what the timeline did: its feed and picks, and which table rows changed.
    fn absorb(&mut self, events: &[SimEvent]) {
        self.sync_digest();
        if events.is_empty() {
            return;
        }
        if self.picture_shown() {
            let tl = self.timeline.borrow();
            record_traffic(
                Rc::make_mut(&mut self.traffic),
                &mut self.traffic_seq,
                tl.sim(),
                events,
            );
        }
        let mut changed = HashSet::new();
        let mut tables_touched = false;
        for e in events {
            if touches_tables(&e.kind) {
                tables_touched = true;
                changed.extend(changed_keys(e));
            }
            if let SimEventKind::TopicChanged { change, .. } = &e.kind {
                if *change != "updated" {
                    self.topics_version += 1;
                }
            }
        }
        if tables_touched {
            self.changed = Rc::new(changed);
            self.tables_version += 1;
        }
    }

    /// The feed and picks of the moment shown (new `Arc`s only where they changed).
    fn sync_digest(&mut self) {
        let tl = self.timeline.borrow();
        let d = tl.digest();
        if !Arc::ptr_eq(&self.feed, &d.feed) {
            self.feed = d.feed.clone();
        }
        if !Arc::ptr_eq(&self.picks, &d.picks) {
            self.picks = d.picks.clone();
        }
    }

    /// After a seek or an undo: every panel shows another moment, so everything is new.
    fn jumped(&mut self) {
        self.jumps += 1;
        self.sync_digest();
        self.changed = Rc::default();
        self.tables_version += 1;
        self.topics_version += 1;
        self.owed_ms = 0.0;
        self.traffic = Rc::default();
    }

    /// One frame of play: the virtual time `dt_ms` real ms ask for (plus what earlier frames still
    /// owe), as far as the budget allows; the rest is owed to the next frame.
    fn play_for(&mut self, dt_ms: f64, budget: Option<&Budget>) {
        let cap = MAX_OWED_REAL_MS * self.speed;
        self.owed_ms = (self.owed_ms + dt_ms.max(0.0) * self.speed).min(cap);
        let Some(budget) = budget else {
            return;
        };
        let before = self.timeline.borrow().now();
        let target = before + self.owed_ms as u64;
        let mut events = Vec::new();
        self.timeline
            .borrow_mut()
            .advance_toward(target, || budget.more(), &mut events);
        let after = self.timeline.borrow().now();
        self.owed_ms = (self.owed_ms - (after - before) as f64).max(0.0);
        self.absorb(&events);
    }

    fn advance_by(&mut self, dt_ms: u64) {
        let target = self.timeline.borrow().now() + dt_ms;
        let events = self.timeline.borrow_mut().advance_to(target);
        self.absorb(&events);
    }

    fn advance_to_expiry(&mut self) {
        let (now, next, scan) = {
            let sim = self.sim();
            let next = sim
                .namesrvs()
                .iter()
                .filter_map(|n| n.manager.next_expiry_ms())
                .min();
            (sim.now(), next, sim.timing().scan_ms)
        };
        let Some(next) = next else {
            self.error = Some(self.lang.t(controls::NOTHING_CAN_EXPIRE).into());
            return;
        };
        // Run until something is removed, at the latest one scan period after the expiry.
        let limit = next.max(now) + scan;
        let mut events = Vec::new();
        loop {
            let t = self.sim().next_timer();
            match t {
                Some(t) if t <= limit => {
                    let new = self.timeline.borrow_mut().step();
                    let removed = new
                        .iter()
                        .any(|e| matches!(e.kind, SimEventKind::BrokerRemoved { .. }));
                    events.extend(new);
                    if removed {
                        break;
                    }
                }
                _ => {
                    events.extend(self.timeline.borrow_mut().advance_to(limit));
                    break;
                }
            }
        }
        self.absorb(&events);
    }

    fn apply(&mut self, action: Action) {
        self.before_lesson_action();
        let result = self.timeline.borrow_mut().apply(action.clone());
        match result {
            Ok((fork, events)) => {
                self.error = None;
                self.after_lesson_action(&action, &events);
                if fork.is_some() {
                    self.fork_notice = fork;
                    self.marks_epoch += 1;
                    self.jumped();
                }
                self.absorb(&events);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn seek(&mut self, t: u64) {
        self.playing = false;
        self.timeline.borrow_mut().seek(t);
        self.jumped();
    }

    /// To the previous mark, or (`forward`) the next one (at the furthest time: the next timer).
    fn seek_mark(&mut self, forward: bool) {
        if !forward {
            let prev = self.timeline.borrow().prev_mark();
            self.seek(prev.unwrap_or(0));
            return;
        }
        let (next, at_head) = {
            let tl = self.timeline.borrow();
            (tl.next_mark(), tl.at_head())
        };
        match next {
            Some(t) => self.seek(t),
            None if at_head => {
                self.playing = false;
                let events = self.timeline.borrow_mut().step();
                self.absorb(&events);
            }
            None => self.seek(u64::MAX),
        }
    }
}
