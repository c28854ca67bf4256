//! Who may open /ws (Origin, token) and what `/` serves (the dashboard with the live marker, or
//! how to build it), with the bridge polling the real peer NameServer.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/peer.rs"]
mod peer;

use bridge::{config, http_get, start, try_connect, ws_url};
use peer::{Peer, ScratchDir};
use routelab::live::ServerMessage;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn origins_other_than_the_bridge_are_refused_unless_allowed() {
    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    let mut c = config(&[ns.addr()], dist.path());
    c.allow_origins = vec!["http://localhost:8080".into()];
    let bridge = start(c).await;
    let url = ws_url(&bridge, "");
    let port = bridge.local_addr().port();

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
        "HTTP://LOCALHOST:8080/".to_owned(),
    ] {
        let mut v = try_connect(&url, Some(&own))
            .await
            .unwrap_or_else(|s| panic!("{own} refused with {s}"));
        assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));
    }
    // No Origin: not a browser.
    let mut v = try_connect(&url, None)
        .await
        .expect("no Origin is accepted");
    assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_is_required_when_set() {
    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    std::fs::write(dist.path().join("live.html"), "<html><head></head></html>").unwrap();
    let mut c = config(&[ns.addr()], dist.path());
    c.token = Some("s3cret".into());
    let bridge = start(c).await;
    assert!(bridge.url().ends_with("/?token=s3cret"), "{}", bridge.url());

    for query in ["", "?token=", "?token=wrong", "?other=s3cret"] {
        let got = try_connect(&ws_url(&bridge, query), None).await.err();
        assert_eq!(got, Some(401), "{query:?}");
    }
    let mut v = try_connect(&ws_url(&bridge, "?token=s3cret"), None)
        .await
        .expect("the right token is accepted");
    assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));

    // The page hands the token to the dashboard only to someone who opened it with the token.
    let (_, with) = http_get(&bridge, "/?token=s3cret").await;
    assert!(with.contains(r#"<meta name="routelab-live" content="/ws?token=s3cret"></head>"#));
    let (_, without) = http_get(&bridge, "/").await;
    assert!(without.contains(r#"<meta name="routelab-live" content="/ws"></head>"#));
    assert!(!without.contains("s3cret"));
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dashboard_is_served_with_the_live_marker() {
    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    let live = "<!DOCTYPE html><html><head><title>RouteLab live</title></head><body></body></html>";
    let workshop = "<!DOCTYPE html><html><head><title>RouteLab</title></head><body></body></html>";
    std::fs::write(dist.path().join("live.html"), live).unwrap();
    std::fs::write(dist.path().join("index.html"), workshop).unwrap();
    std::fs::write(dist.path().join("app.js"), "console.log(1)").unwrap();
    let bridge = start(config(&[ns.addr()], dist.path())).await;

    // `/` is live mode's page, marked; the workshop beside it is served as built (fork opens it).
    let marked = r#"<title>RouteLab live</title><meta name="routelab-live" content="/ws"></head>"#;
    for path in ["/", "/live.html"] {
        let (status, body) = http_get(&bridge, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(marked), "{path}: {body}");
    }
    assert_eq!(
        http_get(&bridge, "/index.html").await,
        (200, workshop.into())
    );
    assert_eq!(
        http_get(&bridge, "/app.js").await,
        (200, "console.log(1)".into())
    );
    assert_eq!(http_get(&bridge, "/missing.js").await.0, 404);
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_built_dashboard_the_page_says_how_and_the_rest_works() {
    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    let bridge = start(config(&[ns.addr()], &dist.path().join("nothing"))).await;
    let (status, body) = http_get(&bridge, "/").await;
    assert_eq!(status, 200);
    assert!(body.contains("trunk build --release"), "{body}");
    assert_eq!(http_get(&bridge, "/metrics").await.0, 200);
    let mut v = try_connect(&ws_url(&bridge, ""), None)
        .await
        .expect("/ws works");
    assert!(matches!(v.next().await, ServerMessage::Snapshot(_)));
    bridge.shutdown().await;
}

/// Connections held open without a request (slowloris) take at most the cap of open connections
/// (viewer slots plus a margin): one more waits unserved, and is served as soon as one closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_beyond_the_cap_wait_for_a_slot() {
    use routelab::host::web::conn_limit::EXTRA_HTTP_CONNECTIONS;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    let ns = Peer::start();
    let dist = ScratchDir::new("dist");
    let mut c = config(&[ns.addr()], dist.path());
    c.max_viewers = 1;
    let bridge = start(c).await;
    let addr = bridge.local_addr();
    let cap = 1 + EXTRA_HTTP_CONNECTIONS;

    let mut idle = Vec::new();
    for _ in 0..cap {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    let mut late = TcpStream::connect(addr).await.unwrap();
    late.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut first = [0u8; 12];
    let early = tokio::time::timeout(
        std::time::Duration::from_millis(800),
        late.read_exact(&mut first),
    )
    .await;
    assert!(early.is_err(), "served past the cap of {cap} connections");

    drop(idle.pop());
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        late.read_exact(&mut first),
    )
    .await
    .expect("served once a slot freed")
    .unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");

    // The bridge kept serving throughout: a fresh request after the idle ones close.
    drop(idle);
    let (status, _) = http_get(&bridge, "/metrics").await;
    assert_eq!(status, 200);
    bridge.shutdown().await;
}
