//! Consumer groups and their backlog as a bridge reads them from the brokers (pure; the bridge's
//! broker poller fills it, `/metrics` renders it).
//!
//! Which brokers and groups to ask comes from the NameServers' views, as mqadmin finds them: every
//! broker group of the cluster (its master, else its lowest slave: `BrokerData.selectBrokerAddr`),
//! and every group with a retry topic (`%RETRY%<group>`, created by a group's first heartbeat;
//! mqadmin `consumerProgress` lists groups the same way). A group's backlog on a queue is the
//! broker's offset minus the group's committed offset (`OffsetWrapper`), summed per topic as
//! `ConsumeStats.computeTotalDiff` sums it.

use std::collections::{BTreeMap, BTreeSet};

use super::broker_health::{behind, BrokerHealth, SlaveView};
use super::consumers::{
    BrokerSpeed, ConsumersView, GroupView, MemberView, ProducerGroupView, ProducerView,
    QueueOffsets,
};
use super::lag::{SpanKey, SpanReading};
use super::owners::{Held, Owners};
use super::topic_rates::TopicBroker;
use super::topic_rates::TopicRates;
use super::view::{NamesrvStatus, NamesrvView};
use crate::consumer::lag::Unread;
use crate::model::broker_stats::{ConsumeStats, ConsumerConnection, ProducerInfo};

/// The prefix of the topic a consumer group's first heartbeat creates.
pub const RETRY_PREFIX: &str = "%RETRY%";
/// The prefix of a group's dead-letter topic: a broker creates `%DLQ%<group>` when a message has
/// failed `maxReconsumeTimes` (16) times and sends it there (`SendMessageProcessor`).
pub const DLQ_PREFIX: &str = "%DLQ%";

/// A broker to poll: its group's name and the address picked for it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BrokerTarget {
    /// Its cluster, as the NameServer lists it.
    pub cluster: String,
    pub broker_name: String,
    pub addr: String,
    /// The group's other brokers (id, address): its slaves, asked for their runtime table only.
    pub slaves: Vec<(i64, String)>,
}

/// What to poll, from the NameServers' views: the broker groups of the first NameServer that
/// answers (by group name), and the consumer groups any NameServer lists a retry topic for.
pub fn targets(views: &[NamesrvView]) -> (Vec<BrokerTarget>, Vec<String>) {
    let mut brokers = Vec::new();
    if let Some(v) = views.iter().find(|v| v.status == NamesrvStatus::Ok) {
        for (name, bd) in &v.cluster.broker_addr_table {
            // The master (id 0) when listed, else the lowest id.
            let mut addrs = bd.broker_addrs.iter();
            if let Some((_, addr)) = addrs.next() {
                brokers.push(BrokerTarget {
                    cluster: bd.cluster.to_string(),
                    broker_name: name.to_string(),
                    addr: addr.to_string(),
                    slaves: addrs.map(|(id, a)| (*id, a.to_string())).collect(),
                });
            }
        }
    }
    let groups: BTreeSet<&str> = views
        .iter()
        .flat_map(|v| v.topics.iter())
        .filter_map(|t| t.strip_prefix(RETRY_PREFIX))
        .filter(|g| !g.is_empty())
        .collect();
    (brokers, groups.into_iter().map(str::to_owned).collect())
}

/// The groups whose dead-letter topic (`%DLQ%<group>`) any NameServer lists: only those are
/// asked for it (a group that never dead-lettered a message has none).
pub fn dlq_groups(views: &[NamesrvView]) -> BTreeSet<String> {
    views
        .iter()
        .flat_map(|v| v.topics.iter())
        .filter_map(|t| t.strip_prefix(DLQ_PREFIX))
        .filter(|g| !g.is_empty())
        .map(str::to_owned)
        .collect()
}

