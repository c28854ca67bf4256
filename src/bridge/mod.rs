//! `routelab bridge`: polls real NameServers and brokers and serves their routing live to
//! dashboards.
//!
//! One task per NameServer polls it (cluster info, topic list, then a bounded round of topic
//! routes) and publishes the resulting [`crate::live::NamesrvView`] to the live page server's hub
//! ([`crate::host::live`]), which diffs it and pushes updates to every connected viewer. Only read
//! requests are ever sent to a NameServer or a broker.
//!
//! # Layout
//!
//! - [`cli`]: the command: flags checked, start-up message, run until a signal.
//! - [`config`]: the command line ([`BridgeArgs`]) → [`BridgeConfig`].
//! - [`plan`]: which routes a poll fetches (pure).
//! - [`poller`]: one NameServer's polling loop, reconnecting after failures.
//! - [`brokers`]: the broker poller: consumer groups, backlog and speeds for `/metrics`
//!   (read-only, bounded, never in the way of the NameServer polls).
//! - [`fan_out`]: many small requests to many brokers at a bounded cost.
//! - [`topic_offsets`]: each user topic's offsets per broker, for its rate.
//! - [`lag`]: the lag poll after each broker round: how long each group's first unread message
//!   has waited (QUERY_CONSUME_TIME_SPAN), at a cost bounded on its own.
//! - [`webhook`]: `--webhook`, alerts posted as JSON from a task of their own.
//! - this file: [`run`] wires the pollers to the live page server.

pub mod brokers;
pub mod cli;
pub mod config;
pub mod fan_out;
pub mod lag;
pub mod plan;
pub mod poller;
pub mod topic_offsets;
pub mod webhook;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use config::{BridgeArgs, BridgeConfig};

use crate::host::clock::now_ms;
use crate::host::live::{self as server, hub, metrics};
use crate::host::web::args::reach_message;
use crate::host::web::conn_limit;
use crate::host::web::page::page_url;
use crate::live::{Source, SourceKind};

/// A running bridge.
#[derive(Debug)]
pub struct BridgeHandle {
    addr: SocketAddr,
    token: Option<String>,
    shutdown: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
    hub: Arc<hub::Hub>,
    /// The history being written, or why there is none.
    history: crate::host::history::Opened,
}

impl BridgeHandle {
    /// The address the server is bound to (the real port when `--listen` asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page to open, with the token when one is required.
    pub fn url(&self) -> String {
        page_url(self.addr, self.token.as_deref())
    }

    /// The live state's hub (for in-process callers and tests).
    pub fn hub(&self) -> &Arc<hub::Hub> {
        &self.hub
    }

    /// The history's start-up line: where it is recorded, or why it is not.
    pub fn history(&self) -> &crate::host::history::Opened {
        &self.history
    }

    /// Stops polling and serving, waits for the tasks to end, then for the history to be written.
    pub async fn shutdown(self) {
        self.shutdown.cancel();
        for task in self.tasks {
            let _ = task.await;
        }
        if let crate::host::history::Opened::Recording { writer, .. } = self.history {
            let _ = tokio::task::spawn_blocking(move || writer.finish()).await;
        }
    }
}

