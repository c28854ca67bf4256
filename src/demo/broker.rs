//! One emulated broker process: a task that registers over its own kept-open TCP connection at
//! start, after 10 s, then every period, as `BrokerController` does, and obeys kill / freeze /
//! stop / restart. What it sends comes from the simulator's broker model (its topics plus the
//! system topics, its HA address).

use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::command::Action;
use crate::model::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
use crate::net::{ClientConfig, NamesrvClient};
use crate::remoting::headers::{RegisterBrokerRequestHeader, UnregisterBrokerRequestHeader};
use crate::sim::scenario::BrokerSpec;
use crate::sim::{ha_addr, system_topics, BrokerState};

/// When a broker registers, and the timeout it announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The first repeat after a start (10 s).
    pub first_repeat: Duration,
    /// Every registration after that (30 s).
    pub period: Duration,
    /// `heartbeatTimeoutMillis` to send; `None` as a default broker (the NameServer's 120 s).
    pub expiry: Option<Duration>,
}

/// What `list` shows of a broker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub state: BrokerState,
    /// Registrations the NameServer accepted since the demo started.
    pub registrations: u64,
    /// The last failure to register, cleared by the next success.
    pub last_error: Option<String>,
}

/// The state as a word.
pub fn state_word(state: BrokerState) -> &'static str {
    match state {
        BrokerState::Running => "running",
        BrokerState::Frozen => "frozen",
        BrokerState::Killed => "killed",
        BrokerState::Stopped => "stopped",
    }
}

type Order = (Action, oneshot::Sender<Result<String, String>>);

/// The demo's end of a broker task.
#[derive(Debug)]
pub struct BrokerHandle {
    /// The name commands use ([`super::cluster::process_name`]).
    pub name: String,
    pub addr: String,
    orders: mpsc::Sender<Order>,
    status: watch::Receiver<Status>,
}

impl BrokerHandle {
    /// Carries out `action` and says what happened (or why not).
    pub async fn act(&self, action: Action) -> Result<String, String> {
        let (tx, rx) = oneshot::channel();
        let gone = || format!("{} is no longer running (the demo is stopping)", self.name);
        self.orders.send((action, tx)).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }

    pub fn status(&self) -> Status {
        self.status.borrow().clone()
    }
}

/// Starts the broker's task; it registers at once.
pub fn spawn(
    spec: &BrokerSpec,
    namesrv: String,
    schedule: Schedule,
    shutdown: CancellationToken,
) -> (BrokerHandle, JoinHandle<()>) {
    let mut topics: Vec<TopicConfig> = system_topics(spec);
    topics.extend(spec.topics.iter().map(|t| t.config()));
    let header = RegisterBrokerRequestHeader {
        broker_name: spec.name.clone(),
        broker_addr: spec.addr.clone(),
        cluster_name: spec.cluster.clone(),
        ha_server_addr: ha_addr(spec),
        broker_id: spec.id,
        heartbeat_timeout_millis: schedule
            .expiry
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        // A 5.x broker always sends it (false unless enableSlaveActingMaster).
        enable_acting_master: Some(false),
        ..RegisterBrokerRequestHeader::default()
    };
    let (status_tx, status) = watch::channel(Status {
        state: BrokerState::Stopped,
        registrations: 0,
        last_error: None,
    });
    let (orders, rx) = mpsc::channel(4);
    let name = super::cluster::process_name(spec);
    let broker = Broker {
        name: name.clone(),
        namesrv,
        schedule,
        header,
        topics,
        version: 0,
        client: None,
        next: None,
        status: status_tx,
    };
    let task = tokio::spawn(broker.run(rx, shutdown));
    let handle = BrokerHandle {
        name,
        addr: spec.addr.clone(),
        orders,
        status,
    };
    (handle, task)
}

struct Broker {
    name: String,
    namesrv: String,
    schedule: Schedule,
    header: RegisterBrokerRequestHeader,
    topics: Vec<TopicConfig>,
    /// The DataVersion counter, bumped on each start (a new process, a new table version).
    version: i64,
    /// The registering connection, kept open between registrations.
    client: Option<NamesrvClient>,
    /// When the next registration is due; `None` unless running.
    next: Option<Instant>,
    status: watch::Sender<Status>,
}

