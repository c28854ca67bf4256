//! The cache against the full reader.

use super::*;

fn bytes(counter: i64) -> Vec<u8> {
    format!(r#"{{"topicConfigSerializeWrapper":{{"dataVersion":{{"counter":{counter},"timestamp":1}},"topicConfigTable":{{"T":{{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":6}}}}}},"filterServerList":[]}}"#).into_bytes()
}

/// The same bytes give the body kept; other bytes, another reading, or a body not given back
/// are parsed again; and what comes back is what parsing gives.
#[test]
fn the_same_bytes_reuse_the_body_given_back() {
    let mut c = RegisterBodyCache::default();
    let parsed = |b: &[u8]| register_body(b, false, 479, true, Dialect::Fastjson1).unwrap();
    let first = c
        .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    assert_eq!(first, parsed(&bytes(1)));
    // Not given back: parsed again, correctly.
    assert_eq!(
        c.take(&bytes(1), false, 479, true, Dialect::Fastjson1)
            .unwrap(),
        parsed(&bytes(1))
    );
    let mut kept = c
        .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    // A marker only a kept body carries shows whether the next take reused it.
    kept.filter_server_list.push("marker".into());
    c.give_back(kept);
    let again = c
        .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    assert_eq!(again.filter_server_list, ["marker"], "reused");
    c.give_back(again);
    let other_profile = c
        .take(&bytes(1), false, 479, false, Dialect::Fastjson1)
        .unwrap();
    assert!(
        other_profile.filter_server_list.is_empty(),
        "read again for 4.x"
    );
    c.give_back(other_profile);
    let changed = c
        .take(&bytes(2), false, 479, false, Dialect::Fastjson1)
        .unwrap();
    assert_eq!(
        changed,
        register_body(&bytes(2), false, 479, false, Dialect::Fastjson1).unwrap()
    );
    assert!(c.take(b"{", false, 479, false, Dialect::Fastjson1).is_err());
    assert_eq!(
        c.take(&bytes(2), false, 479, false, Dialect::Fastjson1)
            .unwrap(),
        changed
    );
}

/// A body that differs only in its dataVersion reuses the kept topics with the new version;
/// one that differs anywhere else, or is not plain JSON, is parsed in full.
#[test]
fn only_a_new_data_version_reuses_the_topics() {
    let mut c = RegisterBodyCache::default();
    let mut kept = c
        .take(&bytes(1), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    kept.filter_server_list.push("marker".into());
    c.give_back(kept);
    let bumped = c
        .take(&bytes(7), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    assert_eq!(bumped.filter_server_list, ["marker"], "reused");
    assert_eq!(
        bumped.topic_config_serialize_wrapper.data_version.counter,
        7
    );
    c.give_back(bumped);
    // The same bytes again: reused as they are.
    let same = c
        .take(&bytes(7), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    assert_eq!(same.topic_config_serialize_wrapper.data_version.counter, 7);
    assert_eq!(same.filter_server_list, ["marker"]);
    c.give_back(same);
    // A longer counter, and a mappingDataVersion beside it (5.x brokers send both).
    let with_mapping = |n: i64| {
        String::from_utf8(bytes(n)).unwrap().replace(
            r#""topicConfigTable""#,
            &format!(r#""mappingDataVersion":{{"counter":{n},"timestamp":5}},"topicConfigTable""#),
        )
    };
    let full = c
        .take(
            with_mapping(8).as_bytes(),
            false,
            479,
            true,
            Dialect::Fastjson1,
        )
        .unwrap();
    c.give_back(full);
    let longer = c
        .take(
            with_mapping(123_456).as_bytes(),
            false,
            479,
            true,
            Dialect::Fastjson1,
        )
        .unwrap();
    assert_eq!(
        longer,
        register_body(
            with_mapping(123_456).as_bytes(),
            false,
            479,
            true,
            Dialect::Fastjson1
        )
        .unwrap()
    );
    c.give_back(longer);
    // A version that is not one: the full parse's answer, an error.
    let null = String::from_utf8(bytes(1))
        .unwrap()
        .replace(r#"{"counter":1,"timestamp":1}"#, "null");
    assert_eq!(
        c.take(null.as_bytes(), false, 479, true, Dialect::Fastjson1)
            .is_err(),
        register_body(null.as_bytes(), false, 479, true, Dialect::Fastjson1).is_err()
    );
    let seven = c
        .take(&bytes(7), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    c.give_back(seven);
    // A topic changed: parsed again.
    let other = String::from_utf8(bytes(8))
        .unwrap()
        .replace("\"perm\":6", "\"perm\":4");
    let parsed = c
        .take(other.as_bytes(), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    assert_eq!(
        parsed,
        register_body(other.as_bytes(), false, 479, true, Dialect::Fastjson1).unwrap()
    );
    c.give_back(parsed);
    // Members in another order: parsed again.
    let reordered = r#"{"filterServerList":[],"topicConfigSerializeWrapper":{"topicConfigTable":{"T":{"topicName":"T","readQueueNums":2,"writeQueueNums":2,"perm":4}},"dataVersion":{"counter":9,"timestamp":1}}}"#;
    let parsed = c
        .take(reordered.as_bytes(), false, 479, true, Dialect::Fastjson1)
        .unwrap();
    assert!(parsed.filter_server_list.is_empty());
    assert_eq!(
        parsed.topic_config_serialize_wrapper.data_version.counter,
        9
    );
}

mod edits {
    //! A broker's register body through any sequence of edits: what the cache gives equals what
    //! the full reader gives for the same bytes, and two route managers, one fed each, hold the
    //! same tables and say the same events.

    use proptest::prelude::*;

    use super::super::RegisterBodyCache;
    use crate::model::lenient::Dialect;
    use crate::model::{DataVersion, TopicConfig};
    use crate::namesrv::{Profile, RegisterBroker, RouteManager};
    use crate::server::body::register_body;

    /// One broker's state as its body says it: entries in the order written (Java's map order
    /// moves as topics come and go), the versions, and how the text is spaced.
    #[derive(Clone, Debug)]
    struct Table {
        entries: Vec<TopicConfig>,
        version: i64,
        mapping: Option<i64>,
        spaced: bool,
    }

    #[derive(Clone, Debug)]
    enum Edit {
        /// A topic created, at a place in the order.
        Add(usize, u8),
        Remove(usize),
        /// One field of a topic changed.
        Perm(usize, i32),
        Queues(usize, i32),
        /// The DataVersion bumped (nothing else).
        Bump,
        /// `mappingDataVersion` bumped, added or dropped.
        Mapping(Option<i64>),
        /// Two entries swap places.
        Swap(usize, usize),
        /// The same topics, spaced otherwise.
        Respace,
        /// A body that does not read as strict JSON (fastjson's single quotes), or not at all.
        Lenient,
        Broken,
        /// The same name twice (the last one counts).
        Repeat(usize),
        /// The request fails after the body is read: it is not given back.
        Lost,
    }

    fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            3 => (0usize..64, any::<u8>()).prop_map(|(at, n)| Edit::Add(at, n)),
            2 => (0usize..64).prop_map(Edit::Remove),
            2 => (0usize..64, prop_oneof![Just(2), Just(4), Just(6)]).prop_map(|(i, p)| Edit::Perm(i, p)),
            2 => (0usize..64, 1i32..20).prop_map(|(i, q)| Edit::Queues(i, q)),
            3 => Just(Edit::Bump),
            1 => proptest::option::of(0i64..1_000).prop_map(Edit::Mapping),
            1 => (0usize..64, 0usize..64).prop_map(|(a, b)| Edit::Swap(a, b)),
            1 => Just(Edit::Respace),
            1 => Just(Edit::Lenient),
            1 => Just(Edit::Broken),
            1 => (0usize..64).prop_map(Edit::Repeat),
            1 => Just(Edit::Lost),
        ]
    }

    fn topic(n: u8) -> TopicConfig {
        TopicConfig::new(&format!("Topic-{n:03}"), 4, 4, 6)
    }

    /// The body's bytes as a broker writes them (`Repeat` writes entry `i` a second time at the end).
    fn bytes(t: &Table, repeat: Option<usize>) -> Vec<u8> {
        let (sep, colon) = if t.spaced { (", ", ": ") } else { (",", ":") };
        let mut entries: Vec<String> = t
            .entries
            .iter()
            .map(|tc| {
                let value = serde_json::to_string(tc).unwrap_or_default();
                format!("\"{}\"{colon}{value}", tc.topic_name)
            })
            .collect();
        if let Some(e) = repeat.and_then(|i| t.entries.get(i % t.entries.len().max(1))) {
            let mut changed = e.clone();
            changed.perm = 2;
            let value = serde_json::to_string(&changed).unwrap_or_default();
            entries.push(format!("\"{}\"{colon}{value}", e.topic_name));
        }
        let mapping = t.mapping.map_or(String::new(), |m| {
            format!("\"mappingDataVersion\"{colon}{{\"counter\":{m},\"timestamp\":7}}{sep}")
        });
        format!(
            "{{\"filterServerList\"{colon}[]{sep}\"topicConfigSerializeWrapper\"{colon}{{\"dataVersion\"{colon}{{\"counter\":{},\"timestamp\":1}}{sep}{mapping}\"topicConfigTable\"{colon}{{{}}}}}}}",
            t.version,
            entries.join(sep)
        )
        .into_bytes()
    }

    fn apply(t: &mut Table, e: &Edit) -> Vec<u8> {
        let len = t.entries.len();
        match *e {
            Edit::Add(at, n) => {
                let tc = topic(n);
                if !t.entries.iter().any(|x| x.topic_name == tc.topic_name) {
                    t.entries.insert(at % (len + 1), tc);
                }
                t.version += 1;
            }
            Edit::Remove(i) if len > 0 => {
                t.entries.remove(i % len);
                t.version += 1;
            }
            Edit::Perm(i, p) if len > 0 => {
                t.entries[i % len].perm = p;
                t.version += 1;
            }
            Edit::Queues(i, q) if len > 0 => {
                t.entries[i % len].read_queue_nums = q;
                t.version += 1;
            }
            Edit::Bump => t.version += 1,
            Edit::Mapping(m) => t.mapping = m,
            Edit::Swap(a, b) if len > 0 => t.entries.swap(a % len, b % len),
            Edit::Respace => t.spaced = !t.spaced,
            Edit::Lenient => {
                return String::from_utf8(bytes(t, None))
                    .unwrap_or_default()
                    .replacen("\"filterServerList\"", "'filterServerList'", 1)
                    .into_bytes()
            }
            Edit::Broken => {
                let mut b = bytes(t, None);
                b.truncate(b.len() / 2);
                return b;
            }
            Edit::Repeat(i) => return bytes(t, Some(i)),
            _ => {}
        }
        bytes(t, None)
    }

    fn register(rm: &mut RouteManager, now: u64, body: crate::model::RegisterBrokerBody) {
        let mut req = RegisterBroker::new(
            "C",
            "broker-a",
            0,
            "10.0.0.1:10911",
            body.topic_config_serialize_wrapper.clone(),
        );
        req.body = body;
        // A refused registration is refused by both alike; what is compared is the aftermath.
        let _ = rm.register_broker(now, &req);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn a_body_reached_by_edits_reads_as_the_same_body_read_from_scratch(
            start in proptest::collection::vec(any::<u8>(), 0..24),
            edits in proptest::collection::vec(edit(), 1..40),
            v5 in any::<bool>(),
        ) {
            let mut t = Table { entries: Vec::new(), version: 1, mapping: None, spaced: false };
            for n in start {
                apply(&mut t, &Edit::Add(usize::MAX, n));
            }
            let profile = if v5 { Profile::V5 } else { Profile::V4 };
            let (mut cached_rm, mut fresh_rm) = (RouteManager::new(profile), RouteManager::new(profile));
            let mut cache = RegisterBodyCache::default();
            let mut body = bytes(&t, None);
            for (i, e) in std::iter::once(&Edit::Bump).chain(&edits).enumerate() {
                if i > 0 {
                    body = apply(&mut t, e);
                }
                let got = cache.take(&body, false, 479, v5, Dialect::Fastjson1);
                let want = register_body(&body, false, 479, v5, Dialect::Fastjson1);
                match (got, want) {
                    (Ok(got), Ok(want)) => {
                        prop_assert_eq!(&got, &want, "after {:?}", e);
                        let now = 1_000 * (i as u64 + 1);
                        register(&mut cached_rm, now, got.clone());
                        register(&mut fresh_rm, now, want);
                        prop_assert_eq!(
                            format!("{:?}", cached_rm.drain_events()),
                            format!("{:?}", fresh_rm.drain_events())
                        );
                        if !matches!(e, Edit::Lost) {
                            cache.give_back(got);
                        }
                    }
                    (Err(got), Err(want)) => prop_assert_eq!(got.to_string(), want.to_string()),
                    (got, want) => prop_assert!(false, "after {:?}: cache {:?}, full {:?}", e, got.is_ok(), want.is_ok()),
                }
            }
            let topics = |rm: &RouteManager| {
                rm.all_topics().map(|l| format!("{l:?}")).unwrap_or_default()
            };
            prop_assert_eq!(topics(&cached_rm), topics(&fresh_rm));
            for tc in &t.entries {
                prop_assert_eq!(
                    cached_rm.pickup_topic_route_data(&tc.topic_name),
                    fresh_rm.pickup_topic_route_data(&tc.topic_name)
                );
            }
        }
    }

    /// The walk reuses what repeats: a kept topic object is not read again (a marker only the kept
    /// body carries survives), while a changed one is.
    #[test]
    fn an_added_topic_reuses_the_others() {
        let mut t = Table {
            entries: (0..5).map(topic).collect(),
            version: 1,
            mapping: None,
            spaced: false,
        };
        let mut c = RegisterBodyCache::default();
        let mut first = c
            .take(&bytes(&t, None), false, 479, true, Dialect::Fastjson1)
            .unwrap();
        let kept = first
            .topic_config_serialize_wrapper
            .topic_config_table
            .get_mut("Topic-001")
            .unwrap();
        kept.topic_filter_type = "marker".into();
        c.give_back(first);
        let next = apply(&mut t, &Edit::Add(2, 9));
        let mut second = c.take(&next, false, 479, true, Dialect::Fastjson1).unwrap();
        let table = &second.topic_config_serialize_wrapper.topic_config_table;
        assert_eq!(table["Topic-001"].topic_filter_type, "marker", "reused");
        assert_eq!(table["Topic-009"], topic(9));
        assert_eq!(
            second.topic_config_serialize_wrapper.data_version,
            DataVersion::new(2, 1)
        );
        second
            .topic_config_serialize_wrapper
            .topic_config_table
            .get_mut("Topic-001")
            .unwrap()
            .topic_filter_type = "SINGLE_TAG".into();
        assert_eq!(
            second,
            register_body(&next, false, 479, true, Dialect::Fastjson1).unwrap()
        );
        c.give_back(second);
        // Topic-001 changed: read again, the marker gone.
        let third = apply(&mut t, &Edit::Perm(1, 2));
        let third = c
            .take(&third, false, 479, true, Dialect::Fastjson1)
            .unwrap();
        assert_eq!(
            third.topic_config_serialize_wrapper.topic_config_table["Topic-001"].topic_filter_type,
            "SINGLE_TAG"
        );
    }
}

/// Kept bodies count against the server's budget: a connection whose body does not fit keeps
/// none (its next body is read in full, correctly), and a connection that ends gives its share
/// back.
#[test]
fn kept_bodies_stay_within_the_budget() {
    let one = keeping_cost(&bytes(1), layout::scan(&bytes(1)).as_ref());
    let budget = std::sync::Arc::new(CacheBudget::new(one + one / 2));
    let take = |c: &mut RegisterBodyCache| {
        c.take(&bytes(1), false, 479, true, Dialect::Fastjson1)
            .unwrap()
    };
    let mut a = RegisterBodyCache::with_budget(budget.clone());
    let mut kept = take(&mut a);
    kept.filter_server_list.push("marker".into());
    a.give_back(kept);
    assert_eq!(budget.used(), one);
    let mut b = RegisterBodyCache::with_budget(budget.clone());
    let mut not_kept = take(&mut b);
    not_kept.filter_server_list.push("marker".into());
    b.give_back(not_kept);
    assert!(take(&mut b).filter_server_list.is_empty(), "b kept nothing");
    assert!(budget.refused() >= 1, "the refusal counted for /metrics");
    assert_eq!(
        take(&mut a).filter_server_list,
        ["marker"],
        "a kept its body"
    );
    drop(a);
    assert_eq!(budget.used(), 0);
    let mut kept = take(&mut b);
    kept.filter_server_list.push("marker".into());
    b.give_back(kept);
    assert_eq!(
        take(&mut b).filter_server_list,
        ["marker"],
        "b has room now"
    );
    drop(b);
    assert_eq!(budget.used(), 0);
}
