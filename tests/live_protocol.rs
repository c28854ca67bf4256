//! The live protocol (src/live): diff then apply reproduces the new view, messages survive JSON, the
//! reducer refuses what it cannot apply, and an idle update is tiny next to a snapshot.
#![cfg(not(target_arch = "wasm32"))]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use routelab::live::{
    BrokerLive, Freshness, LiveError, LiveState, NamesrvStatus, NamesrvView, RouteEntry,
    ServerMessage, Snapshot, Source, SourceKind, Update, PROTOCOL_VERSION,
};
use routelab::model::{BrokerData, QueueData, TopicRouteData};

fn route(groups: &[&str], queues: i32) -> TopicRouteData {
    let mut r = TopicRouteData::default();
    for g in groups {
        r.queue_datas.push(
            serde_json::from_value::<QueueData>(serde_json::json!({
                "brokerName": g, "readQueueNums": queues, "writeQueueNums": queues,
                "perm": 6, "topicSysFlag": 0
            }))
            .unwrap(),
        );
        let mut b = BrokerData::new("DefaultCluster".into(), (*g).into());
        b.broker_addrs
            .insert(0, format!("10.0.0.{}:10911", g.len()).into());
        r.broker_datas.push(b);
    }
    r
}

fn view(topics: usize, at: u64) -> NamesrvView {
    let mut v = NamesrvView::new("127.0.0.1:9876");
    v.status = NamesrvStatus::Ok;
    v.fetched_at_ms = Some(at);
    for i in 0..topics {
        let t = format!("Topic{i}");
        v.topics.insert(t.clone());
        v.routes.insert(
            t,
            RouteEntry {
                fetched_at_ms: at,
                route: Some(route(&["broker-a", "broker-b"], 8)),
                error: None,
            },
        );
    }
    v
}

fn source() -> Source {
    Source {
        kind: SourceKind::Bridge,
        version: routelab::VERSION.into(),
        interval_ms: 2_000,
        read_only: true,
        commands: false,
    }
}

fn snapshot(seq: u64, views: Vec<NamesrvView>) -> ServerMessage {
    ServerMessage::Snapshot(Snapshot {
        protocol: PROTOCOL_VERSION,
        seq,
        sent_at_ms: 1_000,
        source: source(),
        namesrvs: views,
        alerts: Vec::new(),
        consumers: None,
    })
}

fn arb_view() -> impl Strategy<Value = NamesrvView> {
    (
        prop::sample::select(vec![
            NamesrvStatus::Connecting,
            NamesrvStatus::Ok,
            NamesrvStatus::Failing,
        ]),
        prop::option::of("[a-z ]{0,8}"),
        prop::option::of(0u64..10),
        prop::collection::btree_map(
            "T[0-4]",
            (0u64..3, prop::option::of(1i32..3), prop::option::of("e")),
            0..5,
        ),
        prop::option::of(prop::collection::btree_map("a[0-2]", 0u64..3, 0..3)),
    )
        .prop_map(|(status, error, fetched, routes, live)| {
            let mut v = NamesrvView::new("ns");
            v.status = status;
            v.error = error;
            v.fetched_at_ms = fetched;
            v.topics = routes.keys().cloned().collect();
            v.routes = routes
                .into_iter()
                .map(|(t, (at, q, e))| {
                    let entry = RouteEntry {
                        fetched_at_ms: at,
                        route: q.map(|q| route(&["broker-a"], q)),
                        error: e,
                    };
                    (t, entry)
                })
                .collect();
            v.broker_live = live.map(|m| {
                m.into_iter()
                    .map(|(a, at)| {
                        let live = BrokerLive {
                            last_update_ms: at,
                            timeout_ms: 120_000,
                        };
                        (a, live)
                    })
                    .collect()
            });
            v
        })
}

