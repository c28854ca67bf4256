//! A scenario's actions: what happens when (`TimedAction`), what each action does (`Action`, its
//! `do`) and the two ends of a link a partition cuts. Written here with serde's derive; read by
//! `read_action`. The lesson's tasks are actions too, which is why these types sit in a leaf of
//! their own, below both the scenario and its lesson.

use serde::Serialize;

use super::consumers::ConsumerGroupSpec;
use super::specs::{BrokerSpec, ProducerSpec};
use crate::producer::ClientProfile;

/// An action at a time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimedAction {
    /// Seconds of virtual time.
    pub at: f64,
    #[serde(flatten)]
    pub action: Action,
}

/// Which link a partition cuts: between a broker and exactly one other end. Read by
/// `read_action` (unknown fields refused).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Link {
    /// Broker address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broker: Option<String>,
    /// NameServer name (with `broker`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namesrv: Option<String>,
    /// Producer group (with `broker`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
    /// Controller name (with `broker`): heartbeats, requests and notices between the two are lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    /// Another broker's address (with `broker`): replication between the two stalls, and a
    /// DLedger group's votes and heartbeats between them are lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peer: Option<String>,
}

impl Link {
    /// The cut between the broker at `broker` and NameServer `namesrv`.
    pub fn namesrv(broker: &str, namesrv: &str) -> Self {
        Link {
            broker: Some(broker.to_owned()),
            namesrv: Some(namesrv.to_owned()),
            ..Link::default()
        }
    }

    /// The cut between the broker at `broker` and controller `controller`.
    pub fn controller(broker: &str, controller: &str) -> Self {
        Link {
            broker: Some(broker.to_owned()),
            controller: Some(controller.to_owned()),
            ..Link::default()
        }
    }
}

