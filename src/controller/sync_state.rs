//! The SyncStateSet as the master keeps it (`AutoSwitchHAService`, 5.3.3): a slave leaves it when
//! it has not caught up for `haMaxTimeSlaveNotCatchup` (15 s, `MessageStoreConfig`) or is not
//! connected at all; it joins again once its max offset reaches the master's confirm offset and
//! the current epoch's start. The master proposes the change to the controller
//! (ALTER_SYNC_STATE_SET); the simulator will carry that message.

use super::ids::{self, Ids};

/// `haMaxTimeSlaveNotCatchup`'s default, ms.
pub const HA_MAX_TIME_SLAVE_NOT_CATCHUP_MS: u64 = 15_000;

/// `maybeShrinkSyncStateSet`: the set without the slaves that last caught up more than
/// `max_not_catchup_ms` before `now_ms` (by `caught_up`, (slave id, when)), nor those with no
/// connection (absent from `caught_up`); `None` when nobody leaves. The master (`local`) stays.
pub fn shrink(
    set: &[i64],
    local: i64,
    caught_up: &[(i64, u64)],
    now_ms: u64,
    max_not_catchup_ms: u64,
) -> Option<Ids> {
    let kept: Ids = set
        .iter()
        .copied()
        .filter(|id| {
            *id == local
                || caught_up.iter().any(|(slave, at)| {
                    slave == id && now_ms.saturating_sub(*at) <= max_not_catchup_ms
                })
        })
        .collect();
    (kept != set).then_some(kept)
}

/// `maybeExpandInSyncStateSet`: the set with `slave` added once its max offset reaches both the
/// master's confirm offset and the start of the current epoch; `None` when it is in already or
/// has not caught up.
pub fn expand(
    set: &[i64],
    slave: i64,
    slave_max_offset: i64,
    confirm_offset: i64,
    epoch_start_offset: i64,
) -> Option<Ids> {
    if ids::has(set, slave)
        || slave_max_offset < confirm_offset
        || slave_max_offset < epoch_start_offset
    {
        return None;
    }
    let mut grown = set.to_vec();
    ids::insert(&mut grown, slave);
    Some(grown)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn set(list: &[i64]) -> Ids {
        ids::of(list.iter().copied())
    }

    /// Spec (maybeShrinkSyncStateSet): behind for more than 15 s, or not connected, leaves; the
    /// master never does; exactly 15 s is still in.
    #[test]
    fn slaves_behind_too_long_or_gone_leave() {
        let caught = [(1, 100_000), (2, 84_000), (3, 85_000)];
        let now = 100_000;
        let max = HA_MAX_TIME_SLAVE_NOT_CATCHUP_MS;
        assert_eq!(
            shrink(&set(&[0, 1, 2, 3]), 0, &caught, now, max),
            Some(set(&[0, 1, 3]))
        );
        assert_eq!(
            shrink(&set(&[0, 1, 4]), 0, &caught, now, max),
            Some(set(&[0, 1])),
            "4 has no connection"
        );
        assert_eq!(shrink(&set(&[0, 1, 3]), 0, &caught, now, max), None);
    }

    /// Spec (maybeExpandInSyncStateSet): a slave joins once it reaches the confirm offset and the
    /// epoch's start offset.
    #[test]
    fn a_slave_that_caught_up_joins() {
        assert_eq!(expand(&set(&[0]), 2, 500, 500, 100), Some(set(&[0, 2])));
        assert_eq!(
            expand(&set(&[0]), 2, 499, 500, 100),
            None,
            "behind the confirm offset"
        );
        assert_eq!(
            expand(&set(&[0]), 2, 500, 400, 600),
            None,
            "behind the epoch's start"
        );
        assert_eq!(expand(&set(&[0, 2]), 2, 900, 500, 100), None, "in already");
    }
}