/// One broker's answers in the last poll that reached it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrokerAnswers {
    /// `None` when the last poll reached it; the reason otherwise (its earlier answers are kept).
    pub error: Option<String>,
    /// When its answers were fetched (ms since the epoch; 0: never).
    pub fetched_at_ms: u64,
    /// `putTps` and `getTransferredTps` (4.x: `getTransferedTps`) of its runtime info (messages/s over
    /// the last window).
    pub put_tps: Option<f64>,
    pub get_tps: Option<f64>,
    /// Each group's consume stats on this broker.
    pub groups: BTreeMap<String, ConsumeStats>,
    /// Each group's connections on this broker (a group with no member here is absent).
    pub connections: BTreeMap<String, ConsumerConnection>,
    /// Its health, from the same runtime table.
    pub health: BrokerHealth,
    /// Its slaves as they answered this round (id, address, their health or why not).
    pub slaves: Vec<(i64, String, Result<BrokerHealth, String>)>,
    /// Messages in each group's dead-letter topic on this broker (Σ max − min offset of its
    /// queues; GET_TOPIC_STATS_INFO), for the groups whose `%DLQ%` topic it has.
    pub dlq: BTreeMap<String, i64>,
    /// Its producer table (GET_ALL_PRODUCER_INFO, 5.x): producer group → its producers here;
    /// `None` when the broker does not answer it (4.x brokers do not know the request).
    pub producers: Option<BTreeMap<String, Vec<ProducerInfo>>>,
}

/// The producer group every Java client instance registers for its own use (sending messages back
/// for retry): not an application's producers (`MixAll.CLIENT_INNER_PRODUCER_GROUP`).
pub const CLIENT_INNER_PRODUCER_GROUP: &str = "CLIENT_INNER_PRODUCER";

/// `putAll` into one map, as mqadmin merges brokers' answers: of the rows with the same key only
/// the last stays, in its place.
pub(crate) fn keep_last<R, K: Ord>(rows: &mut Vec<R>, key: impl Fn(&R) -> K) {
    let last: BTreeMap<K, usize> = rows.iter().enumerate().map(|(i, r)| (key(r), i)).collect();
    let keep: BTreeSet<usize> = last.into_values().collect();
    let mut i = 0;
    rows.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
    });
}

/// `putTps`-style runtime values are `"12.5 11.0 10.2"` in Java (10 s, 1 min, 10 min windows) and
/// a single number elsewhere: the first figure.
pub fn first_figure(value: &str) -> Option<f64> {
    value
        .split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
}

/// The messages per second a broker hands to consumers, from its runtime table: 5.x brokers spell
/// the key `getTransferredTps` (`BrokerStatsManager` since 5.0), 4.x brokers `getTransferedTps`; the
/// 5.x spelling wins when both are there.
pub fn transferred_tps<'a>(get: impl Fn(&str) -> Option<&'a str>) -> Option<f64> {
    get("getTransferredTps")
        .or_else(|| get("getTransferedTps"))
        .and_then(first_figure)
}

/// Everything the last broker polls learnt.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BacklogState {
    /// By broker name.
    pub brokers: BTreeMap<String, (BrokerTarget, BrokerAnswers)>,
    /// The groups polled.
    pub groups: Vec<String>,
    /// How long the last round took (ms).
    pub poll_ms: u64,
    /// What the members said of the queues they hold.
    pub owners: Owners,
    /// What the brokers last said of each unread topic's lag (QUERY_CONSUME_TIME_SPAN).
    pub spans: BTreeMap<SpanKey, SpanReading>,
    /// Each user topic's offsets per broker and its rate (GET_TOPIC_STATS_INFO).
    pub topics: TopicRates,
}

/// How many of the busiest topics the page lists.
pub const BUSIEST_TOPICS: usize = 10;

impl BacklogState {
    /// Backlog per (group, topic): Σ broker offset − consumer offset over the queues every broker
    /// reported, only for groups polled; a group with offsets nowhere is absent.
    pub fn backlog(&self) -> BTreeMap<(String, String), i64> {
        let mut out = BTreeMap::new();
        for (_, answers) in self.brokers.values() {
            for (group, stats) in &answers.groups {
                for (q, o) in &stats.offset_table.0 {
                    *out.entry((group.clone(), q.topic.clone())).or_insert(0) +=
                        o.broker_offset - o.consumer_offset;
                }
            }
        }
        out
    }

