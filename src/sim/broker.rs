//! Broker processes: registration on start and every period, one channel per NameServer, and the
//! four ways to fail (kill, freeze, stop, restart).

use std::collections::BTreeMap;

use super::conns::{ChannelTo, Conn};
use super::process::ProcessState;
use super::scenario::BrokerSpec;
use super::{Sim, Timer, FIRST_REGISTER_REPEAT_MS};
use crate::model::perm::PERM_INHERIT;
use crate::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use crate::namesrv::{ChannelId, Profile, RegisterBroker, RemovalReason, UnregisterBroker};

/// A broker process's state: the one [`ProcessState`] every simulated process has.
pub type BrokerState = ProcessState;

/// A simulated broker.
#[derive(Clone, Debug)]
pub struct BrokerNode {
    /// As the scenario gave it.
    pub spec: BrokerSpec,
    /// `ip:port`.
    pub addr: String,
    /// Current state.
    pub state: BrokerState,
    /// Its topic configs (the scenario's, plus system topics), by name.
    pub topics: crate::shared::Shared<BTreeMap<String, TopicConfig>>,
    /// Bumped on every topic change.
    pub data_version: DataVersion,
    /// Registration period, ms.
    pub register_ms: u64,
    /// When the next periodic registration is due (None when not running).
    pub next_register: Option<u64>,
    /// The channel it uses to each NameServer (by index), if connected.
    pub(crate) channel_to: ChannelTo,
    /// Bumped when the process stops, so its pending timers are ignored.
    pub(crate) epoch: u64,
    /// The last full-table registration, sent again while the DataVersion stays (every topic change
    /// bumps it): a heartbeat of a broker with hundreds of topics then copies no table.
    pub(crate) full_registration: Option<std::sync::Arc<RegisterBroker>>,
    /// Bumped on every change of `topics`, so what a producer remembers of them can tell it is
    /// out of date.
    pub(crate) topics_changed: u64,
    /// When the process last started.
    pub started_at: u64,
    /// Its consumer table (`ConsumerManager`): lost when the process ends.
    pub consumer_table: crate::consumer::ConsumerTable,
    /// Its committed consumer offsets (`ConsumerOffsetManager`): on disk, kept across restarts.
    pub offsets: crate::consumer::OffsetTable,
    /// The epoch whose client scan is running, if any.
    pub(crate) client_scan: Option<u64>,
    /// Its group's store (index into the simulator's stores).
    pub(crate) store: usize,
    /// The broker id it registers with: the scenario's, or in controller mode the one that goes
    /// with the role the controller gave it (0 as master, its controller id as slave).
    pub(crate) broker_id: i64,
    /// In controller mode: its place in its group as the controller told it.
    pub replica: Option<super::ReplicaState>,
    /// The epoch whose slave sync is running, if any.
    pub(crate) slave_sync: Option<u64>,
    /// Acting-master mode: the epoch whose heartbeats and member-group syncs are running, if any.
    pub(crate) acting_tasks: Option<u64>,
    /// Acting-master mode: the smallest broker id of its group as it last learnt it
    /// (`minBrokerIdInGroup`, 0 when it starts).
    pub(crate) min_broker_id: i64,
    /// DLedger mode: its group (in the simulator's DLedger groups) and member number.
    pub(crate) dledger: Option<(usize, usize)>,
    /// DLedger mode: its role and the term it took it in.
    pub raft_role: Option<(super::ReplicaRole, u64)>,
}

impl BrokerNode {
    /// The role a controller (controller mode, with the master epoch) or its DLedger group (with
    /// the term) gave it; None in the other modes.
    pub fn elected_role(&self) -> Option<(super::ReplicaRole, i64)> {
        match &self.replica {
            Some(r) => Some((r.role, i64::from(r.master_epoch))),
            None => self.raft_role.map(|(role, term)| (role, term as i64)),
        }
    }

    /// The broker id it registers with now (0: the master).
    pub fn id(&self) -> i64 {
        self.broker_id
    }

