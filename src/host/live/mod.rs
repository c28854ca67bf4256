//! The live page server: what `routelab bridge`, `routelab namesrv --ws` and `routelab demo` serve
//! to dashboards. Each shell publishes [`crate::live::NamesrvView`]s (polled, or read off its own
//! route manager) to the [`hub::Hub`], which diffs them, keeps the alerts and the history's records,
//! and pushes updates to every viewer over `/ws`; [`app`] serves the page, `/ws`, `/metrics` and the
//! history. The messages are documented in `docs/live-protocol.md`.
//!
//! # Layout
//!
//! - [`hub`]: the views, `seq`, alerts, history records, and fan-out to bounded per-viewer queues.
//! - [`app`]: what the handlers share ([`App`]), the hooks a shell plugs in, the viewer limit.
//! - [`http`]: the routes ([`router`]): the page, the files, `/metrics`.
//! - [`ws`]: `/ws`, one viewer's WebSocket.
//! - [`history_api`]: `/history/changes` and `/history/at`, the history for the live page.
//! - [`metrics`]: the server's counters and its `/metrics` families.
//! - [`cluster_metrics`]: the families that describe the cluster (backlog, speeds, alerts).

pub mod app;
pub mod cluster_metrics;
pub mod history_api;
pub mod http;
pub mod hub;
pub mod metrics;
pub mod ws;

pub use app::{App, CommandSink, ExtraMetrics, ViewerSlots};
pub use http::router;
pub use hub::Hub;
pub use metrics::Metrics;

/// Messages queued per viewer before a slow one is dropped (it resyncs on reconnect): enough for
/// bursts (a resync right after a few updates) while keeping a stuck viewer's memory small.
pub const DEFAULT_VIEWER_QUEUE: usize = 64;
