//! RocketMQ 5's acting master (`enableSlaveActingMaster`, BrokerController in 5.3.3), as the brokers
//! of a group in `acting_master` mode run it:
//! - their registrations declare `enableActingMaster=true` and a 10 s `heartbeatTimeoutMillis`
//!   (`brokerNotActiveTimeoutMillis`), so a NameServer's scan removes a silent broker after 10 s
//!   instead of 120 s;
//! - they send BROKER_HEARTBEAT to every NameServer each second (`brokerHeartbeatInterval`);
//! - each second (`syncBrokerMemberGroupPeriod`) a slave asks a NameServer for its group's members
//!   (GET_BROKER_MEMBER_GROUP) and takes the smallest id as the group's `minBrokerIdInGroup`
//!   (`updateMinBroker`); when that is its own id, the master is gone and it acts as master
//!   (`changeSpecialServiceStatus(true)`: the timer, transaction and pop services), until the master
//!   is listed again.
//!
//! The NameServer's side (the prime slave's read-only topics, the write bit wiped when the master
//! is removed, `supportActingMaster`'s id-0 presentation) is the route manager's own.

use super::scenario::GroupMode;
use super::{Sim, SimEventKind, Timer};
use crate::model::MASTER_ID;
use crate::namesrv::BrokerIdentity;

/// `brokerHeartbeatInterval` (BrokerConfig, 1 s): BROKER_HEARTBEAT to every NameServer.
pub const BROKER_HEARTBEAT_INTERVAL_MS: u64 = 1_000;
/// `brokerNotActiveTimeoutMillis` (BrokerConfig, 10 s): the timeout an acting-master broker
/// declares in its registrations.
pub const BROKER_NOT_ACTIVE_TIMEOUT_MS: u64 = 10_000;
/// `syncBrokerMemberGroupPeriod` (BrokerConfig, 1 s): how often a broker asks for its group's
/// members.
pub const SYNC_BROKER_MEMBER_GROUP_PERIOD_MS: u64 = 1_000;

/// An acting-master broker's periodic tasks (both first run a period after the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ActingTask {
    Heartbeat,
    SyncMemberGroup,
}

impl ActingTask {
    fn period_ms(self) -> u64 {
        match self {
            ActingTask::Heartbeat => BROKER_HEARTBEAT_INTERVAL_MS,
            ActingTask::SyncMemberGroup => SYNC_BROKER_MEMBER_GROUP_PERIOD_MS,
        }
    }
}

impl Sim {
    /// Starts broker `b`'s heartbeats and member-group syncs (acting-master mode, running, not
    /// already started for this run of the process).
    pub(super) fn start_acting_tasks(&mut self, b: usize) {
        let broker = &self.brokers[b];
        if broker.spec.mode != GroupMode::ActingMaster
            || !broker.is_up()
            || broker.acting_tasks == Some(broker.epoch)
        {
            return;
        }
        let epoch = broker.epoch;
        self.brokers[b].acting_tasks = Some(epoch);
        for task in [ActingTask::Heartbeat, ActingTask::SyncMemberGroup] {
            self.schedule_acting(b, epoch, task);
        }
    }

    /// `task` of broker `b`'s run `epoch`, a period from now.
    fn schedule_acting(&mut self, b: usize, epoch: u64, task: ActingTask) {
        let at = self.now + task.period_ms();
        self.schedule(
            at,
            Timer::Acting {
                broker: b,
                epoch,
                task,
            },
        );
    }

    pub(super) fn on_acting_timer(&mut self, b: usize, epoch: u64, task: ActingTask) {
        let broker = &self.brokers[b];
        if broker.epoch != epoch {
            return;
        }
        if !broker.is_up() {
            // Frozen: the tasks start again when it resumes.
            self.brokers[b].acting_tasks = None;
            return;
        }
        match task {
            ActingTask::Heartbeat => self.send_broker_heartbeats(b),
            ActingTask::SyncMemberGroup => self.sync_member_group(b),
        }
        self.schedule_acting(b, epoch, task);
    }

    /// BROKER_HEARTBEAT to every NameServer it can reach, on its channel to each.
    fn send_broker_heartbeats(&mut self, b: usize) {
        let broker = &self.brokers[b];
        let who = BrokerIdentity {
            cluster_name: broker.spec.cluster.as_str().into(),
            broker_addr: broker.addr.as_str().into(),
            broker_name: broker.spec.name.as_str().into(),
            broker_id: broker.broker_id,
        };
        for ns in 0..self.namesrvs.len() {
            if self.is_link_cut(&self.brokers[b].addr, ns) {
                continue;
            }
            let ch = self.channel(b, ns);
            // 5.x only; the scenario's checks keep acting-master mode to 5.x.
            let _ = self.namesrvs[ns].manager.broker_heartbeat(self.now, &who);
            if let Some(conn) = self.conns.get_mut(ch) {
                conn.last_traffic = self.now;
            }
        }
    }

    /// `syncBrokerMemberGroup` then `updateMinBroker`: the group's smallest id as the first
    /// NameServer it can reach lists it. A master keeps no such state (`updateMinBroker` is a
    /// slave's); an empty answer changes nothing.
    fn sync_member_group(&mut self, b: usize) {
        let broker = &self.brokers[b];
        let Some(ns) = (0..self.namesrvs.len()).find(|&ns| !self.is_link_cut(&broker.addr, ns))
        else {
            return;
        };
        let Ok(group) = self.namesrvs[ns]
            .manager
            .get_broker_member_group(&broker.spec.cluster, &broker.spec.name)
        else {
            return;
        };
        let Some((&min_id, min_addr)) = group.broker_addrs.iter().next() else {
            return;
        };
        let own = broker.broker_id;
        let old = broker.min_broker_id;
        if own == MASTER_ID || old == min_id {
            return;
        }
        self.brokers[b].min_broker_id = min_id;
        let broker = &self.brokers[b];
        let (broker_addr, broker_name) = (broker.addr.clone(), broker.spec.name.clone());
        let namesrv = self.namesrvs[ns].name.clone();
        if min_id == own {
            self.emit(SimEventKind::ActingMasterStarted {
                broker_addr,
                broker_name,
                broker_id: own,
                namesrv,
            });
        } else if old == own {
            self.emit(SimEventKind::ActingMasterEnded {
                broker_addr,
                broker_name,
                broker_id: own,
                namesrv,
                min_broker_id: min_id,
                min_broker_addr: min_addr.to_string(),
            });
        }
    }
}
