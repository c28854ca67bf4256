//! Partitions inside a group's failover (docs/scenario.md, `partition`; docs/failover.md): a
//! broker cut off from its controller, a slave cut off from its master, a DLedger leader cut off
//! from its group. Each end goes on running; only what crosses the cut link is lost. Times are
//! virtual milliseconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod sim_common;
use sim_common::of_kind;

use routelab::sim::{ReplicaRole, Sim};
use serde_json::{json, Value};

const R1: &str = "10.0.1.1:10911";
const R2: &str = "10.0.1.2:10911";
const R3: &str = "10.0.1.3:10911";

/// broker-b's three replicas (R1 first, so first master) in `mode`, one controller, a producer,
/// and `actions` spliced in.
fn world(mode: &str, actions: &str) -> Sim {
    let replica = |id: u32, addr: &str| {
        format!(
            r#"{{"name": "broker-b", "id": {id}, "addr": "{addr}", "mode": "{mode}", "topics": [{{"topic": "Orders"}}]}}"#
        )
    };
    let text = format!(
        r#"{{"routelab": 1, "seed": 4, "controllers": ["controller-1"],
            "brokers": [{}, {}, {}],
            "producers": [{{"group": "pg", "topic": "Orders", "rate": 2}}],
            "actions": [{actions}], "until": 150}}"#,
        replica(0, R1),
        replica(1, R2),
        replica(2, R3)
    );
    Sim::from_json(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// `partition` (or `heal`) at `at` s between the broker at `addr` and `end` (`"controller"` or
/// `"peer"`) named `other`.
fn link(what: &str, at: u32, addr: &str, end: &str, other: &str) -> String {
    format!(r#"{{"at": {at}, "do": "{what}", "broker": "{addr}", "{end}": "{other}"}}"#)
}

/// The first event of `kind` at or after `t`.
fn first_after(events: &[Value], t: u64) -> Value {
    events
        .iter()
        .find(|e| e["t"].as_u64().unwrap() >= t)
        .cloned()
        .unwrap_or_else(|| panic!("nothing at or after {t} in {events:?}"))
}

/// Spec (sendHeartbeatToController, scanNotActiveBroker, RouteInfoManager's stateVersion check,
/// schedulingSyncBrokerMetadata): a master cut off from the controller keeps running and believes
/// it is master; the controller, hearing nothing for 10 s, elects another replica, which
/// registers as brokerId 0 at epoch 2. The isolated master's periodic registrations (epoch 1) are
/// turned away; once the link heals its next metadata sync makes it a slave.
#[test]
fn a_master_cut_off_from_its_controller_is_replaced_and_fenced() {
    let actions = [
        link("partition", 40, R1, "controller", "controller-1"),
        link("heal", 100, R1, "controller", "controller-1"),
    ];
    let mut sim = world("controller", &actions.join(","));
    sim.advance_to(99_000);
    assert_eq!(
        sim.brokers()[0].replica.as_ref().unwrap().role,
        ReplicaRole::Master,
        "nothing tells the isolated master"
    );
    sim.run();
    let events = sim.drain_events();
    let elected = first_after(&of_kind(&events, "master_elected"), 40_000);
    let t = elected["t"].as_u64().unwrap();
    assert!((50_000..=55_000).contains(&t), "elected at {t}");
    assert_eq!(elected["cause"], "master_silent");
    assert_eq!(elected["old_master"], 1);
    assert_eq!(elected["epoch"], 2);
    assert_eq!(
        elected["alive"],
        json!([2, 3]),
        "the controller cannot tell a cut-off master from a dead one"
    );
    let rejected = first_after(&of_kind(&events, "registration_rejected"), t);
    assert_eq!(rejected["broker_addr"], R1);
    assert_eq!(rejected["reason"], "stale_state_version");
    assert_eq!(rejected["state_version"], 1);
    assert!(rejected["t"].as_u64().unwrap() < 100_000);
    let demoted = first_after(&of_kind(&events, "broker_role_changed"), 100_000);
    assert_eq!(demoted["broker_addr"], R1);
    assert_eq!(demoted["new_role"], "slave");
    let at = demoted["t"].as_u64().unwrap();
    assert!(at <= 105_000, "demoted at {at}: the next metadata sync");
    let addrs = &sim.namesrvs()[0]
        .manager
        .broker_addr_table()
        .get("broker-b")
        .unwrap()
        .broker_addrs;
    assert_eq!(
        addrs.get(&0).map(|a| a.as_str()),
        Some(elected["new_master_addr"].as_str().unwrap())
    );
}

/// Spec (HAConnection closed → maybeShrinkSyncStateSet after haMaxTimeSlaveNotCatchup, 15 s;
/// maybeExpandInSyncStateSet): a slave cut off from its master stops copying and leaves the
/// SyncStateSet 15–20 s later; healed, it catches up and joins again.
#[test]
fn a_slave_cut_off_from_its_master_leaves_the_sync_state_set() {
    let actions = [
        link("partition", 20, R3, "peer", R1),
        link("heal", 60, R1, "peer", R3),
    ];
    let mut sim = world("controller", &actions.join(","));
    sim.run();
    let changes = of_kind(&sim.drain_events(), "sync_state_set_changed");
    let left = first_after(&changes, 20_000);
    let t = left["t"].as_u64().unwrap();
    assert!((35_000..=40_000).contains(&t), "left at {t}");
    assert_eq!(left["new"], json!([1, 2]));
    let back = first_after(&changes, 60_000);
    assert!(back["t"].as_u64().unwrap() <= 62_000, "{back}");
    assert_eq!(back["new"], json!([1, 2, 3]));
}

/// Spec (DLedgerLeaderElector: sendHeartbeats without a quorum for 6 s → changeRoleToCandidate;
/// maintainAsFollower; a vote needs a majority; handleHeartBeat with a larger term): a DLedger
/// leader cut off from both other members stands down, the two elect one of themselves in a
/// larger term, and after the heal the old leader follows it as a slave: no further election.
#[test]
fn a_dledger_leader_cut_off_from_its_group_is_replaced_and_follows_after_the_heal() {
    let mut sim = world("dledger", "");
    sim.advance_to(20_000);
    // The group's own election (the scenario's controller has one too, unused here).
    let dledger = |events: &[routelab::sim::SimEvent]| -> Vec<Value> {
        of_kind(events, "leader_elected")
            .into_iter()
            .filter(|e| e["mode"] == "dledger")
            .collect()
    };
    let first = dledger(&sim.drain_events());
    let leader = first[0]["leader"].as_str().unwrap().to_owned();
    let others: Vec<&str> = [R1, R2, R3].into_iter().filter(|a| *a != leader).collect();
    for other in &others {
        sim.apply(&routelab::sim::Action::Partition(
            routelab::sim::scenario::Link {
                broker: Some(leader.clone()),
                peer: Some((*other).to_owned()),
                ..Default::default()
            },
        ))
        .unwrap();
    }
    sim.advance_to(60_000);
    let events = sim.drain_events();
    let next = dledger(&events);
    assert_eq!(next.len(), 1, "{next:?}");
    let t = next[0]["t"].as_u64().unwrap();
    assert!((26_000..=29_100).contains(&t), "elected at {t}");
    assert!(next[0]["term"].as_u64() > first[0]["term"].as_u64());
    let new_leader = next[0]["leader"].as_str().unwrap().to_owned();
    assert!(others.contains(&new_leader.as_str()));
    let down = of_kind(&events, "broker_role_changed");
    assert!(
        down.iter()
            .any(|r| r["broker_addr"] == leader.as_str() && r["new_role"] == "slave"),
        "the isolated leader stands down: {down:?}"
    );
    for other in &others {
        sim.apply(&routelab::sim::Action::Heal(
            routelab::sim::scenario::Link {
                broker: Some((*other).to_owned()),
                peer: Some(leader.clone()),
                ..Default::default()
            },
        ))
        .unwrap();
    }
    sim.advance_to(100_000);
    assert!(dledger(&sim.drain_events()).is_empty());
    let old = sim.brokers().iter().find(|b| b.addr == leader).unwrap();
    assert!(old.id() > 0, "the old leader is a slave: id {}", old.id());
    let new = sim.brokers().iter().find(|b| b.addr == new_leader).unwrap();
    assert_eq!(new.id(), 0);
}

/// A link names the broker and exactly one other end; a controller or peer must exist.
#[test]
fn controller_and_peer_links_are_checked() {
    let bad = |action: &str| {
        let text = format!(
            r#"{{"routelab": 1, "controllers": ["controller-1"],
                "brokers": [{{"name": "broker-b", "addr": "{R1}", "mode": "controller"}}],
                "actions": [{action}]}}"#
        );
        Sim::from_json(&text).err().unwrap().to_string()
    };
    assert_eq!(
        bad(&link("partition", 1, R1, "controller", "controller-9")),
        "actions[0].controller: no controller is named \"controller-9\" (known: controller-1)"
    );
    assert_eq!(
        bad(&link("heal", 1, R1, "peer", "10.9.9.9:10911")),
        "actions[0].peer: no broker has address \"10.9.9.9:10911\""
    );
    let one_end = bad(&link("partition", 1, R1, "peer", R1));
    assert!(
        one_end.starts_with("actions[0]: a link needs `broker` and exactly one of"),
        "{one_end}"
    );
    let two_ends = bad(&format!(
        r#"{{"at": 1, "do": "partition", "broker": "{R1}", "controller": "controller-1", "namesrv": "ns-1"}}"#
    ));
    assert!(two_ends.contains("exactly one of"), "{two_ends}");
}
