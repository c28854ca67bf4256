//! `TopicPublishInfo` and `topicRouteData2TopicPublishInfo` (spec §7.3, §7.4).

use serde::{Deserialize, Serialize};

use super::index::SendIndex;
use super::{ClientProfile, ProducerError};
use crate::model::{BrokerName, TopicName, TopicRouteData, MASTER_ID};
use crate::rng::SeededRng;

/// A queue a producer can send to: (topic, brokerName, queueId).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageQueue {
    pub topic: TopicName,
    pub broker_name: BrokerName,
    pub queue_id: i32,
}

impl MessageQueue {
    /// A queue.
    pub fn new(topic: &str, broker_name: &str, queue_id: i32) -> Self {
        Self {
            topic: topic.into(),
            broker_name: broker_name.into(),
            queue_id,
        }
    }
}

/// The producer's view of one topic: the queues it may send to, in order, and its round-robin index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicPublishInfo {
    pub topic: TopicName,
    pub order_topic: bool,
    pub message_queue_list: Vec<MessageQueue>,
    pub topic_route_data: TopicRouteData,
    pub client: ClientProfile,
    pub send_which_queue: SendIndex,
}

impl TopicPublishInfo {
    /// `topicRouteData2TopicPublishInfo`.
    ///
    /// - Order topic (`orderTopicConf` non-empty): `brokerName:count` items separated by `;`, queues
    ///   `0..count` of each in that order; QueueData are ignored.
    /// - Otherwise QueueData sorted by brokerName; each **writable** one whose BrokerData exists and has
    ///   a master (id 0) adds queues `0..writeQueueNums`.
    ///
    /// 5.x static topics (`topicQueueMappingByBroker`) are not modelled: they fall to the normal branch.
    pub fn from_route(
        topic: &str,
        route: &TopicRouteData,
        client: ClientProfile,
    ) -> Result<Self, ProducerError> {
        let mut queues = Vec::new();
        // Every queue shares the topic's and its group's name (a reference count per queue), so
        // copying a picked queue and comparing its names stay cheap.
        let topic_name = TopicName::from(topic);
        let conf = route.order_topic_conf.as_deref().unwrap_or("");
        let order_topic = !conf.is_empty();
        if order_topic {
            // Java's String.split drops trailing empty items only: an empty leading or middle item
            // has no ':' and fails like `item[1]` does in Java.
            let mut items: Vec<&str> = conf.split(';').collect();
            while items.last() == Some(&"") {
                items.pop();
            }
            for item in items {
                let bad = |reason: &str| ProducerError::MalformedOrderTopicConf {
                    conf: conf.to_owned(),
                    reason: format!("{item:?}: {reason}"),
                };
                let (broker, count) = item
                    .split_once(':')
                    .ok_or_else(|| bad("expected brokerName:count"))?;
                // Integer.parseInt does not trim: "brokerA: 2" is an error in Java.
                let count: i32 = count
                    .split(':')
                    .next()
                    .unwrap_or("")
                    .parse()
                    .map_err(|_| bad("the count is not a number"))?;
                let broker = BrokerName::from(broker);
                queues.extend((0..count).map(|i| MessageQueue {
                    topic: topic_name.clone(),
                    broker_name: broker.clone(),
                    queue_id: i,
                }));
            }
        } else {
            let mut qds = route.queue_datas.clone();
            // QueueData.compareTo is String.compareTo: UTF-16 code units, not UTF-8 bytes (they differ
            // for supplementary characters against U+E000..U+FFFF).
            crate::sort::sort_by(&mut qds, |a, b| {
                let (a, b) = (a.broker_name.as_str(), b.broker_name.as_str());
                a.encode_utf16().cmp(b.encode_utf16())
            });
            for qd in qds.iter().filter(|q| q.is_writeable()) {
                let has_master = route
                    .broker_data(qd.broker_name.as_str())
                    .is_some_and(|bd| bd.broker_addrs.contains_key(&MASTER_ID));
                if has_master {
                    queues.extend((0..qd.write_queue_nums).map(|i| MessageQueue {
                        topic: topic_name.clone(),
                        broker_name: qd.broker_name.clone(),
                        queue_id: i,
                    }));
                }
            }
        }
        Ok(Self {
            topic: topic_name,
            order_topic,
            message_queue_list: queues,
            topic_route_data: route.clone(),
            client,
            send_which_queue: SendIndex::default(),
        })
    }

    /// `ok()`: there is at least one queue to send to.
    pub fn ok(&self) -> bool {
        !self.message_queue_list.is_empty()
    }

    fn next_index(&mut self, rng: &mut SeededRng) -> i32 {
        self.send_which_queue.increment_and_get(self.client, rng)
    }

    /// `selectOneMessageQueue()`: the next queue round-robin. None when there are no queues.
    pub fn select_one_message_queue(&mut self, rng: &mut SeededRng) -> Option<MessageQueue> {
        if !self.ok() {
            return None;
        }
        let index = self.next_index(rng);
        let pos = index
            .wrapping_abs()
            .rem_euclid(self.message_queue_list.len() as i32);
        Some(self.message_queue_list[pos as usize].clone())
    }

    /// `selectOneMessageQueue(lastBrokerName)`: up to `size` fresh picks, returning the first whose
    /// broker differs from `last_broker_name`; else a plain pick.
    pub fn select_one_message_queue_avoiding(
        &mut self,
        last_broker_name: Option<&str>,
        rng: &mut SeededRng,
    ) -> Option<MessageQueue> {
        let Some(last) = last_broker_name else {
            return self.select_one_message_queue(rng);
        };
        for _ in 0..self.message_queue_list.len() {
            let mq = self.select_one_message_queue(rng)?;
            if mq.broker_name != last {
                return Some(mq);
            }
        }
        self.select_one_message_queue(rng)
    }

    /// 5.x `selectOneMessageQueue(filters…)`: up to `size` fresh picks, the first passing `filter`;
    /// None when none passes.
    pub fn select_filtered(
        &mut self,
        rng: &mut SeededRng,
        filter: impl Fn(&MessageQueue) -> bool,
    ) -> Option<MessageQueue> {
        let size = self.message_queue_list.len() as i32;
        for _ in 0..size {
            let pos = (self.next_index(rng) % size).wrapping_abs();
            let mq = &self.message_queue_list[pos as usize];
            if filter(mq) {
                return Some(mq.clone());
            }
        }
        None
    }

    /// 5.x `resetIndex()`.
    pub fn reset_index(&mut self, rng: &mut SeededRng) {
        self.send_which_queue.reset(rng);
    }

    /// 4.x `getQueueIdByBroker`: writeQueueNums of the broker's **writable** QueueData, or -1.
    pub fn write_queue_nums_of(&self, broker_name: &str) -> i32 {
        self.topic_route_data
            .queue_datas
            .iter()
            .find(|q| q.is_writeable() && q.broker_name == broker_name)
            .map_or(-1, |q| q.write_queue_nums)
    }
}
