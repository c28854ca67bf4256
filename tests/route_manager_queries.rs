//! Write perms (spec §2.5), topic deletion and registration (§2.6), the read-only queries (§2.7),
//! route pickup (§3) and the KV store (§4).
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use routelab::model::perm::{FLAG_UNIT, FLAG_UNIT_SUB, PERM_READ, PERM_WRITE};
use routelab::model::{BrokerData, QueueData, TopicConfig, TopicRouteData};
use routelab::namesrv::{
    Event, NamesrvConfig, PermChange, Profile, RouteError, RouteManager, TopicRemovalReason,
    NAMESPACE_ORDER_TOPIC_CONFIG,
};

/// broker-a (cluster C1, master + slave) hosts T1 (perm 7) and T2 (perm 6); broker-b (C1) hosts T2
/// and T3; broker-c (cluster C2) hosts T2 and T4.
fn three_groups(profile: Profile) -> RouteManager {
    three_groups_with(profile, NamesrvConfig::default())
}

fn three_groups_with(profile: Profile, config: NamesrvConfig) -> RouteManager {
    let mut rm = RouteManager::with_config(profile, config);
    reg(
        &mut rm,
        T0,
        &broker_with(
            C1,
            BA,
            0,
            A_MASTER,
            version(1),
            vec![tc("T1", 7), tc("T2", 6)],
        ),
    );
    reg(&mut rm, T0, &broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]));
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T2", "T3"]));
    reg(&mut rm, T0, &master(C2, BC, C_MASTER, 1, &["T2", "T4"]));
    rm.drain_events();
    rm
}

fn names(list: &BTreeSet<String>) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

fn route_groups(route: &TopicRouteData) -> Vec<String> {
    route
        .sorted()
        .broker_datas
        .iter()
        .map(|b| b.broker_name.to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// §2.5 wipe / add write perm
// ---------------------------------------------------------------------------------------------

/// Spec §2.5 (wipe): `perm &= ~WRITE` on every topic of the group, returning the number of topics
/// touched (wipeTopicCount); other groups keep their perms; an unknown group touches nothing.
#[test]
fn wipe_clears_write_bit_of_every_topic_of_the_group() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        assert_eq!(rm.wipe_write_perm_of_broker(BA), Ok(2), "{profile}");
        assert_eq!(perm(&rm, "T1", BA), 5);
        assert_eq!(perm(&rm, "T2", BA), PERM_READ);
        assert_eq!(perm(&rm, "T2", BB), 6);
        assert_eq!(
            rm.drain_events(),
            vec![Event::PermChanged {
                broker_name: BA.into(),
                change: PermChange::Wiped,
                topics: vec!["T1".into(), "T2".into()],
            }]
        );
        // Already read-only topics are counted again.
        assert_eq!(rm.wipe_write_perm_of_broker(BA), Ok(2));
        assert_eq!(perm(&rm, "T1", BA), 5);
        rm.drain_events();
        let before = snapshot(&rm);
        assert_eq!(rm.wipe_write_perm_of_broker("broker-x"), Ok(0));
        assert_eq!(rm.add_write_perm_of_broker("broker-x"), Ok(0));
        assert_eq!(snapshot(&rm), before);
        assert!(rm.drain_events().is_empty());
    }
}

/// Spec §2.5 (add): `perm = READ | WRITE` = 6 overwrites the perm, dropping the inherit bit (7 → 6)
/// and forcing READ on; returns addTopicCount.
#[test]
fn add_write_perm_overwrites_perm_with_read_write() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        rm.wipe_write_perm_of_broker(BA).unwrap();
        assert_eq!(rm.add_write_perm_of_broker(BA), Ok(2), "{profile}");
        assert_eq!(
            perm(&rm, "T1", BA),
            PERM_READ | PERM_WRITE,
            "inherit dropped"
        );
        assert_eq!(perm(&rm, "T2", BA), 6);
        assert!(rm.drain_events().contains(&Event::PermChanged {
            broker_name: BA.into(),
            change: PermChange::Added,
            topics: vec!["T1".into(), "T2".into()],
        }));

        // A write-only or no-perm topic also becomes exactly 6.
        reg(
            &mut rm,
            T0 + 1,
            &broker_with(
                C1,
                BB,
                0,
                B_MASTER,
                version(2),
                vec![tc("T2", PERM_WRITE), tc("T3", 0)],
            ),
        );
        assert_eq!(rm.add_write_perm_of_broker(BB), Ok(2));
        assert_eq!((perm(&rm, "T2", BB), perm(&rm, "T3", BB)), (6, 6));
    }
}

