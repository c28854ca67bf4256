//! `routelab namesrv --ws`: the bridge's live protocol served by the NameServer itself, pushed on
//! each change with exact heartbeat times (`broker_live`), and `/metrics` with the NameServer's own
//! families.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use bridge::{metric, try_connect, view};
use ours::Ours;
use peer::{register_broker, topics};
use routelab::live::SourceKind;
use routelab::namesrv::Profile;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(bridge::DEADLINE, s.read_to_end(&mut raw))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    text
}

#[tokio::test]
async fn pushes_changes_with_heartbeat_times_and_serves_metrics() {
    let ns = Ours::start(Profile::V5, |c| c.ws = Some("127.0.0.1:0".parse().unwrap())).await;
    let ws = ns.handle().ws_addr().expect("--ws is on");
    let addr = ns.addr();
    let mut viewer = try_connect(&format!("ws://{ws}/ws"), None)
        .await
        .expect("upgrade");
    viewer
        .wait_until("the snapshot", |s| view(s, &addr).is_some())
        .await;
    assert_eq!(
        viewer.state.source.as_ref().map(|s| s.kind),
        Some(SourceKind::Namesrv)
    );

    let mut b = register_broker(
        &addr,
        "C",
        "broker-a",
        0,
        "127.0.0.1:10911",
        topics(&["T1", "T2"]),
    )
    .await;
    b.header.heartbeat_timeout_millis = Some(30_000);
    b.reregister(None).await;
    viewer
        .wait_until("the broker with its timeout", |s| {
            view(s, &addr).is_some_and(|v| {
                v.routes.get("T1").is_some_and(|r| r.route.is_some())
                    && v.broker_live
                        .as_ref()
                        .and_then(|l| l.get("127.0.0.1:10911"))
                        .map(|l| l.timeout_ms)
                        == Some(30_000)
            })
        })
        .await;
    b.close();
    viewer
        .wait_until("the broker gone", |s| {
            view(s, &addr).is_some_and(|v| {
                v.cluster.broker_addr_table.is_empty()
                    && v.broker_live.as_ref().is_some_and(|l| l.is_empty())
            })
        })
        .await;

    let c = ns.client().await;
    assert_eq!(c.route("T1").await.unwrap(), None);
    let text = get(ws, "/metrics").await;
    assert!(
        metric(&text, "routelab_namesrv_route_changes_total").unwrap() >= 2.0,
        "{text}"
    );
    assert!(metric(&text, "routelab_namesrv_connections_total").unwrap() >= 2.0);
    assert!(metric(&text, r#"routelab_namesrv_request_duration_seconds_count{code="105",name="GET_ROUTEINFO_BY_TOPIC"}"#).unwrap() >= 1.0, "{text}");
    // The live view's own families that mean something here: its viewers and what they were sent.
    assert!(metric(&text, "routelab_bridge_viewers").is_some(), "{text}");
    assert!(
        metric(
            &text,
            r#"routelab_bridge_messages_sent_total{type="snapshot"}"#
        )
        .unwrap()
            >= 1.0,
        "{text}"
    );
    // Nothing polls a NameServer here: the bridge's poll families would stay at zero forever.
    for family in [
        "poll_duration_seconds",
        "poll_errors_total",
        "namesrv_up",
        "routelab_bridge_topics",
        "routes_fetched_total",
        "route_errors_total",
    ] {
        assert!(
            !text.contains(family),
            "{family} in namesrv's /metrics:\n{text}"
        );
    }
}
