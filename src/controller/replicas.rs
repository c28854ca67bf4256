//! The controllers' replicated state (`ReplicasInfoManager`, 5.3.3): for each broker group, its
//! replicas by controller id, its master, master epoch and SyncStateSet with its epoch — and the
//! three requests that change it: a broker registering (`getNextBrokerId`/`applyBrokerId`/
//! `registerBroker`), an election (`electMaster`) and the master's proposal of a new SyncStateSet
//! (`alterSyncStateSet`).
//!
//! Controller ids start at 1 (`MixAll.FIRST_BROKER_CONTROLLER_ID`) and follow the order in which
//! replicas first register; a broker keeps its id across restarts (it is in its metadata file), so
//! the same address gets the same id back. A master registers with the NameServers as brokerId 0
//! whatever its controller id; a slave registers with its controller id.

use super::elect::{elect_master, ElectRequest, Election, ReplicaLive};
use super::ids::{self, Ids};

/// `MixAll.FIRST_BROKER_CONTROLLER_ID`: the first controller id of a group.
pub const FIRST_BROKER_CONTROLLER_ID: i64 = 1;

/// One group's state (`BrokerReplicaInfo` and `SyncStateInfo`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupReplicas {
    pub cluster: String,
    pub broker_name: String,
    /// (controller id, address), by id.
    pub replicas: Vec<(i64, String)>,
    /// The master's controller id, if the group has one.
    pub master: Option<i64>,
    pub master_epoch: i32,
    pub sync_state_set: Ids,
    pub sync_state_set_epoch: i32,
    /// Whether a master was ever elected (`isFirstTimeForElect` is its negation).
    pub had_master: bool,
}

impl GroupReplicas {
    /// The master's address.
    pub fn master_addr(&self) -> Option<&str> {
        self.master.and_then(|m| self.addr_of(m))
    }

    /// The address of replica `id`.
    pub fn addr_of(&self, id: i64) -> Option<&str> {
        self.replicas
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, a)| a.as_str())
    }

    /// The controller id of the replica at `addr`.
    pub fn id_of(&self, addr: &str) -> Option<i64> {
        self.replicas
            .iter()
            .find(|(_, a)| a.as_str() == addr)
            .map(|(id, _)| *id)
    }

    /// Every replica's controller id.
    pub fn ids(&self) -> Ids {
        self.replicas.iter().map(|(id, _)| *id).collect()
    }
}

/// Why the controller turned down a SyncStateSet change (the response codes of
/// `alterSyncStateSet`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlterRefused {
    /// CONTROLLER_ALTER_SYNC_STATE_SET_FAILED: unknown group, no change, or the master left out.
    Failed,
    /// CONTROLLER_INVALID_MASTER: the proposer is not the group's master.
    InvalidMaster,
    /// CONTROLLER_FENCED_MASTER_EPOCH: the proposer's master epoch is not the current one.
    FencedMasterEpoch,
    /// CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH: proposed against an older SyncStateSet.
    FencedSyncStateSetEpoch,
    /// CONTROLLER_INVALID_REPLICAS: a replica the controller does not know.
    InvalidReplicas,
    /// CONTROLLER_BROKER_NOT_ALIVE: a replica the controller does not see alive.
    BrokerNotAlive,
}

/// Every group's state, in the order the groups first registered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replicas {
    groups: Vec<GroupReplicas>,
}

impl Replicas {
    /// A replica registers: its controller id (the one it had, by address, or the next free one).
    pub fn register(&mut self, cluster: &str, broker_name: &str, addr: &str) -> i64 {
        let at = match self
            .groups
            .iter()
            .position(|g| g.broker_name == broker_name)
        {
            Some(at) => at,
            None => {
                self.groups.push(GroupReplicas {
                    cluster: cluster.to_owned(),
                    broker_name: broker_name.to_owned(),
                    ..GroupReplicas::default()
                });
                self.groups.len() - 1
            }
        };
        let group = &mut self.groups[at];
        if let Some(id) = group.id_of(addr) {
            return id;
        }
        // Ids are handed out in order, so the last is the largest.
        let id = group
            .replicas
            .last()
            .map_or(FIRST_BROKER_CONTROLLER_ID, |(last, _)| last + 1);
        group.replicas.push((id, addr.to_owned()));
        id
    }

    /// A group's state.
    pub fn group(&self, broker_name: &str) -> Option<&GroupReplicas> {
        self.groups.iter().find(|g| g.broker_name == broker_name)
    }

