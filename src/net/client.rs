//! [`NamesrvClient`]: one TCP connection, requests matched to responses by opaque.
//!
//! Two tasks own the socket halves: the writer drains a bounded queue of frames, the reader hands
//! each response to the request waiting for its opaque. Whatever ends the connection (EOF, a socket
//! error, a malformed frame, a request timeout, the last clone dropped) cancels both tasks, which
//! drops the socket, and fails every pending request at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, Semaphore};
use tokio::time::Instant;
use tokio_util::codec::{Encoder, FramedRead};
use tokio_util::sync::CancellationToken;

use super::error::{copy_frame_error, request_label, ClientError};
use super::ClientConfig;
use crate::remoting::codec::{CodecError, RemotingCodec};
use crate::remoting::command::{RPC_ONEWAY_BIT, RPC_TYPE_BIT};
use crate::remoting::{Frame, RemotingCommand};

type Reply = oneshot::Sender<Result<Frame, ClientError>>;

/// Why the connection ended, kept so later requests can say it.
#[derive(Debug)]
enum CloseCause {
    Reason(String),
    Frame(crate::remoting::FrameError),
}

impl CloseCause {
    fn to_error(&self) -> ClientError {
        match self {
            Self::Reason(reason) => ClientError::Closed {
                reason: reason.clone(),
            },
            Self::Frame(e) => ClientError::Frame(copy_frame_error(e)),
        }
    }
}

/// State shared by the client handles and the two connection tasks.
struct Shared {
    addr: String,
    pending: Mutex<HashMap<i32, Reply>>,
    closed: AtomicBool,
    cause: Mutex<Option<CloseCause>>,
    cancel: CancellationToken,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding these locks cannot leave the maps inconsistent (single inserts and
    // removes), so a poisoned lock is still usable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Ends the connection once: records why, stops both tasks, fails every pending request.
    fn close(&self, cause: CloseCause) {
        {
            let mut slot = lock(&self.cause);
            if slot.is_some() {
                return;
            }
            tracing::debug!(addr = %self.addr, ?cause, "connection closed");
            *slot = Some(cause);
        }
        // The cause is recorded before the flag is raised, so whoever sees the flag can say why;
        // the flag is raised before `pending` is drained, so a request registering concurrently
        // either is drained or sees the flag.
        self.closed.store(true, Ordering::SeqCst);
        let drained: Vec<Reply> = lock(&self.pending).drain().map(|(_, tx)| tx).collect();
        for tx in drained {
            let _ = tx.send(Err(self.closed_error()));
        }
        self.cancel.cancel();
    }

    fn closed_error(&self) -> ClientError {
        match &*lock(&self.cause) {
            Some(cause) => cause.to_error(),
            None => ClientError::Closed {
                reason: format!("connection to {} is closed", self.addr),
            },
        }
    }
}

/// Cancels the connection when the last client handle goes away.
struct Handle {
    shared: Arc<Shared>,
    config: ClientConfig,
    outgoing: mpsc::Sender<Bytes>,
    slots: Semaphore,
    next_opaque: AtomicI32,
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.shared.close(CloseCause::Reason(format!(
            "the client for {} was dropped",
            self.shared.addr
        )));
    }
}

/// A connection to one NameServer. Cheap to clone: clones share the connection.
///
/// Once [`is_closed`](Self::is_closed) is true every request fails at once; connect again.
#[derive(Clone)]
pub struct NamesrvClient {
    inner: Arc<Handle>,
}

/// Removes a pending entry when its request is abandoned (timeout, caller dropped the future).
struct PendingGuard<'a> {
    shared: &'a Shared,
    opaque: i32,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        lock(&self.shared.pending).remove(&self.opaque);
    }
}

