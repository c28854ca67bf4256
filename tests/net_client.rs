//! The NameServer client against a real NameServer written by others: rocketmq-rust's
//! `rocketmq-namesrv` (see `tests/support/peer.rs`; `scripts/setup --peer` installs it). Brokers are
//! registered over kept-open connections, as real brokers do, then every typed request is checked
//! against what the server must hold.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/peer.rs"]
mod peer;

use std::collections::{BTreeMap, BTreeSet};

use peer::{register_broker, topics, Peer, TestBroker};
use routelab::model::{TopicConfig, TopicRouteData};
use routelab::net::{ClientConfig, ClientError, NamesrvClient};
use routelab::remoting::headers::PutKvConfigRequestHeader;
use routelab::remoting::{CommandHeader, RemotingCommand, RequestCode, ResponseCode};

const CLUSTER: &str = "DefaultCluster";
const A_MASTER: &str = "127.0.0.1:10911";
const A_SLAVE: &str = "127.0.0.1:10921";
const B_MASTER: &str = "127.0.0.1:10931";

async fn client(peer: &Peer) -> NamesrvClient {
    NamesrvClient::connect(&peer.addr(), ClientConfig::default())
        .await
        .expect("cannot connect to the peer")
}

/// broker-a (master + slave) and broker-b, as a real cluster would; broker-a alone also has OnlyA.
async fn two_groups(peer: &Peer) -> Vec<TestBroker> {
    let addr = peer.addr();
    vec![
        register_broker(
            &addr,
            CLUSTER,
            "broker-a",
            0,
            A_MASTER,
            topics(&["TopicTest", "SELF_TEST_TOPIC", "OnlyA"]),
        )
        .await,
        register_broker(
            &addr,
            CLUSTER,
            "broker-a",
            1,
            A_SLAVE,
            topics(&["TopicTest", "SELF_TEST_TOPIC", "OnlyA"]),
        )
        .await,
        register_broker(
            &addr,
            CLUSTER,
            "broker-b",
            0,
            B_MASTER,
            topics(&["TopicTest", "SELF_TEST_TOPIC"]),
        )
        .await,
    ]
}

fn perm_of(route: &TopicRouteData, broker: &str) -> i32 {
    route
        .queue_datas
        .iter()
        .find(|q| q.broker_name == broker)
        .map(|q| q.perm)
        .unwrap_or_else(|| panic!("no queueData for {broker} in {route:?}"))
}

/// Registration answers: the slave learns its master's addresses; the master gets none.
#[tokio::test]
async fn register_answers_slaves_with_their_master() {
    let peer = Peer::start();
    let brokers = two_groups(&peer).await;
    let master = &brokers[0].response;
    assert!(
        master.master_addr.as_deref().unwrap_or("").is_empty(),
        "{master:?}"
    );
    let slave = &brokers[1].response;
    assert_eq!(slave.master_addr.as_deref(), Some(A_MASTER));
    assert_eq!(slave.ha_server_addr.as_deref(), Some("127.0.0.1:10912"));
}

/// Route, cluster info, topic lists: what the three registrations put in the tables.
#[tokio::test]
async fn queries_return_what_brokers_registered() {
    let peer = Peer::start();
    let _brokers = two_groups(&peer).await;
    let ns = client(&peer).await;

    let route = ns
        .route("TopicTest")
        .await
        .unwrap()
        .expect("TopicTest has a route");
    let names: BTreeSet<&str> = route
        .queue_datas
        .iter()
        .map(|q| q.broker_name.as_str())
        .collect();
    assert_eq!(names, BTreeSet::from(["broker-a", "broker-b"]));
    for q in &route.queue_datas {
        assert_eq!((q.read_queue_nums, q.write_queue_nums, q.perm), (4, 4, 6));
    }
    let a = route.broker_data("broker-a").unwrap();
    assert_eq!(a.cluster, CLUSTER);
    assert_eq!(
        a.broker_addrs
            .iter()
            .map(|(id, addr)| (*id, addr.as_str()))
            .collect::<Vec<_>>(),
        vec![(0, A_MASTER), (1, A_SLAVE)]
    );
    let only_a = ns.route("OnlyA").await.unwrap().unwrap();
    assert_eq!(only_a.queue_datas.len(), 1);
    assert_eq!(only_a.queue_datas[0].broker_name, "broker-a");

    let info = ns.cluster_info().await.unwrap();
    let groups: Vec<&str> = info.cluster_addr_table[CLUSTER]
        .iter()
        .map(|b| b.as_str())
        .collect();
    assert_eq!(groups, ["broker-a", "broker-b"]);
    assert_eq!(info.broker_addr_table["broker-b"].broker_addrs.len(), 1);
    assert_eq!(info.broker_addr_table["broker-a"].broker_addrs.len(), 2);

    let all = ns.all_topics().await.unwrap();
    assert_eq!(
        all,
        BTreeSet::from(["OnlyA".into(), "SELF_TEST_TOPIC".into(), "TopicTest".into()])
    );

    let by_cluster = ns.topics_by_cluster(CLUSTER).await.unwrap();
    let distinct: BTreeSet<String> = by_cluster.iter().cloned().collect();
    assert_eq!(distinct, all);
    // rocketmq-rust lists a topic once per broker group holding it (a known deviation); Java once.
    assert!(by_cluster.len() >= distinct.len(), "{by_cluster:?}");
    // Java answers an unknown cluster with an empty list; rocketmq-rust with BROKER_NOT_EXIST. The
    // client reports what the server said.
    match ns.topics_by_cluster("NoSuchCluster").await {
        Ok(list) => assert!(list.is_empty(), "{list:?}"),
        Err(ClientError::Remote { code, .. }) => assert_eq!(code, ResponseCode::BROKER_NOT_EXIST),
        Err(other) => panic!("unexpected {other:?}"),
    }
}

