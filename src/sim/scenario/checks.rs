//! A scenario's checks of what its types cannot say: the version, names, addresses, topics and the
//! references between fields, each error naming its field path.

use super::action::Action;
use super::check_consumers::ConsumersKnown;
use super::error::{check_namesrv, ScenarioError};
use super::specs::{BrokerSpec, ProducerSpec};
use super::{topic_sets, Scenario, FORMAT_VERSION};
use crate::i18n::checks as w;
use crate::model::TopicConfig;
use crate::namesrv::{validate_topic_config, RegisterBroker};

impl Scenario {
    /// Checks what the types cannot: version, names, addresses, topics, references between fields.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.routelab != FORMAT_VERSION {
            return Err(ScenarioError::at(
                "routelab",
                format!("format version {} is not supported; this RouteLab reads version {FORMAT_VERSION}", self.routelab),
            ));
        }
        if self.namesrvs.is_empty() {
            return Err(ScenarioError::at(
                "namesrvs",
                "at least one NameServer is needed",
            ));
        }
        for (i, n) in self.namesrvs.iter().enumerate() {
            if n.trim().is_empty() || self.namesrvs[..i].contains(n) {
                return Err(ScenarioError::at(
                    format!("namesrvs[{i}]"),
                    format!("{n:?} is empty or repeated"),
                ));
            }
        }
        let mut addrs: Vec<&str> = Vec::new();
        for (i, b) in self.brokers.iter().enumerate() {
            self.check_broker(&format!("brokers[{i}]"), b, &addrs)?;
            addrs.push(&b.addr);
        }
        let mut groups: Vec<&str> = Vec::new();
        for (i, p) in self.producers.iter().enumerate() {
            self.check_producer(&self.namesrvs, &format!("producers[{i}]"), p, &groups)?;
            groups.push(&p.group);
        }
        let mut consumers = ConsumersKnown::default();
        for (i, c) in self.consumers.iter().enumerate() {
            consumers.add_group(&self.namesrvs, &format!("consumers[{i}]"), c)?;
        }
        let mut names = self.namesrvs.clone();
        // References are checked in the order the actions run (by time, ties in file order).
        let mut order: Vec<usize> = (0..self.actions.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| {
            self.actions[a].at.total_cmp(&self.actions[b].at)
        });
        for i in order {
            let a = &self.actions[i];
            let path = format!("actions[{i}]");
            if let Action::AddNamesrv { name } = &a.action {
                if names.contains(name) {
                    return Err(ScenarioError::at(
                        format!("{path}.name"),
                        format!("a NameServer named {name:?} already exists"),
                    ));
                }
                names.push(name.clone());
            }
            if let Action::AddBroker(b) = &a.action {
                self.check_broker(&path, b, &addrs)?;
                addrs.push(&b.addr);
            }
            if let Action::AddProducer(p) = &a.action {
                self.check_producer(&names, &path, p, &groups)?;
                groups.push(&p.group);
            }
            self.check_action(&names, &path, &a.action, &addrs, &groups)?;
            consumers.apply(&names, &path, &a.action)?;
        }
        if let Some(lesson) = &self.lesson {
            lesson.check_texts("lesson")?;
            // A step's task may add a broker, a producer or a NameServer that later steps name.
            for (i, step) in lesson.steps.iter().enumerate() {
                let path = format!("lesson.steps[{i}]");
                if let Some(task) = &step.task {
                    let apath = format!("{path}.task.action");
                    match &task.action {
                        Action::AddNamesrv { name } if !names.contains(name) => {
                            names.push(name.clone())
                        }
                        Action::AddBroker(b) => {
                            self.check_broker(&apath, b, &addrs)?;
                            addrs.push(&b.addr);
                        }
                        Action::AddProducer(p) => {
                            self.check_producer(&names, &apath, p, &groups)?;
                            groups.push(&p.group);
                        }
                        _ => {}
                    }
                    self.check_action(&names, &apath, &task.action, &addrs, &groups)?;
                    consumers.apply(&names, &apath, &task.action)?;
                }
                let consumer_groups = consumers.group_names();
                let client_ids = consumers.client_ids();
                let known = crate::sim::lesson::Known {
                    namesrvs: &names,
                    addrs: &addrs,
                    producers: &groups,
                    groups: &consumer_groups,
                    client_ids: &client_ids,
                };
                step.check_refs(&path, &known)?;
            }
        }
        self.check_failover()?;
        self.check_zones()?;
        if !self.topic_sets.is_empty() {
            let started = topic_sets::started_brokers(&self.brokers, &self.actions);
            for (i, set) in self.topic_sets.iter().enumerate() {
                set.validate(&format!("topic_sets[{i}]"), &started)?;
            }
        }
        if let Some(t) = &self.timing {
            for (name, v) in [
                ("register_secs", t.register_secs),
                ("scan_secs", t.scan_secs),
                ("expiry_secs", t.expiry_secs),
                ("idle_close_secs", t.idle_close_secs),
                ("route_poll_secs", t.route_poll_secs),
            ] {
                if v.is_some_and(|s| s < 0.001) {
                    return Err(ScenarioError::at(
                        format!("timing.{name}"),
                        "must be at least 0.001 s",
                    ));
                }
            }
            if t.send_timeout_ms == Some(0) {
                return Err(ScenarioError::at(
                    "timing.send_timeout_ms",
                    "must be at least 1 ms",
                ));
            }
        }
        Ok(())
    }

    fn check_broker(
        &self,
        path: &str,
        b: &BrokerSpec,
        known: &[&str],
    ) -> Result<(), ScenarioError> {
        let mut req = RegisterBroker::new(&b.cluster, &b.name, b.id, &b.addr, Default::default());
        for t in &b.topics {
            req.body
                .topic_config_serialize_wrapper
                .topic_config_table
                .insert(t.topic.clone(), t.config());
        }
        if let Err(e) = req.validate() {
            return Err(match e {
                crate::namesrv::RouteError::InvalidField { field, reason } => {
                    ScenarioError::at(format!("{path}.{}", scenario_field(&field, b)), reason)
                }
                other => ScenarioError::at(path, other.to_string()),
            });
        }
        if let Some(ha) = &b.ha_addr {
            crate::namesrv::validate_addr_field("ha_addr", ha)
                .map_err(|e| ScenarioError::at(format!("{path}.ha_addr"), strip_field(&e)))?;
        }
        if known.contains(&b.addr.as_str()) {
            return Err(ScenarioError::said(
                format!("{path}.addr"),
                w::ADDR_USED,
                &[("addr", &b.addr)],
            ));
        }
        if b.heartbeat_secs.is_some_and(|s| s < 0.001) {
            return Err(ScenarioError::at(
                format!("{path}.heartbeat_secs"),
                "must be at least 0.001 s",
            ));
        }
        Ok(())
    }

    fn check_producer(
        &self,
        names: &[String],
        path: &str,
        p: &ProducerSpec,
        known: &[&str],
    ) -> Result<(), ScenarioError> {
        if p.group.trim().is_empty() || known.contains(&p.group.as_str()) {
            return Err(ScenarioError::said(
                format!("{path}.group"),
                w::GROUP_EMPTY_OR_USED,
                &[("group", &format!("{:?}", p.group))],
            ));
        }
        crate::namesrv::validate_topic_name("topic", &p.topic)
            .map_err(|e| ScenarioError::at(format!("{path}.topic"), strip_field(&e)))?;
        if !(p.rate.is_finite() && p.rate > 0.0 && p.rate <= 1000.0) {
            return Err(ScenarioError::said(
                format!("{path}.rate"),
                w::RATE_OUT_OF_RANGE,
                &[],
            ));
        }
        if let Some(ns) = &p.namesrv {
            check_namesrv(names, &format!("{path}.namesrv"), ns)?;
        }
        Ok(())
    }

    fn check_action(
        &self,
        names: &[String],
        path: &str,
        action: &Action,
        addrs: &[&str],
        groups: &[&str],
    ) -> Result<(), ScenarioError> {
        let broker = |field: &str, addr: &str| -> Result<(), ScenarioError> {
            if addrs.contains(&addr) {
                Ok(())
            } else {
                Err(ScenarioError::said(
                    format!("{path}.{field}"),
                    w::NO_BROKER_AT,
                    &[("addr", &format!("{addr:?}"))],
                ))
            }
        };
        let ns_opt = |ns: &Option<String>| match ns {
            Some(ns) => check_namesrv(names, &format!("{path}.namesrv"), ns),
            None => Ok(()),
        };
        match action {
            Action::KillBroker { broker: b }
            | Action::FreezeBroker { broker: b }
            | Action::StopBroker { broker: b }
            | Action::RestartBroker { broker: b }
            | Action::ResumeBroker { broker: b }
            | Action::LagReplica { broker: b, .. } => broker("broker", b),
            Action::Partition(link) | Action::Heal(link) => {
                let Some(b) = &link.broker else {
                    return Err(ScenarioError::said(
                        format!("{path}.broker"),
                        w::LINK_NEEDS_BROKER,
                        &[],
                    ));
                };
                broker("broker", b)?;
                match (&link.namesrv, &link.producer, &link.controller, &link.peer) {
                    (Some(ns), None, None, None) => {
                        check_namesrv(names, &format!("{path}.namesrv"), ns)
                    }
                    (None, Some(p), None, None) if groups.contains(&p.as_str()) => Ok(()),
                    (None, Some(p), None, None) => Err(no_producer(format!("{path}.producer"), p)),
                    // The controller's name is checked with the other failover settings.
                    (None, None, Some(_), None) => Ok(()),
                    (None, None, None, Some(peer)) if peer != b => broker("peer", peer),
                    _ => Err(ScenarioError::said(path, w::LINK_NEEDS_ONE_END, &[])),
                }
            }
            Action::CreateTopic {
                broker: b,
                broker_name,
                topic,
                read,
                write,
                perm,
            } => {
                match (b, broker_name) {
                    (Some(b), None) => broker("broker", b)?,
                    (None, Some(_)) => {}
                    _ => return Err(ScenarioError::said(path, w::CREATE_TOPIC_TARGET, &[])),
                }
                let tc = TopicConfig::new(topic, *read, *write, *perm);
                validate_topic_config(topic, &tc).map_err(|e| match e {
                    crate::namesrv::RouteError::InvalidField { field, reason } => {
                        let f = field.rsplit('.').next().unwrap_or("topic");
                        ScenarioError::at(format!("{path}.{}", short_topic_field(f)), reason)
                    }
                    other => ScenarioError::at(path, other.to_string()),
                })
            }
            Action::DeleteTopic { namesrv, .. } | Action::PutKv { namesrv, .. } => ns_opt(namesrv),
            Action::WipeWritePerm {
                namesrv,
                broker_name,
            }
            | Action::AddWritePerm {
                namesrv,
                broker_name,
            } => {
                if broker_name.trim().is_empty() {
                    return Err(ScenarioError::said(
                        format!("{path}.broker_name"),
                        w::MUST_NOT_BE_EMPTY,
                        &[],
                    ));
                }
                ns_opt(namesrv)
            }
            Action::QueryRoute { namesrv, .. } => {
                check_namesrv(names, &format!("{path}.namesrv"), namesrv)
            }
            Action::Heartbeat { broker: b } => broker("broker", b),
            Action::AddNamesrv { name } if name.trim().is_empty() => Err(ScenarioError::said(
                format!("{path}.name"),
                w::MUST_NOT_BE_EMPTY,
                &[],
            )),
            Action::SetProducer { group, .. } | Action::RemoveProducer { group }
                if !groups.contains(&group.as_str()) =>
            {
                Err(no_producer(format!("{path}.group"), group))
            }
            _ => Ok(()),
        }
    }
}