impl Broker {
    async fn run(mut self, mut orders: mpsc::Receiver<Order>, shutdown: CancellationToken) {
        self.start().await;
        loop {
            let due = self.next;
            let timer = async move {
                match due {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = shutdown.cancelled() => break,
                order = orders.recv() => match order {
                    Some((action, reply)) => {
                        let said = self.act(action).await;
                        let _ = reply.send(said);
                    }
                    None => break,
                },
                () = timer => {
                    self.register().await;
                    self.next = Some(Instant::now() + self.schedule.period);
                }
            }
        }
        self.close();
    }

    fn state(&self) -> BrokerState {
        self.status.borrow().state
    }

    fn set_state(&self, state: BrokerState) {
        self.status.send_modify(|s| s.state = state);
    }

    async fn act(&mut self, action: Action) -> Result<String, String> {
        let name = self.name.clone();
        let state = self.state();
        let not = |what: &str| {
            Err(format!(
                "{name} is {}: {what} (try `restart {name}`)",
                state_word(state)
            ))
        };
        match action {
            Action::Kill => {
                if matches!(state, BrokerState::Killed | BrokerState::Stopped) {
                    return not("nothing to kill");
                }
                self.halt(BrokerState::Killed);
                self.close();
                Ok(format!(
                    "{name} killed: its connection is closed, the NameServer drops it at once"
                ))
            }
            Action::Freeze => {
                if state != BrokerState::Running {
                    return not("only a running broker can freeze");
                }
                self.halt(BrokerState::Frozen);
                Ok(format!(
                    "{name} frozen: no more registrations, its connection stays open; it leaves \
                     when its heartbeat expires, {} after its last registration",
                    humantime::format_duration(self.schedule.expiry.unwrap_or(DEFAULT_EXPIRY))
                ))
            }
            Action::Stop => {
                if state != BrokerState::Running {
                    return not("only a running broker can shut down gracefully");
                }
                self.halt(BrokerState::Stopped);
                let said = self.unregister().await;
                self.close();
                said.map(|()| format!("{name} stopped: unregistered, then closed"))
            }
            Action::Restart => {
                self.close();
                self.start().await;
                let status = self.status.borrow().clone();
                match status.last_error {
                    Some(e) => Err(format!(
                        "{name} restarted, but its registration failed: {e}"
                    )),
                    None => Ok(format!(
                        "{name} restarted: registered, again in {}, then every {}",
                        humantime::format_duration(self.schedule.first_repeat),
                        humantime::format_duration(self.schedule.period)
                    )),
                }
            }
        }
    }

    /// Register now, again after the first repeat, then every period.
    async fn start(&mut self) {
        self.version += 1;
        self.set_state(BrokerState::Running);
        self.register().await;
        self.next = Some(Instant::now() + self.schedule.first_repeat);
    }

    fn halt(&mut self, state: BrokerState) {
        self.set_state(state);
        self.next = None;
    }

    fn close(&mut self) {
        if let Some(client) = self.client.take() {
            client.close();
        }
    }

    /// Connects if needed (a new connection after the NameServer closed the old one) and
    /// registers the whole topic table.
    async fn register(&mut self) {
        let done = async {
            let client = match self.client.take().filter(|c| !c.is_closed()) {
                Some(c) => c,
                None => NamesrvClient::connect(&self.namesrv, ClientConfig::default())
                    .await
                    .map_err(|e| format!("cannot connect to {}: {e}", self.namesrv))?,
            };
            let body = RegisterBrokerBody {
                filter_server_list: Vec::new(),
                topic_config_serialize_wrapper: TopicConfigSerializeWrapper::new(
                    DataVersion::new(self.version, wall_ms()),
                    self.topics.iter().cloned(),
                ),
            };
            let said = client.register_broker(&self.header, &body).await;
            // Kept even after a refusal: the connection is fine, and the next period retries.
            self.client = Some(client);
            said.map(drop)
                .map_err(|e| format!("registration refused: {e}"))
        }
        .await;
        if let Err(e) = &done {
            tracing::warn!(broker = %self.name, "{e}");
        }
        self.status.send_modify(|s| match done {
            Ok(()) => {
                s.registrations += 1;
                s.last_error = None;
            }
            Err(e) => s.last_error = Some(e),
        });
    }

    async fn unregister(&mut self) -> Result<(), String> {
        let Some(client) = &self.client else {
            return Ok(());
        };
        let header = UnregisterBrokerRequestHeader {
            broker_name: self.header.broker_name.clone(),
            broker_addr: self.header.broker_addr.clone(),
            cluster_name: self.header.cluster_name.clone(),
            broker_id: self.header.broker_id,
        };
        client
            .unregister_broker(&header)
            .await
            .map_err(|e| format!("{}: unregister failed: {e}", self.name))
    }
}

/// The NameServer's expiry for a broker that sends no timeout (`BROKER_CHANNEL_EXPIRED_TIME`).
pub const DEFAULT_EXPIRY: Duration =
    Duration::from_millis(crate::namesrv::DEFAULT_BROKER_CHANNEL_EXPIRED_MS);

fn wall_ms() -> i64 {
    i64::try_from(crate::host::clock::now_ms()).unwrap_or(i64::MAX)
}
