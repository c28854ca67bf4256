//! Broker health as the bridge reads it: a master and its slave, each a broker stand-in whose
//! runtime table carries the keys a 5.3.3 broker sends (`tests/support/stand_in.rs`): the page
//! and /metrics show each one's disk, put latency and send-queue wait and the slave's gap to the
//! master; a disk over 85 % raises broker_disk_full; a slave that does not answer is named while
//! the master is still read. A group's dead-letter topic, counted where a broker has it. A topic's
//! production as a counter and a rate.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;
#[path = "support/stand_in.rs"]
mod stand_in;

use std::time::Duration;

use bridge::{config, connect, start};
use ours::Ours;
use peer::{register_broker, topics, ScratchDir};
use routelab::namesrv::Profile;
use stand_in::StandIn;

const MASTER: &str = r#""putTps":"1.5","commitLogDiskRatio":"0.8712","putLatency99":"3.50","pageCacheLockTimeMills":"2","sendThreadPoolQueueHeadWaitTimeMills":"12","commitLogMaxOffset":"10000""#;
const SLAVE: &str = r#""commitLogDiskRatio":"0.40","commitLogMaxOffset":"5904""#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_master_and_its_slave_with_their_health() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (master, _) = stand_in::start(StandIn {
        runtime: MASTER,
        ..StandIn::default()
    })
    .await;
    let (slave, _) = stand_in::start(StandIn {
        runtime: SLAVE,
        ..StandIn::default()
    })
    .await;
    let t = topics(&["TopicTest", "%RETRY%GID_a"]);
    let _m = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        0,
        &master,
        t.clone(),
    )
    .await;
    let _s = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        1,
        &slave,
        t.clone(),
    )
    .await;
    // A second slave nobody listens at.
    let _gone = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        2,
        "127.0.0.1:1",
        t,
    )
    .await;
    let dist = ScratchDir::new("dist");
    let mut cfg = config(&[ns.addr()], dist.path());
    cfg.broker_interval = Some(Duration::from_millis(200));
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("broker-a with its two slaves read", |s| {
        s.consumers
            .as_ref()
            .is_some_and(|c| c.brokers.iter().any(|b| b.slaves.len() == 2))
    })
    .await;
    let b = &v.state.consumers.as_ref().unwrap().brokers[0];
    let h = b.health.as_ref().unwrap();
    assert_eq!(
        (h.disk_ratio, h.put_latency_99_ms, h.send_queue_wait_ms),
        (Some(0.8712), Some(3.5), Some(12.0))
    );
    assert_eq!(b.slaves[0].addr, slave);
    assert_eq!(b.slaves[0].behind_bytes, Some(4_096));
    assert_eq!(b.slaves[0].health.as_ref().unwrap().disk_ratio, Some(0.4));
    assert!(
        b.slaves[1]
            .error
            .as_deref()
            .unwrap()
            .contains("cannot connect"),
        "{:?}",
        b.slaves[1]
    );
    assert_eq!(b.error, None, "the master is read whatever its slaves do");
    v.wait_until("broker_disk_full for the master", |s| {
        s.alerts
            .iter()
            .any(|a| a.rule == "broker_disk_full" && a.subject == master)
    })
    .await;
    let (_, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    let labels = |addr: &str| format!("{{broker=\"broker-a\",addr=\"{addr}\"}}");
    for (sample, want) in [
        (
            format!("routelab_broker_disk_ratio{}", labels(&master)),
            0.8712,
        ),
        (format!("routelab_broker_disk_ratio{}", labels(&slave)), 0.4),
        (
            format!("routelab_broker_put_latency_99_seconds{}", labels(&master)),
            0.0035,
        ),
        (
            format!("routelab_broker_send_queue_wait_seconds{}", labels(&master)),
            0.012,
        ),
        (
            format!("routelab_broker_replication_gap_bytes{}", labels(&slave)),
            4096.0,
        ),
    ] {
        assert_eq!(
            bridge::metric(&text, &sample),
            Some(want),
            "{sample} in {text}"
        );
    }
}

