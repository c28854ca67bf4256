//! REGISTER_BROKER: the 4.x rules (spec §2.1), the 5.x differences (spec §2.2) and the validation that
//! keeps bad requests out of the tables.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod common;

use std::collections::BTreeMap;

use common::*;
use routelab::model::perm::{FLAG_UNIT, PERM_READ, PERM_WRITE};
use routelab::model::{BrokerAddr, QueueData, TopicConfig};
use routelab::namesrv::{
    Event, NamesrvConfig, Profile, RegisterBroker, RegisterBrokerResult, RejectReason, RouteError,
    RouteManager, TopicRemovalReason, DEFAULT_BROKER_CHANNEL_EXPIRED_MS, MAX_QUEUE_NUMS,
};

fn topic_changes(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TopicQueueChanged {
                topic, broker_name, ..
            } => Some((topic.to_string(), broker_name.to_string())),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// §2.1 — 4.x
// ---------------------------------------------------------------------------------------------

/// Spec §2.1 steps 1, 2, 4, 5, 6 (first master registration, 4.x): the name joins its cluster set,
/// the group is created with `{0: addr}`, every topic of the body becomes a QueueData with the
/// body's queue counts, perm and sysflag, and the live entry holds now, the DataVersion, the channel
/// and the HA address. 4.x BrokerData has no enableActingMaster / zoneName.
#[test]
fn first_master_registration_fills_every_table_4x() {
    let mut rm = manager(Profile::V4);
    let mut unit = TopicConfig::new("TopicUnit", 4, 2, 7);
    unit.topic_sys_flag = FLAG_UNIT;
    let req = RegisterBroker {
        ha_server_addr: "10.0.0.1:10912".into(),
        ..on_channel(
            broker_with(
                C1,
                BA,
                0,
                A_MASTER,
                version(3),
                vec![tc("TopicTest", 6), unit],
            ),
            11,
        )
    };
    let result = rm.register_broker(T0, &req).unwrap();

    assert_eq!(
        result,
        RegisterBrokerResult::default(),
        "a master gets no masterAddr"
    );
    assert_eq!(cluster_names(&rm, C1), vec![BA]);
    let g = group(&rm, BA).unwrap();
    assert_eq!(g.cluster, C1);
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    assert_eq!((g.enable_acting_master, g.zone_name), (None, None));
    assert_eq!(
        qd(&rm, "TopicUnit", BA),
        Some(QueueData {
            broker_name: BA.into(),
            perm: 7,
            read_queue_nums: 4,
            topic_sys_flag: FLAG_UNIT,
            write_queue_nums: 2,
        })
    );
    assert_eq!(perm(&rm, "TopicTest", BA), 6);
    let l = live(&rm, C1, A_MASTER).unwrap();
    assert_eq!(l.last_update_timestamp, T0);
    assert_eq!(l.data_version, version(3));
    assert_eq!(l.channel.0, 11);
    assert_eq!(l.ha_server_addr, "10.0.0.1:10912");
    assert_eq!(
        l.heartbeat_timeout_millis,
        DEFAULT_BROKER_CHANNEL_EXPIRED_MS
    );
    let events = rm.drain_events();
    assert!(events.contains(&Event::BrokerRegistered {
        cluster: C1.into(),
        broker_name: BA.into(),
        broker_id: 0,
        broker_addr: A_MASTER.into(),
        first: true,
        replaced: None,
    }));
    assert_eq!(topic_changes(&events).len(), 2);
}

/// Spec §2.1 step 1 (cluster set): a second group of the same cluster is added to the existing set,
/// and a group of another cluster creates that cluster's set.
#[test]
fn groups_accumulate_in_their_cluster_sets() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T1", "T2"]));
        reg(&mut rm, T0, &master(C2, BC, C_MASTER, 1, &["T1", "T2"]));
        assert_eq!(cluster_names(&rm, C1), vec![BA, BB], "{profile}");
        assert_eq!(cluster_names(&rm, C2), vec![BC], "{profile}");
        assert_eq!(rm.broker_addr_table().len(), 3);
    }
}

/// Spec §2.1 steps 2 and 4 (registerFirst): a new group or a new id slot is a first registration;
/// re-registering the same id and address is not.
#[test]
fn only_new_groups_and_new_id_slots_are_first_registrations() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(&mut rm, T0 + 1, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(
            &mut rm,
            T0 + 2,
            &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]),
        );
        let firsts: Vec<(i64, bool)> = rm
            .drain_events()
            .into_iter()
            .filter_map(|e| match e {
                Event::BrokerRegistered {
                    broker_id, first, ..
                } => Some((broker_id, first)),
                _ => None,
            })
            .collect();
        assert_eq!(firsts, vec![(0, true), (0, false), (1, true)], "{profile}");
    }
}

/// Spec §2.1 step 3 (same-address rule, both profiles): a slave that comes back as master leaves its
/// old id slot, so one ip:port appears once per group; other members stay.
#[test]
fn slave_switching_to_master_leaves_its_old_id_slot() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(&mut rm, T0, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]));
        reg(&mut rm, T0, &broker(C1, BA, 2, A_SLAVE2, 1, &["T1", "T2"]));
        rm.drain_events();
        reg(&mut rm, T0 + 5, &master(C1, BA, A_SLAVE, 2, &["T1", "T2"]));
        assert_eq!(
            members(&rm, BA),
            vec![(0, A_SLAVE.to_owned()), (2, A_SLAVE2.to_owned())],
            "{profile}"
        );
        assert!(rm.drain_events().contains(&Event::BrokerIdSwitched {
            broker_name: BA.into(),
            broker_addr: A_SLAVE.into(),
            old_ids: vec![1],
            new_id: 0,
        }));
    }
}

