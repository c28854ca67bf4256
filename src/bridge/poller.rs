//! One NameServer's polling loop.
//!
//! Every `interval` (never overlapping: the next poll starts only after the last one ended) it
//! fetches cluster info and the topic list, then a round of routes planned by
//! [`super::plan::plan_routes`], `route_concurrency` at a time, on one connection. A failure marks
//! this NameServer alone `Failing`, with the reason, and keeps everything it knew (with its fetch
//! times, so viewers can tell how old it is). The connection is dropped after a failure and a new one
//! is made on the next poll, so a NameServer that comes back is `Ok` again one interval later.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use super::config::BridgeConfig;
use super::plan::{plan_routes, prune_routes};
use crate::host::clock::now_ms;
use crate::host::live::Hub;
use crate::host::live::Metrics;
use crate::live::{NamesrvStatus, NamesrvView, RouteEntry};
use crate::net::{ClientConfig, ClientError, NamesrvClient};

/// What a poller needs from the configuration.
#[derive(Clone, Debug)]
pub struct PollSettings {
    pub interval: Duration,
    pub routes_per_poll: usize,
    pub route_concurrency: usize,
    pub client: ClientConfig,
    /// A whole poll may take this long; then it counts as failed and the connection is dropped.
    pub poll_timeout: Duration,
}

impl From<&BridgeConfig> for PollSettings {
    fn from(c: &BridgeConfig) -> Self {
        // Short enough that a NameServer that hangs is reported within a few seconds, long
        // enough for a slow one on a busy network; never longer than the interval needs.
        let request = c
            .interval
            .clamp(Duration::from_secs(1), Duration::from_secs(3));
        let client = ClientConfig {
            connect_timeout: request,
            request_timeout: request,
            max_in_flight: c.route_concurrency.max(2),
            credentials: c.credentials.clone(),
            ..ClientConfig::default()
        };
        Self {
            interval: c.interval,
            routes_per_poll: c.routes_per_poll,
            route_concurrency: c.route_concurrency,
            client,
            poll_timeout: (c.interval * 5).max(Duration::from_secs(10)),
        }
    }
}

/// Polls `addr` until `shutdown`, publishing each poll's view to the hub.
pub async fn run(
    addr: String,
    settings: Arc<PollSettings>,
    hub: Arc<Hub>,
    metrics: Arc<Metrics>,
    shutdown: CancellationToken,
) {
    let mut view = NamesrvView::new(addr.clone());
    let mut client: Option<NamesrvClient> = None;
    let mut ticker = tokio::time::interval(settings.interval);
    // A poll longer than the interval skips the ticks it overlapped instead of bunching them up.
    ticker.set_missed_tick_behavior(MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = ticker.tick() => {}
        }
        let was = (view.status, view.error.clone());
        let started = Instant::now();
        view.last_attempt_ms = Some(now_ms());
        let outcome = tokio::select! {
            _ = shutdown.cancelled() => break,
            r = tokio::time::timeout(settings.poll_timeout, poll(&addr, &mut client, &mut view, &settings, &metrics)) => {
                r.unwrap_or_else(|_| Err(format!(
                    "the poll took longer than {}", humantime::format_duration(settings.poll_timeout)
                )))
            }
        };
        let took = started.elapsed();
        view.poll_duration_ms = Some(u64::try_from(took.as_millis()).unwrap_or(u64::MAX));
        match outcome {
            Ok(()) => {
                view.status = NamesrvStatus::Ok;
                view.error = None;
            }
            Err(reason) => {
                view.status = NamesrvStatus::Failing;
                view.error = Some(reason);
                // A new connection next time: the old one may be half-dead.
                if let Some(c) = client.take() {
                    c.close();
                }
            }
        }
        log_change(&addr, &was, &view);
        let topics = view.topics.len() as u64;
        metrics.update_namesrv(&addr, |m| {
            m.observe_poll(took, view.status == NamesrvStatus::Ok);
            m.topics = topics;
        });
        hub.publish(view.clone());
    }
    if let Some(c) = client {
        c.close();
    }
}

/// One poll: updates `view` in place; an `Err` carries the reason shown to viewers.
async fn poll(
    addr: &str,
    client: &mut Option<NamesrvClient>,
    view: &mut NamesrvView,
    settings: &PollSettings,
    metrics: &Metrics,
) -> Result<(), String> {
    let conn = match client.take().filter(|c| !c.is_closed()) {
        Some(c) => c,
        None => NamesrvClient::connect(addr, settings.client.clone())
            .await
            .map_err(|e| e.to_string())?,
    };
    *client = Some(conn.clone());
    let (cluster, topics) = tokio::try_join!(conn.cluster_info(), conn.all_topics())
        .map_err(|e| format!("cluster info / topic list: {e}"))?;
    view.cluster = cluster;
    view.topics = topics;
    view.fetched_at_ms = Some(now_ms());
    prune_routes(&view.topics, &mut view.routes);

    let plan = plan_routes(&view.topics, &view.routes, settings.routes_per_poll);
    // One fetch time for the whole round, taken before its first request: a route is never shown
    // fresher than it is, and viewers get one time for the round instead of one per topic (an idle
    // update of 10,000 routes is then a few bytes: `routes_refreshed_all`).
    let at = now_ms();
    let mut results = stream::iter(plan)
        .map(|topic| {
            let conn = conn.clone();
            async move {
                let r = conn.route(&topic).await;
                (topic, r)
            }
        })
        .buffer_unordered(settings.route_concurrency);
    let (mut fetched, mut failed) = (0u64, 0u64);
    let mut lost: Option<ClientError> = None;
    while let Some((topic, result)) = results.next().await {
        match result {
            Ok(route) => {
                fetched += 1;
                // Sorted by brokerName, as Java clients compare routes: the NameServer's order
                // follows its hash maps and may differ between answers that mean the same.
                view.routes.insert(
                    topic,
                    RouteEntry {
                        fetched_at_ms: at,
                        route: route.map(|r| r.sorted()),
                        error: None,
                    },
                );
            }
            Err(e) => {
                failed += 1;
                // Keep the last good route and its fetch time; 0 marks "never fetched".
                let entry = view.routes.entry(topic).or_insert(RouteEntry {
                    fetched_at_ms: 0,
                    route: None,
                    error: None,
                });
                entry.error = Some(e.to_string());
                if e.is_connection_error() && lost.is_none() {
                    lost = Some(e);
                }
            }
        }
    }
    metrics.update_namesrv(addr, |m| {
        m.routes_fetched += fetched;
        m.route_errors += failed;
    });
    match lost {
        Some(e) => Err(format!("topic routes: {e}")),
        None => Ok(()),
    }
}

/// Logs only transitions, so a steady bridge is quiet at `info`.
fn log_change(addr: &str, was: &(NamesrvStatus, Option<String>), now: &NamesrvView) {
    match (was.0, now.status) {
        (NamesrvStatus::Ok, NamesrvStatus::Ok) => {
            tracing::debug!(namesrv = addr, took_ms = ?now.poll_duration_ms, "polled")
        }
        (_, NamesrvStatus::Ok) => tracing::info!(
            namesrv = addr,
            topics = now.topics.len(),
            brokers = now.cluster.broker_addr_table.len(),
            "NameServer is answering"
        ),
        (_, NamesrvStatus::Failing) if was.1 != now.error => tracing::warn!(
            namesrv = addr,
            "NameServer poll failed: {}",
            now.error.as_deref().unwrap_or("")
        ),
        _ => {}
    }
}