    fn group_mut(&mut self, broker_name: &str) -> Option<&mut GroupReplicas> {
        self.groups
            .iter_mut()
            .find(|g| g.broker_name == broker_name)
    }

    /// Every group, in the order they first registered.
    pub fn groups(&self) -> impl Iterator<Item = &GroupReplicas> {
        self.groups.iter()
    }

    /// `electMaster` for group `broker_name`, asked by replica `by` (`None`: the controller's own
    /// scan), applied to the state (`handleElectMaster`): a new master bumps both epochs and
    /// starts a SyncStateSet of itself; nobody, when the controller asked, clears the master and
    /// bumps the master epoch. `None` for a group the controller does not know.
    pub fn elect(
        &mut self,
        broker_name: &str,
        by: Option<i64>,
        designate: bool,
        unclean: bool,
        alive: &dyn Fn(i64) -> bool,
        live: &dyn Fn(i64) -> Option<ReplicaLive>,
    ) -> Option<Election> {
        let group = self.group_mut(broker_name)?;
        let req = ElectRequest {
            broker_id: by,
            designate,
            sync_state_set: group.sync_state_set.clone(),
            master: group.master,
            had_master: group.had_master,
            master_epoch: group.master_epoch,
            sync_state_set_epoch: group.sync_state_set_epoch,
            all_replicas: group.ids(),
            unclean,
        };
        let election = elect_master(&req, alive, live);
        match &election {
            Election::NewMaster {
                master,
                master_epoch,
                sync_state_set_epoch,
                sync_state_set,
            } => {
                group.master = Some(*master);
                group.master_epoch = *master_epoch;
                group.sync_state_set = sync_state_set.clone();
                group.sync_state_set_epoch = *sync_state_set_epoch;
                group.had_master = true;
            }
            Election::Nobody { master_lost: true } => {
                group.master = None;
                group.master_epoch += 1;
            }
            Election::StillMaster { .. } | Election::Nobody { master_lost: false } => {}
        }
        Some(election)
    }

    /// `alterSyncStateSet`: the master `master` (at `master_epoch`, having seen the set at
    /// `sync_state_set_epoch`) proposes `new_set`. Accepted, the set takes the next epoch, which
    /// is returned.
    pub fn alter_sync_state_set(
        &mut self,
        broker_name: &str,
        master: i64,
        master_epoch: i32,
        new_set: &[i64],
        sync_state_set_epoch: i32,
        alive: &dyn Fn(i64) -> bool,
    ) -> Result<i32, AlterRefused> {
        let group = self.group_mut(broker_name).ok_or(AlterRefused::Failed)?;
        if group.sync_state_set == new_set {
            return Err(AlterRefused::Failed);
        }
        if group.master != Some(master) {
            return Err(AlterRefused::InvalidMaster);
        }
        if group.master_epoch != master_epoch {
            return Err(AlterRefused::FencedMasterEpoch);
        }
        if group.sync_state_set_epoch != sync_state_set_epoch {
            return Err(AlterRefused::FencedSyncStateSetEpoch);
        }
        for id in new_set {
            if group.addr_of(*id).is_none() {
                return Err(AlterRefused::InvalidReplicas);
            }
            if !alive(*id) {
                return Err(AlterRefused::BrokerNotAlive);
            }
        }
        if !ids::has(new_set, master) {
            return Err(AlterRefused::Failed);
        }
        group.sync_state_set = new_set.to_vec();
        group.sync_state_set_epoch += 1;
        Ok(group.sync_state_set_epoch)
    }

