//! The controller's election (5.3.3): `DefaultElectPolicy.elect` and the decision
//! `ReplicasInfoManager.electMaster` builds around it.
//!
//! The policy tries the SyncStateSet first, then — only with `enableElectUncleanMaster` — every
//! replica. Within a set it keeps the brokers the controller sees alive (`validPredicate`); then:
//! the old master if it is among them and no other broker is preferred; else the preferred broker
//! if it is among them, or nobody (a preference is never traded for another choice); else the best
//! by epoch (highest), then max offset (highest), then election priority (lowest number), through
//! a `TreeSet` with Java's comparator — whose offset term is an `int` cast of a `long` difference,
//! reproduced here — fed in `HashSet<Long>` order, so of equal candidates the first fed stays.
//!
//! Around it, `electMaster`: a group that never had a master takes the asking broker; the old
//! master chosen again changes nothing (CONTROLLER_MASTER_STILL_EXIST); a new master bumps the
//! master epoch and the SyncStateSet epoch and starts a SyncStateSet of itself alone; nobody is
//! CONTROLLER_MASTER_NOT_AVAILABLE when the controller asked (its scan found the master gone),
//! CONTROLLER_ELECT_MASTER_FAILED when a broker or an admin did.

use super::ids::Ids;
use crate::java_order::{order_of, JavaTable};
use std::cmp::Ordering;

/// What the controller's heartbeat manager knows of a live replica (`BrokerLiveInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaLive {
    pub id: i64,
    /// The last master epoch it reported.
    pub epoch: i32,
    /// Its commit log's max offset.
    pub max_offset: i64,
    /// `brokerElectionPriority` (lower is preferred; default `Integer.MAX_VALUE`).
    pub priority: i32,
}

/// `DefaultElectPolicy`'s comparator: epoch descending, then max offset descending (as Java's
/// `(int) (o2 - o1)`, which wraps for differences past 2³¹), then priority ascending (`o1 - o2`,
/// also an `int`).
fn compare(a: &ReplicaLive, b: &ReplicaLive) -> Ordering {
    let java_int = |v: i32| v.cmp(&0);
    if a.epoch == b.epoch {
        if a.max_offset == b.max_offset {
            java_int(a.priority.wrapping_sub(b.priority))
        } else {
            java_int(b.max_offset.wrapping_sub(a.max_offset) as i32)
        }
    } else {
        java_int(b.epoch.wrapping_sub(a.epoch))
    }
}

/// `tryElect` over one set.
fn try_elect(
    brokers: &[i64],
    old_master: Option<i64>,
    prefer: Option<i64>,
    alive: &dyn Fn(i64) -> bool,
    live: &dyn Fn(i64) -> Option<ReplicaLive>,
) -> Option<i64> {
    // `stream().filter(...).collect(Collectors.toSet())`: a new HashSet<Long>.
    let valid = order_of(
        JavaTable::hash_map(),
        order_of(JavaTable::hash_map(), brokers.iter().copied())
            .into_iter()
            .filter(|id| alive(*id)),
    );
    if valid.is_empty() {
        return None;
    }
    if let Some(old) = old_master {
        if valid.contains(&old) && prefer.is_none_or(|p| p == old) {
            return Some(old);
        }
    }
    if let Some(p) = prefer {
        return valid.contains(&p).then_some(p);
    }
    // A TreeSet's first: the least by the comparator; of candidates comparing equal, the one fed
    // first stays (a later equal one is not added).
    let mut best: Option<ReplicaLive> = None;
    for id in &valid {
        // Java's getter returns null for a broker it has no live info of, and the controller never
        // gets here with one: such a broker is not alive (validPredicate). Skip it to be safe.
        let Some(info) = live(*id) else { continue };
        if best.is_none_or(|b| compare(&info, &b) == Ordering::Less) {
            best = Some(info);
        }
    }
    best.map(|b| b.id).or_else(|| valid.first().copied())
}

/// `DefaultElectPolicy.elect`: the SyncStateSet first, then (with unclean election on) every
/// replica. `alive` is the controller's view (heartbeats within the timeout), `live` its
/// `BrokerLiveInfo`.
pub fn elect(
    sync_state_set: Option<&[i64]>,
    all_replicas: Option<&[i64]>,
    old_master: Option<i64>,
    prefer: Option<i64>,
    alive: &dyn Fn(i64) -> bool,
    live: &dyn Fn(i64) -> Option<ReplicaLive>,
) -> Option<i64> {
    sync_state_set
        .and_then(|s| try_elect(s, old_master, prefer, alive, live))
        .or_else(|| all_replicas.and_then(|a| try_elect(a, old_master, prefer, alive, live)))
}

/// What asks for an election, and the group's state when it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElectRequest {
    /// The broker asking (a broker electing itself, or `mqadmin electMaster -b ID`); `None` when
    /// the controller's own scan found the master inactive.
    pub broker_id: Option<i64>,
    /// `designateElect`: elect exactly `broker_id` (mqadmin electMaster), or nobody.
    pub designate: bool,
    /// The SyncStateSet and its master (`None`: the group never had one, or it was lost).
    pub sync_state_set: Ids,
    pub master: Option<i64>,
    /// Whether the group ever had a master (`SyncStateInfo.isFirstTimeForElect` is its negation).
    pub had_master: bool,
    pub master_epoch: i32,
    pub sync_state_set_epoch: i32,
    /// Every replica the controller knows of the group.
    pub all_replicas: Ids,
    /// `enableElectUncleanMaster` (default false).
    pub unclean: bool,
}

/// The controller's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Election {
    /// The old master was chosen again: nothing changes (CONTROLLER_MASTER_STILL_EXIST).
    StillMaster { master: i64, epoch: i32 },
    /// A new master, with the epochs bumped and a SyncStateSet of itself alone.
    NewMaster {
        master: i64,
        master_epoch: i32,
        sync_state_set_epoch: i32,
        sync_state_set: Ids,
    },
    /// Nobody could be elected: CONTROLLER_MASTER_NOT_AVAILABLE (the controller asked; the group
    /// is left without a master) or CONTROLLER_ELECT_MASTER_FAILED (a broker or admin asked).
    Nobody { master_lost: bool },
}

/// `ReplicasInfoManager.electMaster` for a registered group.
pub fn elect_master(
    req: &ElectRequest,
    alive: &dyn Fn(i64) -> bool,
    live: &dyn Fn(i64) -> Option<ReplicaLive>,
) -> Election {
    let mut new_master = if req.had_master { None } else { req.broker_id };
    if new_master.is_none_or(|m| m == -1) {
        let prefer = if req.designate { req.broker_id } else { None };
        let all = req.unclean.then_some(req.all_replicas.as_slice());
        new_master = elect(
            Some(&req.sync_state_set),
            all,
            req.master,
            prefer,
            alive,
            live,
        );
    }
    match new_master {
        Some(m) if Some(m) == req.master => Election::StillMaster {
            master: m,
            epoch: req.master_epoch,
        },
        Some(m) => Election::NewMaster {
            master: m,
            master_epoch: req.master_epoch + 1,
            sync_state_set_epoch: req.sync_state_set_epoch + 1,
            sync_state_set: vec![m],
        },
        None => Election::Nobody {
            master_lost: req.broker_id.is_none_or(|id| id == -1),
        },
    }
}

#[cfg(test)]
mod tests;
