//! What one NameServer is known to hold, as last fetched (or, for RouteLab's own NameServer, as held).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::model::{ClusterInfo, TopicRouteData};

/// Whether the last poll of a NameServer worked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NamesrvStatus {
    /// No poll has finished yet.
    Connecting,
    /// The last poll succeeded.
    Ok,
    /// The last poll failed; `error` says why, and the view keeps what was fetched before.
    Failing,
}

/// One topic's route as a NameServer answered GET_ROUTEINFO_BY_TOPIC.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteEntry {
    /// When this route was last fetched successfully (ms since the Unix epoch).
    pub fetched_at_ms: u64,
    /// The route body, in RocketMQ's field names; `None` when the NameServer answered
    /// TOPIC_NOT_EXIST (17).
    pub route: Option<TopicRouteData>,
    /// The last fetch failed (the route above is the last good one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A broker's liveness as the NameServer holds it (brokerLiveTable). Only RouteLab's own NameServer
/// knows this; a bridge cannot ask a NameServer for it, so heartbeat ages stay unknown there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerLive {
    /// Last registration or heartbeat (ms since the Unix epoch).
    pub last_update_ms: u64,
    /// The expiry that applies to this broker (120,000 ms unless the broker asked for another).
    pub timeout_ms: u64,
}

/// Everything a viewer is told about one NameServer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamesrvView {
    /// The NameServer's address, `host:port`; the key of this view.
    pub addr: String,
    pub status: NamesrvStatus,
    /// Why the last poll failed, in plain words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// When cluster info and the topic list were last fetched successfully.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetched_at_ms: Option<u64>,
    /// When the last poll started, successful or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attempt_ms: Option<u64>,
    /// How long the last finished poll took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_duration_ms: Option<u64>,
    /// GET_BROKER_CLUSTER_INFO: `brokerAddrTable` and `clusterAddrTable`.
    #[serde(default)]
    pub cluster: ClusterInfo,
    /// GET_ALL_TOPIC_LIST_FROM_NAMESERVER.
    #[serde(default)]
    pub topics: BTreeSet<String>,
    /// Routes by topic. A large cluster's routes are fetched over several rounds, so each entry
    /// carries its own `fetched_at_ms`; a listed topic without an entry has not been fetched yet.
    #[serde(default)]
    pub routes: BTreeMap<String, RouteEntry>,
    /// brokerLiveTable by broker address, when the source knows it (`None`: unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker_live: Option<BTreeMap<String, BrokerLive>>,
}

impl NamesrvView {
    /// A NameServer not polled yet.
    pub fn new(addr: impl Into<String>) -> Self {
        Self {
            addr: addr.into(),
            status: NamesrvStatus::Connecting,
            error: None,
            fetched_at_ms: None,
            last_attempt_ms: None,
            poll_duration_ms: None,
            cluster: ClusterInfo::default(),
            topics: BTreeSet::new(),
            routes: BTreeMap::new(),
            broker_live: None,
        }
    }

    /// How fresh this view is at `now_ms`, for a source polling every `interval_ms`.
    pub fn freshness(&self, now_ms: u64, interval_ms: u64) -> Freshness {
        match (self.status, self.fetched_at_ms) {
            (NamesrvStatus::Failing, _) => Freshness::Failing,
            (_, None) => Freshness::Unknown,
            (_, Some(at)) => {
                let age = now_ms.saturating_sub(at);
                // Two missed polls (plus a second of slack for a slow poll) before calling it stale.
                if age > 2 * interval_ms.max(1) + 1_000 {
                    Freshness::Stale { age_ms: age }
                } else {
                    Freshness::Fresh { age_ms: age }
                }
            }
        }
    }
}

/// How much a viewer can trust a view right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    /// Nothing fetched yet.
    Unknown,
    /// Fetched within the expected interval.
    Fresh { age_ms: u64 },
    /// Older than two polling intervals: polls are slow or not happening.
    Stale { age_ms: u64 },
    /// The last poll failed.
    Failing,
}