/// Spec §2.5 (in memory only): a wiped perm survives the broker's re-registration with the same
/// DataVersion (4.x whole-table rule, 5.x per-topic rule: QueueData present); a new DataVersion
/// restores the broker's own perm.
#[test]
fn wiped_perm_survives_re_registration_with_same_version() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        rm.wipe_write_perm_of_broker(BB).unwrap();
        reg(
            &mut rm,
            T0 + 30_000,
            &master(C1, BB, B_MASTER, 1, &["T2", "T3"]),
        );
        assert_eq!(perm(&rm, "T3", BB), PERM_READ, "{profile}");
        reg(
            &mut rm,
            T0 + 60_000,
            &master(C1, BB, B_MASTER, 2, &["T2", "T3"]),
        );
        assert_eq!(perm(&rm, "T3", BB), 6, "{profile}");
    }
}

/// Spec §2.5 (header brokerName; RouteLab validation): an empty broker name is refused by both perm
/// requests with InvalidField and changes nothing.
#[test]
fn perm_requests_need_a_broker_name() {
    let mut rm = three_groups(Profile::V5);
    let before = snapshot(&rm);
    for result in [
        rm.wipe_write_perm_of_broker(""),
        rm.add_write_perm_of_broker(" "),
    ] {
        assert!(matches!(
            result,
            Err(RouteError::InvalidField { ref field, .. }) if field == "brokerName"
        ));
    }
    assert_eq!(snapshot(&rm), before);
}

// ---------------------------------------------------------------------------------------------
// §2.6 deleteTopic / registerTopic
// ---------------------------------------------------------------------------------------------

/// Spec §2.6 (DELETE_TOPIC_IN_NAMESRV without cluster): the whole topic goes, with one Deleted event
/// per QueueData, and its route disappears.
#[test]
fn delete_topic_without_cluster_removes_it_entirely() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        assert_eq!(rm.delete_topic("T2", None), Ok(3), "{profile}");
        assert!(rm.topic_queue_table().get("T2").is_none());
        assert_eq!(rm.pickup_topic_route_data("T2"), None);
        let events = rm.drain_events();
        assert_eq!(events.len(), 3);
        // One Deleted event per group, in the order of the topic's map (broker-b, broker-c,
        // broker-a: buckets 8, 9, 11 of 16); the last one takes the topic with it.
        let removed: Vec<(String, bool)> = events
            .iter()
            .filter_map(|e| match e {
                Event::TopicQueueRemoved {
                    topic,
                    broker_name,
                    reason: TopicRemovalReason::Deleted,
                    topic_removed,
                } if topic.as_str() == "T2" => Some((broker_name.to_string(), *topic_removed)),
                _ => None,
            })
            .collect();
        assert_eq!(
            removed,
            vec![
                (BB.to_owned(), false),
                (BC.to_owned(), false),
                (BA.to_owned(), true)
            ],
            "{profile}"
        );
        assert_eq!(rm.delete_topic("T2", None), Ok(0), "already gone");
        // An empty cluster name is "no cluster".
        assert_eq!(rm.delete_topic("T1", Some("")), Ok(1));
        assert!(rm.topic_queue_table().get("T1").is_none());
    }
}

