//! The RouteInfoManager tables (spec §1.1), one type each, with the few operations the rules need.
//!
//! Each keeps its entries in BTreeMaps — lookups, the dashboard and the tests see them in name order,
//! identically on every run and target — and, beside them, the keys as Java's own tables would hold
//! them ([`JavaTable`](crate::java_order::JavaTable)): a HashMap under the 4.x profile, a ConcurrentHashMap under 5.x, of
//! RocketMQ's initial capacities. Wherever RocketMQ's iteration order leaves the NameServer (a
//! body, which entry a scan meets first, the order of removals) the route manager walks those.
//! Every structural change goes through these methods so that both stay in step.
//!
//! # Layout
//!
//! - `topic_queue`: [`TopicQueueTable`] (`topicQueueTable`).
//! - `broker_addr`: [`BrokerAddrTable`] (`brokerAddrTable`).
//! - `cluster_addr`: [`ClusterAddrTable`] (`clusterAddrTable`).
//! - `broker_live`: [`BrokerLiveTable`] (`brokerLiveTable`) with its key [`BrokerAddrInfo`], the
//!   [`ChannelId`] a broker registered on, and what its last topic update left in place.
//! - `filter_server`: [`FilterServerTable`] (`filterServerTable`).
//! - `java_kind`: which Java map a table is under each profile.

mod broker_addr;
mod broker_live;
mod cluster_addr;
mod filter_server;
mod java_kind;
mod topic_queue;

pub use broker_addr::BrokerAddrTable;
pub use broker_live::{BrokerAddrInfo, BrokerLiveInfo, BrokerLiveTable, ChannelId};
pub(crate) use broker_live::{FilledTopics, WrittenQueue};
pub use cluster_addr::ClusterAddrTable;
pub use filter_server::FilterServerTable;
pub(crate) use topic_queue::Put;
pub use topic_queue::TopicQueueTable;
