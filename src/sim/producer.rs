//! Producers: a route copy polled from one NameServer, queue picks by the core's selection, sync sends
//! with up to two retries inside the send timeout, and the fault table fed as the client does.
//!
//! How a failed attempt looks depends on the failure, as on a real network: a dead process refuses
//! the connection at once (the client retries on another broker), while a hung or cut-off broker
//! takes the whole send timeout — and then the client's budget is spent, so it does not retry
//! (`sendDefaultImpl` stops when `timeout < costTime`).

use serde::Serialize;

use super::client_routes::ClientRoutes;
use super::event::SimEventKind;
use super::scenario::ProducerSpec;
use super::{Sim, Timer, FIRST_ROUTE_POLL_MS, SEND_ATTEMPTS};
use crate::model::{BrokerName, NameMap, ProducerGroup, TopicName};
use crate::producer::{
    ClientProfile, MessageQueue, MqFaultStrategy, SendOutcome, TopicPublishInfo,
};

/// A producer's counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProducerStats {
    /// Messages the application sent.
    pub sent: u64,
    /// Messages stored.
    pub ok: u64,
    /// Messages that failed after every attempt.
    pub failed: u64,
    /// Attempts beyond the first.
    pub retries: u64,
    /// Attempts per broker name, in name order (a `BTreeMap`'s order and JSON).
    pub picks: NameMap<BrokerName, u64>,
}

/// A send in progress.
#[derive(Clone, Debug)]
pub(crate) struct InFlight {
    first_begin: u64,
    attempt: u32,
    mq: MessageQueue,
    outcome: SendOutcome,
    latency: u64,
    error: Option<&'static str>,
}

/// A simulated producer.
#[derive(Clone, Debug)]
pub struct ProducerNode {
    /// As the scenario gave it.
    pub spec: ProducerSpec,
    /// Which client tables it runs.
    pub client: ClientProfile,
    /// Its fault strategy (and fault table).
    pub strategy: MqFaultStrategy,
    /// Its publish info (`topicPublishInfoTable`), built from its route copy.
    pub info: Option<TopicPublishInfo>,
    /// Its NameServer and route copy, as every client keeps them.
    pub routes: ClientRoutes,
    /// Broker addresses it cannot reach (a few at most: a `Vec`, each once).
    pub cut_brokers: Vec<String>,
    /// Counters.
    pub stats: ProducerStats,
    /// When its next route poll is due.
    pub next_poll: Option<u64>,
    /// False once removed.
    pub active: bool,
    pub(crate) epoch: u64,
    pub(crate) in_flight: Option<InFlight>,
    /// The group and topic as shared names, cloned into every send event.
    pub(crate) group_name: ProducerGroup,
    pub(crate) topic_name: TopicName,
    /// Where the queues of `info` lead (kept with `info`).
    pub(crate) targets: Vec<super::targets::Target>,
    /// Milliseconds between two messages at its rate (the rate never changes).
    pub(crate) interval_ms: u64,
}

impl Sim {
    /// Creates a producer and starts its timers: first route poll after 10 ms, sends at its rate.
    pub(crate) fn add_producer(&mut self, spec: &ProducerSpec) {
        let client = spec.client.unwrap_or(self.default_client());
        self.producers.push(ProducerNode {
            spec: spec.clone(),
            client,
            strategy: MqFaultStrategy::new(client, spec.fault_tolerance),
            info: None,
            routes: ClientRoutes::default(),
            cut_brokers: Vec::new(),
            stats: ProducerStats::default(),
            next_poll: Some(self.now + FIRST_ROUTE_POLL_MS),
            active: true,
            epoch: 1,
            in_flight: None,
            group_name: ProducerGroup::from(spec.group.as_str()),
            topic_name: TopicName::from(spec.topic.as_str()),
            targets: Vec::new(),
            interval_ms: ((1000.0 / spec.rate).round() as u64).max(1),
        });
        let p = self.producers.len() - 1;
        self.schedule(
            self.now + FIRST_ROUTE_POLL_MS,
            Timer::RoutePoll {
                producer: p,
                epoch: 1,
            },
        );
        let interval = self.producers[p].interval_ms;
        self.schedule(
            self.now + interval,
            Timer::SendTick {
                producer: p,
                epoch: 1,
            },
        );
    }

    pub(super) fn live(&self, p: usize, epoch: u64) -> bool {
        let node = &self.producers[p];
        node.active && node.epoch == epoch
    }

    pub(super) fn on_send_tick(&mut self, p: usize, epoch: u64) {
        if !self.live(p, epoch) || self.producers[p].in_flight.is_some() {
            return;
        }
        self.producers[p].stats.sent += 1;
        if !self.producers[p].info.as_ref().is_some_and(|i| i.ok()) {
            // tryToFindTopicPublishInfo: ask the NameServer now (TBW102 as the fallback).
            self.find_route_for_send(p);
        }
        if !self.producers[p].info.as_ref().is_some_and(|i| i.ok()) {
            self.fail_message(p, self.now, None, 1, "no_route");
            return;
        }
        let now = self.now;
        self.begin_attempt(p, now, 0, None);
    }

