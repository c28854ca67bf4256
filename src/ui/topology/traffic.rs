//! What moved along the picture's edges (heartbeats, route polls, sends), kept for its pulses.

use std::collections::VecDeque;

use crate::sim::{Sim, SimEvent, SimEventKind};

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
                    .find(|b| b.spec.name == name.as_str() && b.spec.id == 0)
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
