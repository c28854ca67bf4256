//! The timers: the expiry scan (4.x: first after 5 s, then every 10 s; 5.x: every
//! `scanNotActiveBrokerInterval` = 5 s) and the KV table printed to the log every 10 minutes after
//! one minute, as Java schedules them.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::{interval_at, Instant, MissedTickBehavior};

use super::Shared;

pub(super) async fn scan_loop(shared: Arc<Shared>) {
    let (first, period) = shared.with_state(|s| s.config.scan_schedule());
    let mut ticks = interval_at(Instant::now() + first, period);
    // Java's fixed-rate scheduler catches up too, but a late scan sees the same table: skip instead.
    ticks.set_missed_tick_behavior(MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            () = shared.shutdown.cancelled() => return,
            _ = ticks.tick() => shared.scan(),
        }
    }
}

pub(super) async fn kv_log_loop(shared: Arc<Shared>) {
    let mut ticks = interval_at(
        Instant::now() + Duration::from_secs(60),
        Duration::from_secs(600),
    );
    loop {
        tokio::select! {
            () = shared.shutdown.cancelled() => return,
            _ = ticks.tick() => {
                let kv = shared.with_state(|s| s.routes.kv().clone());
                super::kv_store::log_all(&kv);
            }
        }
    }
}
