//! What the simulator's failover test files share: a run's events of one kind, as JSON.
#![allow(dead_code)]

use routelab::sim::SimEvent;
use serde_json::Value;

/// The events of `kind` (their `kind` field), each as its JSON object.
pub fn of_kind(events: &[SimEvent], kind: &str) -> Vec<Value> {
    events
        .iter()
        .map(|e| serde_json::to_value(e).unwrap_or(Value::Null))
        .filter(|e| e["kind"] == kind)
        .collect()
}
