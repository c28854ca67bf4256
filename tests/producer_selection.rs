//! Producer-side routing (ROUTING-SPEC §7.3–§7.6): route → publish info, round-robin selection, and
//! the latency fault strategy of both client lines, checked against the rules of RocketMQ's client
//! (`MQClientInstance.topicRouteData2TopicPublishInfo`, `TopicPublishInfo`, `ThreadLocalIndex`,
//! `MQFaultStrategy`, `LatencyFaultToleranceImpl` at `rocketmq-all-4.9.8` and develop HEAD).
//!
//! Expected indexes are derived from the spec's rules (start value, pre-increment, mask, modulo), not
//! read back from the code under test.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::model::{BrokerData, QueueData, TopicRouteData};
use routelab::producer::{
    ClientProfile, LatencyFaultTolerance, MessageQueue, MqFaultStrategy, ProducerError, SendIndex,
    SendOutcome, TopicPublishInfo, LATENCY_MAX_V4, LATENCY_MAX_V5, NOT_AVAILABLE_V4,
    NOT_AVAILABLE_V5,
};
use routelab::rng::SeededRng;

const TOPIC: &str = "TopicTest";
const MASK: i32 = 0x7FFF_FFFF;

fn qd(broker: &str, perm: i32, read: i32, write: i32) -> QueueData {
    QueueData {
        broker_name: broker.into(),
        perm,
        read_queue_nums: read,
        topic_sys_flag: 0,
        write_queue_nums: write,
    }
}

fn bd(broker: &str, ids: &[i64]) -> BrokerData {
    let mut b = BrokerData::new("DefaultCluster".into(), broker.into());
    for (n, &id) in ids.iter().enumerate() {
        b.broker_addrs
            .insert(id, format!("10.0.0.{}:10911", n + 1).as_str().into());
    }
    b
}

/// A route where every named broker is a writable (perm 6) master group with `write` queues.
fn route(brokers: &[(&str, i32)]) -> TopicRouteData {
    TopicRouteData {
        broker_datas: brokers.iter().map(|(b, _)| bd(b, &[0])).collect(),
        queue_datas: brokers.iter().map(|&(b, w)| qd(b, 6, w, w)).collect(),
        ..TopicRouteData::default()
    }
}

fn publish(brokers: &[(&str, i32)], client: ClientProfile) -> TopicPublishInfo {
    TopicPublishInfo::from_route(TOPIC, &route(brokers), client).expect("valid route")
}

fn mq(broker: &str, id: i32) -> MessageQueue {
    MessageQueue::new(TOPIC, broker, id)
}

/// The queue at a round-robin index, as both client lines compute it for a masked index.
fn at(tp: &TopicPublishInfo, index: i32) -> MessageQueue {
    let list = &tp.message_queue_list;
    list[((index & MASK) % list.len() as i32) as usize].clone()
}

/// The raw value of the publish info's index; panics before first use.
fn raw(tp: &TopicPublishInfo) -> i32 {
    tp.send_which_queue.value().expect("index in use")
}

fn brokers_of(picks: &[MessageQueue]) -> Vec<&str> {
    picks.iter().map(|m| m.broker_name.as_str()).collect()
}

// ---------------------------------------------------------------------------------------------
// §7.3 topicRouteData2TopicPublishInfo
// ---------------------------------------------------------------------------------------------

/// §7.3 normal branch: QueueData sorted by brokerName; only writable ones; groups without a
/// BrokerData or without master id 0 are skipped; ids are `0..writeQueueNums` (not readQueueNums).
#[test]
fn publish_info_keeps_sorted_writable_queues_of_groups_with_a_master() {
    let route = TopicRouteData {
        broker_datas: vec![
            bd("c", &[0]),
            bd("e", &[1, 2]), // slaves only
            bd("b", &[0]),
            bd("a", &[0, 1]),
        ],
        queue_datas: vec![
            qd("c", 2, 0, 1), // write-only is still writable
            qd("e", 6, 4, 4), // no master: skipped
            qd("b", 4, 4, 4), // read-only: skipped
            qd("d", 6, 4, 4), // no BrokerData: skipped
            qd("a", 6, 8, 2), // read 8, write 2: write count wins
        ],
        ..TopicRouteData::default()
    };
    for client in [ClientProfile::V4, ClientProfile::V5] {
        let tp = TopicPublishInfo::from_route(TOPIC, &route, client).unwrap();
        assert!(!tp.order_topic);
        assert!(tp.ok());
        assert_eq!(
            tp.message_queue_list,
            vec![mq("a", 0), mq("a", 1), mq("c", 0)]
        );
        assert_eq!(tp.topic_route_data, route, "the raw route is kept");
        assert_eq!(tp.send_which_queue.value(), None, "fresh index per route");
    }
}

