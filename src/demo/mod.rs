//! `routelab demo`: live mode with no cluster of one's own (native only). Our NameServer
//! ([`crate::server`]) runs in-process with the live dashboard (`--ws`), and a few emulated brokers
//! register with it over real TCP, each on its own connection, from the simulator's broker model.
//! Commands typed on the terminal or sent from the page (`{"type":"command"}`) kill, freeze, stop
//! or restart a broker, and the dashboard shows the NameServer react.
//!
//! # Layout
//!
//! - [`config`]: the flags ([`DemoArgs`]) → [`DemoConfig`], the registration schedule.
//! - [`cluster`]: which brokers, groups and topics (pure).
//! - [`broker`]: one emulated broker process (a task).
//! - [`command`]: the command language (pure).
//! - [`cli`]: the command: start-up text, the terminal loop, stopping.

pub mod broker;
pub mod cli;
pub mod cluster;
pub mod command;
pub mod config;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use config::{DemoArgs, DemoConfig};

use crate::host::live::CommandSink;
use crate::server::{ServerConfig, ServerHandle};
use broker::{state_word, BrokerHandle};
use command::{Command, HELP};

/// Page commands waiting to be carried out; more are refused rather than queued without bound.
const PAGE_QUEUE: usize = 16;

/// What a command line led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// What to tell the user (may span lines).
    pub text: String,
    /// Whether it failed (unknown command or broker, or the broker could not do it).
    pub error: bool,
    /// `quit`: the caller should stop the demo.
    pub quit: bool,
}

impl Reply {
    fn ok(text: String) -> Self {
        Self {
            text,
            error: false,
            quit: false,
        }
    }

    fn error(text: String) -> Self {
        Self {
            text,
            error: true,
            quit: false,
        }
    }
}

/// A running demo.
pub struct Demo {
    server: ServerHandle,
    brokers: Arc<Vec<BrokerHandle>>,
    tasks: Vec<JoinHandle<()>>,
    shutdown: CancellationToken,
    token: Option<String>,
    /// Page commands with their replies, for the terminal to show (taken once by [`Demo::page_log`]).
    page_log: Mutex<Option<mpsc::Receiver<(String, Reply)>>>,
}

impl Demo {
    /// Starts the NameServer with the dashboard, then the brokers (each registers at once).
    /// Fails when an address cannot be bound.
    pub async fn start(config: DemoConfig) -> std::io::Result<Self> {
        let (page_tx, mut page_rx) = mpsc::channel::<String>(PAGE_QUEUE);
        let mut server_config = ServerConfig::with_home(config.home.clone());
        server_config.listen = config.namesrv;
        server_config.ws = Some(config.listen);
        server_config.ws_access = config.access.clone();
        server_config.ws_commands = Some(CommandSink(Arc::new(move |text| {
            if page_tx.try_send(text).is_err() {
                tracing::warn!("too many commands from the page at once: one dropped");
            }
        })));
        let server = crate::server::run(server_config).await?;
        let shutdown = CancellationToken::new();
        let namesrv = server.local_addr().to_string();
        let mut tasks = Vec::new();
        let mut brokers = Vec::new();
        for spec in cluster::brokers() {
            let (handle, task) =
                broker::spawn(&spec, namesrv.clone(), config.schedule, shutdown.clone());
            brokers.push(handle);
            tasks.push(task);
        }
        let brokers = Arc::new(brokers);
        let (log_tx, log_rx) = mpsc::channel(PAGE_QUEUE);
        let for_page = Arc::clone(&brokers);
        let stop = shutdown.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let text = tokio::select! {
                    () = stop.cancelled() => return,
                    text = page_rx.recv() => match text { Some(t) => t, None => return },
                };
                let reply = match command::parse(&text) {
                    // A page must not stop the demo the terminal started.
                    Ok(Some(Command::Quit)) => {
                        Reply::error("quit works on the terminal only".into())
                    }
                    _ => execute(&for_page, &text).await,
                };
                tracing::info!(command = %text, reply = %reply.text, "page command");
                let _ = log_tx.try_send((text, reply));
            }
        }));
        Ok(Self {
            server,
            brokers,
            tasks,
            shutdown,
            token: config.access.token,
            page_log: Mutex::new(Some(log_rx)),
        })
    }

    /// Where the NameServer listens.
    pub fn namesrv_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Where the dashboard, `/ws` and `/metrics` are served.
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.server.ws_addr()
    }

    /// The page to open (with the token when one is required).
    pub fn url(&self) -> String {
        self.http_addr().map_or_else(String::new, |a| {
            crate::host::web::page::page_url(a, self.token.as_deref())
        })
    }

    /// The brokers, in `list` order.
    pub fn brokers(&self) -> &[BrokerHandle] {
        &self.brokers
    }

    /// Carries out one command line (as typed on the terminal).
    pub async fn execute(&self, line: &str) -> Reply {
        execute(&self.brokers, line).await
    }

    /// The commands the page sent and what they did; `None` after the first call.
    pub fn page_log(&self) -> Option<mpsc::Receiver<(String, Reply)>> {
        self.page_log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// Stops the brokers (their connections close), then the NameServer.
    pub async fn shutdown(self) {
        self.shutdown.cancel();
        for task in self.tasks {
            let _ = task.await;
        }
        self.server.shutdown().await;
    }
}

async fn execute(brokers: &[BrokerHandle], line: &str) -> Reply {
    let command = match command::parse(line) {
        Ok(Some(c)) => c,
        Ok(None) => return Reply::ok(String::new()),
        Err(e) => return Reply::error(e),
    };
    match command {
        Command::Help => Reply::ok(HELP.to_owned()),
        Command::Quit => Reply {
            quit: true,
            ..Reply::ok("stopping".into())
        },
        Command::List => Reply::ok(list(brokers)),
        Command::Broker(action, name) => {
            // The page names brokers by address; people by name.
            let Some(broker) = brokers.iter().find(|b| b.name == name || b.addr == name) else {
                let names: Vec<&str> = brokers.iter().map(|b| b.name.as_str()).collect();
                return Reply::error(format!(
                    "no broker named {name:?}; brokers: {}",
                    names.join(", ")
                ));
            };
            match broker.act(action).await {
                Ok(text) => Reply::ok(text),
                Err(text) => Reply::error(text),
            }
        }
    }
}

/// One line per broker: name, address, state, registrations, last error.
fn list(brokers: &[BrokerHandle]) -> String {
    brokers
        .iter()
        .map(|b| {
            let s = b.status();
            let error = s
                .last_error
                .map_or_else(String::new, |e| format!("  last error: {e}"));
            format!(
                "{:<12} {:<17} {:<8} registrations: {}{error}",
                b.name,
                b.addr,
                state_word(s.state),
                s.registrations
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
