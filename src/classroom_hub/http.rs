//! The classroom's routes: `/room/ws` (the pages' WebSocket; Origin, room code and token checked
//! before the upgrade), `/room/qr.svg` (the students' link as a QR code for the projector) and the
//! workshop's files.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::hub::{Hub, Role};
use crate::classroom::protocol::{MAX_STUDENT_MESSAGE, MAX_TEACHER_MESSAGE, REPLACED_CLOSE_CODE};
use crate::host::clock::now_ms;
use crate::host::web::access::{check_origin, check_token, Refusal};
use crate::host::web::assets::Assets;
use crate::host::web::files::asset_response;
use crate::host::web::ws_close::{close_with, POLICY_VIOLATION};

/// What the handlers share.
#[derive(Debug)]
pub struct App {
    pub hub: Arc<Hub>,
    pub assets: Assets,
    pub listen: SocketAddr,
    pub allow_origins: Vec<String>,
    pub token: String,
    pub student_url: String,
    pub student_slots: Arc<Semaphore>,
    pub shutdown: CancellationToken,
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/room/ws", get(ws))
        .route("/room/qr.svg", get(qr))
        .fallback(workshop_file)
        .with_state(app)
}

/// The workshop's files, compressed and cached as [`crate::host::web::delivery`] says.
async fn workshop_file(
    State(app): State<Arc<App>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> Response {
    asset_response(&app.assets, uri.path(), &headers).await
}

/// The students' link as an SVG QR code.
async fn qr(State(app): State<Arc<App>>) -> Response {
    match qrcode::QrCode::new(app.student_url.as_bytes()) {
        Ok(code) => {
            let svg = code
                .render::<qrcode::render::svg::Color<'_>>()
                .min_dimensions(240, 240)
                .quiet_zone(true)
                .build();
            (
                [
                    (header::CONTENT_TYPE, "image/svg+xml"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                svg,
            )
                .into_response()
        }
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the link does not fit a QR code: {e}\n"),
        )
            .into_response(),
    }
}

/// `/room/ws`'s query: the room's code, and either the teacher's token or the student's id.
#[derive(Debug, Deserialize)]
struct Join {
    room: Option<String>,
    token: Option<String>,
    student: Option<String>,
}

/// A student's id is their page's: short, and only letters, digits, `-` and `_`.
fn valid_student_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}

async fn ws(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    query: Result<Query<Join>, axum::extract::rejection::QueryRejection>,
    raw: axum::extract::RawQuery,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let origin = headers
        .get(header::ORIGIN)
        .map(|v| v.to_str().unwrap_or("(not text)"));
    if let Err(Refusal::Origin(o)) = check_origin(origin, app.listen, &app.allow_origins) {
        tracing::warn!(origin = %o, "refused a page from another origin (see --allow-origin)");
        return refuse(
            StatusCode::FORBIDDEN,
            "origin not allowed (see --allow-origin)",
        );
    }
    let Ok(Query(join)) = query else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "expected ?room=CODE&student=ID or ?room=CODE&token=TOKEN",
        );
    };
    if join.room.as_deref() != Some(app.hub.code().as_str()) {
        return refuse(
            StatusCode::NOT_FOUND,
            "no such room: check the room's code in the link",
        );
    }
    let role = if join.token.is_some() {
        if check_token(raw.0.as_deref(), Some(&app.token)).is_err() {
            tracing::warn!("refused a teacher's connection with a wrong token");
            return refuse(StatusCode::UNAUTHORIZED, "wrong teacher's token");
        }
        Role::Teacher
    } else {
        match join.student {
            Some(id) if valid_student_id(&id) => Role::Student(id),
            _ => {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "expected &student=ID (1–64 letters, digits, - or _)",
                )
            }
        }
    };
    let slot = match role {
        Role::Teacher => None,
        Role::Student(_) => match Arc::clone(&app.student_slots).try_acquire_owned() {
            Ok(s) => Some(s),
            Err(_) => {
                return refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the room is full (--max-students); try again later",
                )
            }
        },
    };
    let max = match role {
        Role::Teacher => MAX_TEACHER_MESSAGE,
        Role::Student(_) => MAX_STUDENT_MESSAGE,
    };
    match upgrade {
        Ok(u) => u
            .max_message_size(max)
            .on_upgrade(move |socket| serve(app, socket, role, slot)),
        Err(rejection) => rejection.into_response(),
    }
}