proptest! {
    /// What the hub reads off a delta (whether only times moved) is what comparing the whole
    /// views says: the history and the alerts skip their work on it.
    #[test]
    fn the_delta_tells_whether_the_tables_changed(old in arb_view(), new in arb_view()) {
        if let Some(delta) = old.diff(&new) {
            prop_assert_eq!(
                old.same_tables(&new, &delta),
                routelab::live::history::same_content(&old, &new)
            );
        }
        let mut refetched = old.clone();
        refetched.fetched_at_ms = old.fetched_at_ms.map(|t| t + 1);
        for e in refetched.routes.values_mut() {
            e.fetched_at_ms += 1;
        }
        if let Some(delta) = old.diff(&refetched) {
            prop_assert!(old.same_tables(&refetched, &delta));
        }
    }

    /// diff then apply gives exactly the new view, also after a JSON round trip of the delta.
    #[test]
    fn diff_then_apply_reproduces_the_new_view(old in arb_view(), new in arb_view()) {
        match old.diff(&new) {
            None => prop_assert_eq!(&old, &new),
            Some(delta) => {
                let json = serde_json::to_string(&delta).unwrap();
                let mut applied = old.clone();
                applied.apply(serde_json::from_str(&json).unwrap());
                prop_assert_eq!(applied, new);
            }
        }
    }
}