/// Spec §2.1 step 4 (`brokerAddrsMap.put`, both profiles): another address registering under an
/// occupied id takes the slot silently in Java (`registerFirst` stays false); the event names the
/// address it replaced, so a returning old master taking id 0 back shows. A heartbeat replaces
/// nobody.
#[test]
fn an_address_taking_an_occupied_id_names_the_one_it_replaced() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(&mut rm, T0 + 5, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(&mut rm, T0 + 10, &master(C1, BA, A_SLAVE, 1, &["T1", "T2"]));
        let replaced: Vec<(String, bool, Option<String>)> = rm
            .drain_events()
            .into_iter()
            .filter_map(|e| match e {
                Event::BrokerRegistered {
                    broker_addr,
                    first,
                    replaced,
                    ..
                } => Some((
                    broker_addr.to_string(),
                    first,
                    replaced.map(|a| a.to_string()),
                )),
                _ => None,
            })
            .collect();
        assert_eq!(
            replaced,
            vec![
                (A_MASTER.to_owned(), true, None),
                (A_MASTER.to_owned(), false, None),
                (A_SLAVE.to_owned(), false, Some(A_MASTER.to_owned())),
            ],
            "{profile}"
        );
        assert_eq!(members(&rm, BA), vec![(0, A_SLAVE.to_owned())], "{profile}");
    }
}

/// Spec §2.1 step 5 (4.x whole-table condition): a master whose DataVersion equals the stored one
/// does not touch the topic table, even if its body differs; a new DataVersion applies the body.
#[test]
fn master_with_unchanged_data_version_does_not_update_topics_4x() {
    let mut rm = manager(Profile::V4);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    let changed_body = broker_with(
        C1,
        BA,
        0,
        A_MASTER,
        version(1),
        vec![tc("T1", 4), tc("T2", 6), tc("T3", 6)],
    );
    reg(&mut rm, T0 + 30_000, &changed_body);
    assert_eq!(perm(&rm, "T1", BA), 6);
    assert_eq!(qd(&rm, "T3", BA), None);

    let mut new_version = changed_body.clone();
    new_version.body.topic_config_serialize_wrapper.data_version = version(2);
    reg(&mut rm, T0 + 60_000, &new_version);
    assert_eq!(perm(&rm, "T1", BA), 4);
    assert_eq!(perm(&rm, "T3", BA), 6);
}

/// Spec §2.1 step 5 (4.x): a heartbeat's topics are not read, so they are not checked either. A
/// same-DataVersion heartbeat (or a slave's registration) carrying a bad topic config refreshes its
/// live entry and leaves the topic table alone; with a changed DataVersion the master's is refused.
/// 5.x reads every heartbeat's topics (spec §2.2) and refuses the same heartbeat.
#[test]
fn heartbeat_topics_are_checked_only_where_read() {
    let bad = |v: i64, id: i64, addr: &str| {
        let mut req = master(C1, BA, addr, v, &["T1", "T2"]);
        req.broker_id = id;
        with_topic(req, "T3", TopicConfig::new("T3", -1, 8, 6))
    };
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(&mut rm, T0, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]));
        let tables = rm.topic_queue_table().clone();
        let heartbeat = rm.register_broker(T0 + 30_000, &bad(1, 0, A_MASTER));
        let slave = rm.register_broker(T0 + 30_000, &bad(1, 1, A_SLAVE));
        match profile {
            Profile::V4 => {
                assert!(
                    heartbeat.is_ok() && slave.is_ok(),
                    "{heartbeat:?} {slave:?}"
                );
                for addr in [A_MASTER, A_SLAVE] {
                    let last = live(&rm, C1, addr).unwrap().last_update_timestamp;
                    assert_eq!(last, T0 + 30_000, "{addr}");
                }
            }
            Profile::V5 => {
                assert!(matches!(heartbeat, Err(RouteError::InvalidField { .. })));
                assert!(matches!(slave, Err(RouteError::InvalidField { .. })));
                assert_eq!(live(&rm, C1, A_MASTER).unwrap().last_update_timestamp, T0);
            }
        }
        assert_eq!(rm.topic_queue_table(), &tables, "{profile}");
        let before = snapshot(&rm);
        match rm.register_broker(T0 + 60_000, &bad(2, 0, A_MASTER)) {
            Err(RouteError::InvalidField { field, .. }) => {
                assert_eq!(field, "topicConfigTable[T3].readQueueNums", "{profile}")
            }
            other => panic!("{profile}: expected InvalidField, got {other:?}"),
        }
        assert_eq!(snapshot(&rm), before, "{profile}");
    }
}

/// Spec §2.1 step 5 (registerFirst): a group's first registration writes its topics even when the
/// address's stored DataVersion is unchanged (the same address already registered elsewhere).
#[test]
fn first_registration_of_a_group_writes_topics_despite_unchanged_version_4x() {
    let mut rm = manager(Profile::V4);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 7, &["T1", "T2"]));
    // The same broker process now registers under another group name with the same version.
    reg(&mut rm, T0 + 1, &master(C1, BB, A_MASTER, 7, &["T1", "T2"]));
    assert!(qd(&rm, "T1", BB).is_some());
    assert!(qd(&rm, "T2", BB).is_some());
}

/// Spec §2.1 step 5 (no pruning, 4.x; 5.x by default): a topic that disappeared from the master's
/// body stays in the topic table.
#[test]
fn master_registration_never_prunes_missing_topics_by_default() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(
            &mut rm,
            T0,
            &master(C1, BA, A_MASTER, 1, &["T1", "T2", "T3"]),
        );
        reg(&mut rm, T0 + 1, &master(C1, BA, A_MASTER, 2, &["T1", "T2"]));
        assert!(qd(&rm, "T3", BA).is_some(), "{profile}");
        assert_eq!(topics(&rm), vec!["T1", "T2", "T3"]);
    }
}