    /// Each online member (group, client id) with the address of a broker it is connected to, which
    /// passes requests on to it.
    pub fn members_online(&self) -> Vec<(String, String, String)> {
        let mut out: BTreeMap<(&str, &str), &str> = BTreeMap::new();
        for (target, answers) in self.brokers.values() {
            if answers.error.is_some() {
                continue;
            }
            for (group, cc) in &answers.connections {
                for c in &cc.connection_set {
                    out.entry((group.as_str(), c.client_id.as_str()))
                        .or_insert(target.addr.as_str());
                }
            }
        }
        out.into_iter()
            .map(|((g, c), a)| (g.to_owned(), c.to_owned(), a.to_owned()))
            .collect()
    }

    /// Members online per polled group: the distinct client ids any broker lists (0 for none).
    pub fn online(&self) -> BTreeMap<String, usize> {
        let mut ids: BTreeMap<&str, BTreeSet<&str>> = self
            .groups
            .iter()
            .map(|g| (g.as_str(), BTreeSet::new()))
            .collect();
        for (_, answers) in self.brokers.values() {
            for (group, cc) in &answers.connections {
                if let Some(set) = ids.get_mut(group.as_str()) {
                    set.extend(cc.connection_set.iter().map(|c| c.client_id.as_str()));
                }
            }
        }
        ids.into_iter()
            .map(|(g, s)| (g.to_owned(), s.len()))
            .collect()
    }

