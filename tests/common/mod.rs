//! Builders and state snapshots shared by the route-manager test files. Plain Rust only (no clock, no
//! threads, no filesystem) so the files that use it also run under wasm32 with wasm-bindgen-test.
#![allow(dead_code)]

use routelab::model::{
    BrokerData, ClusterInfo, DataVersion, QueueData, TopicConfig, TopicConfigSerializeWrapper,
};
use routelab::namesrv::{
    BrokerAddrInfo, BrokerIdentity, BrokerLiveInfo, BrokerLiveTable, ChannelId, FilterServerTable,
    KvConfig, Profile, RegisterBroker, RouteManager, TopicQueueTable, UnregisterBroker,
};

/// The timestamp every test DataVersion carries (the broker's clock, not the NameServer's `now`).
pub const VERSION_TS: i64 = 1_700_000_000_000;
/// A `now_ms` far from 0 so `now - 120 000` is meaningful.
pub const T0: u64 = 1_000_000;

pub const C1: &str = "DefaultCluster";
pub const C2: &str = "OtherCluster";
pub const BA: &str = "broker-a";
pub const BB: &str = "broker-b";
pub const BC: &str = "broker-c";
pub const A_MASTER: &str = "10.0.0.1:10911";
pub const A_SLAVE: &str = "10.0.0.2:10911";
pub const A_SLAVE2: &str = "10.0.0.3:10911";
pub const B_MASTER: &str = "10.0.1.1:10911";
pub const B_SLAVE: &str = "10.0.1.2:10911";
pub const C_MASTER: &str = "10.0.2.1:10911";

/// A topic with 8 read and 8 write queues and the given perm.
pub fn tc(topic: &str, perm: i32) -> TopicConfig {
    TopicConfig::new(topic, 8, 8, perm)
}

/// The DataVersion a broker sends: `counter` at [`VERSION_TS`], no stateVersion.
pub fn version(counter: i64) -> DataVersion {
    DataVersion::new(counter, VERSION_TS)
}

/// Like [`version`] with a 5.x stateVersion.
pub fn state_version(counter: i64, state: i64) -> DataVersion {
    DataVersion {
        state_version: Some(state),
        ..version(counter)
    }
}

/// A registration of broker `id` of group `name` at `addr` whose body holds `topics` (read/write 8,
/// perm 6) under DataVersion `counter`.
pub fn broker(
    cluster: &str,
    name: &str,
    id: i64,
    addr: &str,
    counter: i64,
    topics: &[&str],
) -> RegisterBroker {
    broker_with(
        cluster,
        name,
        id,
        addr,
        version(counter),
        topics.iter().map(|t| tc(t, 6)).collect(),
    )
}

/// A registration with explicit DataVersion and topic configs.
pub fn broker_with(
    cluster: &str,
    name: &str,
    id: i64,
    addr: &str,
    data_version: DataVersion,
    topics: Vec<TopicConfig>,
) -> RegisterBroker {
    RegisterBroker::new(
        cluster,
        name,
        id,
        addr,
        TopicConfigSerializeWrapper::new(data_version, topics),
    )
}

/// A master (id 0) registration; see [`broker`].
pub fn master(
    cluster: &str,
    name: &str,
    addr: &str,
    counter: i64,
    topics: &[&str],
) -> RegisterBroker {
    broker(cluster, name, 0, addr, counter, topics)
}

/// The same registration arriving on `channel`.
pub fn on_channel(req: RegisterBroker, channel: u64) -> RegisterBroker {
    RegisterBroker {
        channel: ChannelId(channel),
        ..req
    }
}

/// A 5.x "new version" broker: the header `enableActingMaster` is present.
pub fn acting(req: RegisterBroker, enable_acting_master: bool) -> RegisterBroker {
    RegisterBroker {
        enable_acting_master: Some(enable_acting_master),
        ..req
    }
}

/// The identity header of BROKER_HEARTBEAT / QUERY_DATA_VERSION.
pub fn identity(cluster: &str, name: &str, id: i64, addr: &str) -> BrokerIdentity {
    BrokerIdentity {
        cluster_name: cluster.into(),
        broker_addr: addr.into(),
        broker_name: name.into(),
        broker_id: id,
    }
}

/// An UNREGISTER_BROKER request.
pub fn unregister(cluster: &str, name: &str, id: i64, addr: &str) -> UnregisterBroker {
    UnregisterBroker::new(cluster, name, id, addr)
}

/// An empty manager of `profile` with the default config.
pub fn manager(profile: Profile) -> RouteManager {
    RouteManager::new(profile)
}

/// Registers and asserts success.
pub fn reg(rm: &mut RouteManager, now_ms: u64, req: &RegisterBroker) {
    if let Err(e) = rm.register_broker(now_ms, req) {
        panic!("registration of {} failed: {e}", req.broker_addr);
    }
}

/// The QueueData of `topic` on group `name`, if any.
pub fn qd(rm: &RouteManager, topic: &str, name: &str) -> Option<QueueData> {
    rm.topic_queue_table()
        .get(topic)
        .and_then(|m| m.get(name))
        .cloned()
}

/// The perm of `topic` on group `name` (panics if absent).
pub fn perm(rm: &RouteManager, topic: &str, name: &str) -> i32 {
    qd(rm, topic, name)
        .unwrap_or_else(|| panic!("no QueueData for {topic} on {name}"))
        .perm
}

/// The group `name`, if any.
pub fn group(rm: &RouteManager, name: &str) -> Option<BrokerData> {
    rm.broker_addr_table().get(name).cloned()
}

/// The id → address map of group `name` as `(id, addr)` pairs (empty when the group is absent).
pub fn members(rm: &RouteManager, name: &str) -> Vec<(i64, String)> {
    group(rm, name)
        .map(|g| {
            g.broker_addrs
                .iter()
                .map(|(k, v)| (*k, v.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The broker names of `cluster` (empty when the cluster is absent).
pub fn cluster_names(rm: &RouteManager, cluster: &str) -> Vec<String> {
    rm.cluster_addr_table()
        .get(cluster)
        .map(|s| s.iter().map(|n| n.to_string()).collect())
        .unwrap_or_default()
}

/// The live entry of a broker under this manager's profile.
pub fn live<'a>(rm: &'a RouteManager, cluster: &str, addr: &str) -> Option<&'a BrokerLiveInfo> {
    let key: BrokerAddrInfo = rm.live_key(&cluster.into(), &addr.into());
    rm.broker_live_table().get(&key)
}

/// The sorted topic names of the topic table.
pub fn topics(rm: &RouteManager) -> Vec<String> {
    rm.topic_queue_table()
        .iter()
        .map(|(t, _)| t.to_string())
        .collect()
}

/// Everything a request could change: the four tables, the KV store and the unregister queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub cluster_info: ClusterInfo,
    pub topic_queue_table: TopicQueueTable,
    pub broker_live_table: BrokerLiveTable,
    pub filter_server_table: FilterServerTable,
    pub kv: KvConfig,
    pub pending: Vec<UnregisterBroker>,
}

/// The whole observable state of `rm`.
pub fn snapshot(rm: &RouteManager) -> Snapshot {
    Snapshot {
        cluster_info: rm.get_all_cluster_info(),
        topic_queue_table: rm.topic_queue_table().clone(),
        broker_live_table: rm.broker_live_table().clone(),
        filter_server_table: rm.filter_server_table().clone(),
        kv: rm.kv().clone(),
        pending: rm.pending_unregistrations().cloned().collect(),
    }
}

/// Both profiles, for tests whose rule is shared.
pub const PROFILES: [Profile; 2] = [Profile::V4, Profile::V5];
