//! The election against `DefaultElectPolicy`'s and `electMaster`'s behaviour (5.3.3), case by case:
//! the old master kept, the preferred id, the order by epoch, offset and priority, ties, unclean
//! election, and the controller's three answers.

use super::*;
use crate::controller::ids::{self, Ids};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn set(list: &[i64]) -> Ids {
    ids::of(list.iter().copied())
}

/// Replicas 1..=3 with (epoch, max offset, priority); `down` are not alive.
fn world(
    infos: &[(i64, i32, i64, i32)],
    down: &[i64],
) -> (impl Fn(i64) -> bool, impl Fn(i64) -> Option<ReplicaLive>) {
    let infos: Vec<ReplicaLive> = infos
        .iter()
        .map(|&(id, epoch, max_offset, priority)| ReplicaLive {
            id,
            epoch,
            max_offset,
            priority,
        })
        .collect();
    let down = set(down);
    let alive = {
        let (infos, down) = (infos.clone(), down.clone());
        move |id: i64| !down.contains(&id) && infos.iter().any(|i| i.id == id)
    };
    let live = move |id: i64| infos.iter().find(|i| i.id == id).copied();
    (alive, live)
}

const P: i32 = i32::MAX;

/// Spec (DefaultElectPolicy.tryElect): the old master, still alive and not passed over by a
/// preference, stays master whatever the others' offsets.
#[test]
fn the_old_master_stays_while_alive() {
    let (alive, live) = world(&[(1, 1, 100, P), (2, 1, 900, P)], &[]);
    assert_eq!(
        elect(Some(&set(&[1, 2])), None, Some(1), None, &alive, &live),
        Some(1)
    );
    assert_eq!(
        elect(Some(&set(&[1, 2])), None, Some(1), Some(1), &alive, &live),
        Some(1)
    );
}

/// Spec: a preferred id is taken if it is a valid candidate, and nobody otherwise (never another
/// broker instead) — even over a live old master.
#[test]
fn a_preference_is_taken_or_nobody() {
    let (alive, live) = world(&[(1, 1, 100, P), (2, 1, 50, P), (3, 1, 900, P)], &[3]);
    assert_eq!(
        elect(
            Some(&set(&[1, 2, 3])),
            None,
            Some(1),
            Some(2),
            &alive,
            &live
        ),
        Some(2)
    );
    assert_eq!(
        elect(
            Some(&set(&[1, 2, 3])),
            None,
            Some(1),
            Some(3),
            &alive,
            &live
        ),
        None,
        "3 is down"
    );
    assert_eq!(
        elect(Some(&set(&[1, 2])), None, Some(1), Some(7), &alive, &live),
        None,
        "7 is no replica"
    );
}

/// Spec: without the old master, the highest epoch wins, then the highest offset, then the lowest
/// priority number.
#[test]
fn the_best_by_epoch_then_offset_then_priority() {
    let (alive, live) = world(&[(1, 2, 100, P), (2, 3, 10, P), (3, 3, 50, P)], &[]);
    assert_eq!(
        elect(Some(&set(&[1, 2, 3])), None, None, None, &alive, &live),
        Some(3),
        "epoch 3, more offset"
    );
    let (alive, live) = world(&[(1, 3, 50, 5), (2, 3, 50, 2), (3, 3, 50, 9)], &[]);
    assert_eq!(
        elect(Some(&set(&[1, 2, 3])), None, Some(9), None, &alive, &live),
        Some(2),
        "priority 2 first"
    );
}

/// Spec: candidates that compare equal (same epoch, offset and priority) go into Java's TreeSet
/// once, the first fed staying: HashSet<Long> order, ascending for small ids.
#[test]
fn ties_go_to_the_first_in_hash_set_order() {
    let (alive, live) = world(&[(3, 1, 70, P), (2, 1, 70, P), (17, 1, 70, P)], &[]);
    assert_eq!(
        elect(Some(&set(&[3, 2, 17])), None, None, None, &alive, &live),
        Some(17),
        "17 falls in bucket 1, before 2 and 3"
    );
    assert_eq!(
        elect(Some(&set(&[3, 2])), None, None, None, &alive, &live),
        Some(2)
    );
}

/// Java's comparator casts the offsets' `long` difference to `int`: a difference of exactly 2³²
/// bytes reads as equal, so the first fed stays even though the other has 4 GiB more.
#[test]
fn the_offset_difference_is_cast_to_int_as_in_java() {
    let (alive, live) = world(&[(1, 1, 0, P), (2, 1, 1 << 32, P)], &[]);
    assert_eq!(
        elect(Some(&set(&[1, 2])), None, None, None, &alive, &live),
        Some(1)
    );
    let (alive, live) = world(&[(1, 1, 0, P), (2, 1, 1 << 20, P)], &[]);
    assert_eq!(
        elect(Some(&set(&[1, 2])), None, None, None, &alive, &live),
        Some(2)
    );
}

/// Spec (electMaster): unclean election off (the default) leaves a group whose SyncStateSet is all
/// down without a master; on, the other replicas are tried next.
#[test]
fn unclean_election_tries_every_replica() {
    let (alive, live) = world(&[(1, 2, 900, P), (2, 1, 10, P), (3, 1, 20, P)], &[1]);
    let req = ElectRequest {
        broker_id: None,
        sync_state_set: set(&[1]),
        master: Some(1),
        had_master: true,
        master_epoch: 2,
        sync_state_set_epoch: 5,
        all_replicas: set(&[1, 2, 3]),
        ..ElectRequest::default()
    };
    assert_eq!(
        elect_master(&req, &alive, &live),
        Election::Nobody { master_lost: true }
    );
    let unclean = ElectRequest {
        unclean: true,
        ..req.clone()
    };
    assert_eq!(
        elect_master(&unclean, &alive, &live),
        Election::NewMaster {
            master: 3,
            master_epoch: 3,
            sync_state_set_epoch: 6,
            sync_state_set: set(&[3]),
        }
    );
}

/// Spec (electMaster): the first election takes the asking broker; the old master chosen again is
/// MASTER_STILL_EXIST; a failure asked by a broker is ELECT_MASTER_FAILED, not a lost master; a
/// designated broker (mqadmin electMaster -b) is elected or nobody.
#[test]
fn the_controllers_answers() {
    let (alive, live) = world(&[(1, 1, 100, P), (2, 1, 100, P)], &[]);
    let first = ElectRequest {
        broker_id: Some(2),
        ..ElectRequest::default()
    };
    assert!(matches!(
        elect_master(&first, &alive, &live),
        Election::NewMaster {
            master: 2,
            master_epoch: 1,
            ..
        }
    ));
    let running = ElectRequest {
        broker_id: Some(2),
        sync_state_set: set(&[1, 2]),
        master: Some(1),
        had_master: true,
        master_epoch: 4,
        sync_state_set_epoch: 9,
        all_replicas: set(&[1, 2]),
        ..ElectRequest::default()
    };
    assert_eq!(
        elect_master(&running, &alive, &live),
        Election::StillMaster {
            master: 1,
            epoch: 4
        }
    );
    let designate = ElectRequest {
        designate: true,
        ..running.clone()
    };
    assert!(matches!(
        elect_master(&designate, &alive, &live),
        Election::NewMaster {
            master: 2,
            master_epoch: 5,
            sync_state_set_epoch: 10,
            ..
        }
    ));
    let (alive, live) = world(&[(1, 1, 100, P), (2, 1, 100, P)], &[1, 2]);
    assert_eq!(
        elect_master(&running, &alive, &live),
        Election::Nobody { master_lost: false }
    );
}
