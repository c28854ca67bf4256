//! The bridge against the real peer NameServer (rocketmq-rust's rocketmq-namesrv), watched through
//! a real WebSocket: the snapshot as documented, then a broker leaving, a topic appearing, the
//! NameServer dying (failing, old data kept, the other NameServer untouched) and coming back, each
//! as updates; /metrics; routes spread over polls for a cluster with many topics.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/bridge.rs"]
mod bridge;
#[path = "support/peer.rs"]
mod peer;

use bridge::{config, connect, http_get, is_ok, metric, start, view};
use peer::{register_broker, topics, Peer, ScratchDir};
use routelab::live::{NamesrvStatus, ServerMessage, SourceKind, PROTOCOL_VERSION};

fn groups(state: &routelab::live::LiveState, ns: &str, topic: &str) -> Vec<String> {
    view(state, ns)
        .and_then(|v| v.routes.get(topic))
        .and_then(|e| e.route.as_ref())
        .map(|r| {
            r.broker_datas
                .iter()
                .map(|b| b.broker_name.to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_on_the_namesrv_arrive_as_updates() {
    let mut ns1 = Peer::start();
    let ns2 = Peer::start();
    let (a1, a2) = (ns1.addr(), ns2.addr());
    let broker_a = register_broker(
        &a1,
        "DefaultCluster",
        "broker-a",
        0,
        "127.0.0.1:10911",
        topics(&["TopicTest", "SELF_TEST_TOPIC"]),
    )
    .await;
    let broker_b = register_broker(
        &a1,
        "DefaultCluster",
        "broker-b",
        0,
        "127.0.0.1:10931",
        topics(&["TopicTest", "SELF_TEST_TOPIC"]),
    )
    .await;
    let _on_ns2 = register_broker(
        &a2,
        "OtherCluster",
        "broker-c",
        0,
        "127.0.0.1:10951",
        topics(&["Elsewhere", "SELF_TEST_TOPIC"]),
    )
    .await;
    let dist = ScratchDir::new("dist");
    let bridge = start(config(&[a1.clone(), a2.clone()], dist.path())).await;

    // The first message is a full snapshot as documented.
    let mut v = connect(&bridge).await;
    let first = v.next().await;
    let ServerMessage::Snapshot(snap) = first else {
        panic!("a snapshot first, got {first:?}")
    };
    assert_eq!(snap.protocol, PROTOCOL_VERSION);
    assert_eq!(snap.source.kind, SourceKind::Bridge);
    assert!(snap.source.read_only);
    assert_eq!(snap.source.interval_ms, 300);
    assert_eq!(snap.source.version, routelab::VERSION);
    let addrs: Vec<_> = snap.namesrvs.iter().map(|n| n.addr.clone()).collect();
    assert_eq!(addrs, [a1.clone(), a2.clone()]);
    let json: serde_json::Value = serde_json::from_str(&v.texts[0]).unwrap();
    assert_eq!(json["type"], "snapshot");
    assert!(json["sent_at_ms"].as_u64().unwrap() > 1_600_000_000_000);

    v.wait_until("both brokers with their routes", |s| {
        is_ok(s, &a1) && groups(s, &a1, "TopicTest") == ["broker-a", "broker-b"]
    })
    .await;
    let seen = v.texts.len();
    {
        // The documented shape: RocketMQ's names in cluster info and routes.
        let snap = serde_json::to_value(&v.state.namesrvs).unwrap();
        let ns = &snap[0];
        assert_eq!(ns["status"], "ok");
        assert_eq!(
            ns["cluster"]["clusterAddrTable"]["DefaultCluster"],
            serde_json::json!(["broker-a", "broker-b"])
        );
        assert_eq!(
            ns["cluster"]["brokerAddrTable"]["broker-a"]["brokerAddrs"]["0"],
            "127.0.0.1:10911"
        );
        assert_eq!(
            ns["topics"],
            serde_json::json!(["SELF_TEST_TOPIC", "TopicTest"])
        );
        let route = &ns["routes"]["TopicTest"];
        assert!(route["fetched_at_ms"].as_u64().unwrap() > 0);
        assert_eq!(route["route"]["queueDatas"][0]["writeQueueNums"], 4);
        assert_eq!(route["route"]["brokerDatas"][1]["brokerName"], "broker-b");
    }

    // A broker leaves (its registering connection closes).
    broker_b.close();
    v.wait_until("broker-b gone from cluster info and the route", |s| {
        let ns = view(s, &a1).unwrap();
        !ns.cluster.broker_addr_table.contains_key("broker-b")
            && groups(s, &a1, "TopicTest") == ["broker-a"]
    })
    .await;

    // A topic appears (the broker registers again with one more topic).
    let mut broker_a = broker_a;
    broker_a
        .reregister(Some(topics(&["TopicTest", "SELF_TEST_TOPIC", "NewTopic"])))
        .await;
    v.wait_until("NewTopic listed with its route", |s| {
        let ns = view(s, &a1).unwrap();
        ns.topics.contains("NewTopic") && groups(s, &a1, "NewTopic") == ["broker-a"]
    })
    .await;
    for text in &v.texts[seen..] {
        assert!(
            text.starts_with(r#"{"type":"update""#),
            "only updates after the snapshot: {text}"
        );
    }

    // The NameServer dies: failing with a reason, what it knew kept, the other one still ok.
    ns1.kill();
    v.wait_until("ns1 failing", |s| {
        view(s, &a1).unwrap().status == NamesrvStatus::Failing
    })
    .await;
    let failing = view(&v.state, &a1).unwrap().clone();
    assert!(!failing.error.as_deref().unwrap_or("").is_empty());
    assert!(
        failing.cluster.broker_addr_table.contains_key("broker-a"),
        "old data kept"
    );
    assert!(failing.topics.contains("NewTopic"));
    assert!(failing.routes["NewTopic"].route.is_some());
    assert!(failing.fetched_at_ms.is_some());
    assert!(is_ok(&v.state, &a2), "only the dead NameServer is failing");
    assert_eq!(groups(&v.state, &a2, "Elsewhere"), ["broker-c"]);

    // /metrics has the documented series, with the failure counted.
    let (status, text) = http_get(&bridge, "/metrics").await;
    assert_eq!(status, 200);
    let l1 = format!("{{namesrv=\"{a1}\"}}");
    assert!(metric(&text, &format!("routelab_bridge_poll_errors_total{l1}")).unwrap() >= 1.0);
    assert_eq!(
        metric(&text, &format!("routelab_bridge_namesrv_up{l1}")),
        Some(0.0)
    );
    assert_eq!(
        metric(&text, &format!("routelab_bridge_topics{l1}")),
        Some(3.0)
    );
    assert!(metric(&text, &format!("routelab_bridge_routes_fetched_total{l1}")).unwrap() >= 3.0);
    assert!(
        metric(
            &text,
            &format!("routelab_bridge_poll_duration_seconds_count{l1}")
        )
        .unwrap()
            >= 2.0
    );
    assert!(text.contains(&format!(
        "routelab_bridge_poll_duration_seconds_bucket{{namesrv=\"{a1}\",le=\"+Inf\"}}"
    )));
    assert_eq!(metric(&text, "routelab_bridge_viewers"), Some(1.0));
    assert!(
        metric(
            &text,
            "routelab_bridge_messages_sent_total{type=\"snapshot\"}"
        )
        .unwrap()
            >= 1.0
    );
    assert!(
        metric(
            &text,
            "routelab_bridge_messages_sent_total{type=\"update\"}"
        )
        .unwrap()
            >= 3.0
    );
    assert!(text.contains("# TYPE routelab_bridge_poll_duration_seconds histogram"));

    // It comes back (empty: brokers register again on their own schedule): ok again.
    ns1.restart();
    v.wait_until("ns1 ok again", |s| is_ok(s, &a1)).await;
    assert!(view(&v.state, &a1).unwrap().error.is_none());

    // The state the viewer rebuilt from updates is exactly the bridge's: a resync snapshot,
    // queued in order with the updates, equals the state just before it.
    v.send_text(r#"{"type":"resync"}"#).await;
    loop {
        let before = v.state.clone();
        if let ServerMessage::Snapshot(s) = v.next().await {
            assert_eq!(s.seq, before.seq);
            assert_eq!(s.namesrvs, before.namesrvs);
            break;
        }
    }
    bridge.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_topics_are_fetched_over_several_polls() {
    let ns = Peer::start();
    let addr = ns.addr();
    let names: Vec<String> = (0..60).map(|i| format!("Topic{i:02}")).collect();
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
    let mut c = config(std::slice::from_ref(&addr), dist.path());
    c.routes_per_poll = 10;
    // Slow enough that the viewer connects long before all six rounds are done.
    c.interval = std::time::Duration::from_secs(1);
    let bridge = start(c).await;
    let mut v = connect(&bridge).await;
    v.wait_until("the topic list", |s| {
        view(s, &addr).is_some_and(|n| n.topics.len() == 60)
    })
    .await;
    // Each poll fetches only its budget of routes.
    let first = view(&v.state, &addr).unwrap().routes.len();
    assert!(
        first % 10 == 0 && first < 60,
        "{first} routes after the first polls"
    );
    let polls = v
        .wait_until("every route", |s| {
            view(s, &addr).is_some_and(|ns| {
                ns.routes.len() == 60 && ns.routes.values().all(|e| e.route.is_some())
            })
        })
        .await;
    assert!(
        polls >= (60 - first) / 10,
        "10 routes a poll: {first} at first, then {polls} polls"
    );
    let times: std::collections::BTreeSet<u64> = view(&v.state, &addr)
        .unwrap()
        .routes
        .values()
        .map(|e| e.fetched_at_ms)
        .collect();
    assert!(times.len() > 1, "routes carry their own fetch times");

    // Sizes, for the record (`--nocapture`): a snapshot of 60 topics on one broker group, and the
    // update of a poll that changed nothing but times.
    v.send_text(r#"{"type":"resync"}"#).await;
    while !matches!(v.next().await, ServerMessage::Snapshot(_)) {}
    let snapshot = v.texts.last().map_or(0, String::len);
    v.next().await;
    let update = v.texts.last().map_or(0, String::len);
    eprintln!("sizes: snapshot of 60 topics {snapshot} bytes, idle update {update} bytes");
    assert!(
        update * 10 < snapshot,
        "an idle update is a small fraction of a snapshot"
    );
    bridge.shutdown().await;
}
