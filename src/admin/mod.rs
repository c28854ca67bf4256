//! `routelab admin`: mqadmin's NameServer commands (clusterList, topicRoute, topicList,
//! topicClusterList, getNamesrvConfig, wipeWritePerm, addWritePerm, deleteTopic, plus getKvList)
//! over [`crate::net`], printing what mqadmin prints, for every NameServer of `-n`.
//!
//! # Layout
//!
//! - [`run`](mod@run): [`AdminCommand`], the `-n` list, running a command on each NameServer into a
//!   [`Report`] (stdout, stderr, failed).
//! - [`cli`]: the clap arguments and `main` of `routelab admin` (the binary only wires it in).
//! - [`format`](mod@format): the pure text of each command, laid out as mqadmin's `printf`s.

pub mod cli;
pub mod format;
pub mod run;

pub use run::{parse_namesrv_list, run, AdminCommand, Report};
