//! Simulated controllers (RocketMQ 5's `enableControllerMode`): processes the teacher kills,
//! freezes and restarts, each with its own table of live replicas (`controller::LiveTable`), and
//! one replicated state (`controller::Replicas`) that their leader changes — in Java a DLedger
//! (Raft) log among the controllers, here one copy, as every change goes through the leader.
//!
//! The leader: the scenario's controllers start with the first as leader (term 1), as if they had
//! elected it before the brokers came up. When the leader dies or hangs, the others notice after
//! DLedger's `heartBeatTimeIntervalMs` × `maxHeartBeatLeak` (2 s × 3) and vote after a random
//! 300–1000 ms (`minVoteIntervalMs`, `maxVoteIntervalMs`); a majority of the controllers must be
//! running. Which follower wins is the first running one in the scenario's order.
//!
//! What the leader does (`ControllerManager`, `DLedgerController`): every 5 s (2 s after start) it
//! scans its table; a group master silent past its timeout, or whose connection closed, makes it
//! elect a new master (`DefaultElectPolicy`); the same scan re-elects in groups whose master is
//! inactive while another replica lives (`scanNeedReelectBrokerSets`). After an election it
//! tells every active replica of the group (`notifyBrokerRoleChanged`, on by default).

use super::event::{Candidate, MasterElected, SimEventKind};
use super::process::ProcessState;
use super::{Sim, Timer};
use crate::controller::heartbeat::{SCAN_FIRST_DELAY_MS, SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS};
use crate::controller::{Election, LiveTable, ReplicaKey};

/// DLedger's `heartBeatTimeIntervalMs` × `maxHeartBeatLeak`: a follower that has not heard its
/// leader this long stands for election, ms.
pub const RAFT_LEADER_LOST_MS: u64 = 2_000 * 3;
/// DLedger's `minVoteIntervalMs` and `maxVoteIntervalMs`: the random wait before a vote, ms.
pub const RAFT_VOTE_DELAY_MS: (u64, u64) = (300, 1_000);
/// The Raft group's name in `leader_elected` (DLedger's `controllerDLegerGroup` default).
pub const CONTROLLER_RAFT_GROUP: &str = "controllers";

/// A simulated controller.
#[derive(Clone, Debug)]
pub struct ControllerNode {
    /// Its name in the scenario.
    pub name: String,
    pub state: ProcessState,
    /// The replicas that heartbeat it.
    pub live: LiveTable,
    /// Bumped when the process stops, so its pending timers are ignored.
    pub(crate) epoch: u64,
}

impl ControllerNode {
    /// Whether the process answers.
    pub fn is_up(&self) -> bool {
        self.state == ProcessState::Running
    }
}

/// Why an election runs (the `cause` of `master_elected`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ElectCause {
    MasterSilent { silent_ms: u64 },
    MasterConnectionClosed,
    MasterInactive,
    BrokerAsked,
    Admin,
}

impl ElectCause {
    fn name(self) -> &'static str {
        match self {
            ElectCause::MasterSilent { .. } => "master_silent",
            ElectCause::MasterConnectionClosed => "master_connection_closed",
            ElectCause::MasterInactive => "master_inactive",
            ElectCause::BrokerAsked => "broker_asked",
            ElectCause::Admin => "admin",
        }
    }
}

impl Sim {
    /// The scenario's controllers, started at t = 0 with the first as leader.
    pub(super) fn add_controllers(&mut self, names: &[String]) {
        for name in names {
            self.controllers.push(ControllerNode {
                name: name.clone(),
                state: ProcessState::Stopped,
                live: LiveTable::default(),
                epoch: 0,
            });
            self.start_controller(self.controllers.len() - 1);
        }
        if !self.controllers.is_empty() {
            self.set_leader(0);
        }
    }

    /// The controllers.
    pub fn controllers(&self) -> &[ControllerNode] {
        &self.controllers
    }

    /// The controllers' leader, if they have one.
    pub fn controller_leader(&self) -> Option<usize> {
        self.leader
    }

    /// The controllers' Raft term (0 before a first leader).
    pub fn raft_term(&self) -> u64 {
        self.raft_term
    }

    /// The controllers' replicated state: each group's replicas, master, epochs and SyncStateSet.
    pub fn replicas(&self) -> &crate::controller::Replicas {
        &self.replicas
    }

    /// The leader, when it is running (every request to the controllers goes to it).
    pub(crate) fn running_leader(&self) -> Option<usize> {
        self.leader.filter(|&c| self.controllers[c].is_up())
    }

