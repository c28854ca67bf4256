//! The bodies `routelab namesrv` writes, byte for byte against what Java's NameServer writes:
//! the bodies captured from real RocketMQ servers (spec §9), and a state of ten brokers whose
//! bodies a JDK computed with RocketMQ's own table types, copies and sets
//! (`tests/data/java_order/BodyOrders.java`, output in `bodies.json`). Also the order in which
//! one scan removes brokers that expired together (spec §2.4): brokerLiveTable's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod common;

use common::*;
use routelab::namesrv::{Event, JsonForm, Profile, RouteManager};
use serde_json::Value;

/// The registrations of BodyOrders.java, in its order: (cluster, group, id, address, topics).
fn ten_brokers(profile: Profile) -> RouteManager {
    let range = |from: usize, to: usize| -> Vec<String> {
        let mut v = vec!["TopicTest".to_owned()];
        v.extend((from..to).map(|i| format!("T-{i:02}")));
        v
    };
    let regs: Vec<(&str, &str, i64, &str, Vec<String>)> = vec![
        (C1, "broker-a", 0, "10.0.0.1:10911", range(0, 10)),
        (C1, "broker-a", 1, "10.0.0.2:10911", range(0, 10)),
        (C1, "broker-b", 0, "10.0.0.3:10911", range(5, 15)),
        (C1, "broker-b", 9, "10.0.0.4:10911", vec![]),
        (C1, "broker-b", 2, "10.0.0.8:10911", vec![]),
        (C1, "broker-c", 1, "10.0.0.5:10911", vec![]),
        (C1, "broker-c", 4, "10.0.0.6:10911", vec![]),
        (C1, "broker-q", 0, "10.0.0.7:10911", range(10, 20)),
        (
            "c2",
            "broker-x",
            0,
            "10.1.0.1:10911",
            vec!["TopicTest".into(), "T-20".into()],
        ),
        (
            "c2",
            "broker-y",
            0,
            "10.1.0.2:10911",
            vec!["TopicTest".into(), "T-00".into()],
        ),
    ];
    let mut rm = manager(profile);
    for (i, (cluster, name, id, addr, topics)) in regs.iter().enumerate() {
        // A slave's body carries topics too (5.x refuses a first registration of exactly one).
        let topics: Vec<&str> = if topics.is_empty() {
            vec!["TopicTest", "TBW102"]
        } else {
            topics.iter().map(String::as_str).collect()
        };
        reg(
            &mut rm,
            T0,
            &on_channel(broker(cluster, name, *id, addr, 1, &topics), i as u64),
        );
    }
    rm.drain_events();
    rm
}

fn java(profile: Profile) -> Value {
    let text = include_str!("data/java_order/bodies.json");
    let all: Value = serde_json::from_str(text).expect("bodies.json");
    all[if profile.is_v5() { "v5" } else { "v4" }].clone()
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("UTF-8 body")
}

fn bodies_are_javas(profile: Profile) {
    let rm = ten_brokers(profile);
    let want = java(profile);
    assert_eq!(
        text(rm.cluster_info_body()),
        want["cluster_info"].as_str().unwrap(),
        "{profile:?} GET_BROKER_CLUSTER_INFO"
    );
    assert_eq!(
        text(rm.route_body("TopicTest", JsonForm::Legacy).unwrap()),
        want["route_TopicTest"].as_str().unwrap(),
        "{profile:?} GET_ROUTEINFO_BY_TOPIC (legacy)"
    );
    assert_eq!(
        text(rm.topic_list_body(&rm.all_topics().unwrap())),
        want["all_topics"].as_str().unwrap(),
        "{profile:?} GET_ALL_TOPIC_LIST_FROM_NAMESERVER"
    );
    assert_eq!(
        text(rm.topic_list_body(&rm.system_topics())),
        want["system_topics"].as_str().unwrap(),
        "{profile:?} GET_SYSTEM_TOPIC_LIST_FROM_NS"
    );
}

#[test]
fn bodies_are_javas_4x() {
    bodies_are_javas(Profile::V4);
}

#[test]
fn bodies_are_javas_5x() {
    bodies_are_javas(Profile::V5);
}

/// The standard form sorts every map (ids numerically) but keeps the lists in Java's order.
#[test]
fn standard_routes_sort_maps_not_lists() {
    let rm = ten_brokers(Profile::V4);
    let legacy: Value = routelab::model::fastjson::from_body(
        &rm.route_body("TopicTest", JsonForm::Legacy).unwrap(),
    )
    .unwrap();
    let standard = text(rm.route_body("TopicTest", JsonForm::Standard).unwrap());
    let names = |v: &Value, list: &str| -> Vec<String> {
        v[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["brokerName"].as_str().unwrap().to_owned())
            .collect()
    };
    let parsed: Value = serde_json::from_str(&standard).unwrap();
    assert_eq!(names(&parsed, "brokerDatas"), names(&legacy, "brokerDatas"));
    assert_eq!(names(&parsed, "queueDatas"), names(&legacy, "queueDatas"));
    assert!(
        standard.contains(
            r#"{"brokerAddrs":{"0":"10.0.0.3:10911","2":"10.0.0.8:10911","9":"10.0.0.4:10911"}"#
        ),
        "{standard}"
    );
}

