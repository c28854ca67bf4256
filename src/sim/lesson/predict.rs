//! A question's right answer, computed: the world is copied at the moment the question is asked, the
//! step's task done on the copy if the learner has not done it yet (a question is about what the
//! task will cause: "kill broker-a — why will ns-1 remove it?"), and the copy run on until the event
//! that decides it (at most [`HORIZON_MS`]). Nothing in the lesson file says which choice is right,
//! so a lesson cannot teach a wrong answer after a change to the rules.

use super::question::{Ask, Predict};
use super::until::HORIZON_MS;
use crate::sim::{Action, Sim, SimEvent, SimEventKind};

/// What really happened after a question was asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The indices of the choices that are right (a valid lesson has exactly one).
    pub right: Vec<usize>,
    /// The event that decided it, if it came within the horizon: the explanation shown after the
    /// answer, in the feed's words.
    pub event: Option<SimEvent>,
}

impl Outcome {
    /// The one right choice, if there is exactly one.
    pub fn the_right_one(&self) -> Option<usize> {
        match self.right.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// Steps the copy forward a second at a time, handing each event to `decide` until it returns a
/// value or the horizon passes.
fn run_until<T>(
    sim: &Sim,
    task: Option<&Action>,
    mut decide: impl FnMut(&SimEvent) -> Option<T>,
) -> Option<T> {
    let mut copy = sim.clone();
    // What the original has not reported yet happened before the question.
    let _ = copy.drain_events();
    if let Some(action) = task {
        // A task that cannot be done (its broker already gone) leaves the world as it is.
        let _ = copy.apply(action);
    }
    let end = copy.now().saturating_add(HORIZON_MS);
    while copy.now() < end {
        let next = copy.now().saturating_add(1000).min(end);
        copy.advance_to(next);
        for e in copy.drain_events() {
            if let Some(v) = decide(&e) {
                return Some(v);
            }
        }
    }
    None
}

/// The NameServer and the broker address a question is about.
fn namesrv_and_broker(p: &Predict) -> (&str, &str) {
    (
        p.namesrv.as_deref().unwrap_or_default(),
        p.broker.as_deref().unwrap_or_default(),
    )
}

/// The answer to `p` for the world `sim` shows now, once `task` (the step's task, when not done
/// yet) is done.
pub fn outcome(p: &Predict, sim: &Sim, task: Option<&Action>) -> Outcome {
    let event = match p.ask {
        Ask::NextSendBroker => {
            next_send(sim, task, p.producer.as_deref().unwrap_or_default(), false)
        }
        Ask::NextSendOk => next_send(sim, task, p.producer.as_deref().unwrap_or_default(), true),
        Ask::RemovalTime | Ask::RemovalReason => {
            let (ns, addr) = namesrv_and_broker(p);
            run_until(sim, task, |e| match &e.kind {
                SimEventKind::BrokerRemoved {
                    namesrv,
                    broker_addr,
                    ..
                } if namesrv == ns && broker_addr == addr => Some(e.clone()),
                _ => None,
            })
        }
        Ask::QueueOwner => {
            let group = p.group.as_deref().unwrap_or_default();
            let broker = p.broker_name.as_deref().unwrap_or_default();
            let q = p.queue_id.unwrap_or_default();
            run_until(sim, task, |e| match &e.kind {
                SimEventKind::ConsumerRebalanced(r)
                    if r.group == group
                        && r.queues
                            .iter()
                            .any(|x| x.broker_name == broker && x.queue_id == q) =>
                {
                    Some(e.clone())
                }
                _ => None,
            })
        }
        Ask::DuplicatesReason => {
            let group = p.group.as_deref().unwrap_or_default();
            run_until(sim, task, |e| match &e.kind {
                SimEventKind::Duplicates(d) if d.group == group => Some(e.clone()),
                _ => None,
            })
        }
        Ask::BacklogBroker => return backlog_broker(p, sim, task),
        Ask::NewMaster | Ask::ElectionTime => {
            let group = p.broker_name.as_deref().unwrap_or_default();
            run_until(sim, task, |e| match &e.kind {
                SimEventKind::MasterElected(m) if m.group == group => Some(e.clone()),
                // A DLedger group's replicas elect their master among themselves.
                SimEventKind::LeaderElected {
                    mode: "dledger",
                    raft_group,
                    ..
                } if raft_group == group => Some(e.clone()),
                _ => None,
            })
        }
        Ask::RegistrationOutcome => {
            let (ns, addr) = namesrv_and_broker(p);
            run_until(sim, task, |e| match &e.kind {
                SimEventKind::BrokerRegistered {
                    namesrv,
                    broker_addr,
                    ..
                }
                | SimEventKind::RegistrationRejected {
                    namesrv,
                    broker_addr,
                    ..
                } if namesrv == ns && broker_addr == addr => Some(e.clone()),
                _ => None,
            })
        }
    };
    // No election within the horizon: nobody takes writes (a master/slave group's answer).
    if p.ask == Ask::NewMaster && event.is_none() {
        let right = p
            .choices
            .iter()
            .enumerate()
            .filter(|(_, c)| c.nobody == Some(true))
            .map(|(i, _)| i)
            .collect();
        return Outcome { right, event };
    }
    let right = match &event {
        None => Vec::new(),
        Some(e) => p
            .choices
            .iter()
            .enumerate()
            .filter(|(_, c)| match (&e.kind, p.ask) {
                (
                    SimEventKind::Send {
                        broker_name: Some(b),
                        ..
                    },
                    Ask::NextSendBroker,
                ) => c.broker_name.as_deref() == Some(b.as_str()),
                (SimEventKind::Send { ok, .. }, Ask::NextSendOk) => c.ok == Some(*ok),
                (SimEventKind::BrokerRemoved { .. }, Ask::RemovalTime) => {
                    let secs = e.t as f64 / 1000.0;
                    c.from.is_some_and(|f| f <= secs) && c.to.is_some_and(|t| secs < t)
                }
                (SimEventKind::BrokerRemoved { reason, .. }, Ask::RemovalReason) => {
                    c.reason.as_deref() == Some(*reason)
                }
                (SimEventKind::ConsumerRebalanced(r), Ask::QueueOwner) => {
                    c.client_id.as_deref() == Some(r.client_id.as_str())
                }
                (SimEventKind::Duplicates(d), Ask::DuplicatesReason) => {
                    c.reason.as_deref() == Some(d.reason)
                }
                (SimEventKind::MasterElected(m), Ask::NewMaster) => match &m.new_master_addr {
                    Some(addr) => c.broker.as_deref() == Some(addr.as_str()),
                    None => c.nobody == Some(true),
                },
                (SimEventKind::LeaderElected { leader, .. }, Ask::NewMaster) => {
                    c.broker.as_deref() == Some(leader.as_str())
                }
                (
                    SimEventKind::MasterElected(_) | SimEventKind::LeaderElected { .. },
                    Ask::ElectionTime,
                ) => {
                    let secs = e.t as f64 / 1000.0;
                    c.from.is_some_and(|f| f <= secs) && c.to.is_some_and(|t| secs < t)
                }
                (SimEventKind::BrokerRegistered { .. }, Ask::RegistrationOutcome) => {
                    c.reason.as_deref() == Some("accepted")
                }
                (SimEventKind::RegistrationRejected { reason, .. }, Ask::RegistrationOutcome) => {
                    c.reason.as_deref() == Some(reason.as_str())
                }
                _ => false,
            })
            .map(|(i, _)| i)
            .collect(),
    };
    Outcome { right, event }
}

/// The first attempt of `producer`'s next message, or (`delivered`) the attempt that ended it:
/// the first that succeeded, or the last that failed before the producer moved on to another
/// message.
fn next_send(
    sim: &Sim,
    task: Option<&Action>,
    producer: &str,
    delivered: bool,
) -> Option<SimEvent> {
    let mut last_failed: Option<SimEvent> = None;
    // A send is reported when it ends: one already under way when the question is asked (begun at
    // that millisecond or before: the world has fired what was due then) is a message before the
    // next.
    let asked = sim.now();
    let mut started = false;
    run_until(sim, task, |e| {
        let SimEventKind::Send {
            producer: p,
            attempt,
            ok,
            latency_ms,
            ..
        } = &e.kind
        else {
            return None;
        };
        if p.as_str() != producer {
            return None;
        }
        if *attempt == 1 {
            started = e.t.saturating_sub(*latency_ms) > asked;
        }
        if !started {
            return None;
        }
        if !delivered {
            return (*attempt == 1).then(|| e.clone());
        }
        match (&last_failed, *attempt, *ok) {
            // The next message started: the one before failed for good.
            (Some(failed), 1, _) => Some(failed.clone()),
            (_, _, true) => Some(e.clone()),
            (_, _, false) => {
                last_failed = Some(e.clone());
                None
            }
        }
    })
}

/// `backlog_broker`: the world copied, the task done, run on for `after` seconds (60): the broker
/// group holding the most of the group's backlog is the right choice (none when two tie). No event
/// decides it.
fn backlog_broker(p: &Predict, sim: &Sim, task: Option<&Action>) -> Outcome {
    let mut copy = sim.clone();
    let _ = copy.drain_events();
    if let Some(action) = task {
        let _ = copy.apply(action);
    }
    let after = (p.after.unwrap_or(60.0) * 1000.0).round() as u64;
    copy.advance_to(copy.now().saturating_add(after));
    let group = p.group.as_deref().unwrap_or_default();
    let mut by_broker: Vec<(String, u64)> = Vec::new();
    for q in copy.consumer_progress(group) {
        match by_broker.iter_mut().find(|b| b.0 == q.broker_name) {
            Some(b) => b.1 += q.backlog(),
            None => by_broker.push((q.broker_name.clone(), q.backlog())),
        }
    }
    let most = by_broker.iter().map(|b| b.1).max().unwrap_or(0);
    let top: Vec<&str> = by_broker
        .iter()
        .filter(|b| b.1 == most && most > 0)
        .map(|b| b.0.as_str())
        .collect();
    let right = match top.as_slice() {
        [one] => p
            .choices
            .iter()
            .enumerate()
            .filter(|(_, c)| c.broker_name.as_deref() == Some(*one))
            .map(|(i, _)| i)
            .collect(),
        _ => Vec::new(),
    };
    Outcome { right, event: None }
}
