//! Acting master in the simulator (docs/failover.md, "Acting master"): brokers of an
//! `acting_master` group heartbeat the NameServers every second and declare a 10 s timeout, so a
//! frozen master is removed 10–15 s after it fell silent; its group's topics lose write permission,
//! the smallest-id slave acts as master (and a NameServer with `supportActingMaster` shows it as id
//! 0), producers stop writing to the group at their next route poll; the master's return restores
//! writes and ends the acting. Times are virtual milliseconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::model::perm::is_writeable;
use routelab::model::TopicRouteData;
mod sim_common;
use sim_common::of_kind;

use routelab::sim::{Sim, SimEvent};
use serde_json::Value;

const MASTER: &str = "10.0.2.1:10911";
const SLAVE1: &str = "10.0.2.2:10911";
const SLAVE2: &str = "10.0.2.3:10911";

/// broker-a (acting-master mode: a master and slaves 1 and 2) beside broker-b (master/slave), a
/// producer of Orders on both; broker-a's master freezes at 40 s and resumes at 90 s.
fn world(support_acting_master: bool, profile: &str, mode_b: &str) -> Result<Sim, String> {
    let text = format!(
        r#"{{"routelab": 1, "seed": 3, "profile": "{profile}",
            "support_acting_master": {support_acting_master},
            "brokers": [
              {{"name": "broker-a", "addr": "{MASTER}", "id": 0, "mode": "acting_master", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-a", "addr": "{SLAVE1}", "id": 1, "mode": "acting_master", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-a", "addr": "{SLAVE2}", "id": 2, "mode": "acting_master", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-b", "addr": "10.0.2.9:10911", "mode": "{mode_b}", "topics": [{{"topic": "Orders"}}]}}
            ],
            "producers": [{{"group": "pg", "topic": "Orders", "rate": 2}}],
            "actions": [
              {{"at": 40, "do": "freeze_broker", "broker": "{MASTER}"}},
              {{"at": 90, "do": "resume_broker", "broker": "{MASTER}"}}
            ],
            "until": 150}}"#
    );
    Sim::from_json(&text).map_err(|e| e.to_string())
}

fn json_of(e: &SimEvent) -> Value {
    serde_json::to_value(e).unwrap()
}

fn route(sim: &Sim) -> TopicRouteData {
    sim.namesrvs()[0]
        .manager
        .pickup_topic_route_data("Orders")
        .expect("a route for Orders")
}

/// broker-a's addresses by id and whether its queues are writable, in `route`.
fn broker_a(route: &TopicRouteData) -> (Vec<(i64, String)>, bool) {
    let bd = route
        .broker_datas
        .iter()
        .find(|b| b.broker_name == "broker-a")
        .expect("broker-a in the route");
    let qd = route
        .queue_datas
        .iter()
        .find(|q| q.broker_name == "broker-a")
        .expect("broker-a's queues");
    (
        bd.broker_addrs
            .iter()
            .map(|(id, a)| (*id, a.to_string()))
            .collect(),
        is_writeable(qd.perm),
    )
}

/// Spec: BrokerController (5.3.3) `registerBrokerAll` with `enableSlaveActingMaster` declares
/// `brokerNotActiveTimeoutMillis` (10 s) and sends BROKER_HEARTBEAT every `brokerHeartbeatInterval`
/// (1 s); RouteInfoManager `scanNotActiveBroker` (every 5 s) removes a broker silent past its own
/// timeout, and `cleanTopicByUnRegisterRequests` wipes the write bit of a reduced acting-master
/// group with no master left.
#[test]
fn a_frozen_master_is_gone_in_ten_to_fifteen_seconds_and_its_group_turns_read_only() {
    let mut sim = world(true, "5.x", "master_slave").unwrap();
    sim.advance_to(40_000);
    let (addrs, writable) = broker_a(&route(&sim));
    assert_eq!(addrs[0], (0, MASTER.to_owned()));
    assert!(writable);
    sim.advance_to(56_000);
    let events = sim.drain_events();
    let removed: Vec<Value> = of_kind(&events, "broker_removed")
        .into_iter()
        .filter(|e| e["broker_addr"] == MASTER)
        .collect();
    assert_eq!(removed.len(), 1, "{removed:?}");
    let t = removed[0]["t"].as_u64().unwrap();
    assert!((50_000..=55_000).contains(&t), "removed at {t}");
    assert_eq!(removed[0]["reason"], "expired");
    // With supportActingMaster, slave 1 is presented as id 0 of a read-only group.
    let (addrs, writable) = broker_a(&route(&sim));
    assert!(!writable, "the group's queues lost the write bit");
    assert_eq!(
        addrs,
        [(0, SLAVE1.to_owned()), (2, SLAVE2.to_owned())],
        "the smallest-id slave as id 0"
    );
    // broker-b (master/slave) keeps the 120 s default and its write permission.
    assert!(of_kind(&events, "broker_removed")
        .iter()
        .all(|e| e["broker_addr"] != "10.0.2.9:10911"));
}

