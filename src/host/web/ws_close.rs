//! Ending a WebSocket with a reason: both web servers refuse a bad message the same way, with a
//! close frame the page can show.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::SinkExt;

/// RFC 6455's "policy violation": the peer sent something it may not.
pub const POLICY_VIOLATION: u16 = 1008;

/// A close frame's reason may be at most 123 bytes; ours are cut shorter, at a character boundary.
const MAX_REASON: usize = 120;

/// Sends a close frame with `code` and `reason`, waiting at most a second: the peer may not be
/// reading either, and a stuck peer must not hold the connection's task.
pub async fn close_with(sink: &mut SplitSink<WebSocket, Message>, code: u16, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: truncate(reason, MAX_REASON).into(),
    };
    let _ = tokio::time::timeout(
        Duration::from_secs(1),
        sink.send(Message::Close(Some(frame))),
    )
    .await;
}

/// At most `max` bytes of `s`, cut at a character boundary.
fn truncate(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::truncate;

    #[test]
    fn reasons_are_cut_at_a_character_boundary() {
        assert_eq!(truncate("short", 120), "short");
        // "负" is three bytes: cutting at 4 must not split the second one.
        assert_eq!(truncate("负负负", 4), "负");
    }
}
