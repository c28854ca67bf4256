//! One connection: read frames, handle each in order, queue the responses for a writer task.
//!
//! What protects the server from a bad or slow peer:
//! - a malformed frame (garbage, negative or oversize length, header longer than the frame, invalid
//!   UTF-8 in the header, a stream ending mid-frame) closes this connection, as Java's decoder does;
//!   nothing was dispatched, so the tables are untouched;
//! - `idle_timeout` (serverChannelMaxIdleTimeSeconds) with neither a complete frame read nor a
//!   response written closes it: see [`IdleClock`];
//! - responses wait in a bounded queue; a peer that stops reading fills it and is dropped, and one
//!   write may take at most `write_timeout`, so a slow reader never holds anything others need.
#![warn(clippy::indexing_slicing)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::Instant;
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;

use super::handlers::Ctx;
use super::Shared;
use crate::model::BrokerAddr;
use crate::namesrv::RemovalReason;
use crate::remoting::codec::{CodecError, RemotingCodec};
use crate::remoting::frame;

/// Responses queued per connection before the peer counts as not reading.
const WRITE_QUEUE: usize = 256;

/// The read buffer a connection keeps between frames; a bigger one is freed once drained.
const KEPT_READ_BUFFER: usize = 64 * 1024;

/// When a connection counts as idle, as Java's pipeline has it: `IdleStateHandler(0, 0,
/// serverChannelMaxIdleTimeSeconds)` sits after `NettyDecoder` and before the request handler, so
/// its ALL_IDLE timer is reset by every decoded frame (bytes of an unfinished frame never reach it)
/// and by every response write that completes (responses pass it on their way to the encoder). A
/// connection the server is still answering is therefore not idle, even if the peer has sent
/// nothing since; one that trickles bytes without finishing a frame is.
#[derive(Debug, Clone)]
pub(super) struct IdleClock {
    idle: Duration,
    start: Instant,
    /// Nanoseconds after `start` of the last decoded frame.
    last_read: Arc<AtomicU64>,
    /// Nanoseconds after `start` of the last completed response write.
    last_write: Arc<AtomicU64>,
}

impl IdleClock {
    /// Both timers start at the connection's start, as Netty's do when the channel becomes active.
    pub(super) fn new(idle: Duration, start: Instant) -> Self {
        Self {
            idle,
            start,
            last_read: Arc::new(AtomicU64::new(0)),
            last_write: Arc::new(AtomicU64::new(0)),
        }
    }

    fn since_start(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.start).as_nanos()).unwrap_or(u64::MAX)
    }

    /// A complete frame was decoded at `at`.
    pub(super) fn read(&self, at: Instant) {
        self.last_read
            .fetch_max(self.since_start(at), Ordering::Relaxed);
    }

    /// A response write completed at `at`.
    pub(super) fn wrote(&self, at: Instant) {
        self.last_write
            .fetch_max(self.since_start(at), Ordering::Relaxed);
    }

    /// When the connection becomes idle unless something is read or written before.
    pub(super) fn deadline(&self) -> Instant {
        let last = self
            .last_read
            .load(Ordering::Relaxed)
            .max(self.last_write.load(Ordering::Relaxed));
        self.start + Duration::from_nanos(last) + self.idle
    }
}

