// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::live::view::{NamesrvStatus, NamesrvView};
use crate::live::RouteEntry;
use crate::model::{BrokerData, QueueData, TopicRouteData};

fn queue(broker: &str, perm: i32) -> QueueData {
    serde_json::from_value(serde_json::json!({
        "brokerName": broker, "readQueueNums": 4, "writeQueueNums": 4,
        "perm": perm, "topicSysFlag": 0
    }))
    .unwrap()
}

fn group(broker: &str, addr: &str) -> BrokerData {
    let mut b = BrokerData::new("DefaultCluster".into(), broker.into());
    b.broker_addrs.insert(0, addr.into());
    b
}

fn route(brokers: &[(&str, i32)]) -> TopicRouteData {
    let mut r = TopicRouteData::default();
    for (i, (b, perm)) in brokers.iter().enumerate() {
        r.queue_datas.push(queue(b, *perm));
        r.broker_datas
            .push(group(b, &format!("10.0.0.{}:10911", i + 1)));
    }
    r
}

/// A NameServer polled at `at` listing `brokers` and `routes`.
fn view(
    at: u64,
    brokers: &[(&str, &str)],
    routes: &[(&str, Option<TopicRouteData>)],
) -> NamesrvView {
    let mut v = NamesrvView::new("127.0.0.1:9876");
    v.status = NamesrvStatus::Ok;
    v.fetched_at_ms = Some(at);
    v.last_attempt_ms = Some(at);
    for (name, addr) in brokers {
        v.cluster
            .broker_addr_table
            .insert((*name).into(), group(name, addr));
        v.cluster
            .cluster_addr_table
            .entry("DefaultCluster".into())
            .or_default()
            .insert((*name).into());
    }
    for (topic, r) in routes {
        v.topics.insert((*topic).to_owned());
        v.routes.insert(
            (*topic).to_owned(),
            RouteEntry {
                fetched_at_ms: at,
                route: r.clone(),
                error: None,
            },
        );
    }
    v
}

const AB: &[(&str, &str)] = &[
    ("broker-a", "10.0.0.1:10911"),
    ("broker-b", "10.0.0.2:10911"),
];

fn kinds(records: &[Record]) -> Vec<&'static str> {
    records.iter().map(|r| r.change.kind()).collect()
}

#[test]
fn an_idle_poll_records_nothing() {
    let r = Some(route(&[("broker-a", 6), ("broker-b", 6)]));
    let old = view(1_000, AB, &[("TopicTest", r.clone())]);
    let mut new = view(2_000, AB, &[("TopicTest", r)]);
    new.poll_duration_ms = Some(12);
    new.broker_live = Some(Default::default());
    assert_eq!(changes(&old, &new), []);
}

#[test]
fn the_first_poll_starts_recording_without_listing_what_was_there() {
    let mut old = NamesrvView::new("127.0.0.1:9876");
    old.last_attempt_ms = Some(500);
    let new = view(1_000, AB, &[("TopicTest", Some(route(&[("broker-a", 6)])))]);
    let got = changes(&old, &new);
    assert_eq!(
        got,
        [Record {
            at_ms: 1_000,
            since_ms: None,
            namesrv: Some("127.0.0.1:9876".into()),
            change: Change::RecordingStarted {
                brokers: 2,
                topics: 1
            },
        }]
    );
    assert_eq!(
        got[0].change.describe(),
        "recording started: 2 brokers and 1 topic listed"
    );
}

#[test]
fn a_broker_gone_and_one_appearing_are_bounded_by_the_two_polls() {
    let old = view(1_000, AB, &[]);
    let new = view(
        2_000,
        &[
            ("broker-a", "10.0.0.1:10911"),
            ("broker-c", "10.0.0.3:10911"),
        ],
        &[],
    );
    let got = changes(&old, &new);
    assert_eq!(kinds(&got), ["broker_gone", "broker_appeared"]);
    assert!(got
        .iter()
        .all(|r| r.at_ms == 2_000 && r.since_ms == Some(1_000)));
    assert_eq!(
        got[0].change.describe(),
        "broker-b (id 0, 10.0.0.2:10911) is gone from cluster DefaultCluster"
    );
    assert!(got[0].change.concerns_broker("broker-b"));
    assert!(got[0].change.concerns_broker("10.0.0.2:10911"));
    assert!(!got[0].change.concerns_broker("broker-a"));
}

