//! Leaving the tables: UNREGISTER_BROKER (spec §2.3), the expiry scan, closed channels,
//! BROKER_HEARTBEAT and QUERY_DATA_VERSION (spec §2.4), with the events and reasons they report.
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod common;

use common::*;
use routelab::model::perm::PERM_READ;
use routelab::model::BrokerAddr;
use routelab::namesrv::{
    ChannelId, Event, NamesrvConfig, Profile, QueryDataVersionResult, RegisterBroker,
    RemovalReason, RouteError, RouteManager, TopicRemovalReason, UnregisterOutcome,
};

/// A group `broker-a` with a master and a slave (topics T1, T2 on the master), and a group
/// `broker-b` with a master hosting T2 and T3; master channels 1 and 3, slave channel 2.
fn two_groups(profile: Profile) -> RouteManager {
    let mut rm = manager(profile);
    reg(
        &mut rm,
        T0,
        &on_channel(master(C1, BA, A_MASTER, 1, &["T1", "T2"]), 1),
    );
    reg(
        &mut rm,
        T0,
        &on_channel(broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]), 2),
    );
    reg(
        &mut rm,
        T0,
        &on_channel(master(C1, BB, B_MASTER, 1, &["T2", "T3"]), 3),
    );
    rm.drain_events();
    rm
}

fn removals(events: &[Event]) -> Vec<(Option<String>, String, RemovalReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::BrokerRemoved {
                broker_name,
                broker_addr,
                reason,
                ..
            } => Some((
                broker_name.as_ref().map(|n| n.to_string()),
                broker_addr.to_string(),
                reason.clone(),
            )),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// §2.3 unregisterBroker
// ---------------------------------------------------------------------------------------------

/// Spec §2.3 (4.x): UNREGISTER_BROKER is applied at once: the live and filter entries go and the
/// group loses the entry keyed by the request's id; the group and its topics stay while it has
/// members.
#[test]
fn unregister_is_applied_at_once_by_id_4x() {
    let mut rm = two_groups(Profile::V4);
    let mut with_filter = broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]);
    with_filter.body.filter_server_list = vec!["10.0.0.2:30000".into()];
    reg(&mut rm, T0, &with_filter);
    rm.drain_events();

    let outcome = rm.unregister_broker(&unregister(C1, BA, 1, A_SLAVE));
    assert_eq!(outcome, Ok(UnregisterOutcome::Applied));
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    assert!(live(&rm, C1, A_SLAVE).is_none());
    assert!(rm.filter_server_table().is_empty());
    assert!(qd(&rm, "T1", BA).is_some());
    assert_eq!(
        rm.drain_events(),
        vec![Event::BrokerRemoved {
            cluster: C1.into(),
            broker_name: Some(BA.into()),
            broker_id: Some(1),
            broker_addr: A_SLAVE.into(),
            reason: RemovalReason::Unregistered,
        }]
    );
}

/// Spec §2.3 (4.x by id vs 5.x by address): a request naming the slave's address with a wrong id
/// removes nothing from the group in 4.x (only the address's live entry), while 5.x removes every id
/// holding that address.
#[test]
fn unregister_matches_group_entry_by_id_in_4x_and_by_address_in_5x() {
    let mut v4 = two_groups(Profile::V4);
    v4.unregister_broker(&unregister(C1, BA, 7, A_SLAVE))
        .unwrap();
    assert_eq!(
        members(&v4, BA),
        vec![(0, A_MASTER.to_owned()), (1, A_SLAVE.to_owned())]
    );
    assert!(live(&v4, C1, A_SLAVE).is_none());

    // 4.x: an id with another address removes that id's entry even though the address differs.
    let mut v4 = two_groups(Profile::V4);
    v4.unregister_broker(&unregister(C1, BA, 1, "10.9.9.9:10911"))
        .unwrap();
    assert_eq!(members(&v4, BA), vec![(0, A_MASTER.to_owned())]);
    assert!(live(&v4, C1, A_SLAVE).is_some());

    let mut v5 = two_groups(Profile::V5);
    v5.unregister_broker(&unregister(C1, BA, 7, A_SLAVE))
        .unwrap();
    assert_eq!(v5.apply_pending_unregistrations(), 1);
    assert_eq!(members(&v5, BA), vec![(0, A_MASTER.to_owned())]);
    assert!(live(&v5, C1, A_SLAVE).is_none());
}