/// An unknown topic is Ok(None), not an error; the connection stays usable.
#[tokio::test]
async fn unknown_topic_is_none() {
    let peer = Peer::start();
    let ns = client(&peer).await;
    assert_eq!(ns.route("NoSuchTopic").await.unwrap(), None);
    assert!(!ns.is_closed());
    assert!(ns
        .cluster_info()
        .await
        .unwrap()
        .broker_addr_table
        .is_empty());
}

/// KV list: None for an unknown namespace, the table after PUT_KV_CONFIG (sent raw).
#[tokio::test]
async fn kv_list_after_put() {
    let peer = Peer::start();
    let ns = client(&peer).await;
    assert_eq!(ns.kv_list("ORDER_TOPIC_CONFIG").await.unwrap(), None);
    for (k, v) in [("TopicOrder", "broker-a:4;broker-b:4"), ("k2", "v=2")] {
        let header = PutKvConfigRequestHeader {
            namespace: "ORDER_TOPIC_CONFIG".into(),
            key: k.into(),
            value: v.into(),
        };
        let cmd = RemotingCommand::request(RequestCode::PUT_KV_CONFIG, header.to_ext_fields());
        let frame = ns.request(cmd, Vec::new()).await.unwrap();
        assert_eq!(
            frame.command.code,
            ResponseCode::SUCCESS,
            "{:?}",
            frame.command
        );
    }
    let table = ns.kv_list("ORDER_TOPIC_CONFIG").await.unwrap().unwrap();
    assert_eq!(
        table,
        BTreeMap::from([
            ("TopicOrder".to_owned(), "broker-a:4;broker-b:4".to_owned()),
            ("k2".to_owned(), "v=2".to_owned()),
        ])
    );
}

/// The server's configuration, parsed from properties text, includes what our config file set.
#[tokio::test]
async fn namesrv_config_is_parsed() {
    let peer = Peer::start();
    let ns = client(&peer).await;
    let config = ns.namesrv_config().await.unwrap();
    let home = peer.dir().display().to_string();
    assert_eq!(config.get("rocketmqHome"), Some(&home), "{config:#?}");
    assert_eq!(
        config
            .get("scanNotActiveBrokerInterval")
            .map(String::as_str),
        Some("5000")
    );
}

/// wipeWritePerm turns broker-a's queues read-only (perm 6 → 4) and reports how many topics
/// changed; addWritePerm restores them.
#[tokio::test]
async fn wipe_and_add_write_perm() {
    let peer = Peer::start();
    let _brokers = two_groups(&peer).await;
    let ns = client(&peer).await;
    assert_eq!(ns.wipe_write_perm("broker-a").await.unwrap(), 3);
    let route = ns.route("TopicTest").await.unwrap().unwrap();
    assert_eq!(perm_of(&route, "broker-a"), 4);
    assert_eq!(perm_of(&route, "broker-b"), 6);
    assert_eq!(ns.wipe_write_perm("no-such-broker").await.unwrap(), 0);
    assert_eq!(ns.add_write_perm("broker-a").await.unwrap(), 3);
    let route = ns.route("TopicTest").await.unwrap().unwrap();
    assert_eq!(perm_of(&route, "broker-a"), 6);
}

/// deleteTopic removes the topic's route (everywhere, or per cluster).
#[tokio::test]
async fn delete_topic_removes_the_route() {
    let peer = Peer::start();
    let _brokers = two_groups(&peer).await;
    let ns = client(&peer).await;
    ns.delete_topic("OnlyA", None).await.unwrap();
    assert_eq!(ns.route("OnlyA").await.unwrap(), None);
    assert!(!ns.all_topics().await.unwrap().contains("OnlyA"));
    ns.delete_topic("TopicTest", Some("OtherCluster"))
        .await
        .unwrap();
    assert!(ns.route("TopicTest").await.unwrap().is_some());
    ns.delete_topic("TopicTest", Some(CLUSTER)).await.unwrap();
    assert_eq!(ns.route("TopicTest").await.unwrap(), None);
}

