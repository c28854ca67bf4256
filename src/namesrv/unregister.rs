//! UNREGISTER_BROKER (spec §2.3): 4.x removes at once by id; 5.x queues the request and removes by
//! address in a batch.

use crate::java_order::JavaTable;

use super::event::{Event, RemovalReason};
use super::request::UnregisterBroker;
use super::{RouteError, RouteManager};
use crate::model::perm::PERM_WRITE;
use crate::model::{BrokerName, MASTER_ID};

/// Whether [`RouteManager::unregister_broker`] applied the request or queued it (5.x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnregisterOutcome {
    /// 4.x: the tables already reflect it.
    Applied,
    /// 5.x: waiting for the batch ([`RouteManager::apply_pending_unregistrations`], or the next
    /// drain of events under [`UnregisterBatch::AtDrain`]).
    Queued,
}

/// When a 5.x manager runs its queued unregistrations (RocketMQ's `BatchUnregistrationService`
/// runs them at once on its own thread).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnregisterBatch {
    /// Only when [`RouteManager::apply_pending_unregistrations`] is called: the queue can be looked
    /// at in between (tests, lessons, the JavaScript module's `applyPendingUnregistrations`).
    #[default]
    WhenApplied,
    /// At the next [`RouteManager::drain_events`] or [`RouteManager::poll_event`], before any event
    /// is handed out: a driver that drains after each request (a NameServer, the simulator) sees the
    /// tables as Java's would be by then, without remembering to apply the batch.
    AtDrain,
}

impl RouteManager {
    /// UNREGISTER_BROKER from a broker shutting down.
    pub fn unregister_broker(
        &mut self,
        req: &UnregisterBroker,
    ) -> Result<UnregisterOutcome, RouteError> {
        req.validate()?;
        self.unregister_with_reason(req.clone(), RemovalReason::Unregistered)
    }

    /// Applies (4.x) or queues (5.x) an unregistration made for `reason`.
    pub(super) fn unregister_with_reason(
        &mut self,
        req: UnregisterBroker,
        reason: RemovalReason,
    ) -> Result<UnregisterOutcome, RouteError> {
        if !self.profile.is_v5() {
            self.unregister_v4(&req, reason);
            return Ok(UnregisterOutcome::Applied);
        }
        let capacity = self.config.unregister_broker_queue_capacity;
        if self.pending_unregistrations.len() >= capacity {
            return Err(RouteError::UnregisterQueueFull { capacity });
        }
        // No de-duplication: RocketMQ's batch is a HashSet of request headers without equals(), so a
        // request made twice takes two slots and runs twice (harmlessly).
        self.events.push_back(Event::UnregisterQueued {
            cluster: req.cluster_name.clone(),
            broker_name: req.broker_name.clone(),
            broker_addr: req.broker_addr.clone(),
            reason: reason.clone(),
        });
        self.pending_unregistrations.push_back((req, reason));
        Ok(UnregisterOutcome::Queued)
    }

    /// 4.x: remove the live and filter entries, the group's entry **by id**, and the group (with its
    /// cluster-set name and its topics) when it becomes empty.
    fn unregister_v4(&mut self, req: &UnregisterBroker, reason: RemovalReason) {
        let key = self.live_key(&req.cluster_name, &req.broker_addr);
        self.broker_live_table.remove(&key);
        self.filter_server_table.0.remove(&key);
        let mut group_emptied = false;
        let mut removed_id = None;
        if self
            .broker_addr_table
            .get(req.broker_name.as_str())
            .is_some()
        {
            if self
                .broker_addr_table
                .remove_addr(&req.broker_name, req.broker_id, false)
                .is_some()
            {
                removed_id = Some(req.broker_id);
            }
            group_emptied = self
                .broker_addr_table
                .get(req.broker_name.as_str())
                .is_some_and(|g| g.broker_addrs.is_empty());
        }
        self.events.push_back(Event::BrokerRemoved {
            cluster: req.cluster_name.clone(),
            broker_name: Some(req.broker_name.clone()),
            broker_id: removed_id,
            broker_addr: req.broker_addr.clone(),
            reason,
        });
        if group_emptied {
            self.broker_addr_table.remove_group(&req.broker_name, false);
            self.cluster_addr_table
                .remove_name(&req.cluster_name, &req.broker_name);
            self.events.push_back(Event::BrokerGroupRemoved {
                cluster: req.cluster_name.clone(),
                broker_name: req.broker_name.clone(),
            });
            self.remove_topics_of_groups(std::slice::from_ref(&req.broker_name));
        }
    }