    /// A message that fails before any broker answers (no route, or no time left): counted, reported
    /// as an attempt that did not reach a broker, and the next message scheduled.
    fn fail_message(
        &mut self,
        p: usize,
        first_begin: u64,
        mq: Option<&MessageQueue>,
        attempt: u32,
        error: &'static str,
    ) {
        let node = &mut self.producers[p];
        node.stats.failed += 1;
        let (producer, topic) = (node.group_name.clone(), node.topic_name.clone());
        self.emit(SimEventKind::Send {
            producer,
            topic,
            broker_name: mq.map(|q| q.broker_name.clone()),
            queue_id: mq.map(|q| q.queue_id),
            attempt,
            ok: false,
            latency_ms: 0,
            error: Some(error),
        });
        self.next_send(p, first_begin);
    }

    // Inlined natively: one call per simulated send, a small body, and a call's saving of
    // registers cost as much as the body. Not forced in wasm, where the dashboard is built for size.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn next_send(&mut self, p: usize, first_begin: u64) {
        let node = &self.producers[p];
        let at = (first_begin + node.interval_ms).max(self.now);
        let epoch = node.epoch;
        self.schedule(at, Timer::SendTick { producer: p, epoch });
    }

    /// One attempt: pick a queue (avoiding the last broker on retries), check the budget, and decide
    /// how the broker answers and how long it takes.
    fn begin_attempt(&mut self, p: usize, first_begin: u64, times: u32, last: Option<BrokerName>) {
        let now = self.now;
        let node = &mut self.producers[p];
        let Some(info) = node.info.as_mut() else {
            return;
        };
        let mq = node.strategy.select_one_message_queue(
            now,
            info,
            last.as_ref().map(BrokerName::as_str),
            times > 0,
            &mut self.rng,
        );
        let Some(mq) = mq else {
            node.stats.failed += 1;
            self.next_send(p, first_begin);
            return;
        };
        let cost = now - first_begin;
        let timeout = self.timing.send_timeout_ms;
        if timeout < cost {
            // callTimeout: the budget is spent before this attempt could start.
            self.fail_message(p, first_begin, Some(&mq), times + 1, "call_timeout");
            return;
        }
        let remaining = timeout - cost;
        let (outcome, latency, error) = self.answer(p, &mq, remaining);
        let node = &mut self.producers[p];
        if times > 0 {
            node.stats.retries += 1;
        }
        node.in_flight = Some(InFlight {
            first_begin,
            attempt: times + 1,
            mq,
            outcome,
            latency,
            error,
        });
        let epoch = node.epoch;
        self.schedule(now + latency, Timer::AttemptDone { producer: p, epoch });
    }

    /// How the target answers: stored (1–10 ms), refused at once (dead process), timed out (hung
    /// or cut off: the rest of the budget, plus the 1 ms the client's clock always sees), or an error
    /// from the broker (topic missing or not writable on the broker itself).
    ///
    /// Nearly every send is stored by a running broker that the producer's target for the group
    /// already knows to accept the topic: that answer is given here, and the others by
    /// [`Sim::answer_in_full`], kept out of line so that the common send does not carry its code.
    #[inline]
    fn answer(
        &mut self,
        p: usize,
        mq: &MessageQueue,
        remaining: u64,
    ) -> (SendOutcome, u64, Option<&'static str>) {
        let node = &self.producers[p];
        let stored = node.cut_brokers.is_empty()
            && super::targets::position(&node.targets, &mq.broker_name)
                .and_then(|i| node.targets.get(i))
                .is_some_and(|t| t.stores(&self.brokers));
        if stored {
            // What `answer_in_full` answers then, with the same draw.
            return (SendOutcome::Ok, 1 + self.rng.next_below(10), None);
        }
        self.answer_in_full(p, mq, remaining)
    }

    /// [`Sim::answer`] worked out from the producer's route and the brokers, whatever the case.
    #[inline(never)]
    fn answer_in_full(
        &mut self,
        p: usize,
        mq: &MessageQueue,
        remaining: u64,
    ) -> (SendOutcome, u64, Option<&'static str>) {
        let node = &self.producers[p];
        let target_index = super::targets::position(&node.targets, &mq.broker_name);
        let target = target_index.and_then(|i| node.targets.get(i));
        let master = match target {
            Some(t) => t.master.as_ref(),
            None => node
                .info
                .as_ref()
                .and_then(|i| i.topic_route_data.broker_data(mq.broker_name.as_str()))
                .and_then(|b| b.master_addr()),
        };
        let Some(addr) = master else {
            return (SendOutcome::ClientError, 0, Some("no_master"));
        };
        let cut = node.cut_brokers.iter().any(|a| *a == addr.as_str());
        let index = target
            .and_then(|t| t.broker)
            .or_else(|| self.brokers.iter().position(|b| b.addr == addr.as_str()));
        // autoCreateTopicEnable: a running broker creates a missing topic from TBW102 on the send.
        let mut accepts =
            index.and_then(|b| self.accepts_via(p, target_index, b, mq.topic.as_str()));
        if let Some(b) = index {
            let running = self.brokers[b].is_up() && !cut;
            if running && accepts.is_none() {
                self.auto_create_topic(b, mq.topic.as_str());
                accepts = self.brokers[b].accepts(mq.topic.as_str());
            }
        }
        let broker = index.map(|b| &self.brokers[b]);
        match broker.map(|b| b.state) {
            _ if cut => (SendOutcome::RemotingError, remaining + 1, Some("timeout")),
            Some(super::BrokerState::Frozen) => {
                (SendOutcome::RemotingError, remaining + 1, Some("timeout"))
            }
            // A controller made it a slave, or has not given it a role yet.
            Some(super::BrokerState::Running) if broker.is_some_and(|b| !b.takes_writes()) => (
                SendOutcome::BrokerError,
                1 + self.rng.next_below(3),
                Some("service_not_available"),
            ),
            Some(super::BrokerState::Running) => match accepts {
                Some(true) => (SendOutcome::Ok, 1 + self.rng.next_below(10), None),
                Some(false) => (
                    SendOutcome::BrokerError,
                    1 + self.rng.next_below(3),
                    Some("no_permission"),
                ),
                None => (
                    SendOutcome::BrokerError,
                    1 + self.rng.next_below(3),
                    Some("topic_not_exist"),
                ),
            },
            _ => (
                SendOutcome::RemotingError,
                1 + self.rng.next_below(3),
                Some("connect_refused"),
            ),
        }
    }

    /// A stored message: appended to its queue in the broker group's store. The producer's target
    /// for the group (found by pointer) remembers where its topic is in that store, so a send
    /// looks nothing up by name; a queue without a target is looked up the long way.
    #[inline]
    fn record_put(&mut self, p: usize, broker_name: &BrokerName, topic: &str, queue_id: i32) {
        let now = self.now;
        let node = &mut self.producers[p];
        if let Some(t) = super::targets::position(&node.targets, broker_name)
            .and_then(|i| node.targets.get_mut(i))
        {
            if let Some(b) = t.broker {
                let s = self.brokers[b].store;
                let store = &mut self.stores[s];
                if let Some(slot) = t.log_slot {
                    store.append_at(now, slot, queue_id);
                    return;
                }
                if store.broker_name == broker_name.as_str() {
                    let slot = store.slot(topic);
                    t.log_slot = Some(slot);
                    store.append_at(now, slot, queue_id);
                    return;
                }
            }
        }
        let s = self.store_for(broker_name.as_str());
        self.stores[s].append(now, topic, queue_id);
    }

    pub(super) fn on_attempt_done(&mut self, p: usize, epoch: u64) {
        if !self.live(p, epoch) {
            return;
        }
        let Some(f) = self.producers[p].in_flight.take() else {
            return;
        };
        let now = self.now;
        let node = &mut self.producers[p];
        // With the queue's own name: the fault item and the count keep a copy of it, and the next
        // sends to that group find them by pointer.
        node.strategy
            .record_send(now, &f.mq.broker_name, f.latency, f.outcome);
        match node.stats.picks.get_mut_shared(&f.mq.broker_name) {
            Some(n) => *n += 1,
            None => {
                node.stats.picks.insert(f.mq.broker_name.clone(), 1);
            }
        }
        let ok = f.outcome == SendOutcome::Ok;
        let retry = !ok && f.attempt < SEND_ATTEMPTS;
        let last = retry.then(|| f.mq.broker_name.clone());
        // The event takes the queue's names rather than copies (a reference count each, twice, on
        // every send). The queue's topic is the producer's: its publish info is built for it.
        let MessageQueue {
            topic,
            broker_name,
            queue_id,
        } = f.mq;
        if ok {
            self.record_put(p, &broker_name, topic.as_str(), queue_id);
        }
        let producer = self.producers[p].group_name.clone();
        self.emit(SimEventKind::Send {
            producer,
            topic,
            broker_name: Some(broker_name),
            queue_id: Some(queue_id),
            attempt: f.attempt,
            ok,
            latency_ms: f.latency,
            error: f.error,
        });
        let node = &mut self.producers[p];
        if ok {
            node.stats.ok += 1;
        } else if retry {
            self.begin_attempt(p, f.first_begin, f.attempt, last);
            return;
        } else {
            node.stats.failed += 1;
        }
        self.next_send(p, f.first_begin);
    }
}

impl ProducerNode {
    /// The NameServer it asks (index), once chosen.
    pub fn namesrv(&self) -> Option<usize> {
        self.routes.namesrv()
    }

    /// When a NameServer last answered with a route for its topic.
    pub fn route_fetched_at(&self) -> Option<u64> {
        self.routes.fetched_at(&self.spec.topic)
    }
}
