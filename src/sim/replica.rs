//! A broker in controller mode (`ReplicasManager`, 5.3.3): it registers with the controllers'
//! leader and gets its controller id, heartbeats every controller each second with its epoch and
//! max offset, and takes the role the controller gives it — as master it registers with the
//! NameServers as brokerId 0, as slave with its controller id, each time with the master epoch as
//! its DataVersion's `stateVersion` (`DataVersion.nextVersion(masterEpoch)`) — told at once by the
//! controller's notice or found on its metadata sync every 5 s (`syncBrokerMetadataPeriod`, from
//! 3 s). A group with no master makes a replica ask to be elected (`brokerElect`).
//!
//! As master it keeps the SyncStateSet (`sync_state_set`).
//!
//! Replication is a model: the group's store is shared, so a replica's max offset is the number
//! of messages the group has stored when it last copied them — every heartbeat while it runs, is
//! not lagging (`lag_replica`) and its master runs — and stays where it was otherwise.

use serde::Serialize;

use super::controller_node::{key_of, ElectCause};
use super::{Sim, Timer};
use crate::controller::heartbeat::{
    Heartbeat, BROKER_HEARTBEAT_INTERVAL_MS, CONTROLLER_HEARTBEAT_TIMEOUT_MS,
    DEFAULT_ELECTION_PRIORITY,
};
use crate::controller::{Election, GroupReplicas};
use crate::model::DataVersion;

/// `syncBrokerMetadataPeriod` (BrokerConfig), ms.
pub const SYNC_BROKER_METADATA_PERIOD_MS: u64 = 5_000;
/// `checkSyncStateSetPeriod` (BrokerConfig), ms.
pub const CHECK_SYNC_STATE_SET_PERIOD_MS: u64 = 5_000;
/// Both scheduled tasks run first this long after they are set going, ms.
pub const REPLICA_TASK_FIRST_MS: u64 = 3_000;
/// `RETRY_INTERVAL_SECOND`: a replica that could not reach a leader at start tries again, ms.
pub const START_RETRY_MS: u64 = 5_000;

/// A replica's role as it sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplicaRole {
    /// Not yet told (no controller reached, or no master elected).
    Candidate,
    Master,
    Slave,
}

impl ReplicaRole {
    /// The role's name (`data-role`, events).
    pub fn as_str(self) -> &'static str {
        match self {
            ReplicaRole::Candidate => "candidate",
            ReplicaRole::Master => "master",
            ReplicaRole::Slave => "slave",
        }
    }
}

/// What a controller-mode broker knows of its place in its group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaState {
    /// Its controller id, once registered with a leader.
    pub controller_id: Option<i64>,
    pub role: ReplicaRole,
    /// The master epoch of its role (0: none yet this run).
    pub master_epoch: i32,
    /// The last epoch its log was written in (on disk: kept across restarts).
    pub log_epoch: i32,
    pub master_id: Option<i64>,
    pub master_addr: Option<String>,
    /// As master: its SyncStateSet and that set's epoch.
    pub sync_state_set: crate::controller::ids::Ids,
    pub sync_state_set_epoch: i32,
    /// Its replication is stalled (`lag_replica`).
    pub lagging: bool,
    /// Its commit log's max offset, in messages.
    pub max_offset: u64,
    /// Its epoch cache (`EpochFileCache`, on disk): each master epoch its log holds, with the
    /// offset it starts at.
    pub epochs: Vec<(i32, u64)>,
    /// As slave: when it last caught up with its master.
    pub caught_up_at: Option<u64>,
    /// Bumped on each role change (and kept across restarts), so a master's check of an older
    /// role is ignored.
    pub(crate) role_token: u64,
}

impl ReplicaState {
    pub(crate) fn new() -> Self {
        Self {
            controller_id: None,
            role: ReplicaRole::Candidate,
            master_epoch: 0,
            log_epoch: 0,
            master_id: None,
            master_addr: None,
            sync_state_set: Vec::new(),
            sync_state_set_epoch: 0,
            lagging: false,
            max_offset: 0,
            epochs: Vec::new(),
            caught_up_at: None,
            role_token: 0,
        }
    }
}

