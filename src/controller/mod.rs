//! RocketMQ 5's controller (`enableControllerMode`), pure: who becomes a broker group's master
//! when its master is gone, as `ReplicasInfoManager.electMaster` decides with `DefaultElectPolicy`
//! (5.3.3). `docs/failover.md` says what is modelled, with its sources, and what is to come (the
//! simulator's controllers and brokers will drive it on their clock).
//!
//! # Layout
//!
//! - [`elect`](mod@elect): the election — the policy's choice among the SyncStateSet's, then (unclean) all
//!   replicas, and the controller's answer: the old master kept, a new master with the epochs
//!   bumped and a SyncStateSet of one, or nobody.
//! - [`sync_state`]: the SyncStateSet as the master keeps it: who leaves (behind for
//!   `haMaxTimeSlaveNotCatchup`), who joins (caught up).

pub mod elect;
pub mod sync_state;

pub use elect::{elect, elect_master, ElectRequest, Election, ReplicaLive};
