//! What the simulator reports: one event per thing that happened, with its virtual time and cause,
//! and [`describe`] to say it in plain words.

use serde::Serialize;

use super::scenario::Action;
use crate::model::{BrokerName, ProducerGroup, TopicName, TopicRouteData};
use crate::namesrv::{Event, PermChange, RemovalReason, TopicRemovalReason};

/// An event at a virtual time (ms).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimEvent {
    /// Virtual milliseconds.
    pub t: u64,
    #[serde(flatten)]
    pub kind: SimEventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SimEventKind {
    /// A NameServer accepted a registration (`first`: a new group or id slot).
    BrokerRegistered {
        namesrv: String,
        broker_addr: String,
        broker_name: String,
        broker_id: i64,
        first: bool,
    },
    /// A NameServer refused a registration (5.x single-topic guard, stale stateVersion).
    RegistrationRejected {
        namesrv: String,
        broker_addr: String,
        broker_name: String,
        broker_id: i64,
        reason: String,
    },
    /// A broker left a NameServer's tables.
    BrokerRemoved {
        namesrv: String,
        broker_addr: String,
        broker_name: Option<String>,
        /// `unregistered`, `channel_closed`, `expired` or `idle_closed`.
        reason: &'static str,
        /// For `expired`: when it last spoke.
        #[serde(skip_serializing_if = "Option::is_none")]
        last_heartbeat_t: Option<u64>,
    },
    /// A group lost its last member.
    BrokerGroupRemoved {
        namesrv: String,
        cluster: String,
        broker_name: String,
    },
    /// The same-address rule moved an address between ids of its group.
    BrokerIdSwitched {
        namesrv: String,
        broker_name: String,
        broker_addr: String,
        old_ids: Vec<i64>,
        new_id: i64,
    },
    /// A topic's QueueData for one group was created, updated or removed.
    TopicChanged {
        namesrv: String,
        topic: String,
        broker_name: String,
        /// `created`, `updated`, `removed`.
        change: &'static str,
        /// The perm after the change (absent when removed).
        #[serde(skip_serializing_if = "Option::is_none")]
        perm: Option<i32>,
        /// Why it was removed: `broker_group_removed`, `deleted`, `pruned_by_registration`.
        #[serde(skip_serializing_if = "Option::is_none")]
        cause: Option<&'static str>,
    },
    /// Write permission wiped or added on a NameServer.
    PermChanged {
        namesrv: String,
        broker_name: String,
        /// `wiped` or `added`.
        change: &'static str,
        topics: Vec<String>,
    },
    /// A KV entry put or deleted.
    KvChanged {
        namesrv: String,
        namespace: String,
        key: String,
        value: Option<String>,
    },
    /// A producer asked its NameServer for the route (`ok`: a route came back).
    RoutePolled {
        producer: String,
        namesrv: String,
        topic: String,
        ok: bool,
        /// Whether the producer's cached route changed.
        changed: bool,
    },
    /// One send attempt of a producer, ending at `t`. The producer, topic and broker are shared names
    /// (a reference count per event, not allocations: there is one of these per simulated send).
    Send {
        producer: ProducerGroup,
        topic: TopicName,
        broker_name: Option<BrokerName>,
        queue_id: Option<i32>,
        /// 1 for the first attempt of a message, 2 and 3 for retries.
        attempt: u32,
        ok: bool,
        latency_ms: u64,
        /// Why it failed: `no_route`, `connect_refused`, `timeout`, `call_timeout`, `no_master`,
        /// `topic_not_exist`, `no_permission`.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<&'static str>,
    },
    /// A `query_route` action's answer (`route` null: TOPIC_NOT_EXIST). Boxed, as the action below:
    /// rare events whose payloads would otherwise size every event, one per simulated send.
    RouteQuery {
        namesrv: String,
        topic: String,
        route: Option<Box<TopicRouteData>>,
    },
    /// An action was applied.
    Action {
        #[serde(flatten)]
        action: Box<Action>,
    },
}

/// The simulator's name for a removal reason.
pub fn reason_name(r: &RemovalReason) -> &'static str {
    match r {
        RemovalReason::Unregistered => "unregistered",
        RemovalReason::ChannelClosed => "channel_closed",
        RemovalReason::IdleClosed => "idle_closed",
        RemovalReason::Expired { .. } => "expired",
    }
}

