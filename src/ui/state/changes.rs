//! Which table rows an event changed, for the highlight and for skipping renders of unchanged tables.

use crate::sim::{SimEvent, SimEventKind};

/// Whether an event may change a table row the dashboard shows, beyond brokerLiveTable's timestamps
/// (which change with every heartbeat and are re-rendered on every frame anyway).
pub(super) fn touches_tables(k: &SimEventKind) -> bool {
    !(k.is_heartbeat()
        || matches!(
            k,
            SimEventKind::RoutePolled { .. }
                | SimEventKind::RouteQuery { .. }
                | SimEventKind::Send { .. }
        ))
}

pub(super) fn changed_keys(e: &SimEvent) -> Vec<String> {
    match &e.kind {
        SimEventKind::TopicChanged {
            namesrv,
            topic,
            broker_name,
            ..
        } => vec![format!("{namesrv}/{topic}/{broker_name}")],
        SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr,
            ..
        } if !e.kind.is_heartbeat() => vec![format!("{namesrv}/{broker_addr}")],
        SimEventKind::PermChanged {
            namesrv,
            broker_name,
            topics,
            ..
        } => topics
            .iter()
            .map(|t| format!("{namesrv}/{t}/{broker_name}"))
            .collect(),
        _ => Vec::new(),
    }
}