    /// The running leader, when broker `b` can reach it (no partition between them).
    pub(crate) fn leader_for(&self, b: usize) -> Option<usize> {
        self.running_leader()
            .filter(|&c| !self.cut_from_controller(b, c))
    }

    /// Whether the link between broker `b` and controller `c` is cut.
    pub(crate) fn cut_from_controller(&self, b: usize, c: usize) -> bool {
        self.is_cut_between(&self.brokers[b].addr, &self.controllers[c].name)
    }

    fn start_controller(&mut self, c: usize) {
        let node = &mut self.controllers[c];
        node.state = ProcessState::Running;
        node.epoch += 1;
        node.live.clear();
        let epoch = node.epoch;
        self.schedule(
            self.now + SCAN_FIRST_DELAY_MS,
            Timer::ControllerScan {
                controller: c,
                epoch,
            },
        );
        if self.leader.is_none() {
            self.schedule_leader_election();
        }
    }

    fn halt_controller(&mut self, c: usize, state: ProcessState) {
        let node = &mut self.controllers[c];
        node.state = state;
        node.epoch += 1;
        if state != ProcessState::Frozen {
            node.live.clear();
        }
        if self.leader == Some(c) {
            self.leader = None;
            self.schedule_leader_election();
        }
    }

    pub(super) fn kill_controller(&mut self, c: usize) {
        if self.controllers[c].is_up() || self.controllers[c].state == ProcessState::Frozen {
            self.halt_controller(c, ProcessState::Killed);
        }
    }

    pub(super) fn freeze_controller(&mut self, c: usize) {
        if self.controllers[c].is_up() {
            self.halt_controller(c, ProcessState::Frozen);
        }
    }

    pub(super) fn restart_controller(&mut self, c: usize) {
        self.kill_controller(c);
        self.start_controller(c);
    }

    /// The followers notice the leader is gone and vote, if a majority of the controllers runs.
    fn schedule_leader_election(&mut self) {
        self.leader_token += 1;
        let (lo, hi) = RAFT_VOTE_DELAY_MS;
        let at = self.now + RAFT_LEADER_LOST_MS + lo + self.rng.next_below(hi - lo + 1);
        let token = self.leader_token;
        self.schedule(at, Timer::ControllerLeaderElection { token });
    }

    pub(super) fn on_leader_election(&mut self, token: u64) {
        if token != self.leader_token || self.leader.is_some() {
            return;
        }
        let running: Vec<usize> = (0..self.controllers.len())
            .filter(|&c| self.controllers[c].is_up())
            .collect();
        // Without a majority nobody is elected; a controller's start tries again.
        if running.len() * 2 > self.controllers.len() {
            self.set_leader(running[0]);
        }
    }

    fn set_leader(&mut self, c: usize) {
        self.leader = Some(c);
        self.raft_term += 1;
        let votes = self.controllers.iter().filter(|n| n.is_up()).count();
        self.emit(SimEventKind::LeaderElected {
            mode: "controller",
            raft_group: CONTROLLER_RAFT_GROUP.to_owned(),
            leader: self.controllers[c].name.clone(),
            term: self.raft_term,
            votes,
            members: self.controllers.len(),
        });
    }

    /// `scanNotActiveBroker` on controller `c`, and (on the leader) the elections it calls for.
    pub(super) fn on_controller_scan(&mut self, c: usize, epoch: u64) {
        let node = &self.controllers[c];
        if node.epoch != epoch || !node.is_up() {
            return;
        }
        let now = self.now;
        let gone = self.controllers[c].live.scan(now);
        if self.running_leader() == Some(c) {
            for (key, info) in gone {
                let silent_ms = now.saturating_sub(info.last_update);
                self.on_replica_inactive(&key, ElectCause::MasterSilent { silent_ms });
            }
            let live = &self.controllers[c].live;
            let need = self.replicas.need_reelect(&|g, id| {
                live.is_active(now, &key_of(&g.cluster, &g.broker_name, id))
            });
            for name in need {
                self.controller_elect(&name, None, false, ElectCause::MasterInactive);
            }
        }
        self.schedule(
            now + SCAN_NOT_ACTIVE_BROKER_INTERVAL_MS,
            Timer::ControllerScan {
                controller: c,
                epoch,
            },
        );
    }

