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

use std::collections::{BTreeMap, BTreeSet};

use bridge::{config, connect, start, view};
use ours::Ours;
use peer::{register_broker, topics, ScratchDir};
use routelab::namesrv::Profile;
use routelab::remoting::RequestCode as Rc;

/// Requests handled so far, by code, as `/metrics` reports them.
fn handled(ns: &Ours) -> BTreeMap<i32, u64> {
    let shared = ns.handle().shared();
    let text = shared.with_state(|s| shared.metrics().render(s.routes.broker_live_table(), 0));
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
