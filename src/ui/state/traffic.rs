//! What the state keeps for the cluster's picture: what moved along its edges (heartbeats, route
//! polls, sends), for its pulses, and whether it collapses to one node per broker group. Both live
//! here, not with the picture's component (`ui/topology/`), because the reducer needs them: it
//! records traffic only while the picture is shown, which by default depends on the cluster's size.

use std::collections::VecDeque;

use crate::sim::{Action, Sim, SimEvent, SimEventKind};

/// Above this many brokers the picture shows one node per broker group.
pub const COLLAPSE_ABOVE: usize = 20;
/// Whether the picture shows one node per broker group: for a cluster of more than
/// [`COLLAPSE_ABOVE`] brokers, counting those the scenario starts later (a rolling start adds them
/// one by one: the picture should not change its kind halfway through).
pub fn collapsed(sim: &Sim) -> bool {
    let planned = sim.scenario().brokers.len()
        + sim
            .scenario()
            .actions
            .iter()
            .filter(|a| matches!(a.action, Action::AddBroker(_)))
            .count();
    sim.brokers().len().max(planned) > COLLAPSE_ABOVE
}

/// How many traffic records are kept for the pulses.
const TRAFFIC_KEPT: usize = 128;
/// What moved along an edge, for a pulse.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    /// Unique, so a pulse keeps its element (and its animation) across renders.
    pub seq: u64,
    pub t: u64,
    pub kind: &'static str,
    pub ok: bool,
    /// Node ids (`b:addr`, `n:name`, `p:group`).
    pub from: String,
    pub to: String,
}

/// Appends the traffic of `events` (heartbeats, polls, sends) to `ring`, keeping the newest.
pub fn record_traffic(ring: &mut VecDeque<Traffic>, seq: &mut u64, sim: &Sim, events: &[SimEvent]) {
    // Only the batch's last events can be among the newest kept: a frame of a big cluster at 60×
    // holds thousands (the rest are skipped unread).
    let traffic = |e: &&SimEvent| {
        matches!(
            e.kind,
            SimEventKind::BrokerRegistered { .. }
                | SimEventKind::RoutePolled { .. }
                | SimEventKind::Send { .. }
        )
    };
    let skip = events
        .iter()
        .filter(traffic)
        .count()
        .saturating_sub(TRAFFIC_KEPT);
    for e in events.iter().filter(traffic).skip(skip) {
        let (kind, ok, from, to) = match &e.kind {
            SimEventKind::BrokerRegistered {
                namesrv,
                broker_addr,
                ..
            } => (
                "heartbeat",
                true,
                format!("b:{broker_addr}"),
                format!("n:{namesrv}"),
            ),
            SimEventKind::RoutePolled {
                producer,
                namesrv,
                ok,
                ..
            } => ("poll", *ok, format!("p:{producer}"), format!("n:{namesrv}")),
            SimEventKind::Send {
                producer,
                broker_name: Some(name),
                ok,
                ..
            } => {
                let Some(master) = sim
                    .brokers()
                    .iter()
                    .find(|b| b.spec.name == name.as_str() && b.id() == 0)
                else {
                    continue;
                };
                (
                    "send",
                    *ok,
                    format!("p:{producer}"),
                    format!("b:{}", master.addr),
                )
            }
            _ => continue,
        };
        *seq += 1;
        ring.push_back(Traffic {
            seq: *seq,
            t: e.t,
            kind,
            ok,
            from,
            to,
        });
    }
    while ring.len() > TRAFFIC_KEPT {
        ring.pop_front();
    }
}
