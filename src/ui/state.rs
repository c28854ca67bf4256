//! The dashboard's state and its reducer. The reducer only drives the simulator (pure, no clock, no
//! I/O): time arrives as `Msg::Tick` from the clock effect, once per animation frame.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::rc::Rc;

use yew::prelude::*;

use crate::model::{BrokerName, ProducerGroup};
use crate::sim::{
    describe, preset, preset_json, Action, Scenario, Sim, SimEvent, SimEventKind, TimedAction,
    BUNDLED_IN_BROWSER,
};

/// How many feed items are kept.
pub const FEED_LIMIT: usize = 200;
/// How many topic names a grouped feed line lists (the rest are counted).
const FEED_TOPICS_LISTED: usize = 20;
/// Speeds offered (virtual seconds per real second).
pub const SPEEDS: [f64; 5] = [1.0, 5.0, 10.0, 30.0, 60.0];
/// The preset loaded when the page opens without a share link: the one compiled in.
pub const DEFAULT_PRESET: &str = BUNDLED_IN_BROWSER;

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

/// The dashboard's state. The simulator sits behind `Rc<RefCell<_>>` and the bulky parts behind
/// `Rc`, so a tick (one per animation frame) copies no list; `version` changes on every mutation so
/// components re-render, and the narrower counters below let a panel skip frames that did not touch
/// what it shows.
#[derive(Clone)]
pub struct AppState {
    pub sim: Rc<RefCell<Sim>>,
    pub version: u64,
    /// The scenario as loaded (reset and share start from it).
    pub base: Rc<Scenario>,
    /// The teacher's actions so far, with their times (appended to share links).
    pub applied: Vec<TimedAction>,
    pub playing: bool,
    pub speed: f64,
    /// Virtual ms the clock owes the simulator: what the last frames asked for and their time budget
    /// did not reach (carried to the next frame; fractions of a ms included).
    pub owed_ms: f64,
    /// Replaced (a new `Rc`), never changed in place, whenever an item comes or grows: the feed
    /// panel compares the pointer.
    pub feed: Rc<VecDeque<FeedItem>>,
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
    /// The next feed item's key.
    pub feed_seq: u64,
    /// The last send attempts per producer group, newest last.
    pub picks: Rc<BTreeMap<ProducerGroup, VecDeque<Pick>>>,
    /// Bumped when a topic appears in or leaves a table, so the topic list is rebuilt only then.
    pub topics_version: u64,
    /// The `version` each group of panels last rendered at (indexed by [`Panels`]): a frame of the
    /// clock renders one group or none, any other message all of them.
    pub panel_versions: [u64; Panels::COUNT],
}

/// The groups of panels the clock renders in turn, one every second animation frame: a big
/// cluster's panels rendered together (with the browser's layout and paint of all they changed) take
/// longer than a frame; one group at a time fits, and each still shows time moving 7.5 times a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panels {
    /// The cluster: the broker cards.
    Cluster = 0,
    /// The topic route and the producers.
    Traffic = 1,
    /// The scenario bar, the time bar, the NameServer chips and the event feed: small, but a new
    /// event moves every feed item shown, so they do not share a frame with a bigger group.
    Time = 2,
    /// The tabs below: tables, the mqadmin mirror, the forms.
    Tabs = 3,
}

impl Panels {
    pub const COUNT: usize = 4;
    /// In the order the clock renders them.
    pub const ALL: [Panels; Panels::COUNT] =
        [Panels::Cluster, Panels::Traffic, Panels::Time, Panels::Tabs];
}

/// One send attempt, for a producer's strip of recent picks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub t: u64,
    /// The send event's shared name (a reference count, not a copy: one pick per simulated send).
    pub broker: BrokerName,
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

/// Whether a tick may go on simulating: the clock's time budget for one animation frame. The
/// reducer only asks; the clock that made it reads real time.
#[derive(Clone)]
pub struct Budget(Rc<dyn Fn() -> bool>);

impl Budget {
    /// No limit: the whole advance in one go.
    pub fn unlimited() -> Self {
        Self(Rc::new(|| true))
    }

    /// A budget that lasts while `more()` says so.
    pub fn new(more: impl Fn() -> bool + 'static) -> Self {
        Self(Rc::new(more))
    }

    fn more(&self) -> bool {
        (self.0)()
    }
}

/// At most this many real ms of simulation are owed: when the simulator cannot keep up with the
/// speed asked, the clock runs slower instead of falling ever further behind.
const MAX_OWED_REAL_MS: f64 = 250.0;

/// What the user (or the clock) asks for.
pub enum Msg {
    /// `dt_ms` real ms went by: advance the simulator by that times the speed, within the budget
    /// (none: only owe it). `render` names the group of panels this frame shows; the others keep
    /// what they showed (their `panel_versions` stay). Without one the state still advances but
    /// compares equal (same `version`), so no panel renders this frame.
    Tick {
        dt_ms: f64,
        budget: Option<Budget>,
        render: Option<Panels>,
    },
    TogglePlay,
    SetSpeed(f64),
    Step,
    Advance(u64),
    AdvanceToExpiry,
    Apply(Action),
    Load(Box<Scenario>),
    /// Loads a preset: at once if compiled in, else `loading` asks the scenario bar to fetch it.
    LoadPreset(String),
    /// A preset's file as fetched (or why it could not be).
    PresetFetched {
        name: String,
        json: Result<String, String>,
    },
    Reset,
    SelectTopic(String),
    Select(Option<Selection>),
    Error(String),
    DismissError,
}

impl AppState {
    /// What a group of panels shows changed since this key last did (see [`super::gate::Gate`]).
    pub fn panel_key(&self, group: Panels) -> (usize, u64) {
        (
            Rc::as_ptr(&self.sim) as usize,
            self.panel_versions[group as usize],
        )
    }