/// Spec §2.4: brokers that expire together leave in brokerLiveTable's order (4.9.8 removes them
/// as its scan meets them; 5.x queues their unregistrations in that order).
fn expiry_order_is_the_live_tables(profile: Profile) {
    let mut rm = ten_brokers(profile);
    rm.scan_not_active_brokers(T0 + 120_001);
    rm.apply_pending_unregistrations();
    let order: Vec<String> = rm
        .drain_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::BrokerRemoved { broker_addr, .. } => Some(broker_addr.to_string()),
            _ => None,
        })
        .collect();
    let want: Vec<String> = java(profile)["live_order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(order, want, "{profile:?}");
}

#[test]
fn expiry_order_is_the_live_tables_4x() {
    expiry_order_is_the_live_tables(Profile::V4);
}

#[test]
fn expiry_order_is_the_live_tables_5x() {
    expiry_order_is_the_live_tables(Profile::V5);
}

/// Spec §9.5: GET_BROKER_CLUSTER_INFO bodies captured from 4.x NameServers (apache/rocketmq issue
/// #3369, and a Go client's test).
#[test]
fn cluster_info_bodies_captured_from_4x() {
    let mut rm = manager(Profile::V4);
    reg(
        &mut rm,
        T0,
        &master(
            "37_cluster",
            "broker_37_master",
            "172.16.16.37:10911",
            1,
            &["T"],
        ),
    );
    assert_eq!(
        text(rm.cluster_info_body()),
        r#"{"brokerAddrTable":{"broker_37_master":{"brokerAddrs":{0:"172.16.16.37:10911"},"brokerName":"broker_37_master","cluster":"37_cluster"}},"clusterAddrTable":{"37_cluster":["broker_37_master"]}}"#
    );
    let mut rm = manager(Profile::V4);
    reg(
        &mut rm,
        T0,
        &master(C1, "broker-a", "127.0.0.1:10911", 1, &["T"]),
    );
    assert_eq!(
        text(rm.cluster_info_body()),
        r#"{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}},"clusterAddrTable":{"DefaultCluster":["broker-a"]}}"#
    );
}

/// Spec §9.3: the route a 5.2 NameServer gave `mqadmin topicRoute` (fastjson's pretty form there;
/// the same document compact).
#[test]
fn route_body_captured_from_5x() {
    let mut rm = manager(Profile::V5);
    let topics = vec![tc("TopicTest", 6), tc("TBW102", 7)];
    let mut req = broker_with(C1, "broker-a", 0, "127.0.0.1:10911", version(1), topics);
    for t in req
        .body
        .topic_config_serialize_wrapper
        .topic_config_table
        .values_mut()
    {
        t.read_queue_nums = 4;
        t.write_queue_nums = 4;
    }
    reg(&mut rm, T0, &req);
    assert_eq!(
        text(rm.route_body("TopicTest", JsonForm::Legacy).unwrap()),
        r#"{"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}"#
    );
}

/// A static topic's mapping in a route (5.x): Java keeps `currIdMap` as a
/// `ConcurrentMap<Integer, Integer>`, so fastjson's legacy form (request version < 401) writes its
/// keys bare in that map's order — 2 before 10, as buckets, not as text — while the standard form
/// quotes them (`BrowserCompatible`) in numeric order (`MapSortField`'s TreeMap of Integers).
/// Spec §6.1–§6.2, §9.7.
#[test]
fn a_mappings_curr_id_map_is_written_as_java_writes_it() {
    let mut rm = manager(Profile::V5);
    let mut req = broker(
        C1,
        "broker-a",
        0,
        "10.0.0.1:10911",
        1,
        &["TopicTest", "Static"],
    );
    req.body
        .topic_config_serialize_wrapper
        .topic_queue_mapping_info_map = Some(std::collections::BTreeMap::from([(
        "Static".to_owned(),
        serde_json::json!({"bname": "broker-a", "currIdMap": {"10": 3, "2": 1, "0": 0},
            "dirty": false, "epoch": 1, "scope": "__global__", "topic": "Static", "totalQueues": 12}),
    )]));
    reg(&mut rm, T0, &req);
    let legacy = text(rm.route_body("Static", JsonForm::Legacy).unwrap());
    assert!(
        legacy.contains(r#""topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","currIdMap":{0:0,2:1,10:3},"dirty":false,"epoch":1,"scope":"__global__","topic":"Static","totalQueues":12}}"#),
        "{legacy}"
    );
    let standard = text(rm.route_body("Static", JsonForm::Standard).unwrap());
    assert!(
        standard.contains(r#""currIdMap":{"0":0,"2":1,"10":3}"#),
        "{standard}"
    );
}
