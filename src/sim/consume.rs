//! What a member does with its queues: rebalance (`RebalanceService`, `rebalanceByTopic`), pulls
//! from the master (or a slave while the master is gone from its route), offsets committed on each
//! pull to a master and every 5 s, and the messages the group reads twice.
//!
//! Timers and sources: docs/consumers.md.

use super::consumer::{ConsumerState, OwnedQueue, PULL_TICK_MS};
use super::event::{ConsumerRebalanced, Duplicates, QueueRef, SimEventKind};
use super::{Sim, Timer};
use crate::consumer::{
    self, MessageQueue, Rebalance, Strategy, StrategyName, PERSIST_OFFSET_INTERVAL_MS,
    REBALANCE_INTERVAL_MS, REBALANCE_MIN_INTERVAL_V5_MS,
};
use crate::producer::ClientProfile;

impl Sim {
    /// `rebalanceImmediately` / the broker's notice: wakes the member's rebalance service. 4.x
    /// rebalances now; 5.x no sooner than 1 s after its last rebalance (`minInterval`).
    pub(crate) fn wake_rebalance(&mut self, m: usize) {
        let node = &self.consumers[m];
        if !node.is_up() {
            return;
        }
        let at = match node.client {
            ClientProfile::V4 => self.now,
            ClientProfile::V5 => self
                .now
                .max(node.last_rebalance + REBALANCE_MIN_INTERVAL_V5_MS),
        };
        if node.next_rebalance.is_some_and(|t| t <= at) {
            return;
        }
        self.set_rebalance_timer(m, at);
    }

    fn set_rebalance_timer(&mut self, m: usize, at: u64) {
        let node = &mut self.consumers[m];
        node.rebalance_token += 1;
        node.next_rebalance = Some(at);
        let token = node.rebalance_token;
        self.schedule(at, Timer::Rebalance { consumer: m, token });
    }

    #[inline(never)]
    pub(super) fn on_rebalance(&mut self, m: usize, token: u64) {
        let node = &self.consumers[m];
        if !node.is_up() || node.rebalance_token != token {
            return;
        }
        let g = node.group;
        let mut balanced = true;
        for t in 0..self.groups[g].spec.topics.len() {
            let topic = self.groups[g].spec.topics[t].clone();
            balanced &= self.rebalance_topic(m, &topic);
        }
        let node = &mut self.consumers[m];
        node.last_rebalance = self.now;
        let wait = match (node.client, balanced) {
            (ClientProfile::V5, false) => REBALANCE_MIN_INTERVAL_V5_MS,
            _ => REBALANCE_INTERVAL_MS,
        };
        self.set_rebalance_timer(m, self.now + wait);
    }

    /// The member's strategy (the group's, with its settings and the member's configured queues).
    fn strategy_of(&self, m: usize) -> Strategy {
        let spec = &self.groups[self.consumers[m].group].spec;
        match spec.strategy {
            StrategyName::ConsistentHash => Strategy::ConsistentHash {
                virtual_nodes: spec
                    .virtual_nodes
                    .unwrap_or(consumer::DEFAULT_VIRTUAL_NODES),
            },
            StrategyName::Config => Strategy::Config {
                queues: spec
                    .config
                    .get(&self.consumers[m].client_id)
                    .map(|qs| {
                        qs.iter()
                            .map(|q| MessageQueue::new(&q.topic, &q.broker_name, q.queue_id))
                            .collect()
                    })
                    .unwrap_or_default(),
            },
            other => Strategy::of(other),
        }
    }

