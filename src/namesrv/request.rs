//! Request structs for the mutations, with the validation that keeps bad input out of the tables.
//! Field names follow RocketMQ's request headers, so JavaScript callers pass the same names.

use serde::{Deserialize, Serialize};

use super::error::RouteError;
use super::tables::ChannelId;
use crate::model::{
    BrokerAddr, BrokerName, ClusterName, RegisterBrokerBody, TopicConfig,
    TopicConfigSerializeWrapper,
};

/// RouteLab's bound on queue counts. RocketMQ itself does not bound them at the NameServer; 1024 is
/// the largest count seen in real registrations (spec §9.6) and catches typos in forms.
pub const MAX_QUEUE_NUMS: i32 = 1024;
/// TopicValidator: topic names are at most 127 characters (255 for retry and DLQ topics).
pub const TOPIC_MAX_LEN: usize = 127;
/// TopicValidator: the longer limit of `%RETRY%` and `%DLQ%` topics.
pub const RETRY_DLQ_TOPIC_MAX_LEN: usize = 255;

/// REGISTER_BROKER (code 103): header fields plus the parsed body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisterBroker {
    pub cluster_name: ClusterName,
    pub broker_addr: BrokerAddr,
    pub broker_name: BrokerName,
    pub broker_id: i64,
    #[serde(default)]
    pub ha_server_addr: String,
    /// 5.x header; absent means 120 000 ms.
    #[serde(default)]
    pub heartbeat_timeout_millis: Option<u64>,
    /// 5.x header; absent marks an "old version broker" (no prime-slave rule).
    #[serde(default)]
    pub enable_acting_master: Option<bool>,
    /// 5.x extField `__ZONE_NAME`.
    #[serde(default)]
    pub zone_name: Option<String>,
    /// The body; a missing body is an empty one (DataVersion 0, no topics).
    #[serde(default)]
    pub body: RegisterBrokerBody,
    /// The connection the request arrived on.
    #[serde(default)]
    pub channel: ChannelId,
}

impl RegisterBroker {
    /// A master or slave registration with the given topics and an empty filter-server list.
    pub fn new(
        cluster: &str,
        broker_name: &str,
        broker_id: i64,
        broker_addr: &str,
        topics: TopicConfigSerializeWrapper,
    ) -> Self {
        Self {
            cluster_name: cluster.into(),
            broker_addr: broker_addr.into(),
            broker_name: broker_name.into(),
            broker_id,
            body: RegisterBrokerBody {
                filter_server_list: Vec::new(),
                topic_config_serialize_wrapper: topics,
            },
            ..Self::default()
        }
    }

    /// The topic configs and DataVersion of the body.
    pub fn topics(&self) -> &TopicConfigSerializeWrapper {
        &self.body.topic_config_serialize_wrapper
    }

    /// Checks every field; the first problem is returned with its field name.
    pub fn validate(&self) -> Result<(), RouteError> {
        self.validate_header()?;
        self.validate_topics()
    }

    /// Checks the fields other than the topic configs.
    pub fn validate_header(&self) -> Result<(), RouteError> {
        non_empty("clusterName", self.cluster_name.as_str())?;
        non_empty("brokerName", self.broker_name.as_str())?;
        validate_addr("brokerAddr", self.broker_addr.as_str())?;
        validate_broker_id(self.broker_id)?;
        if self.heartbeat_timeout_millis == Some(0) {
            return Err(RouteError::invalid(
                "heartbeatTimeoutMillis",
                "must be greater than 0 (leave it out for the default 120000)",
            ));
        }
        Ok(())
    }

    /// Checks the topic configs.
    pub fn validate_topics(&self) -> Result<(), RouteError> {
        for (key, tc) in &self.topics().topic_config_table {
            // A heartbeat repeats thousands of valid topics: the quick test answers for them, and
            // only a topic it doubts goes through the checks that say what is wrong.
            if !topic_config_plainly_valid(key, tc) {
                validate_registered_topic(key, tc)?;
            }
        }
        Ok(())
    }
}

/// UNREGISTER_BROKER (code 104).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnregisterBroker {
    pub cluster_name: ClusterName,
    pub broker_addr: BrokerAddr,
    pub broker_name: BrokerName,
    pub broker_id: i64,
}

