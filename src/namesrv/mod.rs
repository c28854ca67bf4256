//! The NameServer's route manager (RocketMQ's `RouteInfoManager` and `KVConfigManager`), pure and
//! I/O-free.
//!
//! # Calling it
//!
//! Every method that cares about time takes `now_ms` (milliseconds, any epoch) first; the manager never
//! reads a clock. Connections are named by [`ChannelId`]s chosen by the driver. After a mutation, drain
//! [`RouteManager::poll_event`] (or [`RouteManager::drain_events`]) to learn what changed and why.
//!
//! The driver runs the scan: every [`Profile::scan_schedule_ms`] it calls
//! [`RouteManager::scan_not_active_brokers`]. Under the 5.x profile unregistrations (requested, or from
//! a closed channel or an expiry) are queued as in RocketMQ's `BatchUnregistrationService`, which runs
//! the batch at once on its own thread. A driver that wants that sets
//! [`UnregisterBatch::AtDrain`] once ([`RouteManager::set_unregister_batch`]): the manager then runs
//! the batch itself when its events are drained, before handing any out, so no call site has to
//! remember it. By default ([`UnregisterBatch::WhenApplied`]) the queue waits for
//! [`RouteManager::apply_pending_unregistrations`], so that a test or a lesson can look at it;
//! calling that under `AtDrain` too is harmless (an empty queue runs nothing).
//!
//! # Java's order
//!
//! The tables (`tables`) keep their keys as RocketMQ's hash maps would hold them
//! ([`crate::java_order`]); scans, channel cleanups, removals and their events walk that order, and
//! `wire` writes the response bodies in it. The semantic answers (`pickup_topic_route_data`,
//! `get_all_cluster_info`, the `TopicList`s) stay in name order for everyone else.

mod config;
mod error;
mod event;
mod kv;
mod liveness;
mod perm;
mod query;
mod register;
mod request;
mod route;
mod tables;
mod topic;
mod unregister;
mod wire;
pub mod zone;

use std::collections::VecDeque;

pub use config::{
    NamesrvConfig, Profile, UnknownProfile, DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
    NAMESPACE_ORDER_TOPIC_CONFIG,
};
pub use error::RouteError;
pub use event::{Event, PermChange, RejectReason, RemovalReason, TopicRemovalReason};
pub use kv::KvConfig;
pub use liveness::QueryDataVersionResult;
pub use query::{TopicListBuild, UnitQuery};
pub use register::RegisterBrokerResult;
pub use request::{
    validate_addr_field, validate_topic_config, validate_topic_name, BrokerIdentity,
    RegisterBroker, UnregisterBroker, MAX_QUEUE_NUMS,
};
pub use tables::{
    BrokerAddrInfo, BrokerAddrTable, BrokerLiveInfo, BrokerLiveTable, ChannelId, ClusterAddrTable,
    FilterServerTable, TopicQueueTable,
};
pub use unregister::{UnregisterBatch, UnregisterOutcome};
pub use wire::JsonForm;

use crate::model::{BrokerAddr, BrokerName, ClusterName, DataVersion, QueueData, TopicName};

/// The route tables of one NameServer, the KV store, and the events not yet polled.
#[derive(Clone, Debug)]
pub struct RouteManager {
    profile: Profile,
    config: NamesrvConfig,
    /// Shared with the snapshots of time travel until changed (10,000 topics weigh ~10 MB).
    topic_queue_table: crate::shared::Shared<TopicQueueTable>,
    broker_addr_table: BrokerAddrTable,
    cluster_addr_table: ClusterAddrTable,
    broker_live_table: BrokerLiveTable,
    filter_server_table: FilterServerTable,
    /// 5.x static topics: topic → brokerName → TopicQueueMappingInfo (JSON, not interpreted).
    topic_queue_mapping_info_table: std::collections::BTreeMap<
        TopicName,
        std::collections::BTreeMap<String, serde_json::Value>,
    >,
    kv: KvConfig,
    /// 5.x `BatchUnregistrationService` queue: requests with the reason they were made.
    pending_unregistrations: VecDeque<(UnregisterBroker, RemovalReason)>,
    /// When that queue runs: on request, or at the next drain of events.
    unregister_batch: UnregisterBatch,
    events: VecDeque<Event>,
    /// How many QueueData have left topicQueueTable: a 5.x heartbeat compares it with
    /// `tables::FilledTopics` to know that none of its topics can have gone missing.
    queue_removals: u64,
    /// How many times a QueueData was stored changed or had its perm changed: with
    /// `queue_removals`, a registration whose topics are what it wrote last time, and nothing
    /// written or removed since, knows every put would find its QueueData already there.
    queue_writes: u64,
    /// The JSON library whose output the bodies copy: fastjson 1 (4.9.8, 5.3.3) or fastjson2
    /// (5.4, the server's `--profile 5.4`; its routing rules are 5.x's).
    json: crate::model::lenient::Dialect,
}

