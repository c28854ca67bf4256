//! HTTP: the dashboard's files, `/` (live mode's page, `live.html`) with the live marker, `/ws` (Origin and token checked before the
//! upgrade), `/metrics`, and the history's `/history/changes` and `/history/at` ([`super::history_api`]).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use tokio_util::sync::CancellationToken;

use super::access::{check_origin, check_token, Refusal};
use super::assets::{content_type, how_to_build, Assets};
use super::delivery;
use super::hub::{Hub, MessageKind, Outgoing};
use super::metrics::{render, Metrics};
use super::page::{inject_live_meta, live_ws_url, not_built_page};
use crate::live::ClientMessage;

/// Largest message a viewer may send: a resync request is about 20 bytes.
const MAX_VIEWER_MESSAGE: usize = 4 * 1024;

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
    pub checkpoints: std::sync::Arc<crate::history::Checkpoints>,
}

/// At most `max` viewers at once, counted from the upgrade on, so upgrades racing each other
/// cannot overshoot.
#[derive(Debug)]
pub struct ViewerSlots {
    max: usize,
    taken: Arc<AtomicUsize>,
}

impl ViewerSlots {
    pub fn new(max: usize) -> Self {
        Self {
            max,
            taken: Arc::default(),
        }
    }

    fn try_take(&self) -> Option<ViewerSlot> {
        self.taken
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| ViewerSlot(Arc::clone(&self.taken)))
    }
}

/// One viewer's slot, given back on drop (also when the upgrade never completes).
struct ViewerSlot(Arc<AtomicUsize>);

impl Drop for ViewerSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(LIVE_PAGE_PATH, get(index))
        .route("/ws", get(ws))
        .route("/metrics", get(metrics))
        .route("/history/changes", get(super::history_api::changes))
        .route("/history/at", get(super::history_api::at))
        .fallback(dashboard_file)
        .with_state(app)
}

/// A file of the dashboard (`index.html` for a directory), or 404.
async fn dashboard_file(
    State(app): State<Arc<App>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    asset_response(&app.assets, uri.path(), &headers).await
}

/// The dashboard's file at URL path `path` (`index.html` for a directory) as [`delivery`] says:
/// the copy compressed at build time the client accepts, cached for good when its name is its
/// hash, else revalidated by ETag (304 when the client's copy is current); or 404. Shared with
/// `routelab classroom`.
///
/// The connection closes after the file: a page loads its five files once and then keeps only its
/// WebSocket, while a browser would hold its idle file connections open for minutes, each taking
/// one of the connections the server allows (200 students loading at once stalled behind them).
pub(crate) async fn asset_response(assets: &Assets, path: &str, headers: &HeaderMap) -> Response {
    let mut path = path.trim_start_matches('/').to_owned();
    if path.is_empty() || path.ends_with('/') {
        path.push_str("index.html");
    }
    let accept = header_text(headers, header::ACCEPT_ENCODING);
    let Some(found) = assets.read_for(&path, accept).await else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let mut response =
        if delivery::not_modified(header_text(headers, header::IF_NONE_MATCH), &found.etag) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            // A file inside the binary is sent from where it lies, not copied per request.
            let body = match found.bytes {
                std::borrow::Cow::Borrowed(b) => axum::body::Body::from(b),
                std::borrow::Cow::Owned(v) => axum::body::Body::from(v),
            };
            let mut r = body.into_response();
            if let Some(enc) = found.encoding.header() {
                r.headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static(enc));
            }
            r
        };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&content_type(&path)) {
        h.insert(header::CONTENT_TYPE, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(delivery::cache_control(&path)),
    );
    // The body depends on Accept-Encoding: shared caches must keep one copy per encoding.
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(v) = HeaderValue::from_str(&found.etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// A request header's value as text, `None` when absent or not text.
fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Live mode's page: what `/` serves. The workshop (`/index.html`) is served as built, so "Fork into
/// simulator" and the "Simulator" button open the simulator on the bridge's own origin.
const LIVE_PAGE_PATH: &str = "/live.html";

async fn index(
    State(app): State<Arc<App>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let path = LIVE_PAGE_PATH.trim_start_matches('/');
    match app.assets.read(path).await {
        Some(html) => {
            let html = String::from_utf8_lossy(&html);
            // The token goes into the page only for someone who already opened it with the token.
            let token = app
                .token
                .as_deref()
                .filter(|_| check_token(query.as_deref(), app.token.as_deref()).is_ok());
            let page = inject_live_meta(&html, &live_ws_url(token));
            // live.html changes with each build and carries the marker: always revalidated, by
            // the ETag of what this request would get.
            let etag = delivery::etag_of(page.as_bytes());
            let cache = [
                (header::CACHE_CONTROL, delivery::REVALIDATE.to_owned()),
                (header::ETAG, etag.clone()),
                // As for the files (see asset_response).
                (header::CONNECTION, "close".to_owned()),
            ];
            if delivery::not_modified(header_text(&headers, header::IF_NONE_MATCH), &etag) {
                (StatusCode::NOT_MODIFIED, cache).into_response()
            } else {
                (cache, Html(page)).into_response()
            }
        }
        None => {
            tracing::debug!("no {path} {}", app.assets.describe());
            Html(not_built_page(&app.assets.describe(), how_to_build())).into_response()
        }
    }
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    let data = app
        .metrics
        .data(app.hub.viewer_count() as u64, app.hub.seq());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        render(&data)
            + &super::metrics::render_alerts(&app.hub.alerts())
            + &app
                .extra_metrics
                .as_ref()
                .map_or_else(String::new, |m| (m.0)()),
    )
        .into_response()
}

async fn ws(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    // A header that is not text cannot be one of our origins: pass it on as such to be refused.
    let origin = headers
        .get(header::ORIGIN)
        .map(|v| v.to_str().unwrap_or("(not text)"));
    let access = check_origin(origin, app.listen, &app.allow_origins)
        .and_then(|()| check_token(query.as_deref(), app.token.as_deref()));
    match access {
        Err(Refusal::Origin(o)) => {
            tracing::warn!(origin = %o, "refused a WebSocket from another origin (see --allow-origin)");
            return (
                StatusCode::FORBIDDEN,
                "origin not allowed (see --allow-origin)\n",
            )
                .into_response();
        }
        Err(Refusal::Token) => {
            tracing::warn!("refused a WebSocket without the right ?token=");
            return (StatusCode::UNAUTHORIZED, "missing or wrong ?token=\n").into_response();
        }
        Ok(()) => {}
    }
    let Some(slot) = app.viewer_slots.try_take() else {
        let max = app.viewer_slots.max;
        app.metrics
            .viewers_refused_full
            .fetch_add(1, Ordering::Relaxed);
        tracing::warn!("refused a WebSocket: {max} viewers connected already (--max-viewers)");
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("too many viewers: {max} connected already (--max-viewers); try again later\n"),
        )
            .into_response();
    };
    match upgrade {
        Ok(u) => u
            .max_message_size(MAX_VIEWER_MESSAGE)
            .on_upgrade(move |socket| serve_viewer(app, socket, slot)),
        Err(rejection) => rejection.into_response(),
    }
}