/// Spec §2.1 step 5 (master only, 4.x) and "slave-only group" consequence: a slave's topics never
/// reach the topic table, its group still appears in brokerAddrTable and clusterAddrTable, and its
/// topics have no route.
#[test]
fn slave_only_group_contributes_no_queue_data_4x() {
    let mut rm = manager(Profile::V4);
    reg(&mut rm, T0, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]));
    assert_eq!(members(&rm, BA), vec![(1, A_SLAVE.to_owned())]);
    assert_eq!(cluster_names(&rm, C1), vec![BA]);
    assert!(rm.topic_queue_table().is_empty());
    assert_eq!(rm.pickup_topic_route_data("T1"), None);
    // Even a 4.x slave that sends the 5.x enableActingMaster header is not a "prime slave".
    reg(
        &mut rm,
        T0 + 1,
        &acting(broker(C1, BA, 1, A_SLAVE, 2, &["T1", "T2"]), true),
    );
    assert!(rm.topic_queue_table().is_empty());
}

/// Spec §2.2 (old-version broker): a 5.x slave without the enableActingMaster header is not a prime
/// slave, so a slave-only group contributes no QueueData in 5.x either.
#[test]
fn old_version_slave_only_group_contributes_no_queue_data_5x() {
    let mut rm = manager(Profile::V5);
    reg(&mut rm, T0, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]));
    assert!(group(&rm, BA).is_some());
    assert!(rm.topic_queue_table().is_empty());
    assert_eq!(rm.pickup_topic_route_data("T1"), None);
}

/// Spec §2.1 consequence (4.x): after DELETE_TOPIC_IN_NAMESRV the topic does not come back on the
/// next periodic registration with the same DataVersion; only a changed DataVersion re-adds it.
#[test]
fn deleted_topic_stays_deleted_until_data_version_changes_4x() {
    let mut rm = manager(Profile::V4);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    assert_eq!(rm.delete_topic("T1", None), Ok(1));
    reg(
        &mut rm,
        T0 + 30_000,
        &master(C1, BA, A_MASTER, 1, &["T1", "T2"]),
    );
    assert_eq!(qd(&rm, "T1", BA), None);
    assert_eq!(rm.pickup_topic_route_data("T1"), None);
    reg(
        &mut rm,
        T0 + 60_000,
        &master(C1, BA, A_MASTER, 2, &["T1", "T2"]),
    );
    assert!(qd(&rm, "T1", BA).is_some());
}

/// Spec §2.1 step 7 (filter servers): a non-empty list is stored for the broker, an empty list
/// removes it.
#[test]
fn filter_server_list_is_stored_and_cleared_by_an_empty_list() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        let mut req = master(C1, BA, A_MASTER, 1, &["T1", "T2"]);
        req.body.filter_server_list = vec!["10.0.0.1:30000".into()];
        reg(&mut rm, T0, &req);
        let key = rm.live_key(&C1.into(), &A_MASTER.into());
        assert_eq!(
            rm.filter_server_table().get(&key),
            Some(&vec!["10.0.0.1:30000".to_owned()]),
            "{profile}"
        );
        req.body.filter_server_list.clear();
        reg(&mut rm, T0 + 1, &req);
        assert!(rm.filter_server_table().is_empty(), "{profile}");
    }
}

/// Spec §2.1 step 8 (slave result): a slave whose group has a live master learns the master's
/// address and HA address; a master and a slave without a master get neither.
#[test]
fn slave_learns_its_live_master_and_ha_address() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        let lonely = rm
            .register_broker(T0, &broker(C1, BA, 2, A_SLAVE2, 1, &["T1", "T2"]))
            .unwrap();
        assert_eq!(lonely, RegisterBrokerResult::default(), "{profile}");
        let m = RegisterBroker {
            ha_server_addr: "10.0.0.1:10912".into(),
            ..master(C1, BA, A_MASTER, 1, &["T1", "T2"])
        };
        assert_eq!(
            rm.register_broker(T0, &m).unwrap(),
            RegisterBrokerResult::default()
        );
        let result = rm
            .register_broker(T0 + 1, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]))
            .unwrap();
        assert_eq!(
            result,
            RegisterBrokerResult {
                master_addr: Some(BrokerAddr::from(A_MASTER)),
                ha_server_addr: Some("10.0.0.1:10912".into()),
            },
            "{profile}"
        );
    }
}

/// Spec §2.1 step 8 ("whose BrokerLiveInfo exists"): a master address in the group without a live
/// entry gives the slave no masterAddr. 4.x unregisters by id, so an unregistration naming a wrong id
/// drops the master's live entry but leaves it in the group.
#[test]
fn slave_gets_no_master_whose_live_entry_is_gone_4x() {
    let mut rm = manager(Profile::V4);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    rm.unregister_broker(&unregister(C1, BA, 5, A_MASTER))
        .unwrap();
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    let result = rm
        .register_broker(T0 + 1, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]))
        .unwrap();
    assert_eq!(result, RegisterBrokerResult::default());
}

/// Spec §1.2 (DataVersion equality): 4.x ignores stateVersion, 5.x compares it, so only 5.x treats a
/// new stateVersion with the same counter and timestamp as a change and re-reads the topics.
#[test]
fn state_version_counts_as_a_data_version_change_only_in_5x() {
    for (profile, expect_perm) in [(Profile::V4, 6), (Profile::V5, 4)] {
        let mut rm = manager(profile);
        reg(
            &mut rm,
            T0,
            &broker_with(
                C1,
                BA,
                0,
                A_MASTER,
                state_version(1, 0),
                vec![tc("T1", 6), tc("T2", 6)],
            ),
        );
        reg(
            &mut rm,
            T0 + 1,
            &broker_with(
                C1,
                BA,
                0,
                A_MASTER,
                state_version(1, 1),
                vec![tc("T1", 4), tc("T2", 6)],
            ),
        );
        assert_eq!(perm(&rm, "T1", BA), expect_perm, "{profile}");
    }
}

// ---------------------------------------------------------------------------------------------
// §2.2 — 5.x
// ---------------------------------------------------------------------------------------------