/// What a replica task does when its timer fires. (The master's SyncStateSet check has a timer
/// of its own, tied to the role: `Timer::SyncStateSetCheck`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ReplicaTask {
    /// Try the start again (no leader reached).
    StartRetry,
    Heartbeat,
    SyncMetadata,
}

impl Sim {
    /// `ReplicasManager.start` on a (re)started controller-mode broker: the role is forgotten (it
    /// lives in memory), the log's epoch is not.
    pub(super) fn start_replica(&mut self, b: usize) {
        let epoch = self.brokers[b].epoch;
        if let Some(r) = self.brokers[b].replica.as_mut() {
            let kept = ReplicaState {
                log_epoch: r.log_epoch,
                max_offset: r.max_offset,
                epochs: std::mem::take(&mut r.epochs),
                role_token: r.role_token,
                ..ReplicaState::new()
            };
            *r = kept;
        }
        self.schedule(
            self.now + BROKER_HEARTBEAT_INTERVAL_MS,
            Timer::Replica {
                broker: b,
                epoch,
                task: ReplicaTask::Heartbeat,
            },
        );
        self.try_start_replica(b);
    }

    /// `startBasicService`: register with the leader, heartbeat, and take the master the
    /// controller knows — or ask to be elected. Retried every 5 s until a leader answers.
    fn try_start_replica(&mut self, b: usize) {
        let epoch = self.brokers[b].epoch;
        if self.leader_for(b).is_none() {
            self.schedule(
                self.now + START_RETRY_MS,
                Timer::Replica {
                    broker: b,
                    epoch,
                    task: ReplicaTask::StartRetry,
                },
            );
            return;
        }
        let broker = &self.brokers[b];
        let id = self
            .replicas
            .register(&broker.spec.cluster, &broker.spec.name, &broker.addr);
        if let Some(r) = self.brokers[b].replica.as_mut() {
            r.controller_id = Some(id);
        }
        self.replica_heartbeat(b);
        let name = self.brokers[b].spec.name.clone();
        let group = self.replicas.group(&name).cloned();
        let master_alive = group.as_ref().is_some_and(|g| {
            g.master
                .is_some_and(|m| self.leader_sees_active(&g.cluster, &name, m))
        });
        match group {
            Some(g) if master_alive => self.change_broker_role(b, &g),
            _ => self.broker_elect(b),
        }
        self.schedule(
            self.now + REPLICA_TASK_FIRST_MS,
            Timer::Replica {
                broker: b,
                epoch,
                task: ReplicaTask::SyncMetadata,
            },
        );
    }

    fn leader_sees_active(&self, cluster: &str, name: &str, id: i64) -> bool {
        self.running_leader().is_some_and(|c| {
            self.controllers[c]
                .live
                .is_active(self.now, &key_of(cluster, name, id))
        })
    }

    pub(super) fn on_replica_timer(&mut self, b: usize, epoch: u64, task: ReplicaTask) {
        let broker = &self.brokers[b];
        if broker.epoch != epoch || !broker.is_up() || broker.replica.is_none() {
            return;
        }
        match task {
            ReplicaTask::StartRetry => self.try_start_replica(b),
            ReplicaTask::Heartbeat => {
                self.replica_heartbeat(b);
                self.expand_on_ack(b);
                self.schedule(
                    self.now + BROKER_HEARTBEAT_INTERVAL_MS,
                    Timer::Replica {
                        broker: b,
                        epoch,
                        task,
                    },
                );
            }
            ReplicaTask::SyncMetadata => {
                self.sync_broker_metadata(b);
                self.schedule(
                    self.now + SYNC_BROKER_METADATA_PERIOD_MS,
                    Timer::Replica {
                        broker: b,
                        epoch,
                        task,
                    },
                );
            }
        }
    }