    /// Whether it takes writes: a master, unless a controller made it a slave or has not given
    /// it a role yet (`SERVICE_NOT_AVAILABLE`).
    pub fn takes_writes(&self) -> bool {
        match &self.replica {
            Some(r) => r.role == super::ReplicaRole::Master,
            None => self.broker_id == crate::model::MASTER_ID,
        }
    }

    /// Whether it acts as its group's master (acting-master mode: a running slave whose id is the
    /// smallest its group has, the master gone).
    pub fn acts_as_master(&self) -> bool {
        self.spec.mode == super::scenario::GroupMode::ActingMaster
            && self.is_up()
            && self.broker_id != crate::model::MASTER_ID
            && self.min_broker_id == self.broker_id
    }

    /// Whether the process answers (running).
    pub fn is_up(&self) -> bool {
        self.state == BrokerState::Running
    }

    /// Whether `topic` accepts writes on the broker itself.
    pub fn accepts(&self, topic: &str) -> Option<bool> {
        self.topics
            .get(topic)
            .map(|t| crate::model::perm::is_writeable(t.perm))
    }
}

/// The topics a default broker registers besides the user's (autoCreateTopicEnable, clusterTopicEnable
/// and brokerTopicEnable are on by default). Also what `routelab demo`'s emulated brokers send.
pub fn system_topics(spec: &BrokerSpec) -> Vec<TopicConfig> {
    vec![
        TopicConfig::new("TBW102", 8, 8, 6 | PERM_INHERIT),
        TopicConfig::new("SELF_TEST_TOPIC", 1, 1, 6),
        TopicConfig::new(&spec.cluster, 16, 16, 6 | PERM_INHERIT),
        TopicConfig::new(&spec.name, 1, 1, 6 | PERM_INHERIT),
        TopicConfig::new("OFFSET_MOVED_EVENT", 1, 1, 6),
    ]
}

/// The HA address a broker registers: the scenario's, or its address with port + 1.
pub fn ha_addr(spec: &BrokerSpec) -> String {
    spec.ha_addr
        .clone()
        .unwrap_or_else(|| match spec.addr.rsplit_once(':') {
            Some((host, port)) => format!("{host}:{}", port.parse::<u32>().map_or(0, |p| p + 1)),
            None => spec.addr.clone(),
        })
}

impl Sim {
    /// Creates a broker and starts it, with its group's topics from the scenario's topic sets (a topic
    /// the broker also lists in its own `topics` keeps that entry).
    pub(crate) fn add_broker(&mut self, spec: &BrokerSpec) {
        let generated = std::sync::Arc::clone(&self.generated);
        let generated = generated.get(&spec.name).map_or(&[][..], Vec::as_slice);
        let mut topics: BTreeMap<String, TopicConfig> = BTreeMap::new();
        if spec.system_topics {
            topics.extend(
                system_topics(spec)
                    .into_iter()
                    .map(|t| (t.topic_name.clone(), t)),
            );
        }
        topics.extend(generated.iter().map(|t| (t.topic.clone(), t.config())));
        topics.extend(spec.topics.iter().map(|t| (t.topic.clone(), t.config())));
        let register_ms = spec
            .heartbeat_secs
            .map_or(self.timing.register_ms, |s| (s * 1000.0).round() as u64);
        let store = self.store_for(&spec.name);
        self.brokers.push(BrokerNode {
            spec: spec.clone(),
            addr: spec.addr.clone(),
            state: BrokerState::Stopped,
            topics: crate::shared::Shared::new(topics),
            data_version: DataVersion::new(1, self.now as i64),
            register_ms,
            next_register: None,
            channel_to: ChannelTo::default(),
            epoch: 0,
            full_registration: None,
            topics_changed: 0,
            started_at: self.now,
            consumer_table: Default::default(),
            offsets: Default::default(),
            client_scan: None,
            store,
            broker_id: spec.id,
            replica: (spec.mode == super::scenario::GroupMode::Controller)
                .then(super::ReplicaState::new),
            slave_sync: None,
            acting_tasks: None,
            min_broker_id: crate::model::MASTER_ID,
            dledger: None,
            raft_role: None,
        });
        self.join_dledger_group(self.brokers.len() - 1);
        self.start_broker(self.brokers.len() - 1);
    }

