//! A real broker written by others, rocketmq-rust's `rocketmq-broker` 1.0.0 (installed by
//! `scripts/setup --peer`), against our NameServer started in-process: it registers with its system
//! topics, a topic created on it reaches our route through REGISTER_TOPIC_IN_NAMESRV (217), SIGTERM
//! makes it unregister (104), and SIGKILL drops it as soon as its connection closes. Which request
//! did what is read from our server's `/metrics` (request counts by code).
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/broker.rs"]
mod broker;
#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use broker::Broker;
use ours::{call, client_with, raw, Ours, PATIENCE};
use routelab::model::ClusterInfo;
use routelab::namesrv::Profile;
use routelab::net::{ClientConfig, NamesrvClient};
use routelab::remoting::RequestCode as Rc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Some of the system topics every broker registers (it sends 14; the set varies by version).
const SYSTEM_TOPICS: [&str; 4] = [
    "TBW102",
    "SCHEDULE_TOPIC_XXXX",
    "RMQ_SYS_TRANS_HALF_TOPIC",
    "OFFSET_MOVED_EVENT",
];

/// Polls `probe` until it gives `Some`, failing with `what` (and `context()`) after [`PATIENCE`].
async fn wait_for<T, F, Fut>(what: &str, context: impl Fn() -> String, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(v) = probe().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out after {PATIENCE:?} waiting for {what}; {}",
            context()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How many requests with `code` our server has handled (`/metrics`, histogram count).
async fn handled(ws: SocketAddr, code: i32) -> u64 {
    let mut s = TcpStream::connect(ws).await.expect("cannot reach /metrics");
    let req = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(PATIENCE, s.read_to_end(&mut raw))
        .await
        .expect("/metrics timed out")
        .unwrap();
    let text = String::from_utf8_lossy(&raw);
    let prefix = format!("routelab_namesrv_request_duration_seconds_count{{code=\"{code}\",");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map(|rest| {
            let n = rest.rsplit(' ').next().expect("a value");
            n.parse().unwrap_or_else(|e| panic!("{n}: {e}"))
        })
        .unwrap_or(0)
}

/// The broker's addresses in our cluster info, if it is there.
fn registered(info: &ClusterInfo, b: &Broker) -> Option<Vec<(i64, String)>> {
    let data = info.broker_addr_table.get(b.name())?;
    let in_cluster = info
        .cluster_addr_table
        .get(b.cluster())
        .is_some_and(|names| names.contains(b.name()));
    assert!(
        in_cluster,
        "{} is not listed in its cluster: {info:?}",
        b.name()
    );
    Some(
        data.broker_addrs
            .iter()
            .map(|(id, addr)| (*id, addr.to_string()))
            .collect(),
    )
}

async fn wait_registered(c: &NamesrvClient, b: &Broker) {
    let addrs = wait_for(
        &format!("{} to register", b.name()),
        || format!("broker log:\n{}", b.log()),
        || async { registered(&c.cluster_info().await.ok()?, b) },
    )
    .await;
    assert_eq!(addrs, vec![(0, b.addr())]);
}

async fn wait_gone(c: &NamesrvClient, b: &Broker) {
    wait_for(
        &format!("{} to leave the cluster info", b.name()),
        || format!("broker log:\n{}", b.log()),
        || async {
            let info = c.cluster_info().await.ok()?;
            (!info.broker_addr_table.contains_key(b.name())).then_some(())
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_broker_registers_creates_a_topic_and_leaves() {
    let ns = Ours::start(Profile::V5, |c| c.ws = Some("127.0.0.1:0".parse().unwrap())).await;
    let ws = ns.handle().ws_addr().expect("--ws is on");
    let c = ns.client().await;

    // 1. It registers, with its system topics.
    let mut broker = tokio::task::block_in_place(|| Broker::start(&ns.addr(), "broker-interop"));
    wait_registered(&c, &broker).await;
    assert!(handled(ws, Rc::REGISTER_BROKER).await >= 1);
    let topics = c.all_topics().await.unwrap();
    let own = [broker.name(), broker.cluster()];
    for t in SYSTEM_TOPICS.iter().chain(&own) {
        assert!(topics.contains(*t), "{t} missing from {topics:?}");
    }
    assert!(
        topics.len() >= 10,
        "only {} topics: {topics:?}",
        topics.len()
    );
    let tbw = c
        .route("TBW102")
        .await
        .unwrap()
        .expect("TBW102 has a route");
    let data = tbw
        .broker_data(broker.name())
        .expect("the broker serves TBW102");
    assert_eq!(data.cluster.as_str(), broker.cluster());

    // 2. A topic created on the broker (UPDATE_AND_CREATE_TOPIC, 17, on the broker's own port)
    //    reaches our route without waiting for the next registration.
    let bc = client_with(&broker.addr(), ClientConfig::default()).await;
    let create = raw(
        Rc::UPDATE_AND_CREATE_TOPIC,
        &[
            ("topic", "InteropTopic"),
            ("defaultTopic", "TBW102"),
            ("readQueueNums", "3"),
            ("writeQueueNums", "2"),
            ("perm", "6"),
            ("topicFilterType", "SINGLE_TAG"),
            ("topicSysFlag", "0"),
            ("order", "false"),
        ],
        479,
    );
    let answer = call(&bc, create, b"").await.command;
    assert_eq!(answer.code, 0, "the broker refused the topic: {answer:?}");
    bc.close();
    let route = wait_for(
        "InteropTopic in our route",
        || format!("broker log:\n{}", broker.log()),
        || async { c.route("InteropTopic").await.ok().flatten() },
    )
    .await;
    let q = &route.queue_datas;
    assert_eq!(q.len(), 1, "{route:?}");
    assert_eq!(q[0].broker_name.as_str(), broker.name());
    assert_eq!(
        (q[0].read_queue_nums, q[0].write_queue_nums, q[0].perm),
        (3, 2, 6)
    );
    let b = route.broker_data(broker.name()).expect("the broker");
    assert_eq!(
        b.broker_addrs.get(&0).map(|a| a.to_string()),
        Some(broker.addr())
    );
    // The topic may reach the route first through the broker's periodic REGISTER_BROKER (it
    // registers again 10 s after its start), and a request is counted only after its answer: so
    // wait for the count rather than read it once.
    wait_for(
        "the broker to push the topic with REGISTER_TOPIC_IN_NAMESRV",
        || format!("broker log:\n{}", broker.log()),
        || async { (handled(ws, Rc::REGISTER_TOPIC_IN_NAMESRV).await >= 1).then_some(()) },
    )
    .await;

    // 3. SIGTERM: it says goodbye with UNREGISTER_BROKER, and everything it served goes.
    assert_eq!(handled(ws, Rc::UNREGISTER_BROKER).await, 0);
    let status = tokio::task::block_in_place(|| broker.terminate());
    assert!(status.success(), "exit after SIGTERM: {status:?}");
    wait_gone(&c, &broker).await;
    assert_eq!(handled(ws, Rc::UNREGISTER_BROKER).await, 1);
    assert_eq!(c.route("InteropTopic").await.unwrap(), None);
    drop(broker);

    // 4. SIGKILL: nothing is said; the closed connection removes it at once (the other way out,
    //    the expiry scan, would take 120 s: far beyond the wait's deadline).
    let mut broker = tokio::task::block_in_place(|| Broker::start(&ns.addr(), "broker-killed"));
    wait_registered(&c, &broker).await;
    tokio::task::block_in_place(|| broker.kill());
    wait_gone(&c, &broker).await;
    assert_eq!(
        handled(ws, Rc::UNREGISTER_BROKER).await,
        1,
        "a killed broker cannot have unregistered"
    );
    assert_eq!(c.route("TBW102").await.unwrap(), None);
}
