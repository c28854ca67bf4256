//! Many brokers at once against `routelab namesrv`: 1,000 broker connections registering
//! concurrently, several times each, lose nothing. The timings of the same load on a schedule are
//! in `benches/namesrv_load.rs` (`--brokers`), not here.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/ours.rs"]
mod ours;
#[path = "support/peer.rs"]
mod peer;

use std::collections::BTreeSet;
use std::time::Duration;

use ours::{client_with, Ours, PATIENCE};
use routelab::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use routelab::namesrv::Profile;
use routelab::net::ClientConfig;
use routelab::remoting::headers::RegisterBrokerRequestHeader;

const BROKERS: usize = 1_000;
const ROUNDS: i64 = 3;
const TOPICS: usize = 3;
const CLUSTER: &str = "FleetCluster";

fn name(i: usize) -> String {
    format!("fleet-broker-{i:04}")
}

fn addr(i: usize) -> String {
    format!("127.0.0.1:{}", 20_000 + i)
}

fn topic(i: usize, t: usize) -> String {
    format!("FleetTopic-{i:04}-{t}")
}

fn header(i: usize) -> RegisterBrokerRequestHeader {
    RegisterBrokerRequestHeader {
        broker_name: name(i),
        broker_addr: addr(i),
        cluster_name: CLUSTER.into(),
        ha_server_addr: format!("127.0.0.1:{}", 40_000 + i),
        broker_id: 0,
        ..Default::default()
    }
}

/// Round `round`'s body: a new DataVersion each round, so every registration rewrites the topics.
fn body(i: usize, round: i64) -> RegisterBrokerBody {
    RegisterBrokerBody {
        filter_server_list: Vec::new(),
        topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
            DataVersion::new(round, 1_700_000_000_000 + round),
            (0..TOPICS).map(|t| TopicConfig::new(&topic(i, t), 4, 4, 6)),
        ),
    }
}

async fn fleet(profile: Profile) {
    let ns = Ours::start(profile, |_| {}).await;
    let server = ns.addr();
    let config = ClientConfig {
        // Generous: the point is that nothing is lost, not how fast it goes.
        request_timeout: PATIENCE,
        ..ClientConfig::default()
    };
    let mut clients = Vec::with_capacity(BROKERS);
    for _ in 0..BROKERS {
        clients.push(client_with(&server, config.clone()).await);
    }
    // Every broker at once, each on its own connection, ROUNDS registrations in a row.
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            tokio::spawn(async move {
                for round in 1..=ROUNDS {
                    c.register_broker(&header(i), &body(i, round))
                        .await
                        .unwrap_or_else(|e| panic!("{} round {round}: {e}", name(i)));
                }
                c
            })
        })
        .collect();
    let mut kept = Vec::with_capacity(BROKERS);
    for t in tasks {
        kept.push(
            tokio::time::timeout(PATIENCE, t)
                .await
                .expect("a broker hangs")
                .expect("a broker task"),
        );
    }

    let checker = client_with(&server, ClientConfig::default()).await;
    let info = checker
        .cluster_info()
        .await
        .expect("GET_BROKER_CLUSTER_INFO");
    let in_cluster = info.cluster_addr_table.get(CLUSTER).expect("the cluster");
    assert_eq!(
        in_cluster.len(),
        BROKERS,
        "{profile:?}: brokers in clusterAddrTable"
    );
    assert_eq!(
        info.broker_addr_table.len(),
        BROKERS,
        "{profile:?}: brokerAddrTable"
    );
    for i in 0..BROKERS {
        assert!(
            in_cluster.contains(name(i).as_str()),
            "{profile:?}: {} not in the cluster",
            name(i)
        );
        let data = info
            .broker_addr_table
            .get(name(i).as_str())
            .unwrap_or_else(|| panic!("{profile:?}: {} not in brokerAddrTable", name(i)));
        assert_eq!(
            data.broker_addrs.get(&0).map(|a| a.as_str()),
            Some(addr(i).as_str())
        );
    }
    let topics = checker.all_topics().await.expect("the topic list");
    assert_eq!(topics.len(), BROKERS * TOPICS, "{profile:?}: topics");

    // brokerLiveTable: one entry per broker, each with the last round's DataVersion and its own
    // channel (the one that registered it, so closing it would unregister that broker only).
    let (live, channels) = ns.handle().shared().with_state(|s| {
        let table = s.routes.broker_live_table();
        let live: BTreeSet<String> = table
            .iter()
            .filter(|(_, info)| info.data_version.counter == ROUNDS)
            .map(|(key, _)| key.broker_addr.to_string())
            .collect();
        let channels: BTreeSet<_> = table.iter().map(|(_, info)| info.channel).collect();
        (live, channels)
    });
    let expected: BTreeSet<String> = (0..BROKERS).map(addr).collect();
    assert_eq!(
        live, expected,
        "{profile:?}: brokerLiveTable at the last DataVersion"
    );
    assert_eq!(
        channels.len(),
        BROKERS,
        "{profile:?}: one channel per broker"
    );

    checker.close();
    for c in kept {
        c.close();
    }
    // Closing the connections unregisters every broker (the same bookkeeping, the other way).
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while ns
        .handle()
        .shared()
        .with_state(|s| !s.routes.broker_live_table().is_empty())
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{profile:?}: brokers left after close"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ns.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_brokers_registering_at_once_lose_nothing_v5() {
    fleet(Profile::V5).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_brokers_registering_at_once_lose_nothing_v4() {
    fleet(Profile::V4).await;
}