/// Spec §2.3 step 3 (both profiles): when the last member leaves, the group goes, its name leaves the
/// cluster set (the cluster goes when empty), and its QueueData leave every topic; topics left
/// without QueueData are dropped, shared topics keep the other group's QueueData.
#[test]
fn last_member_leaving_removes_group_cluster_name_and_topics() {
    for profile in PROFILES {
        let mut rm = two_groups(profile);
        rm.unregister_broker(&unregister(C1, BB, 0, B_MASTER))
            .unwrap();
        rm.apply_pending_unregistrations();
        assert!(group(&rm, BB).is_none(), "{profile}");
        assert_eq!(cluster_names(&rm, C1), vec![BA]);
        assert_eq!(topics(&rm), vec!["T1", "T2"]);
        assert!(qd(&rm, "T2", BB).is_none());
        let events = rm.drain_events();
        assert!(events.contains(&Event::BrokerGroupRemoved {
            cluster: C1.into(),
            broker_name: BB.into(),
        }));
        assert!(events.contains(&Event::TopicQueueRemoved {
            topic: "T3".into(),
            broker_name: BB.into(),
            reason: TopicRemovalReason::BrokerGroupRemoved,
            topic_removed: true,
        }));
        assert!(events.contains(&Event::TopicQueueRemoved {
            topic: "T2".into(),
            broker_name: BB.into(),
            reason: TopicRemovalReason::BrokerGroupRemoved,
            topic_removed: false,
        }));

        rm.unregister_broker(&unregister(C1, BA, 1, A_SLAVE))
            .unwrap();
        rm.unregister_broker(&unregister(C1, BA, 0, A_MASTER))
            .unwrap();
        rm.apply_pending_unregistrations();
        assert!(rm.cluster_addr_table().get(C1).is_none(), "{profile}");
        assert!(rm.broker_addr_table().is_empty());
        assert!(rm.topic_queue_table().is_empty());
        assert!(rm.broker_live_table().is_empty());
    }
}

/// Spec §2.3 (5.x queue): UNREGISTER_BROKER is only queued; the tables do not change until
/// apply_pending_unregistrations runs the batch, which reports how many requests it ran.
#[test]
fn unregister_is_queued_until_the_batch_runs_5x() {
    let mut rm = two_groups(Profile::V5);
    let before = snapshot(&rm);
    let req = unregister(C1, BB, 0, B_MASTER);
    assert_eq!(rm.unregister_broker(&req), Ok(UnregisterOutcome::Queued));
    assert_eq!(rm.pending_unregistrations().collect::<Vec<_>>(), vec![&req]);
    let after_queue = snapshot(&rm);
    assert_eq!(after_queue.cluster_info, before.cluster_info);
    assert_eq!(after_queue.topic_queue_table, before.topic_queue_table);
    assert_eq!(after_queue.broker_live_table, before.broker_live_table);
    assert_eq!(
        rm.drain_events(),
        vec![Event::UnregisterQueued {
            cluster: C1.into(),
            broker_name: BB.into(),
            broker_addr: B_MASTER.into(),
            reason: RemovalReason::Unregistered,
        }]
    );

    assert_eq!(rm.apply_pending_unregistrations(), 1);
    assert!(group(&rm, BB).is_none());
    assert_eq!(rm.pending_unregistrations().count(), 0);
    assert_eq!(rm.apply_pending_unregistrations(), 0, "queue drained");
}