    /// What the live page shows: every polled group with its members (each once), its queues in
    /// `MessageQueue` order, and each broker's speeds.
    pub fn view(&self, fetched_at_ms: u64) -> ConsumersView {
        let tps = self.consume_tps();
        let groups = self
            .groups
            .iter()
            .map(|group| {
                let mut view = GroupView {
                    group: group.clone(),
                    consume_tps: tps.get(group).copied().unwrap_or(0.0),
                    ..GroupView::default()
                };
                for (_, answers) in self.brokers.values() {
                    if let Some(cc) = answers.connections.get(group) {
                        for c in &cc.connection_set {
                            if !view.members.iter().any(|m| m.client_id == c.client_id) {
                                view.members.push(MemberView {
                                    client_id: c.client_id.clone(),
                                    client_addr: c.client_addr.clone(),
                                    language: c.language.clone(),
                                    version: c.version,
                                    queues_unknown: match self.owners.held(group, &c.client_id) {
                                        Some(Held::Silent { error, .. }) => Some(error.clone()),
                                        _ => None,
                                    },
                                    health: self.owners.health(group, &c.client_id).cloned(),
                                });
                            }
                        }
                        view.consume_type.clone_from(&cc.consume_type);
                        view.message_model.clone_from(&cc.message_model);
                    }
                    if let Some(n) = answers.dlq.get(group) {
                        *view.dlq.get_or_insert(0) += n;
                    }
                    if let Some(stats) = answers.groups.get(group) {
                        for (q, o) in &stats.offset_table.0 {
                            let span = self.spans.get(&(
                                group.clone(),
                                q.topic.clone(),
                                q.broker_name.clone(),
                            ));
                            if let Some(error) = span.and_then(|s| s.error.as_ref()) {
                                view.lag_error
                                    .get_or_insert_with(|| format!("{}: {error}", q.broker_name));
                            }
                            let next_store_time_ms = span
                                .and_then(|s| Some((s.delays.get(&q.queue_id)?, s.read_at_ms)))
                                .and_then(|(delay, at)| {
                                    let diff = o.broker_offset - o.consumer_offset;
                                    Unread::of(diff, *delay, at).next_store_time_ms()
                                });
                            view.queues.push(QueueOffsets {
                                topic: q.topic.clone(),
                                broker_name: q.broker_name.clone(),
                                queue_id: q.queue_id,
                                broker_offset: o.broker_offset,
                                consumer_offset: o.consumer_offset,
                                last_timestamp_ms: o.last_timestamp,
                                next_store_time_ms,
                                owner: None,
                                cached: None,
                            });
                        }
                    }
                }
                keep_last(&mut view.queues, |q| {
                    (q.topic.clone(), q.broker_name.clone(), q.queue_id)
                });
                crate::sort::sort_by(&mut view.members, |a, b| a.client_id.cmp(&b.client_id));
                if let Some(owners) = self
                    .owners
                    .owners_of(group, view.members.iter().map(|m| m.client_id.as_str()))
                {
                    view.owners_known = true;
                    for q in &mut view.queues {
                        let key = (q.topic.clone(), q.broker_name.clone(), q.queue_id);
                        q.owner = owners.get(&key).cloned();
                        q.cached = q
                            .owner
                            .as_deref()
                            .and_then(|m| self.owners.cached(group, m, &key));
                    }
                }
                crate::sort::sort_by(&mut view.queues, |a, b| {
                    crate::consumer::compare(
                        &crate::consumer::MessageQueue::new(&a.topic, &a.broker_name, a.queue_id),
                        &crate::consumer::MessageQueue::new(&b.topic, &b.broker_name, b.queue_id),
                    )
                });
                view
            })
            .collect();
        let brokers = self
            .brokers
            .values()
            .map(|(t, a)| BrokerSpeed {
                broker_name: t.broker_name.clone(),
                addr: t.addr.clone(),
                error: a.error.clone(),
                fetched_at_ms: a.fetched_at_ms,
                put_tps: a.put_tps,
                get_tps: a.get_tps,
                health: (!a.health.is_empty()).then(|| a.health.clone()),
                slaves: a
                    .slaves
                    .iter()
                    .map(|(id, addr, answer)| SlaveView {
                        id: *id,
                        addr: addr.clone(),
                        error: answer.as_ref().err().cloned(),
                        health: answer.as_ref().ok().cloned(),
                        behind_bytes: answer.as_ref().ok().and_then(|h| behind(&a.health, h)),
                    })
                    .collect(),
            })
            .collect();
        ConsumersView {
            fetched_at_ms,
            brokers,
            groups,
            producers: self.producers(),
            topics: self.topics.busiest(BUSIEST_TOPICS),
        }
    }

    /// The producer groups the brokers know (their producer tables), each member once, with the
    /// brokers it is connected to; the clients' own inner group left out.
    pub fn producers(&self) -> Vec<ProducerGroupView> {
        let mut groups: BTreeMap<&str, ProducerGroupView> = BTreeMap::new();
        for (target, answers) in self.brokers.values() {
            for (group, producers) in answers.producers.iter().flatten() {
                if group == CLIENT_INNER_PRODUCER_GROUP || producers.is_empty() {
                    continue;
                }
                let view = groups.entry(group).or_insert_with(|| ProducerGroupView {
                    group: group.clone(),
                    ..ProducerGroupView::default()
                });
                view.brokers.push(target.broker_name.clone());
                for p in producers {
                    if !view.members.iter().any(|m| m.client_id == p.client_id) {
                        view.members.push(ProducerView {
                            client_id: p.client_id.clone(),
                            client_addr: p.remote_ip.clone(),
                            language: p.language.clone(),
                            version: p.version,
                        });
                    }
                }
            }
        }
        groups
            .into_values()
            .map(|mut g| {
                crate::sort::sort_by(&mut g.members, |a, b| a.client_id.cmp(&b.client_id));
                g
            })
            .collect()
    }

