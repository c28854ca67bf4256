//! The route documents a client receives (spec §1.2): `QueueData`, `BrokerData`, `TopicRouteData`.
//! Field names and order are RocketMQ's (fastjson writes bean fields alphabetically), so a route from
//! our core serializes to the same document a real NameServer sends in standard-JSON mode.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::names::{BrokerAddr, BrokerName, ClusterName};
use super::perm;

/// `MixAll.MASTER_ID`: broker id 0 is the master of its group; ids above 0 are slaves.
pub const MASTER_ID: i64 = 0;

/// One topic's queues on one broker group (a value of `topicQueueTable[topic]`).
///
/// Equality uses all five fields, as in Java. Parsing accepts `topicSynFlag`, the field's name up to
/// RocketMQ 4.8.0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueData {
    pub broker_name: BrokerName,
    pub perm: i32,
    pub read_queue_nums: i32,
    #[serde(alias = "topicSynFlag", default)]
    pub topic_sys_flag: i32,
    pub write_queue_nums: i32,
}

impl QueueData {
    /// Whether producers may send to this group (`PermName.isWriteable`).
    pub fn is_writeable(&self) -> bool {
        perm::is_writeable(self.perm)
    }

    /// Whether consumers may read from this group.
    pub fn is_readable(&self) -> bool {
        perm::is_readable(self.perm)
    }
}

/// A broker group: its cluster, name, and broker id → address map (a value of `brokerAddrTable`).
///
/// `enableActingMaster` is `Some` only under the 5.x profile (5.x always writes it; 4.x never does).
/// `brokerAddrs` keys are broker ids; fastjson's legacy output writes them unquoted (spec §6.1), which
/// [`crate::model::fastjson`] accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokerData {
    #[serde(with = "broker_id_keys")]
    pub broker_addrs: BTreeMap<i64, BrokerAddr>,
    pub broker_name: BrokerName,
    pub cluster: ClusterName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_acting_master: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone_name: Option<String>,
}

impl BrokerData {
    /// A group with no members yet.
    pub fn new(cluster: ClusterName, broker_name: BrokerName) -> Self {
        Self {
            broker_addrs: BTreeMap::new(),
            broker_name,
            cluster,
            enable_acting_master: None,
            zone_name: None,
        }
    }

    /// The master's address (id 0), if the group has one.
    pub fn master_addr(&self) -> Option<&BrokerAddr> {
        self.broker_addrs.get(&MASTER_ID)
    }

    /// Whether `enableActingMaster` is set (false when absent, as for 4.x).
    pub fn acting_master_enabled(&self) -> bool {
        self.enable_acting_master.unwrap_or(false)
    }
}

/// The body of GET_ROUTEINFO_BY_TOPIC (spec §1.2, §3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicRouteData {
    #[serde(default)]
    pub broker_datas: Vec<BrokerData>,
    #[serde(default)]
    pub filter_server_table: BTreeMap<String, Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_topic_conf: Option<String>,
    #[serde(default)]
    pub queue_datas: Vec<QueueData>,
    /// 5.x static-topic mappings (brokerName → TopicQueueMappingInfo), kept as JSON: RouteLab stores and
    /// returns them but does not interpret them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic_queue_mapping_by_broker: Option<BTreeMap<String, serde_json::Value>>,
}

impl TopicRouteData {
    /// The BrokerData of a group named in this route.
    pub fn broker_data(&self, name: &str) -> Option<&BrokerData> {
        self.broker_datas.iter().find(|b| b.broker_name == name)
    }

    /// A copy with `queueDatas` and `brokerDatas` sorted by brokerName, as Java clients compare routes
    /// (`MQClientInstance.topicRouteDataIsChange`). Use this to compare routes as sets.
    pub fn sorted(&self) -> Self {
        let mut copy = self.clone();
        crate::sort::sort_by(&mut copy.queue_datas, |a, b| {
            a.broker_name.cmp(&b.broker_name)
        });
        crate::sort::sort_by(&mut copy.broker_datas, |a, b| {
            a.broker_name.cmp(&b.broker_name)
        });
        copy
    }
}

/// `brokerAddrs` keys are broker ids. JSON object keys are strings, so they are written as `"0"` (what
/// serde_json and fastjson's standard mode do anyway) and read back from strings. Going through strings
/// explicitly also lets serde-wasm-bindgen build plain JavaScript objects, which accept only string keys.
mod broker_id_keys {
    use std::collections::BTreeMap;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::model::BrokerAddr;

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<i64, BrokerAddr>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(id, addr)| (id.to_string(), addr)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<i64, BrokerAddr>, D::Error> {
        BTreeMap::<String, BrokerAddr>::deserialize(d)?
            .into_iter()
            .map(|(k, v)| {
                k.trim().parse::<i64>().map(|id| (id, v)).map_err(|_| {
                    D::Error::custom(format!("brokerAddrs key {k:?} is not a broker id"))
                })
            })
            .collect()
    }
}
