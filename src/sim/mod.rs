//! The deterministic simulator: NameServers (each its own route manager), brokers and producers on a
//! virtual clock with a seeded RNG — the engine under the workshop dashboard and `routelab sim`.
//!
//! # Calling it
//!
//! Sans-IO, like the route manager: [`Sim::next_timer`] says when something will happen,
//! [`Sim::step`] fires everything due at that time, [`Sim::advance_to`] fires everything up to a time,
//! [`Sim::apply`] applies an action now, and [`Sim::poll_event`] drains what happened. Nothing reads a
//! clock or the OS's randomness: same scenario and seed, same events, natively and in WebAssembly.
//!
//! # Layout
//!
//! - `apply`: actions checked against the world as it is and applied (the dashboard's buttons,
//!   the scenario's actions as they fall due).
//! - `scenario`: the scenario file (parse, validate, errors with field paths, numbered topic sets,
//!   share links).
//! - `timing`: the scenario's timers resolved to ms, and warnings about those that make brokers flap.
//! - `event`: what the simulator reports; `event_words`: [`describe_in`] says it in plain words
//!   (English or 简体中文).
//! - `namesrv_node`: a simulated NameServer (its route manager and scan timer).
//! - `broker`: broker processes: registration timers, channels, kill / freeze / stop / restart;
//!   `process`: [`ProcessState`], a broker's or a consumer member's state.
//! - `consumer`: consumer groups and their members (readable queues, heartbeats, kill / freeze / stop /
//!   restart); `broker_consumers`: the brokers' consumer tables, notices and the slaves' offset
//!   sync; `consume`: rebalance, pulls and commits; `report_consumers`: what groups consumed
//!   (`consumerProgress`, `topicStatus`) and the report's consumer part.
//! - `controller_node`: controllers (controller mode) — their heartbeat tables, scans, leader and
//!   the elections they hold; `replica`: a controller-mode broker's side — its controller id,
//!   heartbeats and role changes (brokerId 0 as master, the epoch as `stateVersion`);
//!   `sync_state_set`: the master's proposals of who is in sync.
//! - `producer`: route polling and sends with retries and fault isolation.
//! - `client_routes`: what every client (producer or member) keeps of routes, as RocketMQ's
//!   `MQClientInstance`: its NameServer, chosen once, and its route copy of each topic.
//! - `report`: the final state in RocketMQ's table names, and the text format.
//! - `presets`: the scenarios that ship with RouteLab; `action_words`: an action in plain words.
//! - [`lesson`]: guided lessons — the format, questions the simulator answers, a headless walk and
//!   the learner's player.
//! - [`timeline`]: time travel over a run — snapshots, replay, seek, forks and undo, the marks a
//!   timeline is painted with, and the feed as it was at each moment.
//! - `store`: what each broker group stores, and how fast it is written and read.
//! - `targets`: where a producer's sends go (the master and the simulated broker of each group of
//!   its publish info).
//! - `timers`: the timer queue, fired by time and then insertion order; `dispatch`: what each
//!   kind of timer is (`Timer`) and the one place that says which operation fires it.
//! - `json_path`: the field path at a position of a JSON text (for the scenario's errors).
//! - `consumer_words`: consumer actions and events in plain words; `failover_words`: failover's.

mod acting_master;
mod action_words;
mod apply;
mod broker;
mod broker_consumers;
mod client_routes;
mod conns;
mod consume;
mod consumer;
mod consumer_words;
mod controller_node;
mod dispatch;
mod dledger;
mod event;
pub(crate) mod event_words;
mod failover_words;
mod json_path;
pub mod lesson;
mod namesrv_node;
mod presets;
mod process;
mod producer;
mod producer_routes;
mod raft;
mod replica;
mod report;
mod report_consumers;
pub mod scenario;
mod store;
mod sync_state_set;
mod targets;
pub mod timeline;
mod timers;
mod timing;

