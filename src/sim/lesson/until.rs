//! Where a lesson step ends: a time, or the first event that matches (its kind and the fields
//! given), with its checks and its words.

use serde::{Deserialize, Serialize};

use super::known::Known;
use crate::sim::event::SimEventKind;
use crate::sim::scenario::error::ScenarioError;

/// Where a step ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Until {
    /// A time, seconds of virtual time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<f64>,
    /// The first event after the step's start that matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<EventMatch>,
}

/// How far a step's `until` event or a question's deciding event is looked for: an hour.
pub const HORIZON_MS: u64 = 3_600_000;

/// Which events a step waits for: the kind, and each field given must be equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventMatch {
    pub kind: MatchKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// A broker's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broker_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// A removal's reason (`expired`, `idle_closed`, `channel_closed`, `unregistered`) or a failed
    /// send's error (`timeout`, `no_route`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A send's outcome, or whether a route poll got a route.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// A consumer group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// A consumer's client id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
}

/// The event kinds a step can wait for, as `routelab sim` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    BrokerRegistered,
    BrokerRemoved,
    BrokerGroupRemoved,
    TopicChanged,
    PermChanged,
    RoutePolled,
    Send,
    ConsumerRebalanced,
    ConsumerJoined,
    ConsumerLeft,
    Duplicates,
    /// A controller's election (`broker_name`: the group).
    MasterElected,
    /// A DLedger group's Raft election of its leader (`broker_name`: the group).
    LeaderElected,
    /// A controller-mode replica's new role.
    BrokerRoleChanged,
    /// A NameServer turned a registration away.
    RegistrationRejected,
    /// An acting-master slave began to act as its group's master.
    ActingMasterStarted,
    /// It stopped acting (the master is back).
    ActingMasterEnded,
}

/// What an event says in the terms of an [`EventMatch`]: its kind and the fields that kind has.
#[derive(Default)]
struct Said<'a> {
    namesrv: Option<&'a str>,
    broker: Option<&'a str>,
    broker_name: Option<&'a str>,
    producer: Option<&'a str>,
    topic: Option<&'a str>,
    reason: Option<&'a str>,
    ok: Option<bool>,
    group: Option<&'a str>,
    client_id: Option<&'a str>,
}