impl NamesrvClient {
    /// Connects to `addr` (`host:port`) within `config.connect_timeout`.
    pub async fn connect(addr: &str, config: ClientConfig) -> Result<Self, ClientError> {
        let connect_error = |reason: String| ClientError::Connect {
            addr: addr.to_owned(),
            reason,
        };
        let stream = tokio::time::timeout(config.connect_timeout, TcpStream::connect(addr))
            .await
            .map_err(|_| {
                connect_error(format!(
                    "no answer within {}",
                    humantime::format_duration(config.connect_timeout)
                ))
            })?
            .map_err(|e| connect_error(e.to_string()))?;
        // Requests are small and latency matters more than packet count.
        let _ = stream.set_nodelay(true);
        let (read_half, write_half) = stream.into_split();
        let codec = RemotingCodec::new(config.max_frame_len);
        let shared = Arc::new(Shared {
            addr: addr.to_owned(),
            pending: Mutex::new(HashMap::new()),
            closed: AtomicBool::new(false),
            cause: Mutex::new(None),
            cancel: CancellationToken::new(),
        });
        let (outgoing, queue) = mpsc::channel(config.max_in_flight.max(1));
        tokio::spawn(read_loop(
            Arc::clone(&shared),
            FramedRead::new(read_half, codec),
        ));
        tokio::spawn(write_loop(Arc::clone(&shared), write_half, queue));
        Ok(Self {
            inner: Arc::new(Handle {
                shared,
                slots: Semaphore::new(config.max_in_flight.max(1)),
                config,
                outgoing,
                next_opaque: AtomicI32::new(0),
            }),
        })
    }

    /// The address this client connected to.
    pub fn addr(&self) -> &str {
        &self.inner.shared.addr
    }

    /// The configuration in force.
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// True once the connection has ended (the server closed it, a malformed frame, a timeout, a
    /// socket error): reconnect.
    pub fn is_closed(&self) -> bool {
        self.inner.shared.closed.load(Ordering::SeqCst)
    }

    /// Requests holding an in-flight slot right now (at most `max_in_flight`).
    pub fn in_flight(&self) -> usize {
        self.inner
            .config
            .max_in_flight
            .max(1)
            .saturating_sub(self.inner.slots.available_permits())
    }

    /// Closes the connection; pending requests fail with [`ClientError::Closed`].
    pub fn close(&self) {
        self.inner.shared.close(CloseCause::Reason(format!(
            "closed by the client ({})",
            self.addr()
        )));
    }

    fn next_opaque(&self) -> i32 {
        // Wraps around after 2^31 requests, like Java's counter; by then the old opaque is long gone.
        self.inner
            .next_opaque
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_add(1)
            & i32::MAX
    }

    /// Sends `cmd` with `body` and waits for the response, whatever its code.
    ///
    /// The opaque is assigned here; the response and oneway bits are cleared; everything else in
    /// `cmd` (version, language, extFields) is sent as given. At most `max_in_flight` requests are
    /// outstanding; later ones wait for a slot. The whole call — waiting for a slot, writing,
    /// waiting for the answer — takes at most `request_timeout`, then fails with
    /// [`ClientError::Timeout`].
    ///
    /// A timeout closes the connection only when the request had been on the wire for at least
    /// half the timeout: the server is then unresponsive. A request that spent its time queued for
    /// a slot says nothing about the server (the caller sent more than the connection carries), so
    /// it fails alone, like Java's client, which closes on timeout only when enough of it was left
    /// for the read.
    pub async fn request(
        &self,
        mut cmd: RemotingCommand,
        body: Vec<u8>,
    ) -> Result<Frame, ClientError> {
        let code = cmd.code;
        let after = self.inner.config.request_timeout;
        let deadline = Instant::now() + after;
        cmd.flag &= !(RPC_TYPE_BIT | RPC_ONEWAY_BIT);
        if let Some(credentials) = &self.inner.config.credentials {
            crate::remoting::acl::sign(&mut cmd.ext_fields, &body, credentials);
        }
        let shared = &self.inner.shared;
        if self.is_closed() {
            return Err(shared.closed_error());
        }
        let _slot = match tokio::time::timeout_at(deadline, self.inner.slots.acquire()).await {
            Err(_) => return Err(ClientError::Timeout { code, after }),
            // The semaphore is never closed; treat it as a closed connection anyway.
            Ok(Err(_)) => return Err(shared.closed_error()),
            Ok(Ok(slot)) => slot,
        };
        let sent_at = Instant::now();
        match tokio::time::timeout_at(deadline, self.exchange(cmd, body)).await {
            Ok(result) => result,
            Err(_) => {
                if sent_at.elapsed() >= after / 2 {
                    shared.close(CloseCause::Reason(format!(
                        "{} timed out after {} on {}",
                        request_label(code),
                        humantime::format_duration(after),
                        self.addr()
                    )));
                }
                Err(ClientError::Timeout { code, after })
            }
        }
    }