    /// True while playing with the simulator well behind the speed asked (more than half the owed
    /// cap): the virtual clock then runs slower than the speed shown, and the time bar says so.
    pub fn falling_behind(&self) -> bool {
        self.playing && self.owed_ms > MAX_OWED_REAL_MS * self.speed / 2.0
    }

    /// The state for a scenario, paused at t = 0.
    pub fn new(scenario: Scenario) -> Self {
        let topic = first_user_topic(&scenario);
        let mut state = Self {
            sim: Rc::new(RefCell::new(Sim::new(&scenario))),
            version: 0,
            base: Rc::new(scenario),
            applied: Vec::new(),
            playing: false,
            speed: 10.0,
            owed_ms: 0.0,
            feed: Rc::default(),
            topic,
            selection: None,
            changed: Rc::default(),
            tables_version: 0,
            error: None,
            picks: Default::default(),
            preset: None,
            loading: None,
            feed_seq: 0,
            topics_version: 0,
            panel_versions: [0; Panels::COUNT],
        };
        state.collect();
        state
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
    fn preset_loaded(mut self, name: String, json: &str) -> Rc<Self> {
        match Scenario::from_json(json) {
            Ok(sc) => {
                let mut next = AppState::new(sc);
                next.preset = Some(name);
                Rc::new(next)
            }
            Err(e) => {
                self.error = Some(format!("preset {name}: {e}"));
                Rc::new(self)
            }
        }
    }

    /// Moves new simulator events into the feed and the changed-rows list.
    fn collect(&mut self) {
        let events = self.sim.borrow_mut().drain_events();
        if events.is_empty() {
            return;
        }
        let mut changed = HashSet::new();
        let mut tables_touched = false;
        let mut front_grown = false;
        for e in events {
            if touches_tables(&e.kind) {
                tables_touched = true;
                changed.extend(changed_keys(&e));
            }
            if let SimEventKind::Send {
                producer,
                broker_name: Some(b),
                queue_id: Some(q),
                attempt,
                ok,
                ..
            } = &e.kind
            {
                let strip = Rc::make_mut(&mut self.picks)
                    .entry(producer.clone())
                    .or_default();
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
                if let Some(g) = Rc::make_mut(&mut self.feed)
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
                Rc::make_mut(&mut self.feed).push_front(FeedItem {
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
                Rc::make_mut(&mut self.feed).push_front(FeedItem {
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
        if self.feed.len() > FEED_LIMIT {
            Rc::make_mut(&mut self.feed).truncate(FEED_LIMIT);
        }
        if tables_touched {
            self.changed = Rc::new(changed);
            self.tables_version += 1;
        }
    }

    /// Writes the text of the front feed item when topics were merged into it.
    fn finish_front(&mut self, grown: &mut bool) {
        if !std::mem::take(grown) {
            return;
        }
        let Some(front) = Rc::make_mut(&mut self.feed).front_mut() else {
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

    /// One frame of play: the virtual time `dt_ms` real ms ask for (plus what earlier frames still
    /// owe), as far as the budget allows; the rest is owed to the next frame.
    fn play_for(&mut self, dt_ms: f64, budget: Option<&Budget>) {
        let cap = MAX_OWED_REAL_MS * self.speed;
        self.owed_ms = (self.owed_ms + dt_ms.max(0.0) * self.speed).min(cap);
        let Some(budget) = budget else {
            return;
        };
        let before = self.sim.borrow().now();
        let target = before + self.owed_ms as u64;
        self.sim
            .borrow_mut()
            .advance_toward(target, || budget.more());
        let after = self.sim.borrow().now();
        self.owed_ms = (self.owed_ms - (after - before) as f64).max(0.0);
        self.collect();
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
        // Every message changes what is shown, except a frame the clock does not render; a frame
        // the clock renders shows one group of panels.
        match &msg {
            Msg::Tick { render: None, .. } => {}
            Msg::Tick {
                render: Some(group),
                ..
            } => {
                s.version += 1;
                s.panel_versions[*group as usize] = s.version;
            }
            _ => {
                s.version += 1;
                s.panel_versions = [s.version; Panels::COUNT];
            }
        }
        match msg {
            Msg::Tick { dt_ms, budget, .. } => {
                if !s.playing {
                    return self;
                }
                s.play_for(dt_ms, budget.as_ref());
            }
            Msg::TogglePlay => {
                s.playing = !s.playing;
                s.owed_ms = 0.0;
            }
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
            Msg::LoadPreset(name) => match preset(&name).map(|p| p.json) {
                Some(Some(json)) => return s.preset_loaded(name, json),
                Some(None) => s.loading = Some(name),
                None => s.error = Some(format!("no preset named {name}")),
            },
            Msg::PresetFetched { name, json } => {
                // Only the preset last asked for: an earlier pick, a reset or a load came since.
                if s.loading.as_deref() != Some(name.as_str()) {
                    return self;
                }
                s.loading = None;
                match json {
                    Ok(json) => return s.preset_loaded(name, &json),
                    Err(e) => s.error = Some(format!("preset {name}: {e}")),
                }
            }
            Msg::Reset => {
                let mut next = AppState::new((*s.base).clone());
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

/// Whether an event may change a table row the dashboard shows, beyond brokerLiveTable's timestamps
/// (which change with every heartbeat and are re-rendered on every frame anyway).
fn touches_tables(k: &SimEventKind) -> bool {
    !matches!(
        k,
        SimEventKind::BrokerRegistered { first: false, .. }
            | SimEventKind::RoutePolled { .. }
            | SimEventKind::RouteQuery { .. }
            | SimEventKind::Send { .. }
    )
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
