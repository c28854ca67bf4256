//! The bridge's broker polls against brokers that misbehave: one that answers garbage, one that
//! sends a frame larger than the client accepts, one that accepts and never answers. Each is shown
//! as failing with why, the others are read, and the NameServer polls never wait for them.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::time::{Duration, Instant};

use bridge::{config, connect, start};
use ours::Ours;
use peer::{register_broker, topics, ScratchDir};
use routelab::namesrv::Profile;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How a fake broker behaves once a request arrives.
#[derive(Clone, Copy)]
enum Misbehaviour {
    /// Answers with bytes that are not a frame.
    Garbage,
    /// Announces a 64 MiB frame (the client's limit is 16 MiB).
    Huge,
    /// Reads and never answers.
    Hang,
}

async fn bad_broker(how: Misbehaviour) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                if socket.read(&mut buf).await.unwrap_or(0) == 0 {
                    return;
                }
                match how {
                    Misbehaviour::Garbage => {
                        let _ = socket
                            .write_all(b"\0\0\0\x10\0\0\0\x08not json at all!")
                            .await;
                    }
                    Misbehaviour::Huge => {
                        let _ = socket.write_all(&(64u32 << 20).to_be_bytes()).await;
                        let _ = socket.write_all(&[0u8; 1024]).await;
                    }
                    Misbehaviour::Hang => {}
                }
                // Keep the connection open without answering further.
                tokio::time::sleep(Duration::from_secs(60)).await;
            });
        }
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn misbehaving_brokers_are_shown_failing_and_delay_nothing() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let addr = ns.addr();
    let mut registered = Vec::new();
    for (name, how) in [
        ("broker-garbage", Misbehaviour::Garbage),
        ("broker-huge", Misbehaviour::Huge),
        ("broker-hang", Misbehaviour::Hang),
    ] {
        let broker_addr = bad_broker(how).await;
        registered.push(
            register_broker(
                &addr,
                "DefaultCluster",
                name,
                0,
                &broker_addr,
                topics(&["TopicTest", "%RETRY%GID_a"]),
            )
            .await,
        );
    }
    let dist = ScratchDir::new("dist");
    let mut cfg = config(std::slice::from_ref(&addr), dist.path());
    cfg.interval = Duration::from_millis(200);
    cfg.broker_interval = Some(Duration::from_millis(200));
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    // NameServer polls go on every 200 ms while a broker hangs (its turn waits for a deadline of
    // several seconds): ten polls come well before that.
    let started = Instant::now();
    let seq = v.state.seq;
    v.wait_until("ten NameServer polls", |s| {
        s.namesrvs
            .first()
            .is_some_and(|n| n.fetched_at_ms.is_some())
            && s.seq >= seq + 10
    })
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // Then a round of broker polls ends: each broker failing, with why.
    v.wait_until("a broker round with the three brokers", |s| {
        s.consumers
            .as_ref()
            .is_some_and(|c| c.brokers.len() == 3 && c.brokers.iter().all(|b| b.error.is_some()))
    })
    .await;
    let consumers = v.state.consumers.clone().unwrap();
    let error = |name: &str| {
        consumers
            .brokers
            .iter()
            .find(|b| b.broker_name == name)
            .and_then(|b| b.error.clone())
            .unwrap()
    };
    assert!(!error("broker-garbage").is_empty());
    assert!(
        error("broker-huge").contains("exceeds the maximum frame length"),
        "{}",
        error("broker-huge")
    );
    assert!(
        error("broker-hang").contains("no response to GET_BROKER_RUNTIME_INFO"),
        "{}",
        error("broker-hang")
    );
    // The group is listed, with nobody online and no backlog known.
    assert_eq!(consumers.groups.len(), 1);
    assert_eq!(consumers.groups[0].group, "GID_a");
    let (status, text) = bridge::http_get(&bridge, "/metrics").await;
    assert_eq!(status, 200);
    for name in ["broker-garbage", "broker-huge", "broker-hang"] {
        let prefix = format!("routelab_broker_up{{broker=\"{name}\",");
        let line = text
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(line.ends_with(" 0"), "{line}");
    }
    bridge.shutdown().await;
    drop(registered);
}
