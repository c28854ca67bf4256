//! REGISTER_BROKER (spec §2.1 for 4.x, §2.2 for the 5.x differences).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::event::{Event, RejectReason, TopicRemovalReason};
use super::request::RegisterBroker;
use super::tables::{BrokerAddrInfo, BrokerLiveInfo, ChannelId, FilledTopics, WrittenQueue};
use super::{RouteError, RouteManager};
use crate::java_order::{order_of, JavaTable};
use crate::model::perm::PERM_WRITE;
use crate::model::text::same_text;
use crate::model::{
    BrokerAddr, BrokerData, BrokerName, QueueData, TopicConfig, TopicName, MASTER_ID,
};

/// What the NameServer answers a registering broker: for a slave whose master is live, the master's
/// address and HA address (both omitted otherwise).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisterBrokerResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub master_addr: Option<BrokerAddr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ha_server_addr: Option<String>,
}

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

fn queue_data_of(broker_name: &crate::model::BrokerName, tc: &TopicConfig, perm: i32) -> QueueData {
    QueueData {
        broker_name: broker_name.clone(),
        perm,
        read_queue_nums: tc.read_queue_nums,
        topic_sys_flag: tc.topic_sys_flag,
        write_queue_nums: tc.write_queue_nums,
    }
}

impl RouteManager {
    /// Registers (or re-registers) a broker at `now_ms`. Invalid requests change nothing.
    ///
    /// Both profiles: add the name to its cluster set; create the group if new (`registerFirst`);
    /// drop the address from other id slots of the group (same-address rule); store the id's address;
    /// update topic QueueData if allowed; replace the live entry; store filter servers; answer a slave
    /// with its live master. The profiles differ in who may write topics and when (see the spec).
    pub fn register_broker(
        &mut self,
        now_ms: u64,
        req: &RegisterBroker,
    ) -> Result<RegisterBrokerResult, RouteError> {
        self.register_broker_on(now_ms, req, req.channel)
    }