/// §7.3: brokerName order is Java's `String.compareTo` (UTF-16 code units), so a name with a
/// supplementary character (surrogate 0xD83D) sorts before one with U+FF21, unlike UTF-8 byte order.
#[test]
fn publish_info_sorts_broker_names_in_java_string_order() {
    let emoji = "\u{1F600}-broker";
    let fullwidth = "\u{FF21}-broker";
    let tp = publish(&[(fullwidth, 1), (emoji, 1)], ClientProfile::V4);
    assert_eq!(
        tp.message_queue_list,
        vec![mq(emoji, 0), mq(fullwidth, 0)],
        "Java sorts by UTF-16 code units"
    );
}

/// §7.3 order topic: `orderTopicConf` "brokerA:2;brokerB:1" gives queues in that order, ignoring
/// QueueData (even brokers absent from the route) and marking the topic ordered.
#[test]
fn order_topic_conf_defines_queues_in_its_own_order() {
    let mut r = route(&[("brokerC", 4)]);
    r.order_topic_conf = Some("brokerB:2;brokerA:1".to_owned());
    let tp = TopicPublishInfo::from_route(TOPIC, &r, ClientProfile::V4).unwrap();
    assert!(tp.order_topic);
    assert_eq!(
        tp.message_queue_list,
        vec![mq("brokerB", 0), mq("brokerB", 1), mq("brokerA", 0)]
    );

    r.order_topic_conf = Some("brokerA:2;brokerB:1".to_owned());
    let tp = TopicPublishInfo::from_route(TOPIC, &r, ClientProfile::V5).unwrap();
    assert!(tp.order_topic);
    assert_eq!(
        tp.message_queue_list,
        vec![mq("brokerA", 0), mq("brokerA", 1), mq("brokerB", 0)]
    );
}

/// §7.3 order topic, Java `split` semantics: trailing empty items are dropped, extra `:` fields are
/// ignored (only `item[1]` is parsed), a count of 0 adds nothing; an empty conf is the normal branch.
#[test]
fn order_topic_conf_follows_java_split_rules() {
    let conf = |c: &str| {
        let mut r = route(&[("x", 1)]);
        r.order_topic_conf = Some(c.to_owned());
        TopicPublishInfo::from_route(TOPIC, &r, ClientProfile::V4).unwrap()
    };
    assert_eq!(
        conf("a:2;;").message_queue_list,
        vec![mq("a", 0), mq("a", 1)]
    );
    assert_eq!(conf("a:1:9").message_queue_list, vec![mq("a", 0)]);
    let zero = conf("a:0");
    assert!(zero.order_topic && !zero.ok());
    let empty = conf("");
    assert!(!empty.order_topic, "empty conf uses QueueData");
    assert_eq!(empty.message_queue_list, vec![mq("x", 0)]);
}

/// §7.3 order topic: conf items Java cannot parse (`item[1]` missing → index out of bounds,
/// `Integer.parseInt` failing, an empty leading or middle item) are a ProducerError naming the conf.
#[test]
fn malformed_order_topic_conf_is_an_error() {
    for bad in [
        "brokerA",
        "brokerA:",
        "brokerA:x",
        "brokerA::2",
        "brokerA: 2",
        "brokerA:2 ",
        "brokerA:99999999999",
        ";brokerA:2",
        "brokerA:1;;brokerB:1",
    ] {
        let mut r = route(&[("brokerA", 1)]);
        r.order_topic_conf = Some(bad.to_owned());
        match TopicPublishInfo::from_route(TOPIC, &r, ClientProfile::V4) {
            Err(e @ ProducerError::MalformedOrderTopicConf { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains("orderTopicConf"), "{msg}");
                assert!(msg.contains(&format!("{bad:?}")), "{msg} names the conf");
            }
            other => panic!("{bad:?} should be rejected, got {other:?}"),
        }
    }
}