/// Spec §2.3 (5.x batch): several queued requests run as one batch; groups emptied by it lose their
/// topics after the batch.
#[test]
fn queued_unregistrations_run_as_one_batch_5x() {
    let mut rm = two_groups(Profile::V5);
    for req in [
        unregister(C1, BA, 1, A_SLAVE),
        unregister(C1, BA, 0, A_MASTER),
        unregister(C1, BB, 0, B_MASTER),
    ] {
        rm.unregister_broker(&req).unwrap();
    }
    assert_eq!(rm.broker_addr_table().len(), 2, "nothing applied yet");
    assert_eq!(rm.apply_pending_unregistrations(), 3);
    assert!(rm.broker_addr_table().is_empty());
    assert!(rm.topic_queue_table().is_empty());
    assert!(rm.cluster_addr_table().get(C1).is_none());
}

fn acting_group(enable_acting_master: bool) -> RouteManager {
    let mut rm = manager(Profile::V5);
    reg(
        &mut rm,
        T0,
        &acting(
            master(C1, BA, A_MASTER, 1, &["T1", "T2"]),
            enable_acting_master,
        ),
    );
    reg(
        &mut rm,
        T0,
        &acting(
            broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]),
            enable_acting_master,
        ),
    );
    rm.drain_events();
    rm
}

/// Spec §2.3 (5.x reduced group): when the master leaves a group with enableActingMaster, the
/// remaining slaves' group becomes read-only: the write bit of its QueueData is cleared after the
/// batch.
#[test]
fn reduced_acting_master_group_without_master_loses_write_perm_5x() {
    let mut rm = acting_group(true);
    rm.unregister_broker(&unregister(C1, BA, 0, A_MASTER))
        .unwrap();
    rm.apply_pending_unregistrations();
    assert_eq!(members(&rm, BA), vec![(1, A_SLAVE.to_owned())]);
    assert_eq!(perm(&rm, "T1", BA), PERM_READ);
    assert_eq!(perm(&rm, "T2", BA), PERM_READ);
    let perm_changes = rm
        .drain_events()
        .into_iter()
        .filter(|e| matches!(e, Event::TopicQueueChanged { .. }))
        .count();
    assert_eq!(perm_changes, 2);
}

/// Spec §2.3 (5.x reduced group): no write-bit change when acting master is off, or when the master
/// is still present (a slave left).
#[test]
fn reduced_group_keeps_write_perm_without_acting_master_or_with_master_5x() {
    let mut off = acting_group(false);
    off.unregister_broker(&unregister(C1, BA, 0, A_MASTER))
        .unwrap();
    off.apply_pending_unregistrations();
    assert_eq!(perm(&off, "T1", BA), 6);

    let mut slave_left = acting_group(true);
    slave_left
        .unregister_broker(&unregister(C1, BA, 1, A_SLAVE))
        .unwrap();
    slave_left.apply_pending_unregistrations();
    assert_eq!(perm(&slave_left, "T1", BA), 6);
}

/// Spec §2.3 (5.x queue capacity): a full unRegisterBrokerQueueCapacity queue refuses the request
/// (SYSTEM_ERROR in RocketMQ) with UnregisterQueueFull; once the batch ran, requests are accepted.
#[test]
fn full_unregister_queue_is_an_error_5x() {
    let config = NamesrvConfig {
        unregister_broker_queue_capacity: 2,
        ..NamesrvConfig::default()
    };
    let mut rm = RouteManager::with_config(Profile::V5, config);
    reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
    rm.unregister_broker(&unregister(C1, BA, 1, A_SLAVE))
        .unwrap();
    rm.unregister_broker(&unregister(C1, BA, 2, A_SLAVE2))
        .unwrap();
    assert_eq!(
        rm.unregister_broker(&unregister(C1, BA, 0, A_MASTER)),
        Err(RouteError::UnregisterQueueFull { capacity: 2 })
    );
    assert_eq!(rm.pending_unregistrations().count(), 2);
    assert_eq!(rm.apply_pending_unregistrations(), 2);
    assert!(group(&rm, BA).is_some(), "the refused request did not run");
    assert_eq!(
        rm.unregister_broker(&unregister(C1, BA, 0, A_MASTER)),
        Ok(UnregisterOutcome::Queued)
    );
}