use std::collections::{BTreeMap, VecDeque};

pub use broker::{ha_addr, system_topics, BrokerNode, BrokerState};
pub use client_routes::{ClientRoutes, RouteCopy};
pub use consumer::{
    ConsumerGroup, ConsumerNode, ConsumerState, ConsumerStats, MemberTopic, OwnedQueue,
    PULL_TICK_MS,
};
pub use controller_node::{key_of as replica_key, ControllerNode};
pub use event::{
    Candidate, ConsumerRebalanced, Duplicates, MasterElected, QueueRef, SimEvent, SimEventKind,
};
pub use event_words::{describe, describe_in};
pub use namesrv_node::NamesrvNode;
pub use presets::{
    lesson, lessons, preset, preset_json, presets, LessonFile, Preset, BUNDLED_IN_BROWSER,
};
pub use process::ProcessState;
pub use producer::{ProducerNode, ProducerStats};
pub use replica::{ReplicaRole, ReplicaState};
pub use report::{FinalState, RunOutput};
pub use report_consumers::{GroupReport, MemberQueue, MemberReport};
pub use scenario::{
    expand_topic_sets, Action, Scenario, ScenarioError, TimedAction, TopicSet, MAX_SET_COUNT,
};
pub use store::{GroupStore, QueueProgress, Speed};
pub use timing::Timing;

use crate::namesrv::{ChannelId, NamesrvConfig};
use crate::rng::SeededRng;
use dispatch::Timer;

/// The broker's first periodic registration comes this long after its start (BrokerController).
pub const FIRST_REGISTER_REPEAT_MS: u64 = 10_000;
/// `registerNameServerPeriod`: a broker registers this often after the first repeat.
pub const REGISTER_PERIOD_MS: u64 = 30_000;
/// A producer's first route poll comes this long after its start (MQClientInstance).
pub const FIRST_ROUTE_POLL_MS: u64 = 10;
/// `defaultTopicQueueNums` (producer) / `clientDefaultTopicQueueNums`: queues of an auto-created topic.
pub const DEFAULT_TOPIC_QUEUE_NUMS: i32 = 4;
/// The template topic of auto-creation (`TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC`).
pub const AUTO_CREATE_TOPIC: &str = "TBW102";
/// Attempts per message of a sync send (`1 + retryTimesWhenSendFailed`).
pub const SEND_ATTEMPTS: u32 = 3;

/// The largest event buffer (in events, about 2 MB) whose size a drain keeps for the next buffer.
const KEEP_EVENT_BUFFER_UP_TO: usize = 1 << 14;

/// The simulated world.
#[derive(Clone, Debug)]
pub struct Sim {
    scenario: Scenario,
    now: u64,
    until: u64,
    rng: SeededRng,
    timing: Timing,
    namesrvs: Vec<NamesrvNode>,
    /// Controllers (controller mode), their replicated state, their leader and its Raft term.
    controllers: Vec<ControllerNode>,
    /// The DLedger groups (`"mode": "dledger"`), with their Raft state.
    dledger: Vec<dledger::DledgerGroup>,
    replicas: crate::controller::Replicas,
    leader: Option<usize>,
    raft_term: u64,
    /// Bumped when a leader election is scheduled, so an older one is ignored.
    leader_token: u64,
    brokers: Vec<BrokerNode>,
    producers: Vec<ProducerNode>,
    /// Consumer groups, and every member of every group.
    groups: Vec<ConsumerGroup>,
    consumers: Vec<ConsumerNode>,
    /// What each broker group stores, and where each group's store is.
    stores: Vec<GroupStore>,
    /// Each group store by its group name, sorted by name (a `Vec`: see `conns`).
    store_index: Vec<(String, usize)>,
    conns: conns::Conns,
    next_channel: u64,
    /// Pending timers, fired by time; insertion order breaks ties deterministically.
    timers: timers::TimerQueue,
    /// The scenario's actions as (ms, index), in time order (ties in file order), and how many
    /// have been applied. An action applies after every timer due at its time, as a teacher's
    /// button does (the clock stops after the timers of a time have fired): a scenario exported or
    /// shared from a session replays it exactly.
    actions: std::sync::Arc<[(u64, usize)]>,
    next_action: usize,
    /// Timers fired and actions applied so far: the measure of the work a replay repeats, and
    /// (the same on every replay of the same history) where a replay stands in it.
    fired: u64,
    events: VecDeque<SimEvent>,
    /// broker address ↔ NameServer links that are cut (a few at most: a `Vec`).
    cut_broker_ns: Vec<(String, usize)>,
    /// Other cut links: a broker's address with a controller's name or another broker's address.
    cut_pairs: Vec<(String, String)>,
    /// The topics the scenario's topic sets give each broker group (shared: a clone of the world
    /// need not copy thousands of topic specs).
    generated: std::sync::Arc<BTreeMap<String, Vec<scenario::TopicSpec>>>,
}

