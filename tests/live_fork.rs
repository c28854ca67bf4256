//! "Fork into simulator" (src/live/fork.rs): a live view becomes a scenario that the strict parser
//! accepts and that, after the brokers' first registration, gives the simulator the same cluster and
//! the same routes as the live NameServers held.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeMap;

use routelab::live::compare::{brokers_in_disagreement, topics_in_disagreement, views_agree};
use routelab::live::{fork, BrokerLive, NamesrvStatus, NamesrvView, RouteEntry};
use routelab::namesrv::Profile;
use routelab::sim::scenario::Note;
use routelab::sim::{Scenario, Sim};

/// What a bridge would have fetched from each of the simulator's NameServers at its current time:
/// cluster info, the topic list and every route, as RouteLab's live views carry them.
fn views_of(sim: &Sim, at_ms: u64) -> Vec<NamesrvView> {
    sim.namesrvs()
        .iter()
        .enumerate()
        .map(|(i, ns)| {
            let mut v = NamesrvView::new(format!("10.1.0.{}:9876", i + 1));
            v.status = NamesrvStatus::Ok;
            v.fetched_at_ms = Some(at_ms);
            v.cluster = ns.manager.get_all_cluster_info();
            for (topic, _) in ns.manager.topic_queue_table().iter() {
                let topic = topic.to_string();
                v.topics.insert(topic.clone());
                v.routes.insert(
                    topic.clone(),
                    RouteEntry {
                        fetched_at_ms: at_ms,
                        route: ns.manager.pickup_topic_route_data(&topic),
                        error: None,
                    },
                );
            }
            v
        })
        .collect()
}

fn sim_of_preset(name: &str, until_ms: u64) -> Sim {
    // The file itself: the library's wasm32 build carries only the dashboard's default preset.
    let json = match name {
        "2m-2s" => include_str!("../scenarios/2m-2s.json"),
        "namesrv-divergence" => include_str!("../scenarios/namesrv-divergence.json"),
        _ => panic!("no scenario file for {name} in this test"),
    };
    let mut sim = Sim::from_json(json).expect("preset parses");
    sim.advance_to(until_ms);
    sim
}

/// The forked scenario through the strict parser, as an import or a share link would read it.
fn reparse(scenario: &Scenario) -> Scenario {
    Scenario::from_json(&scenario.to_json())
        .unwrap_or_else(|e| panic!("the fork does not parse back: {e}\n{}", scenario.to_json()))
}

/// The fork's note in English, its points joined; each point is in 简体中文 too.
fn note_of(scenario: &Scenario) -> String {
    let Some(Note::Points(points)) = &scenario.note else {
        panic!("the fork's note is points: {:?}", scenario.note);
    };
    assert_eq!(points.en.len(), points.zh.len(), "{points:?}");
    assert!(points.zh.iter().all(|p| !p.is_empty()), "{points:?}");
    points.en.join(" ")
}

/// Every NameServer of the new simulator holds what `view` held: the same cluster info and, topic by
/// topic, the same route (compared as sets of groups, as clients compare routes).
fn assert_same_routes(view: &NamesrvView, sim: &Sim) {
    for ns in sim.namesrvs() {
        assert_eq!(
            ns.manager.get_all_cluster_info(),
            view.cluster,
            "cluster info on {}",
            ns.name
        );
        let topics: Vec<String> = ns
            .manager
            .topic_queue_table()
            .iter()
            .map(|(t, _)| t.to_string())
            .collect();
        let live: Vec<String> = view.routes.keys().cloned().collect();
        assert_eq!(topics, live, "topics on {}", ns.name);
        for (topic, entry) in &view.routes {
            assert_eq!(
                ns.manager
                    .pickup_topic_route_data(topic)
                    .map(|r| r.sorted()),
                entry.route.as_ref().map(|r| r.sorted()),
                "route of {topic} on {}",
                ns.name
            );
        }
    }
}

