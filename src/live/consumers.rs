//! Consumer groups as the live protocol carries them (`consumers` in a snapshot or an update): what
//! the bridge's last broker polls read, laid out for the page: each group's members, its queues with
//! the broker's and the group's offsets, and each broker's speeds, with when they were read.

use serde::{Deserialize, Serialize};

/// Everything the last round of broker polls learnt.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConsumersView {
    /// When the round ended (ms since the epoch).
    pub fetched_at_ms: u64,
    /// By broker name.
    pub brokers: Vec<BrokerSpeed>,
    /// By group name: every group with a retry topic.
    pub groups: Vec<GroupView>,
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
}

impl GroupView {
    /// Σ broker offset − consumer offset.
    pub fn backlog(&self) -> i64 {
        self.queues.iter().map(QueueOffsets::backlog).sum()
    }
}

/// A member's connection.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberView {
    pub client_id: String,
    pub client_addr: String,
    pub language: String,
    pub version: i32,
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
}

impl QueueOffsets {
    /// What is left to read (never negative).
    pub fn backlog(&self) -> i64 {
        (self.broker_offset - self.consumer_offset).max(0)
    }
}