/// How a viewer connection ended.
enum End {
    /// The viewer closed, or the connection broke.
    Gone,
    /// The viewer sent something other than a resync request.
    BadInput(String),
    /// Reading failed: the connection dropped without a close, or a frame was invalid or too big.
    Broken(String),
    /// The hub dropped the viewer (its queue was full), or the bridge is stopping.
    Kicked,
}

async fn serve_viewer(app: Arc<App>, socket: WebSocket, slot: ViewerSlot) {
    let mut viewer = app.hub.connect();
    let id = viewer.id;
    tracing::info!(viewer = id, "viewer connected");
    let (mut sink, mut stream) = socket.split();
    let end = {
        let writer = async {
            while let Some(out) = viewer.rx.recv().await {
                send(&mut sink, out, &app.metrics).await?;
            }
            Ok::<(), axum::Error>(())
        };
        let reader = async {
            while let Some(message) = stream.next().await {
                match message {
                    Ok(Message::Text(text)) => {
                        match serde_json::from_str::<ClientMessage>(text.as_str()) {
                            Ok(ClientMessage::Resync) => app.hub.resync(id),
                            Ok(ClientMessage::Command { text }) => match &app.commands {
                                Some(sink) => {
                                    tracing::info!(viewer = id, command = %text, "viewer command");
                                    (sink.0)(text);
                                }
                                None => {
                                    return End::BadInput("this server takes no commands".into())
                                }
                            },
                            Err(e) => return End::BadInput(format!("not a known request: {e}")),
                        }
                    }
                    Ok(Message::Binary(_)) => {
                        return End::BadInput("binary messages are not understood".into())
                    }
                    // Pings are answered by the WebSocket layer.
                    Ok(Message::Ping(_) | Message::Pong(_)) => {}
                    Ok(Message::Close(_)) => return End::Gone,
                    // A dropped connection, a broken frame or one over the size limit: nothing
                    // to answer, the connection just ends.
                    Err(e) => return End::Broken(e.to_string()),
                }
            }
            End::Gone
        };
        tokio::select! {
            _ = writer => End::Gone,
            end = reader => end,
            _ = viewer.kicked.cancelled() => End::Kicked,
            _ = app.shutdown.cancelled() => End::Kicked,
        }
    };
    match end {
        End::BadInput(why) => {
            tracing::info!(viewer = id, "closing a viewer: {why}");
            app.metrics
                .viewers_closed_bad_input
                .fetch_add(1, Ordering::Relaxed);
            let frame = CloseFrame {
                // 1008: policy violation — the only thing a viewer may send is a resync request.
                code: 1008,
                reason: "only {\"type\":\"resync\"} is accepted".into(),
            };
            // Bounded: the viewer may not be reading either.
            let _ = tokio::time::timeout(
                Duration::from_secs(1),
                sink.send(Message::Close(Some(frame))),
            )
            .await;
        }
        // Its socket is full or we are stopping: dropping it closes the TCP connection at once.
        End::Kicked => tracing::info!(viewer = id, "viewer disconnected by the bridge"),
        End::Gone => tracing::info!(viewer = id, "viewer left"),
        End::Broken(why) => tracing::info!(viewer = id, "viewer connection ended: {why}"),
    }
    // Before the hub forgets the viewer, so whoever sees the viewer count drop can connect.
    drop(slot);
    drop(viewer);
}

async fn send(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    out: Outgoing,
    metrics: &Metrics,
) -> Result<(), axum::Error> {
    let len = out.text.len() as u64;
    sink.send(Message::Text(out.text)).await?;
    let counter = match out.kind {
        MessageKind::Snapshot => &metrics.snapshots_sent,
        MessageKind::Update => &metrics.updates_sent,
    };
    counter.fetch_add(1, Ordering::Relaxed);
    metrics.bytes_sent.fetch_add(len, Ordering::Relaxed);
    Ok(())
}
