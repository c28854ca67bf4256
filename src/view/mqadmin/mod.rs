//! What mqadmin prints, command by command, in one place: the workshop's mqadmin tab and
//! `routelab admin` print the same text through these functions (pure, tested natively against
//! the `printf`s of RocketMQ's `tools`).
//!
//! # Layout
//!
//! - [`route`]: `clusterList` (4.9.8's and 5.x's columns, in a Java client's map order) and
//!   `topicRoute -t T` (fastjson's pretty print).
//! - [`namesrv`]: the other NameServer commands: `topicRoute -l`, `topicList`, `topicClusterList`,
//!   `getNamesrvConfig`, `getKvList`, `wipeWritePerm` / `addWritePerm`, `deleteTopic`.
//! - [`consumer`]: the backlog commands: `topicStatus`, `consumerProgress` (one group or the list),
//!   `consumerConnection`, `brokerStatus`.
//! - [`producer`]: the layout of `producerConnection`.
//! - [`ha`]: the controller's commands, `getSyncStateSet` and `getBrokerEpoch` (5.3.3).
//! - [`lag`]: RouteLab's `consumerLag`, consumerProgress's columns with the lag as time.
//! - this file: the column helper they share.

pub mod consumer;
pub mod ha;
pub mod lag;
pub mod namesrv;
pub mod producer;
pub mod route;

pub use route::{cluster_list, topic_route, BrokerRuntime, ClientOrder, ClusterLayout};

/// `String.format("%-Ns", UtilAll.frontStringAtLeast(s, N))`: cut to `n` characters, then padded.
fn col(s: &str, n: usize) -> String {
    let cut: String = s.chars().take(n).collect();
    format!("{cut:<n$}")
}