impl UnregisterBroker {
    /// An unregistration of one broker.
    pub fn new(cluster: &str, broker_name: &str, broker_id: i64, broker_addr: &str) -> Self {
        Self {
            cluster_name: cluster.into(),
            broker_addr: broker_addr.into(),
            broker_name: broker_name.into(),
            broker_id,
        }
    }

    /// Checks every field.
    pub fn validate(&self) -> Result<(), RouteError> {
        non_empty("clusterName", self.cluster_name.as_str())?;
        non_empty("brokerName", self.broker_name.as_str())?;
        validate_addr("brokerAddr", self.broker_addr.as_str())?;
        validate_broker_id(self.broker_id)
    }
}

/// BROKER_HEARTBEAT (904, 5.x) and the header of QUERY_DATA_VERSION (322).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokerIdentity {
    pub cluster_name: ClusterName,
    pub broker_addr: BrokerAddr,
    pub broker_name: BrokerName,
    #[serde(default)]
    pub broker_id: i64,
}

impl BrokerIdentity {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), RouteError> {
        non_empty("clusterName", self.cluster_name.as_str())?;
        non_empty("brokerName", self.broker_name.as_str())?;
        validate_addr("brokerAddr", self.broker_addr.as_str())?;
        validate_broker_id(self.broker_id)
    }
}

pub(crate) fn non_empty(field: &str, value: &str) -> Result<(), RouteError> {
    if value.trim().is_empty() {
        return Err(RouteError::invalid(field, "must not be empty"));
    }
    Ok(())
}

fn validate_broker_id(id: i64) -> Result<(), RouteError> {
    if id < 0 {
        return Err(RouteError::invalid(
            "brokerId",
            format!("{id} is negative; 0 is the master, 1 and above are slaves"),
        ));
    }
    Ok(())
}

/// A broker address is `host:port` with a port in 1..=65535, as every broker sends it.
pub(crate) fn validate_addr(field: &str, addr: &str) -> Result<(), RouteError> {
    non_empty(field, addr)?;
    let bad = || {
        RouteError::invalid(
            field,
            format!("{addr:?} is not host:port (e.g. 10.0.0.1:10911)"),
        )
    };
    let (host, port) = addr.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || host.chars().any(char::is_whitespace) {
        return Err(bad());
    }
    match port.parse::<u16>() {
        Ok(p) if p > 0 => Ok(()),
        _ => Err(bad()),
    }
}

/// TopicValidator's rule: `^[%|a-zA-Z0-9_-]+$`, at most 127 characters (255 for retry/DLQ topics).
pub fn validate_topic_name(field: &str, topic: &str) -> Result<(), RouteError> {
    // Bytes first, through a table: every allowed character is ASCII, and a heartbeat checks
    // thousands of names (one load per byte instead of a chain of range tests, which a browser's
    // compiler of WebAssembly does not fold as well as a native compiler).
    let allowed = |b: u8| TOPIC_BYTE_ALLOWED[usize::from(b)];
    if topic.is_empty() || !topic.bytes().all(allowed) {
        // Whitespace is not allowed, so a blank name is caught here and named as such.
        non_empty(field, topic)?;
        let c = topic
            .chars()
            .find(|c| !(c.is_ascii() && allowed(*c as u8)))
            .unwrap_or_default();
        return Err(RouteError::invalid(
            field,
            format!("{topic:?} contains {c:?}; allowed: letters, digits, '%', '|', '_', '-'"),
        ));
    }
    // Only a name longer than the shorter limit needs its prefix looked at.
    if topic.len() <= TOPIC_MAX_LEN {
        return Ok(());
    }
    let max = if topic.starts_with("%RETRY%") || topic.starts_with("%DLQ%") {
        RETRY_DLQ_TOPIC_MAX_LEN
    } else {
        TOPIC_MAX_LEN
    };
    if topic.len() > max {
        return Err(RouteError::invalid(
            field,
            format!("is {} characters long; the limit is {max}", topic.len()),
        ));
    }
    Ok(())
}

