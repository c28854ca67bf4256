//! `--webhook URL`: each alert firing or resolving is POSTed there as JSON, from a task of its
//! own, so a receiver that is down or slow never delays a poll. A failed delivery is retried with
//! backoff (1 s, 2 s, 4 s, 8 s, then given up and logged); events are delivered in order.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde::Serialize;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio_util::sync::CancellationToken;

use crate::live::alerts::{Alert, AlertEvent};

/// Attempts per event.
const ATTEMPTS: u32 = 5;
/// One attempt (connect, send, answer) may take this long.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where to post: `http://host:port/path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Webhook {
    pub url: String,
    authority: String,
    path: String,
}

impl Webhook {
    /// Parses `--webhook`: plain `http://` only (put a TLS proxy in front for https).
    pub fn parse(url: &str) -> Result<Self, String> {
        let uri: hyper::Uri = url
            .parse()
            .map_err(|e| format!("--webhook {url:?}: not a URL ({e})"))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => {
                return Err(format!(
                    "--webhook {url:?}: https is not supported; post to an http:// receiver (Alertmanager's webhook receivers usually are) or through a local TLS proxy"
                ))
            }
            _ => return Err(format!("--webhook {url:?}: expected http://HOST[:PORT]/PATH")),
        }
        let authority = uri
            .authority()
            .ok_or_else(|| format!("--webhook {url:?}: no host"))?;
        let authority = if authority.port().is_some() {
            authority.to_string()
        } else {
            format!("{}:80", authority.host())
        };
        let path = uri
            .path_and_query()
            .map_or("/".to_owned(), |p| p.as_str().to_owned());
        Ok(Self {
            url: url.to_owned(),
            authority,
            path,
        })
    }
}

/// The body posted for each event.
#[derive(Debug, Serialize)]
pub struct Payload<'a> {
    /// `firing` or `resolved` (Alertmanager's words).
    pub status: &'static str,
    /// When it fired or resolved (ms since the Unix epoch).
    pub at_ms: u64,
    pub alert: &'a Alert,
    /// Who sent it: `routelab bridge` and its version.
    pub source: String,
}

/// Starts the task posting what arrives on the returned sender.
pub fn start(
    webhook: Webhook,
    shutdown: CancellationToken,
) -> (UnboundedSender<AlertEvent>, tokio::task::JoinHandle<()>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let task = tokio::spawn(run(webhook, rx, shutdown));
    (tx, task)
}

async fn run(webhook: Webhook, mut rx: UnboundedReceiver<AlertEvent>, shutdown: CancellationToken) {
    loop {
        let event = tokio::select! {
            () = shutdown.cancelled() => return,
            e = rx.recv() => match e { Some(e) => e, None => return },
        };
        let (status, at_ms, alert) = match &event {
            AlertEvent::Fired(a) => ("firing", crate::host::clock::now_ms(), a),
            AlertEvent::Resolved { alert, at_ms } => ("resolved", *at_ms, alert),
        };
        let body = Payload {
            status,
            at_ms,
            alert,
            source: format!("routelab bridge {}", crate::VERSION),
        };
        let Ok(json) = serde_json::to_vec(&body) else {
            continue;
        };
        let mut wait = Duration::from_secs(1);
        for attempt in 1..=ATTEMPTS {
            let attempt_done = tokio::time::timeout(ATTEMPT_TIMEOUT, post(&webhook, json.clone()));
            // A stop does not wait for a receiver that hangs.
            let outcome = tokio::select! {
                () = shutdown.cancelled() => return,
                r = attempt_done => r.unwrap_or_else(|_| {
                    Err(format!("no answer within {}", humantime::format_duration(ATTEMPT_TIMEOUT)))
                }),
            };
            match outcome {
                Ok(()) => break,
                Err(e) if attempt == ATTEMPTS => {
                    tracing::error!(url = %webhook.url, "webhook: gave up on {} {} after {ATTEMPTS} attempts: {e}", alert.rule, alert.subject);
                }
                Err(e) => {
                    tracing::warn!(url = %webhook.url, "webhook: attempt {attempt} failed ({e}); again in {}", humantime::format_duration(wait));
                    tokio::select! {
                        () = shutdown.cancelled() => return,
                        () = tokio::time::sleep(wait) => {}
                    }
                    wait *= 2;
                }
            }
        }
    }
}

/// One POST; `Err` says why it did not reach a 2xx answer.
async fn post(webhook: &Webhook, json: Vec<u8>) -> Result<(), String> {
    let stream = tokio::net::TcpStream::connect(&webhook.authority)
        .await
        .map_err(|e| format!("cannot connect to {}: {e}", webhook.authority))?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let request = Request::post(&webhook.path)
        .header(hyper::header::HOST, &webhook.authority)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .header(
            hyper::header::USER_AGENT,
            format!("routelab/{}", crate::VERSION),
        )
        .body(Full::new(Bytes::from(json)))
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    if response.status().is_success() {
        Ok(())
    } else {
        Err(format!("the receiver answered {}", response.status()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_urls_are_taken() {
        let w = Webhook::parse("http://alerts.local/hook?x=1").unwrap();
        assert_eq!(
            (w.authority.as_str(), w.path.as_str()),
            ("alerts.local:80", "/hook?x=1")
        );
        let w = Webhook::parse("http://127.0.0.1:9099").unwrap();
        assert_eq!(
            (w.authority.as_str(), w.path.as_str()),
            ("127.0.0.1:9099", "/")
        );
        assert!(Webhook::parse("https://x/")
            .unwrap_err()
            .contains("https is not supported"));
        assert!(Webhook::parse("ftp://x/")
            .unwrap_err()
            .contains("expected http://"));
        assert!(Webhook::parse("not a url")
            .unwrap_err()
            .contains("not a URL"));
    }
}
