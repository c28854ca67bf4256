//! The dashboard's state and its reducer. The reducer only drives the simulator (pure, no clock, no
//! I/O): time arrives as `Msg::Tick { dt_ms }` from the clock effect.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use yew::prelude::*;

use crate::sim::{describe, preset, Action, Scenario, Sim, SimEvent, SimEventKind, TimedAction};

/// How many feed items are kept.
pub const FEED_LIMIT: usize = 200;
/// How many topic names a grouped feed line lists (the rest are counted).
const FEED_TOPICS_LISTED: usize = 20;
/// Speeds offered (virtual seconds per real second).
pub const SPEEDS: [f64; 5] = [1.0, 5.0, 10.0, 30.0, 60.0];
/// The preset loaded when the page opens without a share link.
pub const DEFAULT_PRESET: &str = "crash-hang-stop";

/// One line of the event feed.
#[derive(Clone, Debug, PartialEq)]
pub struct FeedItem {
    /// Virtual ms.
    pub t: u64,
    /// Plain words.
    pub text: String,
    /// The event's kind (for styling).
    pub kind: &'static str,
    /// What clicking it selects.
    pub target: Option<Selection>,
    /// Topic changes merged into this line: (group key, topics).
    pub group: Option<(String, Vec<String>)>,
    /// A stable key for rendering (items are prepended; keys let the list move instead of rewriting
    /// every row).
    pub seq: u64,
}

/// What the user has selected (highlighted across the views).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A broker address.
    Broker(String),
    /// A producer group.
    Producer(String),
    /// A topic.
    Topic(String),
}

/// The dashboard's state. The simulator sits behind `Rc<RefCell<_>>` so a tick does not copy the
/// world; `version` changes on every mutation so components re-render.
#[derive(Clone)]
pub struct AppState {
    pub sim: Rc<RefCell<Sim>>,
    pub version: u64,
    /// The scenario as loaded (reset and share start from it).
    pub base: Scenario,
    /// The teacher's actions so far, with their times (appended to share links).
    pub applied: Vec<TimedAction>,
    pub playing: bool,
    pub speed: f64,
    pub feed: VecDeque<FeedItem>,
    pub topic: String,
    pub selection: Option<Selection>,
    /// Keys of table rows changed by the last update (`ns/topic/broker`, `ns/broker-addr`).
    pub changed: Vec<String>,
    /// An error to show (bad import, invalid action …).
    pub error: Option<String>,
    /// The preset the scenario came from, if any.
    pub preset: Option<String>,
    /// The next feed item's key.
    pub feed_seq: u64,
    /// The last send attempts per producer group, newest last.
    pub picks: std::collections::BTreeMap<String, VecDeque<Pick>>,
    /// Bumped when a topic appears in or leaves a table, so the topic list is rebuilt only then.
    pub topics_version: u64,
}

/// One send attempt, for a producer's strip of recent picks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub t: u64,
    pub broker: String,
    pub queue: i32,
    pub attempt: u32,
    pub ok: bool,
}

/// How many picks each producer's strip keeps.
pub const PICKS_KEPT: usize = 24;

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.sim, &other.sim) && self.version == other.version
    }
}

/// What the user (or the clock) asks for.
pub enum Msg {
    Tick { dt_ms: f64 },
    TogglePlay,
    SetSpeed(f64),
    Step,
    Advance(u64),
    AdvanceToExpiry,
    Apply(Action),
    Load(Box<Scenario>),
    LoadPreset(String),
    Reset,
    SelectTopic(String),
    Select(Option<Selection>),
    Error(String),
    DismissError,
}

impl AppState {
    /// The state for a scenario, paused at t = 0.
    pub fn new(scenario: Scenario) -> Self {
        let topic = first_user_topic(&scenario);
        let mut state = Self {
            sim: Rc::new(RefCell::new(Sim::new(&scenario))),
            version: 0,
            base: scenario,
            applied: Vec::new(),
            playing: false,
            speed: 10.0,
            feed: VecDeque::new(),
            topic,
            selection: None,
            changed: Vec::new(),
            error: None,
            picks: Default::default(),
            preset: None,
            feed_seq: 0,
            topics_version: 0,
        };
        state.collect();
        state
    }

    /// The default preset.
    pub fn with_default_preset() -> Self {
        let json = preset(DEFAULT_PRESET)
            .map(|p| p.json)
            .unwrap_or("{\"routelab\":1}");
        let mut s = Self::new(Scenario::from_json(json).unwrap_or_else(|_| empty_scenario()));
        s.preset = Some(DEFAULT_PRESET.into());
        s
    }

