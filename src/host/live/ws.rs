//! `/ws`: a viewer's WebSocket — Origin, token and the viewer limit checked before the upgrade,
//! then the hub's messages out and only resync requests (or a demo's commands) in.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use futures_util::{SinkExt, StreamExt};

use super::app::{App, ViewerSlot};
use super::hub::{MessageKind, Outgoing};
use super::metrics::Metrics;
use crate::host::web::access::{check_origin, check_token, Refusal};
use crate::host::web::ws_close::{close_with, POLICY_VIOLATION};
use crate::live::ClientMessage;

/// Largest message a viewer may send: a resync request is about 20 bytes.
const MAX_VIEWER_MESSAGE: usize = 4 * 1024;

pub(super) async fn upgrade(
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
            // The only thing a viewer may send is a resync request.
            close_with(
                &mut sink,
                POLICY_VIOLATION,
                "only {\"type\":\"resync\"} is accepted",
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