    /// `findConsumerIdList`: GET_CONSUMER_LIST_BY_GROUP to one broker of the topic's route, picked
    /// at random (its master, else a random slave of it). None when it cannot answer or does not
    /// know the group.
    fn find_consumer_id_list(&mut self, m: usize, topic: &str) -> Option<Vec<String>> {
        if self.consumers[m].route(topic).is_none() {
            self.poll_consumer_routes(m);
        }
        let route = self.consumers[m].route(topic)?;
        if route.broker_datas.is_empty() {
            return None;
        }
        let n = route.broker_datas.len() as u64;
        let i = self.rng.next_below(n) as usize;
        let bd = &self.consumers[m].route(topic)?.broker_datas[i];
        let addr = match bd.master_addr() {
            Some(a) => a.to_string(),
            None => {
                let addrs: Vec<String> = bd.broker_addrs.values().map(|a| a.to_string()).collect();
                if addrs.is_empty() {
                    return None;
                }
                let k = self.rng.next_below(addrs.len() as u64) as usize;
                addrs[k].clone()
            }
        };
        let b = self.running_broker_at(&addr)?;
        let group = &self.groups[self.consumers[m].group].spec.group;
        self.brokers[b].consumer_table.members(group)
    }

    /// One topic's `rebalanceByTopic`; false when unbalanced (the strategy threw, or a queue could
    /// not be taken up).
    fn rebalance_topic(&mut self, m: usize, topic: &str) -> bool {
        let cid_all = self.find_consumer_id_list(m, topic);
        let strategy = self.strategy_of(m);
        let node = &self.consumers[m];
        let outcome =
            consumer::rebalance(&strategy, &node.client_id, node.subscribed(topic), cid_all);
        let Rebalance::Allocated {
            mq_all,
            cid_all,
            queues,
        } = outcome
        else {
            return !matches!(outcome, Rebalance::Refused { .. });
        };
        let owned: Vec<MessageQueue> = node.queues_of(topic).cloned().collect();
        let (removed, added) = consumer::diff(&owned, &queues);
        for mq in &removed {
            // removeUnnecessaryMessageQueue: the offset committed, the queue dropped.
            if let Some(i) = self.consumers[m].owned.iter().position(|o| &o.mq == mq) {
                let o = self.consumers[m].owned.remove(i);
                self.commit_offset(m, &o.mq, o.offset);
            }
        }
        let mut balanced = true;
        let mut took = false;
        for mq in added {
            // computePullFromWhere: the committed offset from the broker; none there: the queue's
            // first offset (its messages are still in memory). No broker to ask: not taken up.
            let Some(b) = self.offset_broker(m, &mq) else {
                balanced = false;
                continue;
            };
            let group = &self.groups[self.consumers[m].group].spec.group;
            let start = self.brokers[b]
                .offsets
                .query(group, mq.topic.as_str(), mq.queue_id)
                .unwrap_or(0);
            let g = self.consumers[m].group;
            let read_slot = self.groups[g].read_slot(&mq);
            self.note_duplicates(m, &mq, read_slot, start);
            let node = &mut self.consumers[m];
            let at = node
                .owned
                .partition_point(|o| consumer::compare(&o.mq, &mq).is_lt());
            node.owned.insert(
                at,
                OwnedQueue {
                    mq,
                    offset: start,
                    read_slot,
                    log_slot: None,
                },
            );
            took = true;
        }
        if took || !removed.is_empty() {
            let g = self.consumers[m].group;
            let event = ConsumerRebalanced {
                group: self.groups[g].spec.group.clone(),
                topic: topic.to_owned(),
                client_id: self.consumers[m].client_id.clone(),
                strategy: strategy.name().as_str(),
                mq_all: mq_all.iter().map(QueueRef::of).collect(),
                cid_all,
                queues: queues.iter().map(QueueRef::of).collect(),
            };
            self.emit(SimEventKind::ConsumerRebalanced(Box::new(event)));
        }
        balanced
    }

