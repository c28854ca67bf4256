//! The consumers' part of a run's final state: each group's members and progress, and the text
//! `routelab sim --format text` prints for them (`consumerProgress` and `topicStatus` as mqadmin
//! 4.9.8 lays them out).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::consumer::{ConsumerState, ConsumerStats};
use super::store::QueueProgress;
use super::Sim;
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
