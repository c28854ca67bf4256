//! Actions: checked against the world as it is now ([`Sim::check`]) and applied, by the dashboard's
//! buttons ([`Sim::apply`]) or when a scenario's action falls due (`apply_action`, from the clock's
//! loop). `apply_action` only says which of the world's operations an action is; each family's
//! operations that no other file needs (NameServer commands, producers' settings, consumer groups'
//! settings, links) are below it.

use super::event::SimEventKind;
use super::scenario::Link;
use super::{targets, Action, NamesrvNode, ScenarioError, Sim, TimedAction};
use crate::consumer::StrategyName;
use crate::model::TopicConfig;
use crate::producer::{ClientProfile, MqFaultStrategy, TopicPublishInfo};

impl Sim {
    /// Whether `action` could be applied now ([`Sim::apply`] would accept it), changing nothing.
    pub fn check(&self, action: &Action) -> Result<(), ScenarioError> {
        self.check_live_action(action)
    }

    /// Applies an action now (the dashboard's buttons). Invalid references are reported as errors
    /// and change nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), ScenarioError> {
        self.check_live_action(action)?;
        self.apply_action(action);
        Ok(())
    }

    /// The scenario's checks, run on a copy of it that holds the world as it is now (its
    /// NameServers, brokers, producers and consumers) and `action` as its only action.
    fn check_live_action(&self, action: &Action) -> Result<(), ScenarioError> {
        let mut probe = self.scenario.clone();
        probe.namesrvs = self.namesrvs.iter().map(|n| n.name.clone()).collect();
        probe.brokers = self.brokers.iter().map(|b| b.spec.clone()).collect();
        probe.controllers = self.controllers.iter().map(|c| c.name.clone()).collect();
        probe.producers = self
            .producers
            .iter()
            .filter(|p| p.active)
            .map(|p| p.spec.clone())
            .collect();
        probe.actions = vec![TimedAction {
            at: self.now as f64 / 1000.0,
            action: action.clone(),
        }];
        // Every member there is, whatever its state, under its group.
        probe.consumers = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, group)| {
                let mut spec = group.spec.clone();
                spec.members = None;
                spec.client_ids = self
                    .consumers
                    .iter()
                    .filter(|c| c.group == g)
                    .map(|c| c.client_id.clone())
                    .collect();
                spec
            })
            .collect();
        // The lesson was checked with the file; its tasks would be checked again as if still to
        // come (a task's broker "already used" once the learner added it).
        probe.lesson = None;
        probe.validate().map_err(|e| ScenarioError {
            path: e.path.replace("actions[0]", "action"),
            ..e
        })
    }

    /// Applies `action` (already checked): one of the world's operations per action.
    pub(super) fn apply_action(&mut self, action: &Action) {
        self.fired += 1;
        self.emit(SimEventKind::Action {
            action: Box::new(action.clone()),
        });
        match action {
            // Brokers.
            Action::AddBroker(spec) => self.add_broker(spec),
            Action::KillBroker { broker } => self.with_broker(broker, Self::kill_broker),
            Action::FreezeBroker { broker } => self.with_broker(broker, Self::freeze_broker),
            Action::StopBroker { broker } => self.with_broker(broker, Self::stop_broker),
            Action::RestartBroker { broker } => self.with_broker(broker, Self::restart_broker),
            Action::ResumeBroker { broker } => self.with_broker(broker, Self::resume_broker),
            // Controllers.
            Action::AddController { controller } => {
                self.add_controllers(std::slice::from_ref(controller))
            }
            Action::KillController { controller } => {
                self.with_controller(controller, Self::kill_controller)
            }
            Action::FreezeController { controller } => {
                self.with_controller(controller, Self::freeze_controller)
            }
            Action::RestartController { controller } => {
                self.with_controller(controller, Self::restart_controller)
            }
            Action::LagReplica { broker, lagging } => {
                if let Some(b) = self.brokers.iter().position(|x| x.addr == *broker) {
                    self.lag_replica(b, *lagging);
                }
            }
            Action::ElectMaster {
                broker_name,
                broker_id,
            } => self.admin_elect_master(broker_name, *broker_id),
            Action::Heartbeat { broker } => self.with_broker(broker, |sim, b| {
                if sim.brokers[b].is_up() {
                    sim.register_all(b);
                }
            }),
            Action::CreateTopic {
                broker,
                broker_name,
                topic,
                read,
                write,
                perm,
            } => {
                let tc = TopicConfig::new(topic, *read, *write, *perm);
                self.create_topic_on(broker.as_deref(), broker_name.as_deref(), tc);
            }
            Action::Partition(link) => self.set_link(link, true),
            Action::Heal(link) => self.set_link(link, false),
            // NameServers.
            Action::AddNamesrv { name } => self.add_namesrv(name),
            Action::DeleteTopic {
                topic,
                cluster,
                namesrv,
            } => self.delete_topic_on(namesrv, topic, cluster.as_deref()),
            Action::WipeWritePerm {
                broker_name,
                namesrv,
            } => self.set_write_perm_on(namesrv, broker_name, true),
            Action::AddWritePerm {
                broker_name,
                namesrv,
            } => self.set_write_perm_on(namesrv, broker_name, false),
            Action::PutKv {
                namespace,
                key,
                value,
                namesrv,
            } => self.put_kv_on(namesrv, namespace, key, value),
            Action::QueryRoute { topic, namesrv } => self.query_route(namesrv, topic),
            // Producers.
            Action::AddProducer(spec) => self.add_producer(spec),
            Action::RemoveProducer { group } => self.remove_producer(group),
            Action::SetProducer {
                group,
                fault_tolerance,
                client,
            } => self.set_producer(group, *fault_tolerance, *client),
            // Consumers.
            Action::AddConsumerGroup(spec) => self.add_consumer_group(spec),
            Action::AddConsumer { group, client_id } => {
                if let Some(g) = self.group_index(group) {
                    self.add_consumer(g, client_id.clone());
                }
            }
            Action::KillConsumer { client_id } => {
                self.with_consumer(client_id, Self::kill_consumer)
            }
            Action::FreezeConsumer { client_id } => {
                self.with_consumer(client_id, Self::freeze_consumer)
            }
            Action::StopConsumer { client_id } => {
                self.with_consumer(client_id, Self::stop_consumer)
            }
            Action::RestartConsumer { client_id } => {
                self.with_consumer(client_id, Self::restart_consumer)
            }
            Action::SetConsumer { client_id, rate } => {
                if let Some(m) = self.consumer_index(client_id) {
                    self.consumers[m].rate = *rate;
                }
            }
            Action::SetConsumerGroup {
                group,
                strategy,
                rate,
            } => self.set_consumer_group(group, *strategy, *rate),
        }
    }

    fn with_broker(&mut self, addr: &str, f: fn(&mut Self, usize)) {
        if let Some(i) = self.brokers.iter().position(|b| b.addr == addr) {
            f(self, i);
        }
    }

    fn with_controller(&mut self, name: &str, f: fn(&mut Self, usize)) {
        if let Some(c) = self.controllers.iter().position(|c| c.name == name) {
            f(self, c);
        }
    }

    fn with_consumer(&mut self, client_id: &str, f: fn(&mut Self, usize)) {
        if let Some(m) = self.consumer_index(client_id) {
            f(self, m);
        }
    }

    /// Creates or updates a topic on the broker at `addr`, or on every member of group `name`.
    fn create_topic_on(&mut self, addr: Option<&str>, name: Option<&str>, tc: TopicConfig) {
        let targets: Vec<usize> = (0..self.brokers.len())
            .filter(|&i| {
                let b = &self.brokers[i];
                addr == Some(b.addr.as_str()) || name == Some(b.spec.name.as_str())
            })
            .collect();
        for i in targets {
            self.create_topic(i, tc.clone());
        }
    }

    /// The NameServers an action addresses: one by name, or all.
    fn target_namesrvs(&self, name: &Option<String>) -> Vec<usize> {
        match name {
            Some(n) => self.namesrv_index(n).into_iter().collect(),
            None => (0..self.namesrvs.len()).collect(),
        }
    }

    /// Starts another NameServer with the first one's config (brokers register with it from
    /// their next period on).
    fn add_namesrv(&mut self, name: &str) {
        if self.namesrv_index(name).is_none() {
            let config = self.namesrvs[0].manager.config().clone();
            let node = NamesrvNode::new(name.to_owned(), self.scenario.profile, config);
            self.namesrvs.push(node);
            let ns = self.namesrvs.len() - 1;
            self.schedule_scan(ns, self.now + self.timing.scan_first_ms);
        }
    }

    /// DELETE_TOPIC_IN_NAMESRV on NameServer `namesrv`, or on all.
    fn delete_topic_on(&mut self, namesrv: &Option<String>, topic: &str, cluster: Option<&str>) {
        for ns in self.target_namesrvs(namesrv) {
            let _ = self.namesrvs[ns].manager.delete_topic(topic, cluster);
            self.drain_ns(ns);
        }
    }

    /// WIPE_WRITE_PERM_OF_BROKER (`wipe`) or ADD_WRITE_PERM_OF_BROKER on NameServer `namesrv`, or
    /// on all.
    fn set_write_perm_on(&mut self, namesrv: &Option<String>, broker_name: &str, wipe: bool) {
        for ns in self.target_namesrvs(namesrv) {
            let m = &mut self.namesrvs[ns].manager;
            let _ = if wipe {
                m.wipe_write_perm_of_broker(broker_name)
            } else {
                m.add_write_perm_of_broker(broker_name)
            };
            self.drain_ns(ns);
        }
    }

    /// PUT_KV_CONFIG on NameServer `namesrv`, or on all.
    fn put_kv_on(&mut self, namesrv: &Option<String>, namespace: &str, key: &str, value: &str) {
        for ns in self.target_namesrvs(namesrv) {
            let _ = self.namesrvs[ns]
                .manager
                .put_kv_config(namespace, key, value);
            self.drain_ns(ns);
        }
    }

    /// Asks NameServer `namesrv` for `topic`'s route, recorded as a `route_query` event.
    fn query_route(&mut self, namesrv: &str, topic: &str) {
        if let Some(ns) = self.namesrv_index(namesrv) {
            let route = self.namesrvs[ns].manager.pickup_topic_route_data(topic);
            self.emit(SimEventKind::RouteQuery {
                namesrv: namesrv.to_owned(),
                topic: topic.to_owned(),
                route: route.map(Box::new),
            });
        }
    }

    /// Shuts the active producer of `group` down.
    fn remove_producer(&mut self, group: &str) {
        if let Some(p) = self
            .producers
            .iter_mut()
            .find(|p| p.active && p.spec.group == *group)
        {
            p.active = false;
            p.epoch += 1;
        }
    }

    /// Changes the active producer of `group`: its client tables (its publish info rebuilt from
    /// the route it holds, with the new tables) and its fault tolerance.
    fn set_producer(
        &mut self,
        group: &str,
        fault_tolerance: Option<bool>,
        client: Option<ClientProfile>,
    ) {
        let Some(p) = self
            .producers
            .iter_mut()
            .find(|p| p.active && p.spec.group == *group)
        else {
            return;
        };
        if let Some(c) = client {
            p.client = c;
            p.spec.client = Some(c);
            p.strategy = MqFaultStrategy::new(c, p.strategy.send_latency_fault_enable);
            if let Some(info) = &p.info {
                let route = info.topic_route_data.clone();
                p.info = TopicPublishInfo::from_route(&p.spec.topic, &route, c).ok();
                p.targets = p
                    .info
                    .as_ref()
                    .map(|i| targets::targets_of(i, &self.brokers))
                    .unwrap_or_default();
            }
        }
        if let Some(ft) = fault_tolerance {
            p.spec.fault_tolerance = ft;
            p.strategy.send_latency_fault_enable = ft;
        }
    }

    /// Changes a consumer group's members' rate, or its strategy (as if every member were
    /// restarted with it: each rebalances with it now).
    fn set_consumer_group(
        &mut self,
        group: &str,
        strategy: Option<StrategyName>,
        rate: Option<f64>,
    ) {
        let Some(g) = self.group_index(group) else {
            return;
        };
        if let Some(r) = rate {
            self.groups[g].spec.rate = r;
            for c in self.consumers.iter_mut().filter(|c| c.group == g) {
                c.rate = r;
            }
        }
        if let Some(s) = strategy {
            self.groups[g].spec.strategy = s;
            if s != StrategyName::ConsistentHash {
                self.groups[g].spec.virtual_nodes = None;
            }
            let members: Vec<usize> = (0..self.consumers.len())
                .filter(|&m| self.consumers[m].group == g)
                .collect();
            for m in members {
                self.wake_rebalance(m);
            }
        }
    }

    /// Cuts (`cut`) or restores a broker's link to a NameServer or to a producer group.
    fn set_link(&mut self, link: &Link, cut: bool) {
        let Some(addr) = link.broker.clone() else {
            return;
        };
        if let Some(ns) = link.namesrv.as_deref().and_then(|n| self.namesrv_index(n)) {
            self.cut_broker_ns.retain(|(a, n)| *a != addr || *n != ns);
            if cut {
                self.cut_broker_ns.push((addr, ns));
            }
        } else if let Some(other) = link.controller.as_ref().or(link.peer.as_ref()) {
            let pair = (addr, other.clone());
            self.cut_pairs.retain(|(a, o)| {
                !((*a == pair.0 && *o == pair.1) || (*a == pair.1 && *o == pair.0))
            });
            if cut {
                self.cut_pairs.push(pair);
            }
        } else if let Some(group) = &link.producer {
            for p in self.producers.iter_mut().filter(|p| p.spec.group == *group) {
                if cut {
                    if !p.cut_brokers.contains(&addr) {
                        p.cut_brokers.push(addr.clone());
                    }
                } else {
                    p.cut_brokers.retain(|a| *a != addr);
                }
            }
        }
    }
}