#[test]
fn a_group_restarted_with_a_new_config_is_a_group_change_with_both_values() {
    // RouteInfoManager.registerBroker (5.x) writes zoneName and enableActingMaster on the group at
    // every registration: the members stay, the attributes change.
    let mut old = view(1_000, AB, &[]);
    let mut new = view(2_000, AB, &[]);
    for (v, zone, acting) in [(&mut old, None, false), (&mut new, Some("az-2"), true)] {
        let g = v.cluster.broker_addr_table.get_mut("broker-a").unwrap();
        g.zone_name = zone.map(Into::into);
        g.enable_acting_master = Some(acting);
        let b = v.cluster.broker_addr_table.get_mut("broker-b").unwrap();
        b.enable_acting_master = Some(false);
    }
    let got = changes(&old, &new);
    assert_eq!(kinds(&got), ["group_changed"]);
    assert_eq!(
        got[0].change,
        Change::GroupChanged {
            cluster: "DefaultCluster".into(),
            broker_name: "broker-a".into(),
            zone_name: Some((None, Some("az-2".into()))),
            enable_acting_master: Some((Some(false), Some(true))),
        }
    );
    assert_eq!(
        got[0].change.describe(),
        "group broker-a of cluster DefaultCluster changed: zoneName — → az-2, enableActingMaster false → true"
    );
    assert_eq!(
        got[0].change.describe_in(crate::i18n::Lang::Zh),
        "集群 DefaultCluster 的 broker 组 broker-a 属性变了：zoneName — → az-2, enableActingMaster false → true"
    );
    assert!(got[0].change.concerns_broker("broker-a"));
    // In JSON each attribute is [before, after]; one that did not change is left out.
    let json = serde_json::to_value(&got[0]).unwrap();
    assert_eq!(json["kind"], "group_changed");
    assert_eq!(json["zone_name"], serde_json::json!([null, "az-2"]));
    assert_eq!(
        json["enable_acting_master"],
        serde_json::json!([false, true])
    );
    let back: Record = serde_json::from_value(json).unwrap();
    assert_eq!(back, got[0]);
}

#[test]
fn a_wiped_write_perm_is_a_perm_change_and_a_lost_queue_a_route_change() {
    let old = view(
        1_000,
        AB,
        &[("T", Some(route(&[("broker-a", 6), ("broker-b", 6)])))],
    );
    let wiped = view(
        2_000,
        AB,
        &[("T", Some(route(&[("broker-a", 4), ("broker-b", 6)])))],
    );
    let got = changes(&old, &wiped);
    assert_eq!(kinds(&got), ["perm_changed"]);
    assert_eq!(
        got[0].change.describe(),
        "perm of T changed: broker-a RW- → R--"
    );
    assert!(got[0].change.concerns_broker("broker-a"));
    assert_eq!(got[0].change.topic(), Some("T"));

    let shrunk = view(3_000, AB, &[("T", Some(route(&[("broker-a", 4)])))]);
    let got = changes(&wiped, &shrunk);
    assert_eq!(kinds(&got), ["route_changed"]);
    assert_eq!(
        got[0].change.describe(),
        "route of T changed: broker-a 4w/4r R--, broker-b 4w/4r RW- → broker-a 4w/4r R--"
    );
    assert!(
        got[0].change.concerns_broker("broker-b"),
        "it was in the route before"
    );
}

#[test]
fn a_route_fetched_for_the_first_time_is_not_a_change() {
    let mut old = view(1_000, AB, &[]);
    old.topics.insert("Big".into()); // listed, its route not fetched yet
    let new = view(2_000, AB, &[("Big", Some(route(&[("broker-a", 6)])))]);
    assert_eq!(changes(&old, &new), []);
}

#[test]
fn topics_added_and_removed() {
    let old = view(1_000, AB, &[("Old", Some(route(&[("broker-a", 6)])))]);
    let new = view(2_000, AB, &[("New", Some(route(&[("broker-b", 6)])))]);
    let got = changes(&old, &new);
    assert_eq!(kinds(&got), ["topic_removed", "topic_added"]);
    assert_eq!(
        got[1].change.describe(),
        "topic New added: broker-b 4w/4r RW-"
    );
    assert!(got[1].change.concerns_broker("broker-b"));
}

