//! `routelab admin`: mqadmin's NameServer commands (clusterList, topicRoute, topicList,
//! topicClusterList, getNamesrvConfig, wipeWritePerm, addWritePerm, deleteTopic, plus getKvList)
//! over [`crate::net`], printing what mqadmin prints, for every NameServer of `-n`; and its backlog
//! commands (topicStatus, consumerProgress, consumerConnection, brokerStatus), which ask the brokers.
//!
//! # Layout
//!
//! - [`run`](mod@run): [`AdminCommand`], the `-n` list, running a command on each NameServer into a
//!   [`Report`].
//! - [`report`]: [`Report`] (stdout, stderr, failed) and the error line of a failed NameServer,
//!   shared by `run` and `backlog`.
//! - [`cli`]: the clap arguments and `main` of `routelab admin` (the binary only wires it in).
//! - [`format`](mod@format): the pure text of each command, laid out as mqadmin's `printf`s.
//! - [`backlog`]: the backlog commands against real brokers (topicStatus, consumerProgress,
//!   consumerConnection, brokerStatus), their route from a NameServer.
//! - [`backlog_format`]: the text of consumerProgress's group list, consumerConnection and
//!   brokerStatus.

pub mod backlog;
pub mod backlog_format;
pub mod cli;
pub mod format;
pub mod report;
pub mod run;

pub use report::Report;
pub use run::{parse_namesrv_list, run, AdminCommand};
