//! What a broker answers mqadmin's backlog commands with (RocketMQ 4.9.8 `common`):
//! `TopicStatsTable` (GET_TOPIC_STATS_INFO), `ConsumeStats` (GET_CONSUME_STATS) and
//! `ConsumerConnection` (GET_CONSUMER_CONNECTION_LIST) and a client's `ConsumerRunningInfo`
//! (GET_CONSUMER_RUNNING_INFO, through a broker); brokerStatus's `KVTable` is in `cluster`.
//!
//! The first two are maps keyed by `MessageQueue`, which fastjson writes as an object in key
//! position (`{{"brokerName":"b","queueId":0,"topic":"T"}:{…}}`, not JSON); rocketmq-rust's broker
//! writes the same key as a JSON string holding that object. [`super::fastjson::from_body`] turns the
//! first into the second, and [`QueueMap`] reads the string.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A `MessageQueue` as a map key.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueKey {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
}

/// A `Map<MessageQueue, V>` in the order the body listed it.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueMap<V>(pub Vec<(QueueKey, V)>);

impl<V> Default for QueueMap<V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for QueueMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = QueueMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map keyed by message queues")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let queue: QueueKey = serde_json::from_str(&key).map_err(|e| {
                        serde::de::Error::custom(format!(
                            "the key {key:?} is not a message queue ({e})"
                        ))
                    })?;
                    out.push((queue, map.next_value()?));
                }
                Ok(QueueMap(out))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// `TopicOffset`: a queue's offsets and when its last message was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TopicOffset {
    pub min_offset: i64,
    pub max_offset: i64,
    pub last_update_timestamp: i64,
}

/// `TopicStatsTable` (GET_TOPIC_STATS_INFO's body).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TopicStatsTable {
    pub offset_table: QueueMap<TopicOffset>,
}

/// `OffsetWrapper`: the broker's max offset of a queue against the group's committed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OffsetWrapper {
    pub broker_offset: i64,
    pub consumer_offset: i64,
    /// When the last consumed message was stored (epoch ms; 0: none).
    pub last_timestamp: i64,
}

/// `ConsumeStats` (GET_CONSUME_STATS's body).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConsumeStats {
    pub offset_table: QueueMap<OffsetWrapper>,
    pub consume_tps: f64,
}

impl ConsumeStats {
    /// `computeTotalDiff`: the sum of broker offset − consumer offset.
    pub fn total_diff(&self) -> i64 {
        self.offset_table
            .0
            .iter()
            .map(|(_, o)| o.broker_offset - o.consumer_offset)
            .sum()
    }
}

/// `Connection`: one member's channel to the broker.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Connection {
    pub client_id: String,
    pub client_addr: String,
    pub language: String,
    pub version: i32,
}

/// `SubscriptionData`, the two fields mqadmin prints.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SubscriptionData {
    pub topic: String,
    pub sub_string: String,
}

/// `ConsumerConnection` (GET_CONSUMER_CONNECTION_LIST's body). The subscription table keeps the
/// body's order (a `ConcurrentMap` in Java, printed in the order it iterates).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConsumerConnection {
    pub connection_set: Vec<Connection>,
    #[serde(deserialize_with = "ordered_subscriptions")]
    pub subscription_table: Vec<(String, SubscriptionData)>,
    /// `CONSUME_ACTIVELY` (pull) or `CONSUME_PASSIVELY` (push); empty when absent.
    pub consume_type: String,
    /// `CLUSTERING` or `BROADCASTING`.
    pub message_model: String,
    pub consume_from_where: String,
}

impl ConsumerConnection {
    /// `computeMinVersion`: the lowest client version among the connections.
    pub fn min_version(&self) -> Option<i32> {
        self.connection_set.iter().map(|c| c.version).min()
    }
}

fn ordered_subscriptions<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<(String, SubscriptionData)>, D::Error> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(String, SubscriptionData)>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map of topic to subscription")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = map.next_entry()? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Entries)
}