/// Maps a core field name (`brokerId`, `topicConfigTable[T].perm`) to the scenario's (`id`,
/// `topics[i].perm`).
fn scenario_field(field: &str, b: &BrokerSpec) -> String {
    match field {
        "clusterName" => "cluster".into(),
        "brokerName" => "name".into(),
        "brokerId" => "id".into(),
        "brokerAddr" => "addr".into(),
        f => {
            let Some(rest) = f.strip_prefix("topicConfigTable[") else {
                return f.into();
            };
            let (topic, sub) = rest.split_once("].").unwrap_or((rest, "topic"));
            let i = b.topics.iter().position(|t| t.topic == topic).unwrap_or(0);
            format!("topics[{i}].{}", short_topic_field(sub))
        }
    }
}

fn short_topic_field(f: &str) -> &str {
    match f {
        "readQueueNums" => "read",
        "writeQueueNums" => "write",
        "topicName" => "topic",
        other => other,
    }
}

fn strip_field(e: &crate::namesrv::RouteError) -> String {
    match e {
        crate::namesrv::RouteError::InvalidField { reason, .. } => reason.clone(),
        other => other.to_string(),
    }
}

/// "no producer has group …" at `path`.
fn no_producer(path: String, group: &str) -> ScenarioError {
    ScenarioError::said(
        path,
        w::NO_PRODUCER_GROUP,
        &[("group", &format!("{group:?}"))],
    )
}

#[cfg(test)]
mod tests {
    use crate::i18n::Lang;
    use crate::sim::{Action, Scenario, Sim};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// What a form hits reads in the learner's language; files and the command line keep English.
    #[test]
    fn a_check_says_what_is_wrong_in_both_languages() {
        let scenario = Scenario::from_json(
            r#"{"routelab":1,"brokers":[{"name":"broker-a","addr":"10.0.0.1:10911"}]}"#,
        )
        .unwrap();
        let sim = Sim::new(&scenario);
        let e = sim
            .check(&Action::KillBroker {
                broker: "10.0.0.9:10911".into(),
            })
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "action.broker: no broker has address \"10.0.0.9:10911\""
        );
        assert_eq!(e.text_in(Lang::En), e.to_string());
        assert_eq!(
            e.text_in(Lang::Zh),
            "action.broker：没有地址为 \"10.0.0.9:10911\" 的 broker"
        );
        // A check not said in Chinese yet falls back to its English words.
        let plain = crate::sim::ScenarioError::at("x", "why");
        assert_eq!(plain.message_in(Lang::Zh), "why");
    }
}
