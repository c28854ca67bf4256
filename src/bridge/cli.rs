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
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let listen = config.listen;
        let namesrvs = config.namesrvs.clone();
        let token = config.token.clone();
        let handle = match run(config).await {
            Ok(h) => h,
            Err(e) => {
                eprintln!("error: cannot listen on {listen}: {e} (is another bridge running? try --listen 127.0.0.1:0)");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "{}",
            startup_message(handle.local_addr(), token.as_deref(), &namesrvs)
        );
        wait_for_stop().await;
        tracing::info!("stopping");
        handle.shutdown().await;
        ExitCode::SUCCESS
    })
}

/// `RUST_LOG` if set, else `info`; to standard error so standard output stays the start-up message.
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Returns on Ctrl-C or SIGTERM (shared with `routelab namesrv`).
pub(crate) async fn wait_for_stop() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
