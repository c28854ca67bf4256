//! Which RocketMQ the route manager behaves like (`Profile`) and the NamesrvConfig switches it honours.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// `BROKER_CHANNEL_EXPIRED_TIME`: a broker silent for longer than this is removed by the scan.
pub const DEFAULT_BROKER_CHANNEL_EXPIRED_MS: u64 = 120_000;
/// `namespace` of the order-topic configuration (`NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG`).
pub const NAMESPACE_ORDER_TOPIC_CONFIG: &str = "ORDER_TOPIC_CONFIG";
/// `unRegisterBrokerQueueCapacity` (5.x).
pub const DEFAULT_UNREGISTER_QUEUE_CAPACITY: usize = 3000;

/// The RocketMQ line whose NameServer rules apply. Where 4.x and 5.x differ (spec §2.2–§2.4) the route
/// manager branches on this, chosen once at construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Profile {
    /// `rocketmq-all-4.9.8`.
    #[serde(rename = "4.x")]
    V4,
    /// 5.x (`rocketmq-all-5.3.3` and develop).
    #[serde(rename = "5.x")]
    V5,
}

impl Profile {
    /// True for 5.x.
    pub fn is_v5(self) -> bool {
        self == Profile::V5
    }

    /// The scan schedule: (first delay, period) in ms. 4.x: 5 s then every 10 s. 5.x: every
    /// `scanNotActiveBrokerInterval` = 5 s (first run after 5 ms in 5.0–5.3.3, 5 s on develop; we use 5 s).
    pub fn scan_schedule_ms(self) -> (u64, u64) {
        match self {
            Profile::V4 => (5_000, 10_000),
            Profile::V5 => (5_000, 5_000),
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::V4 => "4.x",
            Profile::V5 => "5.x",
        })
    }
}

/// A profile name that is neither `4.x` nor `5.x` (nor their short forms). Its own error, not a
/// [`RouteError`](super::RouteError): reading a profile is no route-manager request, and `RouteError`
/// names a `Profile` in its variants, so the two files would otherwise import each other.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile {0:?}: expected \"4.x\" or \"5.x\"")]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "4.x" | "4" | "v4" => Ok(Profile::V4),
            "5.x" | "5" | "v5" => Ok(Profile::V5),
            other => Err(UnknownProfile(other.to_owned())),
        }
    }
}

/// The NamesrvConfig switches that change routing (spec §8.1). Defaults are RocketMQ's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NamesrvConfig {
    /// Set `orderTopicConf` in routes from the KV namespace ORDER_TOPIC_CONFIG (default false).
    pub order_message_enable: bool,
    /// 5.x: move a slave to key 0 in routes of groups with acting master and no writable queues.
    pub support_acting_master: bool,
    /// 5.x: GET_ALL_TOPIC_LIST answers "disable" when false.
    pub enable_all_topic_list: bool,
    /// 5.x: GET_TOPICS_BY_CLUSTER answers "disable" when false.
    pub enable_topic_list: bool,
    /// 5.2.0+: a registration prunes the group's topics missing from its body.
    pub delete_topic_with_broker_registration: bool,
    /// 5.x: capacity of the batch-unregistration queue.
    pub unregister_broker_queue_capacity: usize,
    /// `BROKER_CHANNEL_EXPIRED_TIME`: the expiry of 4.x brokers and of 5.x brokers that send no
    /// `heartbeatTimeoutMillis`. A constant (120 000) in RocketMQ; a RouteLab knob so a scenario can
    /// show what a badly matched expiry does.
    pub broker_channel_expired_millis: u64,
}

impl Default for NamesrvConfig {
    fn default() -> Self {
        Self {
            order_message_enable: false,
            support_acting_master: false,
            enable_all_topic_list: true,
            enable_topic_list: true,
            delete_topic_with_broker_registration: false,
            unregister_broker_queue_capacity: DEFAULT_UNREGISTER_QUEUE_CAPACITY,
            broker_channel_expired_millis: DEFAULT_BROKER_CHANNEL_EXPIRED_MS,
        }
    }
}
