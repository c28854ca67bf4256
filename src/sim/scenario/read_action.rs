//! Reading an action object once its `do` is known.
//!
//! serde's derive for an internally tagged enum (`#[serde(tag = "do")]`) buffers the object in its
//! private `Content` type and then reads each variant from that buffer: in the dashboard's
//! WebAssembly this was one 41 KB function, beside the reader of the same types straight from the
//! text. Here the object is already a `serde_json::Map` (`TimedAction` reads `at` apart), so `do` is
//! matched by hand and the rest is read by a payload struct per shape of variant, from the map as a
//! `serde_json::Value`. The messages are serde's own and come out in the same order: `do` first
//! (unknown variant, or not a string), then the payload's fields in key order (missing, unknown,
//! wrong type); tests/sim_scenarios.rs pins them.

use serde::de::{Deserialize, Deserializer, Error as _, Visitor};
use serde_json::{Map, Value};

use super::action::{Action, Link, TimedAction};
use super::consumers::ConsumerGroupSpec;
use super::specs::{BrokerSpec, ProducerSpec};
use crate::producer::ClientProfile;

/// Every `do`, in the order of `Action`'s variants (the order serde's "expected one of" lists).
const VARIANTS: &[&str] = &[
    "add_broker",
    "kill_broker",
    "freeze_broker",
    "stop_broker",
    "restart_broker",
    "partition",
    "heal",
    "create_topic",
    "delete_topic",
    "wipe_write_perm",
    "add_write_perm",
    "add_producer",
    "remove_producer",
    "put_kv",
    "query_route",
    "heartbeat",
    "add_namesrv",
    "set_producer",
    "add_consumer_group",
    "add_consumer",
    "kill_consumer",
    "freeze_consumer",
    "stop_consumer",
    "restart_consumer",
    "set_consumer",
    "set_consumer_group",
    "resume_broker",
    "kill_controller",
    "freeze_controller",
    "restart_controller",
    "lag_replica",
    "elect_master",
];

/// The action named by `tag`, its fields read from `rest` (the object without `at` and `do`).
pub(super) fn from_map(tag: Value, rest: Map<String, Value>) -> Result<Action, serde_json::Error> {
    let name = match tag {
        Value::String(name) => name,
        // serde's message for a tag that is not a string: "invalid type: …, expected variant
        // identifier".
        other => {
            other.deserialize_identifier(VariantName)?;
            return Err(serde_json::Error::custom("expected variant identifier"));
        }
    };
    let rest = Value::Object(rest);
    Ok(match name.as_str() {
        "add_broker" => Action::AddBroker(BrokerSpec::deserialize(rest)?),
        "kill_broker" => Action::KillBroker {
            broker: OneBroker::deserialize(rest)?.broker,
        },
        "freeze_broker" => Action::FreezeBroker {
            broker: OneBroker::deserialize(rest)?.broker,
        },
        "stop_broker" => Action::StopBroker {
            broker: OneBroker::deserialize(rest)?.broker,
        },
        "restart_broker" => Action::RestartBroker {
            broker: OneBroker::deserialize(rest)?.broker,
        },
        "heartbeat" => Action::Heartbeat {
            broker: OneBroker::deserialize(rest)?.broker,
        },
        "partition" => Action::Partition(Link::deserialize(rest)?),
        "heal" => Action::Heal(Link::deserialize(rest)?),
        "create_topic" => {
            let t = CreateTopic::deserialize(rest)?;
            Action::CreateTopic {
                broker: t.broker,
                broker_name: t.broker_name,
                topic: t.topic,
                read: t.read,
                write: t.write,
                perm: t.perm,
            }
        }
        "delete_topic" => {
            let t = DeleteTopic::deserialize(rest)?;
            Action::DeleteTopic {
                topic: t.topic,
                cluster: t.cluster,
                namesrv: t.namesrv,
            }
        }
        "wipe_write_perm" => {
            let p = WritePerm::deserialize(rest)?;
            Action::WipeWritePerm {
                broker_name: p.broker_name,
                namesrv: p.namesrv,
            }
        }
        "add_write_perm" => {
            let p = WritePerm::deserialize(rest)?;
            Action::AddWritePerm {
                broker_name: p.broker_name,
                namesrv: p.namesrv,
            }
        }
        "add_producer" => Action::AddProducer(ProducerSpec::deserialize(rest)?),
        "remove_producer" => Action::RemoveProducer {
            group: OneGroup::deserialize(rest)?.group,
        },
        "put_kv" => {
            let kv = PutKv::deserialize(rest)?;
            Action::PutKv {
                namespace: kv.namespace,
                key: kv.key,
                value: kv.value,
                namesrv: kv.namesrv,
            }
        }
        "query_route" => {
            let q = QueryRoute::deserialize(rest)?;
            Action::QueryRoute {
                topic: q.topic,
                namesrv: q.namesrv,
            }
        }
        "add_namesrv" => Action::AddNamesrv {
            name: OneName::deserialize(rest)?.name,
        },
        "set_producer" => {
            let p = SetProducer::deserialize(rest)?;
            Action::SetProducer {
                group: p.group,
                fault_tolerance: p.fault_tolerance,
                client: p.client,
            }
        }
        "add_consumer_group" => Action::AddConsumerGroup(ConsumerGroupSpec::deserialize(rest)?),
        "add_consumer" => {
            let c = AddConsumer::deserialize(rest)?;
            Action::AddConsumer {
                group: c.group,
                client_id: c.client_id,
            }
        }
        "kill_consumer" => Action::KillConsumer {
            client_id: OneMember::deserialize(rest)?.client_id,
        },
        "freeze_consumer" => Action::FreezeConsumer {
            client_id: OneMember::deserialize(rest)?.client_id,
        },
        "stop_consumer" => Action::StopConsumer {
            client_id: OneMember::deserialize(rest)?.client_id,
        },
        "restart_consumer" => Action::RestartConsumer {
            client_id: OneMember::deserialize(rest)?.client_id,
        },
        "set_consumer" => {
            let c = SetConsumer::deserialize(rest)?;
            Action::SetConsumer {
                client_id: c.client_id,
                rate: c.rate,
            }
        }
        "set_consumer_group" => {
            let c = SetConsumerGroup::deserialize(rest)?;
            Action::SetConsumerGroup {
                group: c.group,
                strategy: c.strategy,
                rate: c.rate,
            }
        }
        "resume_broker" => Action::ResumeBroker {
            broker: OneBroker::deserialize(rest)?.broker,
        },
        "kill_controller" => Action::KillController {
            controller: OneController::deserialize(rest)?.controller,
        },
        "freeze_controller" => Action::FreezeController {
            controller: OneController::deserialize(rest)?.controller,
        },
        "restart_controller" => Action::RestartController {
            controller: OneController::deserialize(rest)?.controller,
        },
        "lag_replica" => {
            let l = LagReplica::deserialize(rest)?;
            Action::LagReplica {
                broker: l.broker,
                lagging: l.lagging,
            }
        }
        "elect_master" => {
            let e = ElectMaster::deserialize(rest)?;
            Action::ElectMaster {
                broker_name: e.broker_name,
                broker_id: e.broker_id,
            }
        }
        other => return Err(serde_json::Error::unknown_variant(other, VARIANTS)),
    })
}

