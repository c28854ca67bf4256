//! Reading an action object once its `do` is known.
//!
//! serde's derive for an internally tagged enum (`#[serde(tag = "do")]`) buffers the object in its
//! private `Content` type and then reads each variant from that buffer: in the dashboard's
//! WebAssembly this was one 41 KB function, beside the reader of the same types straight from the
//! text. Here the object is already a `serde_json::Map` (`TimedAction` reads `at` apart), so `do` is
//! matched by hand and the rest is read field by field by one reader (`fields`), each value by its
//! type; the payloads that are types of their own (a broker, a producer, a consumer group, a link)
//! by their derive. The messages are serde's own and come out in the same order: `do` first
//! (unknown variant, or not a string), then the payload's fields in key order (unknown, wrong
//! type), then a missing one; tests/sim_scenarios.rs pins them.

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
    "add_controller",
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
    // The actions whose payload is a shared type (a broker, a producer, a consumer group) read it
    // with its own derive; every other payload goes through `fields`.
    let whole = |rest: Map<String, Value>| Value::Object(rest);
    Ok(match name.as_str() {
        "add_broker" => Action::AddBroker(BrokerSpec::deserialize(whole(rest))?),
        "add_producer" => Action::AddProducer(ProducerSpec::deserialize(whole(rest))?),
        "add_consumer_group" => {
            Action::AddConsumerGroup(ConsumerGroupSpec::deserialize(whole(rest))?)
        }
        "partition" | "heal" => {
            let mut link = Link::default();
            fields(
                rest,
                &["broker", "namesrv", "producer", "controller", "peer"],
                &[],
                |i, v| {
                    let end = from(v)?;
                    match i {
                        0 => link.broker = end,
                        1 => link.namesrv = end,
                        2 => link.producer = end,
                        3 => link.controller = end,
                        _ => link.peer = end,
                    }
                    Ok(())
                },
            )?;
            if name == "partition" {
                Action::Partition(link)
            } else {
                Action::Heal(link)
            }
        }
        "kill_broker" => Action::KillBroker {
            broker: only(rest, &["broker"])?,
        },
        "freeze_broker" => Action::FreezeBroker {
            broker: only(rest, &["broker"])?,
        },
        "stop_broker" => Action::StopBroker {
            broker: only(rest, &["broker"])?,
        },
        "restart_broker" => Action::RestartBroker {
            broker: only(rest, &["broker"])?,
        },
        "heartbeat" => Action::Heartbeat {
            broker: only(rest, &["broker"])?,
        },
        "resume_broker" => Action::ResumeBroker {
            broker: only(rest, &["broker"])?,
        },
        "remove_producer" => Action::RemoveProducer {
            group: only(rest, &["group"])?,
        },
        "add_namesrv" => Action::AddNamesrv {
            name: only(rest, &["name"])?,
        },
        "kill_consumer" => Action::KillConsumer {
            client_id: only(rest, &["client_id"])?,
        },
        "freeze_consumer" => Action::FreezeConsumer {
            client_id: only(rest, &["client_id"])?,
        },
        "stop_consumer" => Action::StopConsumer {
            client_id: only(rest, &["client_id"])?,
        },
        "restart_consumer" => Action::RestartConsumer {
            client_id: only(rest, &["client_id"])?,
        },
        "add_controller" => Action::AddController {
            controller: only(rest, &["controller"])?,
        },
        "kill_controller" => Action::KillController {
            controller: only(rest, &["controller"])?,
        },
        "freeze_controller" => Action::FreezeController {
            controller: only(rest, &["controller"])?,
        },
        "restart_controller" => Action::RestartController {
            controller: only(rest, &["controller"])?,
        },
        "create_topic" => {
            let (mut broker, mut broker_name, mut topic) = (None, None, None);
            let (mut read, mut write, mut perm) = (None, None, None);
            fields(
                rest,
                &["broker", "broker_name", "topic", "read", "write", "perm"],
                &["topic"],
                |i, v| {
                    match i {
                        0 => broker = from(v)?,
                        1 => broker_name = from(v)?,
                        2 => topic = Some(from(v)?),
                        3 => read = Some(from(v)?),
                        4 => write = Some(from(v)?),
                        _ => perm = Some(from(v)?),
                    }
                    Ok(())
                },
            )?;
            Action::CreateTopic {
                broker,
                broker_name,
                topic: topic.unwrap_or_default(),
                read: read.unwrap_or_else(default_queues),
                write: write.unwrap_or_else(default_queues),
                perm: perm.unwrap_or_else(default_perm),
            }
        }
        "delete_topic" => {
            let (mut topic, mut cluster, mut namesrv) = (None, None, None);
            fields(
                rest,
                &["topic", "cluster", "namesrv"],
                &["topic"],
                |i, v| {
                    match i {
                        0 => topic = Some(from(v)?),
                        1 => cluster = from(v)?,
                        _ => namesrv = from(v)?,
                    }
                    Ok(())
                },
            )?;
            Action::DeleteTopic {
                topic: topic.unwrap_or_default(),
                cluster,
                namesrv,
            }
        }
        "wipe_write_perm" | "add_write_perm" => {
            let (mut broker_name, mut namesrv) = (None, None);
            fields(
                rest,
                &["broker_name", "namesrv"],
                &["broker_name"],
                |i, v| {
                    match i {
                        0 => broker_name = Some(from(v)?),
                        _ => namesrv = from(v)?,
                    }
                    Ok(())
                },
            )?;
            let broker_name = broker_name.unwrap_or_default();
            if name == "wipe_write_perm" {
                Action::WipeWritePerm {
                    broker_name,
                    namesrv,
                }
            } else {
                Action::AddWritePerm {
                    broker_name,
                    namesrv,
                }
            }
        }
        "put_kv" => {
            let (mut namespace, mut key, mut value, mut namesrv) = (None, None, None, None);
            fields(
                rest,
                &["namespace", "key", "value", "namesrv"],
                &["namespace", "key", "value"],
                |i, v| {
                    match i {
                        0 => namespace = Some(from(v)?),
                        1 => key = Some(from(v)?),
                        2 => value = Some(from(v)?),
                        _ => namesrv = from(v)?,
                    }
                    Ok(())
                },
            )?;
            Action::PutKv {
                namespace: namespace.unwrap_or_default(),
                key: key.unwrap_or_default(),
                value: value.unwrap_or_default(),
                namesrv,
            }
        }
        "query_route" => {
            let (mut topic, mut namesrv) = (None, None);
            fields(
                rest,
                &["topic", "namesrv"],
                &["topic", "namesrv"],
                |i, v| {
                    match i {
                        0 => topic = Some(from(v)?),
                        _ => namesrv = Some(from(v)?),
                    }
                    Ok(())
                },
            )?;
            Action::QueryRoute {
                topic: topic.unwrap_or_default(),
                namesrv: namesrv.unwrap_or_default(),
            }
        }
        "set_producer" => {
            let (mut group, mut fault_tolerance, mut client) = (None, None, None);
            fields(
                rest,
                &["group", "fault_tolerance", "client"],
                &["group"],
                |i, v| {
                    match i {
                        0 => group = Some(from(v)?),
                        1 => fault_tolerance = from(v)?,
                        _ => client = from::<Option<ClientProfile>>(v)?,
                    }
                    Ok(())
                },
            )?;
            Action::SetProducer {
                group: group.unwrap_or_default(),
                fault_tolerance,
                client,
            }
        }
        "add_consumer" => {
            let (mut group, mut client_id) = (None, None);
            fields(rest, &["group", "client_id"], &["group"], |i, v| {
                match i {
                    0 => group = Some(from(v)?),
                    _ => client_id = from(v)?,
                }
                Ok(())
            })?;
            Action::AddConsumer {
                group: group.unwrap_or_default(),
                client_id,
            }
        }
        "set_consumer" => {
            let (mut client_id, mut rate) = (None, None);
            fields(
                rest,
                &["client_id", "rate"],
                &["client_id", "rate"],
                |i, v| {
                    match i {
                        0 => client_id = Some(from(v)?),
                        _ => rate = Some(from(v)?),
                    }
                    Ok(())
                },
            )?;
            Action::SetConsumer {
                client_id: client_id.unwrap_or_default(),
                rate: rate.unwrap_or_default(),
            }
        }
        "set_consumer_group" => {
            let (mut group, mut strategy, mut rate) = (None, None, None);
            fields(rest, &["group", "strategy", "rate"], &["group"], |i, v| {
                match i {
                    0 => group = Some(from(v)?),
                    1 => strategy = from::<Option<crate::consumer::StrategyName>>(v)?,
                    _ => rate = from(v)?,
                }
                Ok(())
            })?;
            Action::SetConsumerGroup {
                group: group.unwrap_or_default(),
                strategy,
                rate,
            }
        }
        "lag_replica" => {
            let (mut broker, mut lagging) = (None, None);
            fields(rest, &["broker", "lagging"], &["broker"], |i, v| {
                match i {
                    0 => broker = Some(from(v)?),
                    _ => lagging = Some(from(v)?),
                }
                Ok(())
            })?;
            Action::LagReplica {
                broker: broker.unwrap_or_default(),
                lagging: lagging.unwrap_or(true),
            }
        }
        "elect_master" => {
            let (mut broker_name, mut broker_id) = (None, None);
            fields(
                rest,
                &["broker_name", "broker_id"],
                &["broker_name", "broker_id"],
                |i, v| {
                    match i {
                        0 => broker_name = Some(from(v)?),
                        _ => broker_id = Some(from(v)?),
                    }
                    Ok(())
                },
            )?;
            Action::ElectMaster {
                broker_name: broker_name.unwrap_or_default(),
                broker_id: broker_id.unwrap_or_default(),
            }
        }
        other => return Err(serde_json::Error::unknown_variant(other, VARIANTS)),
    })
}