/// `ConsumerRunningInfo`, as far as RouteLab reads it: the queues the member holds (`mqTable`, a
/// `TreeMap<MessageQueue, ProcessQueueInfo>`) with what it has cached of each, how fast and how
/// well it consumes each topic (`statusTable`), and its properties.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConsumerRunningInfo {
    pub mq_table: QueueMap<ProcessQueueInfo>,
    pub status_table: std::collections::BTreeMap<String, ConsumeStatus>,
    pub properties: std::collections::BTreeMap<String, serde_json::Value>,
}

/// `ProcessQueueInfo`: a held queue as the member's process queue has it; the fields the page
/// shows.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProcessQueueInfo {
    pub commit_offset: i64,
    /// Messages pulled and not consumed yet (the client stops pulling past
    /// `pullThresholdForQueue`, 1,000 by default).
    pub cached_msg_count: i64,
    #[serde(rename = "cachedMsgSizeInMiB")]
    pub cached_msg_size_in_mib: i64,
    /// `droped` (sic): the queue was taken away by a rebalance.
    pub droped: bool,
}

/// `ConsumeStatus`: one topic's figures in the member's `ConsumerStatsManager` (RT in ms, rates
/// per second, failures in the last hour).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConsumeStatus {
    #[serde(rename = "pullRT")]
    pub pull_rt: f64,
    #[serde(rename = "pullTPS")]
    pub pull_tps: f64,
    #[serde(rename = "consumeRT")]
    pub consume_rt: f64,
    #[serde(rename = "consumeOKTPS")]
    pub consume_ok_tps: f64,
    #[serde(rename = "consumeFailedTPS")]
    pub consume_failed_tps: f64,
    pub consume_failed_msgs: i64,
}

impl ConsumerRunningInfo {
    /// The queues the member holds, in the body's order.
    pub fn queues(&self) -> impl Iterator<Item = &QueueKey> {
        self.mq_table.0.iter().map(|(q, _)| q)
    }
}

/// `ProducerConnection` (GET_PRODUCER_CONNECTION_LIST's body): a producer group's members on
/// this broker.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProducerConnection {
    pub connection_set: Vec<Connection>,
}

/// `ProducerInfo`: one producer as a 5.x broker's producer table has it (GET_ALL_PRODUCER_INFO).
/// Java writes camelCase (`remoteIP` included); rocketmq-rust's broker 1.0.0 snake_case: both read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProducerInfo {
    #[serde(alias = "client_id")]
    pub client_id: String,
    #[serde(rename = "remoteIP", alias = "remote_ip")]
    pub remote_ip: String,
    pub language: String,
    pub version: i32,
    #[serde(alias = "last_update_timestamp")]
    pub last_update_timestamp: i64,
}

/// `ProducerTableInfo` (GET_ALL_PRODUCER_INFO's body, 5.x): producer group → its producers here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct ProducerTableInfo {
    pub data: std::collections::BTreeMap<String, Vec<ProducerInfo>>,
}

/// `QueueTimeSpan`: one queue of a QUERY_CONSUME_TIME_SPAN answer (`AdminBrokerProcessor
/// .queryConsumeTimeSpan`, 4.9.8 and 5.3.3): the store times of its first and last messages and of
/// the group's last consumed one, and `delayTime`: the broker's clock minus the store time of the
/// first message the group has not consumed, or 0 when it has consumed everything.
///
/// Java writes the members in camelCase (fastjson, from the getters); rocketmq-rust's broker 1.0.0
/// writes this body's in snake_case (its struct has no `rename_all`), so both are read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QueueTimeSpan {
    #[serde(alias = "message_queue")]
    pub message_queue: Option<QueueKey>,
    #[serde(alias = "min_time_stamp")]
    pub min_time_stamp: i64,
    #[serde(alias = "max_time_stamp")]
    pub max_time_stamp: i64,
    #[serde(alias = "consume_time_stamp")]
    pub consume_time_stamp: i64,
    #[serde(alias = "delay_time")]
    pub delay_time: i64,
}

