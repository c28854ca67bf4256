//! The NameServer's Prometheus metrics (on `--ws`'s `/metrics`, after the live view's own): route
//! changes, each broker's heartbeat age and timeout, request latency by request code, connections.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::host::prometheus;
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

    /// The text format; `live` and `now_ms` give the heartbeat ages, `cache` what the kept register
    /// bodies take.
    pub fn render(
        &self,
        live: &BrokerLiveTable,
        now_ms: u64,
        cache: &crate::server::register_cache::CacheBudget,
    ) -> String {
        let mut out = String::new();
        let p = "routelab_namesrv_";
        let single = |out: &mut String, name: &str, help: &str, v: &AtomicU64, kind: &str| {
            let name = format!("{p}{name}");
            prometheus::family(out, &name, kind, help);
            prometheus::sample(out, &name, &[], v.load(Ordering::Relaxed) as f64);
        };
        single(
            &mut out,
            "route_changes_total",
            "Changes of the route tables (domain events).",
            &self.route_changes,
            "counter",
        );
        single(
            &mut out,
            "connections_open",
            "Connections open now.",
            &self.connections_open,
            "gauge",
        );
        single(
            &mut out,
            "connections_total",
            "Connections accepted since start.",
            &self.connections_total,
            "counter",
        );
        single(
            &mut out,
            "connections_bad_input_total",
            "Connections closed because of a malformed frame.",
            &self.connections_bad_input,
            "counter",
        );
        single(
            &mut out,
            "connections_idle_closed_total",
            "Connections closed for idleness.",
            &self.connections_idle_closed,
            "counter",
        );
        single(
            &mut out,
            "connections_refused_total",
            "Connections closed on accept because --max-connections were open.",
            &self.connections_refused,
            "counter",
        );
        for (name, kind, help, v) in [
            (
                "register_cache_bytes",
                "gauge",
                "Memory the connections' kept register bodies take (about).",
                cache.used() as f64,
            ),
            (
                "register_cache_limit_bytes",
                "gauge",
                "What they may take together (--register-cache-mb).",
                cache.limit() as f64,
            ),
            (
                "register_cache_refused_total",
                "counter",
                "Register bodies not kept because the budget was full: those brokers' bodies are read in full each time (raise --register-cache-mb).",
                cache.refused() as f64,
            ),
        ] {
            let name = format!("{p}{name}");
            prometheus::family(&mut out, &name, kind, help);
            prometheus::sample(&mut out, &name, &[], v);
        }
        let broker = |key: &crate::namesrv::BrokerAddrInfo| {
            vec![
                ("cluster", key.cluster_name.as_str().to_owned()),
                ("broker_addr", key.broker_addr.as_str().to_owned()),
            ]
        };
        let age = format!("{p}broker_heartbeat_age_seconds");
        prometheus::family(
            &mut out,
            &age,
            "gauge",
            "Time since each live broker's last registration or heartbeat.",
        );
        for (key, info) in live.iter() {
            let secs = now_ms.saturating_sub(info.last_update_timestamp) as f64 / 1000.0;
            prometheus::sample(&mut out, &age, &broker(key), secs);
        }
        let timeout = format!("{p}broker_heartbeat_timeout_seconds");
        prometheus::family(
            &mut out,
            &timeout,
            "gauge",
            "The expiry that applies to each live broker.",
        );
        for (key, info) in live.iter() {
            let secs = info.heartbeat_timeout_millis as f64 / 1000.0;
            prometheus::sample(&mut out, &timeout, &broker(key), secs);
        }
        let duration = format!("{p}request_duration_seconds");
        prometheus::family(
            &mut out,
            &duration,
            "histogram",
            "Time to handle a request (lock wait included), by request code.",
        );
        let map = self
            .latency
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for (code, h) in &map {
            let name = RequestCode::name(*code).unwrap_or("UNKNOWN");
            let labels = [("code", code.to_string()), ("name", name.to_owned())];
            prometheus::histogram(
                &mut out, &duration, &labels, &BUCKETS, &h.counts, h.sum, h.count,
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
        let cache = crate::server::register_cache::CacheBudget::new(1 << 20);
        let text = m.render(&BrokerLiveTable::default(), 0, &cache);
        assert!(
            text.contains("routelab_namesrv_register_cache_limit_bytes 1048576"),
            "{text}"
        );
        assert!(text.contains(r#"request_duration_seconds_bucket{code="105",name="GET_ROUTEINFO_BY_TOPIC",le="0.0001"} 1"#), "{text}");
        assert!(text.contains(r#"request_duration_seconds_bucket{code="105",name="GET_ROUTEINFO_BY_TOPIC",le="0.005"} 2"#), "{text}");
        assert!(text.contains(
            r#"request_duration_seconds_count{code="105",name="GET_ROUTEINFO_BY_TOPIC"} 2"#
        ));
    }
}