    /// A member taking up `mq` at `start`: if the group already read past it, says how many
    /// messages will be read again and why.
    fn note_duplicates(&mut self, m: usize, mq: &MessageQueue, slot: usize, start: u64) {
        let g = self.consumers[m].group;
        let (high, reader, life) = self.groups[g].reads[slot];
        if start >= high {
            return;
        }
        let prev = &self.consumers[reader];
        // How the life of the member that read them went on: still going, or how it ended.
        let how = if prev.epoch == life {
            prev.state
        } else {
            prev.ended
                .iter()
                .find(|e| e.0 == life)
                .map_or(ConsumerState::Killed, |e| e.1)
        };
        let reason = match how {
            ConsumerState::Killed => "owner_killed",
            ConsumerState::Frozen => "owner_frozen",
            ConsumerState::Running
                if prev.epoch == life && reader != m && prev.owned.iter().any(|o| &o.mq == mq) =>
            {
                "owner_still_reading"
            }
            _ => "commit_not_seen",
        };
        let event = Duplicates {
            group: self.groups[g].spec.group.clone(),
            topic: mq.topic.to_string(),
            broker_name: mq.broker_name.to_string(),
            queue_id: mq.queue_id,
            client_id: self.consumers[m].client_id.clone(),
            count: high - start,
            previous: prev.client_id.clone(),
            reason,
        };
        self.emit(SimEventKind::Duplicates(Box::new(event)));
    }

    /// Where the member commits and reads offsets of `mq`'s broker group
    /// (`findBrokerAddressInSubscribe(brokerName, MASTER_ID, true)`, then any address): the master
    /// in its routes, else a slave. None when that broker does not answer.
    fn offset_broker(&self, m: usize, mq: &MessageQueue) -> Option<usize> {
        let bd = self.consumers[m]
            .routes
            .copies()
            .iter()
            .find_map(|c| c.route.broker_data(mq.broker_name.as_str()))?;
        let addr = bd
            .master_addr()
            .or_else(|| bd.broker_addrs.values().next())?;
        self.running_broker_at(addr.as_str())
    }

    /// UPDATE_CONSUMER_OFFSET for one queue (lost when no broker answers).
    fn commit_offset(&mut self, m: usize, mq: &MessageQueue, offset: u64) {
        if let Some(b) = self.offset_broker(m, mq) {
            let group = &self.groups[self.consumers[m].group].spec.group;
            self.brokers[b]
                .offsets
                .commit(group, mq.topic.as_str(), mq.queue_id, offset);
        }
    }

    /// `persistAllConsumerOffset`: every owned queue's offset to its broker.
    pub(crate) fn persist_all(&mut self, m: usize) {
        let owned: Vec<(MessageQueue, u64)> = self.consumers[m]
            .owned
            .iter()
            .map(|o| (o.mq.clone(), o.offset))
            .collect();
        for (mq, offset) in owned {
            self.commit_offset(m, &mq, offset);
        }
    }

    #[inline(never)]
    pub(super) fn on_persist_offsets(&mut self, m: usize, epoch: u64) {
        if !self.consumer_live(m, epoch) {
            return;
        }
        self.persist_all(m);
        self.schedule(
            self.now + PERSIST_OFFSET_INTERVAL_MS,
            Timer::PersistOffsets { consumer: m, epoch },
        );
    }

    /// One pull round: the member's rate for the tick spread over its queues (those with messages
    /// waiting), each pulled from the master in its route, else a slave; a pull to a master
    /// carries the queue's offset as a commit (the pull's commitOffset flag).
    #[inline(never)]
    pub(super) fn on_pull_tick(&mut self, m: usize, epoch: u64) {
        if !self.consumer_live(m, epoch) {
            return;
        }
        self.schedule(
            self.now + PULL_TICK_MS,
            Timer::PullTick { consumer: m, epoch },
        );
        let node = &mut self.consumers[m];
        let rate_milli = (node.rate * 1000.0).round() as u64;
        node.credit_milli = node.credit_milli.min(rate_milli) + rate_milli * PULL_TICK_MS / 1000;
        let mut budget = node.credit_milli / 1000;
        node.credit_milli %= 1000;
        let n = node.owned.len();
        if n == 0 {
            return;
        }
        let first = node.next_queue % n;
        node.next_queue = first + 1;
        let targets = self.pull_targets(m);
        for k in 0..n {
            let i = (first + k) % n;
            let share = budget.div_ceil((n - k) as u64);
            budget -= self.pull(m, i, &targets, share);
        }
    }

