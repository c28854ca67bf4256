//! What the consumer groups consumed, asked of the world at any time (`consumerProgress`,
//! `topicStatus`, the consume TPS: the dashboard's tables and the lessons' questions), the
//! consumers' part of a run's final state built from them (each group's members and progress), and
//! the text `routelab sim --format text` prints for them (as mqadmin 4.9.8 lays them out).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::consumer::{ConsumerState, ConsumerStats};
use super::store::QueueProgress;
use super::Sim;
use crate::consumer::MessageQueue;
use crate::view::mqadmin::consumer::{consumer_progress, topic_status, TopicStatusRow};

/// A queue a member reads, and its offset there.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberQueue {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
    /// The next offset the member consumes.
    pub offset: u64,
}

/// A member at the end of a run.
#[derive(Clone, Debug, Serialize)]
pub struct MemberReport {
    pub client_id: String,
    pub state: ConsumerState,
    pub rate: f64,
    #[serde(flatten)]
    pub stats: ConsumerStats,
    pub queues: Vec<MemberQueue>,
}

/// A consumer group at the end of a run.
#[derive(Clone, Debug, Serialize)]
pub struct GroupReport {
    pub strategy: &'static str,
    pub topics: Vec<String>,
    pub members: Vec<MemberReport>,
    /// Every queue of its topics, in `MessageQueue` order.
    pub progress: Vec<QueueProgress>,
    /// Messages not yet consumed over all its queues ("Diff Total").
    pub backlog: u64,
    /// "Consume TPS".
    pub consume_tps: f64,
}

impl Sim {
    /// `consumerProgress -g group`: every queue of the group's topics on every broker group that
    /// holds the topic, with the broker's and the group's offsets and who reads it, in
    /// `MessageQueue` order.
    pub fn consumer_progress(&self, group: &str) -> Vec<QueueProgress> {
        let Some(g) = self.group_index(group) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for topic in &self.groups[g].spec.topics {
            // The broker groups holding the topic, each with its processes (found once: a big
            // cluster has hundreds of brokers), then their queues.
            for (name, holders, queues) in self.topic_holders(topic) {
                let store = self.store_of(name).map(|s| &self.stores[s]);
                for q in 0..queues {
                    let log = store.and_then(|s| s.queue(topic, q));
                    let consumer_offset = self.committed_in(&holders, group, topic, q).unwrap_or(0);
                    let reader = self
                        .consumers
                        .iter()
                        .filter(|c| c.group == g && c.is_up())
                        .find(|c| {
                            c.owned.iter().any(|o| {
                                o.mq.queue_id == q
                                    && o.mq.broker_name.as_str() == name
                                    && o.mq.topic.as_str() == topic
                            })
                        })
                        .map(|c| c.client_id.clone());
                    out.push(QueueProgress {
                        topic: topic.clone(),
                        broker_name: name.to_owned(),
                        queue_id: q,
                        broker_offset: log.map_or(0, |l| l.max_offset),
                        consumer_offset,
                        client_id: reader,
                        last_timestamp_ms: consumer_offset
                            .checked_sub(1)
                            .and_then(|o| log?.stored_at(o))
                            .unwrap_or(0),
                    });
                }
            }
        }
        out
    }

