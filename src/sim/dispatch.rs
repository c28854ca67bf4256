//! What each kind of timer is, and the one place that says which of the world's operations fires
//! it (kept apart from the clock's loop in `mod.rs`, which inlines it).

use super::{acting_master::ActingTask, replica, Sim};
use crate::namesrv::ChannelId;

/// What a timer does when it fires. Timers of a process restarted or stopped since they were set
/// carry an old epoch and are ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Timer {
    Scan(usize),
    Register {
        broker: usize,
        epoch: u64,
    },
    IdleCheck(ChannelId),
    RoutePoll {
        producer: usize,
        epoch: u64,
    },
    SendTick {
        producer: usize,
        epoch: u64,
    },
    AttemptDone {
        producer: usize,
        epoch: u64,
    },
    ConsumerRoutePoll {
        consumer: usize,
        epoch: u64,
    },
    ConsumerHeartbeat {
        consumer: usize,
        epoch: u64,
    },
    Rebalance {
        consumer: usize,
        token: u64,
    },
    PullTick {
        consumer: usize,
        epoch: u64,
    },
    PersistOffsets {
        consumer: usize,
        epoch: u64,
    },
    ClientScan {
        broker: usize,
        epoch: u64,
    },
    SlaveSync {
        broker: usize,
        epoch: u64,
    },
    ControllerScan {
        controller: usize,
        epoch: u64,
    },
    ControllerLeaderElection {
        token: u64,
    },
    Replica {
        broker: usize,
        epoch: u64,
        task: replica::ReplicaTask,
    },
    SyncStateSetCheck {
        broker: usize,
        token: u64,
    },
    Acting {
        broker: usize,
        epoch: u64,
        task: ActingTask,
    },
    Dledger {
        group: usize,
        member: usize,
        token: u64,
    },
}

impl Sim {
    // Inlined into `fire_until`, the one loop that fires timers (as it was before the consumers'
    // timers made the match larger than the inliner's budget): a call per timer is a tenth of a
    // simulated send's cost.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(super) fn fire(&mut self, timer: Timer) {
        self.fired += 1;
        match timer {
            Timer::Scan(ns) => {
                self.scan(ns);
                let period = self.timing.scan_ms;
                self.schedule_scan(ns, self.now + period);
            }
            Timer::Register { broker, epoch } => self.on_register_timer(broker, epoch),
            Timer::IdleCheck(ch) => self.on_idle_check(ch),
            Timer::RoutePoll { producer, epoch } => self.on_route_poll_timer(producer, epoch),
            Timer::SendTick { producer, epoch } => self.on_send_tick(producer, epoch),
            Timer::AttemptDone { producer, epoch } => self.on_attempt_done(producer, epoch),
            Timer::ConsumerRoutePoll { consumer, epoch } => {
                self.on_consumer_route_poll(consumer, epoch)
            }
            Timer::ConsumerHeartbeat { consumer, epoch } => {
                self.on_consumer_heartbeat(consumer, epoch)
            }
            Timer::Rebalance { consumer, token } => self.on_rebalance(consumer, token),
            Timer::PullTick { consumer, epoch } => self.on_pull_tick(consumer, epoch),
            Timer::PersistOffsets { consumer, epoch } => self.on_persist_offsets(consumer, epoch),
            Timer::ClientScan { broker, epoch } => self.on_client_scan(broker, epoch),
            Timer::SlaveSync { broker, epoch } => self.on_slave_sync(broker, epoch),
            Timer::ControllerScan { controller, epoch } => {
                self.on_controller_scan(controller, epoch)
            }
            Timer::ControllerLeaderElection { token } => self.on_leader_election(token),
            Timer::Replica {
                broker,
                epoch,
                task,
            } => self.on_replica_timer(broker, epoch, task),
            Timer::SyncStateSetCheck { broker, token } => {
                self.on_sync_state_set_check(broker, token)
            }
            Timer::Acting {
                broker,
                epoch,
                task,
            } => self.on_acting_timer(broker, epoch, task),
            Timer::Dledger {
                group,
                member,
                token,
            } => self.on_dledger_timer(group, member, token),
        }
    }
}
