// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::live::alerts::AlertEvent;
use crate::live::history::changes;
use crate::model::{QueueData, TopicRouteData};
use crate::rng::SeededRng;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const GROUPS: [&str; 4] = ["broker-a", "broker-b", "broker-c", "broker-d"];
const TOPICS: [&str; 5] = ["T0", "T1", "T2", "T3", "T4"];

/// A random view at `at`: some groups (a master, maybe a slave), some topics, each routed to some
/// of the listed groups with a random perm; every listed topic fetched.
fn random_view(rng: &mut SeededRng, at: u64) -> NamesrvView {
    let mut v = NamesrvView::new("127.0.0.1:9876");
    v.status = NamesrvStatus::Ok;
    v.fetched_at_ms = Some(at);
    v.last_attempt_ms = Some(at);
    let mut listed = Vec::new();
    for (i, g) in GROUPS.iter().enumerate() {
        if rng.next_below(3) == 0 {
            continue;
        }
        let mut group = BrokerData::new("DefaultCluster".into(), (*g).into());
        // A 5.x NameServer's group attributes, from the broker's config: a group that appears
        // after a checkpoint must come back with them, and one restarted with a new config
        // between two polls (a quarter of the views here) changes them with the same members.
        let restarted = rng.next_below(4) == 0;
        group.enable_acting_master = Some((i % 2 == 0) != restarted);
        group.zone_name = (i < 2).then(|| format!("zone-{i}{}", if restarted { "b" } else { "" }));
        group
            .broker_addrs
            .insert(0, format!("10.0.0.{i}:10911").into());
        if rng.next_below(2) == 0 {
            group
                .broker_addrs
                .insert(1, format!("10.0.1.{i}:10911").into());
        }
        v.cluster
            .broker_addr_table
            .insert((*g).into(), group.clone());
        v.cluster
            .cluster_addr_table
            .entry("DefaultCluster".into())
            .or_default()
            .insert((*g).into());
        listed.push(group);
    }
    for t in TOPICS {
        if rng.next_below(4) == 0 {
            continue;
        }
        let mut route = TopicRouteData::default();
        for group in &listed {
            if rng.next_below(2) == 0 {
                continue;
            }
            route.broker_datas.push(group.clone());
            let perm = [2, 4, 6][rng.next_below(3) as usize];
            route.queue_datas.push(
                serde_json::from_value::<QueueData>(serde_json::json!({
                    "brokerName": group.broker_name.as_str(), "readQueueNums": 4, "writeQueueNums": 4,
                    "perm": perm, "topicSysFlag": 0
                }))
                .unwrap(),
            );
        }
        // The topic list is topicQueueTable's keys: a listed topic has queues.
        if route.queue_datas.is_empty() {
            continue;
        }
        v.topics.insert(t.to_owned());
        v.routes.insert(
            t.to_owned(),
            RouteEntry {
                fetched_at_ms: at,
                route: Some(route),
                error: None,
            },
        );
    }
    v
}

/// The tables, routes sorted as compared.
fn tables(v: &NamesrvView) -> impl PartialEq + std::fmt::Debug {
    let routes: BTreeMap<String, Option<TopicRouteData>> = v
        .routes
        .iter()
        .map(|(t, e)| (t.clone(), e.route.as_ref().map(TopicRouteData::sorted)))
        .collect();
    (v.cluster.clone(), v.topics.clone(), routes, v.status)
}

#[test]
fn replaying_the_records_from_a_checkpoint_gives_every_later_view() {
    for seed in 0..200 {
        let mut rng = SeededRng::new(seed);
        let first = random_view(&mut rng, 1_000);
        let mut records = Vec::new();
        let mut views = vec![first.clone()];
        let mut prev = first.clone();
        for step in 1..12u64 {
            let at = 1_000 + step * 2_000;
            let mut next = random_view(&mut rng, at);
            if rng.next_below(5) == 0 {
                // A failed poll keeps the old tables.
                next = prev.clone();
                next.status = NamesrvStatus::Failing;
                next.error = Some("timed out".into());
                next.last_attempt_ms = Some(at);
            }
            records.extend(changes(&prev, &next));
            views.push(next.clone());
            prev = next;
        }
        // From the first view as the checkpoint, every later moment.
        for view in &views {
            let at = view.last_attempt_ms.unwrap();
            let upto = records.iter().filter(|r| r.at_ms <= at);
            let rebuilt = replay(first.clone(), upto);
            assert_eq!(tables(&rebuilt), tables(view), "seed {seed} at {at}");
        }
    }
}

#[test]
fn the_alerts_of_a_moment_are_those_fired_and_not_yet_resolved() {
    let alert = |rule: &str, subject: &str, since_ms| Alert {
        rule: rule.into(),
        subject: subject.into(),
        since_ms,
        summary: format!("{rule} {subject}"),
        advice: String::new(),
    };
    let records = [
        Record::of_alert(&AlertEvent::Fired(alert("broker_gone", "b", 500)), 1_000),
        Record::of_alert(&AlertEvent::Fired(alert("master_lost", "a", 2_000)), 2_000),
        Record::of_alert(
            &AlertEvent::Resolved {
                alert: alert("broker_gone", "b", 500),
                at_ms: 3_000,
            },
            3_000,
        ),
    ];
    let at = |t| -> Vec<(String, u64)> {
        alerts_at(&records, t)
            .into_iter()
            .map(|a| (a.rule, a.since_ms))
            .collect()
    };
    assert_eq!(at(999), []);
    assert_eq!(at(1_000), [("broker_gone".to_owned(), 500)]);
    assert_eq!(
        at(2_500),
        [
            ("broker_gone".to_owned(), 500),
            ("master_lost".to_owned(), 2_000)
        ]
    );
    assert_eq!(at(3_000), [("master_lost".to_owned(), 2_000)]);
}

