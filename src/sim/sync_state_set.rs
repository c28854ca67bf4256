//! The master's side of the SyncStateSet in controller mode (`AutoSwitchHAService`,
//! `ReplicasManager.checkSyncStateSetAndDoReport`, 5.3.3): every 5 s (`checkSyncStateSetPeriod`,
//! from 3 s after it became master) a slave behind for `haMaxTimeSlaveNotCatchup` (15 s) or
//! disconnected leaves; a slave joins as its acknowledgement shows it caught up (here: at the
//! slave's heartbeat, when it has just copied everything). Each change goes to the controllers'
//! leader (ALTER_SYNC_STATE_SET), which checks the master's epochs.

use super::controller_node::key_of;
use super::replica::{ReplicaRole, CHECK_SYNC_STATE_SET_PERIOD_MS};
use super::{Sim, Timer};
use crate::controller::sync_state::{self, HA_MAX_TIME_SLAVE_NOT_CATCHUP_MS};

impl Sim {
    /// The master's check timer: for the role of `token`, while the broker runs.
    pub(super) fn on_sync_state_set_check(&mut self, b: usize, token: u64) {
        let broker = &self.brokers[b];
        let Some(r) = broker.replica.as_ref() else {
            return;
        };
        if !broker.is_up() || r.role_token != token || r.role != ReplicaRole::Master {
            return;
        }
        self.check_sync_state_set(b);
        self.schedule(
            self.now + CHECK_SYNC_STATE_SET_PERIOD_MS,
            Timer::SyncStateSetCheck { broker: b, token },
        );
    }

    /// The master's slaves still connected to it (running or hung), with when each last caught
    /// up. A partition closes no connection (the master's HA connection times out after
    /// `haHousekeepingInterval`, 20 s, later than the 15 s a silent slave takes to leave the set).
    fn connected_slaves(&self, b: usize) -> Vec<(i64, Option<u64>)> {
        let me = &self.brokers[b];
        self.brokers
            .iter()
            .filter(|s| {
                s.spec.name == me.spec.name
                    && s.addr != me.addr
                    && matches!(
                        s.state,
                        super::BrokerState::Running | super::BrokerState::Frozen
                    )
            })
            .filter_map(|s| {
                let r = s.replica.as_ref()?;
                (r.role == ReplicaRole::Slave && r.master_addr.as_deref() == Some(&me.addr))
                    .then_some((r.controller_id?, r.caught_up_at))
            })
            .collect()
    }

    /// `maybeShrinkSyncStateSet`, proposed to the leader.
    fn check_sync_state_set(&mut self, b: usize) {
        let Some(r) = self.brokers[b].replica.as_ref() else {
            return;
        };
        let Some(me) = r.controller_id else {
            return;
        };
        let caught_up: Vec<(i64, u64)> = self
            .connected_slaves(b)
            .into_iter()
            .filter_map(|(id, at)| at.map(|at| (id, at)))
            .collect();
        let Some(r) = self.brokers[b].replica.as_ref() else {
            return;
        };
        if let Some(set) = sync_state::shrink(
            &r.sync_state_set,
            me,
            &caught_up,
            self.now,
            HA_MAX_TIME_SLAVE_NOT_CATCHUP_MS,
        ) {
            self.alter_sync_state_set(b, set);
        }
    }

    /// `maybeExpandInSyncStateSet` on the master as a slave's acknowledgement arrives: a slave
    /// copying from it (its heartbeat just refreshed its offset to what the group stored) has
    /// caught up, and joins the set.
    pub(super) fn expand_on_ack(&mut self, slave: usize) {
        let Some(s) = self.brokers[slave].replica.as_ref() else {
            return;
        };
        let (Some(id), Some(addr)) = (s.controller_id, s.master_addr.clone()) else {
            return;
        };
        if s.role != ReplicaRole::Slave || s.caught_up_at != Some(self.now) {
            return;
        }
        let acked = s.max_offset as i64;
        let Some(m) = self
            .brokers
            .iter()
            .position(|m| m.addr == addr && m.is_up())
        else {
            return;
        };
        let Some(r) = self.brokers[m].replica.as_ref() else {
            return;
        };
        if r.role != ReplicaRole::Master {
            return;
        }
        let stored = self.stores[self.brokers[m].store].put.total as i64;
        if let Some(set) = sync_state::expand(&r.sync_state_set, id, acked, stored, 0) {
            self.alter_sync_state_set(m, set);
        }
    }

    /// ALTER_SYNC_STATE_SET to the leader; accepted, the master takes the new set and epoch.
    fn alter_sync_state_set(&mut self, b: usize, set: crate::controller::ids::Ids) {
        let Some(c) = self.leader_for(b) else {
            return;
        };
        let broker = &self.brokers[b];
        let Some(r) = broker.replica.as_ref() else {
            return;
        };
        let Some(me) = r.controller_id else {
            return;
        };
        let (cluster, name) = (broker.spec.cluster.clone(), broker.spec.name.clone());
        let now = self.now;
        let live = &self.controllers[c].live;
        let alive = |id: i64| live.is_active(now, &key_of(&cluster, &name, id));
        let old = r.sync_state_set.clone();
        let Ok(epoch) = self.replicas.alter_sync_state_set(
            &name,
            me,
            r.master_epoch,
            &set,
            r.sync_state_set_epoch,
            &alive,
        ) else {
            return;
        };
        let Some(r) = self.brokers[b].replica.as_mut() else {
            return;
        };
        r.sync_state_set = set.clone();
        r.sync_state_set_epoch = epoch;
        self.emit(super::SimEventKind::SyncStateSetChanged {
            group: name,
            cluster,
            controller: self.controllers[c].name.clone(),
            master: me,
            old,
            new: set,
            epoch,
        });
    }
}