/// The bytes a topic name may hold: ASCII letters and digits, '%', '|', '_' and '-'.
static TOPIC_BYTE_ALLOWED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'%' | b'|' | b'_' | b'-');
        b += 1;
    }
    t
};

/// Whether `tc` passes [`validate_registered_topic`], in one pass without branches: a heartbeat
/// checks thousands of valid topics. `false` only means "look closer", and the full check says why.
#[inline]
fn topic_config_plainly_valid(key: &str, tc: &TopicConfig) -> bool {
    (0..=MAX_QUEUE_NUMS).contains(&tc.read_queue_nums)
        & (0..=MAX_QUEUE_NUMS).contains(&tc.write_queue_nums)
        & crate::model::perm::is_valid(tc.perm)
        && crate::model::text::same_text(&tc.topic_name, key)
}

/// What a registration's topic config must be for RouteLab: queue counts in 0..=MAX_QUEUE_NUMS, a
/// valid perm, and its name equal to its table key. The name itself is not checked: no Java
/// NameServer checks topic names (RouteInfoManager takes whatever a broker sends; TopicValidator's
/// rule is the broker's and the admin tools'), so a broker carrying a name outside the rule is
/// registered with it, as Java does.
pub fn validate_registered_topic(key: &str, tc: &TopicConfig) -> Result<(), RouteError> {
    let field = |f: &str| format!("topicConfigTable[{key}].{f}");
    if !crate::model::text::same_text(&tc.topic_name, key) {
        return Err(RouteError::invalid(
            field("topicName"),
            format!("{:?} differs from its table key {key:?}", tc.topic_name),
        ));
    }
    for (name, n) in [
        ("readQueueNums", tc.read_queue_nums),
        ("writeQueueNums", tc.write_queue_nums),
    ] {
        if !(0..=MAX_QUEUE_NUMS).contains(&n) {
            return Err(RouteError::invalid(
                field(name),
                format!("{n} is outside 0..={MAX_QUEUE_NUMS}"),
            ));
        }
    }
    if !crate::model::perm::is_valid(tc.perm) {
        return Err(RouteError::invalid(
            field("perm"),
            format!(
                "{} is not a valid perm; use 0..=7 (R=4, W=2, inherit=1; 6 = read+write)",
                tc.perm
            ),
        ));
    }
    Ok(())
}

/// [`validate_registered_topic`] and TopicValidator's name rule: what a scenario or a fork may
/// hold (the simulator's brokers would refuse such a topic before any NameServer saw it).
pub fn validate_topic_config(key: &str, tc: &TopicConfig) -> Result<(), RouteError> {
    validate_topic_name("topicName", &tc.topic_name).map_err(|e| match e {
        RouteError::InvalidField { reason, .. } => {
            RouteError::invalid(format!("topicConfigTable[{key}].topicName"), reason)
        }
        other => other,
    })?;
    validate_registered_topic(key, tc)
}

/// Checks a `host:port` address field (exported for other request shapes, e.g. scenarios).
pub fn validate_addr_field(field: &str, addr: &str) -> Result<(), RouteError> {
    validate_addr(field, addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte table allows exactly RocketMQ's topic characters (letters, digits, `%|_-`).
    #[test]
    fn topic_byte_table_matches_the_allowed_characters() {
        for b in 0..=255u8 {
            let want = b.is_ascii_alphanumeric() || matches!(b, b'%' | b'|' | b'_' | b'-');
            assert_eq!(TOPIC_BYTE_ALLOWED[usize::from(b)], want, "byte {b}");
        }
    }

    /// Empty and blank names are "must not be empty"; a bad character is named.
    #[test]
    fn topic_name_errors_name_the_problem() {
        for (name, want) in [
            ("", "must not be empty"),
            ("   ", "must not be empty"),
            ("a b", "contains ' '"),
            ("Topic\u{e9}", "contains '\u{e9}'"),
        ] {
            let err = validate_topic_name("topic", name)
                .expect_err(name)
                .to_string();
            assert!(err.contains(want), "{name:?}: {err}");
        }
        assert!(validate_topic_name("topic", "%RETRY%group_1|x-y").is_ok());
    }
}
