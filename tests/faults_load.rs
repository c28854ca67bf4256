//! Load with faults mixed in: many dashboard viewers on one bridge while one of them never reads,
//! and our NameServer taking a fleet of registrations while hostile clients trickle bytes or send
//! garbage. What is asserted is that nothing is lost and nobody well-behaved is harmed; no timing
//! is asserted (every wait has a generous deadline that only turns a hang into a failure).
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bridge::{config, connect, http_get, is_ok, metric, start, ws_url, Viewer, DEADLINE};
use futures_util::{SinkExt, StreamExt};
use ours::Ours;
use peer::{register_broker, topics, ScratchDir};
use routelab::live::LiveState;
use routelab::namesrv::Profile;
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
