//! The history over HTTP, for the live page's timeline: `GET /history/changes` (what changed in a
//! time range) and `GET /history/at` (every NameServer's view and the alerts as of a moment,
//! rebuilt by [`crate::live::replay`]; with `from=live`, as what differs from the live views, which
//! is what the page asks for). The same token as `/ws` guards them; they read the database on a
//! blocking thread, on a connection of their own, so polling and writing never wait for them.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::app::App;
use crate::host::history::{Query as HistoryQuery, Store};
use crate::host::web::access::check_token;
use crate::live::replay::Changes;

/// The most records `/history/changes` answers with (the newest of the range).
pub const MAX_CHANGES: usize = 5_000;

#[derive(Debug, Deserialize)]
pub struct ChangesParams {
    /// From (ms since the Unix epoch); default: a day before `until`.
    pub since: Option<u64>,
    /// To; default: now.
    pub until: Option<u64>,
}

#[derive(Debug, Deserialize)]
pub struct AtParams {
    /// The moment (ms since the Unix epoch).
    pub t: u64,
    /// `live`: answer with what differs from the live views (`from_live`) instead of whole views.
    pub from: Option<PastFrom>,
}

/// What `/history/at`'s answer is made from (`from=`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PastFrom {
    Live,
}

fn refuse(status: StatusCode, error: String) -> Response {
    (status, Json(serde_json::json!({ "error": error }))).into_response()
}

/// The history's path and the request's parameters, or the status and words to refuse with (not a
/// `Response`: clippy finds it too large an `Err`): the token checked first, then that there is a
/// history, then the parameters (`usage` says what they are).
fn checked<P>(
    app: &App,
    query: Option<&str>,
    params: Result<Query<P>, QueryRejection>,
    usage: &str,
) -> Result<(PathBuf, P), (StatusCode, String)> {
    if check_token(query, app.token.as_deref()).is_err() {
        return Err((StatusCode::UNAUTHORIZED, "missing or wrong ?token=".into()));
    }
    let Some(path) = app.history.clone() else {
        return Err((
            StatusCode::NOT_FOUND,
            crate::live::history::NO_HISTORY_REASON.into(),
        ));
    };
    match params {
        Ok(Query(p)) => Ok((path, p)),
        Err(_) => Err((StatusCode::BAD_REQUEST, usage.into())),
    }
}

async fn blocking<T: Serialize + Send + 'static>(
    f: impl FnOnce() -> Result<T, crate::host::history::StoreError> + Send + 'static,
) -> Response {
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(body)) => Json(body).into_response(),
        Ok(Err(e)) => refuse(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

pub async fn changes(
    State(app): State<Arc<App>>,
    RawQuery(raw): RawQuery,
    params: Result<Query<ChangesParams>, QueryRejection>,
) -> Response {
    let usage = "since and until are milliseconds since 1970";
    let (path, p) = match checked(&app, raw.as_deref(), params, usage) {
        Ok(checked) => checked,
        Err((status, why)) => return refuse(status, why),
    };
    let until_ms = p.until.unwrap_or_else(crate::host::clock::now_ms);
    let since_ms = p.since.unwrap_or(until_ms.saturating_sub(24 * 3_600_000));
    blocking(move || {
        let store = Store::open_for_reading(&path)?;
        let (mut records, _) = store.query(&HistoryQuery {
            since_ms,
            until_ms,
            ..HistoryQuery::default()
        })?;
        let truncated = records.len() > MAX_CHANGES;
        if truncated {
            records.drain(..records.len() - MAX_CHANGES);
        }
        Ok(Changes {
            since_ms,
            until_ms,
            records,
            truncated,
        })
    })
    .await
}

pub async fn at(
    State(app): State<Arc<App>>,
    RawQuery(raw): RawQuery,
    params: Result<Query<AtParams>, QueryRejection>,
) -> Response {
    let usage = "t is milliseconds since 1970, e.g. ?t=1764730000000 (and &from=live for changes from the live views)";
    let (path, p) = match checked(&app, raw.as_deref(), params, usage) {
        Ok(checked) => checked,
        Err((status, why)) => return refuse(status, why),
    };
    let namesrvs = app.hub.namesrv_addrs();
    blocking(move || {
        let mut past = Store::open_for_reading(&path)?.at(&namesrvs, p.t, &app.checkpoints)?;
        if let Some(PastFrom::Live) = p.from {
            past.from_live = Some(app.hub.from_live(&past.namesrvs));
            past.namesrvs.clear();
        }
        Ok(past)
    })
    .await
}
