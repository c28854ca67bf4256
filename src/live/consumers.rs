//! Consumer groups as the live protocol carries them (`consumers` in a snapshot or an update): what
//! the bridge's last broker polls read, laid out for the page: each group's members, its queues with
//! the broker's and the group's offsets, and each broker's speeds, with when they were read.

use serde::{Deserialize, Serialize};

use super::broker_health::{BrokerHealth, SlaveView};

/// Everything the last round of broker polls learnt.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConsumersView {
    /// When the round ended (ms since the epoch).
    pub fetched_at_ms: u64,
    /// By broker name.
    pub brokers: Vec<BrokerSpeed>,
    /// By group name: every group with a retry topic.
    pub groups: Vec<GroupView>,
    /// By group name: the producer groups the brokers' producer tables list (5.x brokers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub producers: Vec<ProducerGroupView>,
    /// The busiest user topics (messages per second between two readings of their offsets),
    /// busiest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<super::topic_rates::TopicRate>,
}

/// A producer group as the brokers know it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProducerGroupView {
    pub group: String,
    /// Its members, by client id.
    pub members: Vec<ProducerView>,
    /// The brokers it is connected to (it heartbeats the brokers of the topics it sends to).
    pub brokers: Vec<String>,
}

/// One producer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProducerView {
    pub client_id: String,
    pub client_addr: String,
    pub language: String,
    pub version: i32,
}

// TPS figures are finite (non-numbers are dropped when read), so equality is an equivalence.
impl Eq for ConsumersView {}

/// One broker as the last poll found it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BrokerSpeed {
    pub broker_name: String,
    pub addr: String,
    /// Why the last poll failed (its earlier figures are kept); absent when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// When its figures were read (0: never).
    pub fetched_at_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub put_tps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub get_tps: Option<f64>,
    /// Its disk, put latency, page-cache lock and send queue wait ([`BrokerHealth`]); absent when
    /// its runtime table has none of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<BrokerHealth>,
    /// Its group's slaves, each with its health and how far it is behind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slaves: Vec<SlaveView>,
}

/// One consumer group.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupView {
    pub group: String,
    /// Connected members, by client id.
    pub members: Vec<MemberView>,
    pub consume_tps: f64,
    /// `CONSUME_PASSIVELY` (push) or `CONSUME_ACTIVELY` (pull); empty when no member is online.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub consume_type: String,
    /// `CLUSTERING` or `BROADCASTING`; empty when no member is online.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message_model: String,
    /// Its queues in `MessageQueue` order.
    pub queues: Vec<QueueOffsets>,
    /// Every member online said which queues it holds (GET_CONSUMER_RUNNING_INFO), so a queue
    /// without an owner has none; false while one is silent or not asked yet.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub owners_known: bool,
    /// Why a broker did not say how long its unread messages waited (the first such broker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lag_error: Option<String>,
    /// Messages in its dead-letter topic `%DLQ%<group>` (they failed 16 times and nobody reads
    /// them there), summed over brokers; absent when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dlq: Option<i64>,
}

impl GroupView {
    /// Σ broker offset − consumer offset.
    pub fn backlog(&self) -> i64 {
        self.queues.iter().map(QueueOffsets::backlog).sum()
    }

    /// The store time of the oldest unread message the brokers told of (of a queue with a
    /// backlog).
    pub fn oldest_unread_ms(&self) -> Option<i64> {
        self.queues
            .iter()
            .filter(|q| q.backlog() > 0)
            .filter_map(|q| q.next_store_time_ms)
            .min()
    }
}

/// A member's connection.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    pub client_id: String,
    pub client_addr: String,
    pub language: String,
    pub version: i32,
    /// Why it did not say which queues it holds (it did not answer its running info); absent when
    /// it did, or was not asked yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queues_unknown: Option<String>,
    /// How it consumes, from its running info's `statusTable` and `mqTable`; absent when it did not
    /// say (or reported no topic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<MemberHealth>,
}

/// Why a group lags, as one member says: its consume figures summed over its topics
/// (`ConsumeStatus`, from the client's `ConsumerStatsManager`) and what it has pulled and not yet
/// consumed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemberHealth {
    /// Milliseconds per message (its topics' `consumeRT`, weighted by their OK rates; the slowest
    /// when none consumed).
    pub consume_rt_ms: f64,
    /// Messages consumed per second.
    pub consume_ok_tps: f64,
    /// Messages whose consumption failed per second (they go back as retries).
    pub consume_failed_tps: f64,
    /// Messages failed in the last hour.
    pub failed_last_hour: i64,
    /// Messages pulled into its process queues and not consumed yet, over its queues (a client
    /// stops pulling a queue past 1,000 by default).
    pub cached: i64,
}

