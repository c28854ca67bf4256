//! `routelab demo` as a command: logging (warnings only, so the terminal stays readable), the
//! runtime, the start-up text, commands from standard input, stopping on `quit`, Ctrl-C or SIGTERM.

use std::process::ExitCode;

use crate::host::process::{init_logging, runtime, say};

use tokio::sync::mpsc;

use super::broker::DEFAULT_EXPIRY;
use super::{Demo, DemoArgs, DemoConfig, Reply};

/// Runs the demo until `quit` or a signal. Exit code 2 for bad flags, 1 when it cannot start.
pub fn main(args: DemoArgs) -> ExitCode {
    let config = match DemoConfig::try_from(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging("warn");
    let Some(runtime) = runtime() else {
        return ExitCode::FAILURE;
    };
    runtime.block_on(async move {
        let (namesrv, listen) = (config.namesrv, config.listen);
        let dist = config.access.dist.clone();
        let expiry = config.schedule.expiry.unwrap_or(DEFAULT_EXPIRY);
        let home = config.home.clone();
        let stop = crate::host::process::stop_signal();
        let demo = match Demo::start(config).await {
            Ok(d) => d,
            Err(e) => {
                eprintln!(
                    "error: cannot listen on {namesrv} (NameServer) or {listen} (dashboard): {e} \
                     (a NameServer or bridge already running? try --port 19876 --listen 127.0.0.1:17878)"
                );
                return ExitCode::FAILURE;
            }
        };
        say(startup_text(&demo, &dist, expiry));
        let mut page = demo.page_log();
        let mut lines = stdin_lines();
        let mut stdin_open = true;
        tokio::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => break,
                line = lines.recv(), if stdin_open => match line {
                    Some(line) => {
                        let reply = demo.execute(&line).await;
                        show(&reply);
                        if reply.quit {
                            break;
                        }
                    }
                    // No terminal (e.g. started in the background): keep serving until a signal.
                    None => stdin_open = false,
                },
                Some((text, reply)) = async { match page.as_mut() {
                    Some(rx) => rx.recv().await,
                    None => std::future::pending().await,
                } } => {
                    say(format_args!("[from the page] {text}"));
                    show(&reply);
                }
            }
        }
        demo.shutdown().await;
        let _ = std::fs::remove_dir_all(&home);
        ExitCode::SUCCESS
    })
}

/// Lines typed on standard input, read on a plain thread of their own. Not `tokio::io::stdin`:
/// its read runs on the runtime's blocking pool, and dropping the runtime waits for that read, so
/// a SIGTERM with standard input open (a pipe, a terminal nobody types in) would never finish.
/// A plain thread blocked in `read` does not keep the process alive once `main` returns.
fn stdin_lines() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel(16);
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            for line in std::io::stdin().lines() {
                let Ok(line) = line else { break };
                if tx.blocking_send(line).is_err() {
                    break;
                }
            }
        });
    if let Err(e) = spawned {
        // The receiver then reports a closed input at once: the demo keeps serving until a signal.
        tracing::warn!("cannot read commands from standard input: {e}");
    }
    rx
}

fn show(reply: &Reply) {
    if reply.text.is_empty() {
        return;
    }
    if reply.error {
        say(format_args!("error: {}", reply.text));
    } else {
        say(&reply.text);
    }
}

/// Where to look, who can connect, and what to try.
pub fn startup_text(
    demo: &Demo,
    dist: &crate::host::web::assets::Assets,
    expiry: std::time::Duration,
) -> String {
    let names: Vec<&str> = demo.brokers().iter().map(|b| b.name.as_str()).collect();
    let reach = demo.http_addr().map_or_else(String::new, |a| {
        crate::host::web::args::reach_message(a, demo.token.as_deref(), "--listen")
    });
    let built = if dist.has_live_page() {
        String::new()
    } else {
        format!(
            "\n  (no dashboard in {}: {})",
            dist.describe(),
            crate::host::web::assets::how_to_build()
        )
    };
    format!(
        "routelab demo: our NameServer on {ns} with emulated brokers {names} in {cluster}\n  \
         open {url} — try `freeze broker-c` and watch it leave after {expiry}, or `kill broker-a` \
         and watch it leave at once{built}\n  {reach}\n  \
         real clients work too: routelab admin clusterList -n {ns}\n  \
         type `help` for the commands, `quit` to stop",
        ns = demo.namesrv_addr(),
        names = names.join(", "),
        cluster = super::cluster::CLUSTER,
        url = demo.url(),
        expiry = humantime::format_duration(expiry),
    )
}
