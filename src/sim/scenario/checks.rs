//! A scenario's checks of what its types cannot say: the version, names, addresses, topics and the
//! references between fields, each error naming its field path.

use super::{Action, BrokerSpec, ProducerSpec, Scenario, ScenarioError, FORMAT_VERSION};
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
                }
                let known = crate::sim::lesson::Known {
                    namesrvs: &names,
                    addrs: &addrs,
                    producers: &groups,
                };
                step.check_refs(&path, &known)?;
            }
        }
        if !self.topic_sets.is_empty() {
            let started = crate::sim::topic_sets::started_brokers(self);
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
            return Err(ScenarioError::at(
                format!("{path}.addr"),
                format!("{} is used by another broker", b.addr),
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
            return Err(ScenarioError::at(
                format!("{path}.group"),
                format!("{:?} is empty or used by another producer", p.group),
            ));
        }
        crate::namesrv::validate_topic_name("topic", &p.topic)
            .map_err(|e| ScenarioError::at(format!("{path}.topic"), strip_field(&e)))?;
        if !(p.rate.is_finite() && p.rate > 0.0 && p.rate <= 1000.0) {
            return Err(ScenarioError::at(
                format!("{path}.rate"),
                "expected messages per second in (0, 1000]",
            ));
        }
        if let Some(ns) = &p.namesrv {
            Self::check_namesrv(names, &format!("{path}.namesrv"), ns)?;
        }
        Ok(())
    }

    pub(crate) fn check_namesrv(
        names: &[String],
        path: &str,
        ns: &str,
    ) -> Result<(), ScenarioError> {
        if names.iter().any(|n| n == ns) {
            Ok(())
        } else {
            Err(ScenarioError::at(
                path,
                format!("unknown NameServer {ns:?}; known: {}", names.join(", ")),
            ))
        }
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
                Err(ScenarioError::at(
                    format!("{path}.{field}"),
                    format!("no broker has address {addr:?}"),
                ))
            }
        };
        let ns_opt = |ns: &Option<String>| match ns {
            Some(ns) => Self::check_namesrv(names, &format!("{path}.namesrv"), ns),
            None => Ok(()),
        };
        match action {
            Action::KillBroker { broker: b }
            | Action::FreezeBroker { broker: b }
            | Action::StopBroker { broker: b }
            | Action::RestartBroker { broker: b } => broker("broker", b),
            Action::Partition(link) | Action::Heal(link) => {
                let Some(b) = &link.broker else {
                    return Err(ScenarioError::at(
                        format!("{path}.broker"),
                        "a link needs `broker` and either `namesrv` or `producer`",
                    ));
                };
                broker("broker", b)?;
                match (&link.namesrv, &link.producer) {
                    (Some(ns), None) => Self::check_namesrv(names, &format!("{path}.namesrv"), ns),
                    (None, Some(p)) if groups.contains(&p.as_str()) => Ok(()),
                    (None, Some(p)) => Err(ScenarioError::at(
                        format!("{path}.producer"),
                        format!("no producer has group {p:?}"),
                    )),
                    _ => Err(ScenarioError::at(
                        path,
                        "a link needs `broker` and exactly one of `namesrv` or `producer`",
                    )),
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
                    _ => {
                        return Err(ScenarioError::at(
                            path,
                            "create_topic needs exactly one of `broker` (address) or `broker_name`",
                        ))
                    }
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
                    return Err(ScenarioError::at(
                        format!("{path}.broker_name"),
                        "must not be empty",
                    ));
                }
                ns_opt(namesrv)
            }
            Action::QueryRoute { namesrv, .. } => {
                Self::check_namesrv(names, &format!("{path}.namesrv"), namesrv)
            }
            Action::Heartbeat { broker: b } => broker("broker", b),
            Action::AddNamesrv { name } if name.trim().is_empty() => Err(ScenarioError::at(
                format!("{path}.name"),
                "must not be empty",
            )),
            Action::SetProducer { group, .. } if !groups.contains(&group.as_str()) => {
                Err(ScenarioError::at(
                    format!("{path}.group"),
                    format!("no producer has group {group:?}"),
                ))
            }
            Action::RemoveProducer { group } if !groups.contains(&group.as_str()) => {
                Err(ScenarioError::at(
                    format!("{path}.group"),
                    format!("no producer has group {group:?}"),
                ))
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