/// Spec §2.2 (per-topic condition): a topic deleted in the NameServer IS re-added by the next
/// registration even with an unchanged DataVersion, because it has no QueueData for this group.
#[test]
fn deleted_topic_is_re_added_by_next_registration_5x() {
    let mut rm = manager(Profile::V5);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    rm.delete_topic("T1", None).unwrap();
    assert_eq!(qd(&rm, "T1", BA), None);
    rm.drain_events();
    reg(
        &mut rm,
        T0 + 30_000,
        &master(C1, BA, A_MASTER, 1, &["T1", "T2"]),
    );
    assert!(qd(&rm, "T1", BA).is_some());
    assert_eq!(
        topic_changes(&rm.drain_events()),
        vec![("T1".to_owned(), BA.to_owned())],
        "only the missing topic is written"
    );
}

/// Spec §2.2 (per-topic condition): with an unchanged DataVersion a topic already present keeps its
/// QueueData (a changed body is not applied), while a topic missing for this group is added.
#[test]
fn unchanged_version_only_fills_missing_topics_5x() {
    let mut rm = manager(Profile::V5);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    reg(
        &mut rm,
        T0 + 1,
        &broker_with(
            C1,
            BA,
            0,
            A_MASTER,
            version(1),
            vec![tc("T1", 4), tc("T2", 6), tc("T3", 6)],
        ),
    );
    assert_eq!(perm(&rm, "T1", BA), 6, "present topic not rewritten");
    assert_eq!(perm(&rm, "T3", BA), 6, "missing topic added");
}

/// Spec §2.2 (per-topic condition), with a topicQueueTable far larger than the body: only the
/// topics missing for this group are written.
#[test]
fn unchanged_version_fills_missing_topics_in_a_large_table_5x() {
    let mut rm = manager(Profile::V5);
    let many: Vec<String> = (0..100).map(|i| format!("U{i:03}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &many));
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "U050"]));
    rm.drain_events();
    reg(
        &mut rm,
        T0 + 1,
        &broker_with(
            C1,
            BA,
            0,
            A_MASTER,
            version(1),
            vec![tc("T1", 4), tc("T3", 6), tc("U050", 6), tc("U099", 6)],
        ),
    );
    assert_eq!(perm(&rm, "T1", BA), 6, "present topic not rewritten");
    assert_eq!(
        topic_changes(&rm.drain_events()),
        vec![
            ("U099".to_owned(), BA.to_owned()),
            ("T3".to_owned(), BA.to_owned())
        ],
        // RocketMQ walks the body's topics as the ConcurrentHashMap it parses them into holds
        // them: "U099" in bucket 12 of 16, "T3" in bucket 15.
        "only the topics missing for this group are written, in the body's Java order"
    );
}

/// Spec §2.2 (who may write topic config): a new-version slave (header enableActingMaster present)
/// that holds the group's minimum id while no master is present is the prime slave and writes its
/// topics with their perm unchanged when acting master is off.
#[test]
fn prime_slave_writes_topics_when_no_master_5x() {
    let mut rm = manager(Profile::V5);
    reg(
        &mut rm,
        T0,
        &acting(broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]), false),
    );
    assert_eq!(perm(&rm, "T1", BA), 6);
    assert_eq!(perm(&rm, "T2", BA), 6);
    assert!(rm.pickup_topic_route_data("T1").is_some());
}

/// Spec §2.2 (per-topic condition, `registerFirst` branch): a master filling an empty id 0 slot
/// rewrites QueueData that are present for the group even though its stored DataVersion is
/// unchanged (here the prime slave's topics, wiped read-only in the meantime).
#[test]
fn first_registration_of_an_id_rewrites_present_topics_5x() {
    let mut rm = manager(Profile::V5);
    // The broker process at B_MASTER is already live with version 1 (as master of broker-b).
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T1", "T2"]));
    reg(
        &mut rm,
        T0,
        &acting(broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]), false),
    );
    rm.wipe_write_perm_of_broker(BA).unwrap();
    assert_eq!(perm(&rm, "T1", BA), PERM_READ);
    reg(&mut rm, T0 + 1, &master(C1, BA, B_MASTER, 1, &["T1", "T2"]));
    assert_eq!(perm(&rm, "T1", BA), PERM_READ | PERM_WRITE);
    assert_eq!(perm(&rm, "T2", BA), PERM_READ | PERM_WRITE);
}

/// Spec §2.2 (prime slave): a slave that is not the minimum id of its group does not write topics.
#[test]
fn non_minimum_slave_does_not_write_topics_5x() {
    let mut rm = manager(Profile::V5);
    reg(
        &mut rm,
        T0,
        &acting(broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]), false),
    );
    reg(
        &mut rm,
        T0 + 1,
        &acting(broker(C1, BA, 2, A_SLAVE2, 1, &["T1", "T2", "T9"]), false),
    );
    assert_eq!(qd(&rm, "T9", BA), None);
    // Once a master is present, the former prime slave no longer writes either.
    reg(&mut rm, T0 + 2, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    reg(
        &mut rm,
        T0 + 3,
        &acting(broker(C1, BA, 1, A_SLAVE, 2, &["T1", "T2", "T8"]), false),
    );
    assert_eq!(qd(&rm, "T8", BA), None);
}

/// Spec §2.2 (acting master): a prime slave of a group with enableActingMaster registers its topics
/// with the write bit cleared (6 → 4, 7 → 5), and the group records the flag.
#[test]
fn prime_slave_with_acting_master_registers_read_only_5x() {
    let mut rm = manager(Profile::V5);
    let req = acting(
        broker_with(
            C1,
            BA,
            1,
            A_SLAVE,
            version(1),
            vec![tc("T1", 6), tc("T2", 7)],
        ),
        true,
    );
    reg(&mut rm, T0, &req);
    assert_eq!(perm(&rm, "T1", BA), PERM_READ);
    assert_eq!(perm(&rm, "T2", BA), 5);
    assert_eq!(group(&rm, BA).unwrap().enable_acting_master, Some(true));
    // A master of an acting-master group keeps its write bit.
    reg(
        &mut rm,
        T0 + 1,
        &acting(master(C1, BB, B_MASTER, 1, &["T1", "T2"]), true),
    );
    assert_eq!(perm(&rm, "T1", BB), PERM_READ | PERM_WRITE);
}

