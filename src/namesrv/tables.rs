//! The RouteInfoManager tables (spec §1.1), one type each, with the few operations the rules need.
//!
//! Each keeps its entries in BTreeMaps — lookups, the dashboard and the tests see them in name order,
//! identically on every run and target — and, beside them, the keys as Java's own tables would hold
//! them ([`JavaTable`]): a HashMap under the 4.x profile, a ConcurrentHashMap under 5.x, of
//! RocketMQ's initial capacities. Wherever RocketMQ's iteration order leaves the NameServer (a
//! body, which entry a scan meets first, the order of removals) the route manager walks those.
//! Every structural change goes through these methods so that both stay in step.

use std::borrow::Borrow;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::java_order::{JavaKey, JavaTable};
use crate::model::{BrokerAddr, BrokerData, BrokerName, ClusterName, QueueData, TopicName};
use crate::shared::Shared;

pub use super::live_table::{BrokerAddrInfo, BrokerLiveInfo, BrokerLiveTable};
pub(crate) use super::live_table::{FilledTopics, WrittenQueue};

/// The connection a registration arrived on. The core never touches sockets: the driver names each
/// connection with an id and reports when it closes (`on_channel_destroy`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ChannelId(pub u64);

/// A route table of RocketMQ's: `new HashMap<>(capacity)` in 4.9.8, `new ConcurrentHashMap<>(capacity)`
/// in 5.x.
pub(crate) fn route_table<K: JavaKey>(v5: bool, capacity: usize) -> JavaTable<K> {
    if v5 {
        JavaTable::concurrent_with_capacity(capacity)
    } else {
        JavaTable::hash_map_with_capacity(capacity)
    }
}

/// `topicQueueTable`: topic → brokerName → QueueData. A topic with no QueueData left is removed.
///
/// Java order: the topics as `HashMap(1024)` / `ConcurrentHashMap(1024)` keys, each topic's groups
/// as the keys of its own `new HashMap<>()` (both profiles).
#[derive(Clone, Debug)]
pub struct TopicQueueTable {
    /// Each topic's groups are shared with the snapshots of time travel until changed, so a change
    /// to a few topics copies those topics and the map's entries, not every topic's data.
    map: BTreeMap<TopicName, Shared<TopicGroups>>,
    order: JavaTable<TopicName>,
}

/// One topic's QueueData by group, and the groups as the topic's Java map holds them.
#[derive(Clone, Debug)]
struct TopicGroups {
    queues: BTreeMap<BrokerName, QueueData>,
    order: JavaTable<BrokerName>,
}

impl Default for TopicQueueTable {
    fn default() -> Self {
        Self::new(false)
    }
}

/// Two tables are equal when they hold the same entries (in whatever order Java would hold them).
impl PartialEq for TopicQueueTable {
    fn eq(&self, other: &Self) -> bool {
        self.map.len() == other.map.len() && self.iter().eq(other.iter())
    }
}

impl Eq for TopicQueueTable {}

impl Serialize for TopicQueueTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

/// What [`TopicQueueTable::put`] did.
pub(crate) enum Put {
    /// The same QueueData was there.
    Unchanged,
    /// Stored; the one it replaced, if any.
    Stored(Option<QueueData>),
}

impl TopicQueueTable {
    /// An empty table of the profile's Java kind (`v5`: ConcurrentHashMap).
    pub fn new(v5: bool) -> Self {
        Self {
            map: BTreeMap::new(),
            order: route_table(v5, 1024),
        }
    }

    /// The QueueData of every group that hosts `topic`.
    pub fn get(&self, topic: &str) -> Option<&BTreeMap<BrokerName, QueueData>> {
        self.map.get(topic).map(|g| &g.queues)
    }