/// A field's value as its type reads it (serde's own messages: "invalid type: …, expected …").
fn from<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, serde_json::Error> {
    T::deserialize(v)
}

/// Reads a payload's fields as serde's derive with `deny_unknown_fields` would, with its messages
/// in its order: each key in the object's order, an unknown one refused at once ("unknown field
/// `x`, expected …"), a known one handed to `read` by its index in `names` (a wrong type refused
/// there); then the first of `required` that was absent ("missing field `x`"). One reader for
/// every payload: serde's derive generated a visitor per payload type, most of 29 KB of the
/// workshop's bundle. `read` is a `dyn`, and the reader `#[inline(never)]`, so the loop is in the
/// bundle once rather than once per payload (3.8 KB of wasm less, measured).
fn fields(
    rest: Map<String, Value>,
    names: &'static [&'static str],
    required: &[&'static str],
    mut read: impl FnMut(usize, Value) -> Result<(), serde_json::Error>,
) -> Result<(), serde_json::Error> {
    read_fields(rest, names, required, &mut read)
}

#[inline(never)]
fn read_fields(
    rest: Map<String, Value>,
    names: &'static [&'static str],
    required: &[&'static str],
    read: &mut dyn FnMut(usize, Value) -> Result<(), serde_json::Error>,
) -> Result<(), serde_json::Error> {
    let mut seen = [false; 8];
    for (key, value) in rest {
        let Some(i) = names.iter().position(|n| *n == key) else {
            return Err(serde_json::Error::unknown_field(&key, names));
        };
        seen[i] = true;
        read(i, value)?;
    }
    match required
        .iter()
        .find(|r| names.iter().position(|n| n == *r).is_some_and(|i| !seen[i]))
    {
        Some(missing) => Err(serde_json::Error::missing_field(missing)),
        None => Ok(()),
    }
}

