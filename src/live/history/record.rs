//! The history's record schema: a [`Record`] is one [`Change`] seen at a time on a NameServer (or
//! between them), as the bridge's database stores it and `/history/*` and `routelab history` show
//! it. Only the history module makes records; what they say in words is in `words`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::live::alerts::AlertEvent;
use crate::model::TopicRouteData;

/// One recorded change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// When it was seen (ms since the Unix epoch): the poll that saw it.
    pub at_ms: u64,
    /// The poll before, which did not see it yet: it happened between `since_ms` and `at_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_ms: Option<u64>,
    /// The NameServer it was seen on; `None` for what is between NameServers (disagreement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    #[serde(flatten)]
    pub change: Change,
}

/// What changed. `kind` in JSON and in the history's database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// The first poll that answered: what the NameServer held when recording began. Nothing
    /// before it is known, so its brokers and routes are not listed as changes.
    RecordingStarted { brokers: usize, topics: usize },
    /// A broker is listed in `brokerAddrTable`.
    BrokerAppeared(Broker),
    /// A broker is no longer listed.
    BrokerGone(Broker),
    /// A group's master (`brokerAddrs[0]`) is another address: a controller's or DLedger's
    /// failover (the new master moved from its slave id to 0), or a master replaced at once. One
    /// record instead of the old master gone, the new one gone from its slave id and appeared
    /// at 0.
    MasterChanged {
        cluster: String,
        broker_name: String,
        /// The master before, if the group had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        old_addr: Option<String>,
        new_addr: String,
        /// The id the new master was listed under before, if it was listed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        new_was_id: Option<i64>,
    },
    /// A group still listed changed its `zoneName` or `enableActingMaster` (a 5.x NameServer
    /// writes both at every registration: a broker restarted with a new config between two
    /// polls). Each is `[before, after]`, present when it changed.
    GroupChanged {
        cluster: String,
        broker_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone_name: Option<(Option<String>, Option<String>)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        enable_acting_master: Option<(Option<bool>, Option<bool>)>,
    },
    /// A topic is in the topic list; `route` when it was fetched in the same poll.
    TopicAdded {
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route: Option<TopicRouteData>,
    },
    /// A topic left the topic list.
    TopicRemoved { topic: String },
    /// A topic's route changed in its brokers or queues (`None`: TOPIC_NOT_EXIST).
    RouteChanged {
        topic: String,
        before: Option<TopicRouteData>,
        after: Option<TopicRouteData>,
    },
    /// A topic's route changed only in some brokers' perm (wipeWritePerm, addWritePerm,
    /// updateTopicPerm).
    PermChanged {
        topic: String,
        /// brokerName → (before, after).
        perms: BTreeMap<String, (i32, i32)>,
    },
    /// More than [`MANY_ROUTES`] routes changed in one poll (a broker of a large cluster left or
    /// came back, wipeWritePerm on it): one record naming the first topics, and a checkpoint of
    /// the whole view beside it instead of thousands of before-and-after routes.
    RoutesChanged {
        count: usize,
        /// The first [`TOPICS_NAMED`] of them.
        topics: Vec<String>,
    },
    /// A poll failed after one that worked (or on the first one).
    NamesrvFailed { error: String },
    /// A poll worked after one that failed.
    NamesrvRecovered,
    /// NameServers began to give different routes for a topic (`topic`) or to list different
    /// brokers (`brokers`).
    DisagreementStarted(Disagreement),
    /// They agree on it again.
    DisagreementEnded(Disagreement),
    /// A member of a consumer group is connected to its brokers (the bridge's broker polls).
    ConsumerJoined {
        group: String,
        client_id: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        client_addr: String,
    },
    /// A member is no longer connected to any of its group's brokers.
    ConsumerLeft { group: String, client_id: String },
    /// A rebalance: queues of the group changed hands, as its members said (their running info),
    /// in `MessageQueue` order.
    QueuesMoved {
        group: String,
        moved: Vec<QueueMove>,
    },
    /// An alert began ([`crate::live::alerts`]).
    AlertFired {
        rule: String,
        subject: String,
        summary: String,
    },
    /// It no longer holds.
    AlertResolved {
        rule: String,
        subject: String,
        summary: String,
    },
}

impl Record {
    /// An alert firing or resolving, as the history keeps it.
    pub fn of_alert(event: &AlertEvent, now_ms: u64) -> Self {
        let (at_ms, since_ms, change) = match event {
            AlertEvent::Fired(a) => (
                now_ms,
                Some(a.since_ms),
                Change::AlertFired {
                    rule: a.rule.clone(),
                    subject: a.subject.clone(),
                    summary: a.summary.clone(),
                },
            ),
            AlertEvent::Resolved { alert: a, at_ms } => (
                *at_ms,
                Some(a.since_ms),
                Change::AlertResolved {
                    rule: a.rule.clone(),
                    subject: a.subject.clone(),
                    summary: a.summary.clone(),
                },
            ),
        };
        Self {
            at_ms,
            since_ms,
            namesrv: None,
            change,
        }
    }
}