/// Spec §2.2 (single-topic guard): a first registration of an id whose body has exactly one topic
/// fails with RegisterBrokerFailed. As in RocketMQ the cluster set and an empty BrokerData were
/// already created; no live entry, no QueueData. Once the id is registered, single-topic bodies are
/// accepted. 4.x has no guard.
#[test]
fn single_topic_first_registration_is_refused_5x() {
    let mut rm = manager(Profile::V5);
    let single = master(C1, BA, A_MASTER, 1, &["T1"]);
    assert_eq!(
        rm.register_broker(T0, &single),
        Err(RouteError::RegisterBrokerFailed {
            broker_addr: A_MASTER.into(),
            broker_id: 0,
        })
    );
    assert_eq!(cluster_names(&rm, C1), vec![BA]);
    assert!(group(&rm, BA).unwrap().broker_addrs.is_empty());
    assert!(rm.broker_live_table().is_empty());
    assert!(rm.topic_queue_table().is_empty());
    assert!(rm.drain_events().contains(&Event::RegistrationRejected {
        broker_name: BA.into(),
        broker_id: 0,
        broker_addr: A_MASTER.into(),
        reason: RejectReason::SingleTopicGuard,
        state_version: 0,
        holder: None,
    }));

    reg(&mut rm, T0 + 1, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    reg(&mut rm, T0 + 2, &master(C1, BA, A_MASTER, 2, &["T3"]));
    assert!(qd(&rm, "T3", BA).is_some());

    let mut v4 = manager(Profile::V4);
    reg(&mut v4, T0, &single);
    assert!(qd(&v4, "T1", BA).is_some());
}

/// Spec §2.2 (single-topic guard with zero or two topics): only exactly one topic triggers it.
#[test]
fn single_topic_guard_ignores_empty_and_multi_topic_bodies_5x() {
    let mut rm = manager(Profile::V5);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &[]));
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T1", "T2"]));
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    assert_eq!(members(&rm, BB), vec![(0, B_MASTER.to_owned())]);
}

/// Spec §2.2 (state-version conflict): when the id slot holds another address whose live entry has a
/// larger stateVersion, the registration is ignored with an empty SUCCESS result and the incoming
/// address loses its live entry (here: a slave trying to take over id 0, which also left its old slot
/// by the same-address rule, as in RocketMQ).
#[test]
fn stale_state_version_registration_is_ignored_and_drops_its_live_entry_5x() {
    let mut rm = manager(Profile::V5);
    let m = RegisterBroker {
        ha_server_addr: "ha-a".into(),
        ..broker_with(
            C1,
            BA,
            0,
            A_MASTER,
            state_version(1, 5),
            vec![tc("T1", 6), tc("T2", 6)],
        )
    };
    reg(&mut rm, T0, &m);
    reg(
        &mut rm,
        T0,
        &broker_with(
            C1,
            BA,
            1,
            A_SLAVE,
            state_version(1, 3),
            vec![tc("T1", 6), tc("T2", 6)],
        ),
    );
    rm.drain_events();
    let takeover = broker_with(
        C1,
        BA,
        0,
        A_SLAVE,
        state_version(2, 4),
        vec![tc("T1", 4), tc("T2", 4)],
    );
    assert_eq!(
        rm.register_broker(T0 + 10, &takeover),
        Ok(RegisterBrokerResult::default())
    );
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    assert!(live(&rm, C1, A_SLAVE).is_none());
    assert!(live(&rm, C1, A_MASTER).is_some());
    assert_eq!(perm(&rm, "T1", BA), 6, "topics untouched");
    assert_eq!(
        rm.drain_events().last(),
        Some(&Event::RegistrationRejected {
            broker_name: BA.into(),
            broker_id: 0,
            broker_addr: A_SLAVE.into(),
            reason: RejectReason::StaleStateVersion,
            state_version: 4,
            holder: Some((A_MASTER.into(), 5)),
        })
    );
}

/// Spec §2.2 (state-version conflict, strict `>`): an equal or larger stateVersion takes over the
/// slot; 4.x has no such check at all.
#[test]
fn equal_or_newer_state_version_takes_over_the_slot() {
    for (profile, new_state) in [(Profile::V5, 5), (Profile::V5, 6), (Profile::V4, 0)] {
        let mut rm = manager(profile);
        reg(
            &mut rm,
            T0,
            &broker_with(
                C1,
                BA,
                0,
                A_MASTER,
                state_version(1, 5),
                vec![tc("T1", 6), tc("T2", 6)],
            ),
        );
        reg(
            &mut rm,
            T0 + 1,
            &broker_with(
                C1,
                BA,
                0,
                B_MASTER,
                state_version(1, new_state),
                vec![tc("T1", 6), tc("T2", 6)],
            ),
        );
        assert_eq!(
            members(&rm, BA),
            vec![(0, B_MASTER.to_owned())],
            "{profile} state {new_state}"
        );
        assert!(live(&rm, C1, B_MASTER).is_some());
    }
}

