//! The consumer side of routing, pure: which queues of a topic a member of a consumer group reads
//! (the allocation strategies and the rebalance step), the orders Java sorts them in, and what a
//! broker keeps of consumers (members and committed offsets). The simulator (`sim::consumer`)
//! drives these with its clock and seeded RNG; docs/consumers.md says which RocketMQ source each
//! rule and timer comes from.
//!
//! # Layout
//!
//! - `allocate`: AVG, AVG_BY_CIRCLE, CONSISTENT_HASH (MD5 ring), CONFIG.
//! - `queue`: `mqAll` from a route, `MessageQueue.compareTo`, client-id order, `toString`.
//! - `rebalance`: one `rebalanceByTopic` of a CLUSTERING group, and the queues that move.
//! - `broker_tables`: a broker's consumer table (members, notices, expiry) and offset table.
//! - [`lag`]: lag as time per queue, from a broker's QUERY_CONSUME_TIME_SPAN answer.
//! - `member`: one member on its own (routes in, queues out), the JavaScript module's `Consumer`.

mod allocate;
mod broker_tables;
pub mod lag;
mod member;
mod queue;
mod rebalance;

pub use allocate::{md5_hash, AllocateError, Strategy, StrategyName, DEFAULT_VIRTUAL_NODES};
pub use broker_tables::{
    ConsumerTable, OffsetTable, CHANNEL_EXPIRED_TIMEOUT_MS, CLIENT_SCAN_PERIOD_MS,
};
pub use member::{Member, Rebalanced};
pub use queue::{
    compare, sort_client_ids, sort_queues, subscribe_queues, to_java_string, MessageQueue,
};
pub use rebalance::{diff, rebalance, Rebalance};

/// `RebalanceService.waitInterval`: a member rebalances this long after its last rebalance, or
/// sooner when woken.
pub const REBALANCE_INTERVAL_MS: u64 = 20_000;
/// 5.x `RebalanceService.minInterval`: no two rebalances closer than this; after an unbalanced one
/// (a queue it could not take up) the next comes this soon.
pub const REBALANCE_MIN_INTERVAL_V5_MS: u64 = 1_000;
/// `heartbeatBrokerInterval`: heartbeats to every broker the client knows, first 1 s after start.
pub const HEARTBEAT_INTERVAL_MS: u64 = 30_000;
/// The first heartbeat timer (`MQClientInstance.startScheduledTask`).
pub const FIRST_HEARTBEAT_MS: u64 = 1_000;
/// `persistConsumerOffsetInterval`: committed offsets sent to the brokers, first after 10 s.
pub const PERSIST_OFFSET_INTERVAL_MS: u64 = 5_000;
/// The first offset persist (`MQClientInstance.startScheduledTask`).
pub const FIRST_PERSIST_OFFSET_MS: u64 = 10_000;
/// `SlaveSynchronize.syncAll` on a slave: the master's consumer offsets copied, first after 3 s,
/// then every 10 s.
pub const SLAVE_SYNC_FIRST_MS: u64 = 3_000;
/// The slave sync's period.
pub const SLAVE_SYNC_PERIOD_MS: u64 = 10_000;
