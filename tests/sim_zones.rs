//! Zones in the simulator (docs/failover.md, "Zones"): brokers register with their zone
//! (`__ZONE_NAME`), clients that ask in zone mode get routes filtered by the NameServer's
//! `ZoneRouteRPCHook` (5.3.3): their own zone's groups and any group whose master is gone.
//! Times are virtual milliseconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::model::TopicRouteData;
mod sim_common;
use sim_common::of_kind;

use routelab::sim::Sim;
use serde_json::Value;

const A_MASTER: &str = "10.0.0.1:10911";

/// broker-a (master and slave) in az1, broker-b (master and slave) in az2, Orders on both; a
/// zone-mode producer in each zone, one in az1 that does not ask in zone mode, and a zone-mode
/// consumer group in az2. `extra` is spliced into the top level (actions, …).
fn world(extra: &str) -> Result<Sim, String> {
    let text = format!(
        r#"{{"routelab": 1, "seed": 5, "profile": "5.x", "namesrvs": ["ns-1"],
            "brokers": [
              {{"name": "broker-a", "addr": "{A_MASTER}", "zone": "az1", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-a", "id": 1, "addr": "10.0.0.2:10911", "zone": "az1", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-b", "addr": "10.0.1.1:10911", "zone": "az2", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-b", "id": 1, "addr": "10.0.1.2:10911", "zone": "az2", "topics": [{{"topic": "Orders"}}]}}
            ],
            "producers": [
              {{"group": "pg-az1", "topic": "Orders", "rate": 2, "zone": "az1", "zone_mode": true}},
              {{"group": "pg-az2", "topic": "Orders", "rate": 2, "zone": "AZ2", "zone_mode": true}},
              {{"group": "pg-near", "topic": "Orders", "rate": 2, "zone": "az1"}}
            ],
            "consumers": [{{"group": "cg-az2", "topics": ["Orders"], "zone": "az2", "zone_mode": true}}],
            {extra}
            "until": 200}}"#
    );
    Sim::from_json(&text).map_err(|e| e.to_string())
}

