//! The cluster as it was: a NameServer's view rebuilt from the last checkpoint before a moment and
//! the history's records after it, and the alerts active then. Pure.
//!
//! A checkpoint is a whole view, kept when recording starts, when every listed topic's route has
//! been fetched for the first time, and at most every half hour while the tables change. Between
//! them the records carry what changed: brokers, topics with their route, routes before and after,
//! perm, a NameServer failing and recovering. A route fetched for the first time is not a change,
//! so while a large cluster's routes are first being fetched the past shows only the routes
//! fetched by its last checkpoint.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::alerts::Alert;
use super::history::{Change, Record};
use super::view::{NamesrvStatus, NamesrvView, RouteEntry};
use crate::model::BrokerData;

/// What `/history/at` answers: every NameServer's view and the alerts, as of `at_ms`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Past {
    pub at_ms: u64,
    /// In the bridge's order; a NameServer with nothing recorded by then is `connecting`. Empty
    /// when `from_live` carries the views instead.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub namesrvs: Vec<NamesrvView>,
    /// Asked for with `from=live`: the views as what differs from the live ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_live: Option<FromLive>,
    pub alerts: Vec<Alert>,
    /// The consumer groups as the history last kept them by then (at most a minute behind in their
    /// offsets; who is online and who holds what exact); absent when none were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumers: Option<super::consumers::ConsumersView>,
}

/// What `/history/changes` answers: the records of a time range, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    pub since_ms: u64,
    pub until_ms: u64,
    pub records: Vec<Record>,
    /// Older records of the range were left out (the answer keeps the newest).
    pub truncated: bool,
}

/// Applies one NameServer's records (oldest first, all after the checkpoint `view` and at or
/// before the moment asked for) to the view.
pub fn replay<'a>(
    mut view: NamesrvView,
    records: impl IntoIterator<Item = &'a Record>,
) -> NamesrvView {
    for r in records {
        apply(&mut view, r);
    }
    view
}