    /// Moves new simulator events into the feed and the changed-rows list.
    fn collect(&mut self) {
        let events = self.sim.borrow_mut().drain_events();
        self.changed.clear();
        let mut front_grown = false;
        for e in events {
            self.changed.extend(changed_keys(&e));
            if let SimEventKind::Send {
                producer,
                broker_name: Some(b),
                queue_id: Some(q),
                attempt,
                ok,
                ..
            } = &e.kind
            {
                let strip = self.picks.entry(producer.as_str().to_owned()).or_default();
                strip.push_back(Pick {
                    t: e.t,
                    broker: b.clone(),
                    queue: *q,
                    attempt: *attempt,
                    ok: *ok,
                });
                while strip.len() > PICKS_KEPT {
                    strip.pop_front();
                }
            }
            if let SimEventKind::TopicChanged {
                namesrv,
                broker_name,
                change,
                topic,
                ..
            } = &e.kind
            {
                if *change != "updated" {
                    self.topics_version += 1;
                }
                // One line for the topics one registration (or removal) changed together. Its text is
                // written once the group is complete (a first registration changes hundreds of topics).
                let key = format!("{}|{namesrv}|{broker_name}|{change}", e.t);
                if let Some(g) = self
                    .feed
                    .front_mut()
                    .and_then(|f| f.group.as_mut())
                    .filter(|g| g.0 == key)
                {
                    g.1.push(topic.clone());
                    front_grown = true;
                    continue;
                }
                self.finish_front(&mut front_grown);
                self.feed_seq += 1;
                self.feed.push_front(FeedItem {
                    t: e.t,
                    text: describe(&e),
                    kind: "topic",
                    target: target_of(&e.kind),
                    group: Some((key, vec![topic.clone()])),
                    seq: self.feed_seq,
                });
                continue;
            }
            if is_feed_worthy(&e) {
                self.finish_front(&mut front_grown);
                self.feed.push_front(FeedItem {
                    t: e.t,
                    text: describe(&e),
                    kind: kind_name(&e.kind),
                    target: target_of(&e.kind),
                    group: None,
                    seq: self.feed_seq + 1,
                });
                self.feed_seq += 1;
            }
        }
        self.finish_front(&mut front_grown);
        self.feed.truncate(FEED_LIMIT);
        self.version += 1;
    }

    /// Writes the text of the front feed item when topics were merged into it.
    fn finish_front(&mut self, grown: &mut bool) {
        if !std::mem::take(grown) {
            return;
        }
        let Some(front) = self.feed.front_mut() else {
            return;
        };
        let Some((key, topics)) = &front.group else {
            return;
        };
        let mut parts = key.splitn(4, '|').skip(1);
        let (namesrv, broker, change) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        let shown = topics.len().min(FEED_TOPICS_LISTED);
        let more = if topics.len() > shown {
            format!(" … and {} more", topics.len() - shown)
        } else {
            String::new()
        };
        front.text = format!(
            "{namesrv}: {} topics of {broker} {change}: {}{more}",
            topics.len(),
            topics[..shown].join(", ")
        );
    }

    fn advance_by(&mut self, dt_ms: u64) {
        let target = self.sim.borrow().now() + dt_ms;
        self.sim.borrow_mut().advance_to(target);
        self.collect();
    }

    fn advance_to_expiry(&mut self) {
        let (now, next, scan) = {
            let sim = self.sim.borrow();
            let next = sim
                .namesrvs()
                .iter()
                .filter_map(|n| n.manager.next_expiry_ms())
                .min();
            (sim.now(), next, sim.timing().scan_ms)
        };
        let Some(next) = next else {
            self.error = Some("No broker is registered: nothing can expire.".into());
            return;
        };
        // Run until something is removed, at the latest one scan period after the expiry.
        let limit = next.max(now) + scan;
        loop {
            let t = self.sim.borrow().next_timer();
            match t {
                Some(t) if t <= limit => {
                    self.sim.borrow_mut().step();
                    let removed = self.sim.borrow().has_pending_removal();
                    if removed {
                        break;
                    }
                }
                _ => {
                    self.sim.borrow_mut().advance_to(limit);
                    break;
                }
            }
        }
        self.collect();
    }