    /// The time spans worth asking, with the broker address to ask: each (group, topic, broker) whose
    /// last poll shows messages unread on some queue, from brokers that answered. A group read to the
    /// end costs nothing.
    pub fn unread_spans(&self) -> BTreeMap<SpanKey, String> {
        let mut out = BTreeMap::new();
        for (target, answers) in self.brokers.values() {
            if answers.error.is_some() {
                continue;
            }
            for (group, stats) in &answers.groups {
                for (q, o) in &stats.offset_table.0 {
                    if o.broker_offset > o.consumer_offset {
                        out.insert(
                            (group.clone(), q.topic.clone(), q.broker_name.clone()),
                            target.addr.clone(),
                        );
                    }
                }
            }
        }
        out
    }

    /// How long the oldest unread message has waited at `now_ms`, per (cluster, group, topic), over
    /// the queues of brokers whose last span reading knew it (`routelab_backlog_age_seconds`).
    pub fn backlog_ages(&self, now_ms: u64) -> BTreeMap<(String, String, String), i64> {
        let now = i64::try_from(now_ms).unwrap_or(i64::MAX);
        let mut out: BTreeMap<(String, String, String), i64> = BTreeMap::new();
        for (target, answers) in self.brokers.values() {
            for (group, stats) in &answers.groups {
                for (q, o) in &stats.offset_table.0 {
                    let key = (group.clone(), q.topic.clone(), q.broker_name.clone());
                    let Some(reading) = self.spans.get(&key) else {
                        continue;
                    };
                    let Some(delay) = reading.delays.get(&q.queue_id) else {
                        continue;
                    };
                    let unread = Unread::of(
                        o.broker_offset - o.consumer_offset,
                        *delay,
                        reading.read_at_ms,
                    );
                    if let Some(stored) = unread.next_store_time_ms() {
                        let age = now.saturating_sub(stored).max(0);
                        let slot = out
                            .entry((target.cluster.clone(), group.clone(), q.topic.clone()))
                            .or_insert(0);
                        *slot = (*slot).max(age);
                    }
                }
            }
        }
        out
    }

    /// The offsets the last round's consume stats already carry: for each of `pairs` some group
    /// consumes, the sum of its queues' broker offsets (GET_CONSUME_STATS lists every read queue of a
    /// subscribed topic, `AdminBrokerProcessor.getConsumeStats`), with when they were read.
    pub fn consumed_topic_offsets(
        &self,
        pairs: &[TopicBroker],
    ) -> BTreeMap<TopicBroker, (i64, u64)> {
        let wanted: std::collections::BTreeSet<&TopicBroker> = pairs.iter().collect();
        let mut queues: BTreeMap<TopicBroker, (BTreeMap<i32, i64>, u64)> = BTreeMap::new();
        for (_, answers) in self.brokers.values() {
            if answers.error.is_some() {
                continue;
            }
            for stats in answers.groups.values() {
                for (q, o) in &stats.offset_table.0 {
                    let pair = (q.topic.clone(), q.broker_name.clone());
                    if !wanted.contains(&pair) {
                        continue;
                    }
                    let entry = queues
                        .entry(pair)
                        .or_insert_with(|| (BTreeMap::new(), answers.fetched_at_ms));
                    let max = entry.0.entry(q.queue_id).or_insert(0);
                    *max = (*max).max(o.broker_offset.max(0));
                }
            }
        }
        queues
            .into_iter()
            .map(|(pair, (by_queue, at))| (pair, (by_queue.values().sum(), at)))
            .collect()
    }

    /// Messages in each group's dead-letter topic, summed over brokers (groups with one only).
    pub fn dlq(&self) -> BTreeMap<String, i64> {
        let mut out = BTreeMap::new();
        for (_, answers) in self.brokers.values() {
            for (group, n) in &answers.dlq {
                *out.entry(group.clone()).or_insert(0) += n;
            }
        }
        out
    }

    /// Consume TPS per group, summed over brokers (`examineConsumeStats`).
    pub fn consume_tps(&self) -> BTreeMap<String, f64> {
        let mut out = BTreeMap::new();
        for (_, answers) in self.brokers.values() {
            for (group, stats) in &answers.groups {
                *out.entry(group.clone()).or_insert(0.0) += stats.consume_tps;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