/// Spec §2.6 (DELETE_TOPIC_IN_NAMESRV with cluster): only the QueueData of that cluster's groups go;
/// the topic is dropped once nothing remains.
#[test]
fn delete_topic_by_cluster_removes_only_that_clusters_groups() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        assert_eq!(rm.delete_topic("T2", Some(C1)), Ok(2), "{profile}");
        let left: Vec<&str> = rm
            .topic_queue_table()
            .get("T2")
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(left, vec![BC]);
        assert_eq!(rm.delete_topic("T2", Some(C2)), Ok(1));
        assert!(rm.topic_queue_table().get("T2").is_none());
        // The groups themselves stay.
        assert_eq!(rm.broker_addr_table().len(), 3);
    }
}

/// Spec §2.6 (unknown cluster → no change): nothing is removed and no event is emitted.
#[test]
fn delete_topic_in_unknown_cluster_changes_nothing() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        let before = snapshot(&rm);
        assert_eq!(rm.delete_topic("T2", Some("NoSuchCluster")), Ok(0));
        assert_eq!(rm.delete_topic("NoSuchTopic", None), Ok(0));
        assert_eq!(snapshot(&rm), before, "{profile}");
        assert!(rm.drain_events().is_empty());
        // Java's NameServer checks no topic name (no TopicValidator in namesrv): nothing to remove.
        assert_eq!(rm.delete_topic("bad topic", None), Ok(0));
        assert_eq!(snapshot(&rm), before, "{profile}");
    }
}

fn queue(name: &str, perm: i32) -> QueueData {
    QueueData {
        broker_name: name.into(),
        perm,
        read_queue_nums: 2,
        topic_sys_flag: 0,
        write_queue_nums: 2,
    }
}

/// Spec §2.6 (REGISTER_TOPIC_IN_NAMESRV, 5.x): QueueData of known groups are stored as given, and the
/// topic gets a route.
#[test]
fn register_topic_stores_queue_data_of_known_groups_5x() {
    let mut rm = three_groups(Profile::V5);
    let queues = vec![queue(BA, 6), queue(BC, 4)];
    assert_eq!(rm.register_topic("NewTopic", &queues), Ok(2));
    let route = rm.pickup_topic_route_data("NewTopic").unwrap().sorted();
    assert_eq!(route.queue_datas, queues);
    assert_eq!(route_groups(&route), vec![BA, BC]);
}

/// Spec §2.6 (REGISTER_TOPIC_IN_NAMESRV, topic exists): the first unknown group stops the loop; the
/// QueueData put before it stay, the ones after it are not stored.
#[test]
fn register_topic_stops_at_first_unknown_group_for_existing_topic_5x() {
    let mut rm = three_groups(Profile::V5);
    let queues = vec![queue(BA, 4), queue("broker-x", 6), queue(BC, 4)];
    assert_eq!(rm.register_topic("T3", &queues), Ok(1));
    assert_eq!(qd(&rm, "T3", BA), Some(queue(BA, 4)));
    assert_eq!(qd(&rm, "T3", BC), None);
    assert_eq!(perm(&rm, "T3", BB), 6, "existing QueueData untouched");
}

/// Spec §2.6 (REGISTER_TOPIC_IN_NAMESRV, new topic): RocketMQ builds the new topic's map aside and
/// returns on the first unknown group without storing it, so nothing is created.
#[test]
fn register_topic_with_unknown_group_creates_nothing_for_new_topic_5x() {
    let mut rm = three_groups(Profile::V5);
    let before = snapshot(&rm);
    let queues = vec![queue(BA, 6), queue("broker-x", 6)];
    assert_eq!(rm.register_topic("NewTopic", &queues), Ok(0));
    assert_eq!(snapshot(&rm), before);
    assert!(rm.drain_events().is_empty());
    assert_eq!(rm.pickup_topic_route_data("NewTopic"), None);
}

