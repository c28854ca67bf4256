//! Load generator: `cargo bench --bench namesrv_load` drives our NameServer (`routelab::server`,
//! 5.x, in-process on its own runtime) and rocketmq-rust's (tests/support/peer.rs; skipped with a
//! note when it is not installed) with the same load, and prints a table:
//! - GET_ROUTEINFO_BY_TOPIC throughput and latency percentiles, 4 brokers × 1,000 topics registered,
//!   `CLIENTS` connections each keeping `DEPTH` requests in flight, random topics;
//! - the same requests paced at a fixed rate both servers sustain, for latency at equal load;
//! - REGISTER_BROKER with 1,000 topics (the DataVersion bumped each time), one connection, in turn.
//!
//! `cargo bench --bench namesrv_load -- --brokers 1000 [--period 30s] [--duration 60s]
//! [--topics 5] [--late 1s] [--only ours|peer]` runs the broker-fleet scenario instead: that many
//! broker connections, each sending REGISTER_BROKER on its own schedule every period (staggered
//! evenly over the period, as real brokers started at different times are), counting every answer
//! that is not SUCCESS, every registration answered later than `--late` after it was due, and every
//! broker missing from GET_BROKER_CLUSTER_INFO at the end.
//!
//! Figures are recorded in BENCHMARKS.md; tests never assert on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The allocator `routelab namesrv` runs with (src/bin/routelab.rs), so the figures are the binary's.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/peer.rs"]
mod peer;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    load::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
#[path = "namesrv_load/fleet.rs"]
mod fleet;

#[cfg(not(target_arch = "wasm32"))]
mod load {
    use super::peer;

    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use routelab::model::{
        DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper,
    };
    use routelab::namesrv::Profile;
    use routelab::net::{ClientConfig, NamesrvClient};
    use routelab::remoting::headers::RegisterBrokerRequestHeader;
    use routelab::rng::SeededRng;

    const TOPICS: usize = 1_000;
    const BROKERS: usize = 4;
    const CLIENTS: usize = 4;
    const DEPTH: usize = 16;
    const ROUTE_RUN: Duration = Duration::from_secs(5);
    const REGISTERS: usize = 200;
    /// The paced route load, req/s: about a quarter of what rocketmq-rust's NameServer answers at
    /// most on the 2-core VM, a tenth of ours.
    const PACED_RATE: usize = 10_000;
    const PACED_RUN: Duration = Duration::from_secs(3);

    fn topic(i: usize) -> String {
        format!("BenchTopic-{i:04}")
    }

