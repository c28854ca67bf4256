//! The five RouteInfoManager tables (spec §1.1), one type each, with the few operations the rules need.
//! BTreeMaps keep iteration order, route output and event logs identical across runs and targets
//! (Java uses HashMaps; clients sort, and tests compare as sets).

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::model::{
    BrokerAddr, BrokerData, BrokerName, ClusterName, DataVersion, QueueData, TopicName,
};

/// The connection a registration arrived on. The core never touches sockets: the driver names each
/// connection with an id and reports when it closes (`on_channel_destroy`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ChannelId(pub u64);

/// `topicQueueTable`: topic → brokerName → QueueData. A topic with no QueueData left is removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct TopicQueueTable(pub(crate) BTreeMap<TopicName, BTreeMap<BrokerName, QueueData>>);

impl TopicQueueTable {
    /// The QueueData of every group that hosts `topic`.
    pub fn get(&self, topic: &str) -> Option<&BTreeMap<BrokerName, QueueData>> {
        self.0.get(topic)
    }

    /// All topics with their queue data.
    pub fn iter(&self) -> impl Iterator<Item = (&TopicName, &BTreeMap<BrokerName, QueueData>)> {
        self.0.iter()
    }

    /// Number of topics.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when no topic is known.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Topics that have QueueData for `broker_name` (a `&str`, or a `&BrokerName`, whose comparisons
    /// are quicker: see `model::text`).
    pub fn topics_of<B>(&self, broker_name: &B) -> Vec<TopicName>
    where
        BrokerName: Borrow<B>,
        B: Ord + ?Sized,
    {
        self.0
            .iter()
            .filter(|(_, m)| m.contains_key(broker_name))
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Removes `broker_name`'s QueueData from `topic`, dropping the topic when it becomes empty.
    /// Returns the removed QueueData, and whether the topic went with it.
    pub(crate) fn remove_queue(
        &mut self,
        topic: &TopicName,
        broker_name: &BrokerName,
    ) -> Option<(QueueData, bool)> {
        let map = self.0.get_mut(topic)?;
        let removed = map.remove(broker_name)?;
        let emptied = map.is_empty();
        if emptied {
            self.0.remove(topic);
        }
        Some((removed, emptied))
    }

    /// Removes `broker_name`'s QueueData from every topic, dropping topics left empty, in one pass
    /// (one search of each topic's groups). Returns what was removed in topic order, each with
    /// whether its topic went.
    pub(crate) fn remove_group(
        &mut self,
        broker_name: &BrokerName,
    ) -> Vec<(TopicName, QueueData, bool)> {
        let mut removed = Vec::new();
        for (topic, groups) in self.0.iter_mut() {
            if let Some(qd) = groups.remove(broker_name) {
                removed.push((topic.clone(), qd, groups.is_empty()));
            }
        }
        for (topic, _, emptied) in &removed {
            if *emptied {
                self.0.remove(topic);
            }
        }
        removed
    }
}

/// `brokerAddrTable`: brokerName → BrokerData (cluster, name, id → address).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct BrokerAddrTable(pub(crate) BTreeMap<BrokerName, BrokerData>);

impl BrokerAddrTable {
    /// The group named `broker_name`.
    pub fn get(&self, broker_name: &str) -> Option<&BrokerData> {
        self.0.get(broker_name)
    }

    /// All groups.
    pub fn iter(&self) -> impl Iterator<Item = (&BrokerName, &BrokerData)> {
        self.0.iter()
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when no group is known.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `clusterAddrTable`: clusterName → set of brokerName. A cluster with no names left is removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ClusterAddrTable(pub(crate) BTreeMap<ClusterName, BTreeSet<BrokerName>>);

impl ClusterAddrTable {
    /// The broker names of `cluster`.
    pub fn get(&self, cluster: &str) -> Option<&BTreeSet<BrokerName>> {
        self.0.get(cluster)
    }

    /// All clusters.
    pub fn iter(&self) -> impl Iterator<Item = (&ClusterName, &BTreeSet<BrokerName>)> {
        self.0.iter()
    }

    /// Removes `broker_name` from the first cluster (in name order) that holds it, dropping that
    /// cluster when it becomes empty; one search per cluster.
    pub(crate) fn remove_from_first(&mut self, broker_name: &BrokerName) {
        let emptied = self.0.iter_mut().find_map(|(cluster, set)| {
            set.remove(broker_name)
                .then(|| set.is_empty().then(|| cluster.clone()))
        });
        if let Some(Some(cluster)) = emptied {
            self.0.remove(&cluster);
        }
    }

    /// Removes `broker_name` from `cluster`, dropping the cluster when it becomes empty.
    pub(crate) fn remove_name(&mut self, cluster: &ClusterName, broker_name: &BrokerName) -> bool {
        let Some(set) = self.0.get_mut(cluster) else {
            return false;
        };
        let removed = set.remove(broker_name);
        if set.is_empty() {
            self.0.remove(cluster);
        }
        removed
    }
}

/// The key of `brokerLiveTable` and `filterServerTable`. 5.x keys by (cluster, address) so one ip:port
/// in two clusters does not collide; 4.x keys by address only, which we model with an empty cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokerAddrInfo {
    pub cluster_name: ClusterName,
    pub broker_addr: BrokerAddr,
}

/// One live broker (not on the wire): when it last spoke, its timeout, the DataVersion of its last
/// registration, the channel it registered on and its HA address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokerLiveInfo {
    /// ms of the last register, heartbeat or refreshing QUERY_DATA_VERSION.
    pub last_update_timestamp: u64,
    /// 5.x: from the register header, else 120 000. 4.x: always 120 000.
    pub heartbeat_timeout_millis: u64,
    pub data_version: DataVersion,
    pub channel: ChannelId,
    pub ha_server_addr: String,
}

impl BrokerLiveInfo {
    /// The scan's test (spec §2.4): expired when `last + timeout < now`.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.deadline() < now_ms
    }

