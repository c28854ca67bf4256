//! The NameServer's Prometheus metrics (on `--ws`'s `/metrics`, after the live view's own): route
//! changes, each broker's heartbeat age and timeout, request latency by request code, connections.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::bridge::metrics::escape_label;
use crate::namesrv::BrokerLiveTable;
use crate::remoting::RequestCode;

/// Latency bucket bounds, seconds.
const BUCKETS: [f64; 10] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.05, 0.25,
];

#[derive(Debug, Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// Counters updated by the connections; rendered on demand.
#[derive(Debug, Default)]
pub struct ServerMetrics {
    latency: Mutex<BTreeMap<i32, Histogram>>,
    /// Events the route manager reported.
    pub route_changes: AtomicU64,
    /// Connections open now.
    pub connections_open: AtomicU64,
    /// Connections accepted since start.
    pub connections_total: AtomicU64,
    /// Connections closed for bad input (malformed frames).
    pub connections_bad_input: AtomicU64,
    /// Connections closed for idleness.
    pub connections_idle_closed: AtomicU64,
    /// Connections closed on accept because `--max-connections` were open.
    pub connections_refused: AtomicU64,
}

impl ServerMetrics {
    /// Records one request's handling time.
    pub fn observe(&self, code: i32, took: Duration) {
        let secs = took.as_secs_f64();
        let mut map = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        let h = map.entry(code).or_default();
        h.count += 1;
        h.sum += secs;
        for (slot, bound) in h.counts.iter_mut().zip(BUCKETS) {
            if secs <= bound {
                *slot += 1;
            }
        }
    }

    /// The text format; `live` and `now_ms` give the heartbeat ages.
    pub fn render(&self, live: &BrokerLiveTable, now_ms: u64) -> String {
        let mut out = String::new();
        let p = "routelab_namesrv_";
        let counter = |out: &mut String, name: &str, help: &str, v: u64, kind: &str| {
            let _ = writeln!(
                out,
                "# HELP {p}{name} {help}\n# TYPE {p}{name} {kind}\n{p}{name} {v}"
            );
        };
        counter(
            &mut out,
            "route_changes_total",
            "Changes of the route tables (domain events).",
            self.route_changes.load(Ordering::Relaxed),
            "counter",
        );
        counter(
            &mut out,
            "connections_open",
            "Connections open now.",
            self.connections_open.load(Ordering::Relaxed),
            "gauge",
        );
        counter(
            &mut out,
            "connections_total",
            "Connections accepted since start.",
            self.connections_total.load(Ordering::Relaxed),
            "counter",
        );
        counter(
            &mut out,
            "connections_bad_input_total",
            "Connections closed because of a malformed frame.",
            self.connections_bad_input.load(Ordering::Relaxed),
            "counter",
        );
        counter(
            &mut out,
            "connections_idle_closed_total",
            "Connections closed for idleness.",
            self.connections_idle_closed.load(Ordering::Relaxed),
            "counter",
        );
        counter(
            &mut out,
            "connections_refused_total",
            "Connections closed on accept because --max-connections were open.",
            self.connections_refused.load(Ordering::Relaxed),
            "counter",
        );
        let _ = writeln!(out, "# HELP {p}broker_heartbeat_age_seconds Time since each live broker's last registration or heartbeat.\n# TYPE {p}broker_heartbeat_age_seconds gauge");
        let mut timeouts = String::new();
        for (key, info) in live.iter() {
            let labels = format!(
                "cluster=\"{}\",broker_addr=\"{}\"",
                escape_label(key.cluster_name.as_str()),
                escape_label(key.broker_addr.as_str())
            );
            let age = now_ms.saturating_sub(info.last_update_timestamp) as f64 / 1000.0;
            let _ = writeln!(out, "{p}broker_heartbeat_age_seconds{{{labels}}} {age}");
            let _ = writeln!(
                timeouts,
                "{p}broker_heartbeat_timeout_seconds{{{labels}}} {}",
                info.heartbeat_timeout_millis as f64 / 1000.0
            );
        }
        let _ = writeln!(out, "# HELP {p}broker_heartbeat_timeout_seconds The expiry that applies to each live broker.\n# TYPE {p}broker_heartbeat_timeout_seconds gauge");
        out.push_str(&timeouts);
        let _ = writeln!(out, "# HELP {p}request_duration_seconds Time to handle a request (lock wait included), by request code.\n# TYPE {p}request_duration_seconds histogram");
        let map = self
            .latency
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for (code, h) in &map {
            let name = RequestCode::name(*code).unwrap_or("UNKNOWN");
            let labels = format!("code=\"{code}\",name=\"{name}\"");
            for (bound, n) in BUCKETS.iter().zip(h.counts) {
                let _ = writeln!(
                    out,
                    "{p}request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {n}"
                );
            }
            let _ = writeln!(
                out,
                "{p}request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(out, "{p}request_duration_seconds_sum{{{labels}}} {}", h.sum);
            let _ = writeln!(
                out,
                "{p}request_duration_seconds_count{{{labels}}} {}",
                h.count
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative() {
        let m = ServerMetrics::default();
        m.observe(105, Duration::from_micros(80));
        m.observe(105, Duration::from_millis(3));
        let text = m.render(&BrokerLiveTable::default(), 0);
        assert!(text.contains(r#"request_duration_seconds_bucket{code="105",name="GET_ROUTEINFO_BY_TOPIC",le="0.0001"} 1"#), "{text}");
        assert!(text.contains(r#"request_duration_seconds_bucket{code="105",name="GET_ROUTEINFO_BY_TOPIC",le="0.005"} 2"#), "{text}");
        assert!(text.contains(
            r#"request_duration_seconds_count{code="105",name="GET_ROUTEINFO_BY_TOPIC"} 2"#
        ));
    }
}
