//! The live page server's HTTP routes: `/` (live mode's page, `live.html`) with the live marker,
//! the dashboard's other files, `/ws` ([`super::ws`]), `/metrics`, and the history's
//! `/history/changes` and `/history/at` ([`super::history_api`]).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::app::App;
use super::metrics::render;
use super::{history_api, ws};
use crate::host::web::access::check_token;
use crate::host::web::assets::how_to_build;
use crate::host::web::delivery;
use crate::host::web::files::{asset_response, header_text};
use crate::host::web::page::{inject_live_meta, live_ws_url, not_built_page};

/// The routes.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(LIVE_PAGE_PATH, get(index))
        .route("/ws", get(ws::upgrade))
        .route("/metrics", get(metrics))
        .route("/history/changes", get(history_api::changes))
        .route("/history/at", get(history_api::at))
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
            + &super::cluster_metrics::render_alerts(&app.hub.alerts())
            + &app
                .extra_metrics
                .as_ref()
                .map_or_else(String::new, |m| (m.0)()),
    )
        .into_response()
}
