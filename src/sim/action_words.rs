//! A teacher's or a scenario's action said in plain words (the feed, the timeline's marks, the
//! fork notice), and the broker an action is about.

use super::scenario::{Action, Link};
use crate::i18n::events as w;
use crate::i18n::Lang;

impl Action {
    /// The broker address the action acts on, if it names one.
    pub fn broker_addr(&self) -> Option<&str> {
        match self {
            Action::AddBroker(spec) => Some(&spec.addr),
            Action::KillBroker { broker }
            | Action::FreezeBroker { broker }
            | Action::StopBroker { broker }
            | Action::RestartBroker { broker }
            | Action::Heartbeat { broker }
            | Action::ResumeBroker { broker }
            | Action::LagReplica { broker, .. } => Some(broker),
            Action::Partition(link) | Action::Heal(link) => link.broker.as_deref(),
            Action::CreateTopic { broker, .. } => broker.as_deref(),
            _ => None,
        }
    }

    /// A sentence in English, e.g. "freeze broker 10.0.0.2:10911 (it hangs: no heartbeats, nothing
    /// closed)".
    pub fn describe(&self) -> String {
        self.describe_in(Lang::En)
    }

    /// A sentence in `lang`.
    pub fn describe_in(&self, lang: Lang) -> String {
        let on = |namesrv: &Option<String>| match namesrv {
            Some(n) => lang.fill(w::ON_NAMESRV, &[("ns", n)]),
            None => lang.t(w::ON_EVERY_NAMESRV).to_owned(),
        };
        let broker_phrase = |p, broker: &str| lang.fill(p, &[("broker", broker)]);
        if let Some(words) = super::consumer_words::action(self, lang) {
            return words;
        }
        if let Some(words) = super::failover_words::action(self, lang) {
            return words;
        }
        match self {
            Action::AddBroker(b) => lang.fill(
                w::ACT_ADD_BROKER,
                &[
                    ("name", &b.name),
                    ("id", &b.id.to_string()),
                    ("addr", &b.addr),
                    ("cluster", &b.cluster),
                ],
            ),
            Action::KillBroker { broker } => broker_phrase(w::ACT_KILL, broker),
            Action::FreezeBroker { broker } => broker_phrase(w::ACT_FREEZE, broker),
            Action::StopBroker { broker } => broker_phrase(w::ACT_STOP, broker),
            Action::RestartBroker { broker } => broker_phrase(w::ACT_RESTART, broker),
            Action::Partition(link) => lang.fill(w::ACT_CUT, &[("link", &link_words(link, lang))]),
            Action::Heal(link) => lang.fill(w::ACT_HEAL, &[("link", &link_words(link, lang))]),
            Action::CreateTopic {
                broker,
                broker_name,
                topic,
                read,
                write,
                ..
            } => {
                let target = broker.as_deref().or(broker_name.as_deref()).unwrap_or("?");
                lang.fill(
                    w::ACT_CREATE_TOPIC,
                    &[
                        ("topic", topic),
                        ("target", target),
                        ("read", &read.to_string()),
                        ("write", &write.to_string()),
                    ],
                )
            }
            Action::DeleteTopic { topic, namesrv, .. } => lang.fill(
                w::ACT_DELETE_TOPIC,
                &[("topic", topic), ("on", &on(namesrv))],
            ),
            Action::WipeWritePerm {
                broker_name,
                namesrv,
            } => lang.fill(
                w::ACT_WIPE_PERM,
                &[("name", broker_name), ("on", &on(namesrv))],
            ),
            Action::AddWritePerm {
                broker_name,
                namesrv,
            } => lang.fill(
                w::ACT_ADD_PERM,
                &[("name", broker_name), ("on", &on(namesrv))],
            ),
            Action::AddProducer(p) => lang.fill(
                w::ACT_ADD_PRODUCER,
                &[("group", &p.group), ("topic", &p.topic)],
            ),
            Action::RemoveProducer { group } => {
                lang.fill(w::ACT_REMOVE_PRODUCER, &[("group", group)])
            }
            Action::PutKv {
                namespace,
                key,
                value,
                namesrv,
            } => lang.fill(
                w::ACT_PUT_KV,
                &[
                    ("namespace", namespace),
                    ("key", key),
                    ("value", value),
                    ("on", &on(namesrv)),
                ],
            ),
            Action::QueryRoute { topic, namesrv } => {
                lang.fill(w::ACT_QUERY_ROUTE, &[("ns", namesrv), ("topic", topic)])
            }
            Action::Heartbeat { broker } => broker_phrase(w::ACT_HEARTBEAT, broker),
            Action::AddNamesrv { name } => lang.fill(w::ACT_ADD_NAMESRV, &[("name", name)]),
            Action::SetProducer {
                group,
                fault_tolerance,
                client,
            } => {
                let mut parts = Vec::new();
                if let Some(ft) = fault_tolerance {
                    parts.push(
                        lang.t(if *ft {
                            w::FAULT_TOLERANCE_ON
                        } else {
                            w::FAULT_TOLERANCE_OFF
                        })
                        .to_owned(),
                    );
                }
                if let Some(c) = client {
                    parts.push(lang.fill(w::CLIENT_TABLES, &[("client", &c.to_string())]));
                }
                let sep = match lang {
                    Lang::En => ", ",
                    Lang::Zh => "，",
                };
                lang.fill(
                    w::ACT_SET_PRODUCER,
                    &[("group", group), ("what", &parts.join(sep))],
                )
            }
            // Said by `consumer_words::action` above.
            Action::AddConsumerGroup(_)
            | Action::AddConsumer { .. }
            | Action::KillConsumer { .. }
            | Action::FreezeConsumer { .. }
            | Action::StopConsumer { .. }
            | Action::RestartConsumer { .. }
            | Action::SetConsumer { .. }
            | Action::SetConsumerGroup { .. } => String::new(),
            // Said by `failover_words::action` above.
            Action::ResumeBroker { .. }
            | Action::AddController { .. }
            | Action::KillController { .. }
            | Action::FreezeController { .. }
            | Action::RestartController { .. }
            | Action::LagReplica { .. }
            | Action::ElectMaster { .. } => String::new(),
        }
    }
}

fn link_words(link: &Link, lang: Lang) -> String {
    let broker = link.broker.as_deref().unwrap_or("?");
    // A NameServer's or a controller's name says what it is ("ns-1", "controller-1").
    if let Some(other) = link.namesrv.as_ref().or(link.controller.as_ref()) {
        return format!("broker {broker} ↔ {other}");
    }
    match (&link.producer, &link.peer) {
        (Some(p), _) => lang.fill(w::LINK_PRODUCER, &[("producer", p), ("broker", broker)]),
        (None, Some(peer)) => format!("broker {broker} ↔ broker {peer}"),
        (None, None) => lang.fill(w::LINK_OF_BROKER, &[("broker", broker)]),
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
        let zh: Vec<String> = sc
            .actions
            .iter()
            .map(|a| a.action.describe_in(crate::i18n::Lang::Zh))
            .collect();
        assert_eq!(
            zh,
            [
                "冻结 broker 10.0.0.1:10911（它挂起：没有心跳，连接也不关闭）",
                "断开链路 broker 10.0.0.1:10911 ↔ ns-1",
                "向 ns-1 查询 T 的路由",
                "设置生产者 pg-1：开启故障规避",
                "在所有 NameServer 上摘除 broker-a 的写权限",
            ]
        );
    }
}
