//! `brokerLiveTable` (spec §1.1, §2.4): who is live, since when, on which channel — with the deadline
//! index the expiry scan runs on, and the keys in Java's order for everything the scan and the
//! channel events must meet in RocketMQ's order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::java_kind::route_table;
use crate::java_order::{
    string_compare, string_hash, string_hash_from, JavaKey, JavaTable, TableKind,
};
use crate::model::{BrokerAddr, BrokerName, ClusterName, DataVersion};

/// The connection a registration arrived on (kept in [`BrokerLiveInfo::channel`]). The core never touches sockets: the driver names each
/// connection with an id and reports when it closes (`on_channel_destroy`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ChannelId(pub u64);

/// The key of `brokerLiveTable` and `filterServerTable`. 5.x keys by (cluster, address) so one ip:port
/// in two clusters does not collide; 4.x keys by address only, which we model with an empty cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokerAddrInfo {
    pub cluster_name: ClusterName,
    pub broker_addr: BrokerAddr,
}

/// As the Java key it stands for: under 4.x (no cluster) the address `String`; under 5.x
/// `BrokerAddrInfo`, whose `hashCode` is that of `cluster + "_" + addr` (0 when both are empty) and
/// which is not `Comparable`.
impl JavaKey for BrokerAddrInfo {
    fn hash_code(&self) -> i32 {
        let (cluster, addr) = (self.cluster_name.as_str(), self.broker_addr.as_str());
        if cluster.is_empty() {
            return string_hash(addr);
        }
        string_hash_from(string_hash_from(string_hash(cluster), "_"), addr)
    }
    fn compare_to(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.cluster_name
            .as_str()
            .is_empty()
            .then(|| string_compare(self.broker_addr.as_str(), other.broker_addr.as_str()))
    }
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
    /// Shared with the snapshots of time travel until changed: it changes only with topics.
    filled: crate::shared::Shared<BTreeMap<BrokerAddrInfo, FilledTopics>>,
    /// The keys as RocketMQ's `HashMap(256)` (4.x) / `ConcurrentHashMap(256)` (5.x) holds them.
    order: JavaTable<BrokerAddrInfo>,
    /// The channel of every entry, sorted (a channel carrying two brokers is there twice). Every
    /// connection that closes is looked up here, and most carried no registration (a client, a
    /// probe, garbage): they cost a binary search instead of a walk of every live broker under the
    /// route manager's lock. A sorted `Vec` rather than a map: the workshop's bundle carries this
    /// table too, and a map of a new type would add its code.
    channels: Vec<ChannelId>,
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
    /// `RouteManager::queue_writes` when the update was done.
    pub writes: u64,
    /// Shared, not copied, by the snapshots of time travel (a big cluster's brokers carry 200
    /// topics each).
    pub topics: std::sync::Arc<[String]>,
    /// What each topic's QueueData was written with (`WrittenQueue`), in `topics`' order.
    pub queues: std::sync::Arc<[WrittenQueue]>,
}

/// The numbers a registration writes into a topic's QueueData: read and write queue counts, perm
/// (as written: a prime slave's without write), topicSysFlag.
pub(crate) type WrittenQueue = [i32; 4];

impl Default for BrokerLiveTable {
    fn default() -> Self {
        Self::new(false)
    }
}

