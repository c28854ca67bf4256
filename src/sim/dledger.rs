//! DLedger groups in the simulator (`"mode": "dledger"`, RocketMQ 4.5+ `enableDLegerCommitLog`):
//! the group's brokers are the members of one DLedger group (`dLegerPeers`, their scenario ids the
//! members' ids n0, n1, …), elect a leader among themselves by Raft ([`super::raft`]), and follow
//! it as `DLedgerRoleChangeHandler` (BrokerController, 4.9.8) does:
//! - a broker starts with brokerId -1 and registers nowhere until it has a role (RocketMQ's first
//!   periodic registration, 10 s after the start, would send id -1; a healthy group has elected
//!   long before, so the simulator waits for the role);
//! - the leader becomes the master (`changeToMaster`: brokerId 0, SYNC_MASTER) and registers at
//!   once; a follower, and a master that stood down, becomes a slave (`changeToSlave`: brokerId
//!   = its member number + 1) and registers at once;
//! - no controller and no `stateVersion`: a NameServer takes whichever registration comes last.
//!
//! Time: members check their state when something is due (a heartbeat, a vote, a silent leader);
//! a member that is frozen checks nothing until it resumes, and one that restarts keeps its term,
//! vote and log (on disk) and stands for election at once.

use super::raft::{self, Role};
use super::replica::ReplicaRole;
use super::scenario::GroupMode;
use super::{Sim, SimEventKind, Timer};
use crate::model::MASTER_ID;

/// A member whose broker is not created yet.
const NOT_STARTED: usize = usize::MAX;

/// A DLedger group of the simulation.
#[derive(Clone, Debug)]
pub struct DledgerGroup {
    /// The broker group (and DLedger group) name.
    pub name: String,
    /// The members' scenario ids, in order: member k is `n{k}`.
    pub ids: Vec<i64>,
    /// The brokers, by member number ([`NOT_STARTED`] until added).
    pub brokers: Vec<usize>,
    pub raft: raft::Group,
    /// Each member's pending check: (token, when).
    checks: Vec<(u64, u64)>,
}

impl Sim {
    /// The DLedger groups of the scenario's brokers (their members fixed by `dLegerPeers`), before
    /// any of them starts.
    pub(super) fn add_dledger_groups(&mut self, specs: &[super::scenario::BrokerSpec]) {
        for spec in specs.iter().filter(|s| s.mode == GroupMode::Dledger) {
            match self.dledger.iter_mut().find(|g| g.name == spec.name) {
                Some(g) => g.ids.push(spec.id),
                None => self.dledger.push(DledgerGroup {
                    name: spec.name.clone(),
                    ids: vec![spec.id],
                    brokers: Vec::new(),
                    raft: raft::Group::new(0),
                    checks: Vec::new(),
                }),
            }
        }
        for g in &mut self.dledger {
            crate::sort::sort_by(&mut g.ids, Ord::cmp);
            let n = g.ids.len();
            g.brokers = vec![NOT_STARTED; n];
            g.raft = raft::Group::new(n);
            g.checks = vec![(0, u64::MAX); n];
        }
    }

    /// Broker `b` (just added) takes its place in its DLedger group, if it has one.
    pub(super) fn join_dledger_group(&mut self, b: usize) {
        let spec = &self.brokers[b].spec;
        let Some(g) = self.dledger.iter().position(|g| g.name == spec.name) else {
            return;
        };
        let Some(m) = self.dledger[g].ids.iter().position(|&id| id == spec.id) else {
            return;
        };
        self.dledger[g].brokers[m] = b;
        self.brokers[b].dledger = Some((g, m));
    }

    /// Broker `b` starts (or starts again): no role yet, and its member stands for election.
    pub(super) fn start_dledger_member(&mut self, b: usize) {
        let Some((g, m)) = self.brokers[b].dledger else {
            return;
        };
        self.brokers[b].broker_id = -1;
        self.dledger[g].raft.restart(m);
        let term = self.dledger[g].raft.members[m].term;
        self.brokers[b].raft_role = Some((ReplicaRole::Candidate, term));
        self.schedule_dledger_checks(g, None);
    }

    /// Broker `b` resumes: its member checks what fell due while it hung.
    pub(super) fn resume_dledger_member(&mut self, b: usize) {
        if let Some((g, _)) = self.brokers[b].dledger {
            self.schedule_dledger_checks(g, None);
        }
    }