/// A payload of one required string field, e.g. `{"broker": "10.0.0.1:10911"}`.
fn only(
    rest: Map<String, Value>,
    name: &'static [&'static str],
) -> Result<String, serde_json::Error> {
    let mut got = None;
    fields(rest, name, name, |_, v| {
        got = Some(from(v)?);
        Ok(())
    })?;
    Ok(got.unwrap_or_default())
}

/// `map` without `key`, and `key`'s value. (Rebuilt rather than removed from: the dashboard's bundle
/// then carries no B-tree removal code for this map's types, some 2.5 KB.)
fn take(map: Map<String, Value>, key: &str) -> (Option<Value>, Map<String, Value>) {
    let mut rest = Map::new();
    let mut got = None;
    for (k, v) in map {
        if k == key {
            got = Some(v);
        } else {
            rest.insert(k, v);
        }
    }
    (got, rest)
}

impl<'de> Deserialize<'de> for Action {
    /// An action object on its own, `do` included (a scenario's actions go through `TimedAction`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (tag, map) = take(Map::<String, Value>::deserialize(d)?, "do");
        let tag = tag.ok_or_else(|| D::Error::missing_field("do"))?;
        from_map(tag, map).map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for TimedAction {
    /// `at` is read apart from the rest so that the rest can be checked strictly per `do`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let (at, map) = take(Map::<String, Value>::deserialize(d)?, "at");
        let at =
            at.ok_or_else(|| D::Error::custom("missing field `at` (seconds of virtual time)"))?;
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
        let (tag, map) = take(map, "do");
        let Some(tag) = tag else {
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

#[cfg(test)]
mod tests;