/// The kind of `e` a step can wait for, with what it says; None for the other kinds.
fn said(e: &SimEventKind) -> Option<(MatchKind, Said<'_>)> {
    Some(match e {
        SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr,
            broker_name,
            ..
        } => (
            MatchKind::BrokerRegistered,
            Said {
                namesrv: Some(namesrv),
                broker: Some(broker_addr),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::BrokerRemoved {
            namesrv,
            broker_addr,
            broker_name,
            reason,
            ..
        } => (
            MatchKind::BrokerRemoved,
            Said {
                namesrv: Some(namesrv),
                broker: Some(broker_addr),
                broker_name: broker_name.as_deref(),
                reason: Some(reason),
                ..Said::default()
            },
        ),
        SimEventKind::BrokerGroupRemoved {
            namesrv,
            broker_name,
            ..
        } => (
            MatchKind::BrokerGroupRemoved,
            Said {
                namesrv: Some(namesrv),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::TopicChanged {
            namesrv,
            topic,
            broker_name,
            ..
        } => (
            MatchKind::TopicChanged,
            Said {
                namesrv: Some(namesrv),
                topic: Some(topic),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::PermChanged {
            namesrv,
            broker_name,
            ..
        } => (
            MatchKind::PermChanged,
            Said {
                namesrv: Some(namesrv),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::RoutePolled {
            producer,
            namesrv,
            topic,
            ok,
            ..
        } => (
            MatchKind::RoutePolled,
            Said {
                producer: Some(producer),
                namesrv: Some(namesrv),
                topic: Some(topic),
                ok: Some(*ok),
                ..Said::default()
            },
        ),
        SimEventKind::Send {
            producer,
            topic,
            broker_name,
            ok,
            error,
            ..
        } => (
            MatchKind::Send,
            Said {
                producer: Some(producer.as_str()),
                topic: Some(topic.as_str()),
                broker_name: broker_name.as_ref().map(|b| b.as_str()),
                reason: *error,
                ok: Some(*ok),
                ..Said::default()
            },
        ),
        SimEventKind::ConsumerRebalanced(r) => (
            MatchKind::ConsumerRebalanced,
            Said {
                group: Some(&r.group),
                topic: Some(&r.topic),
                client_id: Some(&r.client_id),
                ..Said::default()
            },
        ),
        SimEventKind::ConsumerJoined {
            group,
            client_id,
            broker_addr,
        } => (
            MatchKind::ConsumerJoined,
            Said {
                group: Some(group),
                client_id: Some(client_id),
                broker: Some(broker_addr),
                ..Said::default()
            },
        ),
        SimEventKind::ConsumerLeft {
            group,
            client_id,
            broker_addr,
            reason,
        } => (
            MatchKind::ConsumerLeft,
            Said {
                group: Some(group),
                client_id: Some(client_id),
                broker: Some(broker_addr),
                reason: Some(reason),
                ..Said::default()
            },
        ),
        SimEventKind::MasterElected(m) => (
            MatchKind::MasterElected,
            Said {
                broker_name: Some(&m.group),
                ..Said::default()
            },
        ),
        SimEventKind::LeaderElected {
            mode: "dledger",
            raft_group,
            ..
        } => (
            MatchKind::LeaderElected,
            Said {
                broker_name: Some(raft_group),
                ..Said::default()
            },
        ),
        SimEventKind::ActingMasterStarted {
            broker_addr,
            broker_name,
            ..
        } => (
            MatchKind::ActingMasterStarted,
            Said {
                broker: Some(broker_addr),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::ActingMasterEnded {
            broker_addr,
            broker_name,
            ..
        } => (
            MatchKind::ActingMasterEnded,
            Said {
                broker: Some(broker_addr),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::BrokerRoleChanged {
            broker_addr,
            broker_name,
            ..
        } => (
            MatchKind::BrokerRoleChanged,
            Said {
                broker: Some(broker_addr),
                broker_name: Some(broker_name),
                ..Said::default()
            },
        ),
        SimEventKind::RegistrationRejected {
            namesrv,
            broker_addr,
            broker_name,
            reason,
            ..
        } => (
            MatchKind::RegistrationRejected,
            Said {
                namesrv: Some(namesrv),
                broker: Some(broker_addr),
                broker_name: Some(broker_name),
                reason: Some(reason),
                ..Said::default()
            },
        ),
        SimEventKind::Duplicates(d) => (
            MatchKind::Duplicates,
            Said {
                group: Some(&d.group),
                topic: Some(&d.topic),
                broker_name: Some(&d.broker_name),
                client_id: Some(&d.client_id),
                reason: Some(d.reason),
                ..Said::default()
            },
        ),
        _ => return None,
    })
}

impl EventMatch {
    /// Whether `e` is one of the events this names: its kind, and every field given equal to what
    /// the event says (a field the kind does not have never matches; validation refuses those).
    pub fn matches(&self, e: &SimEventKind) -> bool {
        let Some((kind, got)) = said(e) else {
            return false;
        };
        let eq = |want: &Option<String>, got: Option<&str>| {
            want.as_deref().is_none_or(|w| got == Some(w))
        };
        kind == self.kind
            && eq(&self.namesrv, got.namesrv)
            && eq(&self.broker, got.broker)
            && eq(&self.broker_name, got.broker_name)
            && eq(&self.producer, got.producer)
            && eq(&self.topic, got.topic)
            && eq(&self.reason, got.reason)
            && eq(&self.group, got.group)
            && eq(&self.client_id, got.client_id)
            && self.ok.is_none_or(|w| got.ok == Some(w))
    }

    /// The fields this kind of event has (the others must be absent).
    fn fields(&self) -> &'static [&'static str] {
        match self.kind {
            MatchKind::BrokerRegistered => &["namesrv", "broker", "broker_name"],
            MatchKind::BrokerRemoved => &["namesrv", "broker", "broker_name", "reason"],
            MatchKind::BrokerGroupRemoved | MatchKind::PermChanged => &["namesrv", "broker_name"],
            MatchKind::TopicChanged => &["namesrv", "topic", "broker_name"],
            MatchKind::RoutePolled => &["producer", "namesrv", "topic", "ok"],
            MatchKind::Send => &["producer", "topic", "broker_name", "reason", "ok"],
            MatchKind::ConsumerRebalanced => &["topic", "group", "client_id"],
            MatchKind::ConsumerJoined => &["broker", "group", "client_id"],
            MatchKind::ConsumerLeft => &["broker", "reason", "group", "client_id"],
            MatchKind::Duplicates => &["broker_name", "topic", "reason", "group", "client_id"],
            MatchKind::MasterElected | MatchKind::LeaderElected => &["broker_name"],
            MatchKind::BrokerRoleChanged
            | MatchKind::ActingMasterStarted
            | MatchKind::ActingMasterEnded => &["broker", "broker_name"],
            MatchKind::RegistrationRejected => &["namesrv", "broker", "broker_name", "reason"],
        }
    }

    /// The fields given, by name.
    fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        for (name, set) in [
            ("namesrv", self.namesrv.is_some()),
            ("broker", self.broker.is_some()),
            ("broker_name", self.broker_name.is_some()),
            ("producer", self.producer.is_some()),
            ("topic", self.topic.is_some()),
            ("reason", self.reason.is_some()),
            ("ok", self.ok.is_some()),
            ("group", self.group.is_some()),
            ("client_id", self.client_id.is_some()),
        ] {
            if set {
                out.push(name);
            }
        }
        out
    }
}

impl Until {
    pub(super) fn validate(&self, path: &str, known: &Known<'_>) -> Result<(), ScenarioError> {
        match (&self.at, &self.event) {
            (Some(at), None) => {
                if !(at.is_finite() && *at >= 0.0) {
                    return Err(ScenarioError::at(
                        format!("{path}.at"),
                        "expected a non-negative number of seconds",
                    ));
                }
            }
            (None, Some(m)) => {
                let allowed = m.fields();
                if let Some(f) = m.given().into_iter().find(|f| !allowed.contains(f)) {
                    return Err(ScenarioError::at(
                        format!("{path}.event.{f}"),
                        format!(
                            "this kind of event has no {f}; it has {}",
                            allowed.join(", ")
                        ),
                    ));
                }
                if let Some(n) = &m.namesrv {
                    known.namesrv(&format!("{path}.event.namesrv"), n)?;
                }
                if let Some(b) = &m.broker {
                    known.broker(&format!("{path}.event.broker"), b)?;
                }
                if let Some(p) = &m.producer {
                    known.producer(&format!("{path}.event.producer"), p)?;
                }
                if let Some(g) = &m.group {
                    known.group(&format!("{path}.event.group"), g)?;
                }
                if let Some(c) = &m.client_id {
                    known.client_id(&format!("{path}.event.client_id"), c)?;
                }
            }
            _ => {
                return Err(ScenarioError::at(
                    path,
                    "an until has exactly one of at (seconds) or event",
                ))
            }
        }
        Ok(())
    }
}