/// §7.3 / §7.4: a route with no writable master queue gives publish info that is not `ok`, and every
/// selection path returns None instead of panicking.
#[test]
fn selection_without_queues_returns_none() {
    let r = TopicRouteData {
        broker_datas: vec![bd("a", &[1])],
        queue_datas: vec![qd("a", 6, 4, 4), qd("b", 4, 4, 4)],
        ..TopicRouteData::default()
    };
    for client in [ClientProfile::V4, ClientProfile::V5] {
        let mut tp = TopicPublishInfo::from_route(TOPIC, &r, client).unwrap();
        let mut rng = SeededRng::new(1);
        assert!(!tp.ok());
        assert_eq!(tp.select_one_message_queue(&mut rng), None);
        assert_eq!(
            tp.select_one_message_queue_avoiding(Some("a"), &mut rng),
            None
        );
        assert_eq!(tp.select_filtered(&mut rng, |_| true), None);
        for enabled in [false, true] {
            let mut s = MqFaultStrategy::new(client, enabled);
            s.record_send(0, "a", 5000, SendOutcome::RemotingError);
            for reset in [false, true] {
                assert_eq!(
                    s.select_one_message_queue(10, &mut tp, Some("a"), reset, &mut rng),
                    None
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// §7.4 round-robin selection
// ---------------------------------------------------------------------------------------------

/// §7.4 4.x `ThreadLocalIndex`: the first use starts from `abs(random int)`, pre-increments and
/// masks; each later pick advances by one, wrapping over the queue list.
#[test]
fn round_robin_v4_starts_from_abs_of_a_seeded_random() {
    let seed = 7;
    let start = SeededRng::new(seed).next_i32().wrapping_abs();
    let mut tp = publish(&[("a", 2), ("b", 3)], ClientProfile::V4);
    let mut rng = SeededRng::new(seed);
    for k in 1..=12 {
        let got = tp.select_one_message_queue(&mut rng).unwrap();
        assert_eq!(got, at(&tp, start.wrapping_add(k)), "pick {k}");
        assert_eq!(raw(&tp), start.wrapping_add(k));
    }
}

/// §7.4 5.x `ThreadLocalIndex`: the first use starts from the random int itself (no `abs`); the
/// returned value is masked to non-negative before the modulo.
#[test]
fn round_robin_v5_starts_from_the_raw_random() {
    let seed = first_seed_with_negative_draw();
    let start = SeededRng::new(seed).next_i32();
    let mut tp = publish(&[("a", 2), ("b", 3)], ClientProfile::V5);
    let mut rng = SeededRng::new(seed);
    for k in 1..=12 {
        let got = tp.select_one_message_queue(&mut rng).unwrap();
        assert_eq!(got, at(&tp, start.wrapping_add(k)), "pick {k}");
        assert_eq!(
            raw(&tp),
            start.wrapping_add(k),
            "the raw value is not abs'ed"
        );
    }
}

fn first_seed_with_negative_draw() -> u64 {
    (0..).find(|&s| SeededRng::new(s).next_i32() < -1).unwrap()
}

/// §7.4: the index start differs between 4.x (`abs(random)`) and 5.x (`random`) for the same draw;
/// both return `(start + 1) & 0x7FFFFFFF`.
#[test]
fn index_start_differs_between_v4_and_v5() {
    let seed = first_seed_with_negative_draw();
    let r = SeededRng::new(seed).next_i32();
    let (mut i4, mut i5) = (SendIndex::default(), SendIndex::default());
    let v4 = i4.increment_and_get(ClientProfile::V4, &mut SeededRng::new(seed));
    let v5 = i5.increment_and_get(ClientProfile::V5, &mut SeededRng::new(seed));
    assert_eq!(v4, r.wrapping_abs().wrapping_add(1) & MASK);
    assert_eq!(v5, r.wrapping_add(1) & MASK);
    assert_ne!(v4, v5);
    assert_eq!(i4.value(), Some(r.wrapping_abs() + 1));
    assert_eq!(i5.value(), Some(r + 1));
    // Later calls draw nothing more: the start is taken once.
    let mut rng = SeededRng::new(99);
    let before = rng.clone();
    assert_eq!(i4.increment_and_get(ClientProfile::V4, &mut rng), v4 + 1);
    assert_eq!(rng, before);
}

/// §7.4: the index wraps from `Integer.MAX_VALUE` to `MIN_VALUE` and the mask keeps it usable.
#[test]
fn index_wraps_past_integer_max_value() {
    let mut idx: SendIndex = serde_json::from_str(r#"{"value":2147483646}"#).unwrap();
    let mut rng = SeededRng::new(0);
    assert_eq!(idx.increment_and_get(ClientProfile::V5, &mut rng), i32::MAX);
    assert_eq!(idx.increment_and_get(ClientProfile::V5, &mut rng), 0);
    assert_eq!(idx.value(), Some(i32::MIN));
    assert_eq!(idx.increment_and_get(ClientProfile::V4, &mut rng), 1);
}

/// §7.4 `selectOneMessageQueue(lastBrokerName)`: fresh picks until the broker differs from the last
/// one; with `None` it is the plain pick.
#[test]
fn select_avoiding_last_broker_skips_it() {
    for client in [ClientProfile::V4, ClientProfile::V5] {
        let mut tp = publish(&[("a", 3), ("b", 1)], client);
        let mut rng = SeededRng::new(3);
        for _ in 0..20 {
            let got = tp
                .select_one_message_queue_avoiding(Some("a"), &mut rng)
                .unwrap();
            assert_eq!(got, mq("b", 0), "{client}");
        }
        let v = raw(&tp);
        let plain = tp
            .select_one_message_queue_avoiding(None, &mut rng)
            .unwrap();
        assert_eq!(plain, at(&tp, v + 1));
        assert_eq!(raw(&tp), v + 1, "None costs exactly one pick");
    }
}

/// §7.4: when every queue is on the last broker, `size` fresh picks fail and one more plain pick is
/// returned (size + 1 increments in all).
#[test]
fn select_avoiding_falls_back_to_plain_pick_when_only_the_last_broker_exists() {
    let mut tp = publish(&[("a", 3)], ClientProfile::V4);
    let mut rng = SeededRng::new(11);
    tp.select_one_message_queue(&mut rng).unwrap();
    let v = raw(&tp);
    let got = tp
        .select_one_message_queue_avoiding(Some("a"), &mut rng)
        .unwrap();
    assert_eq!(raw(&tp), v + 4);
    assert_eq!(got, at(&tp, v + 4));
}

/// §7.4 5.x `resetIndex`: a fresh value in `[0, Integer.MAX_VALUE)`; the next pick continues from it.
#[test]
fn reset_index_draws_a_fresh_non_negative_start() {
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V5);
    let mut rng = SeededRng::new(5);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        tp.reset_index(&mut rng);
        let v = raw(&tp);
        assert!((0..i32::MAX).contains(&v), "{v}");
        seen.insert(v);
        let got = tp.select_one_message_queue(&mut rng).unwrap();
        assert_eq!(got, at(&tp, v + 1));
    }
    assert!(
        seen.len() > 190,
        "reset values are random, got {}",
        seen.len()
    );
}

/// §7.4 determinism: the same seed gives the same picks, natively and in wasm; another seed gives
/// another sequence (also through the fault strategies, which draw from the same RNG).
#[test]
fn same_seed_gives_same_picks() {
    fn run(seed: u64, client: ClientProfile) -> Vec<MessageQueue> {
        let mut tp = publish(&[("a", 4), ("b", 4), ("c", 4)], client);
        let mut s = MqFaultStrategy::new(client, true);
        let mut rng = SeededRng::new(seed);
        let mut last: Option<MessageQueue> = None;
        let mut out = Vec::new();
        for t in 0..60u64 {
            let now = t * 1000;
            let last_broker = last.as_ref().map(|m| m.broker_name.to_string());
            let got = s
                .select_one_message_queue(
                    now,
                    &mut tp,
                    last_broker.as_deref(),
                    t % 3 == 1,
                    &mut rng,
                )
                .unwrap();
            let outcome = if t % 7 == 3 {
                SendOutcome::BrokerError
            } else {
                SendOutcome::Ok
            };
            s.record_send(now, got.broker_name.as_str(), 40 + t * 37, outcome);
            out.push(got.clone());
            last = Some(got);
        }
        out
    }
    for client in [ClientProfile::V4, ClientProfile::V5] {
        assert_eq!(run(2024, client), run(2024, client));
        assert_ne!(run(2024, client), run(2025, client));
    }
}

// ---------------------------------------------------------------------------------------------
// §7.5 4.x MQFaultStrategy
// ---------------------------------------------------------------------------------------------

/// §7.5: the 4.x table, and `computeNotAvailableDuration` at and around every threshold (the
/// largest threshold `<= latency` wins; below 50 → 0).
#[test]
fn v4_latency_table_boundaries() {
    assert_eq!(LATENCY_MAX_V4, [50, 100, 550, 1000, 2000, 3000, 15000]);
    assert_eq!(
        NOT_AVAILABLE_V4,
        [0, 0, 30_000, 60_000, 120_000, 180_000, 600_000]
    );
    let s = MqFaultStrategy::new(ClientProfile::V4, true);
    for (latency, expected) in [
        (0, 0),
        (49, 0),
        (50, 0),
        (99, 0),
        (100, 0),
        (549, 0),
        (550, 30_000),
        (999, 30_000),
        (1000, 60_000),
        (1999, 60_000),
        (2000, 120_000),
        (2999, 120_000),
        (3000, 180_000),
        (14_999, 180_000),
        (15_000, 600_000),
        (30_000, 600_000),
        (u64::MAX, 600_000),
    ] {
        assert_eq!(
            s.compute_not_available_duration(latency),
            expected,
            "latency {latency}"
        );
    }
}

/// §7.5: isolation computes the duration from latency 30 000 → 600 000 ms (10 minutes), whatever
/// the measured latency; `currentLatency` keeps the measured one.
#[test]
fn v4_isolation_lasts_ten_minutes() {
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    s.update_fault_item(1_000, "a", 3, true, true);
    let item = &s.tolerance.items["a"];
    assert_eq!(item.start_timestamp, 601_000);
    assert_eq!(item.current_latency, 3);
    assert!(!s.tolerance.is_available("a", 600_999));
    assert!(s.tolerance.is_available("a", 601_000));
}

/// §7.5: `isAvailable` is exactly `now >= startTimestamp` (no item → available).
#[test]
fn v4_availability_returns_exactly_at_start_timestamp() {
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    assert!(s.tolerance.is_available("a", 0), "no item");
    s.update_fault_item(1_000, "a", 600, false, true); // 600 ms → 30 s
    assert_eq!(s.tolerance.items["a"].start_timestamp, 31_000);
    assert!(!s.tolerance.is_available("a", 30_999));
    assert!(!s.tolerance.items["a"].is_available(30_999));
    assert!(s.tolerance.is_available("a", 31_000));
    assert!(s.tolerance.items["a"].is_available(31_000));

    // Through selection: with b isolated for 10 min, "a" is the only choice from 31 000 on.
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V4);
    let mut rng = SeededRng::new(8);
    s.update_fault_item(1_000, "b", 0, true, true);
    for t in 31_000..31_010 {
        let got = s
            .select_one_message_queue(t, &mut tp, None, false, &mut rng)
            .unwrap();
        assert_eq!(got.broker_name, "a");
    }
}

/// §7.5: 4.x always overwrites `startTimestamp = now + duration`, even when that is sooner: a fast
/// success right after an isolation makes the broker available at once.
#[test]
fn v4_start_timestamp_is_overwritten_even_if_shorter() {
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    s.record_send(0, "a", 10, SendOutcome::RemotingError);
    assert_eq!(s.tolerance.items["a"].start_timestamp, 600_000);
    s.record_send(5, "a", 10, SendOutcome::Ok);
    assert_eq!(s.tolerance.items["a"].start_timestamp, 5);
    assert_eq!(s.tolerance.items["a"].current_latency, 10);
    assert!(s.tolerance.is_available("a", 5));
    s.record_send(6, "a", 2_000, SendOutcome::Ok);
    assert_eq!(s.tolerance.items["a"].start_timestamp, 120_006);
}

/// §7.5 send loop mapping (4.9.8): success and InterruptedException → isolation false; Remoting,
/// MQClient and MQBroker exceptions → isolation true (600 000 ms). Fault tolerance off records nothing.
#[test]
fn v4_record_send_maps_outcomes_to_isolation() {
    for (outcome, until) in [
        (SendOutcome::Ok, 1_000),
        (SendOutcome::Interrupted, 1_000),
        (SendOutcome::RemotingError, 601_000),
        (SendOutcome::ClientError, 601_000),
        (SendOutcome::BrokerError, 601_000),
    ] {
        let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
        s.record_send(1_000, "a", 20, outcome);
        assert_eq!(s.tolerance.items["a"].start_timestamp, until, "{outcome:?}");
        assert_eq!(s.tolerance.items["a"].current_latency, 20);

        let mut off = MqFaultStrategy::new(ClientProfile::V4, false);
        off.record_send(1_000, "a", 20, outcome);
        assert!(off.tolerance.items.is_empty());
    }
}

/// §7.5 selection when enabled: one index is taken, then positions index, index+1, … are scanned
/// for an available broker; unavailable brokers are skipped and the index advances only once.
#[test]
fn v4_selection_skips_unavailable_brokers() {
    let mut tp = publish(&[("a", 2), ("b", 2), ("c", 1)], ClientProfile::V4);
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    let mut rng = SeededRng::new(21);
    s.record_send(0, "a", 100, SendOutcome::RemotingError);
    tp.select_one_message_queue(&mut rng).unwrap();
    for _ in 0..25 {
        let v = raw(&tp);
        let got = s
            .select_one_message_queue(1, &mut tp, None, false, &mut rng)
            .unwrap();
        assert_eq!(raw(&tp), v + 1, "one increment per selection");
        let n = tp.message_queue_list.len() as i32;
        let expected = (0..n)
            .map(|k| at(&tp, v + 1 + k))
            .find(|m| m.broker_name != "a")
            .unwrap();
        assert_eq!(got, expected);
    }
}

/// §7.5: with fault tolerance on, 4.8.0+ ignores `lastBrokerName`: the last broker is picked when
/// the scan reaches it first.
#[test]
fn v4_fault_selection_ignores_last_broker() {
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V4);
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    let mut rng = SeededRng::new(4);
    let picks: Vec<MessageQueue> = (0..4)
        .map(|_| {
            let got = s
                .select_one_message_queue(0, &mut tp, Some("a"), false, &mut rng)
                .unwrap();
            assert_eq!(got, at(&tp, raw(&tp)));
            got
        })
        .collect();
    assert!(brokers_of(&picks).contains(&"a"), "{picks:?}");
}

/// §7.5: fault tolerance off → `selectOneMessageQueue(lastBrokerName)`: the last broker is avoided.
#[test]
fn v4_without_fault_tolerance_avoids_last_broker() {
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V4);
    let mut s = MqFaultStrategy::new(ClientProfile::V4, false);
    let mut rng = SeededRng::new(4);
    for _ in 0..10 {
        let got = s
            .select_one_message_queue(0, &mut tp, Some("a"), false, &mut rng)
            .unwrap();
        assert_eq!(got.broker_name, "b");
    }
}

/// §7.5: when every broker is isolated, `pickOneAtLeast` (sorted: available first, lower latency,
/// earlier start; first of the better half) names the broker, and the result is a new queue of that
/// broker with id `nextIndex % writeQueueNums` (scan + plain pick + id = 3 increments).
#[test]
fn v4_all_isolated_picks_pick_one_at_least_broker() {
    let mut tp = publish(&[("a", 3), ("b", 2)], ClientProfile::V4);
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    let mut rng = SeededRng::new(12);
    s.record_send(0, "b", 200, SendOutcome::RemotingError);
    s.record_send(0, "a", 100, SendOutcome::RemotingError);
    tp.select_one_message_queue(&mut rng).unwrap();
    for _ in 0..10 {
        let v = raw(&tp);
        let got = s
            .select_one_message_queue(1, &mut tp, None, false, &mut rng)
            .unwrap();
        assert_eq!(raw(&tp), v + 3);
        assert_eq!(got.broker_name, "a", "lower latency sorts first; half = 1");
        assert!(got.queue_id < 3);
        assert_eq!(got.queue_id, ((v + 3) & MASK) % 3);
    }
}

/// §7.5 `pickOneAtLeast` with four items: half = 2, so picks alternate (round-robin on
/// `whichItemWorst`) between the two best items and never reach the worse half.
#[test]
fn v4_pick_one_at_least_round_robins_the_better_half() {
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    for (b, latency) in [("a", 400), ("b", 100), ("c", 300), ("d", 200)] {
        s.record_send(0, b, latency, SendOutcome::RemotingError);
    }
    let mut rng = SeededRng::new(6);
    let picks: Vec<String> = (0..8)
        .map(|_| {
            s.tolerance
                .pick_one_at_least(1, &mut rng)
                .unwrap()
                .to_string()
        })
        .collect();
    for w in picks.windows(2) {
        assert_ne!(w[0], w[1], "{picks:?}");
    }
    assert!(picks.iter().all(|p| p == "b" || p == "d"), "{picks:?}");
}

/// §7.5 `pickOneAtLeast` ordering: an available item sorts before an unavailable one even with a
/// higher latency; an empty table gives None.
#[test]
fn v4_pick_one_at_least_prefers_available_items() {
    let mut t = LatencyFaultTolerance::default();
    let mut rng = SeededRng::new(0);
    assert_eq!(t.pick_one_at_least(0, &mut rng), None);
    t.update_v4(0, "slow-but-back", 5_000, 100);
    t.update_v4(0, "fast-but-isolated", 10, 600_000);
    assert_eq!(t.pick_one_at_least(100, &mut rng).unwrap(), "slow-but-back");
    assert_eq!(
        t.pick_one_at_least(99, &mut rng).unwrap(),
        "fast-but-isolated"
    );
}

/// §7.5: if `pickOneAtLeast` names a broker without a writable QueueData in this topic, it is
/// removed from the fault table and the plain round-robin pick is returned.
#[test]
fn v4_pick_one_at_least_broker_outside_topic_is_removed() {
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V4);
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    let mut rng = SeededRng::new(13);
    s.record_send(0, "a", 100, SendOutcome::RemotingError);
    s.record_send(0, "b", 200, SendOutcome::RemotingError);
    s.record_send(0, "z", 50, SendOutcome::RemotingError);
    tp.select_one_message_queue(&mut rng).unwrap();
    let v = raw(&tp);
    let got = s
        .select_one_message_queue(1, &mut tp, None, false, &mut rng)
        .unwrap();
    assert!(!s.tolerance.items.contains_key("z"));
    assert!(s.tolerance.items.contains_key("a") && s.tolerance.items.contains_key("b"));
    assert_eq!(raw(&tp), v + 2, "scan + plain pick");
    assert_eq!(got, at(&tp, v + 2));
}

