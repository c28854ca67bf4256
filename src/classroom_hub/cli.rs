//! `routelab classroom` as a command: logging, the runtime, the start-up text, and stopping on
//! Ctrl-C or SIGTERM.

use std::process::ExitCode;

use super::{run, startup_message, ClassroomArgs};
use crate::host::process::{init_logging, runtime, say, stop_signal};

/// Runs the classroom until interrupted. Exit code 2 for bad flags, 1 when it cannot start.
pub fn main(args: ClassroomArgs) -> ExitCode {
    init_logging("info");
    let Some(runtime) = runtime() else {
        return ExitCode::FAILURE;
    };
    runtime.block_on(async move {
        let stop = stop_signal();
        let handle = match run(args).await {
            Ok(h) => h,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        say(startup_message(&handle));
        stop.await;
        tracing::info!("stopping");
        handle.shutdown().await;
        ExitCode::SUCCESS
    })
}
