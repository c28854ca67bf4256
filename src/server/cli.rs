//! `routelab namesrv` as a command: config, `-p`, logging, the runtime, stopping on SIGINT/SIGTERM.

use std::process::ExitCode;

use crate::host::process::{init_logging, runtime, say};

use super::args::NamesrvArgs;
use super::config::ServerConfig;
use super::config_text::properties_text;

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
        let profile = super::config::ServerProfile::new(config.profile, config.json);
        let kv_path = config.settings.kv_config_path.clone();
        let token = config.ws_access.token.clone();
        let max_connections = config.max_connections;
        let stop = crate::host::process::stop_signal();
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
        say(format_args!(
            "  {} (at most {max_connections} connections)",
            reach_message(handle.local_addr())
        ));
        if let Some(ws) = handle.ws_addr() {
            say(format_args!(
                "  dashboard: {}\n  {}\n  metrics:   {}metrics",
                crate::host::web::page::page_url(ws, token.as_deref()),
                crate::host::web::args::reach_message(ws, token.as_deref(), "--ws"),
                crate::host::web::page::page_url(ws, None)
            ));
        }
        if let Some(line) = handle.history_line() {
            say(format_args!("  {line}"));
        }
        stop.await;
        tracing::info!("stopping");
        handle.shutdown().await;
        ExitCode::SUCCESS
    })
}

/// Who can reach the NameServer port. It has no authentication, as RocketMQ's has none: whoever
/// connects may register brokers and change the config, so the start-up line says who that is.
pub fn reach_message(addr: std::net::SocketAddr) -> String {
    if addr.ip().is_loopback() {
        format!(
            "bound to {} only: other machines cannot connect (use --listen 0.0.0.0:{} to allow them)",
            addr.ip(),
            addr.port()
        )
    } else {
        format!(
            "bound to {}: anyone who can reach this port can register brokers and change the config, \
             as with RocketMQ's NameServer",
            addr.ip()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_message_says_who_can_connect() {
        let local = reach_message("127.0.0.1:9876".parse().unwrap());
        assert!(local.starts_with("bound to 127.0.0.1 only"), "{local}");
        assert!(local.contains("--listen 0.0.0.0:9876"), "{local}");
        let open = reach_message("0.0.0.0:9876".parse().unwrap());
        assert!(open.contains("anyone who can reach this port"), "{open}");
    }
}