/// Spec: BrokerController `syncBrokerMemberGroup` (every 1 s) → `updateMinBroker` →
/// `onMinBrokerChange`: the slave whose id is the group's smallest acts as master; a smaller id
/// back in the group ends it. The master's registration restores the queues' write bit
/// (`createAndUpdateQueueData` with the master's perm).
#[test]
fn the_smallest_slave_acts_as_master_until_the_master_is_back() {
    let mut sim = world(true, "5.x", "master_slave").unwrap();
    sim.run();
    let events = sim.drain_events();
    let removed_at = of_kind(&events, "broker_removed")
        .iter()
        .find(|e| e["broker_addr"] == MASTER)
        .and_then(|e| e["t"].as_u64())
        .unwrap();
    let started = of_kind(&events, "acting_master_started");
    assert_eq!(started.len(), 1, "{started:?}");
    let s = &started[0];
    assert_eq!(
        (
            &s["broker_addr"],
            &s["broker_name"],
            &s["broker_id"],
            &s["namesrv"]
        ),
        (
            &Value::from(SLAVE1),
            &Value::from("broker-a"),
            &Value::from(1),
            &Value::from("ns-1")
        )
    );
    let t = s["t"].as_u64().unwrap();
    assert!(
        t >= removed_at && t <= removed_at + 1_000,
        "{t} after {removed_at}"
    );
    let ended = of_kind(&events, "acting_master_ended");
    assert_eq!(ended.len(), 1, "{ended:?}");
    let e = &ended[0];
    assert_eq!(e["broker_addr"], SLAVE1);
    assert_eq!(e["min_broker_id"], 0);
    assert_eq!(e["min_broker_addr"], MASTER);
    let t = e["t"].as_u64().unwrap();
    assert!((90_000..=91_000).contains(&t), "ended at {t}");
    // Slave 2 never acted.
    assert!(started.iter().all(|e| e["broker_addr"] != SLAVE2));
    let (addrs, writable) = broker_a(&route(&sim));
    assert!(writable, "the master's registration restored writes");
    assert_eq!(addrs[0], (0, MASTER.to_owned()));
    assert!(sim.brokers().iter().all(|b| !b.acts_as_master()));
}

/// Producers pick only writable queues (`topicRouteData2TopicPublishInfo`): after their next
/// route poll past the removal, no send goes to broker-a until the master is back.
#[test]
fn producers_skip_the_read_only_group() {
    let mut sim = world(true, "5.x", "master_slave").unwrap();
    sim.run();
    let events = sim.drain_events();
    let sends = of_kind(&events, "send");
    let to_a = |from: u64, to: u64| {
        sends
            .iter()
            .filter(|e| e["broker_name"] == "broker-a")
            .filter(|e| (from..to).contains(&e["t"].as_u64().unwrap()))
            .count()
    };
    assert!(
        to_a(0, 40_000) > 0,
        "broker-a took writes before the freeze"
    );
    // The route poll is every 30 s: by 56 + 30 s every producer has the read-only route.
    assert_eq!(to_a(86_000, 90_000), 0, "no write to the read-only group");
    assert!(
        to_a(121_000, 150_000) > 0,
        "writes again after the master's return"
    );
}

/// Without `supportActingMaster` the route lists the slaves by their own ids (no id 0): clients
/// see a group without a master, as in master/slave mode.
#[test]
fn without_support_acting_master_no_slave_is_shown_as_id_zero() {
    let mut sim = world(false, "5.x", "master_slave").unwrap();
    sim.advance_to(60_000);
    let (addrs, writable) = broker_a(&route(&sim));
    assert!(!writable);
    assert_eq!(addrs, [(1, SLAVE1.to_owned()), (2, SLAVE2.to_owned())]);
    // The slave still acts as master: that is the broker's side.
    assert!(sim
        .brokers()
        .iter()
        .any(|b| b.addr == SLAVE1 && b.acts_as_master()));
}

/// The scenario's checks: acting-master mode and `support_acting_master` are RocketMQ 5's; a group
/// has one mode.
#[test]
fn acting_master_settings_are_checked() {
    let err = world(true, "4.x", "master_slave").unwrap_err();
    assert!(err.contains("support_acting_master"), "{err}");
    let err = world(false, "4.x", "master_slave").unwrap_err();
    assert!(
        err.contains("brokers[0].mode") && err.contains("acting_master mode is RocketMQ 5's"),
        "{err}"
    );
    let err = world(false, "5.x", "controlr").unwrap_err();
    assert!(
        err.contains("acting_master"),
        "the known modes are listed: {err}"
    );
}

#[test]
fn acting_master_runs_are_deterministic() {
    let run = || {
        let mut sim = world(true, "5.x", "master_slave").unwrap();
        sim.run();
        sim.drain_events()
            .iter()
            .map(|e| json_of(e).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}