    /// Writes the request (a slot is held by the caller) and waits for its response.
    async fn exchange(
        &self,
        mut cmd: RemotingCommand,
        body: Vec<u8>,
    ) -> Result<Frame, ClientError> {
        let shared = &self.inner.shared;
        let opaque = self.next_opaque();
        cmd.opaque = opaque;
        let (tx, rx) = oneshot::channel();
        lock(&shared.pending).insert(opaque, tx);
        let _guard = PendingGuard { shared, opaque };
        // The close may have drained `pending` just before the insert; do not wait for nothing.
        if self.is_closed() {
            return Err(shared.closed_error());
        }
        self.send(Frame::new(cmd, body)).await?;
        match rx.await {
            Ok(result) => result,
            Err(_) => Err(shared.closed_error()),
        }
    }

    async fn send(&self, frame: Frame) -> Result<(), ClientError> {
        // Encoded here, not in the writer task, so an oversized or unencodable request fails its
        // caller alone instead of the connection.
        let mut codec = RemotingCodec::new(self.inner.config.max_frame_len);
        let mut buf = BytesMut::new();
        codec.encode(frame, &mut buf).map_err(|e| match e {
            CodecError::Encode(e) => ClientError::Encode(e),
            other => ClientError::Closed {
                reason: other.to_string(),
            },
        })?;
        self.inner
            .outgoing
            .send(buf.freeze())
            .await
            .map_err(|_| self.inner.shared.closed_error())
    }

    /// Sends a oneway request (no response is expected). The opaque is assigned here.
    pub async fn oneway(&self, mut cmd: RemotingCommand, body: Vec<u8>) -> Result<(), ClientError> {
        if self.is_closed() {
            return Err(self.inner.shared.closed_error());
        }
        cmd.flag = (cmd.flag & !RPC_TYPE_BIT) | RPC_ONEWAY_BIT;
        cmd.opaque = self.next_opaque();
        let code = cmd.code;
        let after = self.inner.config.request_timeout;
        tokio::time::timeout(after, self.send(Frame::new(cmd, body)))
            .await
            .map_err(|_| ClientError::Timeout { code, after })?
    }
}

async fn read_loop(shared: Arc<Shared>, mut frames: FramedRead<OwnedReadHalf, RemotingCodec>) {
    let cause = loop {
        let next = tokio::select! {
            () = shared.cancel.cancelled() => return,
            next = frames.next() => next,
        };
        match next {
            None => {
                break CloseCause::Reason(format!("{} closed the connection", shared.addr))
            }
            Some(Err(CodecError::Truncated { received })) => {
                break CloseCause::Reason(format!(
                    "{} closed the connection in the middle of a frame ({received} bytes of it received)",
                    shared.addr
                ))
            }
            Some(Err(CodecError::Frame(e))) => break CloseCause::Frame(e),
            Some(Err(e)) => {
                break CloseCause::Reason(format!("reading from {} failed: {e}", shared.addr))
            }
            Some(Ok(frame)) if frame.command.is_response() => {
                let waiter = lock(&shared.pending).remove(&frame.command.opaque);
                match waiter {
                    Some(tx) => {
                        let _ = tx.send(Ok(frame));
                    }
                    // A response to a request that timed out or was abandoned: nothing to do.
                    None => tracing::debug!(
                        addr = %shared.addr,
                        opaque = frame.command.opaque,
                        "response for no pending request"
                    ),
                }
            }
            // Server-initiated requests (e.g. NOTIFY_MIN_BROKER_ID_CHANGE) are not for a client.
            Some(Ok(frame)) => tracing::debug!(
                addr = %shared.addr,
                code = frame.command.code,
                "ignoring a request from the server"
            ),
        }
    };
    shared.close(cause);
}

async fn write_loop(
    shared: Arc<Shared>,
    mut sink: OwnedWriteHalf,
    mut queue: mpsc::Receiver<Bytes>,
) {
    loop {
        let bytes = tokio::select! {
            () = shared.cancel.cancelled() => return,
            bytes = queue.recv() => bytes,
        };
        let Some(bytes) = bytes else { return };
        let sent = tokio::select! {
            () = shared.cancel.cancelled() => return,
            sent = sink.write_all(&bytes) => sent,
        };
        if let Err(e) = sent {
            shared.close(CloseCause::Reason(format!(
                "writing to {} failed: {e}",
                shared.addr
            )));
            return;
        }
    }
}