    /// `onBrokerChannelClose` on every running controller: the broker at `addr` closed its
    /// connections (its process ended).
    pub(super) fn controllers_see_close(&mut self, addr: &str) {
        for c in 0..self.controllers.len() {
            if !self.controllers[c].is_up() {
                continue;
            }
            let Some((key, _)) = self.controllers[c].live.on_channel_close(addr) else {
                continue;
            };
            if self.running_leader() == Some(c) {
                self.on_replica_inactive(&key, ElectCause::MasterConnectionClosed);
            }
        }
    }

    /// `onBrokerInactive` on the leader: an election when the inactive replica is its group's
    /// master.
    fn on_replica_inactive(&mut self, key: &ReplicaKey, cause: ElectCause) {
        let is_master = self
            .replicas
            .group(&key.broker_name)
            .is_some_and(|g| g.master == Some(key.id));
        if is_master {
            self.controller_elect(&key.broker_name, None, false, cause);
        }
    }

    /// `electMaster` on the leader for group `name` (asked by replica `by`, or by the controller
    /// itself): applied, reported as `master_elected`, and the group's active replicas told.
    /// `None` when there is no running leader or the group is unknown.
    pub(crate) fn controller_elect(
        &mut self,
        name: &str,
        by: Option<i64>,
        designate: bool,
        cause: ElectCause,
    ) -> Option<Election> {
        let c = self.running_leader()?;
        let group = self.replicas.group(name)?.clone();
        let now = self.now;
        let live = &self.controllers[c].live;
        let key = |id| key_of(&group.cluster, name, id);
        let alive = |id: i64| live.is_active(now, &key(id));
        let info = |id: i64| live.live(&key(id));
        let unclean = self.scenario.unclean_election;
        let election = self
            .replicas
            .elect(name, by, designate, unclean, &alive, &info)?;
        let considered: Vec<i64> = if unclean {
            group.ids()
        } else {
            group.sync_state_set.clone()
        };
        let candidates: Vec<(i64, Candidate)> = considered
            .iter()
            .filter(|id| alive(**id))
            .filter_map(|id| {
                info(*id).map(|l| {
                    (
                        *id,
                        Candidate {
                            epoch: l.epoch,
                            max_offset: l.max_offset,
                            priority: l.priority,
                        },
                    )
                })
            })
            .collect();
        let alive_ids: Vec<i64> = group.ids().into_iter().filter(|id| alive(*id)).collect();
        let after = self.replicas.group(name)?.clone();
        let (outcome, new_master) = match &election {
            Election::NewMaster { master, .. } => ("elected", Some(*master)),
            Election::StillMaster { master, .. } => ("still_master", Some(*master)),
            Election::Nobody { .. } => ("nobody", None),
        };
        self.emit(SimEventKind::MasterElected(Box::new(MasterElected {
            group: name.to_owned(),
            cluster: group.cluster.clone(),
            mode: super::scenario::GroupMode::Controller.as_str(),
            controller: self.controllers[c].name.clone(),
            outcome,
            cause: cause.name(),
            silent_ms: match cause {
                ElectCause::MasterSilent { silent_ms } => Some(silent_ms),
                _ => None,
            },
            old_master: group.master,
            new_master,
            new_master_addr: new_master.and_then(|m| after.addr_of(m).map(str::to_owned)),
            epoch: after.master_epoch,
            sync_state_set: group.sync_state_set.clone(),
            all_replicas: unclean.then(|| group.ids()),
            alive: alive_ids,
            prefer: designate.then_some(by).flatten(),
            candidates: super::event::Candidates(candidates),
        })));
        if let Election::NewMaster { .. } = election {
            self.notify_role_changed(c, name);
        }
        Some(election)
    }

    /// `notifyBrokerRoleChanged`: every replica of the group the leader sees active hears the new
    /// master (a frozen or cut-off one does not; it learns on its next metadata sync).
    fn notify_role_changed(&mut self, c: usize, name: &str) {
        let Some(group) = self.replicas.group(name).cloned() else {
            return;
        };
        let now = self.now;
        for (id, addr) in &group.replicas {
            let key = key_of(&group.cluster, name, *id);
            if !self.controllers[c].live.is_active(now, &key) {
                continue;
            }
            if let Some(b) = self
                .brokers
                .iter()
                .position(|b| b.addr == *addr && b.is_up())
                .filter(|&b| !self.cut_from_controller(b, c))
            {
                self.change_broker_role(b, &group);
            }
        }
    }
}

/// The controller's name of a replica.
pub fn key_of(cluster: &str, broker_name: &str, id: i64) -> ReplicaKey {
    ReplicaKey {
        cluster: cluster.to_owned(),
        broker_name: broker_name.to_owned(),
        id,
    }
}