// Figures are finite (non-numbers are dropped when read), so equality is an equivalence.
impl Eq for MemberHealth {}

impl MemberHealth {
    /// From a member's running info; `None` when it reports no topic and no queue.
    pub fn of(info: &crate::model::broker_stats::ConsumerRunningInfo) -> Option<Self> {
        if info.status_table.is_empty() && info.mq_table.0.is_empty() {
            return None;
        }
        let finite = |v: f64| if v.is_finite() && v >= 0.0 { v } else { 0.0 };
        let mut h = Self::default();
        let (mut weighted, mut slowest) = (0.0, 0.0f64);
        for s in info.status_table.values() {
            let ok = finite(s.consume_ok_tps);
            h.consume_ok_tps += ok;
            h.consume_failed_tps += finite(s.consume_failed_tps);
            h.failed_last_hour += s.consume_failed_msgs.max(0);
            weighted += finite(s.consume_rt) * ok;
            slowest = slowest.max(finite(s.consume_rt));
        }
        h.consume_rt_ms = if h.consume_ok_tps > 0.0 {
            weighted / h.consume_ok_tps
        } else {
            slowest
        };
        h.cached = info
            .mq_table
            .0
            .iter()
            .filter(|(_, pq)| !pq.droped)
            .map(|(_, pq)| pq.cached_msg_count.max(0))
            .sum();
        Some(h)
    }
}

/// One queue of a group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueOffsets {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
    /// The broker's max offset.
    pub broker_offset: i64,
    /// The group's committed offset.
    pub consumer_offset: i64,
    /// When the last consumed message was stored (0: none).
    pub last_timestamp_ms: i64,
    /// When the first unread message was stored (ms since the epoch), as its broker last said
    /// (QUERY_CONSUME_TIME_SPAN, [`crate::live::lag`]); absent with nothing unread, or not known.
    /// Its age at any moment is that moment minus this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_store_time_ms: Option<i64>,
    /// The member holding it, as that member said; absent when nobody said so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Messages its owner has pulled and not consumed yet (its process queue's `cachedMsgCount`);
    /// absent when the owner did not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached: Option<i64>,
}

impl QueueOffsets {
    /// What is left to read (never negative).
    pub fn backlog(&self) -> i64 {
        (self.broker_offset - self.consumer_offset).max(0)
    }
}

/// How often the history keeps the groups while only their offsets move: the past's backlog is
/// at most this old. Who is online and who holds what are kept as soon as they change.
pub const KEEP_EVERY_MS: u64 = 60_000;

/// Whether the history keeps `now`, `last` being what it kept before: always the first; then when
/// members, owners, queues or a broker's failing change, or a group's backlog appears or is gone;
/// or offsets or speeds moved and the last kept is [`KEEP_EVERY_MS`] old.
pub fn worth_keeping(last: Option<&ConsumersView>, now: &ConsumersView) -> bool {
    let Some(last) = last else {
        return true;
    };
    let waiting =
        |v: &ConsumersView| -> Vec<bool> { v.groups.iter().map(|g| g.backlog() > 0).collect() };
    if shape(last) != shape(now) || waiting(last) != waiting(now) {
        return true;
    }
    now.fetched_at_ms.saturating_sub(last.fetched_at_ms) >= KEEP_EVERY_MS
        && (last.groups != now.groups || last.brokers != now.brokers)
}

/// Who is online, who holds what, which queues, which brokers fail: what [`worth_keeping`] keeps
/// at once.
type Shape<'a> = (
    Vec<(&'a str, Vec<&'a str>, bool, Vec<QueueShape<'a>>)>,
    Vec<(&'a str, bool)>,
);
type QueueShape<'a> = (&'a str, &'a str, i32, Option<&'a str>);