impl<'de> Deserialize<'de> for Action {
    /// An action object on its own, `do` included (a scenario's actions go through `TimedAction`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(d)?;
        let tag = map
            .remove("do")
            .ok_or_else(|| D::Error::missing_field("do"))?;
        from_map(tag, map).map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for TimedAction {
    /// `at` is read apart from the rest so that the rest can be checked strictly per `do`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut map = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let at = map
            .remove("at")
            .ok_or_else(|| D::Error::custom("missing field `at` (seconds of virtual time)"))?;
        let at = match at.as_f64() {
            Some(v) if v.is_finite() && v >= 0.0 => Some(v),
            // The number as written (JSON has no infinities), not the f64: no float formatting.
            Some(_) => {
                return Err(D::Error::custom(format!(
                    "at: expected a non-negative number of seconds, got {at}"
                )))
            }
            None => {
                return Err(D::Error::custom(format!(
                    "at: expected a number of seconds, got {at}"
                )))
            }
        };
        let Some(tag) = map.remove("do") else {
            return Err(D::Error::custom(
                "missing field `do` (what the action does, e.g. \"kill_broker\")",
            ));
        };
        let action = from_map(tag, map).map_err(D::Error::custom)?;
        Ok(TimedAction {
            at: at.unwrap_or(0.0),
            action,
        })
    }
}

/// What serde's derive reads a tag with, for its message when `do` is not a string.
struct VariantName;

impl Visitor<'_> for VariantName {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("variant identifier")
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
}

fn default_queues() -> i32 {
    super::specs::default_queues()
}

fn default_perm() -> i32 {
    super::specs::default_perm()
}

// The payloads: the fields of `Action`'s struct variants, in the same order (serde lists them in
// that order in "unknown field …, expected one of …"). Variants with the same fields share one.

/// `kill_broker`, `freeze_broker`, `stop_broker`, `restart_broker`, `heartbeat`,
/// `resume_broker`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OneBroker {
    broker: String,
}

/// `remove_producer`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OneGroup {
    group: String,
}

/// `add_namesrv`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OneName {
    name: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTopic {
    #[serde(default)]
    broker: Option<String>,
    #[serde(default)]
    broker_name: Option<String>,
    topic: String,
    #[serde(default = "default_queues")]
    read: i32,
    #[serde(default = "default_queues")]
    write: i32,
    #[serde(default = "default_perm")]
    perm: i32,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteTopic {
    topic: String,
    #[serde(default)]
    cluster: Option<String>,
    #[serde(default)]
    namesrv: Option<String>,
}

/// `wipe_write_perm`, `add_write_perm`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WritePerm {
    broker_name: String,
    #[serde(default)]
    namesrv: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PutKv {
    namespace: String,
    key: String,
    value: String,
    #[serde(default)]
    namesrv: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryRoute {
    topic: String,
    namesrv: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SetProducer {
    group: String,
    #[serde(default)]
    fault_tolerance: Option<bool>,
    #[serde(default)]
    client: Option<ClientProfile>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct AddConsumer {
    group: String,
    #[serde(default)]
    client_id: Option<String>,
}

/// `kill_consumer`, `freeze_consumer`, `stop_consumer`, `restart_consumer`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OneMember {
    client_id: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SetConsumer {
    client_id: String,
    rate: f64,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SetConsumerGroup {
    group: String,
    #[serde(default)]
    strategy: Option<crate::consumer::StrategyName>,
    #[serde(default)]
    rate: Option<f64>,
}

/// `kill_controller`, `freeze_controller`, `restart_controller`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OneController {
    controller: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LagReplica {
    broker: String,
    #[serde(default = "lagging_by_default")]
    lagging: bool,
}

fn lagging_by_default() -> bool {
    true
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ElectMaster {
    broker_name: String,
    broker_id: i64,
}