/// What an action does (`"do"`). Written with serde's internally tagged form; read by
/// `read_action::from_map` (the same format and messages, without serde's buffering of the whole object).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// Start a broker.
    AddBroker(BrokerSpec),
    /// The process dies; the OS closes its sockets.
    KillBroker { broker: String },
    /// The process hangs: nothing is sent, nothing is closed.
    FreezeBroker { broker: String },
    /// Graceful shutdown: UNREGISTER_BROKER to every reachable NameServer.
    StopBroker { broker: String },
    /// Restart the process (from any state).
    RestartBroker { broker: String },
    /// Cut a link: broker ↔ NameServer, producer ↔ broker, broker ↔ controller or broker ↔ broker.
    Partition(Link),
    /// Restore a link.
    Heal(Link),
    /// Create or update a topic on a broker (by address) or on every member of a group.
    CreateTopic {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        broker_name: Option<String>,
        topic: String,
        #[serde(default = "default_queues")]
        read: i32,
        #[serde(default = "default_queues")]
        write: i32,
        #[serde(default = "default_perm")]
        perm: i32,
    },
    /// DELETE_TOPIC_IN_NAMESRV on one or every NameServer.
    DeleteTopic {
        topic: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cluster: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// WIPE_WRITE_PERM_OF_BROKER on one or every NameServer.
    WipeWritePerm {
        broker_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// ADD_WRITE_PERM_OF_BROKER on one or every NameServer.
    AddWritePerm {
        broker_name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// Start a producer.
    AddProducer(ProducerSpec),
    /// Shut a producer down.
    RemoveProducer { group: String },
    /// PUT_KV_CONFIG on one or every NameServer.
    PutKv {
        namespace: String,
        key: String,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        namesrv: Option<String>,
    },
    /// Ask a NameServer for a route (recorded as a `route_query` event).
    QueryRoute { topic: String, namesrv: String },
    /// The broker registers with every reachable NameServer now (the dashboard's "heartbeat now").
    Heartbeat { broker: String },
    /// Start another NameServer (brokers register with it from their next period on).
    AddNamesrv { name: String },
    /// Change a producer's fault tolerance or client tables.
    SetProducer {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fault_tolerance: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client: Option<ClientProfile>,
    },
    /// Start a consumer group and its members.
    AddConsumerGroup(ConsumerGroupSpec),
    /// Start one more member of a group (its client id made up when not given).
    AddConsumer {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_id: Option<String>,
    },
    /// The member's process dies: every broker it is connected to sees the connection close.
    KillConsumer { client_id: String },
    /// The member hangs: no pulls, heartbeats or commits; brokers drop it after 120 s of silence.
    FreezeConsumer { client_id: String },
    /// Graceful shutdown: offsets committed, UNREGISTER_CLIENT to every broker.
    StopConsumer { client_id: String },
    /// Start the member again with the same client id (killing it first if alive).
    RestartConsumer { client_id: String },
    /// Change a member's consume rate (messages per second).
    SetConsumer { client_id: String, rate: f64 },
    /// Change a group's strategy (every member) or its members' rate.
    SetConsumerGroup {
        group: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strategy: Option<crate::consumer::StrategyName>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rate: Option<f64>,
    },
    /// A frozen broker carries on where it stopped (a long GC pause ends): its overdue
    /// registration, heartbeats and checks run at once, with what it knew before the freeze.
    ResumeBroker { broker: String },
    /// Deploy a controller where the scenario has none: alone in its DLedger group, it leads at
    /// once. (Once there are controllers their DLedger peers are fixed: none is added.)
    AddController { controller: String },
    /// The controller process dies.
    KillController { controller: String },
    /// The controller hangs: it answers nothing, scans nothing, closes nothing.
    FreezeController { controller: String },
    /// Start the controller again (killing it first if alive); it forgets its heartbeat table.
    RestartController { controller: String },
    /// A controller-mode replica's replication stalls (`lagging` true, the default) or resumes:
    /// a stalled slave leaves the SyncStateSet after `haMaxTimeSlaveNotCatchup` (15 s).
    LagReplica { broker: String, lagging: bool },
    /// `mqadmin electMaster -c CLUSTER -bn NAME -b ID`: ask the controller to make replica
    /// `broker_id` (its controller id) the group's master; nobody is elected if it cannot be.
    ElectMaster { broker_name: String, broker_id: i64 },
}

impl Action {
    /// The action's `do` name.
    pub fn name(&self) -> &'static str {
        match self {
            Action::AddBroker(_) => "add_broker",
            Action::KillBroker { .. } => "kill_broker",
            Action::FreezeBroker { .. } => "freeze_broker",
            Action::StopBroker { .. } => "stop_broker",
            Action::RestartBroker { .. } => "restart_broker",
            Action::Partition(_) => "partition",
            Action::Heal(_) => "heal",
            Action::CreateTopic { .. } => "create_topic",
            Action::DeleteTopic { .. } => "delete_topic",
            Action::WipeWritePerm { .. } => "wipe_write_perm",
            Action::AddWritePerm { .. } => "add_write_perm",
            Action::AddProducer(_) => "add_producer",
            Action::RemoveProducer { .. } => "remove_producer",
            Action::PutKv { .. } => "put_kv",
            Action::QueryRoute { .. } => "query_route",
            Action::Heartbeat { .. } => "heartbeat",
            Action::AddNamesrv { .. } => "add_namesrv",
            Action::SetProducer { .. } => "set_producer",
            Action::AddConsumerGroup(_) => "add_consumer_group",
            Action::AddConsumer { .. } => "add_consumer",
            Action::KillConsumer { .. } => "kill_consumer",
            Action::FreezeConsumer { .. } => "freeze_consumer",
            Action::StopConsumer { .. } => "stop_consumer",
            Action::RestartConsumer { .. } => "restart_consumer",
            Action::SetConsumer { .. } => "set_consumer",
            Action::SetConsumerGroup { .. } => "set_consumer_group",
            Action::ResumeBroker { .. } => "resume_broker",
            Action::AddController { .. } => "add_controller",
            Action::KillController { .. } => "kill_controller",
            Action::FreezeController { .. } => "freeze_controller",
            Action::RestartController { .. } => "restart_controller",
            Action::LagReplica { .. } => "lag_replica",
            Action::ElectMaster { .. } => "elect_master",
        }
    }
}