/// `slot` is this connection's share of `--max-connections`, given back when it ends.
pub(super) async fn serve(
    shared: Arc<Shared>,
    stream: TcpStream,
    peer: SocketAddr,
    slot: OwnedSemaphorePermit,
) {
    let channel = shared.new_channel();
    shared
        .metrics
        .connections_total
        .fetch_add(1, Ordering::Relaxed);
    shared
        .metrics
        .connections_open
        .fetch_add(1, Ordering::Relaxed);
    let token = shared.shutdown.child_token();
    super::lock(&shared.conns).insert(channel, token.clone());
    let (idle, max_frame, write_timeout, json, v5) = shared.with_state(|s| {
        (
            s.config.idle_timeout,
            s.config.max_frame_len,
            s.config.write_timeout,
            s.config.json,
            s.config.profile.is_v5(),
        )
    });
    let _ = stream.set_nodelay(true);
    let (read_half, write_half) = stream.into_split();
    let (queue, outgoing) = mpsc::channel::<Bytes>(WRITE_QUEUE);
    let clock = IdleClock::new(idle, Instant::now());
    let writer = tokio::spawn(write_loop(
        write_half,
        outgoing,
        token.clone(),
        write_timeout,
        clock.clone(),
    ));
    let mut frames = FramedRead::new(read_half, RemotingCodec::new(max_frame).with_dialect(json));
    let remote = BrokerAddr::from(peer.to_string().as_str());
    let register_bodies = Arc::new(std::sync::Mutex::new(
        super::register_cache::RegisterBodyCache::with_budget(Arc::clone(&shared.register_cache)),
    ));
    tracing::debug!(%peer, ?channel, "connection opened");
    let reason = loop {
        let deadline = clock.deadline();
        let next = tokio::select! {
            () = token.cancelled() => break RemovalReason::ChannelClosed,
            next = frames.next() => Ok(next),
            () = tokio::time::sleep_until(deadline) => Err(()),
        };
        let frame = match next {
            // A response written meanwhile moved the deadline: wait again.
            Err(()) if clock.deadline() > Instant::now() => continue,
            Err(()) => {
                tracing::info!(%peer, "closing an idle connection ({}s without a request or a response)", idle.as_secs());
                shared
                    .metrics
                    .connections_idle_closed
                    .fetch_add(1, Ordering::Relaxed);
                break RemovalReason::IdleClosed;
            }
            Ok(None) => break RemovalReason::ChannelClosed,
            Ok(Some(Err(e))) => {
                if !matches!(e, CodecError::Io(_)) {
                    shared
                        .metrics
                        .connections_bad_input
                        .fetch_add(1, Ordering::Relaxed);
                }
                log_bad_input(peer, &e);
                break RemovalReason::ChannelClosed;
            }
            Ok(Some(Ok(frame))) => {
                clock.read(Instant::now());
                // A broker's registration of thousands of topics grows the read buffer to
                // megabytes; kept, every broker connection would hold that between its
                // registrations 30 s apart. Given back once the buffer is drained.
                let buf = frames.read_buffer_mut();
                if buf.is_empty() && buf.capacity() > KEPT_READ_BUFFER {
                    *buf = bytes::BytesMut::new();
                }
                frame
            }
        };
        if frame.command.is_response() {
            // The NameServer sends no requests it would wait for; a stray response is dropped.
            continue;
        }
        let register_body = (frame.command.code == crate::remoting::RequestCode::REGISTER_BROKER)
            .then(|| {
                super::handlers::broker::read_register_body(
                    &register_bodies,
                    &frame.command,
                    &frame.body,
                    v5,
                    json,
                )
            })
            .flatten();
        let ctx = Ctx {
            now_ms: shared.now_ms(),
            channel,
            remote: Some(remote.clone()),
            register_bodies: Some(register_bodies.clone()),
            register_body,
        };
        let outcome = shared.handle(&ctx, &frame).await;
        let Some(response) = outcome.response else {
            continue;
        };
        let ty = response.command.serialize_type;
        let bytes = match frame::encode_as(&response, ty, json) {
            Ok(b) if b.len() <= max_frame => b,
            Ok(b) => {
                tracing::error!(%peer, len = b.len(), "response larger than the maximum frame; closing");
                break RemovalReason::ChannelClosed;
            }
            Err(e) => {
                tracing::error!(%peer, "cannot encode a response: {e}; closing");
                break RemovalReason::ChannelClosed;
            }
        };
        if queue.try_send(Bytes::from(bytes)).is_err() {
            tracing::warn!(%peer, "the peer does not read its responses; closing");
            break RemovalReason::ChannelClosed;
        }
    };
    token.cancel();
    let _ = writer.await;
    shared.channel_closed(channel, Some(&remote), reason);
    // Before the gauge goes down, so whoever sees it lower can connect.
    drop(slot);
    shared
        .metrics
        .connections_open
        .fetch_sub(1, Ordering::Relaxed);
    tracing::debug!(%peer, ?channel, "connection closed");
}

fn log_bad_input(peer: SocketAddr, e: &CodecError) {
    match e {
        CodecError::Io(e) => tracing::debug!(%peer, "read failed: {e}"),
        other => tracing::warn!(%peer, "closing the connection: {other}"),
    }
}

async fn write_loop(
    mut sink: tokio::net::tcp::OwnedWriteHalf,
    mut outgoing: mpsc::Receiver<Bytes>,
    token: CancellationToken,
    write_timeout: Duration,
    clock: IdleClock,
) {
    loop {
        let bytes = tokio::select! {
            biased;
            bytes = outgoing.recv() => bytes,
            () = token.cancelled() => break,
        };
        let Some(bytes) = bytes else { break };
        match tokio::time::timeout(write_timeout, sink.write_all(&bytes)).await {
            Ok(Ok(())) => clock.wrote(Instant::now()),
            Ok(Err(_)) | Err(_) => {
                token.cancel();
                return;
            }
        }
    }
    // Flush what was answered before the close (e.g. the last response before EOF).
    while let Ok(bytes) = outgoing.try_recv() {
        if tokio::time::timeout(write_timeout, sink.write_all(&bytes))
            .await
            .map_or(true, |r| r.is_err())
        {
            return;
        }
    }
    let _ = sink.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_completed_writes_both_push_the_idle_deadline() {
        let start = Instant::now();
        let idle = Duration::from_secs(120);
        let clock = IdleClock::new(idle, start);
        assert_eq!(
            clock.deadline(),
            start + idle,
            "from the connection's start"
        );
        clock.read(start + Duration::from_secs(10));
        assert_eq!(clock.deadline(), start + Duration::from_secs(130));
        // A response finishing later (a slow reader draining it) keeps the connection alive.
        clock.wrote(start + Duration::from_secs(50));
        assert_eq!(clock.deadline(), start + Duration::from_secs(170));
        // An older event never moves it back.
        clock.read(start + Duration::from_secs(20));
        assert_eq!(clock.deadline(), start + Duration::from_secs(170));
        clock.read(start + Duration::from_secs(60));
        assert_eq!(clock.deadline(), start + Duration::from_secs(180));
    }
}