    /// All topics with their queue data, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&TopicName, &BTreeMap<BrokerName, QueueData>)> {
        self.map.iter().map(|(t, g)| (t, &g.queues))
    }

    /// The topics in the order RocketMQ's table iterates them.
    pub fn java_topics(&self) -> impl Iterator<Item = &TopicName> {
        self.order.iter()
    }

    /// `topic`'s QueueData in the order of its `HashMap` (`queueDataMap.values()`).
    pub fn java_queue_datas(&self, topic: &str) -> Vec<&QueueData> {
        let Some(g) = self.map.get(topic) else {
            return Vec::new();
        };
        g.order
            .iter()
            .filter_map(|name| g.queues.get(name))
            .collect()
    }

    /// `topic`'s group names as its `HashMap`'s keys.
    pub(crate) fn java_group_order(&self, topic: &str) -> Option<&JavaTable<BrokerName>> {
        self.map.get(topic).map(|g| &g.order)
    }

    /// Number of topics.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when no topic is known.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Topics that have QueueData for `broker_name` (a `&str`, or a `&BrokerName`, whose comparisons
    /// are quicker: see `model::text`), in name order.
    pub fn topics_of<B>(&self, broker_name: &B) -> Vec<TopicName>
    where
        BrokerName: Borrow<B>,
        B: Ord + ?Sized,
    {
        self.map
            .iter()
            .filter(|(_, g)| g.queues.contains_key(broker_name))
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Topics that have QueueData for `broker_name`, in Java's order.
    pub(crate) fn java_topics_of(&self, broker_name: &BrokerName) -> Vec<TopicName> {
        self.order.in_order(self.topics_of(broker_name), |t| t)
    }

    /// Stores `qd` as `topic`'s QueueData for its group (`queueDataMap.put`; a new topic gets a new
    /// map first).
    pub(crate) fn put(&mut self, topic: &TopicName, qd: QueueData) -> Put {
        let Self { map, order } = self;
        let groups = match map.entry(topic.clone()) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                order.insert(topic.clone());
                v.insert(Shared::new(TopicGroups {
                    queues: BTreeMap::new(),
                    order: JavaTable::hash_map(),
                }))
            }
        };
        // Looked at before writing: a shared topic is copied only when it changes.
        if groups.queues.get(&qd.broker_name) == Some(&qd) {
            return Put::Unchanged;
        }
        let groups = &mut **groups;
        match groups.queues.get_mut(&qd.broker_name) {
            Some(old) if *old == qd => Put::Unchanged,
            Some(old) => Put::Stored(Some(std::mem::replace(old, qd))),
            None => {
                groups.order.insert(qd.broker_name.clone());
                groups.queues.insert(qd.broker_name.clone(), qd);
                Put::Stored(None)
            }
        }
    }

    /// The QueueData of `broker_name` in `topic`, to change in place (its perm).
    pub(crate) fn queue_mut(&mut self, topic: &str, broker_name: &str) -> Option<&mut QueueData> {
        self.map.get_mut(topic)?.queues.get_mut(broker_name)
    }

    /// Removes `broker_name`'s QueueData from `topic`, dropping the topic when it becomes empty.
    /// Returns the removed QueueData, and whether the topic went with it.
    pub(crate) fn remove_queue(
        &mut self,
        topic: &TopicName,
        broker_name: &BrokerName,
    ) -> Option<(QueueData, bool)> {
        let groups = self.map.get_mut(topic)?;
        if !groups.queues.contains_key(broker_name) {
            return None;
        }
        let groups = &mut **groups;
        let removed = groups.queues.remove(broker_name)?;
        groups.order.remove(broker_name);
        let emptied = groups.queues.is_empty();
        if emptied {
            self.map.remove(topic);
            self.order.remove(topic);
        }
        Some((removed, emptied))
    }

    /// The topics with QueueData of a group in `broker_names`, for [`TopicQueueTable::remove_groups`].
    pub(crate) fn hosting(&self, broker_names: &[BrokerName]) -> Vec<TopicName> {
        if broker_names.is_empty() {
            return Vec::new();
        }
        self.map
            .iter()
            .filter(|(_, g)| broker_names.iter().any(|n| g.queues.contains_key(n)))
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Removes the QueueData of every group in `broker_names` from the topics in `hosting`,
    /// dropping topics left empty, topic by topic in Java's order (as `topicQueueTable.forEach`
    /// and 5.x's batch cleanup walk them), each topic's groups in `broker_names`' order. Returns
    /// what was removed, in that order, each with whether its topic went.
    ///
    /// `hosting` is what [`TopicQueueTable::hosting`] found: looking is apart from removing so that
    /// a table shared with snapshots is not copied when there is nothing to remove.
    pub(crate) fn remove_groups(
        &mut self,
        broker_names: &[BrokerName],
        hosting: Vec<TopicName>,
    ) -> Vec<(TopicName, QueueData, bool)> {
        let mut removed = Vec::new();
        for topic in self.order.in_order(hosting, |t| t) {
            for name in broker_names {
                if let Some((qd, emptied)) = self.remove_queue(&topic, name) {
                    removed.push((topic.clone(), qd, emptied));
                }
            }
        }
        removed
    }
}

/// `brokerAddrTable`: brokerName → BrokerData (cluster, name, id → address).
///
/// Java order: the groups as `HashMap(128)` / `ConcurrentHashMap(128)` keys; each group's ids as the
/// keys of its `brokerAddrs`, a `HashMap<Long, String>` in both profiles.
#[derive(Clone, Debug)]
pub struct BrokerAddrTable {
    map: BTreeMap<BrokerName, BrokerData>,
    order: JavaTable<BrokerName>,
    id_order: BTreeMap<BrokerName, JavaTable<i64>>,
}

