//! RocketMQ 5's controller (`enableControllerMode`), pure: who becomes a broker group's master
//! when its master is gone, as `ReplicasInfoManager.electMaster` decides with `DefaultElectPolicy`
//! (5.3.3), and what it knows to decide it: the replicas' heartbeats and the groups' replicated
//! state. `docs/failover.md` says what is modelled, with its sources; the simulator's controllers
//! and brokers (`sim::controller_node`, `sim::replica`) drive it on their clock.
//!
//! # Layout
//!
//! - [`elect`](mod@elect): the election — the policy's choice among the SyncStateSet's, then (unclean) all
//!   replicas, and the controller's answer: the old master kept, a new master with the epochs
//!   bumped and a SyncStateSet of one, or nobody.
//! - [`sync_state`]: the SyncStateSet as the master keeps it: who leaves (behind for
//!   `haMaxTimeSlaveNotCatchup`), who joins (caught up).
//! - [`ids`]: a set of controller ids (a sorted `Vec`).
//! - [`heartbeat`]: a controller's table of live replicas, their heartbeats, its scan and closed
//!   connections.
//! - [`replicas`]: the controllers' replicated state — each group's replicas, master, epochs and
//!   SyncStateSet — and the requests that change it (register, elect, alter the SyncStateSet).

pub mod elect;
pub mod heartbeat;
pub mod ids;
pub mod replicas;
pub mod sync_state;

pub use elect::{elect, elect_master, ElectRequest, Election, ReplicaLive};
pub use heartbeat::{Heartbeat, LiveInfo, LiveTable, ReplicaKey};
pub use replicas::{AlterRefused, GroupReplicas, Replicas};