/// Spec §2.2 (optional pruning, deleteTopicWithBrokerRegistration): a master registration removes
/// this group's topics missing from its body (dropping a topic left empty), but not other groups'
/// QueueData, and not when the body carries static-topic mappings.
#[test]
fn registration_prunes_missing_topics_when_configured_5x() {
    let config = NamesrvConfig {
        delete_topic_with_broker_registration: true,
        ..NamesrvConfig::default()
    };
    let mut rm = RouteManager::with_config(Profile::V5, config.clone());
    reg(
        &mut rm,
        T0,
        &master(C1, BA, A_MASTER, 1, &["T1", "T2", "T3"]),
    );
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T2", "T3"]));
    rm.drain_events();
    reg(&mut rm, T0 + 1, &master(C1, BA, A_MASTER, 2, &["T1", "T4"]));
    assert_eq!(qd(&rm, "T2", BA), None);
    assert!(qd(&rm, "T2", BB).is_some());
    assert_eq!(topics(&rm), vec!["T1", "T2", "T3", "T4"]);
    assert!(rm.drain_events().contains(&Event::TopicQueueRemoved {
        topic: "T3".into(),
        broker_name: BA.into(),
        reason: TopicRemovalReason::PrunedByRegistration,
        topic_removed: false,
    }));
    reg(&mut rm, T0 + 2, &master(C1, BB, B_MASTER, 2, &["T2", "T5"]));
    assert!(
        !topics(&rm).contains(&"T3".to_owned()),
        "empty topic dropped"
    );

    // With a static-topic mapping in the body nothing is pruned.
    let mut with_mapping = master(C1, BA, A_MASTER, 3, &["T9", "T8"]);
    with_mapping
        .body
        .topic_config_serialize_wrapper
        .topic_queue_mapping_info_map = Some(BTreeMap::from([(
        "T9".to_owned(),
        serde_json::json!({"bname": BA, "topic": "T9", "totalQueues": 8, "epoch": 1}),
    )]));
    reg(&mut rm, T0 + 3, &with_mapping);
    assert!(qd(&rm, "T1", BA).is_some());

    // Default config: no pruning.
    let mut plain = manager(Profile::V5);
    reg(&mut plain, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    reg(
        &mut plain,
        T0 + 1,
        &master(C1, BA, A_MASTER, 2, &["T1", "T3"]),
    );
    assert!(qd(&plain, "T2", BA).is_some());
}

/// Spec §2.2 (liveness entry): 5.x stores the header heartbeatTimeoutMillis per broker (120 000 when
/// absent); 4.x ignores the header and always uses 120 000.
#[test]
fn heartbeat_timeout_is_stored_per_broker_5x_only() {
    for (profile, expected) in [(Profile::V5, 10_000), (Profile::V4, 120_000)] {
        let mut rm = manager(profile);
        let fast = RegisterBroker {
            heartbeat_timeout_millis: Some(10_000),
            ..master(C1, BA, A_MASTER, 1, &["T1", "T2"])
        };
        reg(&mut rm, T0, &fast);
        reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T1", "T2"]));
        assert_eq!(
            live(&rm, C1, A_MASTER).unwrap().heartbeat_timeout_millis,
            expected,
            "{profile}"
        );
        assert_eq!(
            live(&rm, C1, B_MASTER).unwrap().heartbeat_timeout_millis,
            120_000
        );
    }
}

/// Spec §2.2 (old vs new broker, zoneName): 5.x BrokerData carries enableActingMaster from the header
/// (false for an old-version broker without it) and zoneName from `__ZONE_NAME`; each registration
/// overwrites them. 4.x stores neither.
#[test]
fn zone_name_and_acting_master_flag_are_kept_on_broker_data_5x() {
    let mut rm = manager(Profile::V5);
    let zoned = RegisterBroker {
        zone_name: Some("az-1".into()),
        ..acting(master(C1, BA, A_MASTER, 1, &["T1", "T2"]), true)
    };
    reg(&mut rm, T0, &zoned);
    let g = group(&rm, BA).unwrap();
    assert_eq!(
        (g.enable_acting_master, g.zone_name.as_deref()),
        (Some(true), Some("az-1"))
    );
    reg(&mut rm, T0 + 1, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    let g = group(&rm, BA).unwrap();
    assert_eq!((g.enable_acting_master, g.zone_name), (Some(false), None));

    let mut v4 = manager(Profile::V4);
    reg(&mut v4, T0, &zoned);
    let g = group(&v4, BA).unwrap();
    assert_eq!((g.enable_acting_master, g.zone_name), (None, None));
}

/// Spec §2.2 (createAndUpdateQueueData only replaces on a real change): a new DataVersion with an
/// identical body produces no TopicQueueChanged event; a changed topic produces exactly one, with its
/// before and after.
#[test]
fn queue_data_events_only_on_real_change_5x() {
    let mut rm = manager(Profile::V5);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    assert_eq!(topic_changes(&rm.drain_events()).len(), 2);
    reg(&mut rm, T0 + 1, &master(C1, BA, A_MASTER, 2, &["T1", "T2"]));
    assert!(topic_changes(&rm.drain_events()).is_empty());
    reg(
        &mut rm,
        T0 + 2,
        &broker_with(
            C1,
            BA,
            0,
            A_MASTER,
            version(3),
            vec![tc("T1", 6), tc("T2", 4)],
        ),
    );
    let changes: Vec<Event> = rm
        .drain_events()
        .into_iter()
        .filter(|e| matches!(e, Event::TopicQueueChanged { .. }))
        .collect();
    let before = QueueData {
        broker_name: BA.into(),
        perm: 6,
        read_queue_nums: 8,
        topic_sys_flag: 0,
        write_queue_nums: 8,
    };
    assert_eq!(
        changes,
        vec![Event::TopicQueueChanged {
            topic: "T2".into(),
            broker_name: BA.into(),
            before: Some(before.clone()),
            after: QueueData { perm: 4, ..before },
        }]
    );
}

/// Spec §2.2 (static topics): on a first registration or a DataVersion change, each
/// topicQueueMappingInfo of the body is stored under its `bname` and shows up in the 5.x route.
#[test]
fn static_topic_mappings_are_attached_to_routes_5x() {
    let mut rm = manager(Profile::V5);
    let info = serde_json::json!({"bname": BA, "topic": "T1", "totalQueues": 8, "epoch": 1});
    let mut req = master(C1, BA, A_MASTER, 1, &["T1", "T2"]);
    req.body
        .topic_config_serialize_wrapper
        .topic_queue_mapping_info_map = Some(BTreeMap::from([("T1".to_owned(), info.clone())]));
    reg(&mut rm, T0, &req);
    let route = rm.pickup_topic_route_data("T1").unwrap();
    assert_eq!(
        route.topic_queue_mapping_by_broker,
        Some(BTreeMap::from([(BA.to_owned(), info)]))
    );
    assert_eq!(
        rm.pickup_topic_route_data("T2")
            .unwrap()
            .topic_queue_mapping_by_broker,
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

/// A manager with some state, so "unchanged" is not trivially "empty".
fn populated(profile: Profile) -> RouteManager {
    let mut rm = manager(profile);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    reg(&mut rm, T0, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]));
    rm.put_kv_config("ns", "k", "v").unwrap();
    rm.drain_events();
    rm
}

fn with_topic(mut req: RegisterBroker, key: &str, config: TopicConfig) -> RegisterBroker {
    req.body
        .topic_config_serialize_wrapper
        .topic_config_table
        .insert(key.to_owned(), config);
    req
}

/// Invalid registrations of an existing group: the field each one is refused for.
fn bad_registrations() -> Vec<(String, RegisterBroker)> {
    let ok = || master(C1, BA, A_MASTER, 9, &["T1", "T2"]);
    vec![
        (
            "brokerName".to_owned(),
            RegisterBroker {
                broker_name: "".into(),
                ..ok()
            },
        ),
        (
            "brokerName".to_owned(),
            RegisterBroker {
                broker_name: "  ".into(),
                ..ok()
            },
        ),
        (
            "clusterName".to_owned(),
            RegisterBroker {
                cluster_name: "".into(),
                ..ok()
            },
        ),
        (
            "brokerId".to_owned(),
            RegisterBroker {
                broker_id: -1,
                ..ok()
            },
        ),
        (
            "brokerAddr".to_owned(),
            RegisterBroker {
                broker_addr: "10.0.0.1".into(),
                ..ok()
            },
        ),
        (
            "brokerAddr".to_owned(),
            RegisterBroker {
                broker_addr: "10.0.0.1:0".into(),
                ..ok()
            },
        ),
        (
            "brokerAddr".to_owned(),
            RegisterBroker {
                broker_addr: "10.0.0.1:65536".into(),
                ..ok()
            },
        ),
        (
            "brokerAddr".to_owned(),
            RegisterBroker {
                broker_addr: ":10911".into(),
                ..ok()
            },
        ),
        (
            "brokerAddr".to_owned(),
            RegisterBroker {
                broker_addr: "10.0.0 .1:10911".into(),
                ..ok()
            },
        ),
        (
            "brokerAddr".to_owned(),
            RegisterBroker {
                broker_addr: "".into(),
                ..ok()
            },
        ),
        (
            "heartbeatTimeoutMillis".to_owned(),
            RegisterBroker {
                heartbeat_timeout_millis: Some(0),
                ..ok()
            },
        ),
        (
            "topicConfigTable[T3].readQueueNums".to_owned(),
            with_topic(ok(), "T3", TopicConfig::new("T3", MAX_QUEUE_NUMS + 1, 8, 6)),
        ),
        (
            "topicConfigTable[T3].readQueueNums".to_owned(),
            with_topic(ok(), "T3", TopicConfig::new("T3", -1, 8, 6)),
        ),
        (
            "topicConfigTable[T3].writeQueueNums".to_owned(),
            with_topic(ok(), "T3", TopicConfig::new("T3", 8, 1025, 6)),
        ),
        (
            "topicConfigTable[T3].writeQueueNums".to_owned(),
            with_topic(ok(), "T3", TopicConfig::new("T3", 8, -8, 6)),
        ),
        (
            "topicConfigTable[T3].perm".to_owned(),
            with_topic(ok(), "T3", tc("T3", 8)),
        ),
        (
            "topicConfigTable[T3].perm".to_owned(),
            with_topic(ok(), "T3", tc("T3", -1)),
        ),
        (
            "topicConfigTable[T3].topicName".to_owned(),
            with_topic(ok(), "T3", tc("T4", 6)),
        ),
    ]
}

/// Spec §2.1 inputs, §1.3 (`PermName.isValid`), RouteLab's queue bound and a topic config's name
/// equal to its key (validation, both profiles; topic names themselves are not checked: see
/// `topic_names_are_not_the_namesrvs_business`): each bad field is refused with RouteError::InvalidField naming that
/// field, and neither the tables (cluster info, topic table, live table, filter servers, KV, queue)
/// nor the event log change.
#[test]
fn invalid_registration_is_refused_with_its_field_and_changes_nothing() {
    for profile in PROFILES {
        for (field, req) in bad_registrations() {
            let mut rm = populated(profile);
            let before = snapshot(&rm);
            match rm.register_broker(T0 + 1_000, &req) {
                Err(RouteError::InvalidField { field: f, reason }) => {
                    assert_eq!(f, field, "{profile}: {reason}");
                    assert!(!reason.is_empty());
                }
                other => panic!("{profile} {field}: expected InvalidField, got {other:?}"),
            }
            assert_eq!(snapshot(&rm), before, "{profile} {field}");
            assert!(rm.drain_events().is_empty(), "{profile} {field}");
        }
    }
}

/// Spec §1.3 and RouteLab's queue bound (validation boundaries): queue counts 0 and 1024, perms 0
/// and 7, a 127-character topic, a long retry topic and topic names with `%`, `|`, `_`, `-` are all
/// accepted.
#[test]
fn boundary_values_are_accepted() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        let name127 = "y".repeat(127);
        let retry = format!("%RETRY%{}", "g".repeat(240));
        let topics = vec![
            TopicConfig::new("Zero", 0, 0, 0),
            TopicConfig::new("Max", MAX_QUEUE_NUMS, MAX_QUEUE_NUMS, 7),
            tc(&name127, 6),
            tc(&retry, 6),
            tc("%DLQ%g|a_b-c", 6),
        ];
        reg(
            &mut rm,
            T0,
            &broker_with(C1, BA, 0, A_MASTER, version(1), topics),
        );
        assert_eq!(rm.topic_queue_table().len(), 5, "{profile}");
        assert_eq!(qd(&rm, "Max", BA).unwrap().read_queue_nums, 1024);
        assert_eq!(perm(&rm, "Zero", BA), 0);
    }
}

