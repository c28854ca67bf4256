//! The other response bodies of the NameServer: `ClusterInfo`, `TopicList`, `KVTable` (spec §1.2).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::names::{BrokerName, ClusterName};
use super::route::BrokerData;

/// GET_BROKER_CLUSTER_INFO: `brokerAddrTable` and `clusterAddrTable` as the NameServer holds them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterInfo {
    #[serde(default)]
    pub broker_addr_table: BTreeMap<BrokerName, BrokerData>,
    #[serde(default)]
    pub cluster_addr_table: BTreeMap<ClusterName, BTreeSet<BrokerName>>,
}

/// A list of topic names; `brokerAddr` is only set by GET_SYSTEM_TOPIC_LIST_FROM_NS.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopicList {
    #[serde(default)]
    pub topic_list: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker_addr: Option<String>,
}

/// One KV namespace (GET_KVLIST_BY_NAMESPACE).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KVTable {
    #[serde(default)]
    pub table: BTreeMap<String, String>,
}