/// A broker as `brokerAddrTable` lists it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Broker {
    pub cluster: String,
    pub broker_name: String,
    pub broker_id: i64,
    pub addr: String,
    /// Its group's `zoneName` and `enableActingMaster` when it appeared (a 5.x NameServer writes
    /// them at every registration), so a replay rebuilds a group that appeared after a checkpoint
    /// as it was. Absent on 4.x and in records written before they were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_acting_master: Option<bool>,
}

/// What NameServers disagree on: one topic's route, or whether a broker is listed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disagreement {
    Topic(String),
    Broker(String),
}

impl Change {
    /// The name the database and `--format json` use.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::RecordingStarted { .. } => "recording_started",
            Change::BrokerAppeared(_) => "broker_appeared",
            Change::BrokerGone(_) => "broker_gone",
            Change::MasterChanged { .. } => "master_changed",
            Change::GroupChanged { .. } => "group_changed",
            Change::TopicAdded { .. } => "topic_added",
            Change::TopicRemoved { .. } => "topic_removed",
            Change::RouteChanged { .. } => "route_changed",
            Change::PermChanged { .. } => "perm_changed",
            Change::RoutesChanged { .. } => "routes_changed",
            Change::NamesrvFailed { .. } => "namesrv_failed",
            Change::NamesrvRecovered => "namesrv_recovered",
            Change::DisagreementStarted(_) => "disagreement_started",
            Change::DisagreementEnded(_) => "disagreement_ended",
            Change::ConsumerJoined { .. } => "consumer_joined",
            Change::ConsumerLeft { .. } => "consumer_left",
            Change::QueuesMoved { .. } => "queues_moved",
            Change::AlertFired { .. } => "alert_fired",
            Change::AlertResolved { .. } => "alert_resolved",
        }
    }

    /// The topic it is about, if one.
    pub fn topic(&self) -> Option<&str> {
        match self {
            Change::TopicAdded { topic, .. }
            | Change::TopicRemoved { topic }
            | Change::RouteChanged { topic, .. }
            | Change::PermChanged { topic, .. }
            | Change::DisagreementStarted(Disagreement::Topic(topic))
            | Change::DisagreementEnded(Disagreement::Topic(topic)) => Some(topic),
            Change::AlertFired { rule, subject, .. }
            | Change::AlertResolved { rule, subject, .. }
                if rule == "no_writable_queue" =>
            {
                Some(subject)
            }
            _ => None,
        }
    }

    /// Whether it concerns consumer group `g`: `--group G`.
    pub fn concerns_group(&self, g: &str) -> bool {
        match self {
            Change::ConsumerJoined { group, .. }
            | Change::ConsumerLeft { group, .. }
            | Change::QueuesMoved { group, .. } => group == g,
            Change::AlertFired { rule, subject, .. }
            | Change::AlertResolved { rule, subject, .. } => {
                rule.starts_with("backlog_") && subject == g
            }
            _ => false,
        }
    }

    /// Whether it concerns broker `b` (a brokerName or an address): `--broker B`.
    pub fn concerns_broker(&self, b: &str) -> bool {
        let in_route = |r: &Option<TopicRouteData>| {
            r.iter().flat_map(|r| &r.broker_datas).any(|bd| {
                bd.broker_name.as_str() == b || bd.broker_addrs.values().any(|a| a.as_str() == b)
            })
        };
        match self {
            Change::BrokerAppeared(x) | Change::BrokerGone(x) => x.broker_name == b || x.addr == b,
            Change::GroupChanged { broker_name, .. } => broker_name == b,
            Change::MasterChanged {
                broker_name,
                old_addr,
                new_addr,
                ..
            } => broker_name == b || new_addr == b || old_addr.as_deref() == Some(b),
            Change::TopicAdded { route, .. } => in_route(route),
            Change::RouteChanged { before, after, .. } => in_route(before) || in_route(after),
            Change::PermChanged { perms, .. } => perms.contains_key(b),
            Change::DisagreementStarted(Disagreement::Broker(a))
            | Change::DisagreementEnded(Disagreement::Broker(a)) => a == b,
            Change::AlertFired {
                subject, summary, ..
            }
            | Change::AlertResolved {
                subject, summary, ..
            } => subject == b || summary.split([' ', '(', ')', ',']).any(|w| w == b),
            _ => false,
        }
    }
}

/// A queue that changed hands in a rebalance; `None`: nobody held it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueMove {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}
