//! `routelab namesrv --ws` guards its WebSocket as the bridge does: pages from other origins are
//! refused unless allowed with `--allow-origin`, and `--token` is required when set; `--dist` is
//! where the page comes from.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use bridge::try_connect;
use ours::Ours;
use peer::ScratchDir;
use routelab::host::web::args::HttpAccess;
use routelab::live::ServerMessage;
use routelab::namesrv::Profile;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn start(access: HttpAccess) -> Ours {
    Ours::start(Profile::V5, move |c| {
        c.ws = Some("127.0.0.1:0".parse().expect("an address"));
        c.ws_access = access;
    })
    .await
}

fn ws_url(ns: &Ours, query: &str) -> String {
    let ws = ns.handle().ws_addr().expect("--ws is on");
    format!("ws://{ws}/ws{query}")
}

/// The body of `GET path` (status 200 asserted).
async fn page(ns: &Ours, path: &str) -> String {
    let ws = ns.handle().ws_addr().expect("--ws is on");
    let mut s = TcpStream::connect(ws).await.expect("connect");
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    tokio::time::timeout(bridge::DEADLINE, s.read_to_end(&mut raw))
        .await
        .expect("an answer before the deadline")
        .expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_origins_are_refused_unless_allowed() {
    let ns = start(HttpAccess {
        allow_origins: vec!["http://localhost:8080".into()],
        ..HttpAccess::default()
    })
    .await;
    let url = ws_url(&ns, "");
    let port = ns.handle().ws_addr().expect("--ws is on").port();
    for foreign in ["http://evil.example", "http://127.0.0.1:9999", "null"] {
        assert_eq!(
            try_connect(&url, Some(foreign)).await.err(),
            Some(403),
            "{foreign}"
        );
    }
    for own in [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        "http://localhost:8080".to_owned(),
    ] {
        let mut v = try_connect(&url, Some(&own))
            .await
            .unwrap_or_else(|s| panic!("{own} refused with {s}"));
        assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));
    }
    let mut v = try_connect(&url, None)
        .await
        .expect("no Origin: not a browser");
    assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_is_required_when_set_and_the_page_comes_from_dist() {
    let dist = ScratchDir::new("dist");
    std::fs::write(
        dist.path().join("live.html"),
        "<html><head></head><body>ours</body></html>",
    )
    .expect("write live.html");
    let ns = start(HttpAccess {
        dist: dist.path().to_path_buf().into(),
        token: Some("s3cret".into()),
        ..HttpAccess::default()
    })
    .await;
    for query in ["", "?token=", "?token=wrong"] {
        assert_eq!(
            try_connect(&ws_url(&ns, query), None).await.err(),
            Some(401),
            "{query:?}"
        );
    }
    let mut v = try_connect(&ws_url(&ns, "?token=s3cret"), None)
        .await
        .expect("the right token is accepted");
    assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));
    let with = page(&ns, "/?token=s3cret").await;
    assert!(with.contains(r#"<meta name="routelab-live" content="/ws?token=s3cret"></head>"#));
    assert!(with.contains("ours"), "served from --dist: {with}");
    let without = page(&ns, "/").await;
    assert!(!without.contains("s3cret"), "{without}");
}

/// Commands are `routelab demo`'s: our NameServer closes a viewer that sends one, as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_refused() {
    let ns = start(HttpAccess::default()).await;
    let mut v = try_connect(&ws_url(&ns, ""), None).await.expect("upgrade");
    match v.next().await {
        ServerMessage::Snapshot(s) => assert!(!s.source.commands),
        other => panic!("a snapshot first, got {other:?}"),
    }
    v.send_text(r#"{"type":"command","text":"kill broker-a"}"#)
        .await;
    assert_eq!(v.closed_by_bridge().await, Some(1008));
}

/// `--max-viewers`: one more upgrade is refused with 503 and a body that says why, and counted;
/// a slot is free again once a viewer leaves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn viewers_beyond_the_limit_are_refused() {
    let ns = start(HttpAccess {
        max_viewers: 2,
        ..HttpAccess::default()
    })
    .await;
    let url = ws_url(&ns, "");
    let mut v1 = try_connect(&url, None).await.expect("first viewer");
    let mut v2 = try_connect(&url, None).await.expect("second viewer");
    assert!(matches!(v1.next().await, ServerMessage::Snapshot(_)));
    assert!(matches!(v2.next().await, ServerMessage::Snapshot(_)));
    assert_eq!(try_connect(&url, None).await.err(), Some(503));

    // What a person trying it by hand would read.
    let ws = ns.handle().ws_addr().expect("--ws is on");
    let mut s = TcpStream::connect(ws).await.expect("connect");
    let req = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    s.write_all(req.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    tokio::time::timeout(bridge::DEADLINE, s.read_to_end(&mut raw))
        .await
        .expect("an answer before the deadline")
        .expect("read");
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(
        text.contains("too many viewers: 2 connected already"),
        "{text}"
    );
    let metrics = page(&ns, "/metrics").await;
    assert!(
        metrics.contains("routelab_bridge_viewers_refused_total{reason=\"full\"} 2"),
        "{metrics}"
    );

    // Once v1 is gone, a new viewer gets its slot (retried: the bridge learns of the close
    // asynchronously).
    drop(v1);
    let deadline = tokio::time::Instant::now() + bridge::DEADLINE;
    let mut v3 = loop {
        match try_connect(&url, None).await {
            Ok(v) => break v,
            Err(503) => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the slot never freed"
                );
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            Err(other) => panic!("refused with {other}"),
        }
    };
    assert!(matches!(v3.next().await, ServerMessage::Snapshot(_)));
}
