//! `routelab bridge` as a command: logging, the runtime, the start-up message, and stopping on
//! Ctrl-C or SIGTERM.

use std::process::ExitCode;

use super::{run, startup_message, BridgeArgs, BridgeConfig};

/// Runs the bridge until interrupted. Exit code 2 for bad flags, 1 when it cannot start.
pub fn main(args: BridgeArgs) -> ExitCode {
    let config = match BridgeConfig::try_from(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging("info");
    let Some(runtime) = runtime() else {
        return ExitCode::FAILURE;
    };
    runtime.block_on(async move {
        let listen = config.listen;
        let namesrvs = config.namesrvs.clone();
        let token = config.token.clone();
        let stop = stop_signal();
        let handle = match run(config).await {
            Ok(h) => h,
            Err(e) => {
                eprintln!("error: cannot listen on {listen}: {e} (is another bridge running? try --listen 127.0.0.1:0)");
                return ExitCode::FAILURE;
            }
        };
        say(startup_message(handle.local_addr(), token.as_deref(), &namesrvs));
        say(format!("  {}", handle.history().describe()));
        stop.await;
        tracing::info!("stopping");
        handle.shutdown().await;
        ExitCode::SUCCESS
    })
}

/// A future that completes on Ctrl-C or SIGTERM (shared with `routelab namesrv` and `routelab
/// demo`). The handlers are installed here, at the call, not when the future is first polled: call
/// it before printing the start-up message, so a signal sent by someone who read that message is
/// never met by the default action (the process dying with status 15).
pub(crate) fn stop_signal() -> impl std::future::Future<Output = ()> {
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
pub(crate) fn say(text: impl std::fmt::Display) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// Logs to standard error (standard output stays the start-up text): `RUST_LOG` if set, else
/// `default`. Shared by `bridge`, `namesrv` and `demo`.
pub(crate) fn init_logging(default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The multi-threaded runtime the commands run on; `None` (after saying why) when it cannot start.
pub(crate) fn runtime() -> Option<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| eprintln!("error: cannot start the async runtime: {e}"))
        .ok()
}