/// Turns a route-manager event of NameServer `ns` into a simulator event.
pub(crate) fn from_core(ns: &str, e: Event) -> Option<SimEventKind> {
    let namesrv = ns.to_owned();
    Some(match e {
        Event::BrokerRegistered {
            broker_name,
            broker_id,
            broker_addr,
            first,
            ..
        } => SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr: broker_addr.to_string(),
            broker_name: broker_name.to_string(),
            broker_id,
            first,
        },
        Event::RegistrationRejected {
            broker_name,
            broker_id,
            broker_addr,
            reason,
        } => SimEventKind::RegistrationRejected {
            namesrv,
            broker_addr: broker_addr.to_string(),
            broker_name: broker_name.to_string(),
            broker_id,
            reason: serde_json::to_value(reason).ok()?.as_str()?.to_owned(),
        },
        Event::BrokerRemoved {
            broker_name,
            broker_addr,
            reason,
            ..
        } => SimEventKind::BrokerRemoved {
            namesrv,
            broker_addr: broker_addr.to_string(),
            broker_name: broker_name.map(|n| n.to_string()),
            reason: reason_name(&reason),
            last_heartbeat_t: match reason {
                RemovalReason::Expired {
                    last_update_timestamp,
                    ..
                } => Some(last_update_timestamp),
                _ => None,
            },
        },
        Event::BrokerGroupRemoved {
            cluster,
            broker_name,
        } => SimEventKind::BrokerGroupRemoved {
            namesrv,
            cluster: cluster.to_string(),
            broker_name: broker_name.to_string(),
        },
        Event::BrokerIdSwitched {
            broker_name,
            broker_addr,
            old_ids,
            new_id,
        } => SimEventKind::BrokerIdSwitched {
            namesrv,
            broker_name: broker_name.to_string(),
            broker_addr: broker_addr.to_string(),
            old_ids,
            new_id,
        },
        Event::TopicQueueChanged {
            topic,
            broker_name,
            before,
            after,
        } => SimEventKind::TopicChanged {
            namesrv,
            topic: topic.to_string(),
            broker_name: broker_name.to_string(),
            change: if before.is_some() {
                "updated"
            } else {
                "created"
            },
            perm: Some(after.perm),
            cause: None,
        },
        Event::TopicQueueRemoved {
            topic,
            broker_name,
            reason,
            ..
        } => SimEventKind::TopicChanged {
            namesrv,
            topic: topic.to_string(),
            broker_name: broker_name.to_string(),
            change: "removed",
            perm: None,
            cause: Some(match reason {
                TopicRemovalReason::BrokerGroupRemoved => "broker_group_removed",
                TopicRemovalReason::Deleted => "deleted",
                TopicRemovalReason::PrunedByRegistration => "pruned_by_registration",
            }),
        },
        Event::PermChanged {
            broker_name,
            change,
            topics,
        } => SimEventKind::PermChanged {
            namesrv,
            broker_name: broker_name.to_string(),
            change: match change {
                PermChange::Wiped => "wiped",
                PermChange::Added => "added",
            },
            topics: topics.into_iter().map(|t| t.to_string()).collect(),
        },
        Event::KvChanged {
            namespace,
            key,
            value,
        } => SimEventKind::KvChanged {
            namesrv,
            namespace,
            key,
            value,
        },
        // The simulator runs each batch at once; the removal event that follows tells the story.
        Event::UnregisterQueued { .. } => return None,
    })
}

fn secs(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{} s", crate::decimal::secs_fixed(ms, 3))
    }
}