/// Spec §2.6 (REGISTER_TOPIC_IN_NAMESRV is 5.x only): 4.x refuses it as NotSupported.
#[test]
fn register_topic_is_not_supported_4x() {
    let mut rm = three_groups(Profile::V4);
    assert_eq!(
        rm.register_topic("NewTopic", &[queue(BA, 6)]),
        Err(RouteError::NotSupported {
            operation: "REGISTER_TOPIC_IN_NAMESRV",
            profile: Profile::V4,
        })
    );
    assert!(rm.topic_queue_table().get("NewTopic").is_none());
}

// ---------------------------------------------------------------------------------------------
// §2.7 read-only queries
// ---------------------------------------------------------------------------------------------

/// Spec §2.7 (GET_BROKER_CLUSTER_INFO): brokerAddrTable and clusterAddrTable as held.
#[test]
fn cluster_info_mirrors_broker_and_cluster_tables() {
    for profile in PROFILES {
        let rm = three_groups(profile);
        let info = rm.get_all_cluster_info();
        let groups: Vec<&str> = info.broker_addr_table.keys().map(|k| k.as_str()).collect();
        assert_eq!(groups, vec![BA, BB, BC], "{profile}");
        assert_eq!(
            info.broker_addr_table[BA].broker_addrs,
            BTreeMap::from([(0, A_MASTER.into()), (1, A_SLAVE.into())])
        );
        let clusters: BTreeMap<String, Vec<String>> = info
            .cluster_addr_table
            .iter()
            .map(|(c, s)| (c.to_string(), s.iter().map(|n| n.to_string()).collect()))
            .collect();
        assert_eq!(
            clusters,
            BTreeMap::from([
                (C1.to_owned(), vec![BA.to_owned(), BB.to_owned()]),
                (C2.to_owned(), vec![BC.to_owned()]),
            ])
        );
    }
}

/// Spec §2.7 (GET_ALL_TOPIC_LIST_FROM_NAMESERVER): every topic key; 5.x answers "disable" when
/// enableAllTopicList is off, 4.x has no such switch.
#[test]
fn all_topic_list_and_its_5x_gate() {
    let off = NamesrvConfig {
        enable_all_topic_list: false,
        ..NamesrvConfig::default()
    };
    for profile in PROFILES {
        let rm = three_groups(profile);
        let list = rm.get_all_topic_list().unwrap();
        assert_eq!(names(&list.topic_list), vec!["T1", "T2", "T3", "T4"]);
        assert_eq!(list.broker_addr, None);
        let gated = three_groups_with(profile, off.clone());
        match profile {
            Profile::V5 => assert_eq!(
                gated.get_all_topic_list(),
                Err(RouteError::Disabled("enableAllTopicList"))
            ),
            Profile::V4 => assert_eq!(gated.get_all_topic_list(), Ok(list)),
        }
    }
}

/// Spec §2.7 (GET_SYSTEM_TOPIC_LIST_FROM_NS): every cluster name and broker name, plus brokerAddr =
/// the first address of the first group; an empty NameServer has no brokerAddr.
#[test]
fn system_topic_list_is_cluster_and_broker_names_with_an_address() {
    for profile in PROFILES {
        let rm = three_groups(profile);
        let list = rm.get_system_topic_list();
        assert_eq!(
            names(&list.topic_list),
            vec![C1, C2, BA, BB, BC],
            "{profile}"
        );
        // RocketMQ takes the first group in brokerAddrTable's order: broker-b (bucket 88 of 128, and
        // of 256 in 5.x) before broker-c (89) and broker-a (91); then its first id, 0.
        assert_eq!(list.broker_addr.as_deref(), Some(B_MASTER), "{profile}");
        assert_eq!(manager(profile).get_system_topic_list().broker_addr, None);
    }
}