/// Binds the listen address, starts one poller per NameServer and the HTTP server, and returns at
/// once. Fails only when the address cannot be bound.
pub async fn run(config: BridgeConfig) -> std::io::Result<BridgeHandle> {
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    let addr = listener.local_addr()?;
    let metrics = Arc::new(metrics::Metrics::new(&config.namesrvs));
    let source = Source {
        kind: SourceKind::Bridge,
        version: crate::VERSION.to_owned(),
        interval_ms: u64::try_from(config.interval.as_millis()).unwrap_or(u64::MAX),
        read_only: true,
        commands: false,
    };
    let history = crate::host::history::open(&config.history, now_ms);
    if let Some(counters) = history.counters() {
        metrics.watch_history(counters);
    }
    let shutdown = CancellationToken::new();
    let mut tasks = Vec::new();
    let alert_events = config.webhook.clone().map(|w| {
        let (tx, task) = webhook::start(w, shutdown.clone());
        tasks.push(task);
        tx
    });
    let alerts = crate::live::alerts::AlertConfig {
        gone_grace_ms: u64::try_from(config.gone_grace.as_millis()).unwrap_or(u64::MAX),
        interval_ms: u64::try_from(config.interval.as_millis()).unwrap_or(u64::MAX),
        backlog_grace_ms: u64::try_from(config.backlog_grace.as_millis()).unwrap_or(u64::MAX),
        backlog_age_ms: u64::try_from(config.backlog_age.as_millis()).unwrap_or(u64::MAX),
        ..Default::default()
    };
    let hub = Arc::new(
        hub::Hub::new(
            &config.namesrvs,
            source,
            config.viewer_queue,
            Arc::clone(&metrics),
        )
        .with_history(history.sink())
        .with_alerts(alerts, alert_events),
    );
    let settings = Arc::new(poller::PollSettings::from(&config));
    for ns in &config.namesrvs {
        tasks.push(tokio::spawn(poller::run(
            ns.clone(),
            Arc::clone(&settings),
            Arc::clone(&hub),
            Arc::clone(&metrics),
            shutdown.clone(),
        )));
    }
    if let Some(interval) = config.broker_interval {
        let settings = brokers::BrokerPollSettings {
            interval,
            lag_interval: config.lag_interval,
            credentials: config.credentials.clone(),
        };
        tasks.push(tokio::spawn(brokers::run(
            settings,
            Arc::clone(&hub),
            Arc::clone(&metrics),
            shutdown.clone(),
        )));
    }
    let app = Arc::new(server::App {
        hub: Arc::clone(&hub),
        metrics,
        assets: config.dist.clone(),
        listen: addr,
        allow_origins: config.allow_origins.clone(),
        token: config.token.clone(),
        shutdown: shutdown.clone(),
        extra_metrics: None,
        commands: None,
        viewer_slots: server::ViewerSlots::new(config.max_viewers),
        history: history.path().map(Into::into),
        checkpoints: history.checkpoints(),
    });
    let router = server::router(app);
    let stop = shutdown.clone();
    let listener = conn_limit::LimitedListener::new(
        listener,
        config.max_viewers + conn_limit::EXTRA_HTTP_CONNECTIONS,
    );
    tasks.push(tokio::spawn(async move {
        let served = axum::serve(listener, router)
            .with_graceful_shutdown(stop.cancelled_owned())
            .await;
        if let Err(e) = served {
            tracing::error!("the HTTP server stopped: {e}");
        }
    }));
    tracing::info!(%addr, namesrvs = ?config.namesrvs, "bridge started");
    Ok(BridgeHandle {
        addr,
        token: config.token,
        shutdown,
        tasks,
        hub,
        history,
    })
}

/// What the command prints at start: where to look, and who can connect.
pub fn startup_message(addr: SocketAddr, token: Option<&str>, namesrvs: &[String]) -> String {
    let reach = reach_message(addr, token, "--listen");
    format!(
        "routelab bridge: polling {}\n  dashboard: {}\n  {reach}\n  metrics:   {}metrics",
        namesrvs.join(", "),
        page_url(addr, token),
        page_url(addr, None)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startup_message_says_who_can_connect() {
        let ns = vec!["127.0.0.1:9876".to_owned()];
        let local = startup_message("127.0.0.1:7878".parse().unwrap(), None, &ns);
        assert!(local.contains("http://127.0.0.1:7878/\n"));
        assert!(local.contains("bound to 127.0.0.1 only"));
        let open = startup_message("0.0.0.0:7878".parse().unwrap(), Some("a b"), &ns);
        assert!(open.contains("http://127.0.0.1:7878/?token=a%20b"));
        assert!(open.contains("viewers need the token"));
        let open = startup_message("0.0.0.0:7878".parse().unwrap(), None, &ns);
        assert!(open.contains("consider --token"));
    }
}
