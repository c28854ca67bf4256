//! `routelab bridge` as a command: its flags checked, then run until Ctrl-C or SIGTERM on the
//! shared process set-up ([`crate::host::process`]).

use std::process::ExitCode;

use super::{run, startup_message, BridgeArgs, BridgeConfig};
use crate::host::process::{init_logging, runtime, say, stop_signal};

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