    /// The replica's max offset now: what the group has stored, when it is the master or a slave
    /// copying from a running master; otherwise where it stopped.
    fn refresh_offset(&mut self, b: usize) {
        let stored = self.stores[self.brokers[b].store].put.total;
        let now = self.now;
        let broker = &self.brokers[b];
        let Some(r) = broker.replica.as_ref() else {
            return;
        };
        // A slave copies from a running master: its log, and the master's epoch cache with it.
        let master = match r.role {
            ReplicaRole::Slave if !r.lagging => r.master_addr.as_deref().and_then(|addr| {
                self.brokers.iter().find(|m| {
                    m.addr == addr
                        && m.is_up()
                        && !self.is_cut_between(&broker.addr, addr)
                        && m.replica
                            .as_ref()
                            .is_some_and(|x| x.role == ReplicaRole::Master)
                })
            }),
            _ => None,
        };
        let copying = r.role == ReplicaRole::Master || master.is_some();
        let epochs = master
            .and_then(|m| m.replica.as_ref())
            .map(|m| m.epochs.clone());
        let Some(r) = self.brokers[b].replica.as_mut() else {
            return;
        };
        if copying {
            r.max_offset = stored;
            r.log_epoch = r.log_epoch.max(r.master_epoch);
            if let Some(epochs) = epochs {
                r.epochs = epochs;
                r.caught_up_at = Some(now);
            }
        }
    }

    /// `sendHeartbeatToController`: to every running controller it can reach.
    fn replica_heartbeat(&mut self, b: usize) {
        self.refresh_offset(b);
        let broker = &self.brokers[b];
        let Some(r) = broker.replica.as_ref() else {
            return;
        };
        let Some(id) = r.controller_id else {
            return;
        };
        let hb = Heartbeat {
            key: key_of(&broker.spec.cluster, &broker.spec.name, id),
            addr: broker.addr.clone(),
            timeout_ms: CONTROLLER_HEARTBEAT_TIMEOUT_MS,
            epoch: r.log_epoch,
            max_offset: r.max_offset as i64,
            confirm_offset: r.max_offset as i64,
            priority: DEFAULT_ELECTION_PRIORITY,
        };
        let now = self.now;
        for c in 0..self.controllers.len() {
            if self.controllers[c].is_up() && !self.cut_from_controller(b, c) {
                self.controllers[c].live.on_heartbeat(now, &hb);
            }
        }
    }

    /// `brokerElect`: a replica of a group without a master asks to be elected.
    fn broker_elect(&mut self, b: usize) {
        let Some(id) = self.brokers[b]
            .replica
            .as_ref()
            .and_then(|r| r.controller_id)
        else {
            return;
        };
        let name = self.brokers[b].spec.name.clone();
        let elected = self.controller_elect(&name, Some(id), false, ElectCause::BrokerAsked);
        if let (Some(Election::StillMaster { .. }), Some(g)) =
            (elected, self.replicas.group(&name).cloned())
        {
            self.change_broker_role(b, &g);
        }
    }

    /// `schedulingSyncBrokerMetadata`: the group's state from the leader — a newer epoch changes
    /// the role; no master makes the replica ask for an election; the same epoch brings a
    /// master its SyncStateSet.
    fn sync_broker_metadata(&mut self, b: usize) {
        if self.leader_for(b).is_none() {
            return;
        }
        let name = self.brokers[b].spec.name.clone();
        let Some(g) = self.replicas.group(&name).cloned() else {
            return;
        };
        let Some(r) = self.brokers[b].replica.as_ref() else {
            return;
        };
        if g.master_epoch > r.master_epoch {
            if g.master.is_some() {
                self.change_broker_role(b, &g);
            } else {
                self.broker_elect(b);
            }
        } else if g.master_epoch == r.master_epoch && r.role == ReplicaRole::Master {
            let Some(r) = self.brokers[b].replica.as_mut() else {
                return;
            };
            if g.sync_state_set_epoch > r.sync_state_set_epoch {
                r.sync_state_set = g.sync_state_set.clone();
                r.sync_state_set_epoch = g.sync_state_set_epoch;
            }
        }
    }