impl Default for BrokerAddrTable {
    fn default() -> Self {
        Self::new(false)
    }
}

impl PartialEq for BrokerAddrTable {
    fn eq(&self, other: &Self) -> bool {
        self.map == other.map
    }
}

impl Eq for BrokerAddrTable {}

impl Serialize for BrokerAddrTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

impl BrokerAddrTable {
    /// An empty table of the profile's Java kind.
    pub fn new(v5: bool) -> Self {
        Self {
            map: BTreeMap::new(),
            order: route_table(v5, 128),
            id_order: BTreeMap::new(),
        }
    }

    /// The groups by name.
    pub fn as_map(&self) -> &BTreeMap<BrokerName, BrokerData> {
        &self.map
    }

    /// The group named `broker_name`.
    pub fn get(&self, broker_name: &str) -> Option<&BrokerData> {
        self.map.get(broker_name)
    }

    /// All groups, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&BrokerName, &BrokerData)> {
        self.map.iter()
    }

    /// All groups in the order RocketMQ's table iterates them.
    pub fn java_iter(&self) -> impl Iterator<Item = &BrokerData> {
        self.order.iter().filter_map(|n| self.map.get(n))
    }

    /// The ids of `broker_name`'s `brokerAddrs` map, as Java holds them.
    pub(crate) fn java_ids(&self, broker_name: &str) -> Option<&JavaTable<i64>> {
        self.id_order.get(broker_name)
    }

    /// A group's (id, address) pairs in its `brokerAddrs` map's order.
    pub fn java_addrs(&self, broker_name: &str) -> Vec<(i64, &BrokerAddr)> {
        let (Some(g), Some(ids)) = (self.map.get(broker_name), self.id_order.get(broker_name))
        else {
            return Vec::new();
        };
        ids.iter()
            .filter_map(|id| g.broker_addrs.get(id).map(|a| (*id, a)))
            .collect()
    }

    /// The first group in Java's order holding `addr` (only groups of `cluster`, when given), and
    /// the first of its ids, in its map's order, with that address: what `onChannelDestroy` (4.9.8)
    /// and `setupUnRegisterRequest` (5.x) walk the tables for. Looks at each group once and orders
    /// only the few that hold the address.
    pub(crate) fn java_first_holding(
        &self,
        addr: &BrokerAddr,
        cluster: Option<&ClusterName>,
    ) -> Option<(BrokerName, ClusterName, i64)> {
        let holding: Vec<&BrokerName> = self
            .map
            .iter()
            .filter(|(_, g)| cluster.is_none_or(|c| g.cluster == *c))
            .filter(|(_, g)| g.broker_addrs.values().any(|a| a == addr))
            .map(|(n, _)| n)
            .collect();
        let first = match holding.len() {
            0 => return None,
            1 => holding[0],
            _ => self.order.in_order(holding, |n| n)[0],
        };
        let group = self.map.get(first)?;
        let (id, _) = self
            .java_addrs(first.as_str())
            .into_iter()
            .find(|(_, a)| *a == addr)?;
        Some((first.clone(), group.cluster.clone(), id))
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when no group is known.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The group, created empty (`new BrokerData(cluster, name, new HashMap<>())`) when absent;
    /// true when it was created.
    pub(crate) fn get_or_create(
        &mut self,
        cluster: &ClusterName,
        broker_name: &BrokerName,
    ) -> (&mut BrokerData, bool) {
        let created = !self.map.contains_key(broker_name);
        if created {
            self.order.insert(broker_name.clone());
            self.id_order
                .insert(broker_name.clone(), JavaTable::hash_map());
        }
        let group = self
            .map
            .entry(broker_name.clone())
            .or_insert_with(|| BrokerData::new(cluster.clone(), broker_name.clone()));
        (group, created)
    }

    /// `brokerAddrs.put(id, addr)` in an existing group; the address it replaced.
    pub(crate) fn insert_addr(
        &mut self,
        broker_name: &BrokerName,
        id: i64,
        addr: BrokerAddr,
    ) -> Option<BrokerAddr> {
        let group = self.map.get_mut(broker_name)?;
        if let Some(ids) = self.id_order.get_mut(broker_name) {
            ids.insert(id);
        }
        group.broker_addrs.insert(id, addr)
    }

    /// `brokerAddrs.remove(id)`; `while_iterating` for an iterator's `remove()` (see
    /// [`JavaTable::remove_while_iterating`]). Returns the address removed.
    pub(crate) fn remove_addr(
        &mut self,
        broker_name: &BrokerName,
        id: i64,
        while_iterating: bool,
    ) -> Option<BrokerAddr> {
        let removed = self.map.get_mut(broker_name)?.broker_addrs.remove(&id)?;
        if let Some(ids) = self.id_order.get_mut(broker_name) {
            if while_iterating {
                ids.remove_while_iterating(&id);
            } else {
                ids.remove(&id);
            }
        }
        Some(removed)
    }

    /// Removes a group; `while_iterating` as for [`Self::remove_addr`].
    pub(crate) fn remove_group(&mut self, broker_name: &BrokerName, while_iterating: bool) {
        if self.map.remove(broker_name).is_some() {
            self.id_order.remove(broker_name);
            if while_iterating {
                self.order.remove_while_iterating(broker_name);
            } else {
                self.order.remove(broker_name);
            }
        }
    }
}

