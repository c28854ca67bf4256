//! The bridge against a real NameServer with a big cluster: `cargo bench --bench bridge_refresh`.
//!
//! rocketmq-rust's NameServer (tests/support/peer.rs; skipped with a note when not installed) and
//! ours (in-process) each get 4 brokers × 10,000 topics. A bridge polls with a route budget that
//! covers every topic, so each poll after the first refreshes the whole cluster; a WebSocket viewer
//! reads the snapshot and the updates. Printed: the median full-refresh time (the bridge's own
//! `poll_duration_ms` over several polls) and the size of an idle update against the snapshot.
//! `-- --json FILE` also writes the figures for `scripts/bench`. Tests never assert on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// Natively, `routelab` runs on mimalloc (src/bin/routelab.rs): measured with the allocator it ships with.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/peer.rs"]
mod peer;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/bridge.rs"]
mod bridge;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/ours.rs"]
mod ours;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    refresh::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod refresh {
    use super::{bridge, ours, peer};

    use std::time::Duration;

    use routelab::model::TopicConfig;
    use routelab::namesrv::Profile;
    use serde_json::json;

    const TOPICS: usize = 10_000;
    const BROKERS: usize = 4;
    /// Full polls measured after the first one.
    const POLLS: usize = 5;

    fn topics() -> Vec<TopicConfig> {
        (0..TOPICS)
            .map(|i| TopicConfig::new(&format!("RefreshTopic-{i:05}"), 8, 8, 6))
            .collect()
    }

    pub fn main() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let mut rows = Vec::new();
        println!(
            "{:<24} {:>18} {:>18} {:>14} {:>12} {:>8}",
            "NameServer",
            "full refresh p50",
            "full refresh max",
            "snapshot",
            "idle update",
            "ratio"
        );
        if peer::peer_bin().is_file() {
            let mut p = peer::Peer::start();
            let row = runtime.block_on(measure("rocketmq-rust namesrv", p.addr()));
            p.kill();
            rows.push(row);
        } else {
            println!(
                "(rocketmq-rust's NameServer is not installed: scripts/setup --peer installs it)"
            );
        }
        let row = runtime.block_on(async {
            let o = ours::Ours::start(Profile::V5, |_| {}).await;
            let row = measure("routelab namesrv (5.x)", o.addr()).await;
            drop(o);
            row
        });
        rows.push(row);
        let args: Vec<String> = std::env::args().collect();
        if let Some(path) = args
            .iter()
            .position(|a| a == "--json")
            .and_then(|i| args.get(i + 1))
        {
            let text = serde_json::to_string_pretty(&rows).unwrap_or_default();
            std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        }
    }

    async fn measure(server: &str, addr: String) -> serde_json::Value {
        let mut brokers = Vec::new();
        for b in 0..BROKERS {
            brokers.push(
                peer::register_broker(
                    &addr,
                    "DefaultCluster",
                    &format!("broker-{b}"),
                    0,
                    &format!("127.0.0.1:{}", 20911 + 10 * b),
                    topics(),
                )
                .await,
            );
        }
        let dist = peer::ScratchDir::new("refresh-dist");
        let mut config = bridge::config(std::slice::from_ref(&addr), dist.path());
        config.interval = Duration::from_secs(1);
        config.routes_per_poll = TOPICS + 100;
        let concurrency = config.route_concurrency;
        let handle = bridge::start(config).await;
        let mut viewer = bridge::connect(&handle).await;
        // System topics come on top of ours: wait for every topic the NameServer listed.
        viewer
            .wait_until("every route fetched", |s| {
                s.namesrvs
                    .first()
                    .is_some_and(|n| n.topics.len() >= TOPICS && n.routes.len() >= n.topics.len())
            })
            .await;
        let mut durations = Vec::new();
        let mut idle = Vec::new();
        let mut last = viewer.state.namesrvs[0].last_attempt_ms;
        while durations.len() < POLLS {
            let before = viewer.texts.len();
            viewer.next().await;
            idle.extend(viewer.texts[before..].iter().map(String::len));
            let ns = &viewer.state.namesrvs[0];
            if ns.last_attempt_ms != last {
                last = ns.last_attempt_ms;
                if let Some(ms) = ns.poll_duration_ms {
                    durations.push(ms);
                }
            }
        }
        durations.sort_unstable();
        idle.sort_unstable();
        // The snapshot a viewer gets on connecting to the full state.
        let mut fresh = bridge::connect(&handle).await;
        fresh.next().await;
        let snapshot = fresh.texts[0].len();
        let idle_median = idle[idle.len() / 2];
        let p50 = durations[durations.len() / 2];
        let max = durations[durations.len() - 1];
        let ratio = idle_median as f64 / snapshot as f64 * 100.0;
        println!(
            "{server:<24} {:>15} ms {:>15} ms {:>11} kB {:>10} B {:>7.3}%",
            p50,
            max,
            snapshot / 1000,
            idle_median,
            ratio
        );
        handle.shutdown().await;
        drop(brokers);
        json!({
            "server": server,
            "topics": TOPICS,
            "brokers": BROKERS,
            "route_concurrency": concurrency,
            "refresh_p50_ms": p50,
            "refresh_max_ms": max,
            "snapshot_bytes": snapshot,
            "idle_update_bytes": idle_median,
            "idle_ratio_pct": ratio,
        })
    }
}
