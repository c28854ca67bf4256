//! `--ws`: the NameServer's own tables served live, with the bridge's hub and HTTP server (the
//! dashboard, `/ws` in the protocol of docs/live-protocol.md, `/metrics`). A view is published on
//! every change of the tables and every second (so heartbeat ages and freshness move); the hub
//! sends viewers only what differs. Unlike a bridge, the view carries `broker_live`: exact
//! heartbeat times from brokerLiveTable.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinSet;

use super::dispatch::State;
use super::Shared;
use crate::host::live::Hub;
use crate::host::live::Metrics;
use crate::host::live::{router, App, CommandSink, ExtraMetrics, ViewerSlots};
use crate::host::web::args::HttpAccess;
use crate::host::web::conn_limit::{LimitedListener, EXTRA_HTTP_CONNECTIONS};
use crate::live::{BrokerLive, NamesrvStatus, NamesrvView, RouteEntry, Source, SourceKind};

/// How often a view is published even without a change.
pub const TICK: Duration = Duration::from_secs(1);

/// The view of `state` at `now_ms`. Route entries keep their `fetched_at_ms` from `previous` while
/// the route is unchanged, so a tick does not resend every route.
pub fn view(state: &State, addr: &str, now_ms: u64, previous: Option<&NamesrvView>) -> NamesrvView {
    let rm = &state.routes;
    let mut view = NamesrvView::new(addr);
    view.status = NamesrvStatus::Ok;
    view.fetched_at_ms = Some(now_ms);
    view.last_attempt_ms = Some(now_ms);
    view.poll_duration_ms = Some(0);
    view.cluster = rm.get_all_cluster_info();
    view.topics = rm
        .topic_queue_table()
        .iter()
        .map(|(t, _)| t.to_string())
        .collect();
    for topic in &view.topics {
        let route = rm.pickup_topic_route_data(topic);
        let fetched_at_ms = previous
            .and_then(|p| p.routes.get(topic))
            .filter(|e| e.route == route)
            .map_or(now_ms, |e| e.fetched_at_ms);
        view.routes.insert(
            topic.clone(),
            RouteEntry {
                fetched_at_ms,
                route,
                error: None,
            },
        );
    }
    let live: BTreeMap<String, BrokerLive> = rm
        .broker_live_table()
        .iter()
        .map(|(key, info)| {
            (
                key.broker_addr.to_string(),
                BrokerLive {
                    last_update_ms: info.last_update_timestamp,
                    timeout_ms: info.heartbeat_timeout_millis,
                },
            )
        })
        .collect();
    view.broker_live = Some(live);
    view
}

/// Binds `ws`, starts the HTTP server and the publisher. Returns the bound address.
pub(super) async fn start(
    shared: Arc<Shared>,
    ws: SocketAddr,
    access: HttpAccess,
    commands: Option<CommandSink>,
    history: &crate::host::history::HistoryConfig,
    ns_addr: SocketAddr,
    tasks: &mut JoinSet<()>,
) -> std::io::Result<(SocketAddr, String)> {
    let listener = tokio::net::TcpListener::bind(ws).await?;
    let local = listener.local_addr()?;
    let name = ns_addr.to_string();
    // No NameServer is polled here (the view is our own tables): no per-NameServer poll series.
    let metrics = Arc::new(Metrics::new(&[]));
    let source = Source {
        kind: SourceKind::Namesrv,
        version: crate::VERSION.to_owned(),
        interval_ms: u64::try_from(TICK.as_millis()).unwrap_or(1000),
        read_only: false,
        commands: commands.is_some(),
    };
    let history = crate::host::history::open(history, crate::host::clock::now_ms);
    if let Some(counters) = history.counters() {
        metrics.watch_history(counters);
    }
    let hub = Arc::new(
        Hub::new(
            std::slice::from_ref(&name),
            source,
            crate::host::live::DEFAULT_VIEWER_QUEUE,
            Arc::clone(&metrics),
        )
        .with_history(history.sink())
        .with_alerts(
            crate::live::alerts::AlertConfig {
                interval_ms: u64::try_from(TICK.as_millis()).unwrap_or(1_000),
                ..Default::default()
            },
            None,
        ),
    );
    let history_line = history.describe();
    let history_path = history.path().map(std::path::Path::to_path_buf);
    let checkpoints = history.checkpoints();
    if let crate::host::history::Opened::Recording { writer, .. } = history {
        // Written out when the server stops.
        let stop = shared.shutdown.clone();
        tasks.spawn(async move {
            stop.cancelled().await;
            let _ = tokio::task::spawn_blocking(move || writer.finish()).await;
        });
    }
    let for_metrics = Arc::clone(&shared);
    let app = Arc::new(App {
        hub: Arc::clone(&hub),
        metrics,
        assets: access.dist,
        listen: local,
        allow_origins: access.allow_origins,
        token: access.token,
        shutdown: shared.shutdown.clone(),
        extra_metrics: Some(ExtraMetrics(Arc::new(move || for_metrics.metrics_text()))),
        commands,
        viewer_slots: ViewerSlots::new(access.max_viewers),
        history: history_path,
        checkpoints,
    });
    let stop = shared.shutdown.clone();
    let listener = LimitedListener::new(listener, access.max_viewers + EXTRA_HTTP_CONNECTIONS);
    tasks.spawn(async move {
        if let Err(e) = axum::serve(listener, router(app))
            .with_graceful_shutdown(stop.cancelled_owned())
            .await
        {
            tracing::error!("the live view's HTTP server stopped: {e}");
        }
    });
    tasks.spawn(publish_loop(shared, hub, name));
    Ok((local, history_line))
}

async fn publish_loop(shared: Arc<Shared>, hub: Arc<Hub>, name: String) {
    let mut changes = shared.subscribe();
    let mut tick = tokio::time::interval(TICK);
    let mut last: Option<NamesrvView> = None;
    loop {
        let now = shared.now_ms();
        let next = shared.with_state(|s| view(s, &name, now, last.as_ref()));
        hub.publish(next.clone());
        last = Some(next);
        tokio::select! {
            () = shared.shutdown.cancelled() => return,
            changed = changes.changed() => if changed.is_err() { return },
            _ = tick.tick() => {}
        }
    }
}