    /// `lastUpdateTimestamp + timeout`: the last instant at which the broker is not yet expired.
    pub fn deadline(&self) -> u64 {
        self.last_update_timestamp
            .saturating_add(self.heartbeat_timeout_millis)
    }
}

/// A row of [`BrokerLiveTable`] as shown to users: the key flattened into the entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokerLiveRow<'a> {
    #[serde(skip_serializing_if = "str::is_empty")]
    pub cluster_name: &'a str,
    pub broker_addr: &'a str,
    #[serde(flatten)]
    pub info: &'a BrokerLiveInfo,
}

/// `brokerLiveTable`: live broker → BrokerLiveInfo. Serializes as a list of rows because its key is a
/// pair in 5.x.
///
/// Beside the map it keeps the entries ordered by deadline (`last + timeout`), so that the expiry
/// scan, which runs every few seconds, costs O(1) while nothing has expired (`deadline_floor`, the
/// earliest deadline, is one comparison) and visits only the expired entries when some have, instead
/// of every live broker. Each insertion, heartbeat and removal moves one index entry.
///
/// It also remembers, per broker, the topics of its last 5.x topic update (`FilledTopics`), and
/// forgets them with the broker.
#[derive(Clone, Debug)]
pub struct BrokerLiveTable {
    map: BTreeMap<BrokerAddrInfo, LiveEntry>,
    /// Every entry of `map` by (deadline, its insertion number): integer keys, so that moving an
    /// entry on each heartbeat compares no names (brokers started together share a deadline).
    by_deadline: BTreeMap<(u64, u64), BrokerAddrInfo>,
    /// The insertion number of the next new entry.
    next_seq: u64,
    /// The first deadline of `by_deadline` (u64::MAX when empty), kept beside it for the scan's
    /// one-comparison check.
    deadline_floor: u64,
    filled: BTreeMap<BrokerAddrInfo, FilledTopics>,
}

/// An entry of [`BrokerLiveTable`] with its insertion number, its tie-breaker in the deadline index.
#[derive(Clone, Debug)]
struct LiveEntry {
    info: BrokerLiveInfo,
    seq: u64,
}

impl LiveEntry {
    fn index_key(&self) -> (u64, u64) {
        (self.info.deadline(), self.seq)
    }
}

/// The topics a broker's last 5.x registration carried, every one of which had QueueData of its
/// group afterwards, and the manager's count of QueueData removals at that moment. While no QueueData
/// has been removed since and a heartbeat carries the same topics, none can be missing, so the
/// heartbeat need not look each one up in topicQueueTable.
#[derive(Clone, Debug)]
pub(crate) struct FilledTopics {
    pub broker_name: BrokerName,
    pub removals: u64,
    pub topics: Vec<String>,
}

impl Default for BrokerLiveTable {
    fn default() -> Self {
        Self {
            map: BTreeMap::new(),
            by_deadline: BTreeMap::new(),
            next_seq: 0,
            deadline_floor: u64::MAX,
            filled: BTreeMap::new(),
        }
    }
}

/// Two tables are equal when they hold the same entries; the scan bound and the remembered topics
/// are bookkeeping.
impl PartialEq for BrokerLiveTable {
    fn eq(&self, other: &Self) -> bool {
        self.map.len() == other.map.len() && self.iter().eq(other.iter())
    }
}

impl Eq for BrokerLiveTable {}

