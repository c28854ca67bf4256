//! The bridge only reads: polling our NameServer, whose metrics count requests by code, it sends
//! nothing but GET_BROKER_CLUSTER_INFO, GET_ALL_TOPIC_LIST_FROM_NAMESERVER and
//! GET_ROUTEINFO_BY_TOPIC.
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

use std::collections::{BTreeMap, BTreeSet};

use bridge::{config, connect, start, view};
use ours::Ours;
use peer::{register_broker, topics, ScratchDir};
use routelab::namesrv::Profile;
use routelab::remoting::RequestCode as Rc;

/// Requests handled so far, by code, as `/metrics` reports them.
fn handled(ns: &Ours) -> BTreeMap<i32, u64> {
    let text = ns.handle().shared().metrics_text();
    let prefix = "routelab_namesrv_request_duration_seconds_count{code=\"";
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|rest| {
            let (code, rest) = rest.split_once('"').expect("a quoted code");
            let count = rest.rsplit(' ').next().expect("a value");
            (
                code.parse().expect("a code"),
                count.parse().expect("a count"),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_sends_only_read_requests() {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let addr = ns.addr();
    let _broker = register_broker(
        &addr,
        "DefaultCluster",
        "broker-a",
        0,
        "127.0.0.1:10911",
        // Two topics: 5.x refuses a first registration carrying only one.
        topics(&["TopicTest", "Other"]),
    )
    .await;
    let before = handled(&ns);
    assert!(before.contains_key(&Rc::REGISTER_BROKER), "{before:?}");

    let dist = ScratchDir::new("dist");
    let bridge = start(config(std::slice::from_ref(&addr), dist.path())).await;
    let mut v = connect(&bridge).await;
    v.wait_until("TopicTest's route", |s| {
        view(s, &addr).is_some_and(|n| n.routes.contains_key("TopicTest"))
    })
    .await;
    // A second poll: every poll sends an update.
    let seq = v.state.seq;
    v.wait_until("another poll", |s| s.seq > seq).await;
    bridge.shutdown().await;

    let after = handled(&ns);
    let sent: BTreeSet<i32> = after
        .iter()
        .filter(|(code, n)| before.get(code) != Some(n))
        .map(|(code, _)| *code)
        .collect();
    let reads = BTreeSet::from([
        Rc::GET_ROUTEINFO_BY_TOPIC,
        Rc::GET_BROKER_CLUSTER_INFO,
        Rc::GET_ALL_TOPIC_LIST_FROM_NAMESERVER,
    ]);
    assert_eq!(sent, reads, "before {before:?}, after {after:?}");
}

/// Our NameServer with `broker-a` a [`stand_in`] broker (topics TopicTest and the retry topic of
/// GID_a): the NameServer, the registration (dropping it unregisters), the broker's address and its
/// log of codes.
async fn registered_recording_broker() -> (Ours, peer::TestBroker, String, stand_in::Seen) {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (broker_addr, seen) = stand_in::start(stand_in::StandIn {
        dlq: Some(2),
        ..stand_in::StandIn::default()
    })
    .await;
    let broker = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        0,
        &broker_addr,
        topics(&["TopicTest", "%RETRY%GID_a", "%DLQ%GID_a"]),
    )
    .await;
    (ns, broker, broker_addr, seen)
}

/// With brokers polled (the default), a broker is sent nothing but GET_BROKER_RUNTIME_INFO,
/// GET_CONSUME_STATS, GET_CONSUMER_CONNECTION_LIST, GET_CONSUMER_RUNNING_INFO (for the member it
/// lists), QUERY_CONSUME_TIME_SPAN (for the topic with messages unread), GET_TOPIC_STATS_INFO
/// (for the group's dead-letter topic) and GET_ALL_PRODUCER_INFO (its producers); /metrics and the page's consumers show what it answered,
/// the queue's owner, its lag and the dead letters included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn brokers_are_only_read() {
    let (ns, _broker, broker_addr, seen) = registered_recording_broker().await;
    let addr = ns.addr();
    let dist = ScratchDir::new("dist");
    let mut cfg = config(std::slice::from_ref(&addr), dist.path());
    cfg.broker_interval = Some(std::time::Duration::from_millis(200));
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("GID_a's queue with its owner and its lag", |s| {
        s.consumers.as_ref().is_some_and(|c| {
            c.groups.iter().any(|g| {
                g.owners_known
                    && g.queues
                        .iter()
                        .any(|q| q.owner.is_some() && q.next_store_time_ms.is_some())
            })
        })
    })
    .await;
    let group = &v.state.consumers.as_ref().unwrap().groups[0];
    assert_eq!(group.group, "GID_a");
    assert_eq!(group.members[0].client_id, "10.0.0.9@m1");
    assert_eq!(group.members[0].queues_unknown, None);
    let health = group.members[0]
        .health
        .as_ref()
        .expect("its running info's figures");
    assert_eq!(
        (
            health.consume_rt_ms,
            health.consume_ok_tps,
            health.consume_failed_tps
        ),
        (812.5, 1.25, 0.5)
    );
    assert_eq!((health.failed_last_hour, health.cached), (1800, 5));
    assert_eq!(group.queues[0].cached, Some(5));
    let producers = &v.state.consumers.as_ref().unwrap().producers;
    assert_eq!(
        producers.len(),
        1,
        "the inner group left out: {producers:?}"
    );
    assert_eq!(producers[0].group, "PID_orders");
    assert_eq!(producers[0].members[0].client_addr, "10.0.0.5:50123");
    let q = &group.queues[0];
    assert_eq!(
        (
            q.topic.as_str(),
            q.queue_id,
            q.backlog(),
            q.owner.as_deref()
        ),
        ("TopicTest", 0, 5, Some("10.0.0.9@m1"))
    );
    // The stand-in said queue 0's first unread message was stored 192 s before it answered.
    let lag = v.state.server_time_ms as i64 - q.next_store_time_ms.unwrap();
    assert!((192_000..260_000).contains(&lag), "{lag}");
    let (status, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    assert_eq!(
        stand_in::codes(&seen),
        BTreeSet::from([
            Rc::GET_BROKER_RUNTIME_INFO,
            Rc::GET_CONSUME_STATS,
            Rc::GET_CONSUMER_CONNECTION_LIST,
            Rc::GET_CONSUMER_RUNNING_INFO,
            Rc::QUERY_CONSUME_TIME_SPAN,
            Rc::GET_TOPIC_STATS_INFO,
            Rc::GET_ALL_PRODUCER_INFO,
        ]),
        "{:?}",
        seen.lock().unwrap()
    );
    let age = bridge::metric(
        &text,
        "routelab_backlog_age_seconds{cluster=\"DefaultCluster\",group=\"GID_a\",topic=\"TopicTest\"}",
    )
    .unwrap_or_else(|| panic!("no backlog age in {text}"));
    assert!((192.0..300.0).contains(&age), "{age}");
    assert_eq!(status, 200);
    let up = format!("routelab_broker_up{{broker=\"broker-a\",addr=\"{broker_addr}\"}} 1");
    assert!(text.contains(&up), "{text}");
    assert!(
        text.contains(&format!(
            "routelab_broker_put_tps{{broker=\"broker-a\",addr=\"{broker_addr}\"}} 1.5"
        )),
        "{text}"
    );
    assert!(
        text.contains("routelab_consumers_online{group=\"GID_a\"} 1"),
        "{text}"
    );
    assert_eq!(
        bridge::metric(
            &text,
            "routelab_client_consume_rt_seconds{group=\"GID_a\",client_id=\"10.0.0.9@m1\"}"
        ),
        Some(0.8125),
        "{text}"
    );
}

/// `--no-brokers`: no broker is ever asked, and /metrics has no broker families.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_brokers_asks_no_broker() {
    let (ns, _broker, _, seen) = registered_recording_broker().await;
    let addr = ns.addr();
    let dist = ScratchDir::new("dist");
    let mut cfg = config(std::slice::from_ref(&addr), dist.path());
    cfg.broker_interval = None;
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("TopicTest's route", |s| {
        view(s, &addr).is_some_and(|n| n.routes.contains_key("TopicTest"))
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (_, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    assert!(
        seen.lock().unwrap().is_empty(),
        "{:?}",
        seen.lock().unwrap()
    );
    assert!(!text.contains("routelab_backlog"), "{text}");
}