/// No Java NameServer checks topic names: 4.9.8's and 5.3.3's namesrv never call TopicValidator
/// (RouteInfoManager.registerBroker takes every entry of the broker's topicConfigTable). A broker
/// carrying names outside `^[%|a-zA-Z0-9_-]+$`, longer than 127 (or a retry topic longer than 255)
/// or empty is registered with all of them, and each has its route.
#[test]
fn topic_names_are_not_the_namesrvs_business() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        let names = [
            "bad topic".to_owned(),
            "a/b".to_owned(),
            "主题".to_owned(),
            String::new(),
            "x".repeat(300),
            format!("%RETRY%{}", "g".repeat(249)),
        ];
        let topics: Vec<TopicConfig> = names.iter().map(|n| tc(n, 6)).collect();
        reg(
            &mut rm,
            T0,
            &broker_with(C1, BA, 0, A_MASTER, version(1), topics),
        );
        for n in &names {
            assert_eq!(perm(&rm, n, BA), 6, "{profile} {n:?}");
        }
        assert_eq!(rm.topic_queue_table().len(), names.len(), "{profile}");
    }
}

/// Spec §2.1 step 5 / §2.2 (both profiles): a master re-registering with a new DataVersion writes
/// every topic again — the same QueueData change nothing and report nothing, but a perm wiped in
/// between (wipeWritePerm) or a queue count the body changes is written back, however often the
/// same body came before (RouteLab skips the rewrite only when nothing could differ).
#[test]
fn a_new_data_version_rewrites_what_changed_since() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        let topics = || vec![tc("TopicA", 6), tc("TopicB", 6)];
        let reg = |counter| broker_with(C1, BA, 0, A_MASTER, version(counter), topics());
        rm.register_broker(T0, &reg(1)).unwrap();
        rm.drain_events();
        rm.register_broker(T0 + 1, &reg(2)).unwrap();
        assert!(
            topic_changes(&rm.drain_events()).is_empty(),
            "{profile:?}: same QueueData, nothing to report"
        );
        rm.wipe_write_perm_of_broker(BA).unwrap();
        rm.drain_events();
        rm.register_broker(T0 + 2, &reg(3)).unwrap();
        let perm = |rm: &RouteManager, t: &str| rm.topic_queue_table().get(t).unwrap()[BA].perm;
        assert_eq!(
            perm(&rm, "TopicA"),
            6,
            "{profile:?}: the wiped perm written back"
        );
        assert_eq!(
            topic_changes(&rm.drain_events()).len(),
            2,
            "{profile:?}: both topics changed back"
        );
        // Another broker's topic write in between does not hide a change of ours.
        rm.register_broker(
            T0 + 3,
            &broker_with(C1, BB, 0, B_MASTER, version(1), topics()),
        )
        .unwrap();
        let mut more = topics();
        more[1].write_queue_nums = 2;
        rm.register_broker(T0 + 4, &broker_with(C1, BA, 0, A_MASTER, version(4), more))
            .unwrap();
        let qd = &rm.topic_queue_table().get("TopicB").unwrap()[BA];
        assert_eq!(qd.write_queue_nums, 2, "{profile:?}");
        // A topic added with the next version is written, the others found as they are.
        rm.drain_events();
        let mut added = topics();
        added[1].write_queue_nums = 2;
        added.push(tc("TopicC", 6));
        rm.register_broker(T0 + 5, &broker_with(C1, BA, 0, A_MASTER, version(5), added))
            .unwrap();
        assert_eq!(
            topic_changes(&rm.drain_events()),
            vec![("TopicC".to_owned(), BA.to_owned())],
            "{profile:?}"
        );
    }
}