/// §7.5 Java's scan computes `Math.abs(index++) % size` and clamps a negative result to 0: when the
/// local index overflows to `Integer.MIN_VALUE`, the position is 0 (not MIN_VALUE mod size).
#[test]
fn v4_scan_position_after_int_overflow_is_zero() {
    let mut tp = publish(&[("a", 1), ("b", 1), ("c", 1)], ClientProfile::V4);
    // Raw value MAX-1: the selection's index is MAX (position 1 = "b"), then the scan's next index
    // overflows to MIN_VALUE, whose position Java clamps to 0 ("a").
    tp.send_which_queue = serde_json::from_str(r#"{"value":2147483646}"#).unwrap();
    let mut s = MqFaultStrategy::new(ClientProfile::V4, true);
    s.record_send(0, "b", 100, SendOutcome::RemotingError);
    let mut rng = SeededRng::new(0);
    let got = s
        .select_one_message_queue(1, &mut tp, None, false, &mut rng)
        .unwrap();
    assert_eq!(got, mq("a", 0));
}

// ---------------------------------------------------------------------------------------------
// §7.6 5.1.4+ MQFaultStrategy
// ---------------------------------------------------------------------------------------------

/// §7.6: the 5.1.4+ table and its boundaries.
#[test]
fn v5_latency_table_boundaries() {
    assert_eq!(LATENCY_MAX_V5, [50, 100, 550, 1800, 3000, 5000, 15000]);
    assert_eq!(NOT_AVAILABLE_V5, [0, 0, 2000, 5000, 6000, 10_000, 30_000]);
    let s = MqFaultStrategy::new(ClientProfile::V5, true);
    for (latency, expected) in [
        (0, 0),
        (50, 0),
        (100, 0),
        (549, 0),
        (550, 2000),
        (1799, 2000),
        (1800, 5000),
        (2999, 5000),
        (3000, 6000),
        (4999, 6000),
        (5000, 10_000),
        (10_000, 10_000),
        (14_999, 10_000),
        (15_000, 30_000),
        (u64::MAX, 30_000),
    ] {
        assert_eq!(
            s.compute_not_available_duration(latency),
            expected,
            "latency {latency}"
        );
    }
}

/// §7.6: isolation uses latency 10 000 → 10 000 ms of unavailability.
#[test]
fn v5_isolation_lasts_ten_seconds() {
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    s.update_fault_item(500, "a", 1, true, true);
    assert_eq!(s.tolerance.items["a"].start_timestamp, 10_500);
    assert!(!s.tolerance.is_available("a", 10_499));
    assert!(s.tolerance.is_available("a", 10_500));
}

/// §7.6: 5.1.4+ only extends an isolation: a zero duration or an earlier end leaves
/// `startTimestamp`; a later end moves it. Latency is always recorded.
#[test]
fn v5_isolation_is_only_extended_never_shortened() {
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    s.record_send(0, "a", 10, SendOutcome::RemotingError);
    assert_eq!(s.tolerance.items["a"].start_timestamp, 10_000);
    s.record_send(1, "a", 10, SendOutcome::Ok); // duration 0
    assert_eq!(s.tolerance.items["a"].start_timestamp, 10_000);
    assert_eq!(s.tolerance.items["a"].current_latency, 10);
    s.record_send(1, "a", 600, SendOutcome::Ok); // 2 s → 2 001 < 10 000
    assert_eq!(s.tolerance.items["a"].start_timestamp, 10_000);
    s.record_send(9_000, "a", 600, SendOutcome::Ok); // 11 000 > 10 000
    assert_eq!(s.tolerance.items["a"].start_timestamp, 11_000);
    assert!(!s.tolerance.is_available("a", 10_999));
}

/// §7.6 send loop mapping (develop HEAD): success, MQClientException and InterruptedException →
/// (no isolation, reachable); RemotingException → isolation, reachable unless the detector is on;
/// MQBrokerException → isolation, unreachable.
#[test]
fn v5_record_send_maps_outcomes_to_isolation_and_reachability() {
    for (outcome, detector, until, reachable) in [
        (SendOutcome::Ok, false, 0, true),
        (SendOutcome::ClientError, false, 0, true),
        (SendOutcome::Interrupted, false, 0, true),
        (SendOutcome::RemotingError, false, 11_000, true),
        (SendOutcome::RemotingError, true, 11_000, false),
        (SendOutcome::BrokerError, false, 11_000, false),
        (SendOutcome::BrokerError, true, 11_000, false),
        (SendOutcome::Ok, true, 0, true),
    ] {
        let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
        s.start_detector_enable = detector;
        s.record_send(1_000, "a", 20, outcome);
        let item = &s.tolerance.items["a"];
        assert_eq!(
            item.start_timestamp, until,
            "{outcome:?} detector={detector}"
        );
        assert_eq!(item.reachable, reachable, "{outcome:?} detector={detector}");
        assert_eq!(s.tolerance.is_reachable("a"), reachable);
        assert_eq!(item.current_latency, 20);
    }
    // A later success marks the broker reachable again.
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    s.record_send(0, "a", 20, SendOutcome::BrokerError);
    s.record_send(1, "a", 20, SendOutcome::Ok);
    assert!(s.tolerance.is_reachable("a"));
    assert!(s.tolerance.is_reachable("never-seen"));
}

/// §7.6 cascade, first stage: {available, not last}. Unavailable brokers and the last broker are
/// avoided while an available other broker exists.
#[test]
fn v5_prefers_available_brokers_other_than_last() {
    let mut tp = publish(&[("a", 2), ("b", 2), ("c", 2)], ClientProfile::V5);
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    let mut rng = SeededRng::new(30);
    s.record_send(0, "c", 10, SendOutcome::RemotingError);
    for _ in 0..20 {
        let got = s
            .select_one_message_queue(1, &mut tp, Some("a"), false, &mut rng)
            .unwrap();
        assert_eq!(got.broker_name, "b");
    }
    let picks: Vec<MessageQueue> = (0..20)
        .map(|_| {
            s.select_one_message_queue(1, &mut tp, None, false, &mut rng)
                .unwrap()
        })
        .collect();
    assert!(picks.iter().all(|m| m.broker_name != "c"));
    assert!(brokers_of(&picks).contains(&"a") && brokers_of(&picks).contains(&"b"));
}

/// §7.6 cascade, second stage: no available broker other than the last → {reachable, not last}:
/// an isolated but reachable broker is chosen over the (available) last broker.
#[test]
fn v5_falls_back_to_reachable_brokers_other_than_last() {
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V5);
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    let mut rng = SeededRng::new(31);
    s.record_send(0, "b", 10, SendOutcome::RemotingError); // isolated, still reachable
    assert!(!s.tolerance.is_available("b", 1) && s.tolerance.is_reachable("b"));
    for _ in 0..10 {
        let got = s
            .select_one_message_queue(1, &mut tp, Some("a"), false, &mut rng)
            .unwrap();
        assert_eq!(got.broker_name, "b");
    }
}