/// The past sent as changes from the live views is the past itself, whatever the two hold (a
/// NameServer with no data then, one failing now, routes come and gone); and it is applied only to
/// the live update it was made against.
#[test]
fn the_past_from_the_live_views_is_the_past() {
    for seed in 0..200 {
        let mut rng = SeededRng::new(seed);
        let addrs = ["10.0.0.1:9876", "10.0.0.2:9876"];
        let view = |rng: &mut SeededRng, addr: &str, at: u64| {
            let mut v = match rng.next_below(6) {
                0 => NamesrvView::new(addr),
                _ => random_view(rng, at),
            };
            v.addr = addr.to_owned();
            if rng.next_below(4) == 0 {
                v.status = NamesrvStatus::Failing;
                v.error = Some("timed out".into());
            }
            v
        };
        let live: Vec<NamesrvView> = addrs.iter().map(|a| view(&mut rng, a, 9_000)).collect();
        let past: Vec<NamesrvView> = addrs.iter().map(|a| view(&mut rng, a, 3_000)).collect();
        let answer = Past {
            at_ms: 3_000,
            namesrvs: Vec::new(),
            from_live: Some(from_live(7, &live, &past)),
            alerts: Vec::new(),
            consumers: None,
        };
        let same = live.iter().zip(&past).all(|(l, p)| {
            (&l.cluster, &l.topics, &l.routes, l.fetched_at_ms.is_some())
                == (&p.cluster, &p.topics, &p.routes, p.fetched_at_ms.is_some())
        });
        let keeps = answer.from_live.as_ref().unwrap().keeps_tables(&live);
        assert!(
            !keeps || same,
            "seed {seed}: said to keep the tables, but they differ"
        );
        let mut later = live.clone();
        for v in &mut later {
            v.status = NamesrvStatus::Failing;
            v.last_attempt_ms = Some(12_000);
        }
        assert!(
            from_live(7, &live, &later).keeps_tables(&live),
            "seed {seed}: only statuses moved"
        );
        let json = serde_json::to_string(&answer).unwrap();
        let answer: Past = serde_json::from_str(&json).unwrap();
        assert_eq!(
            answer.clone().rebuild(6, &live),
            Rebuilt::Early(Box::new(answer.clone())),
            "seed {seed}"
        );
        assert_eq!(
            answer.clone().rebuild(8, &live),
            Rebuilt::Late,
            "seed {seed}"
        );
        assert_eq!(
            answer.rebuild(7, &live),
            Rebuilt::Views(past),
            "seed {seed}"
        );
    }
}

/// A whole answer (asked for without `from=live`) needs no live state.
#[test]
fn a_whole_past_is_its_views() {
    let past = vec![random_view(&mut SeededRng::new(1), 1_000)];
    let answer = Past {
        at_ms: 1_000,
        namesrvs: past.clone(),
        from_live: None,
        alerts: Vec::new(),
        consumers: None,
    };
    assert_eq!(answer.rebuild(42, &[]), Rebuilt::Views(past));
}

/// A broker gone in the past and back now changes every route the same way: each distinct body
/// is sent once, whatever the number of topics.
#[test]
fn routes_changed_the_same_way_share_one_body() {
    let mut live = NamesrvView::new("10.0.0.1:9876");
    live.fetched_at_ms = Some(9_000);
    let route = |groups: &[&str]| {
        TopicRouteData {
        queue_datas: groups
            .iter()
            .map(|g| {
                serde_json::from_value::<QueueData>(serde_json::json!({
                    "brokerName": g, "readQueueNums": 8, "writeQueueNums": 8, "perm": 6, "topicSysFlag": 0
                }))
                .unwrap()
            })
            .collect(),
        ..TopicRouteData::default()
    }
    };
    for i in 0..1_000 {
        live.topics.insert(format!("T{i:04}"));
        live.routes.insert(
            format!("T{i:04}"),
            RouteEntry {
                fetched_at_ms: 9_000,
                route: Some(route(&["broker-a", "broker-b"])),
                error: None,
            },
        );
    }
    let mut past = live.clone();
    for entry in past.routes.values_mut() {
        entry.route = Some(route(&["broker-a"]));
    }
    let from = from_live(3, std::slice::from_ref(&live), std::slice::from_ref(&past));
    assert_eq!(from.routes.bodies, [route(&["broker-a"])]);
    assert!(serde_json::to_string(&from).unwrap().len() < 40_000);
    let answer = Past {
        at_ms: 3_000,
        namesrvs: Vec::new(),
        from_live: Some(from),
        alerts: Vec::new(),
        consumers: None,
    };
    assert_eq!(answer.rebuild(3, &[live]), Rebuilt::Views(vec![past]));
}