/// Spec §2.3 (UNREGISTER_BROKER header fields; RouteLab validation): a missing name, a bad address or
/// a negative id is refused with InvalidField naming the field, and nothing changes.
#[test]
fn invalid_unregistration_is_refused_with_its_field() {
    for profile in PROFILES {
        let mut rm = two_groups(profile);
        let before = snapshot(&rm);
        for (field, req) in [
            ("brokerName", unregister(C1, "", 0, A_MASTER)),
            ("clusterName", unregister("", BA, 0, A_MASTER)),
            ("brokerAddr", unregister(C1, BA, 0, "nowhere")),
            ("brokerId", unregister(C1, BA, -2, A_MASTER)),
        ] {
            match rm.unregister_broker(&req) {
                Err(RouteError::InvalidField { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{profile} {field}: {other:?}"),
            }
        }
        assert_eq!(snapshot(&rm), before, "{profile}");
    }
}

// ---------------------------------------------------------------------------------------------
// §2.4 scan
// ---------------------------------------------------------------------------------------------

/// Spec §2.4 (4.x expiry test `last + 120000 < now`): a broker silent for exactly 120 000 ms is NOT
/// expired; at 120 001 ms it is.
#[test]
fn broker_silent_for_exactly_120s_is_not_expired_4x() {
    let mut rm = two_groups(Profile::V4);
    assert!(rm.scan_not_active_brokers(T0 + 120_000).is_empty());
    assert_eq!(rm.broker_live_table().len(), 3);
    assert!(rm.drain_events().is_empty());
    let expired = rm.scan_not_active_brokers(T0 + 120_001);
    assert_eq!(expired.len(), 3);
    assert!(rm.broker_live_table().is_empty());
}

/// Spec §2.4 (4.x on expiry): the expired broker is removed at once — live entry, group entry, and
/// with the last member the group, cluster name and topics — with reason Expired carrying the last
/// update and the 120 000 ms timeout; brokers that spoke recently stay.
#[test]
fn expired_broker_is_removed_after_120s_4x() {
    let mut rm = two_groups(Profile::V4);
    // broker-a keeps registering; broker-b falls silent.
    reg(
        &mut rm,
        T0 + 60_000,
        &on_channel(master(C1, BA, A_MASTER, 1, &["T1", "T2"]), 1),
    );
    reg(
        &mut rm,
        T0 + 60_000,
        &on_channel(broker(C1, BA, 1, A_SLAVE, 1, &["T1", "T2"]), 2),
    );
    rm.drain_events();
    let expired = rm.scan_not_active_brokers(T0 + 130_000);
    assert_eq!(expired, vec![rm.live_key(&C1.into(), &B_MASTER.into())]);
    assert!(group(&rm, BB).is_none());
    assert_eq!(cluster_names(&rm, C1), vec![BA]);
    assert_eq!(topics(&rm), vec!["T1", "T2"]);
    assert!(live(&rm, C1, A_MASTER).is_some());
    assert_eq!(
        removals(&rm.drain_events()),
        vec![(
            Some(BB.to_owned()),
            B_MASTER.to_owned(),
            RemovalReason::Expired {
                last_update_timestamp: T0,
                heartbeat_timeout_millis: 120_000,
            }
        )]
    );
}

/// Spec §2.4 (5.x per-broker timeout, scan queues): a broker registered with heartbeatTimeoutMillis
/// 10 000 expires after 10 001 ms while others use 120 000; the scan only queues an unregistration
/// (the live entry stays) until the batch runs.
#[test]
fn scan_uses_per_broker_timeout_and_queues_removal_5x() {
    let mut rm = manager(Profile::V5);
    let fast = RegisterBroker {
        heartbeat_timeout_millis: Some(10_000),
        ..master(C1, BA, A_MASTER, 1, &["T1", "T2"])
    };
    reg(&mut rm, T0, &fast);
    reg(&mut rm, T0, &master(C1, BB, B_MASTER, 1, &["T2", "T3"]));
    rm.drain_events();

    assert!(rm.scan_not_active_brokers(T0 + 10_000).is_empty());
    let expired = rm.scan_not_active_brokers(T0 + 10_001);
    assert_eq!(expired, vec![rm.live_key(&C1.into(), &A_MASTER.into())]);
    assert!(live(&rm, C1, A_MASTER).is_some(), "only queued");
    assert!(group(&rm, BA).is_some());
    let reason = RemovalReason::Expired {
        last_update_timestamp: T0,
        heartbeat_timeout_millis: 10_000,
    };
    assert_eq!(
        rm.drain_events(),
        vec![Event::UnregisterQueued {
            cluster: C1.into(),
            broker_name: BA.into(),
            broker_addr: A_MASTER.into(),
            reason: reason.clone(),
        }]
    );
    assert_eq!(rm.apply_pending_unregistrations(), 1);
    assert!(live(&rm, C1, A_MASTER).is_none());
    assert!(group(&rm, BA).is_none());
    assert_eq!(
        removals(&rm.drain_events()),
        vec![(Some(BA.to_owned()), A_MASTER.to_owned(), reason)]
    );

    assert!(rm.scan_not_active_brokers(T0 + 120_000).is_empty());
    assert_eq!(rm.scan_not_active_brokers(T0 + 120_001).len(), 1);
}

/// Spec §2.4 (4.x removes the live entry on expiry even when no group holds the address; 5.x finds
/// the broker's group first and does nothing when none of its cluster holds it). A master replaced
/// in its id slot by another address keeps a live entry that no group references.
#[test]
fn expired_orphan_live_entry_is_dropped_in_4x_but_kept_in_5x() {
    for (profile, orphan_kept) in [(Profile::V4, false), (Profile::V5, true)] {
        let mut rm = manager(profile);
        reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(
            &mut rm,
            T0 + 100_000,
            &master(C1, BA, B_MASTER, 1, &["T1", "T2"]),
        );
        assert_eq!(members(&rm, BA), vec![(0, B_MASTER.to_owned())]);
        let expired = rm.scan_not_active_brokers(T0 + 120_001);
        assert_eq!(expired.len(), 1, "{profile}");
        rm.apply_pending_unregistrations();
        assert_eq!(live(&rm, C1, A_MASTER).is_some(), orphan_kept, "{profile}");
        assert_eq!(members(&rm, BA), vec![(0, B_MASTER.to_owned())]);
    }
}

/// Spec §2.4 (next scan hint): next_expiry_ms is the earliest `last + timeout + 1`, None without live
/// brokers; a scan at that instant expires the broker, one ms earlier does not.
#[test]
fn next_expiry_is_the_first_instant_a_scan_would_expire_someone() {
    for profile in PROFILES {
        let mut rm = manager(profile);
        assert_eq!(rm.next_expiry_ms(), None);
        reg(&mut rm, T0, &master(C1, BA, A_MASTER, 1, &["T1", "T2"]));
        reg(
            &mut rm,
            T0 + 500,
            &master(C1, BB, B_MASTER, 1, &["T1", "T2"]),
        );
        let next = rm.next_expiry_ms().unwrap();
        assert_eq!(next, T0 + 120_001, "{profile}");
        assert!(rm.scan_not_active_brokers(next - 1).is_empty());
        assert_eq!(rm.scan_not_active_brokers(next).len(), 1);
        rm.apply_pending_unregistrations();
        assert_eq!(rm.next_expiry_ms(), Some(T0 + 500 + 120_001));
    }
}

// ---------------------------------------------------------------------------------------------
// §2.4 channel events
// ---------------------------------------------------------------------------------------------

/// Spec §2.4 (4.x channel destroy): the broker registered on the closed channel is removed at once,
/// with the reason given by the driver (ChannelClosed or IdleClosed).
#[test]
fn closed_channel_removes_its_broker_at_once_4x() {
    let mut rm = two_groups(Profile::V4);
    rm.on_channel_destroy(ChannelId(2), None, RemovalReason::ChannelClosed);
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    assert!(live(&rm, C1, A_SLAVE).is_none());
    rm.on_channel_destroy(ChannelId(3), None, RemovalReason::IdleClosed);
    assert!(group(&rm, BB).is_none());
    assert_eq!(topics(&rm), vec!["T1", "T2"]);
    assert_eq!(
        removals(&rm.drain_events()),
        vec![
            (
                Some(BA.to_owned()),
                A_SLAVE.to_owned(),
                RemovalReason::ChannelClosed
            ),
            (
                Some(BB.to_owned()),
                B_MASTER.to_owned(),
                RemovalReason::IdleClosed
            ),
        ]
    );
}

/// Spec §2.4 (4.x fallback): when no live entry has the channel, the socket's remote address is used;
/// an unknown remote address changes nothing.
#[test]
fn closed_channel_falls_back_to_remote_address_4x() {
    let mut rm = two_groups(Profile::V4);
    let before = snapshot(&rm);
    rm.on_channel_destroy(
        ChannelId(99),
        Some(&BrokerAddr::from("10.9.9.9:1")),
        RemovalReason::ChannelClosed,
    );
    assert_eq!(snapshot(&rm), before);
    assert!(rm.drain_events().is_empty());
    rm.on_channel_destroy(
        ChannelId(99),
        Some(&BrokerAddr::from(B_MASTER)),
        RemovalReason::ChannelClosed,
    );
    assert!(group(&rm, BB).is_none());
    assert!(live(&rm, C1, B_MASTER).is_none());
}

/// Spec §2.4 (5.x channel destroy): only the channel is used; the broker registered on it is queued
/// for unregistration with the driver's reason, and an unknown channel does nothing even with a
/// matching remote address.
#[test]
fn closed_channel_queues_unregistration_by_channel_only_5x() {
    let mut rm = two_groups(Profile::V5);
    let before = snapshot(&rm);
    rm.on_channel_destroy(
        ChannelId(99),
        Some(&BrokerAddr::from(B_MASTER)),
        RemovalReason::ChannelClosed,
    );
    assert_eq!(snapshot(&rm), before);
    assert!(rm.drain_events().is_empty());

    rm.on_channel_destroy(ChannelId(3), None, RemovalReason::IdleClosed);
    assert_eq!(
        rm.pending_unregistrations().collect::<Vec<_>>(),
        vec![&unregister(C1, BB, 0, B_MASTER)]
    );
    assert!(group(&rm, BB).is_some(), "only queued");
    rm.apply_pending_unregistrations();
    assert!(group(&rm, BB).is_none());
    assert_eq!(
        removals(&rm.drain_events()),
        vec![(
            Some(BB.to_owned()),
            B_MASTER.to_owned(),
            RemovalReason::IdleClosed
        )]
    );
}

/// Spec §2.4 (4.x destroy cleanup): the address is removed from the first group holding it only,
/// first in brokerAddrTable's HashMap(128) order: "broker-b" hashes to bucket 88, "broker-a" to 91
/// (`(h ^ h >>> 16) & 127` of their String.hashCode 372697966 and 372697965). The other group keeps
/// it.
#[test]
fn destroy_removes_address_from_first_group_only_4x() {
    let mut rm = manager(Profile::V4);
    reg(
        &mut rm,
        T0,
        &on_channel(master(C1, BA, A_MASTER, 1, &["T1", "T2"]), 1),
    );
    reg(
        &mut rm,
        T0,
        &on_channel(master(C1, BB, A_MASTER, 1, &["T1", "T2"]), 1),
    );
    rm.on_channel_destroy(ChannelId(1), None, RemovalReason::ChannelClosed);
    assert!(group(&rm, BB).is_none());
    assert_eq!(members(&rm, BA), vec![(0, A_MASTER.to_owned())]);
    assert!(rm.broker_live_table().is_empty());
}

// ---------------------------------------------------------------------------------------------
// §2.4 heartbeats
// ---------------------------------------------------------------------------------------------

/// Spec §2.4 (BROKER_HEARTBEAT, 5.x only): refreshes lastUpdateTimestamp so the scan measures from
/// the heartbeat; an unknown broker answers false; 4.x refuses the request as NotSupported.
#[test]
fn broker_heartbeat_refreshes_timestamp_5x_only() {
    let mut rm = two_groups(Profile::V5);
    let who = identity(C1, BB, 0, B_MASTER);
    assert_eq!(rm.broker_heartbeat(T0 + 100_000, &who), Ok(true));
    assert_eq!(
        live(&rm, C1, B_MASTER).unwrap().last_update_timestamp,
        T0 + 100_000
    );
    let expired = rm.scan_not_active_brokers(T0 + 120_001);
    assert!(!expired.contains(&rm.live_key(&C1.into(), &B_MASTER.into())));
    assert_eq!(expired.len(), 2);
    assert_eq!(
        rm.broker_heartbeat(T0, &identity(C1, BC, 0, C_MASTER)),
        Ok(false)
    );
    // The live table is keyed by (cluster, address) in 5.x.
    assert_eq!(
        rm.broker_heartbeat(T0, &identity(C2, BB, 0, B_MASTER)),
        Ok(false)
    );

    let mut v4 = two_groups(Profile::V4);
    assert_eq!(
        v4.broker_heartbeat(T0 + 1, &who),
        Err(RouteError::NotSupported {
            operation: "BROKER_HEARTBEAT",
            profile: Profile::V4,
        })
    );
    assert_eq!(live(&v4, C1, B_MASTER).unwrap().last_update_timestamp, T0);
}

/// Spec §2.4 (QUERY_DATA_VERSION, 4.x): `changed` compares with the stored version; the timestamp is
/// refreshed only when unchanged. The stored version is returned; an unknown broker is "changed".
#[test]
fn query_data_version_refreshes_only_when_unchanged_4x() {
    let mut rm = two_groups(Profile::V4);
    let who = identity(C1, BB, 0, B_MASTER);
    assert_eq!(
        rm.query_data_version(T0 + 50_000, &who, &version(1)),
        Ok(QueryDataVersionResult {
            changed: false,
            name_server_data_version: Some(version(1)),
        })
    );
    assert_eq!(
        live(&rm, C1, B_MASTER).unwrap().last_update_timestamp,
        T0 + 50_000
    );
    let changed = rm
        .query_data_version(T0 + 90_000, &who, &version(2))
        .unwrap();
    assert!(changed.changed);
    assert_eq!(changed.name_server_data_version, Some(version(1)));
    assert_eq!(
        live(&rm, C1, B_MASTER).unwrap().last_update_timestamp,
        T0 + 50_000
    );
    let unknown = rm
        .query_data_version(T0, &identity(C1, BC, 0, C_MASTER), &version(1))
        .unwrap();
    assert_eq!(
        unknown,
        QueryDataVersionResult {
            changed: true,
            name_server_data_version: None,
        }
    );
}

/// Spec §2.4 (QUERY_DATA_VERSION, 5.x): the timestamp is always refreshed, even when changed.
#[test]
fn query_data_version_always_refreshes_5x() {
    let mut rm = two_groups(Profile::V5);
    let who = identity(C1, BB, 0, B_MASTER);
    let result = rm
        .query_data_version(T0 + 90_000, &who, &version(2))
        .unwrap();
    assert!(result.changed);
    assert_eq!(
        live(&rm, C1, B_MASTER).unwrap().last_update_timestamp,
        T0 + 90_000
    );
    assert_eq!(rm.scan_not_active_brokers(T0 + 200_000).len(), 2);
    assert!(!rm
        .pending_unregistrations()
        .any(|r| r.broker_addr == B_MASTER));
}

/// Spec §2.4 (BROKER_HEARTBEAT / QUERY_DATA_VERSION header fields; RouteLab validation): a bad
/// identity is refused with InvalidField naming the field and refreshes nothing.
#[test]
fn invalid_identity_is_refused() {
    let mut rm = two_groups(Profile::V5);
    assert!(matches!(
        rm.broker_heartbeat(T0, &identity(C1, BB, 0, "no-port")),
        Err(RouteError::InvalidField { ref field, .. }) if field == "brokerAddr"
    ));
    assert!(matches!(
        rm.query_data_version(T0, &identity(C1, "", 0, B_MASTER), &version(1)),
        Err(RouteError::InvalidField { ref field, .. }) if field == "brokerName"
    ));
    assert_eq!(live(&rm, C1, B_MASTER).unwrap().last_update_timestamp, T0);
}

// ---------------------------------------------------------------------------------------------
// Java's order where it decides a removal (issue: java.util hash order)
// ---------------------------------------------------------------------------------------------

/// Four brokers registered over one connection, which then closes: RocketMQ's `onChannelDestroy`
/// removes the first live entry on that channel in brokerLiveTable's order, and only it. Against
/// Apache RocketMQ 4.9.8 and 5.3.3 (broker-0…broker-3 at 127.0.0.2…5:10911, DefaultCluster, one
/// connection) both removed broker-3: in 4.9.8's `HashMap(256)` of address Strings
/// "127.0.0.5:10911" comes first, and so it does in 5.x's `ConcurrentHashMap(256)` of
/// BrokerAddrInfo (hash of "DefaultCluster_127.0.0.5:10911").
fn shared_channel_close_removes_the_first_broker_java_meets(profile: Profile) {
    let mut rm = manager(profile);
    for i in 0..4 {
        let addr = format!("127.0.0.{}:10911", i + 2);
        let topics = ["TopicTest", "TBW102"];
        let req = master("DefaultCluster", &format!("broker-{i}"), &addr, 1, &topics);
        reg(&mut rm, T0, &on_channel(req, 7));
    }
    rm.drain_events();
    rm.on_channel_destroy(ChannelId(7), None, RemovalReason::ChannelClosed);
    rm.apply_pending_unregistrations();
    let gone = removals(&rm.drain_events());
    assert_eq!(
        gone,
        vec![(
            Some("broker-3".to_owned()),
            "127.0.0.5:10911".to_owned(),
            RemovalReason::ChannelClosed
        )],
        "{profile:?}"
    );
    assert!(group(&rm, "broker-3").is_none(), "{profile:?}");
    for i in 0..3 {
        assert!(group(&rm, &format!("broker-{i}")).is_some(), "{profile:?}");
    }
    assert_eq!(rm.broker_live_table().len(), 3, "{profile:?}");
}

#[test]
fn shared_channel_close_removes_the_first_broker_java_meets_4x() {
    shared_channel_close_removes_the_first_broker_java_meets(Profile::V4);
}

#[test]
fn shared_channel_close_removes_the_first_broker_java_meets_5x() {
    shared_channel_close_removes_the_first_broker_java_meets(Profile::V5);
}

/// 4.9.8's DataVersion has no `stateVersion` (fastjson drops it when the body is read), so a 4.x
/// NameServer neither keeps nor returns one; 5.x returns what the broker sent.
#[test]
fn query_data_version_returns_state_version_only_under_5x() {
    for (profile, kept) in [(Profile::V4, None), (Profile::V5, Some(7))] {
        let mut rm = manager(profile);
        reg(
            &mut rm,
            T0,
            &on_channel(
                broker_with(
                    C1,
                    BA,
                    0,
                    A_MASTER,
                    state_version(1, 7),
                    vec![
                        routelab::model::TopicConfig::new("T1", 4, 4, 6),
                        routelab::model::TopicConfig::new("T2", 4, 4, 6),
                    ],
                ),
                1,
            ),
        );
        let result = rm
            .query_data_version(
                T0 + 1_000,
                &identity(C1, BA, 0, A_MASTER),
                &state_version(1, 7),
            )
            .unwrap();
        assert!(!result.changed, "{profile:?}");
        assert_eq!(
            result.name_server_data_version.map(|v| v.state_version),
            Some(kept),
            "{profile:?}"
        );
    }
}