/// A student's messages: a burst of this many, then this many a second.
const STUDENT_BURST: f64 = 10.0;
const STUDENT_PER_SEC: f64 = 2.0;

/// A token bucket.
struct Rate {
    tokens: f64,
    at: Instant,
}

impl Rate {
    fn new() -> Self {
        Self {
            tokens: STUDENT_BURST,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * STUDENT_PER_SEC;
        self.tokens = (self.tokens + refill).min(STUDENT_BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// How a connection ended.
enum End {
    Gone,
    /// A student's bad message (the reason is sent in the close frame).
    Refused(String),
    Broken(String),
    Kicked,
    /// Another teacher's page took over.
    Replaced,
}

async fn serve(app: Arc<App>, socket: WebSocket, role: Role, slot: Option<OwnedSemaphorePermit>) {
    let teacher = role == Role::Teacher;
    let mut conn = app.hub.connect(role.clone(), now_ms());
    let id = conn.id;
    tracing::info!(connection = id, ?role, "page connected");
    let (mut sink, mut stream) = socket.split();
    let end = {
        let writer = async {
            while let Some(text) = conn.rx.recv().await {
                sink.send(Message::Text(text.as_ref().into())).await?;
            }
            Ok::<(), axum::Error>(())
        };
        let reader = async {
            let mut rate = Rate::new();
            while let Some(message) = stream.next().await {
                match message {
                    Ok(Message::Text(text)) => {
                        if !teacher && !rate.take() {
                            return End::Refused("too many messages".into());
                        }
                        if let Err(why) = app.hub.message(id, text.as_str(), now_ms()) {
                            if !teacher {
                                return End::Refused(why);
                            }
                            tracing::warn!(connection = id, "refused the teacher's message: {why}");
                            let refused = crate::classroom::protocol::HubMsg::Refused { why };
                            app.hub.reply(id, &refused);
                        }
                    }
                    Ok(Message::Binary(_)) => {
                        if !teacher {
                            return End::Refused("binary messages are not understood".into());
                        }
                    }
                    Ok(Message::Ping(_) | Message::Pong(_)) => {}
                    Ok(Message::Close(_)) => return End::Gone,
                    Err(e) => return End::Broken(e.to_string()),
                }
            }
            End::Gone
        };
        tokio::select! {
            _ = writer => End::Gone,
            end = reader => end,
            _ = conn.kicked.cancelled() => End::Kicked,
            _ = conn.replaced.cancelled() => End::Replaced,
            _ = app.shutdown.cancelled() => End::Kicked,
        }
    };
    app.hub.disconnect(id);
    drop(slot);
    let close: Option<(u16, String)> = match end {
        End::Refused(why) => {
            tracing::info!(connection = id, "closing a student's page: {why}");
            Some((POLICY_VIOLATION, why))
        }
        End::Replaced => {
            tracing::info!(connection = id, "another teacher's page took over");
            Some((
                REPLACED_CLOSE_CODE,
                "another page took over as the teacher's".into(),
            ))
        }
        End::Kicked => {
            tracing::info!(connection = id, "page disconnected by the hub");
            None
        }
        End::Gone => {
            tracing::info!(connection = id, "page left");
            None
        }
        End::Broken(why) => {
            tracing::info!(connection = id, "page's connection ended: {why}");
            None
        }
    };
    if let Some((code, why)) = close {
        close_with(&mut sink, code, &why).await;
    }
}
