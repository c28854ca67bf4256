//! A cap on the HTTP server's open connections (the bridge, `routelab namesrv --ws`, the demo).
//!
//! The viewer slots bound the WebSockets, but a plain HTTP connection held open without a request
//! (slowloris) took a task and a socket each, without end. With the cap reached, the server stops
//! accepting: new connections wait in the kernel's backlog and are taken as slots free up, so a
//! flood delays others instead of exhausting the process.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections beyond the viewers' slots: pages, files, `/metrics` and viewers being refused.
pub const EXTRA_HTTP_CONNECTIONS: usize = 64;

/// A listener that holds at most `max` connections open at once.
pub struct LimitedListener {
    inner: TcpListener,
    slots: Arc<Semaphore>,
    max: usize,
    warned: bool,
}

impl LimitedListener {
    /// Wraps `inner`; `max` is at least 1.
    pub fn new(inner: TcpListener, max: usize) -> Self {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        Self {
            inner,
            slots: Arc::new(Semaphore::new(max)),
            max,
            warned: false,
        }
    }
}

/// An accepted connection with its slot, given back when the connection is dropped.
pub struct LimitedIo {
    io: TcpStream,
    _slot: OwnedSemaphorePermit,
}

impl axum::serve::Listener for LimitedListener {
    type Io = LimitedIo;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let slot = match Arc::clone(&self.slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                // Said once per run: a log line per refused connection would be a flood of its own.
                if !std::mem::replace(&mut self.warned, true) {
                    tracing::warn!(
                        max = self.max,
                        "{} HTTP connections are open: new ones wait until one closes",
                        self.max
                    );
                }
                match Arc::clone(&self.slots).acquire_owned().await {
                    Ok(slot) => slot,
                    // The semaphore is never closed; should it be, accept nothing more.
                    Err(_) => std::future::pending().await,
                }
            }
        };
        let (io, addr) = axum::serve::Listener::accept(&mut self.inner).await;
        (LimitedIo { io, _slot: slot }, addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for LimitedIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for LimitedIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
