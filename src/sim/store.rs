//! What the brokers store: per broker group (brokerName), per topic and queue, how many messages
//! were written (the queue's max offset; nothing is ever deleted, so the min offset stays 0), and
//! how fast messages are written and read.
//!
//! A message is stored by the group's master and is on its slaves at once (replication is not
//! modelled), so the store is the group's, shared by master and slaves and kept across restarts
//! (the commit log is on disk). The world finds a group's store by name (`Sim::store_for`).

use std::collections::BTreeMap;

use serde::Serialize;

/// One-second counts over the last [`SPEED_WINDOW_S`] seconds.
pub const SPEED_WINDOW_S: usize = 10;

/// Counts per second over a sliding window, for speeds (`putTps`, `getTransferedTps`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Speed {
    /// The second (virtual time / 1000) of the latest count.
    last: u64,
    /// When that second ends (ms): a count before it needs no division.
    last_end_ms: u64,
    /// Counts by second modulo the window.
    buckets: [u64; SPEED_WINDOW_S],
    /// Every count ever.
    pub total: u64,
}

impl Speed {
    /// Counts `n` at virtual time `now_ms` (not before the latest count).
    #[inline]
    pub fn add(&mut self, now_ms: u64, n: u64) {
        if now_ms >= self.last_end_ms {
            self.roll(now_ms / 1000);
        }
        self.buckets[(self.last % SPEED_WINDOW_S as u64) as usize] += n;
        self.total += n;
    }

    /// Clears the seconds between the latest count and `sec`, and makes `sec` the latest.
    #[inline(never)]
    fn roll(&mut self, sec: u64) {
        let gap = sec.saturating_sub(self.last).min(SPEED_WINDOW_S as u64);
        for s in 1..=gap {
            self.buckets[((self.last + s) % SPEED_WINDOW_S as u64) as usize] = 0;
        }
        self.last = self.last.max(sec);
        self.last_end_ms = (self.last + 1) * 1000;
    }

    /// Messages per second over the full seconds of the window before `now_ms`.
    pub fn per_sec(&self, now_ms: u64) -> f64 {
        let sec = now_ms / 1000;
        let mut sum = 0;
        for back in 1..=SPEED_WINDOW_S as u64 {
            let Some(s) = sec.checked_sub(back) else {
                break;
            };
            if s <= self.last && self.last - s < SPEED_WINDOW_S as u64 {
                sum += self.buckets[(s % SPEED_WINDOW_S as u64) as usize];
            }
        }
        sum as f64 / SPEED_WINDOW_S as f64
    }
}

/// One queue's messages: how many, and when they were stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueLog {
    /// The max offset: how many messages it holds.
    pub max_offset: u64,
    /// When the last one was stored (virtual ms; 0 while empty).
    pub last_update_ms: u64,
    /// For each second with messages: (the first offset stored in it, when it was stored).
    seconds: Vec<(u64, u64)>,
}

impl QueueLog {
    fn append(&mut self, now_ms: u64) {
        if self
            .seconds
            .last()
            .is_none_or(|s| s.1 / 1000 != now_ms / 1000)
        {
            self.seconds.push((self.max_offset, now_ms));
        }
        self.max_offset += 1;
        self.last_update_ms = now_ms;
    }

    /// When the message at `offset` was stored, to the second (the first message of its second).
    pub fn stored_at(&self, offset: u64) -> Option<u64> {
        if offset >= self.max_offset {
            return None;
        }
        let i = self.seconds.partition_point(|s| s.0 <= offset);
        self.seconds.get(i.checked_sub(1)?).map(|s| s.1)
    }
}

/// One broker group's messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupStore {
    /// The group's name.
    pub broker_name: String,
    /// Where each topic's queues are in `logs`.
    slots: BTreeMap<String, usize>,
    /// Each topic's queues, by queue id.
    logs: Vec<Vec<QueueLog>>,
    /// Messages written.
    pub put: Speed,
    /// Messages read by consumers.
    pub get: Speed,
}

impl GroupStore {
    /// A store for broker group `name`.
    pub fn new(name: &str) -> Self {
        Self {
            broker_name: name.to_owned(),
            ..Self::default()
        }
    }

    /// Where `topic`'s queues are kept (made when first asked): a sender may remember it.
    pub fn slot(&mut self, topic: &str) -> usize {
        if let Some(&s) = self.slots.get(topic) {
            return s;
        }
        self.logs.push(Vec::new());
        self.slots.insert(topic.to_owned(), self.logs.len() - 1);
        self.logs.len() - 1
    }

    /// Appends a message to `topic`'s queue `queue_id`.
    pub fn append(&mut self, now_ms: u64, topic: &str, queue_id: i32) {
        let slot = self.slot(topic);
        self.append_at(now_ms, slot, queue_id);
    }