/// GID_a's dead-letter topic is listed: each broker is asked for its stats; the one that has it
/// counts 7 messages, the one that does not (TOPIC_NOT_EXIST) is no failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_letters_are_counted_where_a_broker_has_them() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (a, seen) = stand_in::start(StandIn {
        dlq: Some(7),
        ..StandIn::default()
    })
    .await;
    let (b, _) = stand_in::start(StandIn::default()).await;
    let t = topics(&["TopicTest", "%RETRY%GID_a", "%DLQ%GID_a"]);
    let _a = register_broker(&ns.addr(), "DefaultCluster", "broker-a", 0, &a, t.clone()).await;
    let _b = register_broker(&ns.addr(), "DefaultCluster", "broker-b", 0, &b, t).await;
    let dist = ScratchDir::new("dist");
    let mut cfg = config(&[ns.addr()], dist.path());
    cfg.broker_interval = Some(Duration::from_millis(200));
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("GID_a's dead letters counted", |s| {
        s.consumers
            .as_ref()
            .is_some_and(|c| c.groups.iter().any(|g| g.dlq == Some(7)))
    })
    .await;
    let consumers = v.state.consumers.as_ref().unwrap();
    assert!(
        consumers.brokers.iter().all(|b| b.error.is_none()),
        "{:?}",
        consumers.brokers
    );
    let (_, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    assert_eq!(
        bridge::metric(&text, "routelab_dlq_messages{group=\"GID_a\"}"),
        Some(7.0),
        "{text}"
    );
    assert!(seen.lock().unwrap().iter().any(|(code, ext)| *code
        == routelab::remoting::RequestCode::GET_TOPIC_STATS_INFO
        && ext.get("topic").map(String::as_str) == Some("%DLQ%GID_a")));
}

/// Orders, which no group consumes, is read with GET_TOPIC_STATS_INFO each round: a counter in
/// /metrics and, from the second reading on, a rate on the page. TopicTest's offsets come with
/// GID_a's consume stats, so it is never asked; RocketMQ's own topics neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn topic_offsets_give_a_rate() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (a, seen) = stand_in::start(StandIn::default()).await;
    let t = topics(&["TopicTest", "Orders", "%RETRY%GID_a"]);
    let _a = register_broker(&ns.addr(), "DefaultCluster", "broker-a", 0, &a, t).await;
    let dist = ScratchDir::new("dist");
    let mut cfg = config(&[ns.addr()], dist.path());
    cfg.broker_interval = Some(Duration::from_millis(200));
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("Orders busy", |s| {
        s.consumers.as_ref().is_some_and(|c| {
            c.topics
                .iter()
                .any(|t| t.topic == "Orders" && t.msgs_per_s > 0.0)
        })
    })
    .await;
    let (_, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    let sample = |topic: &str| {
        format!("routelab_topic_offset{{cluster=\"DefaultCluster\",topic=\"{topic}\",broker=\"broker-a\"}}")
    };
    let orders = bridge::metric(&text, &sample("Orders")).unwrap_or_else(|| panic!("{text}"));
    assert!(orders >= 100.0 && orders % 50.0 == 0.0, "{orders}");
    assert_eq!(
        bridge::metric(&text, &sample("TopicTest")),
        Some(9.0),
        "from GID_a's consume stats"
    );
    assert!(
        text.contains("# TYPE routelab_topic_offset counter"),
        "{text}"
    );
    let asked: Vec<String> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(code, _)| *code == routelab::remoting::RequestCode::GET_TOPIC_STATS_INFO)
        .filter_map(|(_, ext)| ext.get("topic").cloned())
        .collect();
    assert!(
        !asked.is_empty() && asked.iter().all(|t| t == "Orders"),
        "{asked:?}"
    );
}
