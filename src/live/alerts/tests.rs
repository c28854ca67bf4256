// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::live::RouteEntry;
use crate::model::{BrokerData, QueueData};

const NS1: &str = "127.0.0.1:9876";
const NS2: &str = "127.0.0.1:9877";

/// A NameServer that answered at `at`, listing `brokers` (name, id, addr) and topic T routed to
/// broker-a with `perm`.
fn view(addr: &str, at: u64, brokers: &[(&str, i64, &str)], perm: i32) -> NamesrvView {
    let mut v = NamesrvView::new(addr);
    v.status = NamesrvStatus::Ok;
    v.fetched_at_ms = Some(at);
    v.last_attempt_ms = Some(at);
    for (name, id, a) in brokers {
        let group = v
            .cluster
            .broker_addr_table
            .entry((*name).into())
            .or_insert_with(|| BrokerData::new("DefaultCluster".into(), (*name).into()));
        group.broker_addrs.insert(*id, (*a).into());
    }
    let mut route = TopicRouteData::default();
    route.queue_datas.push(
        serde_json::from_value::<QueueData>(serde_json::json!({
            "brokerName": "broker-a", "readQueueNums": 4, "writeQueueNums": 4,
            "perm": perm, "topicSysFlag": 0
        }))
        .unwrap(),
    );
    if let Some(g) = v.cluster.broker_addr_table.get("broker-a") {
        route.broker_datas.push(g.clone());
    }
    v.topics.insert("T".into());
    v.routes.insert(
        "T".into(),
        RouteEntry {
            fetched_at_ms: at,
            route: Some(route),
            error: None,
        },
    );
    v
}

const AB: &[(&str, i64, &str)] = &[
    ("broker-a", 0, "10.0.0.1:10911"),
    ("broker-b", 0, "10.0.0.2:10911"),
];

fn fired(events: &[AlertEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            AlertEvent::Fired(a) => Some((a.rule.clone(), a.subject.clone())),
            AlertEvent::Resolved { .. } => None,
        })
        .collect()
}

fn resolved(events: &[AlertEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            AlertEvent::Resolved { alert, .. } => Some((alert.rule.clone(), alert.subject.clone())),
            AlertEvent::Fired(_) => None,
        })
        .collect()
}

fn pair(rule: &str, subject: &str) -> (String, String) {
    (rule.to_owned(), subject.to_owned())
}

/// Evaluates as the hub does: the tables said to have changed each time.
fn eval(alerts: &mut Alerts, views: &[NamesrvView], now: u64) -> Vec<AlertEvent> {
    alerts.views_changed();
    alerts.evaluate(views, now)
}

#[test]
fn a_healthy_cluster_raises_nothing() {
    let mut alerts = Alerts::new(AlertConfig::default());
    for t in [1_000, 3_000, 200_000] {
        assert_eq!(eval(&mut alerts, &[view(NS1, t, AB, 6)], t), []);
    }
    assert_eq!(alerts.active().count(), 0);
}

#[test]
fn a_group_without_its_master_fires_and_resolves_when_it_is_back() {
    let mut alerts = Alerts::new(AlertConfig::default());
    let slave_only = [
        ("broker-a", 1, "10.0.0.11:10911"),
        ("broker-b", 0, "10.0.0.2:10911"),
    ];
    let got = eval(&mut alerts, &[view(NS1, 1_000, &slave_only, 6)], 1_000);
    assert!(
        fired(&got).contains(&pair("master_lost", "broker-a")),
        "{got:?}"
    );
    // T's only queues are on that group: nothing can be written to T either.
    assert!(
        fired(&got).contains(&pair("no_writable_queue", "T")),
        "{got:?}"
    );
    let a = alerts.active().find(|a| a.rule == "master_lost").unwrap();
    assert_eq!(a.since_ms, 1_000);
    assert!(
        a.summary.contains("broker group broker-a has no master"),
        "{}",
        a.summary
    );
    assert!(!a.advice.is_empty());
    assert_eq!(
        eval(&mut alerts, &[view(NS1, 3_000, &slave_only, 6)], 3_000),
        [],
        "fires once"
    );

    let got = eval(&mut alerts, &[view(NS1, 5_000, AB, 6)], 5_000);
    assert_eq!(
        resolved(&got),
        [
            pair("master_lost", "broker-a"),
            pair("no_writable_queue", "T")
        ]
    );
}

#[test]
fn a_broker_gone_longer_than_the_grace_fires_and_resolves_when_back() {
    let mut alerts = Alerts::new(AlertConfig::default());
    eval(&mut alerts, &[view(NS1, 0, AB, 6)], 0);
    let only_a = &AB[..1];
    assert_eq!(
        eval(&mut alerts, &[view(NS1, 30_000, only_a, 6)], 30_000),
        []
    );
    assert_eq!(
        eval(&mut alerts, &[view(NS1, 60_000, only_a, 6)], 60_000),
        [],
        "60 s is the grace"
    );
    let got = eval(&mut alerts, &[view(NS1, 62_000, only_a, 6)], 62_000);
    assert_eq!(fired(&got), [pair("broker_gone", "10.0.0.2:10911")]);
    let a = alerts.active().next().unwrap();
    assert_eq!(a.since_ms, 0, "since it was last listed");
    assert_eq!(
        a.summary,
        "broker broker-b (10.0.0.2:10911) is not listed by any NameServer"
    );
    let got = eval(&mut alerts, &[view(NS1, 64_000, AB, 6)], 64_000);
    assert_eq!(resolved(&got), [pair("broker_gone", "10.0.0.2:10911")]);
}