#[test]
fn failing_and_recovering_are_recorded_once() {
    let ok = view(1_000, AB, &[]);
    let mut failing = ok.clone();
    failing.status = NamesrvStatus::Failing;
    failing.error = Some("connection refused".into());
    failing.last_attempt_ms = Some(2_000);
    let got = changes(&ok, &failing);
    assert_eq!(kinds(&got), ["namesrv_failed"]);
    assert_eq!((got[0].at_ms, got[0].since_ms), (2_000, Some(1_000)));
    assert_eq!(
        got[0].change.describe(),
        "NameServer not answering: connection refused"
    );

    let mut still = failing.clone();
    still.error = Some("timed out".into());
    still.last_attempt_ms = Some(3_000);
    assert_eq!(
        changes(&failing, &still),
        [],
        "a new error text is not a new failure"
    );

    let back = view(4_000, AB, &[]);
    assert_eq!(kinds(&changes(&still, &back)), ["namesrv_recovered"]);
}

#[test]
fn the_recorder_notes_disagreement_starting_and_ending() {
    let r = Some(route(&[("broker-a", 6)]));
    let ns1 = view(1_000, AB, &[("T", r.clone())]);
    let mut ns2 = view(1_000, AB, &[("T", r.clone())]);
    ns2.addr = "127.0.0.1:9877".into();
    let mut rec = Recorder::new();
    assert_eq!(
        rec.observe(&ns1, &ns1, &[ns1.clone(), ns2.clone()], 1_000),
        []
    );

    // ns1 loses broker-b and T's route changes there: both are now disagreements.
    let ns1b = view(2_000, &AB[..1], &[("T", Some(route(&[("broker-a", 4)])))]);
    let got = rec.observe(&ns1, &ns1b, &[ns1b.clone(), ns2.clone()], 2_000);
    assert_eq!(
        kinds(&got),
        [
            "broker_gone",
            "perm_changed",
            "disagreement_started",
            "disagreement_started"
        ]
    );
    assert_eq!(got[2].namesrv, None);
    assert_eq!(
        got[2].change.describe(),
        "NameServers disagree on the route of T"
    );
    assert_eq!(
        got[3].change.describe(),
        "NameServers disagree on whether 10.0.0.2:10911 is listed"
    );

    // An idle poll of ns1 changes nothing; ns1 back as it was ends both.
    let mut idle = ns1b.clone();
    idle.fetched_at_ms = Some(3_000);
    assert_eq!(
        rec.observe(&ns1b, &idle, &[idle.clone(), ns2.clone()], 3_000),
        []
    );
    let again = view(4_000, AB, &[("T", r)]);
    let got = rec.observe(&idle, &again, &[again.clone(), ns2], 4_000);
    assert_eq!(
        kinds(&got),
        [
            "broker_appeared",
            "perm_changed",
            "disagreement_ended",
            "disagreement_ended"
        ]
    );
}

#[test]
fn records_read_back_from_json() {
    let old = view(1_000, AB, &[("T", Some(route(&[("broker-a", 6)])))]);
    let new = view(2_000, &AB[..1], &[("T", Some(route(&[("broker-a", 2)])))]);
    for record in changes(&old, &new) {
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["kind"], record.change.kind());
        let back: Record = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);
    }
}

#[test]
fn records_read_in_chinese_with_rocketmqs_names_kept() {
    use crate::i18n::Lang;
    let old = view(
        1_000,
        AB,
        &[("T", Some(route(&[("broker-a", 6), ("broker-b", 6)])))],
    );
    let new = view(2_000, &AB[..1], &[("T", Some(route(&[("broker-a", 4)])))]);
    let got = changes(&old, &new);
    let zh: Vec<String> = got.iter().map(|r| r.change.describe_in(Lang::Zh)).collect();
    assert_eq!(
        zh,
        [
            "broker-b（id 0，10.0.0.2:10911）已从集群 DefaultCluster 中消失",
            "T 的路由变了：broker-a 4w/4r RW-, broker-b 4w/4r RW- → broker-a 4w/4r R--",
        ]
    );
    let started = Change::RecordingStarted {
        brokers: 1,
        topics: 3,
    };
    assert_eq!(
        started.describe(),
        "recording started: 1 broker and 3 topics listed"
    );
    assert_eq!(
        started.describe_in(Lang::Zh),
        "开始记录：列出了 1 个 broker 和 3 个 topic"
    );
}

