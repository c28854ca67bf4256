//! The page at `/`: the built dashboard's live.html (live mode's own bundle) with the live-mode
//! marker, or a short page explaining how to build the dashboard. Pure.
//!
//! The contract with the dashboard: a `<meta name="routelab-live" content="WS-URL">` in the head
//! tells it to connect to `WS-URL` (relative to the page). Trunk's output is served unchanged
//! otherwise, so the same `dist/` works with `trunk serve` (the workshop at `/`).

use std::net::SocketAddr;

/// The marker's name.
pub const LIVE_META_NAME: &str = "routelab-live";

/// The `content` of the marker: `/ws`, with the token when the page itself was opened with the
/// right one (whoever asks already knows it, and the dashboard needs it to connect).
pub fn live_ws_url(token: Option<&str>) -> String {
    match token {
        Some(t) => format!("/ws?token={}", percent_encode(t)),
        None => "/ws".to_owned(),
    }
}

/// Inserts the marker just before `</head>` (matched without regard to case). A document without
/// one gets the marker at the very start, which browsers still read as part of the head.
pub fn inject_live_meta(html: &str, ws_url: &str) -> String {
    let meta = format!(
        r#"<meta name="{LIVE_META_NAME}" content="{}">"#,
        escape_html(ws_url)
    );
    let at = html.to_ascii_lowercase().find("</head>").unwrap_or(0);
    let mut out = String::with_capacity(html.len() + meta.len() + 1);
    out.push_str(&html[..at]);
    out.push_str(&meta);
    if at == 0 {
        out.push('\n');
    }
    out.push_str(&html[at..]);
    out
}

/// What `/` answers when the dashboard is not there: where it was looked for, how to get it
/// (`how`, from [`super::assets::how_to_build`]), and what works meanwhile.
pub fn not_built_page(looked_in: &str, how: &str) -> String {
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>RouteLab bridge</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">
<h1>RouteLab bridge</h1>
<p>The bridge is running, but it has no dashboard to show: there is no <code>live.html</code> in
<code>{}</code>.</p>
<p>To get one: {}. Then reload this page.</p>
<p>Meanwhile the live state is served at <a href="/ws"><code>/ws</code></a> (WebSocket, see
docs/live-protocol.md) and metrics at <a href="/metrics"><code>/metrics</code></a>.</p>
</body>
</html>
"#,
        escape_html(looked_in),
        escape_html(how)
    )
}

/// Escapes text for an HTML attribute or element.
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a query value (RFC 3986 unreserved characters stay).
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `http://ADDR/`, with `?token=` when one is required. An unspecified bind address (0.0.0.0)
/// is shown as 127.0.0.1, which works from this machine.
pub fn page_url(addr: SocketAddr, token: Option<&str>) -> String {
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::from(([127, 0, 0, 1], addr.port()))
    } else {
        addr
    };
    let base = format!("http://{shown}/");
    match token {
        Some(t) => format!(
            "{base}?token={}",
            live_ws_url(Some(t)).trim_start_matches("/ws?token=")
        ),
        None => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_goes_just_before_head_end() {
        let html = "<html><head><title>x</title></HEAD><body></body></html>";
        assert_eq!(
            inject_live_meta(html, "/ws"),
            r#"<html><head><title>x</title><meta name="routelab-live" content="/ws"></HEAD><body></body></html>"#
        );
    }

    #[test]
    fn only_the_first_head_end_is_used() {
        let html = "<head></head><body><pre>&lt;/head&gt;</head></pre></body>";
        let out = inject_live_meta(html, "/ws");
        assert!(out.starts_with(r#"<head><meta name="routelab-live" content="/ws"></head><body>"#));
    }

    #[test]
    fn without_a_head_the_meta_comes_first() {
        assert_eq!(
            inject_live_meta("<p>hi</p>", "/ws"),
            "<meta name=\"routelab-live\" content=\"/ws\">\n<p>hi</p>"
        );
    }

    #[test]
    fn the_url_is_escaped() {
        assert_eq!(live_ws_url(None), "/ws");
        assert_eq!(live_ws_url(Some("a b&\"")), "/ws?token=a%20b%26%22");
        let out = inject_live_meta("</head>", "/ws?token=a&b=\"");
        assert!(out.contains(r#"content="/ws?token=a&amp;b=&quot;""#));
    }

    #[test]
    fn not_built_page_says_how() {
        let page = not_built_page("<dist>", "run `trunk build --release`");
        assert!(page.contains("run `trunk build --release`"));
        assert!(page.contains("&lt;dist&gt;"));
        assert!(page.contains("/metrics"));
    }
}
