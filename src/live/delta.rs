//! The change between two views of one NameServer: small when little changed, so idle updates stay
//! a tiny fraction of a snapshot.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::view::{BrokerLive, NamesrvStatus, NamesrvView, RouteEntry};
use crate::model::ClusterInfo;

/// What changed in one NameServer's view. Status fields are always sent (they are small and tell
/// the viewer the poll happened); tables only when they changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamesrvDelta {
    pub addr: String,
    pub status: NamesrvStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetched_at_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attempt_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_duration_ms: Option<u64>,
    /// The whole cluster info, when any of it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterInfo>,
    /// The whole topic list, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<BTreeSet<String>>,
    /// Routes that are new or whose body or error changed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub routes: BTreeMap<String, RouteEntry>,
    /// Routes no longer known (the topic left the list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes_removed: Vec<String>,
    /// Routes fetched again without any change: fetch time → topics, so freshness stays exact at a
    /// few bytes per topic.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        with = "time_keys"
    )]
    pub routes_refreshed: BTreeMap<u64, Vec<String>>,
    /// Set instead of `routes_refreshed` when every route this update does not carry in `routes`
    /// was fetched again, unchanged, at this one time (a bridge whose poll covers every topic):
    /// then an idle update of 10,000 routes is a few bytes, not 10,000 topic names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routes_refreshed_all: Option<u64>,
    /// brokerLiveTable, when it changed. `Some(None)` (sent as `null`) means it became unknown.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "double_option"
    )]
    pub broker_live: Option<Option<BTreeMap<String, BrokerLive>>>,
}

impl NamesrvView {
    /// Whether `new` (which `delta`, from [`NamesrvView::diff`], turned `self` into) holds the same
    /// tables: only times and statuses moved. Looks only at what the delta carries.
    pub fn same_tables(&self, new: &NamesrvView, delta: &NamesrvDelta) -> bool {
        self.fetched_at_ms.is_some() == new.fetched_at_ms.is_some()
            && delta.cluster.is_none()
            && delta.topics.is_none()
            && delta.routes_removed.is_empty()
            && delta
                .routes
                .iter()
                .all(|(t, e)| self.routes.get(t).is_some_and(|o| o.route == e.route))
    }

    /// The delta that turns `self` into `new`, or `None` when they are equal.
    pub fn diff(&self, new: &NamesrvView) -> Option<NamesrvDelta> {
        if self == new {
            return None;
        }
        let mut delta = NamesrvDelta {
            addr: new.addr.clone(),
            status: new.status,
            error: new.error.clone(),
            fetched_at_ms: new.fetched_at_ms,
            last_attempt_ms: new.last_attempt_ms,
            poll_duration_ms: new.poll_duration_ms,
            cluster: (self.cluster != new.cluster).then(|| new.cluster.clone()),
            topics: (self.topics != new.topics).then(|| new.topics.clone()),
            routes: BTreeMap::new(),
            routes_removed: Vec::new(),
            routes_refreshed: BTreeMap::new(),
            routes_refreshed_all: None,
            broker_live: (self.broker_live != new.broker_live).then(|| new.broker_live.clone()),
        };
        for (topic, entry) in &new.routes {
            match self.routes.get(topic) {
                Some(old) if old == entry => {}
                Some(old) if old.route == entry.route && old.error == entry.error => delta
                    .routes_refreshed
                    .entry(entry.fetched_at_ms)
                    .or_default()
                    .push(topic.clone()),
                _ => {
                    delta.routes.insert(topic.clone(), entry.clone());
                }
            }
        }
        delta.routes_removed = self
            .routes
            .keys()
            .filter(|t| !new.routes.contains_key(*t))
            .cloned()
            .collect();
        let refreshed: usize = delta.routes_refreshed.values().map(Vec::len).sum();
        if delta.routes_refreshed.len() == 1 && refreshed + delta.routes.len() == new.routes.len() {
            delta.routes_refreshed_all = delta.routes_refreshed.pop_first().map(|(at, _)| at);
        }
        Some(delta)
    }

    /// Applies a delta made by [`NamesrvView::diff`] against this view.
    pub fn apply(&mut self, delta: NamesrvDelta) {
        self.status = delta.status;
        self.error = delta.error;
        self.fetched_at_ms = delta.fetched_at_ms;
        self.last_attempt_ms = delta.last_attempt_ms;
        self.poll_duration_ms = delta.poll_duration_ms;
        if let Some(cluster) = delta.cluster {
            self.cluster = cluster;
        }
        if let Some(topics) = delta.topics {
            self.topics = topics;
        }
        for topic in &delta.routes_removed {
            self.routes.remove(topic);
        }
        if let Some(at) = delta.routes_refreshed_all {
            // Every route, then the changed ones replaced whole (with their own times) just below.
            for entry in self.routes.values_mut() {
                entry.fetched_at_ms = at;
            }
        }
        self.routes.extend(delta.routes);
        for (at, topics) in delta.routes_refreshed {
            for topic in topics {
                if let Some(entry) = self.routes.get_mut(&topic) {
                    entry.fetched_at_ms = at;
                }
            }
        }
        if let Some(live) = delta.broker_live {
            self.broker_live = live;
        }
    }
}

/// Integer map keys as JSON object keys (decimal strings). Read through a string map on purpose:
/// inside the internally tagged `ServerMessage`, serde buffers the message and its buffered map keys
/// are strings, which a plain `u64` key refuses ("invalid type: string, expected u64").
mod time_keys {
    use std::collections::BTreeMap;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<u64, Vec<String>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k.to_string(), v)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<u64, Vec<String>>, D::Error> {
        BTreeMap::<String, Vec<String>>::deserialize(d)?
            .into_iter()
            .map(|(k, v)| {
                k.parse::<u64>().map(|at| (at, v)).map_err(|_| {
                    D::Error::custom(format!("routes_refreshed key {k:?} is not a time in ms"))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::{ServerMessage, Update};

    /// Found by the bridge's end-to-end test: the time keys failed to parse inside a message.
    #[test]
    fn refreshed_routes_survive_json_inside_a_message() {
        let mut delta = NamesrvView::new("a:1")
            .diff(&NamesrvView::new("b:1"))
            .unwrap();
        delta
            .routes_refreshed
            .insert(1_796_023_459_992, vec!["T".into()]);
        let message = ServerMessage::Update(Update {
            seq: 1,
            sent_at_ms: 2,
            namesrvs: vec![delta],
            alerts: None,
            consumers: None,
        });
        let text = serde_json::to_string(&message).unwrap();
        assert!(
            text.contains(r#""routes_refreshed":{"1796023459992":["T"]}"#),
            "{text}"
        );
        assert_eq!(
            serde_json::from_str::<ServerMessage>(&text).unwrap(),
            message
        );
        let bad = text.replace("1796023459992", "soon");
        assert!(serde_json::from_str::<ServerMessage>(&bad).is_err());
    }
}

/// `Option<Option<T>>` in JSON: field absent = `None`, `null` = `Some(None)`, value = `Some(Some)`.
mod double_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(
        value: &Option<Option<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(inner) => inner.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }
}