#[test]
fn a_broker_leaving_many_topics_is_one_record_and_a_checkpoint() {
    let topics: Vec<String> = (0..100).map(|i| format!("T{i:03}")).collect();
    let both = Some(route(&[("broker-a", 6), ("broker-b", 6)]));
    let only_a = Some(route(&[("broker-a", 6)]));
    let with = |at, r: &Option<TopicRouteData>, brokers| {
        let routes: Vec<(&str, Option<TopicRouteData>)> =
            topics.iter().map(|t| (t.as_str(), r.clone())).collect();
        view(at, brokers, &routes)
    };
    let (old, new) = (with(1_000, &both, AB), with(2_000, &only_a, &AB[..1]));
    let mut rec = Recorder::new();
    assert!(rec.wants_checkpoint(&old, false, 1_000), "the first one");
    let got = rec.observe(&old, &new, std::slice::from_ref(&new), 2_000);
    assert_eq!(kinds(&got), ["broker_gone", "routes_changed"]);
    assert_eq!(
        got[1].change.describe(),
        "the routes of 100 topics changed: T000, T001, T002, T003, T004, T005, T006, T007 …"
    );
    assert!(
        rec.wants_checkpoint(&new, true, 2_000),
        "kept whole instead of 100 routes"
    );
    assert!(!rec.wants_checkpoint(&new, true, 3_000), "once");
}

/// Issue 39 (live): a controller's failover — the slave at id 2 moves to id 0 and the old master
/// leaves — is one `master_changed` record, not three gone/appeared ones; a replay rebuilds the
/// group as it is now; the old master coming back as a slave is a broker appearing.
#[test]
fn a_master_moving_to_another_address_is_one_record() {
    let members = |ids: &[(i64, &str)]| {
        let mut v = view(0, &[], &[]);
        let mut g = BrokerData::new("DefaultCluster".into(), "broker-b".into());
        for (id, addr) in ids {
            g.broker_addrs.insert(*id, (*addr).into());
        }
        v.cluster.broker_addr_table.insert("broker-b".into(), g);
        v.cluster
            .cluster_addr_table
            .entry("DefaultCluster".into())
            .or_default()
            .insert("broker-b".into());
        v
    };
    let at = |mut v: NamesrvView, t: u64| {
        v.fetched_at_ms = Some(t);
        v.last_attempt_ms = Some(t);
        v
    };
    let before = at(
        members(&[
            (0, "10.0.1.1:10911"),
            (2, "10.0.1.2:10911"),
            (3, "10.0.1.3:10911"),
        ]),
        1_000,
    );
    let failed_over = at(
        members(&[(0, "10.0.1.2:10911"), (3, "10.0.1.3:10911")]),
        2_000,
    );
    let got = changes(&before, &failed_over);
    assert_eq!(kinds(&got), ["master_changed"]);
    assert_eq!(
        got[0].change,
        Change::MasterChanged {
            cluster: "DefaultCluster".into(),
            broker_name: "broker-b".into(),
            old_addr: Some("10.0.1.1:10911".into()),
            new_addr: "10.0.1.2:10911".into(),
            new_was_id: Some(2),
        }
    );
    assert_eq!(
        got[0].change.describe(),
        "broker-b's master in cluster DefaultCluster is now 10.0.1.2:10911, until now its slave id 2 (it was 10.0.1.1:10911): a failover"
    );
    assert!(got[0].change.concerns_broker("10.0.1.1:10911"));
    // A replay of the record rebuilds the group.
    let replayed = crate::live::replay::replay(before.clone(), &got);
    assert_eq!(
        replayed
            .cluster
            .broker_addr_table
            .get("broker-b")
            .unwrap()
            .broker_addrs,
        failed_over
            .cluster
            .broker_addr_table
            .get("broker-b")
            .unwrap()
            .broker_addrs
    );
    // The old master back as a slave: a broker appearing.
    let back = at(
        members(&[
            (0, "10.0.1.2:10911"),
            (1, "10.0.1.1:10911"),
            (3, "10.0.1.3:10911"),
        ]),
        3_000,
    );
    assert_eq!(kinds(&changes(&failed_over, &back)), ["broker_appeared"]);
    // A first master in a group that had none is a broker appearing too.
    let empty = at(members(&[(3, "10.0.1.3:10911")]), 1_000);
    let first = at(
        members(&[(0, "10.0.1.9:10911"), (3, "10.0.1.3:10911")]),
        2_000,
    );
    assert_eq!(kinds(&changes(&empty, &first)), ["broker_appeared"]);
}
