//! Step 5 of REGISTER_BROKER: the body's topic configs into topicQueueTable (spec §2.1, §2.2), from
//! the master (or, in 5.x, the prime slave) only: which topics a registration writes, in Java's
//! order, and what it remembers so that the next heartbeat need not look again.

use std::collections::{BTreeMap, BTreeSet};

use crate::java_order::{order_of, JavaTable};
use crate::model::perm::PERM_WRITE;
use crate::model::text::same_text;
use crate::model::{BrokerName, QueueData, TopicConfig, TopicName};
use crate::namesrv::event::TopicRemovalReason;
use crate::namesrv::request::RegisterBroker;
use crate::namesrv::tables::{BrokerAddrInfo, FilledTopics, WrittenQueue};
use crate::namesrv::RouteManager;

/// The body's topics that `keep` accepts, in the order RocketMQ walks them: its `topicConfigTable`
/// is a `ConcurrentHashMap` filled in the body's order (here: name order, the order RouteLab keeps
/// a body in), and that order decides where each new topic lands in topicQueueTable.
///
/// `keep` is a trait object: one copy of this function serves every caller (the workshop's bundle
/// has a size budget).
fn in_java_order<'b>(
    body: &'b BTreeMap<String, TopicConfig>,
    keep: &dyn Fn(&TopicConfig) -> bool,
) -> Vec<&'b TopicConfig> {
    let topics: Vec<&TopicConfig> = body.values().collect();
    let mut order = JavaTable::concurrent();
    for (i, name) in body.keys().enumerate() {
        order.insert(Indexed(i, name));
    }
    order
        .iter()
        .map(|k| topics[k.0])
        .filter(|tc| keep(tc))
        .collect()
}

/// A body's topic name with its place in the body: the Java key is the name alone.
#[derive(Clone, Copy, Debug)]
struct Indexed<'a>(usize, &'a str);

impl PartialEq for Indexed<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.1 == other.1
    }
}

impl Eq for Indexed<'_> {}

impl crate::java_order::JavaKey for Indexed<'_> {
    fn hash_code(&self) -> i32 {
        crate::java_order::string_hash(self.1)
    }
    fn compare_to(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(crate::java_order::string_compare(self.1, other.1))
    }
}

/// The numbers each of the body's topics is written with, in the body's order.
fn written_queues(body: &BTreeMap<String, TopicConfig>, wipe_write: bool) -> Vec<WrittenQueue> {
    body.values()
        .map(|tc| {
            let perm = if wipe_write {
                tc.perm & !PERM_WRITE
            } else {
                tc.perm
            };
            [
                tc.read_queue_nums,
                tc.write_queue_nums,
                perm,
                tc.topic_sys_flag,
            ]
        })
        .collect()
}

fn queue_data_of(broker_name: &BrokerName, tc: &TopicConfig, perm: i32) -> QueueData {
    QueueData {
        broker_name: broker_name.clone(),
        perm,
        read_queue_nums: tc.read_queue_nums,
        topic_sys_flag: tc.topic_sys_flag,
        write_queue_nums: tc.write_queue_nums,
    }
}

impl RouteManager {
    /// 5.x topic update: optional pruning, then per topic "first, version changed, or missing here";
    /// a prime slave of an acting-master group registers its topics read-only.
    pub(super) fn update_topics_v5(
        &mut self,
        req: &RegisterBroker,
        register_first: bool,
        version_changed: bool,
        wipe_write: bool,
    ) {
        let name = &req.broker_name;
        let wrapper = req.topics();
        let mappings = wrapper
            .topic_queue_mapping_info_map
            .as_ref()
            .filter(|m| !m.is_empty());
        if self.config.delete_topic_with_broker_registration && mappings.is_none() {
            // `Sets.difference(topicSetOfBrokerName(name), body)`: a HashSet filled in table order.
            let own = order_of(
                JavaTable::hash_map(),
                self.topic_queue_table.java_topics_of(name),
            );
            for topic in own {
                if !wrapper.topic_config_table.contains_key(topic.as_str()) {
                    self.remove_queue_data(&topic, name, TopicRemovalReason::PrunedByRegistration);
                }
            }
        }
        let body = &wrapper.topic_config_table;
        let key = self.live_key(&req.cluster_name, &req.broker_addr);
        let rewrite = register_first || version_changed;
        // A heartbeat with the topics of the last update, and no QueueData removed since: every one
        // is still here, so there is nothing to look up (with 10,000 topics, most of its cost).
        let all_here = !rewrite
            && self.broker_live_table.filled(&key).is_some_and(|f| {
                f.removals == self.queue_removals
                    && f.broker_name == *name
                    && f.topics.len() == body.len()
                    && f.topics
                        .iter()
                        .zip(body.keys())
                        .all(|(a, b)| same_text(a, b))
            });
        if all_here {
            return self.update_mappings(req, rewrite);
        }
        let written = written_queues(body, wipe_write);
        let to_write: Vec<&TopicConfig> = if rewrite {
            let to_write = self.to_rewrite(&key, name, body, &written);
            if to_write.is_empty() {
                // Every put would find its QueueData as it is (a DataVersion bumped, the topics
                // as before): Java's loop changes nothing then, and neither does skipping it.
                return self.update_mappings(req, rewrite);
            }
            to_write
        } else {
            let missing = self.topics_missing_here(body, name.as_str());
            if missing.len() > 1 {
                // Inserted one by one: `collect` would sort first, another sort in the bundle.
                let mut names = BTreeSet::new();
                for tc in &missing {
                    names.insert(tc.topic_name.as_str());
                }
                in_java_order(body, &|tc| names.contains(tc.topic_name.as_str()))
            } else {
                missing
            }
        };
        for tc in to_write {
            let topic = TopicName::from(tc.topic_name.as_str());
            let perm = if wipe_write {
                tc.perm & !PERM_WRITE
            } else {
                tc.perm
            };
            self.put_queue_data(&topic, queue_data_of(name, tc, perm));
        }
        let filled = FilledTopics {
            broker_name: name.clone(),
            removals: self.queue_removals,
            writes: self.queue_writes,
            topics: body.keys().cloned().collect(),
            // Without a rewrite only the missing topics were written: what the others hold is
            // not known (a perm wiped since stays wiped), so no number is remembered.
            queues: if rewrite {
                written.into()
            } else {
                Vec::new().into()
            },
        };
        self.broker_live_table.set_filled(key, filled);
        self.update_mappings(req, rewrite);
    }