    /// Schedules each running member's next check where it moved: at the earliest now (a member
    /// woken by another's request), and for the member `checked` just now, a loop later (its
    /// maintainer sleeps between two checks).
    fn schedule_dledger_checks(&mut self, g: usize, checked: Option<usize>) {
        for m in 0..self.dledger[g].brokers.len() {
            let b = self.dledger[g].brokers[m];
            if !self.brokers.get(b).is_some_and(|b| b.is_up()) {
                continue;
            }
            let earliest = if checked == Some(m) {
                self.now + raft::LOOP_MS
            } else {
                self.now
            };
            let at = self.dledger[g].raft.next_check(m).max(earliest);
            let (token, scheduled) = self.dledger[g].checks[m];
            if scheduled == at {
                continue;
            }
            self.dledger[g].checks[m] = (token + 1, at);
            self.schedule(
                at,
                Timer::Dledger {
                    group: g,
                    member: m,
                    token: token + 1,
                },
            );
        }
    }

    pub(super) fn on_dledger_timer(&mut self, g: usize, m: usize, token: u64) {
        if self.dledger[g].checks[m].0 != token {
            return;
        }
        self.dledger[g].checks[m].1 = u64::MAX;
        let b = self.dledger[g].brokers[m];
        if !self.brokers[b].is_up() {
            return;
        }
        // Who answers member `m`: the running members it has a link to.
        let me = &self.brokers[b].addr;
        let up: Vec<bool> = self.dledger[g]
            .brokers
            .iter()
            .map(|&k| {
                self.brokers
                    .get(k)
                    .is_some_and(|o| o.is_up() && (k == b || !self.is_cut_between(me, &o.addr)))
            })
            .collect();
        // The leader's log: every message written to its group.
        let store = self.brokers[b].store;
        let written = self.stores[store].written() as i64;
        let group = &mut self.dledger[g];
        group.raft.append(m, written - 1);
        let outcome = group.raft.check(m, self.now, &up, &mut self.rng);
        for change in outcome.changes {
            let b = self.dledger[g].brokers[change.member];
            self.dledger_role_changed(b, change.term, change.role);
        }
        if let Some(e) = outcome.elected {
            let group = &self.dledger[g];
            self.emit(SimEventKind::LeaderElected {
                mode: "dledger",
                raft_group: group.name.clone(),
                leader: self.brokers[group.brokers[e.leader]].addr.clone(),
                term: e.term,
                votes: e.votes,
                members: group.brokers.len(),
            });
        }
        self.schedule_dledger_checks(g, Some(m));
    }

    /// `DLedgerRoleChangeHandler.handle`: the leader becomes the master; a follower, or a
    /// candidate that was not a slave, becomes a slave. Each registers at once.
    fn dledger_role_changed(&mut self, b: usize, term: u64, role: Role) {
        let Some((_, m)) = self.brokers[b].dledger else {
            return;
        };
        let broker = &self.brokers[b];
        let was_slave = broker.broker_id > MASTER_ID;
        let (new_role, new_id) = match role {
            Role::Leader => (ReplicaRole::Master, MASTER_ID),
            Role::Follower => (ReplicaRole::Slave, m as i64 + 1),
            Role::Candidate if was_slave => {
                self.brokers[b].raft_role = Some((ReplicaRole::Candidate, term));
                return;
            }
            Role::Candidate => (ReplicaRole::Slave, m as i64 + 1),
        };
        let old_id = broker.broker_id;
        let old_role = match old_id {
            id if id < MASTER_ID => ReplicaRole::Candidate,
            MASTER_ID => ReplicaRole::Master,
            _ => ReplicaRole::Slave,
        };
        let shown = match role {
            Role::Candidate => ReplicaRole::Candidate,
            _ => new_role,
        };
        self.brokers[b].raft_role = Some((shown, term));
        self.brokers[b].broker_id = new_id;
        if old_id != new_id {
            // The registration it keeps to send again names its old id.
            self.brokers[b].full_registration = None;
            let broker = &self.brokers[b];
            self.emit(SimEventKind::BrokerRoleChanged {
                mode: "dledger",
                broker_addr: broker.addr.clone(),
                broker_name: broker.spec.name.clone(),
                old_role: old_role.as_str(),
                new_role: new_role.as_str(),
                old_broker_id: old_id,
                broker_id: new_id,
                epoch: i32::try_from(term).unwrap_or(i32::MAX),
            });
        }
        self.register_all(b);
    }
}
