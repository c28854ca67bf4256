//! Properties of the controller's election (`DefaultElectPolicy` as 5.3.3 has it) over random
//! groups: whoever is elected is alive and a candidate; the old master, alive, is never passed
//! over without a preference; a preference gives that broker or nobody; otherwise nobody alive in
//! the SyncStateSet is better by (epoch, offset); and nobody is elected only when no candidate is
//! alive.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use routelab::controller::{elect, ReplicaLive};

/// A group: each replica's live info and whether it is up; the SyncStateSet; the old master; a
/// preferred id (maybe no replica).
type Group = (
    BTreeMap<i64, (ReplicaLive, bool)>,
    BTreeSet<i64>,
    Option<i64>,
    Option<i64>,
);

fn group() -> impl Strategy<Value = Group> {
    proptest::collection::btree_map(
        0i64..40,
        (0i32..4, 0i64..1_000, 0i32..3, any::<bool>()),
        1..8,
    )
    .prop_flat_map(|m| {
        let replicas: BTreeMap<i64, (ReplicaLive, bool)> = m
            .into_iter()
            .map(|(id, (epoch, max_offset, priority, up))| {
                (
                    id,
                    (
                        ReplicaLive {
                            id,
                            epoch,
                            max_offset,
                            priority,
                        },
                        up,
                    ),
                )
            })
            .collect();
        let ids: Vec<i64> = replicas.keys().copied().collect();
        (
            Just(replicas),
            proptest::sample::subsequence(ids.clone(), 0..=ids.len())
                .prop_map(|v| v.into_iter().collect()),
            proptest::option::of(proptest::sample::select(ids.clone())),
            proptest::option::of(0i64..40),
        )
    })
}

proptest! {
    #[test]
    fn elections_keep_the_policys_rules((replicas, sss, old, prefer) in group(), unclean in any::<bool>()) {
        let alive = |id: i64| replicas.get(&id).is_some_and(|(_, up)| *up);
        let live = |id: i64| replicas.get(&id).map(|(r, _)| *r);
        let all: BTreeSet<i64> = replicas.keys().copied().collect();
        // The controller's sets are sorted id lists.
        let (sss_ids, all_ids): (Vec<i64>, Vec<i64>) =
            (sss.iter().copied().collect(), all.iter().copied().collect());
        let got = elect(Some(&sss_ids), unclean.then_some(all_ids.as_slice()), old, prefer, &alive, &live);
        let candidates: BTreeSet<i64> = if unclean { all.clone() } else { sss.clone() };
        if let Some(m) = got {
            prop_assert!(alive(m) && candidates.contains(&m), "{m} elected");
        }
        let alive_in = |s: &BTreeSet<i64>| s.iter().any(|id| alive(*id));
        match prefer {
            Some(p) => prop_assert!(got.is_none() || got == Some(p)),
            None => {
                if old.is_some_and(|o| sss.contains(&o) && alive(o)) {
                    prop_assert_eq!(got, old);
                }
                prop_assert_eq!(got.is_none(), !alive_in(&candidates));
                if let Some(m) = got.filter(|m| sss.contains(m) && Some(*m) != old) {
                    let key = |id: i64| { let r = live(id).unwrap(); (r.epoch, r.max_offset) };
                    for other in sss.iter().filter(|id| alive(**id)) {
                        prop_assert!(key(*other) <= key(m), "{other} beats {m}");
                    }
                }
            }
        }
    }
}
