//! Topic sets (`topic_sets` in a scenario): thousands of numbered topics in a few lines, spread over
//! the broker groups round-robin. Parsing, the spread (deterministic, documented in
//! docs/scenario.md#topic-set), errors with field paths, and the big-cluster preset built on them.
//! Plain Rust only, so this file also runs under wasm32 with wasm-bindgen-test.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::sim::{expand_topic_sets, Scenario, ScenarioError, Sim, SimEventKind};
use serde_json::{json, Value};

/// Four groups in two clusters (a master and a slave in broker-a), one topic set.
fn base() -> Value {
    json!({
        "routelab": 1,
        "brokers": [
            {"cluster": "c1", "name": "broker-a", "addr": "10.0.0.1:10911"},
            {"cluster": "c1", "name": "broker-a", "id": 1, "addr": "10.0.0.2:10911"},
            {"cluster": "c1", "name": "broker-b", "addr": "10.0.1.1:10911"},
            {"cluster": "c2", "name": "broker-c", "addr": "10.0.2.1:10911"}
        ],
        "topic_sets": [{"prefix": "t-", "count": 6, "groups_per_topic": 2}],
        "actions": [
            {"at": 5, "do": "add_broker", "cluster": "c2", "name": "broker-d", "addr": "10.0.3.1:10911"}
        ]
    })
}

fn parse(doc: &Value) -> Scenario {
    Scenario::from_json(&doc.to_string()).unwrap_or_else(|e| panic!("refused: {e}\n{doc}"))
}

fn refused(doc: &Value) -> ScenarioError {
    match Scenario::from_json(&doc.to_string()) {
        Ok(_) => panic!("accepted: {doc}"),
        Err(e) => e,
    }
}

fn with_set(set: Value) -> Value {
    let mut doc = base();
    doc["topic_sets"] = json!([set]);
    doc
}