impl BrokerLiveTable {
    /// An empty table of the profile's Java kind.
    pub fn new(v5: bool) -> Self {
        Self {
            map: BTreeMap::new(),
            by_deadline: BTreeMap::new(),
            next_seq: 0,
            deadline_floor: u64::MAX,
            filled: Default::default(),
            order: route_table(v5, 256),
            channels: Vec::new(),
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

    /// All entries in the order RocketMQ's table iterates them.
    pub fn java_iter(&self) -> impl Iterator<Item = (&BrokerAddrInfo, &BrokerLiveInfo)> {
        self.order
            .iter()
            .filter_map(|k| self.map.get_key_value(k).map(|(k, e)| (k, &e.info)))
    }

    /// All entries, in key order.
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

    /// The entry registered on `channel`, if any: when several brokers share one connection, the
    /// first in Java's order, as `onChannelDestroy`'s walk of the table meets them.
    pub fn find_by_channel(&self, channel: ChannelId) -> Option<&BrokerAddrInfo> {
        if self.channels.binary_search(&channel).is_err() {
            return None;
        }
        self.java_iter()
            .find(|(_, info)| info.channel == channel)
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

    /// The entries expired at `now_ms` (deadline before it), in Java's order, as the scan over the
    /// whole map meets them.
    pub fn expired(&self, now_ms: u64) -> Vec<(&BrokerAddrInfo, &BrokerLiveInfo)> {
        // The few expired entries from the deadline index, then put in Java's order.
        let expired: Vec<(&BrokerAddrInfo, &BrokerLiveInfo)> = self
            .by_deadline
            .range(..(now_ms, 0))
            .filter_map(|(_, k)| self.map.get_key_value(k))
            .map(|(k, e)| (k, &e.info))
            .collect();
        if expired.len() < 2 {
            return expired;
        }
        self.order.in_order(expired, |(k, _)| *k)
    }

    /// Adds or replaces an entry.
    pub(crate) fn insert(&mut self, key: BrokerAddrInfo, info: BrokerLiveInfo) {
        let at = (info.deadline(), self.next_seq);
        self.next_seq += 1;
        let slot = self.channels.partition_point(|c| *c < info.channel);
        self.channels.insert(slot, info.channel);
        let entry = LiveEntry { info, seq: at.1 };
        match self.map.insert(key.clone(), entry) {
            Some(old) => {
                self.forget_channel(old.info.channel);
                self.by_deadline.remove(&old.index_key());
                if self.order.kind() == TableKind::ConcurrentHashMap {
                    // A 5.x `put` of a key held still walks its bucket (and may treeify it).
                    self.order.insert(key.clone());
                }
            }
            None => {
                self.order.insert(key.clone());
            }
        }
        self.by_deadline.insert(at, key);
        self.sync_floor();
    }

    /// Removes an entry (`remove(key)`).
    pub(crate) fn remove(&mut self, key: &BrokerAddrInfo) -> Option<BrokerLiveInfo> {
        self.remove_as(key, false)
    }

    /// Removes an entry through the scan's iterator (`it.remove()`, see
    /// [`JavaTable::remove_while_iterating`]).
    pub(crate) fn remove_while_scanning(&mut self, key: &BrokerAddrInfo) -> Option<BrokerLiveInfo> {
        self.remove_as(key, true)
    }

    fn remove_as(&mut self, key: &BrokerAddrInfo, while_iterating: bool) -> Option<BrokerLiveInfo> {
        if self.filled.contains_key(key) {
            self.filled.remove(key);
        }
        let old = self.map.remove(key)?;
        if while_iterating {
            self.order.remove_while_iterating(key);
        } else {
            self.order.remove(key);
        }
        self.by_deadline.remove(&old.index_key());
        self.forget_channel(old.info.channel);
        self.sync_floor();
        Some(old.info)
    }

    /// One entry fewer on `channel`.
    fn forget_channel(&mut self, channel: ChannelId) {
        if let Ok(at) = self.channels.binary_search(&channel) {
            self.channels.remove(at);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn live(channel: u64) -> BrokerLiveInfo {
        BrokerLiveInfo {
            last_update_timestamp: 0,
            heartbeat_timeout_millis: 120_000,
            data_version: DataVersion::default(),
            channel: ChannelId(channel),
            ha_server_addr: String::new(),
        }
    }

    fn key(addr: &str) -> BrokerAddrInfo {
        BrokerAddrInfo {
            cluster_name: "C".into(),
            broker_addr: addr.into(),
        }
    }

    /// The channel index follows every insert, replacement and removal: a channel is found while
    /// an entry carries it, and only then.
    #[test]
    fn a_channel_is_found_while_an_entry_carries_it() {
        let mut t = BrokerLiveTable::new(true);
        t.insert(key("a:1"), live(1));
        t.insert(key("b:1"), live(1));
        assert_eq!(t.find_by_channel(ChannelId(2)), None);
        assert!(t.find_by_channel(ChannelId(1)).is_some());
        // a re-registers on another connection: channel 1 still carries b.
        t.insert(key("a:1"), live(2));
        assert_eq!(t.find_by_channel(ChannelId(1)), Some(&key("b:1")));
        assert_eq!(t.find_by_channel(ChannelId(2)), Some(&key("a:1")));
        t.remove(&key("b:1"));
        assert_eq!(t.find_by_channel(ChannelId(1)), None);
        t.remove_while_scanning(&key("a:1"));
        assert_eq!(t.find_by_channel(ChannelId(2)), None);
        assert!(t.channels.is_empty());
    }
}
