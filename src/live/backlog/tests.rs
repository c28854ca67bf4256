//! The backlog's targets, figures and view.

use super::*;
use crate::model::broker_stats::{Connection, OffsetWrapper, QueueKey, QueueMap};
use crate::model::{BrokerAddr, BrokerData, BrokerName, ClusterName};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn view(status: NamesrvStatus, groups: &[(&str, &[(i64, &str)])], topics: &[&str]) -> NamesrvView {
    let mut v = NamesrvView::new("ns:9876");
    v.status = status;
    for (name, addrs) in groups {
        v.cluster.broker_addr_table.insert(
            BrokerName::from(*name),
            BrokerData {
                broker_addrs: addrs
                    .iter()
                    .map(|(id, a)| (*id, BrokerAddr::from(*a)))
                    .collect(),
                ..BrokerData::new(ClusterName::from("C"), BrokerName::from(*name))
            },
        );
    }
    v.topics = topics.iter().map(|t| (*t).to_owned()).collect();
    v
}

/// The master, else the lowest slave; groups from retry topics of every NameServer.
#[test]
fn targets_are_masters_or_a_slave_and_retry_groups() {
    let failing = view(
        NamesrvStatus::Failing,
        &[("x", &[(0, "9.9.9.9:1")])],
        &["%RETRY%G3"],
    );
    let ok = view(
        NamesrvStatus::Ok,
        &[
            ("a", &[(0, "a0:1"), (1, "a1:1")]),
            ("b", &[(2, "b2:1"), (1, "b1:1")]),
        ],
        &["T", "%RETRY%G1", "%RETRY%G2", "%RETRY%"],
    );
    let (brokers, groups) = targets(&[failing, ok]);
    let picked: Vec<(&str, &str)> = brokers
        .iter()
        .map(|b| (b.broker_name.as_str(), b.addr.as_str()))
        .collect();
    assert_eq!(picked, [("a", "a0:1"), ("b", "b1:1")]);
    assert_eq!(groups, ["G1", "G2", "G3"]);
}

#[test]
fn keep_last_keeps_the_last_of_each_key_in_place() {
    let mut rows = vec![("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)];
    keep_last(&mut rows, |r| r.0);
    assert_eq!(rows, [("a", 3), ("c", 4), ("b", 5)]);
}

/// Spec: a 5.x broker's runtime table (`getTransferredTps`) and a 4.x one's
/// (`getTransferedTps`) both give the outgoing rate.
#[test]
fn transferred_tps_in_both_spellings() {
    let table = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| *v)
    };
    assert_eq!(
        transferred_tps(table(&[("getTransferredTps", "45.25 1 1")])),
        Some(45.25)
    );
    assert_eq!(
        transferred_tps(table(&[("getTransferedTps", "4.0 5.0 6.0")])),
        Some(4.0)
    );
    assert_eq!(
        transferred_tps(table(&[
            ("getTransferedTps", "4.0"),
            ("getTransferredTps", "5.0")
        ])),
        Some(5.0)
    );
    assert_eq!(transferred_tps(table(&[("putTps", "1.0")])), None);
}

#[test]
fn runtime_figures() {
    assert_eq!(first_figure("12.50 11.00 10.20"), Some(12.5));
    assert_eq!(first_figure("3"), Some(3.0));
    assert_eq!(first_figure(""), None);
    assert_eq!(first_figure("n/a"), None);
}

fn stats(rows: &[(&str, i32, i64, i64)], tps: f64) -> ConsumeStats {
    ConsumeStats {
        offset_table: QueueMap(
            rows.iter()
                .map(|(t, q, b, c)| {
                    (
                        QueueKey {
                            topic: (*t).into(),
                            broker_name: "x".into(),
                            queue_id: *q,
                        },
                        OffsetWrapper {
                            broker_offset: *b,
                            consumer_offset: *c,
                            last_timestamp: 0,
                        },
                    )
                })
                .collect(),
        ),
        consume_tps: tps,
    }
}