    /// Start: register with every reachable NameServer now, again after 10 s, then every period.
    fn start_broker(&mut self, b: usize) {
        let broker = &mut self.brokers[b];
        broker.state = BrokerState::Running;
        broker.epoch += 1;
        broker.channel_to.clear();
        broker.started_at = self.now;
        broker.broker_id = broker.spec.id;
        broker.min_broker_id = crate::model::MASTER_ID;
        let epoch = broker.epoch;
        if broker.replica.is_some() {
            self.start_replica(b);
        }
        self.start_acting_tasks(b);
        self.start_dledger_member(b);
        self.schedule_slave_sync(b);
        self.register_all(b);
        let at = self.now + FIRST_REGISTER_REPEAT_MS;
        self.brokers[b].next_register = Some(at);
        self.schedule(at, Timer::Register { broker: b, epoch });
    }

    pub(super) fn on_register_timer(&mut self, b: usize, epoch: u64) {
        let broker = &self.brokers[b];
        if broker.epoch != epoch || !broker.is_up() {
            return;
        }
        self.register_all(b);
        let at = self.now + self.brokers[b].register_ms;
        self.brokers[b].next_register = Some(at);
        self.schedule(at, Timer::Register { broker: b, epoch });
    }

    /// REGISTER_BROKER with the full topic table to every NameServer it can reach (a DLedger
    /// broker with no role yet, id -1, registers nowhere).
    pub(super) fn register_all(&mut self, b: usize) {
        let broker = &mut self.brokers[b];
        if broker.broker_id < crate::model::MASTER_ID {
            return;
        }
        let req = match broker.full_registration.take() {
            Some(req) if req.topics().data_version == broker.data_version => req,
            _ => {
                let topics = broker.topics.values().cloned().collect();
                std::sync::Arc::new(self.registration(b, topics))
            }
        };
        self.send_registration(b, &req);
        self.brokers[b].full_registration = Some(req);
    }

    fn is_cut(&self, b: usize, ns: usize) -> bool {
        self.is_link_cut(&self.brokers[b].addr, ns)
    }

    /// The broker's open channel to `ns`, connecting anew when the NameServer closed the old one.
    pub(super) fn channel(&mut self, b: usize, ns: usize) -> ChannelId {
        if let Some(ch) = self.brokers[b].channel_to.get(ns) {
            if self.conns.contains(ch) {
                return ch;
            }
        }
        let ch = ChannelId(self.next_channel);
        self.next_channel += 1;
        self.conns.insert(
            ch,
            Conn {
                ns,
                broker: b,
                last_traffic: self.now,
            },
        );
        self.brokers[b].channel_to.insert(ns, ch);
        let idle = self.timing.idle_close_ms;
        self.schedule(self.now + idle, Timer::IdleCheck(ch));
        ch
    }

    /// REGISTER_BROKER with the given topic configs (the full table, or one topic for
    /// `registerIncrementBrokerData`) and the broker's current DataVersion, to each NameServer in
    /// turn (none across a cut link). The request is built once: with thousands of topics, copying
    /// the table per NameServer was a large part of a heartbeat's cost.
    fn register_body(&mut self, b: usize, topics: Vec<TopicConfig>) {
        let req = self.registration(b, topics);
        self.send_registration(b, &req);
    }

