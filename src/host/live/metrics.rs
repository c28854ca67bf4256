//! The live page server's `/metrics`: the counters live in [`Metrics`] (viewers, messages sent, the
//! history's numbers, what broker polls learnt, and each polled NameServer's polls when a bridge
//! polls some), and [`render`] turns a plain [`MetricsData`] into text with the shared writer
//! ([`crate::host::prometheus`]), so the families are tested without a server.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::host::prometheus::{self, sample};

/// Upper bounds (seconds) of the poll duration histogram: a healthy poll of a small cluster takes
/// a few milliseconds; seconds mean a slow NameServer or a big route round.
pub const POLL_BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// What is known about one NameServer's polls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NamesrvMetrics {
    /// Cumulative counts per bucket of [`POLL_BUCKETS`].
    pub poll_buckets: [u64; POLL_BUCKETS.len()],
    pub poll_count: u64,
    pub poll_sum_seconds: f64,
    pub poll_errors: u64,
    /// 1 when the last poll succeeded.
    pub up: bool,
    pub topics: u64,
    pub routes_fetched: u64,
    pub route_errors: u64,
}

impl NamesrvMetrics {
    /// Records one finished poll.
    pub fn observe_poll(&mut self, took: Duration, ok: bool) {
        let s = took.as_secs_f64();
        for (bound, count) in POLL_BUCKETS.iter().zip(self.poll_buckets.iter_mut()) {
            if s <= *bound {
                *count += 1;
            }
        }
        self.poll_count += 1;
        self.poll_sum_seconds += s;
        self.up = ok;
        if !ok {
            self.poll_errors += 1;
        }
    }
}

/// Everything `/metrics` shows, at one instant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MetricsData {
    pub namesrvs: BTreeMap<String, NamesrvMetrics>,
    pub viewers: u64,
    pub snapshots_sent: u64,
    pub updates_sent: u64,
    pub bytes_sent: u64,
    pub viewers_dropped_slow: u64,
    pub viewers_closed_bad_input: u64,
    pub viewers_refused_full: u64,
    pub seq: u64,
    /// The history's numbers, when one was asked for.
    pub history: Option<HistoryNumbers>,
    /// What the broker polls learnt, when brokers are polled.
    pub backlog: Option<crate::live::backlog::BacklogState>,
}

/// What `/metrics` says of the history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistoryNumbers {
    /// Writing (false: it could not be opened, or a write failed; the bridge goes on without it).
    pub recording: bool,
    pub written: u64,
    pub lost: u64,
}

/// The bridge's live counters, shared by pollers, the hub and viewer connections.
#[derive(Debug, Default)]
pub struct Metrics {
    namesrvs: Mutex<BTreeMap<String, NamesrvMetrics>>,
    pub snapshots_sent: AtomicU64,
    pub updates_sent: AtomicU64,
    pub bytes_sent: AtomicU64,
    pub viewers_dropped_slow: AtomicU64,
    pub viewers_closed_bad_input: AtomicU64,
    /// Upgrades refused because `--max-viewers` were connected.
    pub viewers_refused_full: AtomicU64,
    /// The history's counters, once it is opened ([`Metrics::watch_history`]).
    history: Mutex<Option<Arc<crate::host::history::writer::Counters>>>,
    /// The broker polls' last state (`None` until the first, and with `--no-brokers`).
    backlog: Mutex<Option<crate::live::backlog::BacklogState>>,
}

impl Metrics {
    /// Lists every NameServer from the start, so series exist (at zero) before the first poll.
    pub fn new(namesrvs: &[String]) -> Self {
        let m = Self::default();
        {
            let mut map = m.lock();
            for a in namesrvs {
                map.insert(a.clone(), NamesrvMetrics::default());
            }
        }
        m
    }

    /// Changes one NameServer's numbers.
    pub fn update_namesrv(&self, addr: &str, f: impl FnOnce(&mut NamesrvMetrics)) {
        f(self.lock().entry(addr.to_owned()).or_default());
    }

    /// Reports this history's counters from now on.
    pub fn watch_history(&self, counters: Arc<crate::host::history::writer::Counters>) {
        *self.history.lock().unwrap_or_else(|e| e.into_inner()) = Some(counters);
    }

    /// Replaces what the broker polls learnt.
    pub fn set_backlog(&self, state: crate::live::backlog::BacklogState) {
        *self.backlog.lock().unwrap_or_else(|e| e.into_inner()) = Some(state);
    }