    /// Where the member's pulls go this tick, one entry per broker group it reads: the broker
    /// (master in its route copy, else a slave) if it runs, whether it is the master, and the
    /// group's store. Worked out once per tick rather than per queue.
    fn pull_targets(&self, m: usize) -> Vec<PullTarget> {
        let node = &self.consumers[m];
        let mut out: Vec<PullTarget> = Vec::new();
        for o in &node.owned {
            let name = &o.mq.broker_name;
            if out.iter().any(|t| t.name == name.as_str()) {
                continue;
            }
            let chosen = node
                .route(o.mq.topic.as_str())
                .and_then(|r| r.broker_data(name.as_str()))
                .and_then(|bd| match bd.master_addr() {
                    Some(a) => Some((0, a)),
                    None => bd.broker_addrs.iter().next().map(|(id, a)| (*id, a)),
                });
            let (routed, broker, master) = match chosen {
                Some((id, addr)) => (true, self.running_broker_at(addr.as_str()), id == 0),
                None => (false, None, false),
            };
            out.push(PullTarget {
                name: name.to_string(),
                routed,
                broker,
                master,
                store: self.store_of(name.as_str()),
            });
        }
        out
    }

    /// Pulls up to `max` messages of the member's `i`-th queue; returns how many it consumed.
    fn pull(&mut self, m: usize, i: usize, targets: &[PullTarget], max: u64) -> u64 {
        let g = self.consumers[m].group;
        let life = self.consumers[m].epoch;
        let (mq, offset) = {
            let o = &self.consumers[m].owned[i];
            (&o.mq, o.offset)
        };
        let Some(t) = targets.iter().find(|t| t.name == mq.broker_name.as_str()) else {
            return 0;
        };
        if !t.routed {
            return 0;
        }
        let Some(b) = t.broker else {
            self.consumers[m].stats.failed_pulls += 1;
            return 0;
        };
        let group = self.groups[g].spec.group.as_str();
        if t.master && offset > 0 {
            self.brokers[b]
                .offsets
                .commit(group, mq.topic.as_str(), mq.queue_id, offset);
        }
        let Some(store) = t.store.map(|s| &mut self.stores[s]) else {
            return 0;
        };
        let log_slot = match self.consumers[m].owned[i].log_slot {
            Some(slot) => slot,
            None => {
                let slot = store.slot(self.consumers[m].owned[i].mq.topic.as_str());
                self.consumers[m].owned[i].log_slot = Some(slot);
                slot
            }
        };
        let queue_id = self.consumers[m].owned[i].mq.queue_id;
        let max_offset = store.max_offset_at(log_slot, queue_id);
        let take = max_offset.saturating_sub(offset).min(max);
        if take == 0 {
            return 0;
        }
        let now = self.now;
        store.get.add(now, take);
        let end = offset + take;
        let mark = &mut self.groups[g].reads[self.consumers[m].owned[i].read_slot];
        let dup = mark.0.min(end).saturating_sub(offset);
        if end >= mark.0 {
            *mark = (end, m, life);
        }
        let node = &mut self.consumers[m];
        node.owned[i].offset = end;
        node.stats.consumed += take;
        node.stats.duplicates += dup;
        node.stats.speed.add(now, take);
        take
    }
}

/// Where a member's pulls of one broker group go this tick.
struct PullTarget {
    /// The broker group.
    name: String,
    /// Whether the member's route copy has the group.
    routed: bool,
    /// The broker it pulls from, if that one runs.
    broker: Option<usize>,
    /// Whether that broker is the master (a pull to it carries a commit).
    master: bool,
    /// The group's store.
    store: Option<usize>,
}