fn shape(v: &ConsumersView) -> Shape<'_> {
    let groups = v
        .groups
        .iter()
        .map(|g| {
            (
                g.group.as_str(),
                g.members.iter().map(|m| m.client_id.as_str()).collect(),
                g.owners_known,
                g.queues
                    .iter()
                    .map(|q| {
                        (
                            q.topic.as_str(),
                            q.broker_name.as_str(),
                            q.queue_id,
                            q.owner.as_deref(),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    let brokers = v
        .brokers
        .iter()
        .map(|b| (b.broker_name.as_str(), b.error.is_some()))
        .collect();
    (groups, brokers)
}

/// A view of `groups` (name, member ids) at `at`, for tests here and in `live::history`.
#[cfg(test)]
pub(crate) fn test_view(at: u64, groups: &[(&str, &[&str])]) -> ConsumersView {
    ConsumersView {
        fetched_at_ms: at,
        brokers: Vec::new(),
        producers: Vec::new(),
        topics: Vec::new(),
        groups: groups
            .iter()
            .map(|(g, ids)| GroupView {
                group: (*g).into(),
                members: ids
                    .iter()
                    .map(|id| MemberView {
                        client_id: (*id).into(),
                        client_addr: format!("{id}:1"),
                        ..MemberView::default()
                    })
                    .collect(),
                ..GroupView::default()
            })
            .collect(),
    }
}

/// [`test_view`] of group G (m1, m2) with queues of T on b held by `owners`, for tests.
#[cfg(test)]
pub(crate) fn test_owned(at: u64, known: bool, owners: &[Option<&str>]) -> ConsumersView {
    let mut v = test_view(at, &[("G", &["m1", "m2"])]);
    let g = &mut v.groups[0];
    g.owners_known = known;
    g.queues = owners
        .iter()
        .enumerate()
        .map(|(i, o)| QueueOffsets {
            topic: "T".into(),
            broker_name: "b".into(),
            queue_id: i as i32,
            owner: o.map(str::to_owned),
            ..QueueOffsets::default()
        })
        .collect();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::test_owned as owned;
    use crate::model::broker_stats::{
        ConsumeStatus, ConsumerRunningInfo, ProcessQueueInfo, QueueKey, QueueMap,
    };

    /// RT weighted by each topic's OK rate, rates and failures summed, the cache over held
    /// queues; the slowest RT when nothing was consumed; nothing from an empty answer.
    #[test]
    fn member_health_from_running_info() {
        let status = |rt: f64, ok: f64, failed: f64, msgs: i64| ConsumeStatus {
            consume_rt: rt,
            consume_ok_tps: ok,
            consume_failed_tps: failed,
            consume_failed_msgs: msgs,
            ..ConsumeStatus::default()
        };
        let pq = |cached: i64, droped: bool| ProcessQueueInfo {
            cached_msg_count: cached,
            droped,
            ..ProcessQueueInfo::default()
        };
        let key = |q: i32| QueueKey {
            topic: "T".into(),
            broker_name: "b".into(),
            queue_id: q,
        };
        let info = ConsumerRunningInfo {
            mq_table: QueueMap(vec![
                (key(0), pq(700, false)),
                (key(1), pq(300, false)),
                (key(2), pq(99, true)),
            ]),
            status_table: [
                ("T".to_owned(), status(100.0, 3.0, 0.5, 10)),
                ("U".to_owned(), status(20.0, 1.0, f64::NAN, 2)),
            ]
            .into(),
            ..ConsumerRunningInfo::default()
        };
        let h = MemberHealth::of(&info).unwrap();
        assert_eq!(h.consume_rt_ms, 80.0, "(100 × 3 + 20 × 1) / 4");
        assert_eq!((h.consume_ok_tps, h.consume_failed_tps), (4.0, 0.5));
        assert_eq!((h.failed_last_hour, h.cached), (12, 1000));
        let stuck = ConsumerRunningInfo {
            status_table: [("T".to_owned(), status(5_000.0, 0.0, 0.0, 0))].into(),
            ..ConsumerRunningInfo::default()
        };
        assert_eq!(MemberHealth::of(&stuck).unwrap().consume_rt_ms, 5_000.0);
        assert_eq!(MemberHealth::of(&ConsumerRunningInfo::default()), None);
    }

    /// The history keeps the first view, any change of who is online or holds what at once, and
    /// moving offsets once a minute.
    #[test]
    fn what_the_history_keeps() {
        let first = owned(0, true, &[Some("m1"), Some("m2")]);
        assert!(worth_keeping(None, &first));
        let mut later = owned(10_000, true, &[Some("m1"), Some("m2")]);
        assert!(!worth_keeping(Some(&first), &later), "nothing moved");
        later.groups[0].queues[0].broker_offset = 7;
        later.groups[0].queues[0].consumer_offset = 7;
        assert!(
            !worth_keeping(Some(&first), &later),
            "offsets moved, within the minute"
        );
        later.fetched_at_ms = KEEP_EVERY_MS;
        assert!(
            worth_keeping(Some(&first), &later),
            "offsets moved, a minute on"
        );
        let mut waiting = owned(10_000, true, &[Some("m1"), Some("m2")]);
        waiting.groups[0].queues[1].broker_offset = 3;
        assert!(worth_keeping(Some(&first), &waiting), "a backlog appeared");
        let mut more = waiting.clone();
        more.groups[0].queues[1].broker_offset = 9;
        assert!(
            !worth_keeping(Some(&waiting), &more),
            "it grew, within the minute"
        );
        let moved = owned(10_000, true, &[Some("m2"), Some("m2")]);
        assert!(worth_keeping(Some(&first), &moved), "a queue changed hands");
        let left = owned(10_000, true, &[Some("m1"), Some("m2")]);
        let mut left = left;
        left.groups[0].members.pop();
        assert!(worth_keeping(Some(&first), &left), "a member left");
    }
}