impl Sim {
    /// A world at t = 0 with the scenario's NameServers, brokers (started) and producers (started);
    /// the scenario's actions are scheduled. The scenario must be valid ([`Scenario::from_json`]
    /// checks it).
    pub fn new(scenario: &Scenario) -> Self {
        let timing = Timing::resolve(scenario);
        let config = NamesrvConfig {
            broker_channel_expired_millis: timing.expiry_ms,
            support_acting_master: scenario.support_acting_master,
            ..NamesrvConfig::default()
        };
        let mut sim = Sim {
            scenario: scenario.clone(),
            now: 0,
            until: scenario
                .until
                .map_or(300_000, |s| (s * 1000.0).round() as u64),
            rng: SeededRng::new(scenario.seed),
            namesrvs: scenario
                .namesrvs
                .iter()
                .map(|name| NamesrvNode::new(name.clone(), scenario.profile, config.clone()))
                .collect(),
            timing,
            controllers: Vec::new(),
            dledger: Vec::new(),
            replicas: Default::default(),
            leader: None,
            raft_term: 0,
            leader_token: 0,
            brokers: Vec::new(),
            producers: Vec::new(),
            groups: Vec::new(),
            consumers: Vec::new(),
            stores: Vec::new(),
            store_index: Vec::new(),
            conns: conns::Conns::default(),
            next_channel: 1,
            timers: timers::TimerQueue::default(),
            events: VecDeque::new(),
            actions: {
                let mut order: Vec<(u64, usize)> = scenario
                    .actions
                    .iter()
                    .enumerate()
                    .map(|(i, a)| ((a.at * 1000.0).round() as u64, i))
                    .collect();
                crate::sort::sort_by(&mut order, |a, b| a.0.cmp(&b.0));
                order.into()
            },
            next_action: 0,
            fired: 0,
            cut_broker_ns: Vec::new(),
            cut_pairs: Vec::new(),
            generated: std::sync::Arc::new(expand_topic_sets(scenario)),
        };
        for i in 0..sim.namesrvs.len() {
            let first = sim.timing.scan_first_ms;
            sim.schedule_scan(i, first);
        }
        sim.add_controllers(&scenario.controllers);
        sim.add_dledger_groups(&scenario.brokers);
        for b in &scenario.brokers {
            sim.add_broker(b);
        }
        for p in &scenario.producers {
            sim.add_producer(p);
        }
        for c in &scenario.consumers {
            sim.add_consumer_group(c);
        }
        sim
    }