    /// `scanNeedReelectBrokerSets`: groups whose master is not alive while another replica is.
    pub fn need_reelect(&self, alive: &dyn Fn(&GroupReplicas, i64) -> bool) -> Vec<String> {
        self.groups
            .iter()
            .filter(|g| {
                g.master.is_some_and(|m| !alive(g, m))
                    && g.replicas.iter().any(|(id, _)| alive(g, *id))
            })
            .map(|g| g.broker_name.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn live(id: i64) -> Option<ReplicaLive> {
        Some(ReplicaLive {
            id,
            epoch: 1,
            max_offset: 100,
            priority: i32::MAX,
        })
    }

    fn three() -> Replicas {
        let mut r = Replicas::default();
        for n in 1..=3 {
            r.register("c", "broker-a", &format!("10.0.0.{n}:10911"));
        }
        r
    }

    /// Spec (applyBrokerId, FIRST_BROKER_CONTROLLER_ID): ids from 1 in order of registration; the
    /// same address keeps its id.
    #[test]
    fn ids_start_at_one_and_stay_with_the_address() {
        let mut r = three();
        assert_eq!(r.register("c", "broker-a", "10.0.0.2:10911"), 2);
        assert_eq!(r.register("c", "broker-a", "10.0.0.9:10911"), 4);
        assert_eq!(r.register("c", "broker-b", "10.0.1.1:10911"), 1);
    }

    /// Spec (electMaster, handleElectMaster): the first asker becomes master at epoch 1; the
    /// controller's re-election after the master is gone takes a SyncStateSet member and bumps
    /// both epochs; nobody left clears the master and bumps the master epoch only.
    #[test]
    fn elections_apply_to_the_state() {
        let mut r = three();
        let all = |_| true;
        let e = r
            .elect("broker-a", Some(1), false, false, &all, &live)
            .unwrap();
        assert!(matches!(
            e,
            Election::NewMaster {
                master: 1,
                master_epoch: 1,
                ..
            }
        ));
        let g = r.group("broker-a").unwrap();
        assert_eq!(
            (g.master, g.master_epoch, g.sync_state_set_epoch),
            (Some(1), 1, 1)
        );
        let epoch = r
            .alter_sync_state_set("broker-a", 1, 1, &[1, 2], 1, &all)
            .unwrap();
        assert_eq!(epoch, 2);
        let e = r
            .elect("broker-a", None, false, false, &|id| id != 1, &live)
            .unwrap();
        assert!(matches!(
            e,
            Election::NewMaster {
                master: 2,
                master_epoch: 2,
                sync_state_set_epoch: 3,
                ..
            }
        ));
        let e = r
            .elect("broker-a", None, false, false, &|_| false, &live)
            .unwrap();
        assert_eq!(e, Election::Nobody { master_lost: true });
        let g = r.group("broker-a").unwrap();
        assert_eq!((g.master, g.master_epoch), (None, 3));
        assert_eq!(g.sync_state_set, vec![2]);
    }

    /// Spec (alterSyncStateSet): each check in Java's order.
    #[test]
    fn sync_state_set_changes_are_checked() {
        let mut r = three();
        let all = |_| true;
        r.elect("broker-a", Some(1), false, false, &all, &live);
        let alter = |r: &mut Replicas, m, me, s: &[i64], se, alive: &dyn Fn(i64) -> bool| {
            r.alter_sync_state_set("broker-a", m, me, s, se, alive)
        };
        assert_eq!(
            alter(&mut r, 1, 1, &[1], 1, &all),
            Err(AlterRefused::Failed)
        );
        assert_eq!(
            alter(&mut r, 2, 1, &[1, 2], 1, &all),
            Err(AlterRefused::InvalidMaster)
        );
        assert_eq!(
            alter(&mut r, 1, 0, &[1, 2], 1, &all),
            Err(AlterRefused::FencedMasterEpoch)
        );
        assert_eq!(
            alter(&mut r, 1, 1, &[1, 2], 0, &all),
            Err(AlterRefused::FencedSyncStateSetEpoch)
        );
        assert_eq!(
            alter(&mut r, 1, 1, &[1, 7], 1, &all),
            Err(AlterRefused::InvalidReplicas)
        );
        assert_eq!(
            alter(&mut r, 1, 1, &[1, 2], 1, &|id| id != 2),
            Err(AlterRefused::BrokerNotAlive)
        );
        assert_eq!(
            alter(&mut r, 1, 1, &[2, 3], 1, &all),
            Err(AlterRefused::Failed)
        );
        assert_eq!(alter(&mut r, 1, 1, &[1, 2, 3], 1, &all), Ok(2));
    }

    /// Spec (scanNeedReelectBrokerSets): a dead master with a live replica needs an election; a
    /// group with nobody alive does not.
    #[test]
    fn groups_with_a_dead_master_and_a_live_replica_need_an_election() {
        let mut r = three();
        r.elect("broker-a", Some(1), false, false, &|_| true, &live);
        assert!(r.need_reelect(&|_, _| true).is_empty());
        assert_eq!(
            r.need_reelect(&|_, id| id != 1),
            vec!["broker-a".to_owned()]
        );
        assert!(r.need_reelect(&|_, _| false).is_empty());
    }
}