impl BrokerLiveTable {
    /// The entry of a broker.
    pub fn get(&self, key: &BrokerAddrInfo) -> Option<&BrokerLiveInfo> {
        self.map.get(key).map(|e| &e.info)
    }

    /// All entries.
    pub fn iter(&self) -> impl Iterator<Item = (&BrokerAddrInfo, &BrokerLiveInfo)> {
        self.map.iter().map(|(k, e)| (k, &e.info))
    }

    /// Number of live brokers.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when no broker is live.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The entry registered on `channel`, if any.
    pub fn find_by_channel(&self, channel: ChannelId) -> Option<&BrokerAddrInfo> {
        self.map
            .iter()
            .find(|(_, e)| e.info.channel == channel)
            .map(|(k, _)| k)
    }

    /// True when an entry is expired at `now_ms`.
    pub(crate) fn has_expired(&self, now_ms: u64) -> bool {
        self.deadline_floor < now_ms
    }

    /// The earliest deadline (`last + timeout`) of the entries held, if any.
    pub fn earliest_deadline(&self) -> Option<u64> {
        self.by_deadline.first_key_value().map(|((d, _), _)| *d)
    }

    /// The entries expired at `now_ms` (deadline before it), in key order, as the scan over the
    /// whole map would meet them.
    pub fn expired(&self, now_ms: u64) -> Vec<(&BrokerAddrInfo, &BrokerLiveInfo)> {
        let mut out: Vec<_> = self
            .by_deadline
            .iter()
            .take_while(|((d, _), _)| *d < now_ms)
            .filter_map(|(_, k)| self.map.get_key_value(k))
            .map(|(k, e)| (k, &e.info))
            .collect();
        // Insertion sort: a scan finds few brokers expired at once, and the dashboard's size budget
        // is better spent than on one more instantiation of the library's sort.
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && out[j - 1].0 > out[j].0 {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        out
    }

    /// Adds or replaces an entry.
    pub(crate) fn insert(&mut self, key: BrokerAddrInfo, info: BrokerLiveInfo) {
        let at = (info.deadline(), self.next_seq);
        self.next_seq += 1;
        let entry = LiveEntry { info, seq: at.1 };
        if let Some(old) = self.map.insert(key.clone(), entry) {
            self.by_deadline.remove(&old.index_key());
        }
        self.by_deadline.insert(at, key);
        self.sync_floor();
    }

    /// Removes an entry.
    pub(crate) fn remove(&mut self, key: &BrokerAddrInfo) -> Option<BrokerLiveInfo> {
        self.filled.remove(key);
        let old = self.map.remove(key)?;
        self.by_deadline.remove(&old.index_key());
        self.sync_floor();
        Some(old.info)
    }

    /// What the broker's last 5.x topic update left in place, if remembered.
    pub(crate) fn filled(&self, key: &BrokerAddrInfo) -> Option<&FilledTopics> {
        self.filled.get(key)
    }

    /// Remembers what a 5.x topic update left in place.
    pub(crate) fn set_filled(&mut self, key: BrokerAddrInfo, filled: FilledTopics) {
        self.filled.insert(key, filled);
    }

    /// Sets an entry's `lastUpdateTimestamp`; false when the broker is not live.
    pub(crate) fn touch(&mut self, key: &BrokerAddrInfo, now_ms: u64) -> bool {
        let Some(live) = self.map.get_mut(key) else {
            return false;
        };
        let before = live.index_key();
        live.info.last_update_timestamp = now_ms;
        let after = live.index_key();
        if after != before {
            if let Some(k) = self.by_deadline.remove(&before) {
                self.by_deadline.insert(after, k);
            }
            self.sync_floor();
        }
        true
    }

    fn sync_floor(&mut self) {
        self.deadline_floor = self.earliest_deadline().unwrap_or(u64::MAX);
    }
}

impl Serialize for BrokerLiveTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(|(k, info)| BrokerLiveRow {
            cluster_name: k.cluster_name.as_str(),
            broker_addr: k.broker_addr.as_str(),
            info,
        }))
    }
}

/// `filterServerTable`: live broker → addresses of its (legacy) filter servers. Normally empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterServerTable(pub(crate) BTreeMap<BrokerAddrInfo, Vec<String>>);

impl FilterServerTable {
    /// The filter servers of a broker.
    pub fn get(&self, key: &BrokerAddrInfo) -> Option<&Vec<String>> {
        self.0.get(key)
    }

    /// True when no broker has filter servers.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for FilterServerTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Keyed by address as in RocketMQ's route bodies; the cluster part only disambiguates in 5.x.
        s.collect_map(self.0.iter().map(|(k, v)| (k.broker_addr.as_str(), v)))
    }
}
