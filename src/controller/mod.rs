//! RocketMQ 5's controller (`enableControllerMode`), pure: who becomes a broker group's master
//! when its master is gone, as `ReplicasInfoManager.electMaster` decides with `DefaultElectPolicy`
//! (5.3.3). The simulator drives it with its clock (issue: failover as RocketMQ 5 does it); the
//! timers and defaults it uses are cited in `docs/failover.md` when they land.
//!
//! # Layout
//!
//! - [`elect`]: the election — the policy's choice among the SyncStateSet's, then (unclean) all
//!   replicas, and the controller's answer: the old master kept, a new master with the epochs
//!   bumped and a SyncStateSet of one, or nobody.

pub mod elect;

pub use elect::{elect, elect_master, ElectRequest, Election, ReplicaLive};