/// `clusterAddrTable`: clusterName → set of brokerName. A cluster with no names left is removed.
///
/// Java order: the clusters as `HashMap(32)` keys filled by `computeIfAbsent` (4.9.8, which puts a
/// new key first in its bucket) or `ConcurrentHashMap(32)` keys (5.x); each set a `new HashSet<>()`.
#[derive(Clone, Debug)]
pub struct ClusterAddrTable {
    map: BTreeMap<ClusterName, BTreeSet<BrokerName>>,
    order: JavaTable<ClusterName>,
    set_order: BTreeMap<ClusterName, JavaTable<BrokerName>>,
}

impl Default for ClusterAddrTable {
    fn default() -> Self {
        Self::new(false)
    }
}

impl PartialEq for ClusterAddrTable {
    fn eq(&self, other: &Self) -> bool {
        self.map == other.map
    }
}

impl Eq for ClusterAddrTable {}

impl Serialize for ClusterAddrTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

impl ClusterAddrTable {
    /// An empty table of the profile's Java kind.
    pub fn new(v5: bool) -> Self {
        Self {
            map: BTreeMap::new(),
            order: route_table(v5, 32),
            set_order: BTreeMap::new(),
        }
    }

    /// The clusters by name.
    pub fn as_map(&self) -> &BTreeMap<ClusterName, BTreeSet<BrokerName>> {
        &self.map
    }

    /// The broker names of `cluster`.
    pub fn get(&self, cluster: &str) -> Option<&BTreeSet<BrokerName>> {
        self.map.get(cluster)
    }

    /// All clusters, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&ClusterName, &BTreeSet<BrokerName>)> {
        self.map.iter()
    }

    /// The clusters in the order RocketMQ's table iterates them.
    pub fn java_clusters(&self) -> impl Iterator<Item = &ClusterName> {
        self.order.iter()
    }

    /// `cluster`'s broker names in its `HashSet`'s order.
    pub fn java_names(&self, cluster: &str) -> Vec<&BrokerName> {
        self.set_order
            .get(cluster)
            .map(|s| s.iter().collect())
            .unwrap_or_default()
    }

    /// Step 1 of a registration: `clusterAddrTable.computeIfAbsent(cluster, new HashSet).add(name)`.
    pub(crate) fn add(&mut self, cluster: &ClusterName, broker_name: &BrokerName) {
        // Java calls computeIfAbsent on every registration, and a 4.9.8 HashMap may grow then.
        self.order.compute_if_absent(cluster.clone());
        let set_order = self
            .set_order
            .entry(cluster.clone())
            .or_insert_with(JavaTable::hash_map);
        set_order.insert(broker_name.clone());
        self.map
            .entry(cluster.clone())
            .or_default()
            .insert(broker_name.clone());
    }

    /// Removes `broker_name` from the first cluster (in Java's order) whose set holds it, dropping
    /// that cluster when it becomes empty (4.x `onChannelDestroy`, through an iterator).
    pub(crate) fn remove_from_first(&mut self, broker_name: &BrokerName) {
        let first = self
            .order
            .iter()
            .find(|c| self.map.get(*c).is_some_and(|s| s.contains(broker_name)))
            .cloned();
        if let Some(cluster) = first {
            self.remove_name_as(&cluster, broker_name, true);
        }
    }

    /// Removes `broker_name` from `cluster`, dropping the cluster when it becomes empty.
    pub(crate) fn remove_name(&mut self, cluster: &ClusterName, broker_name: &BrokerName) -> bool {
        self.remove_name_as(cluster, broker_name, false)
    }

    fn remove_name_as(
        &mut self,
        cluster: &ClusterName,
        broker_name: &BrokerName,
        while_iterating: bool,
    ) -> bool {
        let Some(set) = self.map.get_mut(cluster) else {
            return false;
        };
        let removed = set.remove(broker_name);
        if let Some(order) = self.set_order.get_mut(cluster) {
            order.remove(broker_name);
        }
        if set.is_empty() {
            self.map.remove(cluster);
            self.set_order.remove(cluster);
            if while_iterating {
                self.order.remove_while_iterating(cluster);
            } else {
                self.order.remove(cluster);
            }
        }
        removed
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
