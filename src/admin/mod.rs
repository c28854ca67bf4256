//! `routelab admin`: mqadmin's NameServer commands (clusterList, topicRoute, topicList,
//! topicClusterList, getNamesrvConfig, wipeWritePerm, addWritePerm, deleteTopic, plus getKvList)
//! over [`crate::net`], printing what mqadmin prints, for every NameServer of `-n`; and its backlog
//! commands (topicStatus, consumerProgress, consumerConnection, brokerStatus) and `consumerLag`,
//! which ask the brokers.
//!
//! # Layout
//!
//! - [`run`](mod@run): [`AdminCommand`], the `-n` list, running a command on each NameServer into a
//!   [`Report`].
//! - [`report`]: [`Report`] (stdout, stderr, failed) and the error line of a failed NameServer,
//!   shared by `run` and `backlog`.
//! - [`cli`]: the clap arguments and `main` of `routelab admin` (the binary only wires it in).
//! - [`backlog`]: the backlog commands against real brokers (topicStatus, consumerProgress,
//!   consumerConnection, brokerStatus), their route from a NameServer.
//! - [`producers`]: `producerConnection`, a producer group's members from a broker of a topic.
//! - [`lag`]: `consumerLag`, each queue's backlog with how long its first unread message waited.
//!
//! The text each command prints is mqadmin's, from [`crate::view::mqadmin`] (shared with the
//! workshop).

pub mod backlog;
pub mod cli;
pub mod lag;
pub mod producers;
pub mod report;
pub mod run;

pub use report::Report;
pub use run::{parse_namesrv_list, run, AdminCommand};