#[test]
fn a_namesrv_that_fails_is_unreachable_and_its_brokers_are_not_gone() {
    let mut alerts = Alerts::new(AlertConfig::default());
    let ok = view(NS1, 0, AB, 6);
    eval(&mut alerts, std::slice::from_ref(&ok), 0);
    let mut failing = ok.clone();
    failing.status = NamesrvStatus::Failing;
    failing.error = Some("connection refused".into());
    failing.last_attempt_ms = Some(2_000);
    let got = eval(&mut alerts, std::slice::from_ref(&failing), 2_000);
    assert_eq!(fired(&got), [pair("namesrv_unreachable", NS1)]);
    assert_eq!(
        alerts.active().next().unwrap().summary,
        "NameServer 127.0.0.1:9876 is not answering: connection refused"
    );
    // Long after: still only unreachable; what it last listed is not "gone".
    failing.last_attempt_ms = Some(500_000);
    assert_eq!(
        eval(&mut alerts, std::slice::from_ref(&failing), 500_000),
        []
    );
    let got = eval(&mut alerts, &[view(NS1, 502_000, AB, 6)], 502_000);
    assert_eq!(resolved(&got), [pair("namesrv_unreachable", NS1)]);
}

#[test]
fn a_wiped_write_perm_leaves_a_topic_without_writable_queues() {
    let mut alerts = Alerts::new(AlertConfig::default());
    let got = eval(&mut alerts, &[view(NS1, 0, AB, 4)], 0);
    assert_eq!(fired(&got), [pair("no_writable_queue", "T")]);
    let got = eval(&mut alerts, &[view(NS1, 2_000, AB, 6)], 2_000);
    assert_eq!(resolved(&got), [pair("no_writable_queue", "T")]);
}

/// RocketMQ's own topics are not produced to: a 5.x broker's rmq_sys_SYNC_BROKER_MEMBER_<name> is
/// created with PERM_INHERIT (TopicConfigManager, 5.3.3) and never has a writable queue.
#[test]
fn system_topics_without_writable_queues_do_not_fire() {
    let mut alerts = Alerts::new(AlertConfig::default());
    let mut v = view(NS1, 0, AB, 6);
    let route = v.routes["T"].clone();
    let mut sync = route.clone();
    sync.route.as_mut().unwrap().queue_datas[0].perm = 1;
    for topic in ["rmq_sys_SYNC_BROKER_MEMBER_broker-a", "%RETRY%G"] {
        v.topics.insert(topic.into());
        v.routes.insert(topic.into(), sync.clone());
    }
    assert_eq!(eval(&mut alerts, &[v], 0), []);
}

#[test]
fn namesrvs_disagreeing_for_more_than_two_polls_fire() {
    let config = AlertConfig {
        interval_ms: 2_000,
        ..AlertConfig::default()
    };
    let mut alerts = Alerts::new(config);
    let both = |t| [view(NS1, t, AB, 6), view(NS2, t, &AB[..1], 2)];
    assert_eq!(eval(&mut alerts, &both(0), 0), []);
    assert_eq!(eval(&mut alerts, &both(2_000), 2_000), []);
    assert_eq!(
        eval(&mut alerts, &both(4_000), 4_000),
        [],
        "two polls are not enough"
    );
    let got = eval(&mut alerts, &both(6_000), 6_000);
    assert_eq!(
        fired(&got),
        [
            pair("namesrv_disagree", "brokers"),
            pair("namesrv_disagree", "routes")
        ]
    );
    let routes = alerts.active().find(|a| a.subject == "routes").unwrap();
    assert_eq!(routes.summary, "NameServers disagree on the routes of T");
    assert_eq!(routes.since_ms, 0);
    let agree = [view(NS1, 8_000, AB, 6), view(NS2, 8_000, AB, 6)];
    assert_eq!(resolved(&eval(&mut alerts, &agree, 8_000)).len(), 2);
}

#[test]
fn a_broker_back_three_times_in_ten_minutes_is_flapping() {
    let mut alerts = Alerts::new(AlertConfig::default());
    let only_a = &AB[..1];
    let mut t = 0;
    let mut events = Vec::new();
    for _ in 0..3 {
        events.extend(eval(&mut alerts, &[view(NS1, t, AB, 6)], t));
        t += 30_000;
        events.extend(eval(&mut alerts, &[view(NS1, t, only_a, 6)], t));
        t += 30_000;
    }
    events.extend(eval(&mut alerts, &[view(NS1, t, AB, 6)], t));
    assert_eq!(fired(&events), [pair("broker_flapping", "10.0.0.2:10911")]);
    let a = alerts.active().next().unwrap();
    assert_eq!(
        a.summary,
        "broker broker-b (10.0.0.2:10911) left and came back 3 times in 10 minutes"
    );
    assert!(a.advice.contains("scanNotActiveBrokerInterval"));
    // Ten quiet minutes later the first return has left the window.
    let later = t + 600_000 - 60_000 + 1;
    let got = eval(&mut alerts, &[view(NS1, later, AB, 6)], later);
    assert_eq!(resolved(&got), [pair("broker_flapping", "10.0.0.2:10911")]);
}

#[test]
fn alerts_read_back_from_json() {
    let mut alerts = Alerts::new(AlertConfig::default());
    for e in eval(&mut alerts, &[view(NS1, 0, AB, 4)], 0) {
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["state"], "fired");
        assert_eq!(json["rule"], "no_writable_queue");
        assert_eq!(serde_json::from_value::<AlertEvent>(json).unwrap(), e);
    }
}
