//! The state's constructors: a scenario paused at t = 0, a share link at its time, the default
//! preset, and a preset's or lesson's file as fetched.

use std::cell::RefCell;
use std::rc::Rc;

use super::{AppState, LessonRun, Panels};
use crate::i18n::{controls, Lang};
use crate::sim::timeline::Timeline;
use crate::sim::{preset_json, Action, Scenario, BUNDLED_IN_BROWSER};

/// The preset loaded when the page opens without a share link: the one compiled in.
pub const DEFAULT_PRESET: &str = BUNDLED_IN_BROWSER;

/// The latest time a share link's `&t=` opens at (virtual ms): further would keep the page busy
/// simulating for long before it shows anything.
pub const MAX_LINK_TIME_MS: u64 = 86_400_000;

thread_local! {
    /// The last world number given.
    static WORLDS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl AppState {
    /// The state for a scenario, paused at t = 0.
    pub fn new(scenario: Scenario) -> Self {
        let topic = first_user_topic(&scenario);
        let timeline = Timeline::new(scenario.clone());
        let digest = timeline.digest().clone();
        Self {
            timeline: Rc::new(RefCell::new(timeline)),
            version: 0,
            base: Rc::new(scenario),
            playing: false,
            speed: 10.0,
            owed_ms: 0.0,
            feed: digest.feed,
            topic,
            selection: None,
            changed: Rc::default(),
            tables_version: 0,
            error: None,
            picks: digest.picks,
            preset: None,
            loading: None,
            topics_version: 0,
            panel_versions: [0; Panels::COUNT],
            marks_epoch: 0,
            fork_notice: None,
            shortcuts_open: false,
            presenting: false,
            traffic: Rc::default(),
            traffic_seq: 0,
            picture: None,
            lesson: None,
            lang: Lang::En,
            world: WORLDS.with(|w| {
                w.set(w.get() + 1);
                w.get()
            }),
            jumps: 0,
            class: None,
            now_ms: 0.0,
            outbox: Rc::default(),
            outbox_first: 0,
        }
    }

    /// The state for a share link: its scenario, shown at `at_ms` when the link carries a time
    /// (up to [`MAX_LINK_TIME_MS`]; a later one is refused with an error and the link opens at 0).
    pub fn at_time(scenario: Scenario, at_ms: Option<u64>) -> Self {
        let mut s = Self::new(scenario);
        match at_ms {
            Some(t) if t > MAX_LINK_TIME_MS => {
                s.error = Some(s.lang.fill(
                    controls::SHARE_LINK_TOO_LATE,
                    &[
                        ("asked", &(t / 1000).to_string()),
                        ("max", &(MAX_LINK_TIME_MS / 1000).to_string()),
                    ],
                ));
            }
            Some(t) => {
                let events = s.timeline.borrow_mut().advance_to(t);
                s.absorb(&events);
            }
            None => {}
        }
        s
    }

    /// The default preset.
    pub fn with_default_preset() -> Self {
        let json = preset_json(DEFAULT_PRESET).unwrap_or("{\"routelab\":1}");
        let mut s = Self::new(Scenario::from_json(json).unwrap_or_else(|_| empty_scenario()));
        s.preset = Some(DEFAULT_PRESET.into());
        s
    }

    /// The state for a preset's file, paused at t = 0; a file that does not parse leaves this state
    /// as it is, with the error shown.
    pub(super) fn preset_loaded(mut self, name: String, json: &str) -> Rc<Self> {
        match Scenario::from_json(json) {
            Ok(mut sc) => {
                let lesson = sc.lesson.take();
                let mut next = AppState::new(sc);
                match lesson {
                    // A lesson's file: its scenario, walked with the player.
                    Some(l) => next.lesson = Some(Rc::new(LessonRun::new(name, l))),
                    None => next.preset = Some(name),
                }
                self.world_loaded(next)
            }
            Err(e) => {
                self.error = Some(self.lang.fill(
                    controls::PRESET_ERROR,
                    &[("name", &name), ("error", &e.to_string())],
                ));
                Rc::new(self)
            }
        }
    }
}

/// A scenario with one NameServer and nothing else.
// A constant document, not input: it parses or every page load (and the UI tests) fail.
#[allow(clippy::expect_used)]
pub fn empty_scenario() -> Scenario {
    Scenario::from_json("{\"routelab\":1}").expect("the empty scenario is valid")
}

/// The first topic a user declared (not a system topic), for the route view: a producer's first,
/// also one an action adds later, so the view opens on a route some producer caches.
fn first_user_topic(s: &Scenario) -> String {
    s.producers
        .first()
        .map(|p| p.topic.clone())
        .or_else(|| {
            s.actions.iter().find_map(|a| match &a.action {
                Action::AddProducer(p) => Some(p.topic.clone()),
                _ => None,
            })
        })
        .or_else(|| {
            s.brokers
                .iter()
                .flat_map(|b| b.topics.iter())
                .map(|t| t.topic.clone())
                .next()
        })
        .or_else(|| s.topic_sets.first().map(|set| set.name(0)))
        .unwrap_or_else(|| "TBW102".into())
}
