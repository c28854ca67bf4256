//! Consumer groups and their members: processes with a client id, their own route copies (polled
//! every 30 s), heartbeats to every broker of their topics (every 30 s), and kill / freeze / stop /
//! restart. What the brokers do with them — consumer tables, "consumer ids changed" notices, the
//! 120 s expiry scan, the slaves' copy of the masters' offsets — is in `broker_consumers`; what a
//! member does with its queues — rebalance, pulls, commits — is in `consume`.
//!
//! Timers and sources: docs/consumers.md.

use serde::Serialize;

use super::client_routes::ClientRoutes;
use super::event::SimEventKind;
use super::process::ProcessState;
use super::scenario::{made_up_client_id, ConsumerGroupSpec};
use super::store::Speed;
use super::{Sim, Timer};
use crate::consumer::{
    self, MessageQueue, FIRST_HEARTBEAT_MS, FIRST_PERSIST_OFFSET_MS, HEARTBEAT_INTERVAL_MS,
};
use crate::model::TopicRouteData;
use crate::producer::ClientProfile;

/// How often a member pulls from each of its queues in the simulator (its consume rate spread over
/// them).
pub const PULL_TICK_MS: u64 = 1_000;

/// A member's process state: the one [`ProcessState`] every simulated process has.
pub type ConsumerState = ProcessState;

/// A queue a member reads, and where it stands in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnedQueue {
    pub mq: MessageQueue,
    /// The next offset to consume (everything below was consumed by this member or before it).
    pub offset: u64,
    /// Where the group's read mark of this queue is (`ConsumerGroup::reads`).
    #[serde(skip)]
    pub(crate) read_slot: usize,
    /// Where the queue's topic is in its broker group's store, once looked up.
    #[serde(skip)]
    pub(crate) log_slot: Option<usize>,
}

/// A member's counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConsumerStats {
    /// Messages consumed.
    pub consumed: u64,
    /// Of those, messages the group had already consumed.
    pub duplicates: u64,
    /// Pulls that found their broker dead or hung.
    pub failed_pulls: u64,
    /// Consumed per second over the last seconds.
    #[serde(skip)]
    pub speed: Speed,
}

/// One member of a consumer group (one client instance).
#[derive(Clone, Debug)]
pub struct ConsumerNode {
    /// Its group (index into [`Sim::consumer_groups`]).
    pub group: usize,
    /// `IP@instanceName`.
    pub client_id: String,
    pub state: ConsumerState,
    /// Messages per second it consumes at most.
    pub rate: f64,
    /// Which client code it runs.
    pub client: ClientProfile,
    /// Its NameServer and route copies (`topicRouteTable`), as every client keeps them.
    pub routes: ClientRoutes,
    /// The readable queues (`topicSubscribeInfoTable`) of each topic it has had a route for.
    pub topics: Vec<MemberTopic>,
    /// The queues it reads (`processQueueTable`), in `MessageQueue` order.
    pub owned: Vec<OwnedQueue>,
    pub stats: ConsumerStats,
    /// When its next rebalance is due.
    pub next_rebalance: Option<u64>,
    /// When it last rebalanced (5.x waits at least 1 s between two); its start before the first.
    pub(crate) last_rebalance: u64,
    pub(crate) epoch: u64,
    /// Bumped with every rebalance timer set: only the latest fires.
    pub(crate) rebalance_token: u64,
    /// Thousandths of a message owed from earlier ticks.
    pub(crate) credit_milli: u64,
    /// Which owned queue the next tick serves first.
    pub(crate) next_queue: usize,
    /// Its earlier lives and how each ended: (epoch, killed or stopped).
    pub(crate) ended: Vec<(u64, ConsumerState)>,
}

/// The queues a member can read of one topic.
#[derive(Clone, Debug)]
pub struct MemberTopic {
    pub topic: String,
    /// Its route copy's readable queues, sorted as Java sorts them.
    pub queues: Vec<MessageQueue>,
}

impl ConsumerNode {
    /// Its route copy of `topic`.
    pub fn route(&self, topic: &str) -> Option<&TopicRouteData> {
        self.routes.route(topic)
    }

