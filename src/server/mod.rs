//! `routelab namesrv`: a real RocketMQ NameServer on RouteLab's route manager, for real brokers and
//! clients (native only).
//!
//! tokio, one task per connection; the [`dispatch::State`] (route manager + running config) sits
//! behind one `std::sync::Mutex`, held only while a request is mapped to its response (never across
//! an await). Time is the server's own monotonic clock in ms, passed to the core as `now_ms`.
//!
//! # Layout
//!
//! - [`config`]: the configuration in the manner of `mqnamesrv`: the Java-named settings, from
//!   defaults, a `-c` file and the flags.
//! - [`config_text`]: the configuration as Java writes it (`-p`, GET_NAMESRV_CONFIG).
//! - [`dispatch`](mod@dispatch): request code → handler, pure over `&mut State` + context.
//! - [`handlers`]: the handlers, grouped by table (broker, routes, kv, config).
//! - [`body`]: legacy / standard JSON bodies, the JSON and zlib register bodies.
//! - [`register_cache`]: each connection's last register body, kept read, so the next costs what changed in it.
//! - `conn`: the per-connection task (frames, idle close, bounded write queue, write timeout).
//! - `liveness`: the expiry scan timer and the periodic KV log.
//! - [`kv_store`]: the KV file (load at start, atomic rewrite).
//! - [`live`]: `--ws`, the tables served live through the host's live page server.
//! - [`metrics`]: the Prometheus families of `/metrics`.
//! - [`args`]: the flags (`-c`, `-p`, `--listen`, `--profile` …).
//! - [`cli`]: `routelab namesrv` as a command.

pub mod args;
pub mod body;
pub mod cli;
pub mod config;
pub mod config_text;
mod conn;
pub mod dispatch;
pub mod handlers;
pub mod kv_store;
pub mod live;
mod liveness;
pub mod metrics;
pub mod register_cache;

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

pub use args::NamesrvArgs;
pub use config::{ServerConfig, Settings};
pub use dispatch::{dispatch, Outcome, State};
pub use handlers::Ctx;

use crate::model::BrokerAddr;
use crate::namesrv::{ChannelId, Event, RemovalReason};

/// The server's clock: wall time at start plus monotonic time since, so `now_ms` never goes back.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    start: Instant,
    epoch_ms: u64,
}

impl Clock {
    fn new() -> Self {
        let epoch_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        Self {
            start: Instant::now(),
            epoch_ms,
        }
    }

    /// Milliseconds since the Unix epoch (monotonic).
    pub fn now_ms(&self) -> u64 {
        let elapsed = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.epoch_ms.saturating_add(elapsed)
    }
}