    /// `changeBrokerRole`: the group's master as the controller says, if its epoch is newer than
    /// the replica's: master when it is this replica, slave otherwise.
    pub(crate) fn change_broker_role(&mut self, b: usize, g: &GroupReplicas) {
        let Some(r) = self.brokers[b].replica.as_ref() else {
            return;
        };
        let (Some(master), Some(me)) = (g.master, r.controller_id) else {
            return;
        };
        if g.master_epoch <= r.master_epoch {
            return;
        }
        let old_role = r.role;
        let old_id = self.brokers[b].broker_id;
        let Some(r) = self.brokers[b].replica.as_mut() else {
            return;
        };
        r.master_epoch = g.master_epoch;
        r.master_id = Some(master);
        r.master_addr = g.master_addr().map(str::to_owned);
        r.role_token += 1;
        let token = r.role_token;
        let new_id = if master == me {
            r.role = ReplicaRole::Master;
            r.sync_state_set = g.sync_state_set.clone();
            r.sync_state_set_epoch = g.sync_state_set_epoch;
            r.log_epoch = r.log_epoch.max(g.master_epoch);
            // `changeToMaster`: a new epoch starts at the end of its log.
            if r.epochs.last().is_none_or(|e| e.0 < g.master_epoch) {
                r.epochs.push((g.master_epoch, r.max_offset));
            }
            crate::model::MASTER_ID
        } else {
            r.role = ReplicaRole::Slave;
            r.caught_up_at = None;
            me
        };
        let new_role = r.role;
        let broker = &mut self.brokers[b];
        broker.broker_id = new_id;
        // `DataVersion.nextVersion(masterEpoch)`: the counter moves and the epoch becomes the
        // stateVersion every NameServer compares.
        broker.data_version = DataVersion {
            counter: broker.data_version.counter + 1,
            state_version: Some(i64::from(g.master_epoch)),
            timestamp: self.now as i64,
        };
        broker.topics_changed += 1;
        if old_role != new_role || old_id != new_id {
            self.emit(super::SimEventKind::BrokerRoleChanged {
                mode: "controller",
                broker_addr: self.brokers[b].addr.clone(),
                broker_name: self.brokers[b].spec.name.clone(),
                old_role: old_role.as_str(),
                new_role: new_role.as_str(),
                old_broker_id: old_id,
                broker_id: new_id,
                epoch: g.master_epoch,
            });
        }
        if new_role == ReplicaRole::Master {
            self.schedule(
                self.now + REPLICA_TASK_FIRST_MS,
                Timer::SyncStateSetCheck { broker: b, token },
            );
        } else {
            self.schedule_slave_sync(b);
        }
        // `registerBrokerWhenRoleChange`.
        self.register_all(b);
    }

    /// `lag_replica`: the replica's copying stalls or resumes.
    pub(super) fn lag_replica(&mut self, b: usize, lagging: bool) {
        if let Some(r) = self.brokers[b].replica.as_mut() {
            r.lagging = lagging;
        }
    }

    /// `mqadmin electMaster`: the leader is asked to make replica `id` the group's master.
    pub(super) fn admin_elect_master(&mut self, name: &str, id: i64) {
        self.controller_elect(name, Some(id), true, ElectCause::Admin);
    }

    /// A frozen controller-mode broker resumes: its heartbeat and metadata sync run at once (after
    /// the NameServer registration the caller sent), then on their periods.
    pub(super) fn resume_replica(&mut self, b: usize) {
        let epoch = self.brokers[b].epoch;
        self.replica_heartbeat(b);
        self.sync_broker_metadata(b);
        for (after, task) in [
            (BROKER_HEARTBEAT_INTERVAL_MS, ReplicaTask::Heartbeat),
            (SYNC_BROKER_METADATA_PERIOD_MS, ReplicaTask::SyncMetadata),
        ] {
            self.schedule(
                self.now + after,
                Timer::Replica {
                    broker: b,
                    epoch,
                    task,
                },
            );
        }
        let Some(r) = self.brokers[b].replica.as_ref() else {
            return;
        };
        if r.role == ReplicaRole::Master {
            let token = r.role_token;
            self.schedule(
                self.now + CHECK_SYNC_STATE_SET_PERIOD_MS,
                Timer::SyncStateSetCheck { broker: b, token },
            );
        }
    }
}