    /// Its readable queues of `topic`, if it has had a route for it.
    pub fn subscribed(&self, topic: &str) -> Option<&[MessageQueue]> {
        self.topics
            .iter()
            .find(|t| t.topic == topic)
            .map(|t| t.queues.as_slice())
    }

    /// Whether the process runs.
    pub fn is_up(&self) -> bool {
        self.state == ConsumerState::Running
    }

    /// The queues it reads of `topic`.
    pub fn queues_of<'a>(&'a self, topic: &'a str) -> impl Iterator<Item = &'a MessageQueue> {
        self.owned
            .iter()
            .map(|o| &o.mq)
            .filter(move |q| q.topic.as_str() == topic)
    }
}

/// A consumer group.
#[derive(Clone, Debug)]
pub struct ConsumerGroup {
    /// As the scenario gave it, with later changes of strategy and rate.
    pub spec: ConsumerGroupSpec,
    /// Its number among the groups, from 1 (for made-up client ids).
    pub number: usize,
    /// Members made up so far.
    pub(crate) made_up: usize,
    /// Per queue (by `read_index`): the highest offset any member consumed up to, and which member
    /// (and which of its lives) did. Members keep the slot of each queue they read.
    pub(crate) reads: Vec<(u64, usize, u64)>,
    pub(crate) read_index: Vec<MessageQueue>,
}

impl ConsumerGroup {
    /// The slot of `mq`'s read mark (made when first asked).
    pub(crate) fn read_slot(&mut self, mq: &MessageQueue) -> usize {
        if let Some(s) = self.read_index.iter().position(|q| q == mq) {
            return s;
        }
        self.reads.push((0, usize::MAX, 0));
        self.read_index.push(mq.clone());
        self.reads.len() - 1
    }
}

impl Sim {
    /// The consumer groups, in the order they were added.
    pub fn consumer_groups(&self) -> &[ConsumerGroup] {
        &self.groups
    }

    /// Every member of every group, in the order they were added.
    pub fn consumers(&self) -> &[ConsumerNode] {
        &self.consumers
    }

    /// The member with this client id.
    pub fn consumer_index(&self, client_id: &str) -> Option<usize> {
        self.consumers.iter().position(|c| c.client_id == client_id)
    }

    /// The group with this name.
    pub fn group_index(&self, group: &str) -> Option<usize> {
        self.groups.iter().position(|g| g.spec.group == group)
    }

    /// Creates a group and starts its members.
    pub(crate) fn add_consumer_group(&mut self, spec: &ConsumerGroupSpec) {
        if self.group_index(&spec.group).is_some() {
            return;
        }
        let first = self.groups.is_empty();
        let number = self.groups.len() + 1;
        let ids = spec.initial_client_ids(number);
        self.groups.push(ConsumerGroup {
            spec: spec.clone(),
            number,
            made_up: if spec.client_ids.is_empty() {
                ids.len()
            } else {
                0
            },
            reads: Vec::new(),
            read_index: Vec::new(),
        });
        if first {
            // The slaves' offset sync matters only once there are offsets to copy.
            for b in 0..self.brokers.len() {
                self.schedule_slave_sync(b);
            }
        }
        let g = self.groups.len() - 1;
        for id in ids {
            self.add_member(g, id);
        }
    }

    /// Starts one more member of group `g` (a client id made up when None).
    pub(crate) fn add_consumer(&mut self, g: usize, client_id: Option<String>) {
        let id = client_id.unwrap_or_else(|| self.next_made_up_id(g));
        if self.consumer_index(&id).is_none() {
            self.add_member(g, id);
        }
    }

    /// The next made-up client id of group `g` not yet taken.
    pub(crate) fn next_made_up_id(&mut self, g: usize) -> String {
        loop {
            let group = &mut self.groups[g];
            group.made_up += 1;
            let id = made_up_client_id(group.number, group.made_up);
            if self.consumer_index(&id).is_none() {
                return id;
            }
        }
    }

