//! `clusterAddrTable` (spec §1.1): clusterName → set of brokerName.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::java_kind::route_table;
use crate::java_order::JavaTable;
use crate::model::{BrokerName, ClusterName};

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
        let removed = crate::tree::remove_from_set(set, broker_name);
        if let Some(order) = self.set_order.get_mut(cluster) {
            order.remove(broker_name);
        }
        if set.is_empty() {
            crate::tree::remove(&mut self.map, cluster);
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