impl RouteManager {
    /// An empty NameServer of the given profile with RocketMQ's default config.
    pub fn new(profile: Profile) -> Self {
        Self::with_config(profile, NamesrvConfig::default())
    }

    /// An empty NameServer with an explicit config.
    pub fn with_config(profile: Profile, config: NamesrvConfig) -> Self {
        Self {
            profile,
            config,
            topic_queue_table: crate::shared::Shared::new(TopicQueueTable::new(profile.is_v5())),
            broker_addr_table: BrokerAddrTable::new(profile.is_v5()),
            cluster_addr_table: ClusterAddrTable::new(profile.is_v5()),
            broker_live_table: BrokerLiveTable::new(profile.is_v5()),
            filter_server_table: FilterServerTable::default(),
            topic_queue_mapping_info_table: Default::default(),
            kv: KvConfig::default(),
            pending_unregistrations: VecDeque::new(),
            unregister_batch: UnregisterBatch::default(),
            events: VecDeque::new(),
            queue_removals: 0,
            queue_writes: 0,
            json: crate::model::lenient::Dialect::Fastjson1,
        }
    }

    /// Writes the bodies as `dialect`'s library does (5.4: fastjson2).
    pub fn set_json_dialect(&mut self, dialect: crate::model::lenient::Dialect) {
        self.json = dialect;
    }

    /// The JSON library the bodies are written as.
    pub fn json_dialect(&self) -> crate::model::lenient::Dialect {
        self.json
    }

    /// The profile chosen at construction.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The NamesrvConfig in force.
    pub fn config(&self) -> &NamesrvConfig {
        &self.config
    }

    /// `topicQueueTable`.
    pub fn topic_queue_table(&self) -> &TopicQueueTable {
        &self.topic_queue_table
    }

    /// `brokerAddrTable`.
    pub fn broker_addr_table(&self) -> &BrokerAddrTable {
        &self.broker_addr_table
    }

    /// `clusterAddrTable`.
    pub fn cluster_addr_table(&self) -> &ClusterAddrTable {
        &self.cluster_addr_table
    }

    /// `brokerLiveTable`.
    pub fn broker_live_table(&self) -> &BrokerLiveTable {
        &self.broker_live_table
    }

    /// `filterServerTable`.
    pub fn filter_server_table(&self) -> &FilterServerTable {
        &self.filter_server_table
    }

    /// The KV config store.
    pub fn kv(&self) -> &KvConfig {
        &self.kv
    }

    /// Replaces the config in force (UPDATE_NAMESRV_CONFIG). The profile stays.
    pub fn set_config(&mut self, config: NamesrvConfig) {
        self.config = config;
    }

    /// Replaces the KV store with one loaded from disk at start-up. No events: nothing changed from
    /// a client's point of view.
    pub fn restore_kv(&mut self, mut kv: KvConfig) {
        kv.rebuild_order();
        self.kv = kv;
    }

    /// 5.x: unregistrations waiting for the next batch.
    pub fn pending_unregistrations(&self) -> impl Iterator<Item = &UnregisterBroker> {
        self.pending_unregistrations.iter().map(|(r, _)| r)
    }

    /// When the 5.x unregistration queue runs (see [`UnregisterBatch`]). Cloned with the manager.
    pub fn set_unregister_batch(&mut self, when: UnregisterBatch) {
        self.unregister_batch = when;
    }