    fn add_member(&mut self, g: usize, client_id: String) {
        let spec = &self.groups[g].spec;
        let client = spec.client.unwrap_or(self.default_client());
        self.consumers.push(ConsumerNode {
            group: g,
            client_id,
            state: ConsumerState::Stopped,
            rate: spec.rate,
            client,
            routes: ClientRoutes::default(),
            topics: Vec::new(),
            owned: Vec::new(),
            stats: ConsumerStats::default(),
            next_rebalance: None,
            last_rebalance: 0,
            epoch: 0,
            rebalance_token: 0,
            credit_milli: 0,
            next_queue: 0,
            ended: Vec::new(),
        });
        self.start_consumer(self.consumers.len() - 1);
    }

    /// `DefaultMQPushConsumerImpl.start`: routes fetched, a heartbeat to every broker, a rebalance
    /// at once; then the client's timers.
    pub(crate) fn start_consumer(&mut self, m: usize) {
        let now = self.now;
        let node = &mut self.consumers[m];
        node.state = ConsumerState::Running;
        node.epoch += 1;
        node.routes.forget();
        node.topics.clear();
        node.owned.clear();
        node.next_rebalance = None;
        node.last_rebalance = now;
        node.credit_milli = 0;
        let epoch = node.epoch;
        self.poll_consumer_routes(m);
        self.consumer_heartbeat(m);
        self.wake_rebalance(m);
        let poll = self.timing.route_poll_ms;
        self.schedule(now + poll, Timer::ConsumerRoutePoll { consumer: m, epoch });
        self.schedule(
            now + FIRST_HEARTBEAT_MS,
            Timer::ConsumerHeartbeat { consumer: m, epoch },
        );
        self.schedule(
            now + FIRST_PERSIST_OFFSET_MS,
            Timer::PersistOffsets { consumer: m, epoch },
        );
        self.schedule(now + PULL_TICK_MS, Timer::PullTick { consumer: m, epoch });
    }

    /// Whether timer of life `epoch` of member `m` still applies.
    pub(crate) fn consumer_live(&self, m: usize, epoch: u64) -> bool {
        let node = &self.consumers[m];
        node.epoch == epoch && node.is_up()
    }

    #[inline(never)]
    pub(super) fn on_consumer_route_poll(&mut self, m: usize, epoch: u64) {
        if !self.consumer_live(m, epoch) {
            return;
        }
        self.poll_consumer_routes(m);
        let at = self.now + self.timing.route_poll_ms;
        self.schedule(at, Timer::ConsumerRoutePoll { consumer: m, epoch });
    }

    #[inline(never)]
    pub(super) fn on_consumer_heartbeat(&mut self, m: usize, epoch: u64) {
        if !self.consumer_live(m, epoch) {
            return;
        }
        self.consumer_heartbeat(m);
        self.schedule(
            self.now + HEARTBEAT_INTERVAL_MS,
            Timer::ConsumerHeartbeat { consumer: m, epoch },
        );
    }

    /// `updateTopicRouteInfoFromNameServer` for each subscribed topic: a route that came back and
    /// differs replaces the member's copy and its readable queues; TOPIC_NOT_EXIST keeps the copy.
    pub(crate) fn poll_consumer_routes(&mut self, m: usize) {
        // The member's NameServer, chosen on first use (the rule every client follows).
        let node = &mut self.consumers[m];
        let g = node.group;
        let ns = node.routes.choose_namesrv(
            self.groups[g].spec.namesrv.as_deref(),
            &self.namesrvs,
            &mut self.rng,
        );
        for t in 0..self.groups[g].spec.topics.len() {
            let topic = &self.groups[g].spec.topics[t];
            let zone = self.groups[g].spec.zone_asked();
            let Some(route) = self.ask_route(ns, topic, zone) else {
                continue;
            };
            let node = &mut self.consumers[m];
            let Some(route) = node.routes.keep(topic, route, self.now) else {
                continue;
            };
            let queues = consumer::subscribe_queues(topic, route);
            match node.topics.iter_mut().find(|t| t.topic == *topic) {
                Some(t) => t.queues = queues,
                None => node.topics.push(MemberTopic {
                    topic: topic.clone(),
                    queues,
                }),
            }
        }
    }

    /// Every broker address in the member's routes (`brokerAddrTable`), masters and slaves.
    pub(crate) fn consumer_broker_addrs(&self, m: usize) -> Vec<String> {
        self.consumers[m].routes.broker_addrs()
    }

