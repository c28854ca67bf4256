//! What the live page server's handlers share: the [`App`] (hub, metrics, files, access rules,
//! history), the hooks a shell may plug in ([`ExtraMetrics`], [`CommandSink`]) and the viewer limit.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::hub::Hub;
use super::metrics::Metrics;
use crate::host::web::assets::Assets;

/// More metric families appended to `/metrics` (`routelab namesrv --ws` adds its own).
#[derive(Clone)]
pub struct ExtraMetrics(pub Arc<dyn Fn() -> String + Send + Sync>);

impl std::fmt::Debug for ExtraMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExtraMetrics")
    }
}

/// Where `{"type":"command"}` messages from viewers go (`routelab demo`); without one they close
/// the viewer's connection like any unknown request.
#[derive(Clone)]
pub struct CommandSink(pub Arc<dyn Fn(String) + Send + Sync>);

impl std::fmt::Debug for CommandSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CommandSink")
    }
}

/// What the handlers share.
#[derive(Debug)]
pub struct App {
    pub hub: Arc<Hub>,
    pub metrics: Arc<Metrics>,
    /// The dashboard's files.
    pub assets: Assets,
    /// The bound address (the port is known only after binding when `--listen` asks for port 0).
    pub listen: SocketAddr,
    pub allow_origins: Vec<String>,
    pub token: Option<String>,
    /// Cancelled when the bridge stops: open viewer connections end.
    pub shutdown: CancellationToken,
    /// Families rendered after the bridge's own (none for the bridge).
    pub extra_metrics: Option<ExtraMetrics>,
    /// Accepts viewers' commands (only `routelab demo` has one).
    pub commands: Option<CommandSink>,
    /// `--max-viewers`.
    pub viewer_slots: ViewerSlots,
    /// The history being recorded, served at `/history/…` (`None`: no history).
    pub history: Option<std::path::PathBuf>,
    /// The checkpoints `/history/at` decoded last, kept for the next moment asked for.
    pub checkpoints: std::sync::Arc<crate::host::history::Checkpoints>,
}

/// At most `max` viewers at once, counted from the upgrade on, so upgrades racing each other
/// cannot overshoot.
#[derive(Debug)]
pub struct ViewerSlots {
    pub(super) max: usize,
    taken: Arc<AtomicUsize>,
}

impl ViewerSlots {
    pub fn new(max: usize) -> Self {
        Self {
            max,
            taken: Arc::default(),
        }
    }

    pub(super) fn try_take(&self) -> Option<ViewerSlot> {
        self.taken
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| ViewerSlot(Arc::clone(&self.taken)))
    }
}

/// One viewer's slot, given back on drop (also when the upgrade never completes).
pub(super) struct ViewerSlot(Arc<AtomicUsize>);

impl Drop for ViewerSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