    /// A copy of everything, with the values only the caller knows.
    pub fn data(&self, viewers: u64, seq: u64) -> MetricsData {
        MetricsData {
            namesrvs: self.lock().clone(),
            viewers,
            snapshots_sent: self.snapshots_sent.load(Ordering::Relaxed),
            updates_sent: self.updates_sent.load(Ordering::Relaxed),
            bytes_sent: self.bytes_sent.load(Ordering::Relaxed),
            viewers_dropped_slow: self.viewers_dropped_slow.load(Ordering::Relaxed),
            viewers_closed_bad_input: self.viewers_closed_bad_input.load(Ordering::Relaxed),
            viewers_refused_full: self.viewers_refused_full.load(Ordering::Relaxed),
            seq,
            history: self
                .history
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .map(|c| HistoryNumbers {
                    recording: !c.failed.load(Ordering::Relaxed),
                    written: c.written.load(Ordering::Relaxed),
                    lost: c.lost.load(Ordering::Relaxed),
                }),
            backlog: self
                .backlog
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, NamesrvMetrics>> {
        // A panic elsewhere while holding the lock leaves plain numbers behind: still usable.
        self.namesrvs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The metric families, in the order they are written.
const P: &str = "routelab_bridge_";

/// Renders the text format.
pub fn render(d: &MetricsData) -> String {
    let mut out = String::new();
    let ns = &d.namesrvs;
    let label = |addr: &str| vec![("namesrv", addr.to_owned())];

    // `routelab namesrv --ws` serves the live view of its own tables and polls nothing: families
    // about polls would only ever show zeros there, so they go with no NameServer to poll.
    if !ns.is_empty() {
        render_polls(&mut out, ns, label);
    }
    render_viewers(&mut out, d);
    if let Some(h) = d.history {
        render_history(&mut out, h);
    }
    if let Some(b) = &d.backlog {
        super::cluster_metrics::render_backlog(&mut out, b);
    }
    out
}

fn render_history(out: &mut String, h: HistoryNumbers) {
    single(
        out,
        "history_recording",
        "gauge",
        "1 while changes are recorded in the history; 0 when it could not be opened or written (see the log).",
        if h.recording { 1.0 } else { 0.0 },
    );
    single(
        out,
        "history_records_written_total",
        "counter",
        "Changes committed to the history.",
        h.written as f64,
    );
    single(
        out,
        "history_records_lost_total",
        "counter",
        "Changes not recorded: the disk fell behind or a write failed.",
        h.lost as f64,
    );
}

fn render_polls(
    out: &mut String,
    ns: &BTreeMap<String, NamesrvMetrics>,
    label: impl Fn(&str) -> Vec<(&'static str, String)>,
) {
    header(
        out,
        "poll_duration_seconds",
        "histogram",
        "Duration of polls of a NameServer (cluster info, topic list and a round of routes).",
    );
    for (addr, m) in ns {
        prometheus::histogram(
            out,
            &format!("{P}poll_duration_seconds"),
            &label(addr),
            &POLL_BUCKETS,
            &m.poll_buckets,
            m.poll_sum_seconds,
            m.poll_count,
        );
    }
    per_namesrv(
        out,
        ns,
        "poll_errors_total",
        "counter",
        "Polls of a NameServer that failed.",
        |m| m.poll_errors as f64,
    );
    per_namesrv(
        out,
        ns,
        "namesrv_up",
        "gauge",
        "1 when the last poll of a NameServer succeeded.",
        |m| f64::from(u8::from(m.up)),
    );
    per_namesrv(
        out,
        ns,
        "topics",
        "gauge",
        "Topics known on a NameServer (its topic list).",
        |m| m.topics as f64,
    );
    per_namesrv(
        out,
        ns,
        "routes_fetched_total",
        "counter",
        "Topic routes fetched from a NameServer.",
        |m| m.routes_fetched as f64,
    );
    per_namesrv(
        out,
        ns,
        "route_errors_total",
        "counter",
        "Topic route requests that failed.",
        |m| m.route_errors as f64,
    );
}

fn render_viewers(out: &mut String, d: &MetricsData) {
    single(
        out,
        "viewers",
        "gauge",
        "Dashboards connected to /ws.",
        d.viewers as f64,
    );
    header(
        out,
        "messages_sent_total",
        "counter",
        "Messages sent to viewers, by type.",
    );
    for (kind, v) in [("snapshot", d.snapshots_sent), ("update", d.updates_sent)] {
        sample(
            out,
            &format!("{P}messages_sent_total"),
            &[("type", kind.to_owned())],
            v as f64,
        );
    }
    single(
        out,
        "bytes_sent_total",
        "counter",
        "Bytes of messages sent to viewers.",
        d.bytes_sent as f64,
    );
    header(
        out,
        "viewers_closed_total",
        "counter",
        "Viewers disconnected by the bridge, by reason.",
    );
    for (reason, v) in [
        ("slow", d.viewers_dropped_slow),
        ("bad_input", d.viewers_closed_bad_input),
    ] {
        sample(
            out,
            &format!("{P}viewers_closed_total"),
            &[("reason", reason.to_owned())],
            v as f64,
        );
    }
    header(
        out,
        "viewers_refused_total",
        "counter",
        "WebSocket upgrades refused, by reason.",
    );
    sample(
        out,
        &format!("{P}viewers_refused_total"),
        &[("reason", "full".to_owned())],
        d.viewers_refused_full as f64,
    );
    single(
        out,
        "seq",
        "gauge",
        "Sequence number of the live state (the last update sent).",
        d.seq as f64,
    );
}

fn per_namesrv(
    out: &mut String,
    ns: &BTreeMap<String, NamesrvMetrics>,
    name: &str,
    kind: &str,
    help: &str,
    value: impl Fn(&NamesrvMetrics) -> f64,
) {
    header(out, name, kind, help);
    for (addr, m) in ns {
        sample(
            out,
            &format!("{P}{name}"),
            &[("namesrv", addr.clone())],
            value(m),
        );
    }
}

fn single(out: &mut String, name: &str, kind: &str, help: &str, value: f64) {
    let name = format!("{P}{name}");
    prometheus::family(out, &name, kind, help);
    sample(out, &name, &[], value);
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    prometheus::family(out, &format!("{P}{name}"), kind, help);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_escaped() {
        let text = render(&data());
        assert!(text.contains(r#"routelab_bridge_topics{namesrv="we\"ird\\\nname"} 0"#));
    }

    #[test]
    fn no_poll_families_without_a_namesrv_to_poll() {
        let text = render(&Metrics::new(&[]).data(2, 7));
        for family in [
            "poll_duration_seconds",
            "poll_errors_total",
            "namesrv_up",
            "topics ",
        ] {
            assert!(!text.contains(family), "{family}:\n{text}");
        }
        assert!(text.contains("routelab_bridge_viewers 2"), "{text}");
        assert!(text.contains("routelab_bridge_seq 7"), "{text}");
        // With one, they are there (at zero before its first poll).
        let text = render(&Metrics::new(&["127.0.0.1:9876".to_owned()]).data(0, 0));
        assert!(
            text.contains("routelab_bridge_poll_errors_total{namesrv=\"127.0.0.1:9876\"} 0"),
            "{text}"
        );
    }

    fn data() -> MetricsData {
        let mut m = NamesrvMetrics::default();
        m.observe_poll(Duration::from_millis(3), true);
        m.observe_poll(Duration::from_millis(300), false);
        m.topics = 5;
        m.routes_fetched = 7;
        let mut d = MetricsData {
            viewers: 2,
            snapshots_sent: 3,
            updates_sent: 4,
            ..MetricsData::default()
        };
        d.namesrvs.insert("127.0.0.1:9876".into(), m);
        d.namesrvs
            .insert("we\"ird\\\nname".into(), NamesrvMetrics::default());
        d
    }

    #[test]
    fn every_family_has_help_and_type_before_its_samples() {
        let text = render(&data());
        let mut declared = std::collections::HashSet::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let name = rest.split(' ').next().unwrap();
                assert!(declared.insert(name.to_owned()), "{name} declared twice");
            } else if !line.starts_with("# HELP ") {
                let name = line.split(['{', ' ']).next().unwrap();
                let family = ["_bucket", "_sum", "_count"]
                    .iter()
                    .find_map(|s| name.strip_suffix(s).filter(|f| declared.contains(*f)))
                    .unwrap_or(name);
                assert!(declared.contains(family), "sample before TYPE: {line}");
            }
        }
    }

    #[test]
    fn histogram_and_counters() {
        let text = render(&data());
        let ns = "namesrv=\"127.0.0.1:9876\"";
        for want in [
            format!("routelab_bridge_poll_duration_seconds_bucket{{{ns},le=\"0.005\"}} 1"),
            format!("routelab_bridge_poll_duration_seconds_bucket{{{ns},le=\"0.25\"}} 1"),
            format!("routelab_bridge_poll_duration_seconds_bucket{{{ns},le=\"0.5\"}} 2"),
            format!("routelab_bridge_poll_duration_seconds_bucket{{{ns},le=\"+Inf\"}} 2"),
            format!("routelab_bridge_poll_duration_seconds_count{{{ns}}} 2"),
            format!("routelab_bridge_poll_errors_total{{{ns}}} 1"),
            format!("routelab_bridge_namesrv_up{{{ns}}} 0"),
            format!("routelab_bridge_topics{{{ns}}} 5"),
            format!("routelab_bridge_routes_fetched_total{{{ns}}} 7"),
            "routelab_bridge_viewers 2".into(),
            "routelab_bridge_messages_sent_total{type=\"snapshot\"} 3".into(),
            "routelab_bridge_messages_sent_total{type=\"update\"} 4".into(),
            "# TYPE routelab_bridge_poll_duration_seconds histogram".into(),
        ] {
            assert!(text.lines().any(|l| l == want), "missing {want}\n{text}");
        }
        assert!(text.ends_with('\n'));
    }
}
