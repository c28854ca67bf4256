//! `brokerAddrTable` (spec §1.1): brokerName → BrokerData.

use std::collections::BTreeMap;

use serde::Serialize;

use super::java_kind::route_table;
use crate::java_order::JavaTable;
use crate::model::{BrokerAddr, BrokerData, BrokerName, ClusterName};

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
        let removed = crate::tree::remove(&mut self.map.get_mut(broker_name)?.broker_addrs, &id)?;
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