    /// Appends a message to queue `queue_id` of the topic at `slot` (from [`GroupStore::slot`]).
    #[inline]
    pub fn append_at(&mut self, now_ms: u64, slot: usize, queue_id: i32) {
        let (Some(queues), Ok(q)) = (self.logs.get_mut(slot), usize::try_from(queue_id)) else {
            return;
        };
        if queues.len() <= q {
            queues.resize(q + 1, QueueLog::default());
        }
        queues[q].append(now_ms);
        self.put.add(now_ms, 1);
    }

    /// Messages written to the group, all queues together (a DLedger group's log length).
    pub fn written(&self) -> u64 {
        self.logs.iter().flatten().map(|q| q.max_offset).sum()
    }

    /// A queue's log, if it ever held a message.
    pub fn queue(&self, topic: &str, queue_id: i32) -> Option<&QueueLog> {
        let slot = *self.slots.get(topic)?;
        self.logs.get(slot)?.get(usize::try_from(queue_id).ok()?)
    }

    /// The max offset of queue `queue_id` of the topic at `slot`.
    #[inline]
    pub fn max_offset_at(&self, slot: usize, queue_id: i32) -> u64 {
        usize::try_from(queue_id)
            .ok()
            .and_then(|q| self.logs.get(slot)?.get(q))
            .map_or(0, |l| l.max_offset)
    }

    /// The queue's max offset (how many messages it holds).
    pub fn max_offset(&self, topic: &str, queue_id: i32) -> u64 {
        self.queue(topic, queue_id).map_or(0, |q| q.max_offset)
    }
}

/// Where each broker group's store is in the world.
impl super::Sim {
    /// The store of broker group `name`, made when first needed.
    pub(crate) fn store_for(&mut self, name: &str) -> usize {
        match self
            .store_index
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
        {
            Ok(i) => self.store_index[i].1,
            Err(i) => {
                self.stores.push(GroupStore::new(name));
                let s = self.stores.len() - 1;
                self.store_index.insert(i, (name.to_owned(), s));
                s
            }
        }
    }

    /// The index in `stores` of group `name`'s store, if it has one.
    pub(crate) fn store_of(&self, name: &str) -> Option<usize> {
        self.store_index
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| self.store_index[i].1)
    }

    /// What broker groups store.
    pub fn stores(&self) -> &[GroupStore] {
        &self.stores
    }

    /// The store of broker group `name`, if it ever held anything.
    pub fn store(&self, name: &str) -> Option<&GroupStore> {
        self.store_of(name).map(|s| &self.stores[s])
    }
}

/// A queue's figures for a group: what `consumerProgress` and `topicStatus` print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueueProgress {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
    /// The queue's max offset ("Broker Offset").
    pub broker_offset: u64,
    /// The group's committed offset as the queue's broker holds it ("Consumer Offset").
    pub consumer_offset: u64,
    /// The member that reads it now, if any ("Client IP").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// When the last consumed message was stored, virtual ms (0: none yet; "LastTime").
    pub last_timestamp_ms: u64,
}

impl QueueProgress {
    /// Messages not yet consumed, as the broker sees it ("Diff").
    pub fn backlog(&self) -> u64 {
        self.broker_offset.saturating_sub(self.consumer_offset)
    }

    /// The row `consumerProgress` prints.
    pub fn row(&self) -> crate::view::mqadmin::consumer::ProgressRow {
        crate::view::mqadmin::consumer::ProgressRow {
            topic: self.topic.clone(),
            broker_name: self.broker_name.clone(),
            queue_id: self.queue_id,
            broker_offset: self.broker_offset,
            consumer_offset: self.consumer_offset,
            client_id: self.client_id.clone(),
            last_timestamp_ms: self.last_timestamp_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn speed_counts_the_last_ten_full_seconds() {
        let mut s = Speed::default();
        for t in (0..20_000).step_by(100) {
            s.add(t, 1); // 10 per second
        }
        assert_eq!(s.per_sec(20_000), 10.0);
        assert_eq!(s.per_sec(25_000), 5.0);
        assert_eq!(s.per_sec(40_000), 0.0);
        assert_eq!(s.total, 200);
        s.add(45_500, 30);
        assert_eq!(s.per_sec(46_000), 3.0);
    }

    #[test]
    fn appends_grow_the_queue() {
        let mut g = GroupStore::default();
        g.append(0, "T", 2);
        g.append(0, "T", 2);
        assert_eq!(g.max_offset("T", 2), 2);
        assert_eq!(g.max_offset("T", 0), 0);
        assert_eq!(g.max_offset("U", 0), 0);
        assert_eq!(g.put.total, 2);
        g.append(2_500, "T", 2);
        let q = g.queue("T", 2).unwrap();
        assert_eq!(q.last_update_ms, 2_500);
        assert_eq!(q.stored_at(1), Some(0));
        assert_eq!(q.stored_at(2), Some(2_500));
        assert_eq!(q.stored_at(3), None);
    }
}
