//! The live protocol: what a bridge (or RouteLab's own NameServer) sends to dashboards over a
//! WebSocket, and the pure reducer both ends share. Documented for other clients in
//! `docs/live-protocol.md`.
//!
//! The server keeps one [`NamesrvView`] per NameServer. A new viewer first gets a [`Snapshot`] of all
//! of them; afterwards each change goes out as an [`Update`] carrying per-NameServer
//! [`NamesrvDelta`]s computed by [`NamesrvView::diff`], which the viewer applies with
//! [`LiveState::apply`]. `diff` then `apply` reproduces the new view exactly (tested), so viewers never
//! drift; a viewer that sees a sequence gap asks for a [`ClientMessage::Resync`].
//!
//! # Layout
//!
//! - [`view`]: [`NamesrvView`], [`RouteEntry`], [`NamesrvStatus`], [`BrokerLive`] and freshness.
//! - [`delta`]: [`NamesrvDelta`] — diff and apply.
//! - [`message`]: [`ServerMessage`] ([`Snapshot`], [`Update`]), [`ClientMessage`], [`Source`].
//! - [`replay`]: the cluster as it was, rebuilt from a checkpoint and the history's records, and
//!   sent as what differs from the live views (`replay::from_live`).
//! - [`state`]: [`LiveState`], the viewer's reducer.
//! - [`alerts`]: the alert rules, evaluated on every poll ([`alerts::Alerts`]).
//! - [`broker_health`]: a broker's health from its runtime table, slaves and replication gap.
//! - [`backlog`]: consumer groups and their backlog as the bridge reads them from the brokers.
//! - [`lag`]: the bridge's lag readings (QUERY_CONSUME_TIME_SPAN) and which to ask next.
//! - [`consumers`]: [`consumers::ConsumersView`], the groups as the protocol carries them to the page.
//! - [`owners`]: which member holds which queue, as the members say (their running info).
//! - [`compare`]: where NameServers' views agree or differ, and the brokers they list.
//! - [`fork`](mod@fork): [`fork()`] turns the views into a simulator scenario ("Fork into simulator").
//! - [`history`]: what changed, as the bridge's history records it ([`history::Recorder`]).
//! - [`topic_rates`]: per-topic production from the brokers' offsets, and the busiest topics.
//! - [`topics`]: which topics RocketMQ makes itself.

pub mod alerts;
pub mod backlog;
pub mod broker_health;
pub mod compare;
pub mod consumers;
pub mod delta;
pub mod fork;
pub mod history;
pub mod lag;
pub mod message;
pub mod owners;
pub mod replay;
pub mod state;
pub mod topic_rates;
pub mod topics;
pub mod view;

pub use delta::NamesrvDelta;
pub use fork::fork;
pub use message::{ClientMessage, ServerMessage, Snapshot, Source, SourceKind, Update};
pub use state::{LiveError, LiveState};
pub use view::{BrokerLive, Freshness, NamesrvStatus, NamesrvView, RouteEntry};

/// Version of the message schema; a viewer refuses a snapshot of another version.
pub const PROTOCOL_VERSION: u32 = 1;
