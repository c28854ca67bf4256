//! Which bridge to connect to, from the page: pure functions over the page's address and the
//! `routelab-live` meta tag, so the rules are testable without a browser's location.
//!
//! - A share link (`#scenario=…`) always opens the simulator, even on a page a bridge serves: the
//!   link was made to reproduce a session.
//! - `?live=ws://HOST:PORT/ws` connects there (development under `trunk serve`).
//! - `<meta name="routelab-live" content="/ws">` (the bridge inserts it) connects to that path on the
//!   page's own host, `wss://` when the page came over https.
//! - A `token` query parameter of the page is passed on as `?token=…`.

use crate::sim::scenario::share::HASH_PREFIX;

/// What the rules read from the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// `location.protocol`, e.g. `https:`.
    pub protocol: String,
    /// `location.host`, `host:port`.
    pub host: String,
    /// `location.search`, with its `?`.
    pub search: String,
    /// `location.hash`, with its `#`.
    pub hash: String,
    /// The `routelab-live` meta tag's content, if the page has one.
    pub meta: Option<String>,
}

impl Page {
    /// The current page (empty outside a browser window).
    pub fn current() -> Self {
        let Some(window) = web_sys::window() else {
            return Self::default();
        };
        let loc = window.location();
        let meta = window
            .document()
            .and_then(|d| d.query_selector("meta[name=routelab-live]").ok().flatten())
            .and_then(|m| m.get_attribute("content"));
        Self {
            protocol: loc.protocol().unwrap_or_default(),
            host: loc.host().unwrap_or_default(),
            search: loc.search().unwrap_or_default(),
            hash: loc.hash().unwrap_or_default(),
            meta,
        }
    }

    /// `ws://` or `wss://`, matching the page's own scheme (a https page may not open `ws://`).
    fn ws_scheme(&self) -> &'static str {
        if self.protocol == "https:" {
            "wss://"
        } else {
            "ws://"
        }
    }
}

/// The bridge URL the page asks for, or `None` for the simulator.
pub fn live_url(page: &Page) -> Option<String> {
    if page.hash.starts_with(HASH_PREFIX) {
        return None;
    }
    let url = match query_param(&page.search, "live").filter(|u| !u.trim().is_empty()) {
        Some(url) => url.trim().to_owned(),
        None => {
            let meta = page
                .meta
                .as_deref()
                .map(str::trim)
                .filter(|m| !m.is_empty())?;
            absolute(page, meta)
        }
    };
    Some(with_token(url, query_param(&page.search, "token")))
}

/// The URL offered by the simulator's "Live…" control: the page's own origin.
pub fn default_url(page: &Page) -> String {
    let path = page
        .meta
        .as_deref()
        .filter(|m| !m.is_empty())
        .unwrap_or("/ws");
    with_token(absolute(page, path), query_param(&page.search, "token"))
}

/// A path on the page's host, or an absolute ws(s) URL as given.
fn absolute(page: &Page, path: &str) -> String {
    if path.starts_with("ws://") || path.starts_with("wss://") {
        path.to_owned()
    } else if path.starts_with('/') {
        format!("{}{}{path}", page.ws_scheme(), page.host)
    } else {
        format!("{}{}/{path}", page.ws_scheme(), page.host)
    }
}

/// Appends `token=…` unless the URL carries one already.
fn with_token(url: String, token: Option<String>) -> String {
    match token.filter(|t| !t.is_empty()) {
        Some(t) if query_param(url.split_once('?').map_or("", |(_, q)| q), "token").is_none() => {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}token={}", encode(&t))
        }
        _ => url,
    }
}

/// A query parameter's decoded value (`search` with or without its `?`).
/// The bridge's HTTP address for `path` (e.g. `history/at?t=1`), from its WebSocket URL, with the
/// same token: the history is served beside `/ws`.
pub fn http_url(ws_url: &str, path: &str) -> Option<String> {
    let (scheme, rest) = match ws_url.strip_prefix("wss://") {
        Some(rest) => ("https://", rest),
        None => ("http://", ws_url.strip_prefix("ws://")?),
    };
    let host = rest.split(['/', '?']).next().unwrap_or(rest);
    let token = ws_url
        .split_once('?')
        .and_then(|(_, q)| query_param(q, "token"));
    Some(with_token(format!("{scheme}{host}/{path}"), token))
}

pub fn query_param(search: &str, name: &str) -> Option<String> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k) == name).then(|| decode(v))
        })
        .next()
}

/// Percent-decoding (`+` is a space in a query); a broken escape is kept as written.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encoding of everything but RFC 3986's unreserved characters.
pub(crate) fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