    /// 4.x topic update: every topic of the body, in its ConcurrentHashMap's order — unless the
    /// last update of this broker wrote these very QueueData and nothing changed since.
    pub(super) fn update_topics_v4(&mut self, req: &RegisterBroker) {
        let name = &req.broker_name;
        let body = &req.topics().topic_config_table;
        let key = self.live_key(&req.cluster_name, &req.broker_addr);
        let written = written_queues(body, false);
        let to_write = self.to_rewrite(&key, name, body, &written);
        if to_write.is_empty() {
            return;
        }
        for tc in to_write {
            let topic = TopicName::from(tc.topic_name.as_str());
            self.put_queue_data(&topic, queue_data_of(name, tc, tc.perm));
        }
        let filled = FilledTopics {
            broker_name: name.clone(),
            removals: self.queue_removals,
            writes: self.queue_writes,
            topics: body.keys().cloned().collect(),
            queues: written.into(),
        };
        self.broker_live_table.set_filled(key, filled);
    }

    /// The topics a DataVersion change must put, in Java's order: all of them, or (when
    /// [`Self::changed_since_last`] knows) those whose QueueData may differ; none when each put
    /// would change nothing.
    fn to_rewrite<'b>(
        &self,
        key: &BrokerAddrInfo,
        name: &BrokerName,
        body: &'b BTreeMap<String, TopicConfig>,
        written: &[WrittenQueue],
    ) -> Vec<&'b TopicConfig> {
        match self.changed_since_last(key, name, body, written) {
            Some(changed) if changed.is_empty() => Vec::new(),
            // One topic has no order to find: a broker that creates a topic is spared laying out
            // its whole table in Java's order.
            Some(changed) if changed.len() == 1 => {
                body.get(changed[0]).map_or_else(Vec::new, |tc| vec![tc])
            }
            Some(changed) => in_java_order(body, &|tc| {
                changed.binary_search(&tc.topic_name.as_str()).is_ok()
            }),
            None => in_java_order(body, &|_| true),
        }
    }

    /// The body's topics (in name order) whose QueueData may differ from what this update writes,
    /// when the last topic update of the broker at `key` was for `name` and no QueueData has been
    /// written or removed since: then every topic it wrote is in the table as it wrote it, and only
    /// a topic it did not write, or wrote with other numbers, needs a put. `None`: not known.
    fn changed_since_last<'b>(
        &self,
        key: &BrokerAddrInfo,
        name: &BrokerName,
        body: &'b BTreeMap<String, TopicConfig>,
        written: &[WrittenQueue],
    ) -> Option<Vec<&'b str>> {
        let f = self.broker_live_table.filled(key)?;
        if f.removals != self.queue_removals
            || f.writes != self.queue_writes
            || f.broker_name != *name
        {
            return None;
        }
        // Both lists are in name order (a body's keys): walked side by side.
        let mut last = f.topics.iter().zip(f.queues.iter()).peekable();
        let mut changed = Vec::new();
        for (topic, now) in body.keys().zip(written) {
            while last
                .peek()
                .is_some_and(|(t, _)| t.as_str() < topic.as_str())
            {
                last.next();
            }
            match last.peek() {
                Some((t, q)) if same_text(t, topic) && *q == now => {}
                _ => changed.push(topic.as_str()),
            }
        }
        Some(changed)
    }

    /// 5.x static topics: a first or changed registration stores its TopicQueueMappingInfo.
    fn update_mappings(&mut self, req: &RegisterBroker, rewrite: bool) {
        let name = &req.broker_name;
        let mappings = req
            .topics()
            .topic_queue_mapping_info_map
            .as_ref()
            .filter(|m| !m.is_empty());
        if rewrite {
            for (topic, info) in mappings.into_iter().flatten() {
                let bname = info
                    .get("bname")
                    .and_then(|b| b.as_str())
                    .unwrap_or(name.as_str())
                    .to_owned();
                self.topic_queue_mapping_info_table
                    .entry(TopicName::from(topic.as_str()))
                    .or_default()
                    .insert(bname, info.clone());
            }
        }
    }

    /// The body's topics for which `broker_name` has no QueueData here (5.x writes those even on a
    /// heartbeat), in body order. Looked up one by one: the remembered `FilledTopics` spare most
    /// heartbeats this.
    fn topics_missing_here<'a>(
        &self,
        body: &'a BTreeMap<String, TopicConfig>,
        broker_name: &str,
    ) -> Vec<&'a TopicConfig> {
        body.values()
            .filter(|tc| {
                !self
                    .topic_queue_table
                    .get(tc.topic_name.as_str())
                    .is_some_and(|groups| groups.contains_key(broker_name))
            })
            .collect()
    }
}