/// The event in plain words, e.g. "ns-1 removed broker-a (10.0.0.1:10911): no heartbeat since 45 s".
pub fn describe(e: &SimEvent) -> String {
    match &e.kind {
        SimEventKind::BrokerRegistered { namesrv, broker_addr, broker_name, broker_id, first } => {
            let role = if *broker_id == 0 { "master".to_owned() } else { format!("slave {broker_id}") };
            if *first {
                format!("{namesrv}: {broker_name} {role} ({broker_addr}) registered for the first time")
            } else {
                format!("{namesrv}: heartbeat from {broker_name} {role} ({broker_addr})")
            }
        }
        SimEventKind::RegistrationRejected { namesrv, broker_addr, broker_name, reason, .. } => {
            let why = match reason.as_str() {
                "single_topic_guard" => "a first registration must carry the full topic table, not exactly one topic (5.x)",
                "stale_state_version" => "another address holds this id with a newer stateVersion (5.x)",
                other => other,
            };
            format!("{namesrv} refused {broker_name} ({broker_addr}): {why}")
        }
        SimEventKind::BrokerRemoved { namesrv, broker_addr, broker_name, reason, last_heartbeat_t } => {
            let who = match broker_name {
                Some(n) => format!("{n} ({broker_addr})"),
                None => broker_addr.clone(),
            };
            let why = match (*reason, last_heartbeat_t) {
                ("expired", Some(last)) => format!(
                    "no heartbeat for {} (last at {}; found by the scan at {})",
                    secs(e.t.saturating_sub(*last)),
                    secs(*last),
                    secs(e.t)
                ),
                ("unregistered", _) => "it unregistered (graceful shutdown)".into(),
                ("channel_closed", _) => "its connection closed (process gone)".into(),
                ("idle_closed", _) => "its connection was idle for too long and the NameServer closed it".into(),
                (other, _) => other.into(),
            };
            format!("{namesrv} removed {who}: {why}")
        }
        SimEventKind::BrokerGroupRemoved { namesrv, cluster, broker_name } => {
            format!("{namesrv}: group {broker_name} has no members left; removed from {cluster} and from every topic")
        }
        SimEventKind::BrokerIdSwitched { namesrv, broker_name, broker_addr, old_ids, new_id } => {
            format!("{namesrv}: {broker_addr} of {broker_name} moved from id {old_ids:?} to id {new_id}")
        }
        SimEventKind::TopicChanged { namesrv, topic, broker_name, change, perm, cause } => match (*change, cause) {
            ("removed", Some(cause)) => format!("{namesrv}: {topic} no longer routes to {broker_name} ({})", cause.replace('_', " ")),
            _ => format!(
                "{namesrv}: {topic} on {broker_name} {change} (perm {})",
                crate::model::perm::perm_to_string(perm.unwrap_or(0))
            ),
        },
        SimEventKind::PermChanged { namesrv, broker_name, change, topics } => {
            format!("{namesrv}: write permission {change} on {broker_name} for {} topic(s)", topics.len())
        }
        SimEventKind::KvChanged { namesrv, namespace, key, value } => match value {
            Some(v) => format!("{namesrv}: KV {namespace}/{key} = {v}"),
            None => format!("{namesrv}: KV {namespace}/{key} deleted"),
        },
        SimEventKind::RoutePolled { producer, namesrv, topic, ok, changed } => match (ok, changed) {
            (true, true) => format!("{producer} fetched a changed route of {topic} from {namesrv}"),
            (true, false) => format!("{producer} polled {namesrv} for {topic}: unchanged"),
            (false, _) => format!("{producer} polled {namesrv} for {topic}: TOPIC_NOT_EXIST; it keeps whatever route it had"),
        },
        SimEventKind::Send { producer, broker_name, queue_id, attempt, latency_ms, error, .. } => {
            let target = match (broker_name, queue_id) {
                (Some(b), Some(q)) => format!("{b}#{q}"),
                _ => "no queue".into(),
            };
            let retry = if *attempt > 1 { format!(" (retry {})", attempt - 1) } else { String::new() };
            match error {
                None => format!("{producer} sent to {target} in {latency_ms} ms{retry}"),
                Some("call_timeout") => format!(
                    "{producer}: no time left for attempt {attempt} (the send timeout is spent): the message failed"
                ),
                Some(err) => format!("{producer} send to {target} failed after {latency_ms} ms: {}{retry}", err.replace('_', " ")),
            }
        }
        SimEventKind::RouteQuery { namesrv, topic, route } => match route {
            Some(r) => {
                let groups: Vec<String> = r
                    .sorted()
                    .queue_datas
                    .iter()
                    .map(|q| {
                        let master = r.broker_data(q.broker_name.as_str()).and_then(|b| b.master_addr()).is_some();
                        format!(
                            "{} {}{}",
                            q.broker_name,
                            crate::model::perm::perm_to_string(q.perm),
                            if master { "" } else { " (no master)" }
                        )
                    })
                    .collect();
                format!("{namesrv} answers the route of {topic}: {}", groups.join(", "))
            }
            None => format!("{namesrv} answers TOPIC_NOT_EXIST for {topic}"),
        },
        SimEventKind::Action { action } => format!("action: {}", action.describe()),
    }
}