/// Spec §2.7 (GET_TOPICS_BY_CLUSTER): topics with QueueData on any group of the cluster; an unknown
/// cluster gives an empty list; 5.x answers "disable" when enableTopicList is off.
#[test]
fn topics_by_cluster_and_unknown_cluster() {
    for profile in PROFILES {
        let rm = three_groups(profile);
        let c1 = rm.get_topics_by_cluster(C1).unwrap();
        assert_eq!(names(&c1.topic_list), vec!["T1", "T2", "T3"], "{profile}");
        let c2 = rm.get_topics_by_cluster(C2).unwrap();
        assert_eq!(names(&c2.topic_list), vec!["T2", "T4"]);
        assert!(rm
            .get_topics_by_cluster("NoSuchCluster")
            .unwrap()
            .topic_list
            .is_empty());
    }
    let off = NamesrvConfig {
        enable_topic_list: false,
        ..NamesrvConfig::default()
    };
    assert_eq!(
        three_groups_with(Profile::V5, off.clone()).get_topics_by_cluster(C1),
        Err(RouteError::Disabled("enableTopicList"))
    );
    assert!(three_groups_with(Profile::V4, off)
        .get_topics_by_cluster(C1)
        .is_ok());
}

fn flagged(topic: &str, flag: i32) -> TopicConfig {
    TopicConfig {
        topic_sys_flag: flag,
        ..tc(topic, 6)
    }
}

/// Spec §2.7 (unit topic lists): only the first QueueData of each topic in its HashMap's order is
/// sampled — broker-b's (bucket 8 of 16) before broker-a's (11) here: UNIT on broker-b counts,
/// UNIT only on broker-a does not. The sub lists test FLAG_UNIT_SUB, and "sub, not unit".
#[test]
fn unit_topic_lists_sample_the_first_queue_data() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        reg(
            &mut rm,
            T0,
            &broker_with(
                C1,
                BA,
                0,
                A_MASTER,
                version(1),
                vec![
                    flagged("UnitFirst", FLAG_UNIT),
                    flagged("UnitSecond", 0),
                    flagged("Sub", FLAG_UNIT_SUB),
                    flagged("SubUnit", FLAG_UNIT | FLAG_UNIT_SUB),
                ],
            ),
        );
        reg(
            &mut rm,
            T0,
            &broker_with(
                C1,
                BB,
                0,
                B_MASTER,
                version(1),
                vec![flagged("UnitFirst", 0), flagged("UnitSecond", FLAG_UNIT)],
            ),
        );
        assert_eq!(
            names(&rm.get_unit_topics().topic_list),
            vec!["SubUnit", "UnitSecond"],
            "{profile}"
        );
        assert_eq!(
            names(&rm.get_has_unit_sub_topic_list().topic_list),
            vec!["Sub", "SubUnit"]
        );
        assert_eq!(
            names(&rm.get_has_unit_sub_un_unit_topic_list().topic_list),
            vec!["Sub"]
        );
    }
}

