//! Core benchmarks: `cargo bench --bench core` prints the median of several runs of each operation.
//! Figures are recorded in BENCHMARKS.md; tests never assert on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use routelab::model::{DataVersion, TopicConfig, TopicConfigSerializeWrapper};
use routelab::namesrv::{Profile, RegisterBroker, RouteManager};
use routelab::producer::{ClientProfile, MqFaultStrategy, TopicPublishInfo};
use routelab::rng::SeededRng;

/// Median time per iteration over `runs` runs of `iters` iterations.
fn measure(name: &str, runs: usize, iters: u64, mut f: impl FnMut()) {
    let mut per_iter: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            start.elapsed() / iters as u32
        })
        .collect();
    per_iter.sort();
    let median = per_iter[runs / 2];
    println!("{name:<48} {:>12.3} µs", median.as_secs_f64() * 1e6);
}

fn broker(i: usize, topics: usize, counter: i64) -> RegisterBroker {
    let wrapper = TopicConfigSerializeWrapper::new(
        DataVersion::new(counter, 0),
        (0..topics).map(|t| TopicConfig::new(&format!("Topic{t}"), 8, 8, 6)),
    );
    let addr = format!("10.{}.{}.{}:10911", i / 65536, (i / 256) % 256, i % 256);
    RegisterBroker::new("DefaultCluster", &format!("broker-{i}"), 0, &addr, wrapper)
}

fn main() {
    println!(
        "{:<48} {:>15}",
        "operation (median of 7 runs)", "time per op"
    );
    for profile in [Profile::V4, Profile::V5] {
        let first = broker(0, 1000, 1);
        measure(
            &format!("register, 1,000 topics, first ({profile})"),
            7,
            20,
            || {
                let mut m = RouteManager::new(profile);
                black_box(m.register_broker(0, &first).ok());
            },
        );
        let mut m = RouteManager::new(profile);
        let _ = m.register_broker(0, &first);
        let mut counter = 1;
        measure(
            &format!("register, 1,000 topics, version changed ({profile})"),
            7,
            20,
            || {
                counter += 1;
                let again = broker(0, 1000, counter);
                black_box(m.register_broker(counter as u64, &again).ok());
                m.drain_events();
            },
        );
        let same = broker(0, 1000, counter);
        measure(
            &format!("register, 1,000 topics, heartbeat ({profile})"),
            7,
            50,
            || {
                black_box(m.register_broker(1, &same).ok());
            },
        );
    }

    let mut m = RouteManager::new(Profile::V5);
    for i in 0..4 {
        let _ = m.register_broker(0, &broker(i, 1000, 1));
    }
    measure("pickupTopicRouteData, 4 groups", 7, 100_000, || {
        black_box(m.pickup_topic_route_data("Topic500"));
    });

    let mut big = RouteManager::new(Profile::V4);
    for i in 0..1000 {
        let _ = big.register_broker(0, &broker(i, 2, 1));
    }
    measure(
        "scan over 1,000 live brokers, none expired",
        7,
        1000,
        || {
            black_box(big.scan_not_active_brokers(60_000));
        },
    );

    let route = m.pickup_topic_route_data("Topic500").expect("route");
    for (client, ft) in [
        (ClientProfile::V4, false),
        (ClientProfile::V4, true),
        (ClientProfile::V5, true),
    ] {
        let mut info = TopicPublishInfo::from_route("Topic500", &route, client).expect("info");
        let mut strategy = MqFaultStrategy::new(client, ft);
        strategy.update_fault_item(0, "broker-1", 3000, true, false);
        let mut rng = SeededRng::new(1);
        let mut now = 1;
        measure(
            &format!("selectOneMessageQueue, 32 queues ({client}, ft={ft})"),
            7,
            1_000_000,
            || {
                now += 1;
                black_box(strategy.select_one_message_queue(
                    now,
                    &mut info,
                    Some("broker-0"),
                    false,
                    &mut rng,
                ));
            },
        );
    }
}
