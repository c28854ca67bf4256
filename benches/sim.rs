//! Simulator throughput: `cargo bench --bench sim` prints simulated sends per second of wall time
//! (the median of several runs). A "send" is one attempt of a producer that reached a broker (the
//! sum of every producer's `picks`). Figures are recorded in BENCHMARKS.md; tests never assert on
//! time.
//!
//! The world: one or two NameServers, 4 brokers with 8 write queues of the topic each, 10 producers
//! at rate 1000 (the scenario maximum). A producer sends synchronously, so its real rate is bounded
//! by the simulated latency (1–10 ms per attempt). Events are drained every virtual second and
//! dropped, as a long-running caller would.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// Natively, `routelab` runs on mimalloc (src/bin/routelab.rs): measured with the allocator it ships with.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::time::Instant;

use routelab::sim::Sim;

/// The scenario: `producers` producers at rate 1000, fault tolerance as given, client tables from the
/// profile, optional extra actions (JSON fragments).
fn scenario(profile: &str, fault_tolerance: bool, actions: &str, until: u64) -> String {
    let brokers: Vec<String> = (1..=4)
        .map(|i| {
            format!(
                r#"{{"name": "broker-{i}", "addr": "10.0.0.{i}:10911",
                    "topics": [{{"topic": "BenchTopic", "read": 8, "write": 8}}]}}"#
            )
        })
        .collect();
    let producers: Vec<String> = (1..=10)
        .map(|i| {
            format!(
                r#"{{"group": "pg-{i}", "topic": "BenchTopic", "rate": 1000,
                    "fault_tolerance": {fault_tolerance}}}"#
            )
        })
        .collect();
    format!(
        r#"{{"routelab": 1, "profile": "{profile}", "seed": 1, "namesrvs": ["ns-1", "ns-2"],
            "brokers": [{}], "producers": [{}], "actions": [{actions}], "until": {until}}}"#,
        brokers.join(","),
        producers.join(",")
    )
}

/// One run: builds the world, runs `secs` virtual seconds draining events each second. Returns
/// (attempts, events, wall seconds).
fn run_once(json: &str, secs: u64) -> (u64, u64, f64) {
    let start = Instant::now();
    let mut sim = Sim::from_json(json).expect("valid bench scenario");
    let mut events = 0u64;
    for s in 1..=secs {
        sim.advance_to(s * 1000);
        events += black_box(sim.drain_events()).len() as u64;
    }
    let wall = start.elapsed().as_secs_f64();
    let attempts = sim
        .producers()
        .iter()
        .map(|p| p.stats.picks.values().sum::<u64>())
        .sum();
    (attempts, events, wall)
}

/// Returns the median rate in sends per second.
fn measure(name: &str, json: &str, secs: u64, runs: usize) -> f64 {
    let _ = run_once(json, secs.min(5)); // warm-up
    let mut results: Vec<(f64, u64, u64, f64)> = (0..runs)
        .map(|_| {
            let (attempts, events, wall) = run_once(json, secs);
            (attempts as f64 / wall, attempts, events, wall)
        })
        .collect();
    results.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (rate, attempts, events, wall) = results[runs / 2];
    println!(
        "{name:<52} {:>8.3} M sends/s  ({attempts} sends, {events} events, {:.1} ms per run)",
        rate / 1e6,
        wall * 1e3
    );
    rate
}

/// `scenario` (a preset's JSON) with its producers at rate 1000 and 4 consumer groups of 3 members
/// on the first producer's topic.
fn with_consumers(scenario: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(scenario).unwrap();
    let topic = v["producers"][0]["topic"].as_str().unwrap().to_owned();
    for p in v["producers"].as_array_mut().unwrap() {
        p["rate"] = serde_json::json!(1000);
    }
    let strategies = ["AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "AVG"];
    v["consumers"] = (1..=4)
        .map(|g| {
            serde_json::json!({"group": format!("cg-{g}"), "topics": [topic],
                "strategy": strategies[g - 1], "members": 3, "rate": 300})
        })
        .collect();
    v.to_string()
}

/// Median events per second of wall time (and sends per second) over `runs` runs.
fn measure_events(name: &str, json: &str, secs: u64, runs: usize) -> (f64, f64) {
    let _ = run_once(json, secs.min(5)); // warm-up
    let mut results: Vec<(f64, f64, u64, f64)> = (0..runs)
        .map(|_| {
            let (attempts, events, wall) = run_once(json, secs);
            (events as f64 / wall, attempts as f64 / wall, events, wall)
        })
        .collect();
    results.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (events_per_s, sends_per_s, events, wall) = results[runs / 2];
    println!(
        "{name:<52} {:>8.3} M events/s ({events} events, {:.3} M sends/s, {:.1} ms per run)",
        events_per_s / 1e6,
        sends_per_s / 1e6,
        wall * 1e3
    );
    (events_per_s, sends_per_s)
}

fn main() {
    const SECS: u64 = 60;
    const RUNS: usize = 7;
    println!(
        "simulated sends per second of wall time, median of {RUNS} runs of {SECS} virtual s \
         (10 producers at rate 1000, 4 brokers, 2 NameServers)"
    );
    let mut rows = Vec::new();
    // `-- --consumers-only`: just the consumers' row (for profiling it).
    let consumers_only = std::env::args().any(|a| a == "--consumers-only");
    for profile in ["5.x", "4.x"] {
        if consumers_only {
            break;
        }
        for ft in [false, true] {
            let json = scenario(profile, ft, "", SECS);
            let name = format!("healthy, {profile} client, fault tolerance {ft}");
            let rate = measure(&name, &json, SECS, RUNS);
            rows.push(serde_json::json!({ "name": name, "sends_per_s": rate }));
        }
    }
    let failures = r#"{"at": 10, "do": "kill_broker", "broker": "10.0.0.1:10911"},
                      {"at": 20, "do": "freeze_broker", "broker": "10.0.0.2:10911"}"#;
    if !consumers_only {
        let json = scenario("5.x", true, failures, SECS);
        let name = "kill at 10 s + freeze at 20 s, 5.x, fault tolerance on";
        let rate = measure(name, &json, SECS, RUNS);
        rows.push(serde_json::json!({ "name": name, "sends_per_s": rate }));
    }
    // Consumers: the crash-hang-stop preset with its producer at rate 1000 and 4 consumer groups of
    // 3 members (rate 300 each) reading its topic — rebalances, pulls and commits on top of the sends.
    let json = with_consumers(routelab::sim::preset_json("crash-hang-stop").expect("preset"));
    let name = "crash-hang-stop + 4 consumer groups × 3 members";
    let (events_per_s, sends_per_s) = measure_events(name, &json, 240, RUNS);
    rows.push(serde_json::json!({ "name": name, "sends_per_s": sends_per_s, "events_per_s": events_per_s }));
    // `-- --json FILE`: the figures for scripts/bench.
    let args: Vec<String> = std::env::args().collect();
    if let Some(path) = args
        .iter()
        .position(|a| a == "--json")
        .and_then(|i| args.get(i + 1))
    {
        let text = serde_json::to_string_pretty(&rows).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
}