    /// The running broker at `addr`, if any.
    pub(crate) fn running_broker_at(&self, addr: &str) -> Option<usize> {
        self.brokers
            .iter()
            .position(|b| b.addr == addr)
            .filter(|&b| self.brokers[b].is_up())
    }

    /// `sendHeartbeatToAllBroker`: HEART_BEAT to every broker the member knows (a client with
    /// consumers sends to slaves too). A broker seeing the member for the first time tells the
    /// group's members there to rebalance.
    pub(crate) fn consumer_heartbeat(&mut self, m: usize) {
        let g = self.consumers[m].group;
        let group = self.groups[g].spec.group.clone();
        let client_id = self.consumers[m].client_id.clone();
        for addr in self.consumer_broker_addrs(m) {
            let Some(b) = self.running_broker_at(&addr) else {
                continue;
            };
            self.ensure_retry_topic(b, &group);
            let now = self.now;
            let notify = self.brokers[b]
                .consumer_table
                .register(&group, &client_id, now);
            self.ensure_client_scan(b);
            if let Some(members) = notify {
                self.emit(SimEventKind::ConsumerJoined {
                    group: group.clone(),
                    client_id: client_id.clone(),
                    broker_addr: addr.clone(),
                });
                self.notify_members(g, &members);
            }
        }
    }

    /// The member's process dies: running brokers see its connection close and tell the others.
    pub(crate) fn kill_consumer(&mut self, m: usize) {
        if !matches!(
            self.consumers[m].state,
            ConsumerState::Running | ConsumerState::Frozen
        ) {
            return;
        }
        self.halt_consumer(m, ConsumerState::Killed);
        let g = self.consumers[m].group;
        let client_id = self.consumers[m].client_id.clone();
        for b in 0..self.brokers.len() {
            if !self.brokers[b].is_up() {
                continue;
            }
            let closed = self.brokers[b].consumer_table.channel_closed(&client_id);
            let addr = self.brokers[b].addr.clone();
            for (group, members) in closed {
                self.emit(SimEventKind::ConsumerLeft {
                    group,
                    client_id: client_id.clone(),
                    broker_addr: addr.clone(),
                    reason: "channel_closed",
                });
                self.notify_members(g, &members);
            }
        }
    }

    /// The member hangs: its timers do nothing; brokers keep it until it has been silent 120 s.
    pub(crate) fn freeze_consumer(&mut self, m: usize) {
        if self.consumers[m].is_up() {
            self.consumers[m].state = ConsumerState::Frozen;
        }
    }

    /// `shutdown`: offsets of every queue committed, UNREGISTER_CLIENT to every broker it knows
    /// (each tells the members left), then the connections close.
    pub(crate) fn stop_consumer(&mut self, m: usize) {
        if !self.consumers[m].is_up() {
            return;
        }
        self.persist_all(m);
        let g = self.consumers[m].group;
        let group = self.groups[g].spec.group.clone();
        let client_id = self.consumers[m].client_id.clone();
        let addrs = self.consumer_broker_addrs(m);
        self.halt_consumer(m, ConsumerState::Stopped);
        for addr in addrs {
            let Some(b) = self.running_broker_at(&addr) else {
                continue;
            };
            if let Some(members) = self.brokers[b]
                .consumer_table
                .unregister(&group, &client_id)
            {
                self.emit(SimEventKind::ConsumerLeft {
                    group: group.clone(),
                    client_id: client_id.clone(),
                    broker_addr: addr.clone(),
                    reason: "unregistered",
                });
                self.notify_members(g, &members);
            }
        }
    }

    /// Kill (if alive) and start again with the same client id.
    pub(crate) fn restart_consumer(&mut self, m: usize) {
        self.kill_consumer(m);
        self.start_consumer(m);
    }

    fn halt_consumer(&mut self, m: usize, state: ConsumerState) {
        let node = &mut self.consumers[m];
        let life = node.epoch;
        node.ended.push((life, state));
        node.state = state;
        node.epoch += 1;
        node.owned.clear();
        node.next_rebalance = None;
    }
}
