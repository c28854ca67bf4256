//! A route query's wait under a storm: `cargo bench --bench route_storm [-- --json FILE]`.
//!
//! `routelab namesrv` (the release binary, a process of its own) holds 600 small brokers. One
//! client on a thread and runtime of its own asks GET_ROUTEINFO_BY_TOPIC every 5 ms and times
//! each answer: first with nothing else going on, then while the 600 brokers re-register as fast
//! as the server answers them, each on its own connection, 50 slowloris connections trickle bytes
//! and 50 garbage senders open, spoil and drop connections one after another (what
//! `tests/faults_load.rs` does to check that nothing is lost). Reported: the p50, p99 and worst
//! wait of each phase. The load generator shares the machine's cores with the server, so the
//! storm's figures include the time the probe's own thread waited for a core. Tests never assert
//! on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/hostile.rs"]
mod hostile;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    storm::main();
}

// `cargo clippy --all-targets --target wasm32-unknown-unknown` builds every bench: give it a stub.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod storm {
    use super::hostile::{broker_body, broker_header, garbage, slowloris, NamesrvChild};

    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use routelab::net::{ClientConfig, NamesrvClient};
    use serde_json::json;

    const BROKERS: usize = 600;
    const SLOWLORIS: usize = 50;
    const GARBAGE: usize = 50;
    /// Route queries per phase, one every `PACE`.
    const QUERIES: usize = 1_000;
    const PACE: Duration = Duration::from_millis(5);

    fn patient() -> ClientConfig {
        ClientConfig {
            request_timeout: Duration::from_secs(60),
            ..ClientConfig::default()
        }
    }

    /// The probe: `QUERIES` route queries on a thread and runtime of its own; each wait in µs.
    fn probe(addr: String) -> std::thread::JoinHandle<Vec<f64>> {
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let c = NamesrvClient::connect(&addr, patient()).await.unwrap();
                let mut waits = Vec::with_capacity(QUERIES);
                let mut tick = tokio::time::interval(PACE);
                for i in 0..QUERIES {
                    tick.tick().await;
                    let topic = format!("HostileTopic-{:04}-0", i % BROKERS);
                    let start = Instant::now();
                    let route = c.route(&topic).await.expect("GET_ROUTEINFO_BY_TOPIC");
                    waits.push(start.elapsed().as_secs_f64() * 1e6);
                    assert!(route.is_some(), "no route for {topic}");
                }
                c.close();
                waits
            })
        })
    }

    /// p50, p99 and the worst of `waits`, in ms.
    fn spread(mut waits: Vec<f64>) -> [f64; 3] {
        waits.sort_by(f64::total_cmp);
        let at = |q: f64| waits[((waits.len() - 1) as f64 * q).round() as usize] / 1e3;
        [at(0.5), at(0.99), at(1.0)]
    }

    pub fn main() {
        let json_out = std::env::args().skip_while(|a| a != "--json").nth(1);
        let ns = NamesrvChild::start(&[]);
        let addr = ns.addr.clone();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let clients: Vec<NamesrvClient> = rt.block_on(async {
            let mut clients = Vec::with_capacity(BROKERS);
            for i in 0..BROKERS {
                let c = NamesrvClient::connect(&addr, patient()).await.unwrap();
                c.register_broker(&broker_header(i), &broker_body(i, 1))
                    .await
                    .unwrap();
                clients.push(c);
            }
            clients
        });

        let quiet = spread(probe(addr.clone()).join().unwrap());

        let stop = Arc::new(AtomicBool::new(false));
        let registrations = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut tasks = Vec::new();
        for (i, c) in clients.into_iter().enumerate() {
            let (stop, count) = (Arc::clone(&stop), Arc::clone(&registrations));
            tasks.push(rt.spawn(async move {
                let mut round = 2;
                while !stop.load(Ordering::Relaxed) {
                    c.register_broker(&broker_header(i), &broker_body(i, round))
                        .await
                        .unwrap();
                    count.fetch_add(1, Ordering::Relaxed);
                    round += 1;
                }
                c.close();
            }));
        }
        let hostile: Vec<_> = (0..SLOWLORIS)
            .map(|n| rt.spawn(slowloris(addr.clone(), n, Arc::clone(&stop))))
            .collect();
        let junk: Vec<_> = (0..GARBAGE)
            .map(|n| rt.spawn(garbage(addr.clone(), n, Arc::clone(&stop))))
            .collect();
        let started = Instant::now();
        let storm = spread(probe(addr.clone()).join().unwrap());
        let secs = started.elapsed().as_secs_f64();
        stop.store(true, Ordering::Relaxed);
        let mut closed = 0;
        rt.block_on(async {
            for t in tasks {
                t.await.unwrap();
            }
            for h in hostile {
                h.await.unwrap();
            }
            for j in junk {
                closed += j.await.unwrap();
            }
        });
        let per_sec = registrations.load(Ordering::Relaxed) as f64 / secs;
        println!("a route query's wait, {QUERIES} queries one every {} ms, {BROKERS} brokers registered:", PACE.as_millis());
        println!("| phase | p50 | p99 | worst |\n| --- | ---: | ---: | ---: |");
        println!(
            "| quiet | {:.2} ms | {:.2} ms | {:.2} ms |",
            quiet[0], quiet[1], quiet[2]
        );
        println!(
            "| storm: {per_sec:.0} registrations/s, {SLOWLORIS} slowloris, {GARBAGE} garbage senders ({closed} connections spoiled) | {:.2} ms | {:.2} ms | {:.2} ms |",
            storm[0], storm[1], storm[2]
        );
        if let Some(path) = json_out {
            let figures = json!({
                "queries": QUERIES,
                "brokers": BROKERS,
                "quiet_p50_ms": quiet[0], "quiet_p99_ms": quiet[1], "quiet_max_ms": quiet[2],
                "storm_p50_ms": storm[0], "storm_p99_ms": storm[1], "storm_max_ms": storm[2],
                "storm_registrations_per_s": per_sec,
                "storm_garbage_connections": closed,
            });
            std::fs::write(path, serde_json::to_vec_pretty(&figures).unwrap()).unwrap();
        }
    }
}