/// Unregistering the slave leaves only the master in broker-a; closing the master's registering
/// connection removes the group.
#[tokio::test]
async fn unregister_and_connection_close() {
    let peer = Peer::start();
    let brokers = two_groups(&peer).await;
    let ns = client(&peer).await;
    brokers[1].unregister().await;
    // 5.x NameServers unregister through a batch queue, and a closed channel is handled by another
    // task: poll until the tables change (a hang here is bounded by the test runner, not a clock).
    let ids_of = |info: &routelab::model::ClusterInfo, name: &str| -> Vec<i64> {
        info.broker_addr_table
            .get(name)
            .map(|b| b.broker_addrs.keys().copied().collect())
            .unwrap_or_default()
    };
    while ids_of(&ns.cluster_info().await.unwrap(), "broker-a") != [0] {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    brokers[2].close();
    while !ids_of(&ns.cluster_info().await.unwrap(), "broker-b").is_empty() {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let route = ns.route("TopicTest").await.unwrap().unwrap();
    assert_eq!(route.queue_datas.len(), 1);
}

/// A non-success answer becomes Remote with the code named; the connection stays usable.
#[tokio::test]
async fn remote_errors_name_the_code() {
    let peer = Peer::start();
    let ns = client(&peer).await;
    // rocketmq-rust answers codes it does not handle with 16 (Java: 3).
    let frame = ns
        .request(
            RemotingCommand::request(99_999, BTreeMap::new()),
            Vec::new(),
        )
        .await
        .unwrap();
    assert_ne!(frame.command.code, ResponseCode::SUCCESS);
    // A register of a single topic for a new id of an existing group is accepted with code 0 but
    // dropped; a bad body is rejected with a Remote error instead.
    let header = routelab::remoting::headers::RegisterBrokerRequestHeader {
        broker_name: "broker-x".into(),
        broker_addr: "127.0.0.1:1".into(),
        cluster_name: CLUSTER.into(),
        ha_server_addr: "127.0.0.1:2".into(),
        ..Default::default()
    };
    let mut cmd = RemotingCommand::request(RequestCode::REGISTER_BROKER, header.to_ext_fields());
    cmd.ext_fields.insert("bodyCrc32".into(), "12345".into());
    let frame = ns.request(cmd, b"{}".to_vec()).await.unwrap();
    let err = ClientError::Remote {
        code: frame.command.code,
        remark: frame.command.remark.clone(),
    };
    assert_eq!(frame.command.code, ResponseCode::INVALID_PARAMETER, "{err}");
    assert!(
        err.to_string().starts_with("INVALID_PARAMETER (29): "),
        "{err}"
    );
    assert!(ns.cluster_info().await.is_ok());
}

/// Many concurrent requests on one connection, with fewer slots than requests: each answer is the
/// one for its own topic (topic i has i + 1 queues).
#[tokio::test]
async fn concurrent_requests_are_matched() {
    let peer = Peer::start();
    let names: Vec<String> = (0..20).map(|i| format!("Topic{i:02}")).collect();
    let configs: Vec<TopicConfig> = names
        .iter()
        .enumerate()
        .map(|(i, n)| TopicConfig::new(n, i as i32 + 1, i as i32 + 1, 6))
        .collect();
    let _broker = register_broker(&peer.addr(), CLUSTER, "broker-a", 0, A_MASTER, configs).await;
    let ns = NamesrvClient::connect(
        &peer.addr(),
        ClientConfig {
            max_in_flight: 8,
            ..ClientConfig::default()
        },
    )
    .await
    .unwrap();
    let calls = (0..400).map(|k| {
        let ns = ns.clone();
        let i = k % names.len();
        let topic = names[i].clone();
        async move { (i, ns.route(&topic).await) }
    });
    let results = futures_util::future::join_all(calls).await;
    for (i, result) in results {
        let route = result.unwrap().unwrap();
        assert_eq!(route.queue_datas.len(), 1);
        assert_eq!(route.queue_datas[0].read_queue_nums, i as i32 + 1);
    }
    assert_eq!(ns.in_flight(), 0);
    assert!(!ns.is_closed());
}

/// The peer killed under an open client: the client reports the close; after a restart on the same
/// port a new client works and the KV store survived.
#[tokio::test]
async fn peer_restart() {
    let mut peer = Peer::start();
    let ns = client(&peer).await;
    let header = PutKvConfigRequestHeader {
        namespace: "NS".into(),
        key: "k".into(),
        value: "v".into(),
    };
    let cmd = RemotingCommand::request(RequestCode::PUT_KV_CONFIG, header.to_ext_fields());
    assert_eq!(ns.request(cmd, Vec::new()).await.unwrap().command.code, 0);
    peer.kill();
    // The reader notices the close by itself, without a request (what the bridge relies on to
    // reconnect an idle NameServer).
    while !ns.is_closed() {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let err = ns.cluster_info().await.unwrap_err();
    assert!(err.is_connection_error(), "{err:?}");
    assert!(err.to_string().contains("closed the connection"), "{err}");
    peer.restart();
    let ns = client(&peer).await;
    assert_eq!(
        ns.kv_list("NS").await.unwrap(),
        Some(BTreeMap::from([("k".to_owned(), "v".to_owned())]))
    );
}