/// §7.6 cascade, last stage: nothing passes either filter → the plain pick. Each filter stage spends
/// `size` fresh indexes, so the index advances 2 × size + 1.
#[test]
fn v5_falls_back_to_plain_pick_when_no_filter_passes() {
    let mut tp = publish(&[("a", 2), ("b", 1)], ClientProfile::V5);
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    let mut rng = SeededRng::new(32);
    s.record_send(0, "a", 10, SendOutcome::BrokerError);
    s.record_send(0, "b", 10, SendOutcome::BrokerError);
    tp.select_one_message_queue(&mut rng).unwrap();
    for _ in 0..5 {
        let v = raw(&tp);
        let got = s
            .select_one_message_queue(1, &mut tp, None, false, &mut rng)
            .unwrap();
        assert_eq!(raw(&tp), v + 7);
        assert_eq!(got, at(&tp, v + 7));
    }
    // With "a" the last broker and unreachable "b", the plain pick may return the last broker.
    let got = s
        .select_one_message_queue(1, &mut tp, Some("a"), false, &mut rng)
        .unwrap();
    assert_eq!(got, at(&tp, raw(&tp)));
}

/// §7.6: with `resetIndex`, the index is reset (a fresh `[0, MAX)` value) before the first filter
/// stage, so the pick follows the reset value.
#[test]
fn v5_reset_index_restarts_round_robin_before_selecting() {
    let mut tp = publish(&[("a", 3), ("b", 4)], ClientProfile::V5);
    let mut s = MqFaultStrategy::new(ClientProfile::V5, true);
    let mut rng = SeededRng::new(33);
    tp.select_one_message_queue(&mut rng).unwrap();
    for _ in 0..10 {
        let before = raw(&tp);
        let mut draw = rng.clone();
        let reset_to = draw.next_below(i32::MAX as u64) as i32;
        let got = s
            .select_one_message_queue(1, &mut tp, None, true, &mut rng)
            .unwrap();
        assert_eq!(raw(&tp), reset_to + 1);
        assert_ne!(raw(&tp), before + 1);
        assert_eq!(got, at(&tp, reset_to + 1));
    }
}