/// State shared by the accept loop, the connections and the timers.
pub struct Shared {
    state: Mutex<State>,
    clock: Clock,
    /// Bumped after every change of the tables; watchers (the live view) wake on it.
    changes: watch::Sender<u64>,
    /// Each open connection's stop switch, so the scan can close an expired broker's channel.
    conns: Mutex<HashMap<ChannelId, CancellationToken>>,
    next_channel: AtomicU64,
    kv_seq: AtomicU64,
    kv: kv_store::KvStore,
    /// Numbers the config snapshots UPDATE_NAMESRV_CONFIG takes, and the last one written, so two
    /// updates racing to disk never leave the older one there.
    config_seq: AtomicU64,
    config_written: tokio::sync::Mutex<u64>,
    shutdown: CancellationToken,
    metrics: metrics::ServerMetrics,
    /// What the connections' kept register bodies may take together.
    register_cache: Arc<register_cache::CacheBudget>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic inside the core cannot leave the lock's data half-written in a way later requests
    // depend on more than on the server staying up; keep serving.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// The clock requests are stamped with.
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// A read of the state (tables, config) under the lock.
    pub fn with_state<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&lock(&self.state))
    }

    /// The counters `/metrics` shows.
    pub fn metrics(&self) -> &metrics::ServerMetrics {
        &self.metrics
    }

    /// The NameServer's part of `/metrics`, in the text format.
    pub fn metrics_text(&self) -> String {
        let now = self.now_ms();
        self.with_state(|s| {
            self.metrics
                .render(s.routes.broker_live_table(), now, &self.register_cache)
        })
    }

    /// A receiver woken after each change of the tables.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn new_channel(&self) -> ChannelId {
        ChannelId(self.next_channel.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// Handles one request: dispatch under the lock, then announce changes and persist the KV
    /// store outside it.
    async fn handle(&self, ctx: &Ctx, frame: &crate::remoting::Frame) -> Outcome {
        let started = Instant::now();
        let (outcome, kv, config) = {
            let mut state = lock(&self.state);
            let outcome = dispatch(&mut state, ctx, frame);
            let kv = outcome.kv_changed.then(|| {
                (
                    self.kv_seq.fetch_add(1, Ordering::Relaxed) + 1,
                    state.routes.kv().clone(),
                )
            });
            // What GET_NAMESRV_CONFIG now answers is what Java's `persist()` writes: every item.
            let config = outcome.config_changed.then(|| {
                (
                    self.config_seq.fetch_add(1, Ordering::Relaxed) + 1,
                    state.config.settings.config_store_path.clone(),
                    config_text::properties_text(&state.config.all_items()),
                )
            });
            (outcome, kv, config)
        };
        self.metrics.observe(frame.command.code, started.elapsed());
        self.announce(&outcome.events);
        // Liveness refreshes change no table but do change heartbeat ages: tell the live view.
        if outcome.events.is_empty()
            && matches!(
                frame.command.code,
                crate::remoting::RequestCode::QUERY_DATA_VERSION
                    | crate::remoting::RequestCode::BROKER_HEARTBEAT
            )
        {
            self.changes.send_modify(|n| *n = n.wrapping_add(1));
        }
        if let Some((seq, kv)) = kv {
            if let Err(e) = self.kv.save(seq, kv).await {
                tracing::error!(path = %self.kv.path().display(), "cannot persist the KV config: {e}");
            }
        }
        if let Some((seq, path, text)) = config {
            self.persist_config(seq, path, text).await;
        }
        outcome
    }

    /// Writes config snapshot `seq` to `configStorePath` unless a newer one is already there. As in
    /// Java, a failed write is logged and the update stands (it already answered SUCCESS).
    async fn persist_config(&self, seq: u64, path: std::path::PathBuf, text: String) {
        let mut written = self.config_written.lock().await;
        if seq <= *written {
            return;
        }
        let shown = path.display().to_string();
        let result = tokio::task::spawn_blocking(move || {
            kv_store::replace_file_keeping(&path, text.as_bytes(), true)
        })
        .await
        .map_err(io::Error::other)
        .and_then(|r| r);
        match result {
            Ok(()) => *written = seq,
            Err(e) => tracing::error!(path = %shown, "cannot persist the config: {e}"),
        }
    }

    /// A connection ended: the broker registered on it goes at once (spec §2.4).
    fn channel_closed(&self, channel: ChannelId, remote: Option<&BrokerAddr>, why: RemovalReason) {
        lock(&self.conns).remove(&channel);
        let events = {
            let mut state = lock(&self.state);
            state.routes.on_channel_destroy(channel, remote, why);
            state.routes.drain_events()
        };
        self.announce(&events);
    }

    /// The expiry scan; the channels of expired brokers are closed, as Java closes them.
    fn scan(&self) {
        let now = self.now_ms();
        let (events, channels) = {
            let mut state = lock(&self.state);
            let channels: Vec<ChannelId> = state
                .routes
                .broker_live_table()
                .expired(now)
                .into_iter()
                .map(|(_, live)| live.channel)
                .collect();
            state.routes.scan_not_active_brokers(now);
            (state.routes.drain_events(), channels)
        };
        let conns = lock(&self.conns);
        for channel in channels {
            if let Some(token) = conns.get(&channel) {
                token.cancel();
            }
        }
        drop(conns);
        self.announce(&events);
    }

    fn announce(&self, events: &[Event]) {
        if events.is_empty() {
            return;
        }
        for event in events {
            tracing::info!(?event, "route change");
        }
        self.metrics
            .route_changes
            .fetch_add(events.len() as u64, Ordering::Relaxed);
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// A running server.
pub struct ServerHandle {
    local_addr: SocketAddr,
    ws_addr: Option<SocketAddr>,
    /// The history's start-up line, with `--ws`.
    history_line: Option<String>,
    shared: Arc<Shared>,
    tasks: JoinSet<()>,
}

impl ServerHandle {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Where `--ws` serves the dashboard, `/ws` and `/metrics`.
    pub fn ws_addr(&self) -> Option<SocketAddr> {
        self.ws_addr
    }

    /// Where `--ws`'s history is recorded, or why it is not (the start-up line).
    pub fn history_line(&self) -> Option<&str> {
        self.history_line.as_deref()
    }

    /// The shared state (for the live view and tests).
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Stops accepting, closes every connection and waits for the tasks.
    pub async fn shutdown(mut self) {
        self.shared.shutdown.cancel();
        while self.tasks.join_next().await.is_some() {}
    }
}

/// Binds, loads the KV file, starts the accept loop and the timers.
pub async fn run(config: ServerConfig) -> io::Result<ServerHandle> {
    let store = kv_store::KvStore::new(config.settings.kv_config_path.clone());
    let kv = store.load()?;
    let listener = TcpListener::bind(config.listen).await?;
    let local_addr = listener.local_addr()?;
    let ws = config.ws;
    let access = config.ws_access.clone();
    let history = config.ws_history.clone();
    let commands = config.ws_commands.clone();
    let register_cache = Arc::new(register_cache::CacheBudget::new(
        config.register_cache_bytes,
    ));
    let mut state = State::new(config);
    state.routes.restore_kv(kv);
    let shared = Arc::new(Shared {
        state: Mutex::new(state),
        clock: Clock::new(),
        changes: watch::channel(0).0,
        conns: Mutex::new(HashMap::new()),
        next_channel: AtomicU64::new(0),
        kv_seq: AtomicU64::new(0),
        kv: store,
        config_seq: AtomicU64::new(0),
        config_written: tokio::sync::Mutex::new(0),
        shutdown: CancellationToken::new(),
        metrics: metrics::ServerMetrics::default(),
        register_cache,
    });
    let mut tasks = JoinSet::new();
    let (ws_addr, history_line) = match ws {
        Some(ws) => {
            let (addr, line) = live::start(
                Arc::clone(&shared),
                ws,
                access,
                commands,
                &history,
                local_addr,
                &mut tasks,
            )
            .await?;
            (Some(addr), Some(line))
        }
        None => (None, None),
    };
    tasks.spawn(accept_loop(Arc::clone(&shared), listener));
    tasks.spawn(liveness::scan_loop(Arc::clone(&shared)));
    tasks.spawn(liveness::kv_log_loop(Arc::clone(&shared)));
    Ok(ServerHandle {
        local_addr,
        ws_addr,
        history_line,
        shared,
        tasks,
    })
}

async fn accept_loop(shared: Arc<Shared>, listener: TcpListener) {
    let mut conns = JoinSet::new();
    let max = shared.with_state(|s| s.config.max_connections);
    // One permit per open connection, held by its task: a count that cannot drift.
    let slots = Arc::new(Semaphore::new(max.min(Semaphore::MAX_PERMITS)));
    loop {
        let accepted = tokio::select! {
            () = shared.shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
            // Reap finished connection tasks so the set does not grow.
            Some(_) = conns.join_next(), if !conns.is_empty() => continue,
        };
        match accepted {
            Ok((stream, peer)) => match Arc::clone(&slots).try_acquire_owned() {
                Ok(slot) => {
                    conns.spawn(conn::serve(Arc::clone(&shared), stream, peer, slot));
                }
                // Accepted and dropped at once: the peer sees the close instead of waiting in the
                // backlog, and the connections already open are not slowed.
                Err(_) => {
                    let refused = shared
                        .metrics
                        .connections_refused
                        .fetch_add(1, Ordering::Relaxed)
                        + 1;
                    tracing::warn!(%peer, refused, "closing a new connection: {max} open already (--max-connections)");
                    drop(stream);
                }
            },
            // Out of file descriptors and the like: back off instead of spinning.
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }
    while conns.join_next().await.is_some() {}
}

#[cfg(test)]
mod tests;