    /// The broker groups holding `topic` (on any of their processes, running or not: the messages
    /// are on disk), in Java's string order: (name, the group's broker indices, queue count).
    fn topic_holders<'a>(&'a self, topic: &str) -> Vec<(&'a str, Vec<usize>, i32)> {
        let mut out: Vec<(&str, Vec<usize>, i32)> = Vec::new();
        for (i, b) in self.brokers.iter().enumerate() {
            let name = b.spec.name.as_str();
            let queues = b
                .topics
                .get(topic)
                .map_or(0, |tc| tc.read_queue_nums.max(tc.write_queue_nums).max(0));
            match out.iter_mut().find(|e| e.0 == name) {
                Some(e) => {
                    e.1.push(i);
                    e.2 = e.2.max(queues);
                }
                None => out.push((name, vec![i], queues)),
            }
        }
        out.retain(|e| e.2 > 0);
        crate::sort::sort_by(&mut out, |a, b| crate::java_order::string_compare(a.0, b.0));
        out
    }

    /// The group's committed offset of a queue among a broker group's processes: the master's,
    /// else a running slave's.
    fn committed_in(
        &self,
        holders: &[usize],
        group: &str,
        topic: &str,
        queue_id: i32,
    ) -> Option<u64> {
        let best = holders
            .iter()
            .map(|&i| &self.brokers[i])
            .max_by_key(|b| (b.is_up(), -b.id()))?;
        best.offsets.query(group, topic, queue_id)
    }

    /// `consumerProgress`'s "Consume TPS": what the group's running members consumed per second
    /// over the last seconds.
    pub fn consume_tps(&self, group: &str) -> f64 {
        let Some(g) = self.group_index(group) else {
            return 0.0;
        };
        self.consumers
            .iter()
            .filter(|c| c.group == g && c.is_up())
            .map(|c| c.stats.speed.per_sec(self.now))
            .sum()
    }

    /// `topicStatus -t topic`: each queue's min and max offsets and when it was last written.
    pub fn topic_status(&self, topic: &str) -> Vec<TopicStatusRow> {
        self.topic_queues(topic)
            .into_iter()
            .map(|mq| {
                let log = self
                    .store_of(mq.broker_name.as_str())
                    .and_then(|s| self.stores[s].queue(topic, mq.queue_id));
                TopicStatusRow {
                    broker_name: mq.broker_name.to_string(),
                    queue_id: mq.queue_id,
                    min_offset: 0,
                    max_offset: log.map_or(0, |l| l.max_offset),
                    last_update_ms: log.map_or(0, |l| l.last_update_ms),
                }
            })
            .collect()
    }

    /// A topic's queues on the brokers that hold it (running or not: their messages are on disk),
    /// by their own topic configs' read queue counts, in `MessageQueue` order.
    pub fn topic_queues(&self, topic: &str) -> Vec<MessageQueue> {
        self.topic_holders(topic)
            .into_iter()
            .flat_map(|(name, _, n)| (0..n).map(move |q| MessageQueue::new(topic, name, q)))
            .collect()
    }
}

impl Sim {
    /// Every consumer group, by name.
    pub fn consumer_reports(&self) -> BTreeMap<String, GroupReport> {
        self.groups
            .iter()
            .enumerate()
            .map(|(g, group)| {
                let name = group.spec.group.clone();
                let progress = self.consumer_progress(&name);
                let members = self
                    .consumers
                    .iter()
                    .filter(|c| c.group == g)
                    .map(|c| MemberReport {
                        client_id: c.client_id.clone(),
                        state: c.state,
                        rate: c.rate,
                        stats: c.stats.clone(),
                        queues: c
                            .owned
                            .iter()
                            .map(|o| MemberQueue {
                                topic: o.mq.topic.to_string(),
                                broker_name: o.mq.broker_name.to_string(),
                                queue_id: o.mq.queue_id,
                                offset: o.offset,
                            })
                            .collect(),
                    })
                    .collect();
                let report = GroupReport {
                    strategy: group.spec.strategy.as_str(),
                    topics: group.spec.topics.clone(),
                    members,
                    backlog: progress.iter().map(QueueProgress::backlog).sum(),
                    consume_tps: self.consume_tps(&name),
                    progress,
                };
                (name, report)
            })
            .collect()
    }

    /// `topicStatus` of every topic a consumer group subscribes, by topic.
    pub fn consumed_topic_status(&self) -> BTreeMap<String, Vec<TopicStatusRow>> {
        self.groups
            .iter()
            .flat_map(|g| g.spec.topics.iter())
            .map(|t| (t.clone(), self.topic_status(t)))
            .collect()
    }
}

/// The text tables: `topicStatus` of each consumed topic, then per group its members and
/// `consumerProgress -g G -s true`.
pub(crate) fn consumers_text(
    out: &mut String,
    groups: &BTreeMap<String, GroupReport>,
    topics: &BTreeMap<String, Vec<TopicStatusRow>>,
) {
    for (topic, rows) in topics {
        let _ = writeln!(out, "\n== mqadmin topicStatus -t {topic}");
        out.push_str(&topic_status(topic, rows));
    }
    for (name, g) in groups {
        let _ = writeln!(out, "\n== consumer group {name} ({})", g.strategy);
        for m in &g.members {
            let queues: Vec<String> = m
                .queues
                .iter()
                .map(|q| format!("{}/{}", q.broker_name, q.queue_id))
                .collect();
            let _ = writeln!(
                out,
                "   {:<24} {:<8} consumed {:<8} duplicates {:<6} queues {}",
                m.client_id,
                m.state.as_str(),
                m.stats.consumed,
                m.stats.duplicates,
                if queues.is_empty() {
                    "-".to_owned()
                } else {
                    queues.join(" ")
                }
            );
        }
        let _ = writeln!(out, "\n== mqadmin consumerProgress -g {name} -s true");
        let rows: Vec<_> = g.progress.iter().map(QueueProgress::row).collect();
        out.push_str(&consumer_progress(&rows, g.consume_tps, true));
    }
}