/// Two masters with slaves on two agreeing NameServers (5.x): two NameServers in the fork, each with
/// the live routes (system topics included) right after the first registration, paused at t = 0 with
/// no producers.
#[test]
fn fork_of_agreeing_namesrvs_reproduces_cluster_and_routes() {
    let live = sim_of_preset("2m-2s", 45_000);
    let views = views_of(&live, 45_000);
    assert!(views_agree(&views));
    let scenario = reparse(&fork(&views));
    assert_eq!(scenario.namesrvs, ["ns-1", "ns-2"]);
    assert_eq!(scenario.profile, Profile::V5);
    assert!(scenario.producers.is_empty() && scenario.actions.is_empty());
    assert_eq!(scenario.brokers.len(), 4);
    let masters: Vec<&str> = scenario
        .brokers
        .iter()
        .filter(|b| b.id == 0)
        .map(|b| b.addr.as_str())
        .collect();
    assert_eq!(masters, ["10.0.0.1:10911", "10.0.0.3:10911"]);
    assert_eq!(
        scenario.brokers[0].topics[0].topic, "TopicTest",
        "a user's topic comes first, so the simulator's route view opens on it"
    );
    let note = note_of(&scenario);
    assert!(note.contains("ns-1 = 10.1.0.1:9876"), "{note}");
    assert!(note.contains("What if broker-a froze now?"), "{note}");

    let sim = Sim::new(&scenario);
    assert_eq!(sim.now(), 0);
    assert_same_routes(&views[0], &sim);
}

/// A perm wiped on the live NameServer (4.x rules) is carried as the topic's perm, and the fork runs
/// the 4.x rules: 4.x routes have no `enableActingMaster`.
#[test]
fn fork_keeps_wiped_perms_and_the_4x_profile() {
    let json = r#"{"routelab":1,"profile":"4.x","brokers":[
        {"name":"broker-a","addr":"10.0.0.1:10911","topics":[{"topic":"TopicTest","read":8,"write":4}]},
        {"name":"broker-b","addr":"10.0.0.2:10911","topics":[{"topic":"TopicTest"}]}],
        "actions":[{"at":1,"do":"wipe_write_perm","broker_name":"broker-b"}]}"#;
    let mut live = Sim::from_json(json).unwrap();
    live.advance_to(2_000);
    let views = views_of(&live, 2_000);
    let wiped = views[0].routes["TopicTest"].route.clone().unwrap();
    assert!(wiped.queue_datas.iter().any(|q| q.perm == 4));

    let scenario = reparse(&fork(&views));
    assert_eq!(scenario.profile, Profile::V4);
    let b = &scenario.brokers[1];
    let t = b.topics.iter().find(|t| t.topic == "TopicTest").unwrap();
    assert_eq!(
        (b.name.as_str(), t.read, t.write, t.perm),
        ("broker-b", 4, 4, 4)
    );
    assert_same_routes(&views[0], &Sim::new(&scenario));
}

/// NameServers that disagree (a broker partitioned from ns-2 created a topic only ns-1 heard of):
/// the fork has one NameServer built from the first view, and says so.
#[test]
fn disagreeing_namesrvs_fork_from_the_first_and_say_so() {
    let live = sim_of_preset("namesrv-divergence", 40_000);
    let views = views_of(&live, 40_000);
    assert!(!views_agree(&views));
    assert!(topics_in_disagreement(&views).contains("OrderTopic"));
    assert!(brokers_in_disagreement(&views).is_empty());
    let scenario = reparse(&fork(&views));
    assert_eq!(scenario.namesrvs, ["ns-1"]);
    let note = note_of(&scenario);
    assert!(
        note.contains("disagreed") && note.contains("10.1.0.1:9876"),
        "{note}"
    );
    assert_same_routes(&views[0], &Sim::new(&scenario));
}