#[test]
fn messages_round_trip_through_json_with_a_type_tag() {
    let msg = snapshot(7, vec![view(3, 500)]);
    let json = serde_json::to_string(&msg).unwrap();
    assert!(
        json.starts_with(r#"{"type":"snapshot","protocol":1,"seq":7"#),
        "{json}"
    );
    assert!(
        json.contains(r#""brokerAddrs":{"0":"10.0.0.8:10911"}"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<ServerMessage>(&json).unwrap(), msg);
}

#[test]
fn reducer_applies_a_snapshot_then_consecutive_updates() {
    let mut state = LiveState::default();
    let before = view(2, 500);
    state.apply(snapshot(7, vec![before.clone()])).unwrap();
    let mut after = before.clone();
    after.topics.insert("Fresh".into());
    let delta = before.diff(&after).unwrap();
    state
        .apply(ServerMessage::Update(Update {
            seq: 8,
            sent_at_ms: 2_000,
            namesrvs: vec![delta],
            alerts: None,
            consumers: None,
        }))
        .unwrap();
    assert_eq!(state.seq, 8);
    assert_eq!(state.server_time_ms, 2_000);
    assert!(state
        .namesrv("127.0.0.1:9876")
        .unwrap()
        .topics
        .contains("Fresh"));
}

#[test]
fn reducer_refuses_gaps_updates_before_snapshots_unknown_namesrvs_and_other_versions() {
    let base = view(1, 500);
    let mut changed = base.clone();
    changed.error = Some("connection refused".into());
    changed.status = NamesrvStatus::Failing;
    let delta = base.diff(&changed).unwrap();
    let update = |seq| {
        ServerMessage::Update(Update {
            seq,
            sent_at_ms: 0,
            namesrvs: vec![delta.clone()],
            alerts: None,
            consumers: None,
        })
    };

    let mut empty = LiveState::default();
    assert_eq!(empty.apply(update(1)), Err(LiveError::NoSnapshot));

    let mut state = LiveState::default();
    state.apply(snapshot(3, vec![base.clone()])).unwrap();
    let kept = state.clone();
    assert_eq!(
        state.apply(update(5)),
        Err(LiveError::Gap { have: 3, got: 5 })
    );
    assert_eq!(state, kept, "a refused update changes nothing");

    let mut other = delta.clone();
    other.addr = "10.9.9.9:9876".into();
    let refused = state.apply(ServerMessage::Update(Update {
        seq: 4,
        sent_at_ms: 0,
        namesrvs: vec![delta.clone(), other],
        alerts: None,
        consumers: None,
    }));
    assert_eq!(
        refused,
        Err(LiveError::UnknownNamesrv("10.9.9.9:9876".into()))
    );
    assert_eq!(state, kept, "no part of a refused update is applied");

    let mut wrong = LiveState::default();
    let ServerMessage::Snapshot(mut s) = snapshot(1, vec![]) else {
        unreachable!()
    };
    s.protocol = PROTOCOL_VERSION + 1;
    assert_eq!(
        wrong.apply(ServerMessage::Snapshot(s)),
        Err(LiveError::Protocol(PROTOCOL_VERSION + 1))
    );
}

/// The bridge's idle updates must stay under 1 % of a snapshot: a round that refetched every route
/// of a 10,000-topic cluster without change sends fetch times, not routes.
#[test]
fn idle_update_of_a_large_cluster_is_under_one_percent_of_its_snapshot() {
    let old = view(10_000, 1_000);
    let mut new = old.clone();
    new.fetched_at_ms = Some(3_000);
    new.last_attempt_ms = Some(2_990);
    // a round refreshes a slice of the routes
    for entry in new.routes.values_mut().take(500) {
        entry.fetched_at_ms = 3_000;
    }
    let snapshot_len = serde_json::to_string(&snapshot(1, vec![new.clone()]))
        .unwrap()
        .len();
    let delta = old.diff(&new).unwrap();
    assert!(delta.routes.is_empty() && delta.cluster.is_none() && delta.topics.is_none());
    let update_len = serde_json::to_string(&ServerMessage::Update(Update {
        seq: 2,
        sent_at_ms: 3_000,
        namesrvs: vec![delta],
        alerts: None,
        consumers: None,
    }))
    .unwrap()
    .len();
    assert!(
        update_len * 100 < snapshot_len,
        "idle update {update_len} B vs snapshot {snapshot_len} B"
    );
}

#[test]
fn freshness_marks_failing_stale_and_unknown() {
    let mut v = view(0, 10_000);
    assert_eq!(
        v.freshness(11_200, 2_000),
        Freshness::Fresh { age_ms: 1_200 }
    );
    assert_eq!(
        v.freshness(15_001, 2_000),
        Freshness::Stale { age_ms: 5_001 }
    );
    v.status = NamesrvStatus::Failing;
    assert_eq!(v.freshness(11_000, 2_000), Freshness::Failing);
    assert_eq!(
        NamesrvView::new("x").freshness(1, 2_000),
        Freshness::Unknown
    );
}

/// An update whose routes were only refreshed (fetch time → topics, integer keys) survives JSON
/// inside the tagged `ServerMessage`, as a viewer reads it.
#[test]
fn an_update_with_refreshed_routes_round_trips_through_json() {
    let before = view(3, 500);
    let mut after = view(3, 2_500);
    after.fetched_at_ms = Some(2_500);
    // Topic2 was not fetched again: only two of three routes are refreshed, listed by name.
    after.routes.get_mut("Topic2").unwrap().fetched_at_ms = 500;
    let delta = before.diff(&after).unwrap();
    assert_eq!(delta.routes_refreshed.len(), 1);
    assert_eq!(delta.routes_refreshed_all, None);
    let msg = ServerMessage::Update(Update {
        seq: 2,
        sent_at_ms: 3_000,
        namesrvs: vec![delta],
        alerts: None,
        consumers: None,
    });
    let json = serde_json::to_string(&msg).unwrap();
    assert!(
        json.contains(r#""routes_refreshed":{"2500":["Topic0","Topic1"]}"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<ServerMessage>(&json).unwrap(), msg);
}

/// A poll that fetched every route again at one time (and changed one) is sent as one number, not
/// as every topic's name: an idle update stays a few bytes however many topics the cluster has.
#[test]
fn a_poll_that_refreshed_every_route_is_sent_as_one_time() {
    let before = view(10_000, 500);
    let mut after = view(10_000, 2_500);
    after.routes.get_mut("Topic7").unwrap().route = Some(route(&["broker-a"], 8));
    let delta = before.diff(&after).unwrap();
    assert_eq!(delta.routes_refreshed_all, Some(2_500));
    assert!(delta.routes_refreshed.is_empty());
    assert_eq!(delta.routes.len(), 1);
    let json = serde_json::to_string(&delta).unwrap();
    assert!(json.len() < 1_000, "{} bytes", json.len());
    let mut applied = before.clone();
    applied.apply(serde_json::from_str(&json).unwrap());
    assert_eq!(applied, after);
}

#[test]
fn from_json_reads_what_the_tagged_reader_reads_and_names_unknown_types() {
    let base = view(3, 500);
    let mut changed = base.clone();
    for entry in changed.routes.values_mut() {
        entry.fetched_at_ms = 900;
    }
    changed.topics.insert("New".into());
    let messages = [
        snapshot(4, vec![base.clone()]),
        ServerMessage::Update(Update {
            seq: 5,
            sent_at_ms: 900,
            namesrvs: vec![base.diff(&changed).unwrap()],
            alerts: None,
            consumers: None,
        }),
    ];
    for message in messages {
        let text = serde_json::to_string(&message).unwrap();
        assert_eq!(ServerMessage::from_json(&text).unwrap(), message);
        assert_eq!(
            serde_json::from_str::<ServerMessage>(&text).unwrap(),
            message
        );
    }
    let err = ServerMessage::from_json(r#"{"type":"hello","seq":1}"#).unwrap_err();
    assert!(
        err.to_string().contains(r#"unknown message type "hello""#),
        "{err}"
    );
    assert!(ServerMessage::from_json(r#"{"seq":1}"#).is_err());
    assert!(ServerMessage::from_json("not json").is_err());
}

/// The consumer groups travel whole: absent from a snapshot until a broker poll ended, then in an
/// update of their own (no NameServer delta), which a viewer applies as it is.
#[test]
fn consumers_come_whole_in_an_update() {
    use routelab::live::consumers::{ConsumersView, GroupView, MemberView, QueueOffsets};
    let mut state = LiveState::default();
    state
        .apply(snapshot(1, vec![NamesrvView::new("10.0.0.1:9876")]))
        .unwrap();
    assert_eq!(state.consumers, None);
    let consumers = ConsumersView {
        fetched_at_ms: 5_000,
        brokers: Vec::new(),
        producers: Vec::new(),
        topics: Vec::new(),
        groups: vec![GroupView {
            group: "GID_a".into(),
            members: vec![MemberView {
                client_id: "10.0.0.9@1".into(),
                client_addr: "10.0.0.9:50000".into(),
                language: "JAVA".into(),
                version: 395,
                queues_unknown: None,
                health: None,
            }],
            consume_tps: 2.5,
            consume_type: "CONSUME_PASSIVELY".into(),
            message_model: "CLUSTERING".into(),
            queues: vec![QueueOffsets {
                topic: "T".into(),
                broker_name: "broker-a".into(),
                queue_id: 0,
                broker_offset: 10,
                consumer_offset: 4,
                last_timestamp_ms: 0,
                next_store_time_ms: Some(4_000),
                owner: Some("10.0.0.9@1".into()),
                cached: Some(12),
            }],
            owners_known: true,
            lag_error: None,
            dlq: Some(3),
        }],
    };
    let text = serde_json::to_string(&ServerMessage::Update(Update {
        seq: 2,
        sent_at_ms: 5_001,
        namesrvs: Vec::new(),
        alerts: None,
        consumers: Some(consumers.clone()),
    }))
    .unwrap();
    assert!(text.contains(r#""consumers":{"fetched_at_ms":5000,"brokers":[],"groups":[{"group":"GID_a","members":[{"client_id":"10.0.0.9@1""#), "{text}");
    state
        .apply(ServerMessage::from_json(&text).unwrap())
        .unwrap();
    assert_eq!(state.consumers.as_ref(), Some(&consumers));
    assert!(
        text.contains(r#""last_timestamp_ms":0,"next_store_time_ms":4000,"owner":"10.0.0.9@1","cached":12}],"owners_known":true,"dlq":3}"#),
        "{text}"
    );
    assert_eq!(state.consumers.unwrap().groups[0].backlog(), 6);
}
