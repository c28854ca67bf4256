//! The dashboard's files over HTTP: one response per file, with the encoding, caching and ETag
//! rules of [`super::delivery`]. Shared by the live page server and `routelab classroom`.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::assets::{content_type, Assets};
use super::delivery;

/// The dashboard's file at URL path `path` (`index.html` for a directory) as [`super::delivery`] says:
/// the copy compressed at build time the client accepts, cached for good when its name is its
/// hash, else revalidated by ETag (304 when the client's copy is current); or 404.
///
/// The connection closes after the file: a page loads its five files once and then keeps only its
/// WebSocket, while a browser would hold its idle file connections open for minutes, each taking
/// one of the connections the server allows (200 students loading at once stalled behind them).
pub async fn asset_response(assets: &Assets, path: &str, headers: &HeaderMap) -> Response {
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
pub fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}
