//! What a broker sends when it registers (spec §6.4): `DataVersion`, `TopicConfig`,
//! `TopicConfigSerializeWrapper` and `RegisterBrokerBody`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::perm::PERM_DEFAULT;

/// A broker's topic-config version. The NameServer re-reads topic configs only when it changes.
///
/// `stateVersion` exists only in 5.x; `None` means "not sent" and compares as 0. Which fields take part
/// in equality depends on the profile, so the route manager compares versions, not this type.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataVersion {
    #[serde(default)]
    pub counter: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_version: Option<i64>,
    #[serde(default)]
    pub timestamp: i64,
}

impl DataVersion {
    /// A version with the given counter and timestamp, no stateVersion.
    pub fn new(counter: i64, timestamp: i64) -> Self {
        Self {
            counter,
            state_version: None,
            timestamp,
        }
    }

    /// `stateVersion`, 0 when absent.
    pub fn state(&self) -> i64 {
        self.state_version.unwrap_or(0)
    }
}

/// A broker's configuration of one topic. Defaults are RocketMQ's: 16 read and 16 write queues,
/// perm 6 (RW), `SINGLE_TAG`, no system flag, not ordered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TopicConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes: Option<BTreeMap<String, String>>,
    pub order: bool,
    pub perm: i32,
    pub read_queue_nums: i32,
    pub topic_filter_type: String,
    pub topic_name: String,
    pub topic_sys_flag: i32,
    pub write_queue_nums: i32,
}

impl Default for TopicConfig {
    fn default() -> Self {
        Self {
            attributes: None,
            order: false,
            perm: PERM_DEFAULT,
            read_queue_nums: 16,
            topic_filter_type: "SINGLE_TAG".to_owned(),
            topic_name: String::new(),
            topic_sys_flag: 0,
            write_queue_nums: 16,
        }
    }
}

impl TopicConfig {
    /// A topic with the given queue counts and perm, other fields at their defaults.
    pub fn new(topic: &str, read: i32, write: i32, perm: i32) -> Self {
        Self {
            topic_name: topic.to_owned(),
            read_queue_nums: read,
            write_queue_nums: write,
            perm,
            ..Self::default()
        }
    }
}

/// The broker's DataVersion and topic table (`TopicConfigSerializeWrapper`, plus the 5.x static-topic
/// fields of `TopicConfigAndMappingSerializeWrapper`, kept as JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TopicConfigSerializeWrapper {
    pub data_version: DataVersion,
    pub topic_config_table: BTreeMap<String, TopicConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping_data_version: Option<DataVersion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topic_queue_mapping_detail_map: Option<BTreeMap<String, serde_json::Value>>,
    /// topic → TopicQueueMappingInfo (5.x static topics; stored, not interpreted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topic_queue_mapping_info_map: Option<BTreeMap<String, serde_json::Value>>,
}

impl TopicConfigSerializeWrapper {
    /// A wrapper holding these topics under this version.
    pub fn new(data_version: DataVersion, topics: impl IntoIterator<Item = TopicConfig>) -> Self {
        // Inserted one by one: `collect` would sort first, another copy of the sort in the bundle.
        let mut topic_config_table = BTreeMap::new();
        for t in topics {
            topic_config_table.insert(t.topic_name.clone(), t);
        }
        Self {
            data_version,
            topic_config_table,
            ..Self::default()
        }
    }
}

/// The JSON body of REGISTER_BROKER (`compressed=false`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RegisterBrokerBody {
    pub filter_server_list: Vec<String>,
    pub topic_config_serialize_wrapper: TopicConfigSerializeWrapper,
}
