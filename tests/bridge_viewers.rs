//! Viewers misbehaving, against the real peer NameServer: one that sends garbage is closed while
//! another keeps receiving; one that never reads is dropped without stalling another.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/peer.rs"]
mod peer;

use bridge::{config, connect, http_get, metric, start, ws_url, DEADLINE};
use futures_util::SinkExt;
use peer::{register_broker, topics, Peer, ScratchDir};
use routelab::live::ServerMessage;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_sending_garbage_is_closed_and_others_keep_receiving() {
    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    let bridge = start(config(&[ns.addr()], dist.path())).await;
    for garbage in [
        Message::Text("hello".into()),
        Message::Text(r#"{"type":"subscribe"}"#.into()),
        Message::Binary(vec![0u8, 1, 2].into()),
        Message::Text("x".repeat(10_000).into()),
    ] {
        let mut good = connect(&bridge).await;
        let mut bad = connect(&bridge).await;
        assert!(matches!(good.next().await, ServerMessage::Snapshot(_)));
        assert!(matches!(bad.next().await, ServerMessage::Snapshot(_)));
        bad.ws.send(garbage.clone()).await.expect("send");
        let code = bad.closed_by_bridge().await;
        assert!(
            matches!(code, Some(1008) | None),
            "{garbage:?}: close code {code:?}"
        );
        // The other viewer still gets updates (every poll sends one).
        let seq = good.state.seq;
        good.wait_until("another update", |s| s.seq > seq + 1).await;
    }
    let (_, text) = http_get(&bridge, "/metrics").await;
    assert_eq!(
        metric(
            &text,
            "routelab_bridge_viewers_closed_total{reason=\"bad_input\"}"
        ),
        Some(3.0),
        "the oversized message breaks the connection instead: not counted as a request"
    );
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resync_request_gets_a_fresh_snapshot() {
    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    let bridge = start(config(&[ns.addr()], dist.path())).await;
    let mut v = connect(&bridge).await;
    v.next().await;
    v.wait_until("a few updates", |s| s.seq >= 2).await;
    v.send_text(r#"{"type":"resync"}"#).await;
    loop {
        let seq = v.state.seq;
        if let ServerMessage::Snapshot(s) = v.next().await {
            assert_eq!(s.seq, seq, "the snapshot carries the current seq");
            break;
        }
    }
    // Updates go on from there.
    let seq = v.state.seq;
    v.wait_until("an update after the resync", |s| s.seq > seq)
        .await;
    bridge.shutdown().await;
}

/// The stuck viewer asks for snapshots again and again but never reads them: its socket and then
/// its queue fill up, which is what a frozen browser tab does over a long time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_that_never_reads_is_dropped_without_stalling_others() {
    let ns = Peer::start();
    let addr = ns.addr();
    // Some topics, so that each snapshot is a few kilobytes.
    let names: Vec<String> = (0..40).map(|i| format!("Topic{i:02}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let _broker = register_broker(
        &addr,
        "DefaultCluster",
        "broker-a",
        0,
        "127.0.0.1:10911",
        topics(&refs),
    )
    .await;
    let dist = ScratchDir::new("dist");
    let bridge = start(config(std::slice::from_ref(&addr), dist.path())).await;
    let mut good = connect(&bridge).await;
    good.wait_until("routes", |s| {
        s.namesrv(&addr).is_some_and(|n| n.routes.len() == 40)
    })
    .await;

    // A small receive buffer, so the kernel does not absorb megabytes on the stuck viewer's behalf.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(bridge.local_addr()).await.unwrap();
    let request = ws_url(&bridge, "").into_client_request().unwrap();
    let (mut stuck, _) = tokio_tungstenite::client_async(request, stream)
        .await
        .unwrap();

    let dropped = tokio::time::timeout(DEADLINE, async {
        loop {
            for _ in 0..200 {
                if stuck
                    .send(Message::Text(r#"{"type":"resync"}"#.into()))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            let (_, text) = http_get(&bridge, "/metrics").await;
            if metric(
                &text,
                "routelab_bridge_viewers_closed_total{reason=\"slow\"}",
            ) == Some(1.0)
            {
                return;
            }
        }
    })
    .await;
    assert!(dropped.is_ok(), "the stuck viewer was never dropped");

    // The other viewer kept up all along and still gets updates.
    let seq = good.state.seq;
    good.wait_until("updates after the drop", |s| s.seq > seq + 1)
        .await;
    let (_, text) = http_get(&bridge, "/metrics").await;
    assert_eq!(metric(&text, "routelab_bridge_viewers"), Some(1.0));
    drop(stuck);
    bridge.shutdown().await;
}