    /// Parses, checks and builds a scenario.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        Ok(Self::new(&Scenario::from_json(text)?))
    }

    /// Virtual time, ms.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Where the scenario says a run stops, ms.
    pub fn until(&self) -> u64 {
        self.until
    }

    /// The scenario this world was built from.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The resolved timers.
    pub fn timing(&self) -> &Timing {
        &self.timing
    }

    /// The NameServers.
    pub fn namesrvs(&self) -> &[NamesrvNode] {
        &self.namesrvs
    }

    /// The brokers, in the order they were added.
    pub fn brokers(&self) -> &[BrokerNode] {
        &self.brokers
    }

    /// The producers, in the order they were added.
    pub fn producers(&self) -> &[ProducerNode] {
        &self.producers
    }

    /// Whether the link between the broker at `addr` and NameServer `ns` is cut.
    pub fn is_link_cut(&self, addr: &str, ns: usize) -> bool {
        self.cut_broker_ns
            .iter()
            .any(|(a, n)| a == addr && *n == ns)
    }

    /// Whether `link` is cut: a broker's to a NameServer, a controller or another broker (a
    /// producer's cut links are the producer's to say).
    pub fn link_is_cut(&self, link: &scenario::Link) -> bool {
        let Some(addr) = &link.broker else {
            return false;
        };
        if let Some(ns) = &link.namesrv {
            return self
                .namesrv_index(ns)
                .is_some_and(|n| self.is_link_cut(addr, n));
        }
        link.controller
            .as_ref()
            .or(link.peer.as_ref())
            .is_some_and(|o| self.is_cut_between(addr, o))
    }

    /// Whether the link between the broker at `addr` and `other` (a controller's name or another
    /// broker's address) is cut, whichever end the partition named first.
    pub fn is_cut_between(&self, addr: &str, other: &str) -> bool {
        self.cut_pairs
            .iter()
            .any(|(a, o)| (a == addr && o == other) || (a == other && o == addr))
    }

    /// How many timers have fired and actions applied since t = 0: the same at the same point of
    /// the same history, however it was advanced.
    pub fn fired(&self) -> u64 {
        self.fired
    }

    /// When the next timer fires, if any.
    pub fn next_timer(&self) -> Option<u64> {
        match (self.timers.next_time(), self.next_action_at()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When the next scenario action applies, if any is left.
    fn next_action_at(&self) -> Option<u64> {
        self.actions.get(self.next_action).map(|a| a.0)
    }

    /// Fires every timer due at the next timer's time and moves the clock there. Returns that time,
    /// or None when nothing is scheduled.
    pub fn step(&mut self) -> Option<u64> {
        let t = self.next_timer()?;
        self.fire_due(t);
        Some(t)
    }

    /// Moves the clock to `t` (the next timer's time) and fires every timer due then.
    fn fire_due(&mut self, t: u64) {
        self.now = self.now.max(t);
        self.fire_until(t);
    }

    /// Fires every timer due up to `t`, in (time, insertion order), each at its own time: the clock
    /// moves to each timer's time as it fires. The one loop that fires timers (`fire` inlined
    /// into it).
    ///
    /// A scenario action due at `a` applies once every timer due up to `a` has fired.
    fn fire_until(&mut self, t: u64) {
        loop {
            let action = self.next_action_at().filter(|&a| a <= t);
            if let Some((at, timer)) = self.timers.pop_due_with_time(action.unwrap_or(t)) {
                self.now = self.now.max(at);
                self.fire(timer);
            } else if let Some(at) = action {
                self.now = self.now.max(at);
                let i = self.actions[self.next_action].1;
                self.next_action += 1;
                let action = self.scenario.actions[i].action.clone();
                self.apply_action(&action);
            } else {
                break;
            }
        }
    }

    /// Fires everything due up to `t` (inclusive) and moves the clock to `t`.
    pub fn advance_to(&mut self, t: u64) {
        // What `step` until the next timer is after `t` does, one timer at a time: the same timers
        // fire in the same order at the same clock. Stepping found the next timer twice more per
        // step (before it, and once more at its end), a tenth of a simulated send's cost.
        self.fire_until(t);
        self.now = self.now.max(t);
    }

    /// [`Sim::advance_to`] in slices, for a caller with a time budget (the dashboard, once per
    /// animation frame): fires the timers due up to `t` one step at a time, asking `more()` after
    /// each step whether to go on. Returns true once `t` is reached (the clock is then at `t`); when
    /// stopped early the clock is at the last step's time and a later call carries on, so the same
    /// events fire in the same order however the advance is sliced. At least one step is taken, so
    /// repeated calls always make progress.
    pub fn advance_toward(&mut self, t: u64, mut more: impl FnMut() -> bool) -> bool {
        while self.next_timer().is_some_and(|next| next <= t) {
            self.step();
            if !more() && self.next_timer().is_some_and(|next| next <= t) {
                return false;
            }
        }
        self.now = self.now.max(t);
        true
    }

    /// Runs to the scenario's `until`.
    pub fn run(&mut self) {
        let until = self.until;
        self.advance_to(until);
    }

    /// The oldest event not yet polled.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<SimEvent> {
        self.events.pop_front()
    }

    /// Whether an event not yet polled removed a broker from a NameServer.
    pub fn has_pending_removal(&self) -> bool {
        self.events
            .iter()
            .any(|e| matches!(e.kind, SimEventKind::BrokerRemoved { .. }))
    }

    /// Every event not yet polled.
    pub fn drain_events(&mut self) -> Vec<SimEvent> {
        // Hands over the queue's own buffer (no copy of each event: there is one per simulated
        // send) and starts a new one a little larger than the batch just taken, so that a slightly
        // larger next batch does not make it grow (doubling, and copying every event).
        //
        // The new buffer is never smaller than the one handed over: with buffers of one size, the
        // allocator gives the caller's freed batch back for the next buffer, its memory still
        // mapped. Buffers sized by each batch came in ever-different sizes, so each was fresh
        // memory, its pages faulted in anew: a fifth of the simulator's wall time at one drain
        // per virtual second (not seen in instruction counts: the kernel does that work). A buffer
        // grown by a huge batch (a whole run drained at its end) is not kept at that size.
        let n = self.events.len();
        let capacity = match self.events.capacity() {
            kept if kept <= KEEP_EVENT_BUFFER_UP_TO => kept.max(n + n / 4),
            _ => n + n / 4,
        };
        let fresh = VecDeque::with_capacity(capacity);
        Vec::from(std::mem::replace(&mut self.events, fresh))
    }

    fn schedule(&mut self, at: u64, timer: Timer) {
        self.timers.push(at, timer);
    }

    fn schedule_scan(&mut self, ns: usize, at: u64) {
        self.namesrvs[ns].next_scan = Some(at);
        self.schedule(at, Timer::Scan(ns));
    }

    fn emit(&mut self, kind: SimEventKind) {
        self.events.push_back(SimEvent { t: self.now, kind });
    }

    /// Moves a NameServer's core events into the simulator's queue.
    fn drain_ns(&mut self, ns: usize) {
        let name = self.namesrvs[ns].name.clone();
        for e in self.namesrvs[ns].manager.drain_events() {
            if let Some(kind) = event::from_core(&name, e) {
                self.emit(kind);
            }
        }
    }

    /// The NameServer's scan; expired brokers' channels are closed, as RocketMQ does.
    fn scan(&mut self, ns: usize) {
        let m = &mut self.namesrvs[ns].manager;
        let expired = m.scan_not_active_brokers(self.now);
        for key in expired {
            let closed: Vec<ChannelId> = self
                .conns
                .iter()
                .filter(|(_, c)| {
                    c.ns == ns && self.brokers[c.broker].addr == key.broker_addr.as_str()
                })
                .map(|(ch, _)| ch)
                .collect();
            for ch in closed {
                self.conns.remove(ch);
            }
        }
        self.drain_ns(ns);
    }

    fn namesrv_index(&self, name: &str) -> Option<usize> {
        self.namesrvs.iter().position(|n| n.name == name)
    }
}
