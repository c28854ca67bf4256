//! `routelab namesrv` as a command: config, `-p`, logging, the runtime, stopping on SIGINT/SIGTERM.

use std::process::ExitCode;

use crate::bridge::cli::{init_logging, runtime, say};

use super::config::{properties_text, NamesrvArgs, ServerConfig};

/// Runs the NameServer until interrupted. Exit code 2 for bad flags or config, 1 when it cannot
/// start.
pub fn main(args: NamesrvArgs) -> ExitCode {
    let config = match ServerConfig::from_args(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.print_config {
        print!("{}", properties_text(&config.properties()));
        return ExitCode::SUCCESS;
    }
    init_logging("info");
    let Some(runtime) = runtime() else {
        return ExitCode::FAILURE;
    };
    runtime.block_on(async move {
        let listen = config.listen;
        let profile = config.profile;
        let kv_path = config.settings.kv_config_path.clone();
        let token = config.ws_access.token.clone();
        let stop = crate::bridge::cli::stop_signal();
        let handle = match super::run(config).await {
            Ok(h) => h,
            Err(e) => {
                eprintln!(
                    "error: cannot start on {listen}: {e} (another NameServer there? try --listen 127.0.0.1:0; \
                     KV file {})",
                    kv_path.display()
                );
                return ExitCode::FAILURE;
            }
        };
        say(format_args!(
            "The Name Server boot success. serializeType=JSON, listening on {} ({profile} rules, KV file {})",
            handle.local_addr(),
            kv_path.display()
        ));
        if let Some(ws) = handle.ws_addr() {
            say(format_args!(
                "  dashboard: {}\n  {}\n  metrics:   {}metrics",
                crate::bridge::page_url(ws, token.as_deref()),
                crate::bridge::http_args::reach_message(ws, token.as_deref(), "--ws"),
                crate::bridge::page_url(ws, None)
            ));
        }
        stop.await;
        tracing::info!("stopping");
        handle.shutdown().await;
        ExitCode::SUCCESS
    })
}
