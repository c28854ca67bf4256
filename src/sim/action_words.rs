//! A teacher's or a scenario's action said in plain words (the feed, the timeline's marks, the
//! fork notice), and the broker an action is about.

use super::scenario::{Action, Link};

impl Action {
    /// The broker address the action acts on, if it names one.
    pub fn broker_addr(&self) -> Option<&str> {
        match self {
            Action::AddBroker(spec) => Some(&spec.addr),
            Action::KillBroker { broker }
            | Action::FreezeBroker { broker }
            | Action::StopBroker { broker }
            | Action::RestartBroker { broker }
            | Action::Heartbeat { broker } => Some(broker),
            Action::Partition(link) | Action::Heal(link) => link.broker.as_deref(),
            Action::CreateTopic { broker, .. } => broker.as_deref(),
            _ => None,
        }
    }

    /// A sentence, e.g. "freeze broker 10.0.0.2:10911 (it hangs: no heartbeats, nothing closed)".
    pub fn describe(&self) -> String {
        let on = |namesrv: &Option<String>| match namesrv {
            Some(n) => format!("on {n}"),
            None => "on every NameServer".to_owned(),
        };
        match self {
            Action::AddBroker(b) => format!(
                "start broker {} id {} ({}) in {}",
                b.name, b.id, b.addr, b.cluster
            ),
            Action::KillBroker { broker } => {
                format!("kill broker {broker} (the process dies; its sockets close)")
            }
            Action::FreezeBroker { broker } => {
                format!("freeze broker {broker} (it hangs: no heartbeats, nothing closed)")
            }
            Action::StopBroker { broker } => {
                format!("stop broker {broker} gracefully (it unregisters)")
            }
            Action::RestartBroker { broker } => format!("restart broker {broker}"),
            Action::Partition(link) => format!("cut the link {}", link_words(link)),
            Action::Heal(link) => format!("heal the link {}", link_words(link)),
            Action::CreateTopic {
                broker,
                broker_name,
                topic,
                read,
                write,
                ..
            } => {
                let target = broker.as_deref().or(broker_name.as_deref()).unwrap_or("?");
                format!("create topic {topic} on {target} ({read} read / {write} write queues)")
            }
            Action::DeleteTopic { topic, namesrv, .. } => {
                format!("delete topic {topic} {}", on(namesrv))
            }
            Action::WipeWritePerm {
                broker_name,
                namesrv,
            } => format!("wipe the write permission of {broker_name} {}", on(namesrv)),
            Action::AddWritePerm {
                broker_name,
                namesrv,
            } => format!(
                "add the write permission of {broker_name} back {}",
                on(namesrv)
            ),
            Action::AddProducer(p) => format!("start producer {} sending to {}", p.group, p.topic),
            Action::RemoveProducer { group } => format!("shut producer {group} down"),
            Action::PutKv {
                namespace,
                key,
                value,
                namesrv,
            } => format!("put KV {namespace}/{key} = {value} {}", on(namesrv)),
            Action::QueryRoute { topic, namesrv } => {
                format!("ask {namesrv} for the route of {topic}")
            }
            Action::Heartbeat { broker } => format!("heartbeat now from {broker}"),
            Action::AddNamesrv { name } => format!("start NameServer {name}"),
            Action::SetProducer {
                group,
                fault_tolerance,
                client,
            } => {
                let mut parts = Vec::new();
                if let Some(ft) = fault_tolerance {
                    parts.push(format!(
                        "fault tolerance {}",
                        if *ft { "on" } else { "off" }
                    ));
                }
                if let Some(c) = client {
                    parts.push(format!("the {c} client tables"));
                }
                format!("set producer {group}: {}", parts.join(", "))
            }
        }
    }
}

fn link_words(link: &Link) -> String {
    let broker = link.broker.as_deref().unwrap_or("?");
    match (&link.namesrv, &link.producer) {
        (Some(ns), _) => format!("broker {broker} ↔ {ns}"),
        (None, Some(p)) => format!("producer {p} → broker {broker}"),
        (None, None) => format!("of broker {broker}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::Scenario;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Every kind of action reads as a sentence: no JSON, no braces.
    #[test]
    fn actions_read_as_sentences() {
        let sc = Scenario::from_json(
            r#"{"routelab":1,"brokers":[{"name":"broker-a","addr":"10.0.0.1:10911"}],
                "producers":[{"group":"pg-1","topic":"T"}],
                "actions":[
                  {"at":1,"do":"freeze_broker","broker":"10.0.0.1:10911"},
                  {"at":2,"do":"partition","broker":"10.0.0.1:10911","namesrv":"ns-1"},
                  {"at":3,"do":"query_route","topic":"T","namesrv":"ns-1"},
                  {"at":4,"do":"set_producer","group":"pg-1","fault_tolerance":true},
                  {"at":5,"do":"wipe_write_perm","broker_name":"broker-a"}]}"#,
        )
        .unwrap();
        let words: Vec<String> = sc.actions.iter().map(|a| a.action.describe()).collect();
        assert_eq!(
            words,
            [
                "freeze broker 10.0.0.1:10911 (it hangs: no heartbeats, nothing closed)",
                "cut the link broker 10.0.0.1:10911 ↔ ns-1",
                "ask ns-1 for the route of T",
                "set producer pg-1: fault tolerance on",
                "wipe the write permission of broker-a on every NameServer",
            ]
        );
        assert_eq!(sc.actions[1].action.broker_addr(), Some("10.0.0.1:10911"));
    }
}