/// Spec §2.2 (5.x per-topic rule) then §2.1 step 5: a 5.x re-registration under the same DataVersion
/// after a QueueData removal elsewhere puts only missing topics — a perm wiped meanwhile stays
/// wiped — and the next DataVersion writes every topic back, as 4.x does (the case proptest's
/// 4.x/5.x differential found when RouteLab remembered numbers it had not written).
#[test]
fn a_wiped_perm_kept_by_a_heartbeat_is_written_back_by_the_next_version() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        let a = |counter| {
            broker_with(
                C1,
                BA,
                0,
                A_MASTER,
                version(counter),
                vec![tc("TopicA", 6), tc("TopicB", 6)],
            )
        };
        rm.register_broker(T0, &a(3)).unwrap();
        rm.register_broker(
            T0,
            &broker_with(
                C1,
                BB,
                0,
                B_MASTER,
                version(0),
                vec![tc("TopicC", 6), tc("TopicD", 6)],
            ),
        )
        .unwrap();
        rm.unregister_broker(&unregister(C1, BB, 0, B_MASTER))
            .unwrap();
        rm.apply_pending_unregistrations();
        rm.wipe_write_perm_of_broker(BA).unwrap();
        rm.register_broker(T0 + 1, &a(3)).unwrap();
        let perm = |rm: &RouteManager| rm.topic_queue_table().get("TopicA").unwrap()[BA].perm;
        assert_eq!(
            perm(&rm),
            4,
            "{profile:?}: the same DataVersion leaves the wiped perm"
        );
        rm.register_broker(T0 + 2, &a(0)).unwrap();
        assert_eq!(
            perm(&rm),
            6,
            "{profile:?}: a new DataVersion writes it back"
        );
    }
}