fn groups(route: Option<&TopicRouteData>) -> Vec<String> {
    let mut names: Vec<String> = route
        .map(|r| {
            r.broker_datas
                .iter()
                .map(|b| b.broker_name.to_string())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn producer_groups(sim: &Sim, group: &str) -> Vec<String> {
    let p = sim
        .producers()
        .iter()
        .find(|p| p.spec.group == group)
        .unwrap();
    groups(p.routes.route("Orders"))
}

/// The broker groups whose queues cg-az2's member owns.
fn owned_groups(sim: &Sim) -> Vec<String> {
    let mut names: Vec<String> = sim.consumers()[0]
        .owned
        .iter()
        .map(|o| o.mq.broker_name.to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Spec: DynamicalExtFieldRPCHook (the broker sends `__ZONE_NAME`), RouteInfoManager.registerBroker
/// (5.x keeps it as the group's `zoneName`), ZoneRouteRPCHook.filterByZoneName (the other zones'
/// groups with a master go; the zone compared ignoring case; no filter without zone mode).
#[test]
fn zone_mode_clients_see_their_own_zone() {
    let mut sim = world("").unwrap();
    sim.advance_to(30_000);
    let route = sim.namesrvs()[0]
        .manager
        .pickup_topic_route_data("Orders")
        .unwrap();
    let zones: Vec<(String, Option<String>)> = route
        .broker_datas
        .iter()
        .map(|b| (b.broker_name.to_string(), b.zone_name.clone()))
        .collect();
    assert!(zones.contains(&("broker-a".into(), Some("az1".into()))));
    assert!(zones.contains(&("broker-b".into(), Some("az2".into()))));
    assert_eq!(producer_groups(&sim, "pg-az1"), ["broker-a"]);
    assert_eq!(producer_groups(&sim, "pg-az2"), ["broker-b"], "AZ2 = az2");
    assert_eq!(producer_groups(&sim, "pg-near"), ["broker-a", "broker-b"]);
    assert_eq!(owned_groups(&sim), ["broker-b"]);
    let sends = of_kind(&sim.drain_events(), "send");
    for (producer, only) in [("pg-az1", "broker-a"), ("pg-az2", "broker-b")] {
        let mine: Vec<&Value> = sends.iter().filter(|e| e["producer"] == producer).collect();
        assert!(!mine.is_empty());
        assert!(mine.iter().all(|e| e["broker_name"] == only), "{mine:?}");
    }
}

/// Spec: ZoneRouteRPCHook.filterByZoneName keeps a group without id 0 whatever its zone ("master
/// down, consume from slave"); DefaultMQProducerImpl.tryToFindTopicPublishInfo returns a route of
/// the topic even with no writable queue (`isHaveTopicRouterInfo`), so the send fails with no
/// route and TBW102 is never asked.
#[test]
fn a_group_without_its_master_is_read_across_zones_and_writes_stay_home() {
    let mut sim = world(&format!(
        r#""actions": [{{"at": 60, "do": "kill_broker", "broker": "{A_MASTER}"}},
                       {{"at": 130, "do": "restart_broker", "broker": "{A_MASTER}"}}],"#
    ))
    .unwrap();
    sim.advance_to(59_000);
    assert_eq!(owned_groups(&sim), ["broker-b"]);
    sim.advance_to(125_000);
    // cg-az2's poll (every 30 s) found broker-a without its master: it reads it from the slave.
    assert_eq!(owned_groups(&sim), ["broker-a", "broker-b"]);
    assert_eq!(producer_groups(&sim, "pg-az1"), ["broker-a"]);
    let events = sim.drain_events();
    let sends = of_kind(&events, "send");
    let failed: Vec<&Value> = sends
        .iter()
        .filter(|e| e["producer"] == "pg-az1" && e["t"].as_u64().unwrap() > 61_000)
        .collect();
    assert!(!failed.is_empty());
    assert!(
        failed.iter().all(|e| e["ok"] == false),
        "no write leaves az1: {failed:?}"
    );
    assert!(of_kind(&events, "route_polled")
        .iter()
        .all(|e| e["topic"] != "TBW102"));
    // pg-near (not in zone mode) moves its writes to broker-b.
    assert!(sends.iter().any(|e| e["producer"] == "pg-near"
        && e["ok"] == true
        && e["broker_name"] == "broker-b"
        && e["t"].as_u64().unwrap() > 61_000));
    // The master back: pg-az1 writes again, cg-az2 gives broker-a back after its next poll.
    sim.run();
    assert_eq!(owned_groups(&sim), ["broker-b"]);
    let late = of_kind(&sim.drain_events(), "send");
    assert!(late
        .iter()
        .any(|e| e["producer"] == "pg-az1" && e["ok"] == true));
}

/// Spec: with `supportActingMaster`, pickupTopicRouteData presents an acting-master group's prime
/// slave as id 0 before ZoneRouteRPCHook runs: such a group counts as having a master, and other
/// zones' zone-mode clients do not see it.
#[test]
fn a_prime_slave_shown_as_id_0_keeps_its_group_in_its_zone() {
    let text = format!(
        r#"{{"routelab": 1, "seed": 5, "profile": "5.x", "support_acting_master": true,
            "brokers": [
              {{"name": "broker-a", "addr": "{A_MASTER}", "zone": "az1", "mode": "acting_master", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-a", "id": 1, "addr": "10.0.0.2:10911", "zone": "az1", "mode": "acting_master", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-b", "addr": "10.0.1.1:10911", "zone": "az2", "topics": [{{"topic": "Orders"}}]}}
            ],
            "consumers": [{{"group": "cg-az2", "topics": ["Orders"], "zone": "az2", "zone_mode": true}}],
            "actions": [{{"at": 20, "do": "kill_broker", "broker": "{A_MASTER}"}}],
            "until": 120}}"#
    );
    let mut sim = Sim::from_json(&text).unwrap();
    sim.run();
    let ns = &sim.namesrvs()[0].manager;
    assert_eq!(
        groups(ns.pickup_topic_route_data("Orders").as_ref()),
        ["broker-a", "broker-b"]
    );
    assert_eq!(
        groups(ns.pickup_zone_route("Orders", "az2").as_ref()),
        ["broker-b"]
    );
    assert_eq!(owned_groups(&sim), ["broker-b"]);
}

/// A 4.x NameServer has no zone hook, and the checks name what is wrong.
#[test]
fn zone_settings_are_checked() {
    let base = |broker_b: &str, producer: &str, profile: &str| {
        format!(
            r#"{{"routelab": 1, "profile": "{profile}",
                "brokers": [
                  {{"name": "broker-a", "addr": "10.0.0.1:10911", "zone": "az1"}},
                  {{"name": "broker-a", "id": 1, "addr": "10.0.0.2:10911", {broker_b}}}
                ],
                "producers": [{{"group": "pg", "topic": "Orders", {producer}}}]}}"#
        )
    };
    let err = |text: String| Sim::from_json(&text).err().map(|e| e.to_string());
    assert!(err(base(
        r#""zone": "az1""#,
        r#""zone": "az1", "zone_mode": true"#,
        "5.x"
    ))
    .is_none());
    let said = err(base(r#""zone": "az1""#, r#""zone": "az1""#, "4.x")).unwrap();
    assert!(said.starts_with("brokers[0].zone"), "{said}");
    assert!(said.contains("5.x"), "{said}");
    let said = err(base(r#""zone": "az2""#, r#""rate": 1"#, "5.x")).unwrap();
    assert!(said.starts_with("brokers[1].zone"), "{said}");
    assert!(said.contains("az1"), "{said}");
    let said = err(base(r#""zone": "az1""#, r#""zone_mode": true"#, "5.x")).unwrap();
    assert!(said.starts_with("producers[0].zone_mode"), "{said}");
    let said = err(base(
        r#""zone": "az1""#,
        r#""zone": "az1", "zone_mode": true, "client": "4.x""#,
        "5.x",
    ))
    .unwrap();
    assert!(said.starts_with("producers[0].zone"), "{said}");
    let said = err(base(r#""zone": "az1""#, r#""zone": " ""#, "5.x")).unwrap();
    assert!(said.starts_with("producers[0].zone"), "{said}");
}

/// Same seed, same zones: the same events.
#[test]
fn zones_are_deterministic() {
    let run = || {
        let mut sim = world(&format!(
            r#""actions": [{{"at": 60, "do": "kill_broker", "broker": "{A_MASTER}"}}],"#
        ))
        .unwrap();
        sim.run();
        serde_json::to_string(&sim.drain_events()).unwrap()
    };
    assert_eq!(run(), run());
}
