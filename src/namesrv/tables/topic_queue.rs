//! `topicQueueTable` (spec §1.1): topic → brokerName → QueueData.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use serde::Serialize;

use super::java_kind::route_table;
use crate::java_order::JavaTable;
use crate::model::{BrokerName, QueueData, TopicName};
use crate::shared::Shared;

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
