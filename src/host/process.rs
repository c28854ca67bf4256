//! What every long-running native command does the same way: log to standard error, run on one
//! multi-threaded runtime, print its start-up text without dying on a closed pipe, and stop on
//! Ctrl-C or SIGTERM. Used by `routelab bridge`, `namesrv`, `demo` and `classroom`.

/// A future that completes on Ctrl-C or SIGTERM. The handlers are installed here, at the call, not when the future is first polled: call
/// it before printing the start-up message, so a signal sent by someone who read that message is
/// never met by the default action (the process dying with status 15).
pub fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let handlers = {
        use tokio::signal::unix::{signal, SignalKind};
        signal(SignalKind::terminate()).and_then(|t| Ok((t, signal(SignalKind::interrupt())?)))
    };
    async move {
        #[cfg(unix)]
        if let Ok((mut term, mut int)) = handlers {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Prints a line on standard output for the long-running commands, ignoring a closed output:
/// someone who read the start-up text and closed the pipe (`| head -1`, a test harness) must not
/// make the server die with "failed printing to stdout" as `println!` would.
pub fn say(text: impl std::fmt::Display) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// Logs to standard error (standard output stays the start-up text): `RUST_LOG` if set, else
/// `default`. Shared by `bridge`, `namesrv` and `demo`.
pub fn init_logging(default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The multi-threaded runtime the commands run on; `None` (after saying why) when it cannot start.
pub fn runtime() -> Option<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| eprintln!("error: cannot start the async runtime: {e}"))
        .ok()
}