    /// [`RouteManager::register_broker`] arriving on `channel` (`req.channel` is not read): one
    /// request sent to several NameServers, each on its own channel, is not copied per NameServer.
    pub fn register_broker_on(
        &mut self,
        now_ms: u64,
        req: &RegisterBroker,
        channel: ChannelId,
    ) -> Result<RegisterBrokerResult, RouteError> {
        req.validate_header()?;
        let v5 = self.profile.is_v5();
        let name = &req.broker_name;
        let addr = &req.broker_addr;
        let id = req.broker_id;
        let wrapper = req.topics();
        let key = self.live_key(&req.cluster_name, addr);
        // Steps 1-4 leave the live entry alone, so step 5's answer can be taken here.
        let version_changed = self.broker_topic_config_changed(&key, &wrapper.data_version);
        // The topic configs are checked where they are read: always in 5.x (a heartbeat looks for
        // missing topics), only in step 5 in 4.x. A 4.x heartbeat's copy is ignored, as RocketMQ
        // ignores it, so a bad one there is no error and changes nothing.
        if v5 || version_changed || self.v4_first_of_master(req) {
            req.validate_topics()?;
        }

        // Step 1: cluster set.
        self.cluster_addr_table.add(&req.cluster_name, name);

        // Step 2: the group.
        let (group, mut register_first) = self
            .broker_addr_table
            .get_or_create(&req.cluster_name, name);
        let old_version_broker = req.enable_acting_master.is_none();
        if v5 {
            group.enable_acting_master = Some(req.enable_acting_master.unwrap_or(false));
            group.zone_name = req.zone_name.clone();
        }

        // Step 3: one ip:port appears once per group (slave ↔ master switch).
        let old_ids: Vec<i64> = group
            .broker_addrs
            .iter()
            .filter(|(k, v)| *v == addr && **k != id)
            .map(|(k, _)| *k)
            .collect();
        for k in &old_ids {
            // Through an iterator in both lines (4.9.8's loop, 5.x's removeIf).
            self.broker_addr_table.remove_addr(name, *k, true);
        }
        if !old_ids.is_empty() {
            self.events.push_back(Event::BrokerIdSwitched {
                broker_name: name.clone(),
                broker_addr: addr.clone(),
                old_ids,
                new_id: id,
            });
        }

        if v5 {
            // A different address in this id slot with a newer stateVersion wins; ours is dropped.
            let old_in_slot = self
                .broker_addr_table
                .get(name.as_str())
                .and_then(|g| g.broker_addrs.get(&id));
            if let Some(old_addr) = old_in_slot.filter(|a| *a != addr) {
                let old_key = self.live_key(&req.cluster_name, old_addr);
                let old_state = self
                    .broker_live_table
                    .get(&old_key)
                    .map(|l| l.data_version.state());
                if old_state.is_some_and(|s| s > wrapper.data_version.state()) {
                    self.broker_live_table.remove(&key);
                    self.reject(req, RejectReason::StaleStateVersion);
                    return Ok(RegisterBrokerResult::default());
                }
            }
            // Single-topic guard: a first registration of this id must carry the full table.
            if old_in_slot.is_none() && wrapper.topic_config_table.len() == 1 {
                self.reject(req, RejectReason::SingleTopicGuard);
                return Err(RouteError::RegisterBrokerFailed {
                    broker_addr: addr.to_string(),
                    broker_id: id,
                });
            }
        }

        // Step 4: the id's address (step 2 created the group if needed).
        let old_addr = self.broker_addr_table.insert_addr(name, id, addr.clone());
        register_first |= old_addr.as_ref().is_none_or(|a| a.as_str().is_empty());
        let group = self.broker_addr_table.get(name.as_str());
        let min_id = group.and_then(|g| g.broker_addrs.keys().next().copied());
        let acting_master = group.is_some_and(BrokerData::acting_master_enabled);
        let is_master = id == MASTER_ID;
        let is_prime_slave = v5 && !old_version_broker && !is_master && min_id == Some(id);
        // Reported before the topic changes it causes, so a log reads in cause-then-effect order.
        self.events.push_back(Event::BrokerRegistered {
            cluster: req.cluster_name.clone(),
            broker_name: name.clone(),
            broker_id: id,
            broker_addr: addr.clone(),
            first: register_first,
        });

        // Step 5: topic config, from the master (or, in 5.x, the prime slave) only.
        if is_master || is_prime_slave {
            if v5 {
                self.update_topics_v5(
                    req,
                    register_first,
                    version_changed,
                    is_prime_slave && acting_master,
                );
            } else if register_first || version_changed {
                self.update_topics_v4(req);
            }
        }

        // Step 6: liveness.
        let default_timeout = self.config.broker_channel_expired_millis;
        let timeout = if v5 {
            req.heartbeat_timeout_millis.unwrap_or(default_timeout)
        } else {
            default_timeout
        };
        self.broker_live_table.insert(
            key.clone(),
            BrokerLiveInfo {
                last_update_timestamp: now_ms,
                heartbeat_timeout_millis: timeout,
                // 4.9.8's DataVersion has no stateVersion: fastjson drops it when the body is read.
                data_version: crate::model::DataVersion {
                    state_version: wrapper.data_version.state_version.filter(|_| v5),
                    ..wrapper.data_version.clone()
                },
                channel,
                ha_server_addr: req.ha_server_addr.clone(),
            },
        );

        // Step 7: filter servers (an empty list clears them).
        let filters = &req.body.filter_server_list;
        if filters.is_empty() {
            self.filter_server_table.0.remove(&key);
        } else {
            self.filter_server_table.0.insert(key, filters.clone());
        }

        // Step 8: a slave learns its live master.
        Ok(self.slave_result(req))
    }

    /// Whether this is a 4.x master's first registration, when step 5 reads its topics whatever
    /// the DataVersion: no group yet, or no address in the id's slot (step 3 never empties it).
    fn v4_first_of_master(&self, req: &RegisterBroker) -> bool {
        req.broker_id == MASTER_ID
            && self
                .broker_addr_table
                .get(req.broker_name.as_str())
                .and_then(|g| g.broker_addrs.get(&req.broker_id))
                .is_none_or(|a| a.as_str().is_empty())
    }

    /// 5.x topic update: optional pruning, then per topic "first, version changed, or missing here";
    /// a prime slave of an acting-master group registers its topics read-only.
    fn update_topics_v5(
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
    fn update_topics_v4(&mut self, req: &RegisterBroker) {
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

    fn reject(&mut self, req: &RegisterBroker, reason: RejectReason) {
        self.events.push_back(Event::RegistrationRejected {
            broker_name: req.broker_name.clone(),
            broker_id: req.broker_id,
            broker_addr: req.broker_addr.clone(),
            reason,
        });
    }

    fn slave_result(&self, req: &RegisterBroker) -> RegisterBrokerResult {
        if req.broker_id == MASTER_ID {
            return RegisterBrokerResult::default();
        }
        let master = self
            .broker_addr_table
            .get(req.broker_name.as_str())
            .and_then(|g| g.master_addr());
        let Some(master_addr) = master else {
            return RegisterBrokerResult::default();
        };
        let master_key = self.live_key(&req.cluster_name, master_addr);
        match self.broker_live_table.get(&master_key) {
            Some(live) => RegisterBrokerResult {
                master_addr: Some(master_addr.clone()),
                ha_server_addr: Some(live.ha_server_addr.clone()),
            },
            None => RegisterBrokerResult::default(),
        }
    }
}
