//! Helpers for the bridge tests: start a bridge in-process on a free port, a WebSocket viewer that
//! keeps the live state with the same reducer as the dashboard, and a bare HTTP GET. Include with
//! `#[path = "support/bridge.rs"] mod bridge;`.
//!
//! Nothing here measures time: every wait is for a condition, with a generous deadline that only
//! turns a hang into a readable failure.
#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use routelab::bridge::{run, BridgeConfig, BridgeHandle};
use routelab::live::{LiveState, NamesrvStatus, NamesrvView, ServerMessage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The longest any condition may take before the test fails (a loaded machine is slow).
pub const DEADLINE: Duration = Duration::from_secs(60);

/// A bridge config for tests: a free port, a short interval, `dist` as given.
pub fn config(namesrvs: &[String], dist: &Path) -> BridgeConfig {
    let mut c = BridgeConfig::new(namesrvs.to_vec());
    c.listen = "127.0.0.1:0".parse().expect("an address");
    c.interval = Duration::from_millis(300);
    c.dist = dist.to_path_buf().into();
    c
}

pub async fn start(config: BridgeConfig) -> BridgeHandle {
    run(config).await.expect("the bridge starts")
}

/// `ws://ADDR/ws` plus an optional query.
pub fn ws_url(bridge: &BridgeHandle, query: &str) -> String {
    format!("ws://{}/ws{query}", bridge.local_addr())
}

/// What a WebSocket upgrade ended with: connected, or refused with an HTTP status.
pub async fn try_connect(url: &str, origin: Option<&str>) -> Result<Viewer, u16> {
    let mut request = url.into_client_request().expect("a valid URL");
    if let Some(o) = origin {
        request
            .headers_mut()
            .insert("Origin", HeaderValue::from_str(o).expect("a header value"));
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(Viewer::new(ws)),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Err(response.status().as_u16())
        }
        Err(e) => panic!("WebSocket connection to {url} failed: {e}"),
    }
}

pub async fn connect(bridge: &BridgeHandle) -> Viewer {
    try_connect(&ws_url(bridge, ""), None)
        .await
        .unwrap_or_else(|status| panic!("upgrade refused with {status}"))
}

/// A viewer: reads messages, applies them to its [`LiveState`] exactly as the dashboard does.
pub struct Viewer {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub state: LiveState,
    /// Every message received, as text, in order.
    pub texts: Vec<String>,
}

impl Viewer {
    fn new(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Self {
        Self {
            ws,
            state: LiveState::default(),
            texts: Vec::new(),
        }
    }

    /// The next message, applied to the state. Panics on a close, an error or the deadline.
    pub async fn next(&mut self) -> ServerMessage {
        loop {
            let frame = tokio::time::timeout(DEADLINE, self.ws.next())
                .await
                .expect("no message before the deadline")
                .expect("the bridge closed the WebSocket")
                .expect("a WebSocket error");
            let text = match frame {
                Message::Text(t) => t.to_string(),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            };
            let message: ServerMessage =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON {e}: {text}"));
            self.state
                .apply(message.clone())
                .unwrap_or_else(|e| panic!("cannot apply a message: {e}"));
            self.texts.push(text);
            return message;
        }
    }

    /// Reads messages until `pred` holds for the state; returns how many messages that took.
    pub async fn wait_until(&mut self, what: &str, pred: impl Fn(&LiveState) -> bool) -> usize {
        let mut n = 0;
        let waited = tokio::time::timeout(DEADLINE, async {
            while !pred(&self.state) {
                self.next().await;
                n += 1;
            }
        })
        .await;
        if waited.is_err() {
            panic!(
                "waited in vain for: {what}; state now: {}; consumers: {}",
                serde_json::to_string(&self.state.namesrvs).unwrap_or_default(),
                serde_json::to_string(&self.state.consumers).unwrap_or_default()
            );
        }
        n
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send to the bridge");
    }

    /// Reads until the bridge closes the connection; returns the close code, if one was sent.
    pub async fn closed_by_bridge(&mut self) -> Option<u16> {
        let ended = tokio::time::timeout(DEADLINE, async {
            loop {
                match self.ws.next().await {
                    Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => return None,
                }
            }
        })
        .await;
        ended.expect("the bridge did not close the connection")
    }
}

/// The view of one NameServer in a state.
pub fn view<'a>(state: &'a LiveState, addr: &str) -> Option<&'a NamesrvView> {
    state.namesrv(addr)
}

pub fn is_ok(state: &LiveState, addr: &str) -> bool {
    view(state, addr).is_some_and(|v| v.status == NamesrvStatus::Ok)
}

/// A plain HTTP/1.1 GET; returns the status code and the body.
pub async fn http_get(bridge: &BridgeHandle, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(bridge.local_addr())
        .await
        .expect("connect to the bridge");
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("send the request");
    let mut raw = Vec::new();
    tokio::time::timeout(DEADLINE, stream.read_to_end(&mut raw))
        .await
        .expect("a response before the deadline")
        .expect("read the response");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP response");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

/// A metric's value from /metrics text, by its full sample name with labels.
pub fn metric(text: &str, sample: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(sample)?.strip_prefix(' ')?.parse().ok())
}
