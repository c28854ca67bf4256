//! A native client for RocketMQ NameServers over TCP (tokio), on top of the pure [`crate::remoting`]
//! codec. Used by `routelab admin` and the bridge.
//!
//! Requests are what a Java 5.x client sends: JSON headers with `serializeTypeCurrentRPC`, every
//! extField a string, `version` ≥ 401 (V4_9_4, standard-JSON route bodies) and
//! `acceptStandardJsonOnly=true` on route requests. Bodies in fastjson's legacy form (bare integer map
//! keys) are read as well, through [`crate::model::fastjson`].
//!
//! # Layout
//!
//! - [`client`]: [`NamesrvClient`]: the connection, opaque matching, in-flight bound, timeouts.
//! - `requests`: the typed requests (cluster info, topics, routes, KV, config, perms, register …).
//! - `broker_requests`: the read-only broker requests of the backlog commands (topic and consume
//!   stats, consumer connections, runtime info).
//! - [`error`]: [`ClientError`], what a request can fail with.
//! - [`register`]: the REGISTER_BROKER body as 5.x brokers send it.
//!
//! The frame codec and `bodyCrc32` are the protocol's, shared with the server: they live in
//! [`crate::remoting`].

use std::time::Duration;

mod broker_requests;
pub mod client;
pub mod error;
pub mod register;
mod requests;
pub mod sent_order;

pub use client::NamesrvClient;
pub use error::ClientError;

/// Connection and request settings.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// How long `connect` may take (default 3 s).
    pub connect_timeout: Duration,
    /// How long one request may take, including waiting for an in-flight slot (default 3 s, Java's
    /// `timeoutMillis` for NameServer calls). Size `max_in_flight` and this together: a burst far
    /// larger than the connection can answer in this time fails its tail with `Timeout`.
    pub request_timeout: Duration,
    /// Requests outstanding at once on the connection; more wait for a slot (default 32).
    pub max_in_flight: usize,
    /// The largest frame accepted or sent, length prefix included (default 16 MiB, as Java).
    pub max_frame_len: usize,
    /// The `version` of typed requests (default V5_3_3 = 479). Keep it ≥ 401 (V4_9_4) so servers
    /// answer routes in standard JSON.
    pub version: i32,
    /// With ACL on: every request is signed with these, as `AclClientRPCHook` signs
    /// ([`crate::remoting::acl`]). Its `Debug` hides the secret.
    pub credentials: Option<crate::remoting::acl::Credentials>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(3),
            request_timeout: Duration::from_secs(3),
            max_in_flight: 32,
            max_frame_len: crate::remoting::DEFAULT_MAX_FRAME_LEN,
            version: crate::remoting::command::DEFAULT_VERSION,
            credentials: None,
        }
    }
}
