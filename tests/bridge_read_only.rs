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

/// A broker that records the codes it is sent and answers each as a broker with one group member
/// would: a runtime table, GID_a's offsets on TopicTest's queue 0 (5 behind), one member online,
/// and that member's running info passed on (it holds queue 0). Any other code gets
/// REQUEST_CODE_NOT_SUPPORTED (and is recorded too).
async fn recording_broker() -> (String, std::sync::Arc<std::sync::Mutex<Vec<i32>>>) {
    use futures_util::{SinkExt, StreamExt};
    use routelab::remoting::RemotingCodec;
    use routelab::remoting::{Frame, RemotingCommand, ResponseCode};
    use tokio_util::codec::Framed;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let log = std::sync::Arc::clone(&log);
            tokio::spawn(async move {
                let mut framed = Framed::new(socket, RemotingCodec::new(1 << 20));
                while let Some(Ok(frame)) = framed.next().await {
                    let code = frame.command.code;
                    log.lock().unwrap().push(code);
                    let (answer, body): (i32, &[u8]) = match code {
                        Rc::GET_BROKER_RUNTIME_INFO => (
                            ResponseCode::SUCCESS,
                            br#"{"table":{"putTps":"1.5 1.0 0.5"}}"#,
                        ),
                        Rc::GET_CONSUME_STATS => (
                            ResponseCode::SUCCESS,
                            br#"{"offsetTable":{{"brokerName":"broker-a","queueId":0,"topic":"TopicTest"}:{"brokerOffset":9,"consumerOffset":4,"lastTimestamp":0}},"consumeTps":0.0}"#,
                        ),
                        Rc::GET_CONSUMER_CONNECTION_LIST => (
                            ResponseCode::SUCCESS,
                            br#"{"connectionSet":[{"clientAddr":"10.0.0.9:5000","clientId":"10.0.0.9@m1","language":"JAVA","version":435}],"consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","subscriptionTable":{}}"#,
                        ),
                        Rc::GET_CONSUMER_RUNNING_INFO => (
                            ResponseCode::SUCCESS,
                            br#"{"mqTable":{{"brokerName":"broker-a","queueId":0,"topic":"TopicTest"}:{"commitOffset":4}},"properties":{}}"#,
                        ),
                        _ => (ResponseCode::REQUEST_CODE_NOT_SUPPORTED, b""),
                    };
                    let response = RemotingCommand::response_to(&frame.command, answer, None);
                    if framed
                        .send(Frame::new(response, body.to_vec()))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
    });
    (addr, seen)
}

/// Our NameServer with `broker-a` a [`recording_broker`] (topics TopicTest and the retry topic of
/// GID_a): the NameServer, the registration (dropping it unregisters), the broker's address and its
/// log of codes.
async fn registered_recording_broker() -> (
    Ours,
    peer::TestBroker,
    String,
    std::sync::Arc<std::sync::Mutex<Vec<i32>>>,
) {
    let ns = Ours::start(Profile::V5, |_| {}).await;
    let (broker_addr, seen) = recording_broker().await;
    let broker = register_broker(
        &ns.addr(),
        "DefaultCluster",
        "broker-a",
        0,
        &broker_addr,
        topics(&["TopicTest", "%RETRY%GID_a"]),
    )
    .await;
    (ns, broker, broker_addr, seen)
}

/// With brokers polled (the default), a broker is sent nothing but GET_BROKER_RUNTIME_INFO,
/// GET_CONSUME_STATS, GET_CONSUMER_CONNECTION_LIST and GET_CONSUMER_RUNNING_INFO (for the member it
/// lists); /metrics and the page's consumers show what it answered, the queue's owner included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn brokers_are_only_read() {
    let (ns, _broker, broker_addr, seen) = registered_recording_broker().await;
    let addr = ns.addr();
    let dist = ScratchDir::new("dist");
    let mut cfg = config(std::slice::from_ref(&addr), dist.path());
    cfg.broker_interval = Some(std::time::Duration::from_millis(200));
    let bridge = start(cfg).await;
    let mut v = connect(&bridge).await;
    v.wait_until("GID_a's queue with its owner", |s| {
        s.consumers.as_ref().is_some_and(|c| {
            c.groups
                .iter()
                .any(|g| g.owners_known && g.queues.iter().any(|q| q.owner.is_some()))
        })
    })
    .await;
    let group = &v.state.consumers.as_ref().unwrap().groups[0];
    assert_eq!(group.group, "GID_a");
    assert_eq!(group.members[0].client_id, "10.0.0.9@m1");
    assert_eq!(group.members[0].queues_unknown, None);
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
    let (status, text) = bridge::http_get(&bridge, "/metrics").await;
    bridge.shutdown().await;
    let codes: BTreeSet<i32> = seen.lock().unwrap().iter().copied().collect();
    assert_eq!(
        codes,
        BTreeSet::from([
            Rc::GET_BROKER_RUNTIME_INFO,
            Rc::GET_CONSUME_STATS,
            Rc::GET_CONSUMER_CONNECTION_LIST,
            Rc::GET_CONSUMER_RUNNING_INFO,
        ]),
        "{:?}",
        seen.lock().unwrap()
    );
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