fn apply(view: &mut NamesrvView, r: &Record) {
    match &r.change {
        // Its poll's checkpoint holds the routes it names.
        Change::RoutesChanged { .. } => fetched(view, r.at_ms),
        Change::RecordingStarted { .. }
        | Change::DisagreementStarted(_)
        | Change::DisagreementEnded(_)
        | Change::AlertFired { .. }
        | Change::AlertResolved { .. }
        // Consumer groups are not part of a NameServer's view.
        | Change::ConsumerJoined { .. }
        | Change::ConsumerLeft { .. }
        | Change::QueuesMoved { .. } => {}
        Change::BrokerAppeared(b) => {
            let group = view
                .cluster
                .broker_addr_table
                .entry(b.broker_name.as_str().into())
                .or_insert_with(|| {
                    BrokerData::new(b.cluster.as_str().into(), b.broker_name.as_str().into())
                });
            // A 5.x registration sets both on the group (RouteInfoManager.registerBroker); a record
            // without them (4.x, or written before they were kept) leaves the group as it was.
            if b.enable_acting_master.is_some() {
                group.enable_acting_master = b.enable_acting_master;
                group.zone_name = b.zone_name.clone();
            }
            group
                .broker_addrs
                .insert(b.broker_id, b.addr.as_str().into());
            view.cluster
                .cluster_addr_table
                .entry(b.cluster.as_str().into())
                .or_default()
                .insert(b.broker_name.as_str().into());
            fetched(view, r.at_ms);
        }
        Change::MasterChanged {
            broker_name,
            new_addr,
            new_was_id,
            ..
        } => {
            let name: crate::model::BrokerName = broker_name.as_str().into();
            if let Some(group) = view.cluster.broker_addr_table.get_mut(&name) {
                if let Some(id) = new_was_id {
                    crate::tree::remove(&mut group.broker_addrs, id);
                }
                group
                    .broker_addrs
                    .insert(crate::model::MASTER_ID, new_addr.as_str().into());
            }
            fetched(view, r.at_ms);
        }
        Change::GroupChanged {
            broker_name,
            zone_name,
            enable_acting_master,
            ..
        } => {
            let name: crate::model::BrokerName = broker_name.as_str().into();
            if let Some(group) = view.cluster.broker_addr_table.get_mut(&name) {
                if let Some((_, after)) = zone_name {
                    group.zone_name = after.clone();
                }
                if let Some((_, after)) = enable_acting_master {
                    group.enable_acting_master = *after;
                }
            }
            fetched(view, r.at_ms);
        }
        Change::BrokerGone(b) => {
            let name: crate::model::BrokerName = b.broker_name.as_str().into();
            let empty = view
                .cluster
                .broker_addr_table
                .get_mut(&name)
                .map(|g| {
                    crate::tree::remove(&mut g.broker_addrs, &b.broker_id);
                    g.broker_addrs.is_empty()
                })
                .unwrap_or(false);
            if empty {
                view.cluster.broker_addr_table.remove(&name);
                let cluster: crate::model::ClusterName = b.cluster.as_str().into();
                if let Some(names) = view.cluster.cluster_addr_table.get_mut(&cluster) {
                    names.remove(&name);
                    if names.is_empty() {
                        view.cluster.cluster_addr_table.remove(&cluster);
                    }
                }
            }
            fetched(view, r.at_ms);
        }
        Change::TopicAdded { topic, route } => {
            view.topics.insert(topic.clone());
            if let Some(route) = route {
                set_route(view, topic, Some(route.clone()), r.at_ms);
            }
            fetched(view, r.at_ms);
        }
        Change::TopicRemoved { topic } => {
            view.topics.remove(topic);
            view.routes.remove(topic);
            fetched(view, r.at_ms);
        }
        Change::RouteChanged { topic, after, .. } => {
            set_route(view, topic, after.clone(), r.at_ms);
            fetched(view, r.at_ms);
        }
        Change::PermChanged { topic, perms } => {
            if let Some(route) = view.routes.get_mut(topic).and_then(|e| e.route.as_mut()) {
                for q in &mut route.queue_datas {
                    if let Some((_, after)) = perms.get(q.broker_name.as_str()) {
                        q.perm = *after;
                    }
                }
            }
            fetched(view, r.at_ms);
        }
        Change::NamesrvFailed { error } => {
            view.status = NamesrvStatus::Failing;
            view.error = Some(error.clone());
            view.last_attempt_ms = Some(r.at_ms);
        }
        Change::NamesrvRecovered => {
            view.status = NamesrvStatus::Ok;
            view.error = None;
            view.last_attempt_ms = Some(r.at_ms);
            view.fetched_at_ms = Some(r.at_ms);
        }
    }
}

fn set_route(
    view: &mut NamesrvView,
    topic: &str,
    route: Option<crate::model::TopicRouteData>,
    at_ms: u64,
) {
    view.routes.insert(
        topic.to_owned(),
        RouteEntry {
            fetched_at_ms: at_ms,
            route,
            error: None,
        },
    );
}

/// A change was seen by a poll that worked at `at_ms`.
fn fetched(view: &mut NamesrvView, at_ms: u64) {
    view.fetched_at_ms = Some(view.fetched_at_ms.map_or(at_ms, |t| t.max(at_ms)));
}

/// The alerts active at `at_ms`, from the alert records up to then (oldest first).
pub fn alerts_at<'a>(records: impl IntoIterator<Item = &'a Record>, at_ms: u64) -> Vec<Alert> {
    let mut active: BTreeMap<(String, String), Alert> = BTreeMap::new();
    for r in records.into_iter().filter(|r| r.at_ms <= at_ms) {
        match &r.change {
            Change::AlertFired {
                rule,
                subject,
                summary,
            } => {
                active.insert(
                    (rule.clone(), subject.clone()),
                    Alert {
                        rule: rule.clone(),
                        subject: subject.clone(),
                        since_ms: r.since_ms.unwrap_or(r.at_ms),
                        summary: summary.clone(),
                        advice: String::new(),
                    },
                );
            }
            Change::AlertResolved { rule, subject, .. } => {
                active.remove(&(rule.clone(), subject.clone()));
            }
            _ => {}
        }
    }
    active.into_values().collect()
}

mod from_live;
#[cfg(test)]
mod tests;

pub use from_live::{from_live, FromLive, Rebuilt, SharedRoutes};