/// Group → its generated topic names.
fn spread(doc: &Value) -> Vec<(String, Vec<String>)> {
    expand_topic_sets(&parse(doc))
        .into_iter()
        .map(|(g, ts)| (g, ts.into_iter().map(|t| t.topic).collect()))
        .collect()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Topic k goes to groups k … k+n−1 (mod the groups), groups in the order their first member starts
/// (`brokers`, then `add_broker` actions); numbers are padded to the width of the last one.
#[test]
fn topics_are_dealt_round_robin_over_the_groups_in_start_order() {
    assert_eq!(
        spread(&base()),
        vec![
            ("broker-a".into(), names(&["t-1", "t-4", "t-5"])),
            ("broker-b".into(), names(&["t-1", "t-2", "t-5", "t-6"])),
            ("broker-c".into(), names(&["t-2", "t-3", "t-6"])),
            ("broker-d".into(), names(&["t-3", "t-4"])),
        ]
    );
    // Default: every topic on every group; digits and start as given.
    let every = spread(&with_set(
        json!({"prefix": "x", "count": 2, "start": 9, "digits": 3, "cluster": "c2"}),
    ));
    assert_eq!(
        every,
        vec![
            ("broker-c".into(), names(&["x009", "x010"])),
            ("broker-d".into(), names(&["x009", "x010"])),
        ]
    );
}

/// The expansion is a function of the scenario alone: the same file gives the same topics, and the
/// set survives export (share links carry the set, not its 10,000 topics).
#[test]
fn the_expansion_is_deterministic_and_export_keeps_the_set() {
    let s = parse(&base());
    assert_eq!(expand_topic_sets(&s), expand_topic_sets(&parse(&base())));
    let exported = s.to_json();
    assert!(exported.contains("\"topic_sets\""), "{exported}");
    assert!(!exported.contains("t-1\""), "export lists generated topics");
    assert_eq!(Scenario::from_json(&exported).unwrap(), s);
    let without = Scenario::from_json(r#"{"routelab": 1}"#).unwrap();
    assert!(!without.to_json().contains("topic_sets"));
}

/// Every member of a group registers the group's topics (a slave like its master; a broker added
/// later too), with the set's queues and perm; a topic the broker lists itself keeps its own entry.
#[test]
fn every_member_registers_its_groups_topics() {
    let mut doc = with_set(json!({"prefix": "t-", "count": 2, "read": 2, "write": 3, "perm": 4}));
    doc["brokers"][2]["topics"] = json!([{"topic": "t-1", "read": 16, "write": 16}]);
    let mut sim = Sim::new(&parse(&doc));
    sim.advance_to(6_000);
    for b in sim.brokers() {
        let t2 = &b.topics["t-2"];
        assert_eq!(
            (t2.read_queue_nums, t2.write_queue_nums, t2.perm),
            (2, 3, 4),
            "{}",
            b.addr
        );
    }
    assert_eq!(sim.brokers()[1].spec.id, 1, "the slave has them too");
    assert_eq!(sim.brokers()[2].topics["t-1"].read_queue_nums, 16);
    let ns = &sim.namesrvs()[0].manager;
    let groups: Vec<String> = ns
        .pickup_topic_route_data("t-1")
        .expect("routed")
        .broker_datas
        .iter()
        .map(|b| b.broker_name.to_string())
        .collect();
    assert_eq!(
        groups,
        names(&["broker-a", "broker-b", "broker-c", "broker-d"])
    );
}

/// Errors name the set and the field.
#[test]
fn bad_topic_sets_are_refused_with_the_field_path() {
    let cases = [
        (
            json!({"prefix": "t-", "count": 0}),
            "topic_sets[0].count",
            "0 is outside 1..=100000",
        ),
        (
            json!({"prefix": "t-", "count": 100001}),
            "topic_sets[0].count",
            "outside",
        ),
        (
            json!({"prefix": "a b-", "count": 3}),
            "topic_sets[0].prefix",
            "contains ' '",
        ),
        (
            json!({"prefix": "t-", "count": 3, "perm": 9}),
            "topic_sets[0].perm",
            "not a valid perm",
        ),
        (
            json!({"prefix": "t-", "count": 3, "read": 2000}),
            "topic_sets[0].read",
            "outside 0..=1024",
        ),
        (
            json!({"prefix": "t-", "count": 3, "digits": 0}),
            "topic_sets[0].digits",
            "1..=10",
        ),
        (
            json!({"prefix": "t-", "count": 3, "groups_per_topic": 5}),
            "topic_sets[0].groups_per_topic",
            "5 is outside 1..=4 (the number of broker groups)",
        ),
        (
            json!({"prefix": "t-", "count": 3, "cluster": "nope"}),
            "topic_sets[0].cluster",
            "no broker of the scenario is in cluster \"nope\"",
        ),
        (
            json!({"prefix": "t-", "count": 3, "spread": 2}),
            "topic_sets[0].spread",
            "unknown field `spread`",
        ),
        (
            json!({"count": 3}),
            "topic_sets[0]",
            "missing field `prefix`",
        ),
        (
            json!({"prefix": "t-", "count": "many"}),
            "topic_sets[0].count",
            "invalid type",
        ),
    ];
    for (set, path, message) in cases {
        let e = refused(&with_set(set.clone()));
        assert_eq!(e.path, path, "{set}: {e}");
        assert!(e.message.contains(message), "{set}: {e}");
    }
    let long = refused(&with_set(json!({"prefix": "p".repeat(125), "count": 100})));
    assert_eq!(long.path, "topic_sets[0].prefix", "{long}");
    let mut empty = with_set(json!({"prefix": "t-", "count": 1}));
    empty["brokers"] = json!([]);
    empty["actions"] = json!([]);
    assert_eq!(refused(&empty).path, "topic_sets[0]");
}

/// big-cluster: 200 brokers in 100 groups and 10,000 topics on 2 groups each; every broker hosts
/// 205 topics; the killed master's group leaves the routes at once and its producer moves to the
/// other group.
#[test]
fn big_cluster_runs_with_ten_thousand_topics_on_two_groups_each() {
    // The file itself: the library's wasm32 build carries only the dashboard's default preset.
    let scenario = Scenario::from_json(include_str!("../scenarios/big-cluster.json")).unwrap();
    let mut sim = Sim::new(&scenario);
    sim.advance_to(120_000);
    assert_eq!(sim.brokers().len(), 200);
    assert!(sim.brokers().iter().all(|b| b.topics.len() == 205));
    for ns in sim.namesrvs() {
        let m = &ns.manager;
        // 10,000 user topics, TBW102, SELF_TEST_TOPIC, OFFSET_MOVED_EVENT, 2 clusters, 100 groups.
        assert_eq!(
            m.topic_queue_table().len(),
            10_000 + 3 + 2 + 100,
            "{}",
            ns.name
        );
        let route = m.pickup_topic_route_data("orders-0007").expect("routed");
        let masters: Vec<(String, bool)> = route
            .broker_datas
            .iter()
            .map(|b| (b.broker_name.to_string(), b.master_addr().is_some()))
            .collect();
        assert_eq!(
            masters,
            vec![("broker-007".into(), false), ("broker-008".into(), true)],
            "broker-007 lost its master at 75 s and keeps its slave"
        );
    }
    let events: Vec<_> = std::iter::from_fn(|| sim.poll_event()).collect();
    let removed = events.iter().any(|e| {
        matches!(&e.kind, SimEventKind::BrokerRemoved { broker_addr, .. }
            if broker_addr == "10.0.7.1:10911" && e.t == 75_000)
    });
    assert!(removed, "the killed master is removed at once");
    let late_picks: Vec<&str> = events
        .iter()
        .filter(|e| e.t > 95_000)
        .filter_map(|e| match &e.kind {
            SimEventKind::Send {
                producer,
                broker_name: Some(b),
                ..
            } if producer == "pg-orders" => Some(b.as_str()),
            _ => None,
        })
        .collect();
    assert!(!late_picks.is_empty() && late_picks.iter().all(|b| *b == "broker-008"));
}