/// §7.6: fault tolerance off → {not last} then plain; send outcomes record nothing, so a failing
/// broker keeps being chosen whenever it is not the last one.
#[test]
fn v5_without_fault_tolerance_only_avoids_last_broker() {
    let mut tp = publish(&[("a", 2), ("b", 2)], ClientProfile::V5);
    let mut s = MqFaultStrategy::new(ClientProfile::V5, false);
    let mut rng = SeededRng::new(34);
    s.record_send(0, "b", 20_000, SendOutcome::BrokerError);
    assert!(s.tolerance.items.is_empty());
    for _ in 0..10 {
        let got = s
            .select_one_message_queue(1, &mut tp, Some("a"), true, &mut rng)
            .unwrap();
        assert_eq!(got.broker_name, "b");
    }
    let v = raw(&tp);
    let got = s
        .select_one_message_queue(1, &mut tp, None, false, &mut rng)
        .unwrap();
    assert_eq!(got, at(&tp, v + 1), "no last broker: one plain pick");
    // Only the last broker has queues → plain pick of it.
    let mut single = publish(&[("a", 2)], ClientProfile::V5);
    let got = s
        .select_one_message_queue(1, &mut single, Some("a"), false, &mut rng)
        .unwrap();
    assert_eq!(got.broker_name, "a");
}