/// Backlog summed per group and topic over brokers, members counted once across brokers, and an
/// offline group listed with 0.
#[test]
fn backlog_online_and_tps() {
    let member = |id: &str| Connection {
        client_id: id.into(),
        ..Connection::default()
    };
    let cc = |ids: &[&str]| ConsumerConnection {
        connection_set: ids.iter().map(|i| member(i)).collect(),
        ..ConsumerConnection::default()
    };
    let mut a = BrokerAnswers::default();
    a.groups.insert(
        "G1".into(),
        stats(
            &[("T", 0, 10, 4), ("T", 1, 5, 5), ("%RETRY%G1", 0, 0, 0)],
            2.0,
        ),
    );
    a.connections.insert("G1".into(), cc(&["1@a", "2@b"]));
    let mut b = BrokerAnswers::default();
    b.groups.insert("G1".into(), stats(&[("T", 0, 7, 1)], 1.5));
    b.connections.insert("G1".into(), cc(&["2@b"]));
    let target = |n: &str| BrokerTarget {
        cluster: "C".into(),
        broker_name: n.into(),
        addr: format!("{n}:1"),
        slaves: Vec::new(),
    };
    let state = BacklogState {
        brokers: [
            ("a".into(), (target("a"), a)),
            ("b".into(), (target("b"), b)),
        ]
        .into(),
        groups: vec!["G1".into(), "G2".into()],
        poll_ms: 3,
        owners: Owners::default(),
        spans: BTreeMap::new(),
        topics: Default::default(),
    };
    let backlog = state.backlog();
    assert_eq!(backlog[&("G1".to_owned(), "T".to_owned())], 12);
    assert_eq!(backlog[&("G1".to_owned(), "%RETRY%G1".to_owned())], 0);
    assert_eq!(
        state.online(),
        [("G1".to_owned(), 2), ("G2".to_owned(), 0)].into()
    );
    assert_eq!(state.consume_tps()["G1"], 3.5);
    let view = state.view(99);
    assert_eq!(view.groups.len(), 2);
    let g1 = &view.groups[0];
    let members: Vec<&str> = g1.members.iter().map(|m| m.client_id.as_str()).collect();
    assert_eq!(members, ["1@a", "2@b"]);
    // Both brokers reported broker x's queue T/0 (this test's stats name one broker): the last
    // answer stands, as `putAll` into one map.
    let queues: Vec<(&str, i32, i64)> = g1
        .queues
        .iter()
        .map(|q| (q.topic.as_str(), q.queue_id, q.backlog()))
        .collect();
    assert_eq!(queues, [("%RETRY%G1", 0, 0), ("T", 0, 6), ("T", 1, 0)]);
    assert_eq!(view.groups[1].members, []);
    assert_eq!(view.brokers.len(), 2);
}

fn pair(t: &str, b: &str) -> (String, String) {
    (t.to_owned(), b.to_owned())
}

/// A consumed topic's offsets come with its consume stats: each queue once (the highest any
/// group saw), summed per broker; topics not asked for are left out.
#[test]
fn offsets_from_consume_stats() {
    use crate::model::broker_stats::{ConsumeStats, OffsetWrapper, QueueKey, QueueMap};
    let stats = |rows: &[(&str, i32, i64)]| ConsumeStats {
        offset_table: QueueMap(
            rows.iter()
                .map(|(t, q, b)| {
                    (
                        QueueKey {
                            topic: (*t).into(),
                            broker_name: "a".into(),
                            queue_id: *q,
                        },
                        OffsetWrapper {
                            broker_offset: *b,
                            ..OffsetWrapper::default()
                        },
                    )
                })
                .collect(),
        ),
        ..ConsumeStats::default()
    };
    let mut answers = BrokerAnswers {
        fetched_at_ms: 7,
        ..BrokerAnswers::default()
    };
    answers.groups.insert(
        "G1".into(),
        stats(&[("T", 0, 10), ("T", 1, 20), ("U", 0, 5)]),
    );
    answers.groups.insert("G2".into(), stats(&[("T", 0, 12)]));
    let target = BrokerTarget {
        cluster: "C".into(),
        broker_name: "a".into(),
        addr: "a:1".into(),
        slaves: Vec::new(),
    };
    let state = BacklogState {
        brokers: [("a".to_owned(), (target, answers))].into(),
        ..BacklogState::default()
    };
    let got = state.consumed_topic_offsets(&[pair("T", "a"), pair("V", "a")]);
    assert_eq!(got, BTreeMap::from([(pair("T", "a"), (32, 7))]));
}