    /// When the 5.x unregistration queue runs.
    pub fn unregister_batch(&self) -> UnregisterBatch {
        self.unregister_batch
    }

    /// The oldest event not yet polled. Under [`UnregisterBatch::AtDrain`] the queued
    /// unregistrations run first, their events after those already waiting.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<Event> {
        self.run_batch_if_at_drain();
        self.events.pop_front()
    }

    /// Every event not yet polled, oldest first. Under [`UnregisterBatch::AtDrain`] the queued
    /// unregistrations run first, their events after those already waiting.
    pub fn drain_events(&mut self) -> Vec<Event> {
        self.run_batch_if_at_drain();
        self.events.drain(..).collect()
    }

    /// The drivers used to call `apply_pending_unregistrations` just before draining, every time:
    /// here it cannot be forgotten, and it runs at that same moment, so the tables and the events
    /// are what they were then.
    fn run_batch_if_at_drain(&mut self) {
        if self.unregister_batch == UnregisterBatch::AtDrain
            && !self.pending_unregistrations.is_empty()
        {
            self.apply_pending_unregistrations();
        }
    }

    /// The key of a broker in the live and filter-server tables under this profile.
    pub fn live_key(&self, cluster: &ClusterName, addr: &BrokerAddr) -> BrokerAddrInfo {
        BrokerAddrInfo {
            cluster_name: if self.profile.is_v5() {
                cluster.clone()
            } else {
                ClusterName::default()
            },
            broker_addr: addr.clone(),
        }
    }

    /// DataVersion equality as the profile defines it: 4.x compares timestamp and counter, 5.x also
    /// stateVersion.
    fn versions_equal(&self, a: &DataVersion, b: &DataVersion) -> bool {
        a.counter == b.counter
            && a.timestamp == b.timestamp
            && (!self.profile.is_v5() || a.state() == b.state())
    }

    /// `isBrokerTopicConfigChanged`: no live entry, or a different DataVersion.
    fn broker_topic_config_changed(&self, key: &BrokerAddrInfo, version: &DataVersion) -> bool {
        match self.broker_live_table.get(key) {
            None => true,
            Some(live) => !self.versions_equal(&live.data_version, version),
        }
    }

    /// Stores a topic's QueueData for its group and reports a real change as an event.
    fn put_queue_data(&mut self, topic: &TopicName, qd: QueueData) {
        let before = match self.topic_queue_table.put(topic, qd.clone()) {
            tables::Put::Unchanged => return,
            tables::Put::Stored(before) => before,
        };
        self.queue_writes += 1;
        self.events.push_back(Event::TopicQueueChanged {
            topic: topic.clone(),
            broker_name: qd.broker_name.clone(),
            before,
            after: qd,
        });
    }

    /// Removes one group's QueueData from one topic, with its event.
    fn remove_queue_data(
        &mut self,
        topic: &TopicName,
        broker_name: &BrokerName,
        why: TopicRemovalReason,
    ) {
        if let Some((qd, topic_removed)) = self.topic_queue_table.remove_queue(topic, broker_name) {
            self.queue_removed(topic.clone(), qd, why, topic_removed);
        }
    }

    /// Counts a QueueData removal (the 5.x heartbeat memo watches the count) and reports it.
    fn queue_removed(
        &mut self,
        topic: TopicName,
        qd: QueueData,
        why: TopicRemovalReason,
        topic_removed: bool,
    ) {
        self.queue_removals += 1;
        self.events.push_back(Event::TopicQueueRemoved {
            topic,
            broker_name: qd.broker_name,
            reason: why,
            topic_removed,
        });
    }

    /// Removes the groups' QueueData from every topic (dropping topics left empty), topic by topic in
    /// Java's order.
    fn remove_topics_of_groups(&mut self, broker_names: &[BrokerName]) {
        let hosting = self.topic_queue_table.hosting(broker_names);
        if hosting.is_empty() {
            return;
        }
        let removed = self.topic_queue_table.remove_groups(broker_names, hosting);
        for (topic, qd, topic_removed) in removed {
            let why = TopicRemovalReason::BrokerGroupRemoved;
            self.queue_removed(topic, qd, why, topic_removed);
        }
    }
}