    fn apply(&mut self, action: Action) {
        let now = self.sim.borrow().now();
        let result = self.sim.borrow_mut().apply(&action);
        match result {
            Ok(()) => {
                self.applied.push(TimedAction {
                    at: now as f64 / 1000.0,
                    action,
                });
                self.error = None;
            }
            Err(e) => self.error = Some(e.to_string()),
        }
        self.collect();
    }
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut s = (*self).clone();
        match msg {
            Msg::Tick { dt_ms } => {
                if !s.playing {
                    return self;
                }
                let dt = (dt_ms.max(0.0) * s.speed).round() as u64;
                s.advance_by(dt);
            }
            Msg::TogglePlay => s.playing = !s.playing,
            Msg::SetSpeed(x) => s.speed = x,
            Msg::Step => {
                s.playing = false;
                s.sim.borrow_mut().step();
                s.collect();
            }
            Msg::Advance(ms) => s.advance_by(ms),
            Msg::AdvanceToExpiry => s.advance_to_expiry(),
            Msg::Apply(action) => s.apply(action),
            Msg::Load(scenario) => return Rc::new(AppState::new(*scenario)),
            Msg::LoadPreset(name) => match preset(&name).map(|p| Scenario::from_json(p.json)) {
                Some(Ok(sc)) => {
                    let mut next = AppState::new(sc);
                    next.preset = Some(name);
                    return Rc::new(next);
                }
                Some(Err(e)) => s.error = Some(format!("preset {name}: {e}")),
                None => s.error = Some(format!("no preset named {name}")),
            },
            Msg::Reset => {
                let mut next = AppState::new(s.base.clone());
                next.preset = s.preset.clone();
                return Rc::new(next);
            }
            Msg::SelectTopic(t) => {
                s.topic = t;
                s.version += 1;
            }
            Msg::Select(sel) => {
                if let Some(Selection::Topic(t)) = &sel {
                    s.topic = t.clone();
                }
                s.selection = sel;
                s.version += 1;
            }
            Msg::Error(e) => s.error = Some(e),
            Msg::DismissError => s.error = None,
        }
        Rc::new(s)
    }
}

/// A scenario with one NameServer and nothing else.
// A constant document, not input: it parses or every page load (and the UI tests) fail.
#[allow(clippy::expect_used)]
pub fn empty_scenario() -> Scenario {
    Scenario::from_json("{\"routelab\":1}").expect("the empty scenario is valid")
}

/// The first topic a user declared (not a system topic), for the route view.
fn first_user_topic(s: &Scenario) -> String {
    s.producers
        .first()
        .map(|p| p.topic.clone())
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

/// Heartbeats, unchanged polls and plain successful sends would drown the feed.
fn is_feed_worthy(e: &SimEvent) -> bool {
    !matches!(
        e.kind,
        SimEventKind::BrokerRegistered { first: false, .. }
            | SimEventKind::RoutePolled {
                ok: true,
                changed: false,
                ..
            }
            | SimEventKind::Send {
                ok: true,
                attempt: 1,
                ..
            }
    )
}

fn kind_name(k: &SimEventKind) -> &'static str {
    match k {
        SimEventKind::BrokerRegistered { .. } => "registered",
        SimEventKind::RegistrationRejected { .. } => "rejected",
        SimEventKind::BrokerRemoved { .. } | SimEventKind::BrokerGroupRemoved { .. } => "removed",
        SimEventKind::BrokerIdSwitched { .. } => "switched",
        SimEventKind::TopicChanged { .. } => "topic",
        SimEventKind::PermChanged { .. } => "perm",
        SimEventKind::KvChanged { .. } => "kv",
        SimEventKind::RoutePolled { .. } | SimEventKind::RouteQuery { .. } => "route",
        SimEventKind::Send { ok: true, .. } => "send-ok",
        SimEventKind::Send { .. } => "send-failed",
        SimEventKind::Action { .. } => "action",
    }
}

fn target_of(k: &SimEventKind) -> Option<Selection> {
    match k {
        SimEventKind::BrokerRegistered { broker_addr, .. }
        | SimEventKind::RegistrationRejected { broker_addr, .. }
        | SimEventKind::BrokerRemoved { broker_addr, .. }
        | SimEventKind::BrokerIdSwitched { broker_addr, .. } => {
            Some(Selection::Broker(broker_addr.clone()))
        }
        SimEventKind::TopicChanged { topic, .. } | SimEventKind::RouteQuery { topic, .. } => {
            Some(Selection::Topic(topic.clone()))
        }
        SimEventKind::RoutePolled { producer, .. } => Some(Selection::Producer(producer.clone())),
        SimEventKind::Send { producer, .. } => {
            Some(Selection::Producer(producer.as_str().to_owned()))
        }
        _ => None,
    }
}

fn changed_keys(e: &SimEvent) -> Vec<String> {
    match &e.kind {
        SimEventKind::TopicChanged {
            namesrv,
            topic,
            broker_name,
            ..
        } => vec![format!("{namesrv}/{topic}/{broker_name}")],
        SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr,
            first: true,
            ..
        } => vec![format!("{namesrv}/{broker_addr}")],
        SimEventKind::PermChanged {
            namesrv,
            broker_name,
            topics,
            ..
        } => topics
            .iter()
            .map(|t| format!("{namesrv}/{t}/{broker_name}"))
            .collect(),
        _ => Vec::new(),
    }
}
