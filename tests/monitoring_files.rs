//! The Prometheus rules and the Grafana dashboard under monitoring/ name only metrics RouteLab
//! exports (the families `routelab bridge` and `routelab namesrv` render on /metrics), and the rules
//! cover every alert the bridge evaluates. `promtool check rules` / `promtool test rules` check the
//! rules' syntax and behaviour (scripts/check-monitoring, run by scripts/test).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use routelab::host::live::cluster_metrics::render_alerts;
use routelab::host::live::metrics::{render, HistoryNumbers, MetricsData, NamesrvMetrics};
use routelab::live::backlog::BacklogState;
use routelab::namesrv::BrokerLiveTable;
use routelab::server::metrics::ServerMetrics;

const RULES: &str = include_str!("../monitoring/prometheus/routelab-rules.yml");
const DASHBOARD: &str = include_str!("../monitoring/grafana/routelab-dashboard.json");
const EXPORTER_COMPAT: &str = include_str!("../monitoring/prometheus/exporter-compat.yml");

/// Every family on /metrics, with its type (from the `# TYPE` lines).
fn exported() -> BTreeMap<String, String> {
    let bridge = render(&MetricsData {
        namesrvs: [("127.0.0.1:9876".to_owned(), NamesrvMetrics::default())].into(),
        history: Some(HistoryNumbers::default()),
        backlog: Some(BacklogState::default()),
        ..MetricsData::default()
    });
    let server = ServerMetrics::default();
    server.observe(105, Duration::from_micros(100));
    let cache = routelab::server::register_cache::CacheBudget::new(1 << 20);
    let namesrv = server.render(&BrokerLiveTable::default(), 0, &cache);
    let text = format!("{bridge}{}{namesrv}", render_alerts(&[]));
    text.lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split_once(' '))
        .map(|(name, kind)| (name.to_owned(), kind.to_owned()))
        .collect()
}

/// The `routelab_…` metric names a file mentions.
fn mentioned(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("routelab_") {
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        // `routelab_bridge_*` in a comment names a prefix, not a metric.
        if !tail[..end].ends_with('_') {
            out.insert(tail[..end].to_owned());
        }
        rest = &tail[end..];
    }
    out
}

/// A name is exported when it is a family, or a histogram's `_bucket`, `_sum` or `_count`.
fn is_exported(name: &str, families: &BTreeMap<String, String>) -> bool {
    families.contains_key(name)
        || ["_bucket", "_sum", "_count"].iter().any(|s| {
            name.strip_suffix(s)
                .is_some_and(|f| families.get(f).is_some_and(|k| k == "histogram"))
        })
}

#[test]
fn rules_and_dashboard_name_only_exported_metrics() {
    let families = exported();
    assert!(families.len() > 15, "{families:?}");
    for (file, text) in [
        ("rules", RULES),
        ("dashboard", DASHBOARD),
        ("exporter-compat rules", EXPORTER_COMPAT),
    ] {
        let names = mentioned(text);
        assert!(!names.is_empty(), "{file} names no metric");
        let unknown: Vec<&String> = names
            .iter()
            .filter(|n| !is_exported(n, &families))
            .collect();
        assert!(
            unknown.is_empty(),
            "the {file} names metrics RouteLab does not export: {unknown:?}"
        );
    }
    // What the dashboard is for: heartbeat age per broker, NameServer latency, the routes' state,
    // backlog per group.
    let dash = mentioned(DASHBOARD);
    for needed in [
        "routelab_namesrv_broker_heartbeat_age_seconds",
        "routelab_namesrv_request_duration_seconds_bucket",
        "routelab_bridge_namesrv_up",
        "routelab_alert_active",
        "routelab_backlog",
        "routelab_consumers_online",
        "routelab_backlog_age_seconds",
    ] {
        assert!(dash.contains(needed), "the dashboard lacks {needed}");
    }
}

#[test]
fn the_dashboard_is_grafana_json_with_a_prometheus_datasource() {
    let d: serde_json::Value = serde_json::from_str(DASHBOARD).expect("valid JSON");
    let panels = d["panels"].as_array().expect("panels");
    assert!(panels.len() >= 6);
    for p in panels {
        let targets = p["targets"].as_array().expect("targets");
        assert!(!targets.is_empty(), "{}", p["title"]);
        for t in targets {
            assert!(
                t["expr"].as_str().is_some_and(|e| e.contains("routelab_")),
                "{t}"
            );
            assert_eq!(t["datasource"]["uid"], "${datasource}");
        }
    }
    assert_eq!(d["templating"]["list"][0]["query"], "prometheus");
}

/// Every rule the bridge evaluates (its alert families' help lists them) has its Prometheus alert.
#[test]
fn every_bridge_alert_has_a_rule() {
    let help = render_alerts(&[]);
    let list = help
        .split("(rules: ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .expect("the rules in the help line");
    let rules: Vec<&str> = list.split(", ").collect();
    assert_eq!(rules.len(), 13, "{rules:?}");
    for rule in rules {
        assert!(
            RULES.contains(&format!("routelab_alert_active{{rule=\"{rule}\"}} == 1")),
            "no Prometheus alert for the bridge's {rule}"
        );
    }
}