/// A failing NameServer keeps its last data and still counts; one never fetched is left out. Topics
/// listed but not fetched yet, and values the scenario format refuses, are left out and named.
#[test]
fn what_cannot_be_forked_is_left_out_and_named() {
    let live = sim_of_preset("2m-2s", 15_000);
    let mut views = views_of(&live, 15_000);
    views[0].status = NamesrvStatus::Failing;
    views[0].error = Some("connection refused".into());
    views[1] = NamesrvView::new("10.1.0.2:9876");
    views[0].topics.insert("NotFetchedYet".into());
    let mut bad = views[0].routes["TopicTest"].clone();
    if let Some(r) = bad.route.as_mut() {
        r.queue_datas[0].perm = 9;
    }
    views[0].routes.insert("BadPerm".into(), bad);
    views[0].topics.insert("BadPerm".into());

    let scenario = reparse(&fork(&views));
    assert_eq!(
        scenario.namesrvs,
        ["ns-1"],
        "the unfetched NameServer has no data"
    );
    let note = note_of(&scenario);
    assert!(note.contains("1 listed topic(s) had no route"), "{note}");
    assert!(note.contains("BadPerm on broker-a"), "{note}");
    assert!(scenario
        .brokers
        .iter()
        .flat_map(|b| b.topics.iter())
        .all(|t| t.topic != "NotFetchedYet"));
}

/// Nothing fetched yet: an empty scenario that says why. An expiry the source reports for every
/// broker (RouteLab's own NameServer does) becomes the scenario's timing.
#[test]
fn empty_views_and_reported_expiry() {
    let scenario = reparse(&fork(&[NamesrvView::new("10.1.0.1:9876")]));
    assert!(scenario.brokers.is_empty());
    assert!(note_of(&scenario).starts_with("Nothing had been fetched"));

    let live = sim_of_preset("2m-2s", 15_000);
    let mut views = views_of(&live, 15_000);
    let live_table: BTreeMap<String, BrokerLive> = views[0]
        .cluster
        .broker_addr_table
        .values()
        .flat_map(|bd| bd.broker_addrs.values())
        .map(|a| {
            (
                a.to_string(),
                BrokerLive {
                    last_update_ms: 10_000,
                    timeout_ms: 30_000,
                },
            )
        })
        .collect();
    views[0].broker_live = Some(live_table);
    let scenario = reparse(&fork(&views));
    assert_eq!(
        scenario.timing.and_then(|t| t.expiry_secs),
        Some(30.0),
        "the reported 30 s expiry"
    );
}

/// 5.x NameServers refuse a first registration that carries exactly one topic. A live view where a
/// broker has a single topic still forks into brokers that register: one topic every broker has is
/// added, and the note says so.
#[test]
fn a_single_topic_broker_still_registers_under_5x() {
    let json = r#"{"routelab":1,"profile":"5.x","brokers":[
        {"name":"broker-a","addr":"10.0.0.1:10911","system_topics":false,
         "topics":[{"topic":"TopicTest"},{"topic":"Other"}]},
        {"name":"broker-b","addr":"10.0.0.2:10911","system_topics":false,
         "topics":[{"topic":"TopicTest"},{"topic":"Other"}]}]}"#;
    let live = Sim::from_json(json).unwrap();
    let mut views = views_of(&live, 1_000);
    views[0].routes.remove("Other");
    views[0].topics.remove("Other");

    let scenario = reparse(&fork(&views));
    let note = note_of(&scenario);
    assert!(note.contains("SELF_TEST_TOPIC was added"), "{note}");
    let sim = Sim::new(&scenario);
    let ns = &sim.namesrvs()[0];
    assert_eq!(ns.manager.get_all_cluster_info(), views[0].cluster);
    assert_eq!(
        ns.manager
            .pickup_topic_route_data("TopicTest")
            .map(|r| r.sorted()),
        views[0].routes["TopicTest"]
            .route
            .as_ref()
            .map(|r| r.sorted())
    );
}
