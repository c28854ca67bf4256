//! One connection: read frames, handle each in order, queue the responses for a writer task.
//!
//! What protects the server from a bad or slow peer:
//! - a malformed frame (garbage, negative or oversize length, header longer than the frame, invalid
//!   UTF-8 in the header, a stream ending mid-frame) closes this connection, as Java's decoder does;
//!   nothing was dispatched, so the tables are untouched;
//! - no complete frame for `idle_timeout` closes it (serverChannelMaxIdleTimeSeconds);
//! - responses wait in a bounded queue; a peer that stops reading fills it and is dropped, and one
//!   write may take at most `write_timeout`, so a slow reader never holds anything others need.
#![warn(clippy::indexing_slicing)]

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;

use super::handlers::Ctx;
use super::Shared;
use crate::model::BrokerAddr;
use crate::namesrv::RemovalReason;
use crate::net::codec::{CodecError, RemotingCodec};
use crate::remoting::frame;

/// Responses queued per connection before the peer counts as not reading.
const WRITE_QUEUE: usize = 256;

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
    let (idle, max_frame, write_timeout) = shared.with_state(|s| {
        (
            s.config.idle_timeout,
            s.config.max_frame_len,
            s.config.write_timeout,
        )
    });
    let _ = stream.set_nodelay(true);
    let (read_half, write_half) = stream.into_split();
    let (queue, outgoing) = mpsc::channel::<Bytes>(WRITE_QUEUE);
    let writer = tokio::spawn(write_loop(
        write_half,
        outgoing,
        token.clone(),
        write_timeout,
    ));
    let mut frames = FramedRead::new(read_half, RemotingCodec::new(max_frame));
    let remote = BrokerAddr::from(peer.to_string().as_str());
    tracing::debug!(%peer, ?channel, "connection opened");
    let reason = loop {
        let next = tokio::select! {
            () = token.cancelled() => break RemovalReason::ChannelClosed,
            next = tokio::time::timeout(idle, frames.next()) => next,
        };
        let frame = match next {
            Err(_) => {
                tracing::info!(%peer, "closing an idle connection ({}s without a request)", idle.as_secs());
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
            Ok(Some(Ok(frame))) => frame,
        };
        if frame.command.is_response() {
            // The NameServer sends no requests it would wait for; a stray response is dropped.
            continue;
        }
        let ctx = Ctx {
            now_ms: shared.now_ms(),
            channel,
            remote: Some(remote.clone()),
        };
        let outcome = shared.handle(&ctx, &frame).await;
        let Some(response) = outcome.response else {
            continue;
        };
        let ty = response.command.serialize_type;
        let bytes = match frame::encode(&response, ty) {
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
    write_timeout: std::time::Duration,
) {
    loop {
        let bytes = tokio::select! {
            biased;
            bytes = outgoing.recv() => bytes,
            () = token.cancelled() => break,
        };
        let Some(bytes) = bytes else { break };
        match tokio::time::timeout(write_timeout, sink.write_all(&bytes)).await {
            Ok(Ok(())) => {}
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