    fn body(counter: i64) -> RegisterBrokerBody {
        RegisterBrokerBody {
            filter_server_list: Vec::new(),
            topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                DataVersion::new(counter, 1_700_000_000_000 + counter),
                (0..TOPICS).map(|i| TopicConfig::new(&topic(i), 8, 8, 6)),
            ),
        }
    }

    fn header(i: usize) -> RegisterBrokerRequestHeader {
        RegisterBrokerRequestHeader {
            broker_name: format!("bench-broker-{i}"),
            broker_addr: format!("127.0.0.1:{}", 30_911 + 10 * i),
            cluster_name: "BenchCluster".into(),
            ha_server_addr: format!("127.0.0.1:{}", 30_912 + 10 * i),
            broker_id: 0,
            ..Default::default()
        }
    }

    fn percentile(sorted: &[Duration], p: f64) -> Duration {
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted[idx.min(sorted.len() - 1)]
    }

    fn us(d: Duration) -> String {
        format!("{:.0} µs", d.as_secs_f64() * 1e6)
    }

    async fn connect(addr: &str) -> NamesrvClient {
        let config = ClientConfig {
            max_in_flight: DEPTH,
            request_timeout: Duration::from_secs(30),
            ..ClientConfig::default()
        };
        NamesrvClient::connect(addr, config).await.expect("connect")
    }

    /// Registers the brokers (kept open: closing would unregister them) and measures the route load.
    async fn run(name: &str, addr: &str) -> Vec<String> {
        let mut brokers = Vec::new();
        for i in 0..BROKERS {
            let c = connect(addr).await;
            c.register_broker(&header(i), &body(1))
                .await
                .expect("register");
            brokers.push(c);
        }
        // Routes.
        let stop = Instant::now() + ROUTE_RUN;
        let mut tasks = Vec::new();
        for client_no in 0..CLIENTS {
            let c = connect(addr).await;
            for lane in 0..DEPTH {
                let c = c.clone();
                let seed = (client_no * DEPTH + lane) as u64 + 1;
                tasks.push(tokio::spawn(async move {
                    let mut rng = SeededRng::new(seed);
                    let mut lat = Vec::new();
                    while Instant::now() < stop {
                        let t = topic(rng.next_below(TOPICS as u64) as usize);
                        let start = Instant::now();
                        let route = c.route(&t).await.expect("route");
                        lat.push(start.elapsed());
                        assert_eq!(route.map(|r| r.queue_datas.len()), Some(BROKERS));
                    }
                    lat
                }));
            }
        }
        let started = Instant::now();
        let mut lat = Vec::new();
        for t in tasks {
            lat.extend(t.await.expect("a route task"));
        }
        let took = started.elapsed();
        lat.sort();
        let rps = lat.len() as f64 / took.as_secs_f64();
        let mut rows = vec![format!(
            "| {name} | GET_ROUTEINFO_BY_TOPIC, {CLIENTS}×{DEPTH} in flight | {rps:.0} req/s | {} | {} |",
            us(percentile(&lat, 0.5)),
            us(percentile(&lat, 0.99))
        )];
        rows.push(paced_routes(name, addr).await);
        // Registrations with 1,000 topics on broker 0's connection. The bodies are built before the
        // clock starts: building 1,000 topic configs is the load generator's work, not the server's.
        let bodies: Vec<_> = (0..REGISTERS).map(|n| body(2 + n as i64)).collect();
        let mut reg = Vec::new();
        let started = Instant::now();
        for b in &bodies {
            let start = Instant::now();
            brokers[0]
                .register_broker(&header(0), b)
                .await
                .expect("re-register");
            reg.push(start.elapsed());
        }
        let took = started.elapsed();
        reg.sort();
        rows.push(format!(
            "| {name} | REGISTER_BROKER, 1,000 topics, new DataVersion | {:.0} req/s | {} | {} |",
            REGISTERS as f64 / took.as_secs_f64(),
            us(percentile(&reg, 0.5)),
            us(percentile(&reg, 0.99))
        ));
        for b in brokers {
            b.close();
        }
        rows
    }

    /// GET_ROUTEINFO_BY_TOPIC at a fixed offered rate both servers sustain (`PACED_RATE`), on the same
    /// 4 connections × 16 lanes: latency compared at equal load. At each server's own saturation
    /// (the closed loop above) the load generator shares the 2 cores with the server, so the faster
    /// server's answers wait longer for the generator to read them, and its p99 measures the client.
    /// Each lane sends on a fixed schedule; a request held up by the lane's previous answer counts
    /// from its scheduled time, so the server is charged for the wait (no coordinated omission).
    async fn paced_routes(name: &str, addr: &str) -> String {
        let lanes = CLIENTS * DEPTH;
        let interval = Duration::from_secs_f64(lanes as f64 / PACED_RATE as f64);
        let per_lane = (PACED_RUN.as_secs_f64() / interval.as_secs_f64()) as usize;
        let t0 = tokio::time::Instant::now() + Duration::from_millis(50);
        let mut tasks = Vec::new();
        for client_no in 0..CLIENTS {
            let c = connect(addr).await;
            for lane in 0..DEPTH {
                let c = c.clone();
                let n = client_no * DEPTH + lane;
                // Lanes spread evenly over one interval.
                let offset = interval.mul_f64(n as f64 / lanes as f64);
                tasks.push(tokio::spawn(async move {
                    let mut rng = SeededRng::new(1_000 + n as u64);
                    let mut lat = Vec::with_capacity(per_lane);
                    let mut prev_done = t0;
                    for k in 0..per_lane {
                        let due = t0 + offset + interval * k as u32;
                        tokio::time::sleep_until(due).await;
                        // The timer wakes up to a ms late: that is the generator's, not the
                        // server's, so latency starts at the wake-up, unless the previous answer
                        // came after the due time (then the server held this request up).
                        let start = if prev_done > due {
                            due
                        } else {
                            tokio::time::Instant::now()
                        };
                        let t = topic(rng.next_below(TOPICS as u64) as usize);
                        let route = c.route(&t).await.expect("route");
                        prev_done = tokio::time::Instant::now();
                        lat.push(prev_done - start);
                        assert_eq!(route.map(|r| r.queue_datas.len()), Some(BROKERS));
                    }
                    lat
                }));
            }
        }
        let mut lat = Vec::new();
        for t in tasks {
            lat.extend(t.await.expect("a paced route task"));
        }
        let took = t0.elapsed();
        lat.sort();
        format!(
            "| {name} | GET_ROUTEINFO_BY_TOPIC, {PACED_RATE} req/s offered | {:.0} req/s | {} | {} |",
            lat.len() as f64 / took.as_secs_f64(),
            us(percentile(&lat, 0.5)),
            us(percentile(&lat, 0.99))
        )
    }

    /// Whether rocketmq-rust's NameServer is installed where tests/support/peer.rs looks.
    pub fn has_peer() -> bool {
        std::env::var_os("ROUTELAB_PEER_BIN").is_some()
            || std::env::var_os("HOME").is_some_and(|h| {
                std::path::Path::new(&h)
                    .join(".cache/routelab/peer/bin/rocketmq-namesrv-rust")
                    .is_file()
            })
    }

    pub fn main() {
        if let Some(args) = super::fleet::Args::parse() {
            super::fleet::main(&args);
            return;
        }
        // Our server on its own runtime (2 workers), so the load generator does not share its threads.
        let server_rt = Arc::new(
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime"),
        );
        let home = peer::ScratchDir::new("bench-ns");
        let handle = server_rt.block_on(async {
            let mut config = routelab::server::ServerConfig::with_home(home.path().to_path_buf());
            config.listen = "127.0.0.1:0".parse().expect("an address");
            config.profile = Profile::V5;
            routelab::server::run(config)
                .await
                .expect("our NameServer starts")
        });
        let ours = handle.local_addr().to_string();
        let load_rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let mut rows = load_rt.block_on(run("routelab namesrv (5.x)", &ours));
        server_rt.block_on(handle.shutdown());
        if has_peer() {
            let p = peer::Peer::start();
            rows.extend(load_rt.block_on(run("rocketmq-rust namesrv", &p.addr())));
        } else {
            eprintln!(
                "rocketmq-rust's NameServer is not installed (scripts/setup --peer): ours only"
            );
        }
        println!("| server | load | throughput | p50 | p99 |\n| --- | --- | ---: | ---: | ---: |");
        for r in rows {
            println!("{r}");
        }
    }
}