/// Spec §2.7 (GET_BROKER_MEMBER_GROUP, 5.x): the group's members; an unknown group gives an empty
/// group with the requested names; 4.x has no such request.
#[test]
fn broker_member_group_lists_members_5x() {
    let rm = three_groups(Profile::V5);
    let g = rm.get_broker_member_group(C1, BA).unwrap();
    assert_eq!(
        g.broker_addrs,
        BTreeMap::from([(0, A_MASTER.into()), (1, A_SLAVE.into())])
    );
    assert_eq!((g.broker_name.as_str(), g.cluster.as_str()), (BA, C1));
    let unknown = rm.get_broker_member_group(C2, "broker-x").unwrap();
    assert_eq!(unknown, BrokerData::new(C2.into(), "broker-x".into()));
    assert!(matches!(
        three_groups(Profile::V4).get_broker_member_group(C1, BA),
        Err(RouteError::NotSupported { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// §3 pickupTopicRouteData
// ---------------------------------------------------------------------------------------------

/// Spec §3.1 steps 1–3, 5: queueDatas are the topic's QueueData, brokerDatas the groups hosting it
/// (equal to their brokerAddrTable entries), compared as sets; no orderTopicConf by default.
#[test]
fn route_has_queue_datas_and_broker_datas_of_hosting_groups() {
    for profile in PROFILES {
        let rm = three_groups(profile);
        let route = rm.pickup_topic_route_data("T2").unwrap().sorted();
        let expected_queues: Vec<QueueData> = [BA, BB, BC]
            .iter()
            .map(|n| qd(&rm, "T2", n).unwrap())
            .collect();
        assert_eq!(route.queue_datas, expected_queues, "{profile}");
        assert_eq!(route_groups(&route), vec![BA, BB, BC]);
        for bd in &route.broker_datas {
            assert_eq!(
                Some(bd),
                rm.broker_addr_table().get(bd.broker_name.as_str())
            );
        }
        assert!(route.filter_server_table.is_empty());
        assert_eq!(route.order_topic_conf, None);
        let t1 = rm.pickup_topic_route_data("T1").unwrap();
        assert_eq!(route_groups(&t1), vec![BA]);
    }
}

/// Spec §3.1 step 1: a topic without QueueData has no route (TOPIC_NOT_EXIST).
#[test]
fn unknown_topic_has_no_route() {
    for profile in PROFILES {
        let rm = three_groups(profile);
        assert_eq!(rm.pickup_topic_route_data("Nope"), None, "{profile}");
        assert_eq!(manager(profile).pickup_topic_route_data("T1"), None);
    }
}

/// Spec §3.1 step 3 (a copy of each BrokerData; the 5.x copy includes zoneName and
/// enableActingMaster): the route's BrokerData carry the 5.x fields, 4.x copies have neither. (That
/// the copy is detached from the table is pinned by the acting-master test below.)
#[test]
fn route_broker_datas_are_copies_with_5x_fields() {
    let mut rm = manager(Profile::V5);
    let zoned = routelab::namesrv::RegisterBroker {
        zone_name: Some("az-2".into()),
        ..acting(master(C1, BA, A_MASTER, 1, &["T1", "T2"]), true)
    };
    reg(&mut rm, T0, &zoned);
    let route = rm.pickup_topic_route_data("T1").unwrap();
    let bd = route.broker_data(BA).unwrap();
    assert_eq!(bd.zone_name.as_deref(), Some("az-2"));
    assert_eq!(bd.enable_acting_master, Some(true));

    let mut v4 = manager(Profile::V4);
    reg(&mut v4, T0, &zoned);
    let bd4 = v4.pickup_topic_route_data("T1").unwrap().broker_datas[0].clone();
    assert_eq!((bd4.zone_name, bd4.enable_acting_master), (None, None));
}

/// Spec §3.1 step 4: filter servers of every address of the included groups are attached, keyed by
/// address; groups not in the route contribute none.
#[test]
fn route_attaches_filter_servers_of_included_groups() {
    for profile in PROFILES {
        let mut rm = three_groups(profile);
        let mut slave = broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]);
        slave.body.filter_server_list = vec!["10.0.0.2:30000".into()];
        reg(&mut rm, T0, &slave);
        let mut other = master(C1, BB, B_MASTER, 1, &["T2", "T3"]);
        other.body.filter_server_list = vec!["10.0.1.1:30000".into(), "10.0.1.1:30001".into()];
        reg(&mut rm, T0, &other);

        let t1 = rm.pickup_topic_route_data("T1").unwrap();
        assert_eq!(
            t1.filter_server_table,
            BTreeMap::from([(A_SLAVE.to_owned(), vec!["10.0.0.2:30000".to_owned()])]),
            "{profile}"
        );
        let t2 = rm.pickup_topic_route_data("T2").unwrap();
        assert_eq!(t2.filter_server_table.len(), 2);
        assert_eq!(t2.filter_server_table[B_MASTER].len(), 2);
    }
}

/// Spec §3.2 step 4 (orderTopicConf): with orderMessageEnable the route carries the KV value of
/// namespace ORDER_TOPIC_CONFIG, key = topic (None when absent); without it, never.
#[test]
fn order_topic_conf_comes_from_kv_only_when_enabled() {
    let enabled = NamesrvConfig {
        order_message_enable: true,
        ..NamesrvConfig::default()
    };
    for profile in PROFILES {
        let mut on = three_groups_with(profile, enabled.clone());
        on.put_kv_config(NAMESPACE_ORDER_TOPIC_CONFIG, "T2", "broker-a:4;broker-b:4")
            .unwrap();
        on.put_kv_config("OTHER_NAMESPACE", "T3", "broker-b:8")
            .unwrap();
        assert_eq!(
            on.pickup_topic_route_data("T2")
                .unwrap()
                .order_topic_conf
                .as_deref(),
            Some("broker-a:4;broker-b:4"),
            "{profile}"
        );
        assert_eq!(
            on.pickup_topic_route_data("T3").unwrap().order_topic_conf,
            None
        );

        let mut off = three_groups(profile);
        off.put_kv_config(NAMESPACE_ORDER_TOPIC_CONFIG, "T2", "broker-a:4")
            .unwrap();
        assert_eq!(
            off.pickup_topic_route_data("T2").unwrap().order_topic_conf,
            None
        );
    }
}

/// A 5.x acting-master group whose master left: slaves 1 and 2 remain and its QueueData are
/// read-only (spec §2.3 reduced group).
fn masterless_acting_group(config: NamesrvConfig) -> RouteManager {
    let mut rm = RouteManager::with_config(Profile::V5, config);
    let topics = ["T1", "rmq_sys_SYNC_BROKER_MEMBER_broker-a"];
    reg(
        &mut rm,
        T0,
        &acting(master(C1, BA, A_MASTER, 1, &topics), true),
    );
    reg(
        &mut rm,
        T0,
        &acting(broker(C1, BA, 1, A_SLAVE, 1, &topics), true),
    );
    reg(
        &mut rm,
        T0,
        &acting(broker(C1, BA, 2, A_SLAVE2, 1, &topics), true),
    );
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T1", "T2"]));
    rm.unregister_broker(&unregister(C1, BA, 0, A_MASTER))
        .unwrap();
    rm.apply_pending_unregistrations();
    rm
}

/// Spec §3.1 (5.x acting master, supportActingMaster on): a group without id 0, with
/// enableActingMaster and read-only QueueData, shows its smallest-id member as id 0 in the route
/// only; groups with a master are unchanged.
#[test]
fn acting_master_is_presented_as_id_0_in_routes_5x() {
    let rm = masterless_acting_group(NamesrvConfig {
        support_acting_master: true,
        ..NamesrvConfig::default()
    });
    let route = rm.pickup_topic_route_data("T1").unwrap();
    assert_eq!(
        route.broker_data(BA).unwrap().broker_addrs,
        BTreeMap::from([(0, A_SLAVE.into()), (2, A_SLAVE2.into())])
    );
    assert_eq!(
        route.broker_data(BB).unwrap().broker_addrs,
        BTreeMap::from([(0, B_MASTER.into())])
    );
    assert_eq!(
        members(&rm, BA),
        vec![(1, A_SLAVE.to_owned()), (2, A_SLAVE2.to_owned())],
        "the table keeps the real ids"
    );
    // rmq_sys_SYNC_BROKER_MEMBER_ topics are never rewritten.
    let sync = rm
        .pickup_topic_route_data("rmq_sys_SYNC_BROKER_MEMBER_broker-a")
        .unwrap();
    assert!(!sync.broker_data(BA).unwrap().broker_addrs.contains_key(&0));
}

/// Spec §3.1 (5.x acting master conditions): no rewrite when supportActingMaster is off (default), or
/// when the group's QueueData is writable again.
#[test]
fn acting_master_rewrite_needs_support_flag_and_read_only_queues_5x() {
    let off = masterless_acting_group(NamesrvConfig::default());
    let route = off.pickup_topic_route_data("T1").unwrap();
    assert!(!route.broker_data(BA).unwrap().broker_addrs.contains_key(&0));

    let mut writable = masterless_acting_group(NamesrvConfig {
        support_acting_master: true,
        ..NamesrvConfig::default()
    });
    writable.add_write_perm_of_broker(BA).unwrap();
    let route = writable.pickup_topic_route_data("T1").unwrap();
    assert!(!route.broker_data(BA).unwrap().broker_addrs.contains_key(&0));
}

// ---------------------------------------------------------------------------------------------
// §4 KV config
// ---------------------------------------------------------------------------------------------

/// Spec §4 (put / get / list): put creates the namespace on demand, get returns the value, the list
/// returns the namespace as a KVTable; each real change emits KvChanged, re-putting the same value
/// does not.
#[test]
fn kv_put_get_and_list() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        rm.put_kv_config("ns1", "k1", "v1").unwrap();
        rm.put_kv_config("ns1", "k2", "v2").unwrap();
        rm.put_kv_config("ns1", "k1", "v1").unwrap();
        rm.put_kv_config("ns1", "k1", "v1b").unwrap();
        assert_eq!(rm.get_kv_config("ns1", "k1"), Ok("v1b"), "{profile}");
        assert_eq!(
            rm.get_kv_list_by_namespace("ns1").unwrap().table,
            BTreeMap::from([
                ("k1".to_owned(), "v1b".to_owned()),
                ("k2".to_owned(), "v2".to_owned())
            ])
        );
        let values: Vec<Option<String>> = rm
            .drain_events()
            .into_iter()
            .map(|e| match e {
                Event::KvChanged { value, .. } => value,
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(
            values,
            vec![Some("v1".into()), Some("v2".into()), Some("v1b".into())]
        );
    }
}

/// Spec §4 (QUERY_NOT_FOUND): a missing key or namespace is RouteError::KvNotFound naming both.
#[test]
fn kv_missing_entries_are_not_found() {
    let mut rm = manager(Profile::V4);
    rm.put_kv_config("ns1", "k1", "v1").unwrap();
    assert_eq!(
        rm.get_kv_config("ns1", "nope"),
        Err(RouteError::KvNotFound {
            namespace: "ns1".into(),
            key: "nope".into(),
        })
    );
    assert_eq!(
        rm.get_kv_config("ns9", "k1"),
        Err(RouteError::KvNotFound {
            namespace: "ns9".into(),
            key: "k1".into(),
        })
    );
    assert_eq!(
        rm.get_kv_list_by_namespace("ns9"),
        Err(RouteError::KvNotFound {
            namespace: "ns9".into(),
            key: String::new(),
        })
    );
}

/// Spec §4 (delete): removes the key with a KvChanged{value: None} event; deleting a missing key is a
/// silent no-op; an emptied namespace stays and lists as an empty table.
#[test]
fn kv_delete_is_a_no_op_when_absent_and_keeps_the_namespace() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        rm.put_kv_config("ns1", "k1", "v1").unwrap();
        rm.drain_events();
        rm.delete_kv_config("ns1", "k1").unwrap();
        assert!(rm.get_kv_config("ns1", "k1").is_err(), "{profile}");
        assert_eq!(
            rm.drain_events(),
            vec![Event::KvChanged {
                namespace: "ns1".into(),
                key: "k1".into(),
                value: None,
            }]
        );
        rm.delete_kv_config("ns1", "k1").unwrap();
        rm.delete_kv_config("ns9", "k1").unwrap();
        assert!(rm.drain_events().is_empty());
        assert!(rm.get_kv_list_by_namespace("ns1").unwrap().table.is_empty());
    }
}

/// Spec §4 (PUT_KV_CONFIG "namespace or key is null"): an empty namespace or key is refused with the
/// field name and changes nothing.
#[test]
fn kv_needs_namespace_and_key() {
    let mut rm = manager(Profile::V5);
    for (field, result) in [
        ("namespace", rm.put_kv_config("", "k", "v")),
        ("key", rm.put_kv_config("ns", "", "v")),
        ("namespace", rm.delete_kv_config("", "k")),
    ] {
        assert!(matches!(
            result,
            Err(RouteError::InvalidField { field: ref f, .. }) if f == field
        ));
    }
    assert!(rm.kv().namespaces().is_empty());
}