    /// 5.x `BatchUnregistrationService`: applies every queued unregistration as one batch. For each:
    /// remove live and filter entries, remove **every** id holding the address, drop an emptied group
    /// from its cluster set. Then remove the topics of removed groups and, for reduced groups with
    /// acting master and no master left, clear the write bit of their QueueData. Returns how many
    /// requests ran: 0, changing nothing, when the queue is empty (as it always is under 4.x, and
    /// after a drain under [`UnregisterBatch::AtDrain`]).
    pub fn apply_pending_unregistrations(&mut self) -> usize {
        let batch: Vec<_> = self.pending_unregistrations.drain(..).collect();
        // RocketMQ runs the batch as a HashSet of request objects without hashCode(): an order that
        // differs from run to run in Java itself. RouteLab takes them first come, first served. The
        // names removed and reduced are HashSets of strings, walked in their order below.
        let mut removed: JavaTable<BrokerName> = JavaTable::hash_map();
        let mut reduced: JavaTable<BrokerName> = JavaTable::hash_map();
        for (req, reason) in &batch {
            let key = self.live_key(&req.cluster_name, &req.broker_addr);
            self.broker_live_table.remove(&key);
            self.filter_server_table.0.remove(&key);
            let mut emptied = false;
            let mut removed_id = None;
            if self
                .broker_addr_table
                .get(req.broker_name.as_str())
                .is_some()
            {
                // `brokerAddrs.entrySet().removeIf(address matches)`, in the map's order.
                let ids: Vec<i64> = self
                    .broker_addr_table
                    .java_addrs(req.broker_name.as_str())
                    .into_iter()
                    .filter(|(_, a)| **a == req.broker_addr)
                    .map(|(k, _)| k)
                    .collect();
                for k in &ids {
                    self.broker_addr_table
                        .remove_addr(&req.broker_name, *k, true);
                }
                removed_id = ids.first().copied();
                emptied = self
                    .broker_addr_table
                    .get(req.broker_name.as_str())
                    .is_some_and(|g| g.broker_addrs.is_empty());
            }
            self.events.push_back(Event::BrokerRemoved {
                cluster: req.cluster_name.clone(),
                broker_name: Some(req.broker_name.clone()),
                broker_id: removed_id,
                broker_addr: req.broker_addr.clone(),
                reason: reason.clone(),
            });
            if emptied {
                self.broker_addr_table.remove_group(&req.broker_name, false);
                self.cluster_addr_table
                    .remove_name(&req.cluster_name, &req.broker_name);
                self.events.push_back(Event::BrokerGroupRemoved {
                    cluster: req.cluster_name.clone(),
                    broker_name: req.broker_name.clone(),
                });
                removed.insert(req.broker_name.clone());
            } else {
                reduced.insert(req.broker_name.clone());
            }
        }
        let removed: Vec<BrokerName> = removed.iter().cloned().collect();
        self.remove_topics_of_groups(&removed);
        let reduced: Vec<BrokerName> = reduced.iter().cloned().collect();
        for name in &reduced {
            self.wipe_write_if_no_master(name);
        }
        batch.len()
    }

    /// 5.x: a reduced group with acting master and no master left becomes read-only in all topics.
    fn wipe_write_if_no_master(&mut self, name: &BrokerName) {
        let Some(group) = self.broker_addr_table.get(name.as_str()) else {
            return;
        };
        let no_master = group
            .broker_addrs
            .keys()
            .next()
            .is_none_or(|min| *min > MASTER_ID);
        if !(group.acting_master_enabled() && no_master) {
            return;
        }
        for topic in self.topic_queue_table.java_topics_of(name) {
            let Some(qd) = self
                .topic_queue_table
                .get(topic.as_str())
                .and_then(|m| m.get(name))
            else {
                continue;
            };
            let mut after = qd.clone();
            after.perm &= !PERM_WRITE;
            self.put_queue_data(&topic, after);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{TopicConfig, TopicConfigSerializeWrapper};
    use crate::namesrv::{Profile, RegisterBroker};

    /// A 5.x NameServer with a master and a slave of one group, and a master of another.
    fn cluster() -> RouteManager {
        let mut topics = TopicConfigSerializeWrapper::default();
        for t in ["T1", "T2"] {
            topics
                .topic_config_table
                .insert(t.to_owned(), TopicConfig::new(t, 4, 4, 6));
        }
        let mut rm = RouteManager::new(Profile::V5);
        for (name, id, addr) in [("a", 0, "10.0.0.1:10911"), ("a", 1, "10.0.0.2:10911")] {
            let req = RegisterBroker::new("C", name, id, addr, topics.clone());
            rm.register_broker(1_000, &req).unwrap();
        }
        let b = RegisterBroker::new("C", "b", 0, "10.0.0.3:10911", topics);
        rm.register_broker(1_000, &b).unwrap();
        let _ = rm.drain_events();
        rm
    }

    /// Under `AtDrain` a drain gives what applying the batch and then draining gave, in the same
    /// order, and leaves the same tables; applying again runs nothing. The default waits.
    #[test]
    fn the_batch_runs_at_drain_as_the_drivers_ran_it() {
        let requests = [
            UnregisterBroker::new("C", "a", 1, "10.0.0.2:10911"),
            UnregisterBroker::new("C", "b", 0, "10.0.0.3:10911"),
        ];
        let mut by_hand = cluster();
        let mut at_drain = cluster();
        at_drain.set_unregister_batch(UnregisterBatch::AtDrain);
        for req in &requests {
            by_hand.unregister_broker(req).unwrap();
            at_drain.unregister_broker(req).unwrap();
        }
        assert_eq!(by_hand.apply_pending_unregistrations(), 2);
        let want = by_hand.drain_events();
        assert!(want.len() > 2, "{want:?}");
        assert_eq!(at_drain.drain_events(), want);
        assert_eq!(at_drain.apply_pending_unregistrations(), 0);
        assert_eq!(at_drain.broker_addr_table(), by_hand.broker_addr_table());
        assert_eq!(at_drain.cluster_addr_table(), by_hand.cluster_addr_table());
        assert_eq!(at_drain.topic_queue_table(), by_hand.topic_queue_table());
        assert_eq!(at_drain.broker_live_table(), by_hand.broker_live_table());

        let mut polled = cluster();
        polled.set_unregister_batch(UnregisterBatch::AtDrain);
        for req in &requests {
            polled.unregister_broker(req).unwrap();
        }
        let events: Vec<Event> = std::iter::from_fn(|| polled.poll_event()).collect();
        assert_eq!(events, want);

        let mut waiting = cluster();
        waiting.unregister_broker(&requests[0]).unwrap();
        assert_eq!(waiting.drain_events().len(), 1, "only UnregisterQueued");
        assert_eq!(waiting.pending_unregistrations().count(), 1);
    }
}
