//! The bridge's history on a 10,000-topic cluster: `cargo bench --bench history`.
//!
//! - What recording adds to a poll: the hub's publication of a 10,000-topic view (what runs after
//!   every poll) with the history and alerts on and off, an idle poll and a poll with one route
//!   changed.
//! - A day of that cluster with one route change a minute, recorded as the bridge records it (the
//!   same recorder, checkpoints and store): the file's size.
//! - Reading it: `routelab history --since 1h` (the binary, wall time), and the cluster rebuilt as of
//!   random moments of the day (what `/history/at` does for the live page's timeline).
//!
//! `-- --json FILE` also writes the figures for `scripts/bench`. Tests never assert on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    history::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod history {
    use std::path::Path;
    use std::sync::Arc;
    use std::time::Instant;

    use routelab::host::history::{Checkpoints, HistoryConfig, Store};
    use routelab::host::live::Hub;
    use routelab::host::live::Metrics;
    use routelab::live::alerts::AlertConfig;
    use routelab::live::history::Recorder;
    use routelab::live::{NamesrvStatus, NamesrvView, RouteEntry, Source, SourceKind};
    use routelab::model::{BrokerData, QueueData, TopicRouteData};
    use serde_json::json;

    const TOPICS: usize = 10_000;
    const NS: &str = "127.0.0.1:9876";
    const DAY_MS: u64 = 24 * 3_600_000;

    fn route(brokers: usize, write_queues: i32) -> TopicRouteData {
        let mut r = TopicRouteData::default();
        for b in 0..brokers {
            let name = format!("broker-{b}");
            let mut bd = BrokerData::new("DefaultCluster".into(), name.as_str().into());
            bd.broker_addrs
                .insert(0, format!("10.0.0.{b}:10911").into());
            r.broker_datas.push(bd);
            r.queue_datas.push(
                serde_json::from_value::<QueueData>(json!({
                    "brokerName": name, "readQueueNums": 8, "writeQueueNums": write_queues,
                    "perm": 6, "topicSysFlag": 0
                }))
                .unwrap(),
            );
        }
        r
    }

    /// 4 brokers × 10,000 topics, as polled at `at`.
    fn cluster(at: u64) -> NamesrvView {
        let mut v = NamesrvView::new(NS);
        v.status = NamesrvStatus::Ok;
        v.fetched_at_ms = Some(at);
        v.last_attempt_ms = Some(at);
        let r = route(4, 8);
        for bd in &r.broker_datas {
            v.cluster
                .broker_addr_table
                .insert(bd.broker_name.clone(), bd.clone());
        }
        for i in 0..TOPICS {
            let t = format!("RefreshTopic-{i:05}");
            v.topics.insert(t.clone());
            v.routes.insert(
                t,
                RouteEntry {
                    fetched_at_ms: at,
                    route: Some(r.clone()),
                    error: None,
                },
            );
        }
        v
    }

    /// The view polled at `at` with topic `i`'s route given `write_queues`.
    fn changed(base: &NamesrvView, at: u64, i: usize, write_queues: i32) -> NamesrvView {
        let mut v = base.clone();
        v.fetched_at_ms = Some(at);
        v.last_attempt_ms = Some(at);
        for e in v.routes.values_mut() {
            e.fetched_at_ms = at;
        }
        let entry = v.routes.get_mut(&format!("RefreshTopic-{i:05}")).unwrap();
        entry.route = Some(route(4, write_queues));
        v
    }

    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }

    fn percentile_95(v: &[f64]) -> f64 {
        let mut sorted = v.to_vec();
        sorted.sort_by(f64::total_cmp);
        sorted[(sorted.len() * 95).div_ceil(100) - 1]
    }

    fn hub(history: Option<&Path>) -> (Hub, routelab::host::history::Opened) {
        let opened = routelab::host::history::open(
            &HistoryConfig {
                path: history.map(Path::to_path_buf),
                ..HistoryConfig::default()
            },
            routelab::host::clock::now_ms,
        );
        let source = Source {
            kind: SourceKind::Bridge,
            version: routelab::VERSION.into(),
            interval_ms: 2_000,
            read_only: true,
            commands: false,
        };
        let ns = [NS.to_owned()];
        let mut hub = Hub::new(&ns, source, 64, Arc::new(Metrics::new(&ns)));
        if history.is_some() {
            hub = hub
                .with_history(opened.sink())
                .with_alerts(AlertConfig::default(), None);
        }
        (hub, opened)
    }

    /// Median publication time (ms) of idle polls and of polls with one route changed.
    fn publish_costs(history: Option<&Path>) -> (f64, f64) {
        let (hub, opened) = hub(history);
        let mut last = cluster(1_000);
        hub.publish(last.clone());
        let (mut idle, mut change) = (Vec::new(), Vec::new());
        for poll in 1..=40u64 {
            let at = 1_000 + poll * 2_000;
            // Every other poll changes one route; the others fetch the same again.
            let next = if poll % 2 == 0 {
                changed(&last, at, poll as usize, 4 + (poll % 4) as i32)
            } else {
                let mut v = last.clone();
                v.fetched_at_ms = Some(at);
                v.last_attempt_ms = Some(at);
                for e in v.routes.values_mut() {
                    e.fetched_at_ms = at;
                }
                v
            };
            last = next.clone();
            let start = Instant::now();
            hub.publish(next);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            if poll % 2 == 0 {
                change.push(ms)
            } else {
                idle.push(ms)
            }
        }
        if let routelab::host::history::Opened::Recording { writer, .. } = opened {
            writer.finish();
        }
        (median(idle), median(change))
    }

    /// A day of the cluster, one route change a minute, ending now, recorded as the bridge does.
    fn record_a_day(path: &Path) -> (usize, NamesrvView) {
        let mut store = Store::open_for_writing(path).unwrap();
        let mut recorder = Recorder::new();
        let end = routelab::host::clock::now_ms();
        let start = end - DAY_MS;
        let mut prev = NamesrvView::new(NS);
        let mut view = cluster(start);
        let mut records = 0;
        for minute in 0..=1_440u64 {
            let at = start + minute * 60_000;
            if minute > 0 {
                view = changed(
                    &view,
                    at,
                    (minute as usize * 7) % TOPICS,
                    1 + (minute % 8) as i32,
                );
            }
            let all = [view.clone()];
            let r = recorder.observe(&prev, &view, &all, at);
            let own = r.iter().any(|r| r.namesrv.is_some());
            records += r.len();
            store.append(&r).unwrap();
            if recorder.wants_checkpoint(&view, own, at) {
                store.checkpoint(at, &view).unwrap();
            }
            prev = view.clone();
        }
        (records, view)
    }

    fn file_bytes(path: &Path) -> u64 {
        // The WAL is folded into the file when the last connection closes.
        ["", "-wal", "-shm"]
            .iter()
            .filter_map(|s| std::fs::metadata(format!("{}{s}", path.display())).ok())
            .map(|m| m.len())
            .sum()
    }

    pub fn main() {
        let dir =
            std::env::temp_dir().join(format!("routelab-bench-history-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();

        let (idle_off, change_off) = publish_costs(None);
        let (idle_on, change_on) = publish_costs(Some(&dir.join("publish.sqlite3")));
        println!("publication of a {TOPICS}-topic view after a poll (median, ms):");
        println!(
            "  history and alerts off: idle poll {idle_off:.2}, one route changed {change_off:.2}"
        );
        println!(
            "  history and alerts on:  idle poll {idle_on:.2}, one route changed {change_on:.2}"
        );

        let day = dir.join("day.sqlite3");
        let started = Instant::now();
        let (records, live) = record_a_day(&day);
        let bytes = file_bytes(&day);
        println!(
            "a day, one route change a minute: {records} records, {:.1} MB on disk (written in {:.1} s)",
            bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        );

        let exe = env!("CARGO_BIN_EXE_routelab");
        let mut cli = Vec::new();
        let mut lines = 0;
        for _ in 0..10 {
            let start = Instant::now();
            let out = std::process::Command::new(exe)
                .args(["history", "--db", day.to_str().unwrap(), "--since", "1h"])
                .output()
                .unwrap();
            cli.push(start.elapsed().as_secs_f64() * 1e3);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            lines = out.stdout.iter().filter(|b| **b == b'\n').count();
        }
        let cli = median(cli);
        println!("routelab history --since 1h: {lines} lines in {cli:.1} ms (median of 10, the whole process)");

        let store = Store::open_for_reading(&day).unwrap();
        let newest = store.newest_ms().unwrap().unwrap();
        // Random moments of the day, the same ones on every run.
        let mut seed = 7u64;
        let mut moment = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            newest - (seed >> 33) % DAY_MS
        };
        let mut at = Vec::new();
        for _ in 0..20 {
            let t = moment();
            let start = Instant::now();
            let past = store
                .at(&[NS.to_owned()], t, &Checkpoints::default())
                .unwrap();
            at.push(start.elapsed().as_secs_f64() * 1e3);
            assert_eq!(past.namesrvs[0].routes.len(), TOPICS);
        }
        let p95 = percentile_95(&at);
        println!(
            "the cluster as of a random moment of the day (/history/at): median {:.1} ms, p95 {p95:.1} ms",
            median(at)
        );

        // As the live page asks (`from=live`): the checkpoints kept between moments, the answer the
        // changes from the live view, written as JSON.
        let kept = Checkpoints::default();
        let live = [live];
        let mut from_live = Vec::new();
        let mut largest = 0;
        for _ in 0..20 {
            let t = moment();
            let start = Instant::now();
            let mut past = store.at(&[NS.to_owned()], t, &kept).unwrap();
            past.from_live = Some(routelab::live::replay::from_live(1, &live, &past.namesrvs));
            past.namesrvs.clear();
            let json = serde_json::to_string(&past).unwrap();
            from_live.push(start.elapsed().as_secs_f64() * 1e3);
            largest = largest.max(json.len());
        }
        let p95_live = percentile_95(&from_live);
        println!(
            "the same as changes from the live view, checkpoints kept (/history/at?…&from=live): median {:.1} ms, p95 {p95_live:.1} ms, at most {:.0} KB",
            median(from_live.clone()),
            largest as f64 / 1e3
        );
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);

        let args: Vec<String> = std::env::args().collect();
        if let Some(path) = args
            .iter()
            .position(|a| a == "--json")
            .and_then(|i| args.get(i + 1))
        {
            let figures = json!({
                "topics": TOPICS,
                "publish_idle_ms": { "off": idle_off, "on": idle_on },
                "publish_change_ms": { "off": change_off, "on": change_on },
                "day_records": records,
                "day_bytes": bytes,
                "history_since_1h_ms": cli,
                "at_p95_ms": p95,
                "at_from_live_p95_ms": p95_live,
            });
            std::fs::write(path, serde_json::to_string_pretty(&figures).unwrap()).unwrap();
        }
    }
}
