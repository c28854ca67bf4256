//! Load with faults mixed in: many dashboard viewers on one bridge while one of them never reads,
//! and our NameServer taking a fleet of registrations while hostile clients trickle bytes or send
//! garbage. What is asserted is that nothing is lost and nobody well-behaved is harmed; no timing
//! is asserted (every wait has a generous deadline that only turns a hang into a failure).
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bridge::{config, connect, http_get, is_ok, metric, start, ws_url, Viewer, DEADLINE};
use futures_util::{SinkExt, StreamExt};
use hostile::{broker_body, broker_header, broker_name, garbage, slowloris, NamesrvChild, CLUSTER};
use ours::{client_with, Ours, PATIENCE};
use peer::{register_broker, topics, ScratchDir};
use routelab::live::LiveState;
use routelab::namesrv::Profile;
use routelab::net::ClientConfig;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const VIEWERS: usize = 200;

/// The brokers the viewer's copy of `ns` shows, by name.
fn brokers(state: &LiveState, ns: &str) -> Vec<String> {
    state
        .namesrv(ns)
        .map(|v| {
            v.cluster
                .broker_addr_table
                .keys()
                .map(|b| b.to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Each state the dashboards must go through, in order: (what, the broker names shown).
const STEPS: [(&str, &[&str]); 3] = [
    ("broker-a registered", &["broker-a"]),
    ("broker-b registered", &["broker-a", "broker-b"]),
    ("broker-a unregistered", &["broker-b"]),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_viewers_all_get_every_update() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let addr = ns.addr();
    let dist = ScratchDir::new("dist");
    let bridge = start(config(std::slice::from_ref(&addr), dist.path())).await;

    let mut viewers: Vec<Viewer> = Vec::with_capacity(VIEWERS);
    for _ in 0..VIEWERS {
        viewers.push(connect(&bridge).await);
    }
    // One more, read as the changes are made; the 200 are only read at the end, so they prove the
    // whole sequence reached them.
    let mut sentinel = connect(&bridge).await;
    sentinel
        .wait_until("the NameServer polled", |s| is_ok(s, &addr))
        .await;
    // Everyone starts from a polled, empty NameServer, so the first step is a change for all.
    for v in &mut viewers {
        v.wait_until("the NameServer polled", |s| is_ok(s, &addr))
            .await;
        assert!(brokers(&v.state, &addr).is_empty());
    }

    // The stuck viewer: a small receive buffer so the kernel cannot absorb megabytes on its behalf,
    // and resync requests it never reads the answers to, which is what a frozen tab does over a
    // long time (compressed here so the queue fills in seconds, not hours).
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(4096).expect("a receive buffer");
    let stream = socket
        .connect(bridge.local_addr())
        .await
        .expect("connect to the bridge");
    let request = ws_url(&bridge, "").into_client_request().expect("a URL");
    let (mut stuck, _) = tokio_tungstenite::client_async(request, stream)
        .await
        .expect("the stuck viewer connects");
    let flood_done = Arc::new(AtomicBool::new(false));
    let stop = Arc::clone(&flood_done);
    let flood = tokio::spawn(async move {
        loop {
            for _ in 0..200 {
                if stuck
                    .send(Message::Text(r#"{"type":"resync"}"#.into()))
                    .await
                    .is_err()
                {
                    return stuck;
                }
            }
            tokio::task::yield_now().await;
            // Stop flooding once the bridge says it dropped a slow viewer; the end of the
            // connection is checked below from the client's side.
            if stop.load(Ordering::Relaxed) {
                return stuck;
            }
        }
    });

    // The changes, made while the stuck viewer floods. After each, the sentinel viewer waits to see
    // it, so the bridge has polled that state and broadcast it to everyone before the next change
    // (otherwise two changes within one poll would merge and "every update" would mean less).
    let mut a = None;
    for (i, (what, want)) in STEPS.iter().enumerate() {
        match i {
            0 => {
                a = Some(
                    register_broker(
                        &addr,
                        "C",
                        "broker-a",
                        0,
                        "127.0.0.1:10911",
                        topics(&["TA1", "TA2"]),
                    )
                    .await,
                )
            }
            1 => {
                // Kept alive to the end of the test: dropping it would unregister broker-b.
                std::mem::forget(
                    register_broker(
                        &addr,
                        "C",
                        "broker-b",
                        0,
                        "127.0.0.1:10921",
                        topics(&["TB1", "TB2"]),
                    )
                    .await,
                )
            }
            _ => a.as_ref().expect("broker-a").unregister().await,
        }
        sentinel
            .wait_until(what, |s| brokers(s, &addr) == *want)
            .await;
    }

    // The stuck viewer is dropped by the bridge for not reading.
    let dropped = tokio::time::timeout(DEADLINE, async {
        loop {
            let (_, text) = http_get(&bridge, "/metrics").await;
            if metric(
                &text,
                "routelab_bridge_viewers_closed_total{reason=\"slow\"}",
            ) == Some(1.0)
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(dropped.is_ok(), "the stuck viewer was never dropped");
    flood_done.store(true, Ordering::Relaxed);
    let mut stuck = tokio::time::timeout(DEADLINE, flood)
        .await
        .expect("the flood hangs")
        .expect("the flood task");
    // From its own side too: reading what was buffered ends in a close or an error, not a hang.
    let ended = tokio::time::timeout(DEADLINE, async {
        loop {
            match stuck.next().await {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the bridge never closed the stuck viewer");

    // Every reading viewer went through every step, in order, and is still connected
    // (`wait_until` panics if the bridge closed it).
    for (n, v) in viewers.iter_mut().enumerate() {
        for (what, want) in STEPS {
            v.wait_until(&format!("viewer {n}: {what}"), |s| {
                brokers(s, &addr) == want
            })
            .await;
        }
    }
    let (_, text) = http_get(&bridge, "/metrics").await;
    assert_eq!(
        metric(&text, "routelab_bridge_viewers"),
        Some((VIEWERS + 1) as f64),
        "only the stuck viewer was dropped"
    );
    bridge.shutdown().await;
}

// --- Our NameServer under a registration fleet and hostile clients at once -------------------

const BROKERS: usize = 600;
const ROUNDS: i64 = 3;
const SLOWLORIS: usize = 50;
const GARBAGE: usize = 50;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namesrv_keeps_every_registration_under_hostile_clients() {
    let ns = NamesrvChild::start(&[]);
    let addr = ns.addr.clone();
    let stop = Arc::new(AtomicBool::new(false));

    let hostile: Vec<_> = (0..SLOWLORIS)
        .map(|n| tokio::spawn(slowloris(addr.clone(), n, Arc::clone(&stop))))
        .collect();
    let junk: Vec<_> = (0..GARBAGE)
        .map(|n| tokio::spawn(garbage(addr.clone(), n, Arc::clone(&stop))))
        .collect();

    let config = ClientConfig {
        // Generous: the point is that nothing is lost, not how fast it goes.
        request_timeout: PATIENCE,
        ..ClientConfig::default()
    };
    let mut clients = Vec::with_capacity(BROKERS);
    for _ in 0..BROKERS {
        clients.push(client_with(&addr, config.clone()).await);
    }
    // Every broker at once on its own connection, ROUNDS registrations in a row; an error is any
    // answer other than SUCCESS (or none at all).
    let brokers: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            tokio::spawn(async move {
                for round in 1..=ROUNDS {
                    c.register_broker(&broker_header(i), &broker_body(i, round))
                        .await
                        .unwrap_or_else(|e| panic!("{} round {round}: {e}", broker_name(i)));
                }
                c
            })
        })
        .collect();
    let mut kept = Vec::with_capacity(BROKERS);
    for b in brokers {
        kept.push(
            tokio::time::timeout(DEADLINE, b)
                .await
                .expect("a broker hangs")
                .expect("a broker task"),
        );
    }

    // Checked while the hostile clients are still connected: they must not have cost anything.
    // With the same patience as the brokers': how long a query waits under such a storm is
    // measured by `benches/route_storm.rs`, never asserted here (with the other tests of the suite
    // sharing the cores, a 3 s client timeout timed this test's neighbours as much as the server).
    let checker = client_with(&addr, config.clone()).await;
    let info = checker
        .cluster_info()
        .await
        .expect("GET_BROKER_CLUSTER_INFO");
    let in_cluster = info.cluster_addr_table.get(CLUSTER).expect("the cluster");
    assert_eq!(in_cluster.len(), BROKERS, "brokers in clusterAddrTable");
    for i in 0..BROKERS {
        assert!(
            info.broker_addr_table.contains_key(broker_name(i).as_str()),
            "{} missing from brokerAddrTable",
            broker_name(i)
        );
    }
    let route = checker
        .route("HostileTopic-0000-0")
        .await
        .expect("GET_ROUTEINFO_BY_TOPIC")
        .expect("a route for a registered topic");
    assert_eq!(route.queue_datas.len(), 1);

    stop.store(true, Ordering::Relaxed);
    for h in hostile {
        tokio::time::timeout(DEADLINE, h)
            .await
            .expect("a slowloris hangs")
            .expect("a slowloris task");
    }
    let mut closed = 0;
    for j in junk {
        closed += tokio::time::timeout(DEADLINE, j)
            .await
            .expect("a garbage sender hangs")
            .expect("a garbage task");
    }
    assert!(closed >= GARBAGE, "only {closed} garbage connections ran");

    // 600 brokers' tables are a few megabytes and each connection's buffers a few kilobytes; the
    // binary itself takes tens of megabytes. 300 MB leaves room for a slow allocator yet fails if
    // the server allocates what a length prefix claims (25 slowloris x 16 MiB is 400 MiB). Only
    // where /proc exists (Linux); elsewhere the rest of the test still runs.
    if let Some(kb) = ns.peak_rss_kb() {
        assert!(kb < 300 * 1024, "peak RSS {kb} kB");
    }
    for c in kept {
        c.close();
    }
    checker.close();
}