/// `QueryConsumeTimeSpanBody` (QUERY_CONSUME_TIME_SPAN's body): a span per write queue.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QueryConsumeTimeSpanBody {
    #[serde(alias = "consume_time_span_set")]
    pub consume_time_span_set: Vec<QueueTimeSpan>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fastjson::from_str;

    /// fastjson 1's form of a Java broker's TopicStatsTable: the `MessageQueue` key is an object,
    /// its fields in alphabetical order (fastjson's SortField), as 4.9.8's `TopicStatsTable.encode()`
    /// writes it.
    #[test]
    fn java_topic_stats_with_object_keys() {
        let body = r#"{"offsetTable":{{"brokerName":"broker-a","queueId":1,"topic":"T"}:{"lastUpdateTimestamp":1733390000123,"maxOffset":9,"minOffset":0},{"brokerName":"broker-a","queueId":0,"topic":"T"}:{"lastUpdateTimestamp":0,"maxOffset":0,"minOffset":0}}}"#;
        let t: TopicStatsTable = from_str(body).unwrap();
        assert_eq!(t.offset_table.0.len(), 2);
        let (q, o) = &t.offset_table.0[0];
        assert_eq!(
            (q.topic.as_str(), q.broker_name.as_str(), q.queue_id),
            ("T", "broker-a", 1)
        );
        assert_eq!(
            (o.min_offset, o.max_offset, o.last_update_timestamp),
            (0, 9, 1_733_390_000_123)
        );
    }

    /// rocketmq-rust's broker writes the key as a JSON string (captured from rocketmq-broker 1.0.0).
    #[test]
    fn rust_broker_topic_stats_with_string_keys() {
        let body = r#"{"topicPutTps":0.0,"offsetTable":{"{\"topic\":\"T1\",\"brokerName\":\"broker-a\",\"queueId\":0}":{"minOffset":0,"maxOffset":3,"lastUpdateTimestamp":0}}}"#;
        let t: TopicStatsTable = from_str(body).unwrap();
        assert_eq!(t.offset_table.0[0].0.topic, "T1");
        assert_eq!(t.offset_table.0[0].1.max_offset, 3);
    }

    /// ConsumeStats as rocketmq-rust 1.0.0 sent it (object keys, as fastjson), and its total diff.
    #[test]
    fn consume_stats_and_total_diff() {
        let body = r#"{"offsetTable":{{"topic":"T1","brokerName":"broker-a","queueId":1}:{"brokerOffset":7,"consumerOffset":2,"pullOffset":0,"lastTimestamp":0},{"topic":"T1","brokerName":"broker-a","queueId":0}:{"brokerOffset":4,"consumerOffset":4,"pullOffset":0,"lastTimestamp":5}},"consumeTps":1.5}"#;
        let c: ConsumeStats = from_str(body).unwrap();
        assert_eq!(c.offset_table.0.len(), 2);
        assert_eq!(c.total_diff(), 5);
        assert_eq!(c.consume_tps, 1.5);
    }

    /// A key that is not a queue is refused with what it was.
    #[test]
    fn a_key_that_is_not_a_queue_is_named() {
        let err = from_str::<TopicStatsTable>(r#"{"offsetTable":{"x":{}}}"#).unwrap_err();
        assert!(
            err.to_string().contains("\"x\" is not a message queue"),
            "{err}"
        );
    }

    /// A Java 4.9.8 client's answer (fastjson: object keys in key position, fields sorted); the
    /// process queue details are skipped, whatever they hold.
    #[test]
    fn consumer_running_info_lists_the_members_queues() {
        let body = r#"{"jstack":"","mqTable":{{"brokerName":"broker-a","queueId":0,"topic":"T"}:{"cachedMsgCount":0,"commitOffset":12,"droped":false,"locked":false},{"brokerName":"broker-b","queueId":3,"topic":"T"}:{"commitOffset":4}},"properties":{"PROP_CONSUMEORDERLY":"false","PROP_CONSUMER_START_TIMESTAMP":1733390000123},"statusTable":{},"subscriptionSet":[{"subString":"*","topic":"T"}]}"#;
        let info: ConsumerRunningInfo = from_str(body).unwrap();
        let queues: Vec<(&str, &str, i32)> = info
            .queues()
            .map(|q| (q.topic.as_str(), q.broker_name.as_str(), q.queue_id))
            .collect();
        assert_eq!(queues, [("T", "broker-a", 0), ("T", "broker-b", 3)]);
        assert_eq!(info.properties["PROP_CONSUMEORDERLY"], "false");
        let none: ConsumerRunningInfo = from_str("{}").unwrap();
        assert_eq!(none.queues().count(), 0);
    }

    #[test]
    fn consumer_connection_keeps_the_subscription_order() {
        let body = r#"{"connectionSet":[{"clientAddr":"127.0.0.1:50001","clientId":"10.0.0.1@a","language":"JAVA","version":395}],"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","subscriptionTable":{"Zeta":{"subString":"*","topic":"Zeta"},"%RETRY%G":{"subString":"*","topic":"%RETRY%G"}}}"#;
        let c: ConsumerConnection = from_str(body).unwrap();
        assert_eq!(c.min_version(), Some(395));
        let topics: Vec<&str> = c
            .subscription_table
            .iter()
            .map(|(t, _)| t.as_str())
            .collect();
        assert_eq!(topics, ["Zeta", "%RETRY%G"]);
        assert_eq!(c.consume_type, "CONSUME_PASSIVELY");
    }

    /// Java's camelCase body and rocketmq-rust's snake_case one read alike.
    #[test]
    fn consume_time_spans_in_both_spellings() {
        let java = br#"{"consumeTimeSpanSet":[{"messageQueue":{"topic":"T","brokerName":"b","queueId":1},"minTimeStamp":1,"maxTimeStamp":2,"consumeTimeStamp":1,"delayTime":65000}]}"#;
        let rust = br#"{"consume_time_span_set":[{"message_queue":{"topic":"T","brokerName":"b","queueId":1},"min_time_stamp":1,"max_time_stamp":2,"consume_time_stamp":1,"delay_time":65000}]}"#;
        for body in [&java[..], &rust[..]] {
            let b: QueryConsumeTimeSpanBody = crate::model::fastjson::from_body(body).unwrap();
            let span = &b.consume_time_span_set[0];
            assert_eq!(span.delay_time, 65_000);
            assert_eq!(span.message_queue.as_ref().unwrap().queue_id, 1);
        }
    }

    /// A Java client's running info: cached messages per queue and the consume figures per topic.
    #[test]
    fn running_info_health() {
        let body = br#"{"mqTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{"commitOffset":40,"cachedMsgMinOffset":41,"cachedMsgMaxOffset":1040,"cachedMsgCount":1000,"cachedMsgSizeInMiB":3,"droped":false,"locked":false}},"statusTable":{"T":{"pullRT":2.5,"pullTPS":300.0,"consumeRT":812.5,"consumeOKTPS":1.25,"consumeFailedTPS":0.5,"consumeFailedMsgs":1800}},"properties":{},"subscriptionSet":[],"jstack":""}"#;
        let info: ConsumerRunningInfo = crate::model::fastjson::from_body(body).unwrap();
        let (q, pq) = &info.mq_table.0[0];
        assert_eq!(
            (q.queue_id, pq.cached_msg_count, pq.cached_msg_size_in_mib),
            (0, 1000, 3)
        );
        let t = &info.status_table["T"];
        assert_eq!(
            (t.consume_rt, t.consume_ok_tps, t.consume_failed_tps),
            (812.5, 1.25, 0.5)
        );
        assert_eq!(t.consume_failed_msgs, 1800);
    }

    /// A 5.x broker's producer table, as Java writes it and as rocketmq-rust does.
    #[test]
    fn producer_tables_in_both_spellings() {
        let java = br#"{"data":{"PID_orders":[{"clientId":"10.0.0.5@1","remoteIP":"10.0.0.5:50123","language":"JAVA","version":453,"lastUpdateTimestamp":1796000000000}]}}"#;
        let rust = br#"{"data":{"PID_orders":[{"client_id":"10.0.0.5@1","remote_ip":"10.0.0.5:50123","language":"JAVA","version":453,"last_update_timestamp":1796000000000}]}}"#;
        for body in [&java[..], &rust[..]] {
            let t: ProducerTableInfo = crate::model::fastjson::from_body(body).unwrap();
            let p = &t.data["PID_orders"][0];
            assert_eq!(
                (p.client_id.as_str(), p.remote_ip.as_str(), p.version),
                ("10.0.0.5@1", "10.0.0.5:50123", 453)
            );
        }
    }
}