    /// The broker's REGISTER_BROKER request with these topic configs and its current DataVersion.
    fn registration(&self, b: usize, topics: Vec<TopicConfig>) -> RegisterBroker {
        let broker = &self.brokers[b];
        let v5 = self.scenario.profile == Profile::V5;
        let acting = broker.spec.mode == super::scenario::GroupMode::ActingMaster;
        RegisterBroker {
            cluster_name: broker.spec.cluster.as_str().into(),
            broker_addr: broker.addr.as_str().into(),
            broker_name: broker.spec.name.as_str().into(),
            broker_id: broker.broker_id,
            ha_server_addr: ha_addr(&broker.spec),
            // `brokerNotActiveTimeoutMillis` where the broker heartbeats (acting-master mode).
            heartbeat_timeout_millis: acting
                .then_some(super::acting_master::BROKER_NOT_ACTIVE_TIMEOUT_MS),
            // A 5.x broker always sends the header (false unless enableSlaveActingMaster).
            enable_acting_master: v5.then_some(acting),
            // `__ZONE_NAME` (5.x brokers' DynamicalExtFieldRPCHook).
            zone_name: broker.spec.zone.clone().filter(|_| v5),
            body: RegisterBrokerBody {
                filter_server_list: Vec::new(),
                topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                    broker.data_version.clone(),
                    topics,
                ),
            },
            channel: ChannelId(0),
        }
    }

    /// Sends `req` to each NameServer in turn, on the broker's channel to it.
    /// The request is not changed (each NameServer's channel is passed beside it): a snapshot of
    /// the world shares the broker's last registration.
    fn send_registration(&mut self, b: usize, req: &RegisterBroker) {
        for ns in 0..self.namesrvs.len() {
            if self.is_cut(b, ns) {
                continue;
            }
            let channel = self.channel(b, ns);
            // Refusals are reported by the manager's events; validated scenarios give valid requests.
            let _ = self.namesrvs[ns]
                .manager
                .register_broker_on(self.now, req, channel);
            if let Some(conn) = self.conns.get_mut(channel) {
                conn.last_traffic = self.now;
            }
            self.drain_ns(ns);
        }
    }

    /// The NameServer side of `serverChannelMaxIdleTimeSeconds`: a channel with no traffic for the
    /// idle time is closed, and the broker on it is cleaned up.
    pub(super) fn on_idle_check(&mut self, ch: ChannelId) {
        let Some(conn) = self.conns.get(ch).cloned() else {
            return;
        };
        let due = conn.last_traffic + self.timing.idle_close_ms;
        if due > self.now {
            self.schedule(due, Timer::IdleCheck(ch));
            return;
        }
        self.conns.remove(ch);
        let m = &mut self.namesrvs[conn.ns].manager;
        m.on_channel_destroy(ch, None, RemovalReason::IdleClosed);
        self.drain_ns(conn.ns);
    }

    /// Closes the broker's channels; NameServers it can reach see the close (`reason`).
    fn close_channels(&mut self, b: usize, reason: RemovalReason) {
        let channels = self.brokers[b].channel_to.take();
        let addr = self.brokers[b].addr.clone();
        self.controllers_see_close(&addr);
        for (ns, ch) in channels {
            if self.is_cut(b, ns) || !self.conns.contains(ch) {
                continue; // the FIN never arrives; the NameServer keeps the channel until idle
            }
            self.conns.remove(ch);
            let addr = self.brokers[b].addr.as_str().into();
            let m = &mut self.namesrvs[ns].manager;
            m.on_channel_destroy(ch, Some(&addr), reason.clone());
            self.drain_ns(ns);
        }
    }

    fn halt(&mut self, b: usize, state: BrokerState) {
        if state != BrokerState::Frozen {
            self.forget_consumers(b);
        }
        let broker = &mut self.brokers[b];
        broker.state = state;
        broker.epoch += 1;
        broker.next_register = None;
    }

    /// The process dies: every NameServer it can reach sees its channel close at once.
    pub(super) fn kill_broker(&mut self, b: usize) {
        if matches!(
            self.brokers[b].state,
            BrokerState::Killed | BrokerState::Stopped
        ) {
            return;
        }
        self.halt(b, BrokerState::Killed);
        self.close_channels(b, RemovalReason::ChannelClosed);
    }

    /// The process hangs: no more registrations, channels stay open.
    pub(super) fn freeze_broker(&mut self, b: usize) {
        if self.brokers[b].is_up() {
            self.halt(b, BrokerState::Frozen);
        }
    }

    /// Graceful shutdown: UNREGISTER_BROKER to every reachable NameServer, then close.
    pub(super) fn stop_broker(&mut self, b: usize) {
        if !self.brokers[b].is_up() {
            return;
        }
        self.halt(b, BrokerState::Stopped);
        let broker = &self.brokers[b];
        let req = UnregisterBroker::new(
            &broker.spec.cluster,
            &broker.spec.name,
            broker.broker_id,
            &broker.addr,
        );
        for ns in 0..self.namesrvs.len() {
            if self.is_cut(b, ns) {
                continue;
            }
            let m = &mut self.namesrvs[ns].manager;
            let _ = m.unregister_broker(&req);
            self.drain_ns(ns);
        }
        self.close_channels(b, RemovalReason::ChannelClosed);
    }

    /// A frozen process carries on: its overdue registration runs at once (with what it knew
    /// before the freeze), then its heartbeats and checks, then each on its period.
    pub(super) fn resume_broker(&mut self, b: usize) {
        if self.brokers[b].state != BrokerState::Frozen {
            return;
        }
        let broker = &mut self.brokers[b];
        broker.state = BrokerState::Running;
        let epoch = broker.epoch;
        self.register_all(b);
        let at = self.now + self.brokers[b].register_ms;
        self.brokers[b].next_register = Some(at);
        self.schedule(at, Timer::Register { broker: b, epoch });
        self.brokers[b].slave_sync = None;
        self.schedule_slave_sync(b);
        if !self.brokers[b].consumer_table.is_empty() {
            self.brokers[b].client_scan = None;
            self.ensure_client_scan(b);
        }
        if self.brokers[b].replica.is_some() {
            self.resume_replica(b);
        }
        self.start_acting_tasks(b);
        self.resume_dledger_member(b);
    }

    /// Kill (if alive) and start again: new channels, immediate registration.
    pub(super) fn restart_broker(&mut self, b: usize) {
        if matches!(
            self.brokers[b].state,
            BrokerState::Running | BrokerState::Frozen
        ) {
            self.halt(b, BrokerState::Killed);
            self.close_channels(b, RemovalReason::ChannelClosed);
        }
        self.start_broker(b);
    }

    /// A topic created or changed on the broker by an admin: DataVersion bumped, and a registration
    /// at once whose body holds **only that topic** (`registerIncrementBrokerData`). On a 5.x
    /// NameServer that has dropped the broker, that one-topic body meets the single-topic guard.
    pub(super) fn create_topic(&mut self, b: usize, tc: TopicConfig) {
        let broker = &mut self.brokers[b];
        broker.topics.insert(tc.topic_name.clone(), tc.clone());
        broker.topics_changed += 1;
        broker.data_version = DataVersion::new(broker.data_version.counter + 1, self.now as i64);
        if broker.is_up() {
            self.register_body(b, vec![tc]);
        }
    }

    /// `autoCreateTopicEnable` (on by default): a send for a topic the broker lacks creates it from
    /// TBW102 when TBW102 is inheritable — `min(4, TBW102's write queues)` queues, TBW102's perm
    /// without the inherit bit — then registers the full table (`registerBrokerAll`). Returns
    /// whether the topic exists now.
    pub(super) fn auto_create_topic(&mut self, b: usize, topic: &str) -> bool {
        let broker = &mut self.brokers[b];
        let Some(tbw) = broker
            .topics
            .get("TBW102")
            .filter(|t| t.perm & PERM_INHERIT != 0)
        else {
            return false;
        };
        let nums = tbw.write_queue_nums.min(super::DEFAULT_TOPIC_QUEUE_NUMS);
        let tc = TopicConfig::new(topic, nums, nums, tbw.perm & !PERM_INHERIT);
        broker.topics.insert(topic.to_owned(), tc);
        broker.topics_changed += 1;
        broker.data_version = DataVersion::new(broker.data_version.counter + 1, self.now as i64);
        self.register_all(b);
        true
    }
}
