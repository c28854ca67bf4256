//! What the simulator reports: one event per thing that happened, with its virtual time and cause,
//! and [`describe`] to say it in plain words.

use serde::Serialize;

// From the leaf: the lesson (which the scenario embeds) waits for these events.
use super::scenario::action::Action;
use crate::model::{BrokerName, ProducerGroup, TopicName, TopicRouteData};
use crate::namesrv::{Event, PermChange, RemovalReason, TopicRemovalReason};

/// An event at a virtual time (ms).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimEvent {
    /// Virtual milliseconds.
    pub t: u64,
    #[serde(flatten)]
    pub kind: SimEventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SimEventKind {
    /// A NameServer accepted a registration (`first`: a new group or id slot).
    BrokerRegistered {
        namesrv: String,
        broker_addr: String,
        broker_name: String,
        broker_id: i64,
        first: bool,
        /// Another address that held the id slot until now.
        #[serde(skip_serializing_if = "Option::is_none")]
        replaced: Option<String>,
    },
    /// A NameServer refused a registration (5.x single-topic guard, stale stateVersion).
    RegistrationRejected {
        namesrv: String,
        broker_addr: String,
        broker_name: String,
        broker_id: i64,
        reason: String,
        /// The stateVersion the registration carried.
        state_version: i64,
        /// For `stale_state_version`: who holds the id, and its newer stateVersion.
        #[serde(skip_serializing_if = "Option::is_none")]
        holder_addr: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        holder_state_version: Option<i64>,
    },
    /// A broker left a NameServer's tables.
    BrokerRemoved {
        namesrv: String,
        broker_addr: String,
        broker_name: Option<String>,
        /// `unregistered`, `channel_closed`, `expired` or `idle_closed`.
        reason: &'static str,
        /// For `expired`: when it last spoke.
        #[serde(skip_serializing_if = "Option::is_none")]
        last_heartbeat_t: Option<u64>,
    },
    /// A group lost its last member.
    BrokerGroupRemoved {
        namesrv: String,
        cluster: String,
        broker_name: String,
    },
    /// The same-address rule moved an address between ids of its group.
    BrokerIdSwitched {
        namesrv: String,
        broker_name: String,
        broker_addr: String,
        old_ids: Vec<i64>,
        new_id: i64,
    },
    /// A topic's QueueData for one group was created, updated or removed.
    TopicChanged {
        namesrv: String,
        topic: String,
        broker_name: String,
        /// `created`, `updated`, `removed`.
        change: &'static str,
        /// The perm after the change (absent when removed).
        #[serde(skip_serializing_if = "Option::is_none")]
        perm: Option<i32>,
        /// Why it was removed: `broker_group_removed`, `deleted`, `pruned_by_registration`.
        #[serde(skip_serializing_if = "Option::is_none")]
        cause: Option<&'static str>,
    },
    /// Write permission wiped or added on a NameServer.
    PermChanged {
        namesrv: String,
        broker_name: String,
        /// `wiped` or `added`.
        change: &'static str,
        topics: Vec<String>,
    },
    /// A KV entry put or deleted.
    KvChanged {
        namesrv: String,
        namespace: String,
        key: String,
        value: Option<String>,
    },
    /// A producer asked its NameServer for the route (`ok`: a route came back).
    RoutePolled {
        producer: String,
        namesrv: String,
        topic: String,
        ok: bool,
        /// Whether the producer's cached route changed.
        changed: bool,
    },
    /// One send attempt of a producer, ending at `t`. The producer, topic and broker are shared names
    /// (a reference count per event, not allocations: there is one of these per simulated send).
    Send {
        producer: ProducerGroup,
        topic: TopicName,
        broker_name: Option<BrokerName>,
        queue_id: Option<i32>,
        /// 1 for the first attempt of a message, 2 and 3 for retries.
        attempt: u32,
        ok: bool,
        latency_ms: u64,
        /// Why it failed: `no_route`, `connect_refused`, `timeout`, `call_timeout`, `no_master`,
        /// `topic_not_exist`, `no_permission`, `service_not_available` (a slave).
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<&'static str>,
    },
    /// A `query_route` action's answer (`route` null: TOPIC_NOT_EXIST). Boxed, as the action below:
    /// rare events whose payloads would otherwise size every event, one per simulated send.
    RouteQuery {
        namesrv: String,
        topic: String,
        route: Option<Box<TopicRouteData>>,
    },
    /// A consumer's rebalance of one topic changed the queues it reads. Boxed: rare, and large.
    ConsumerRebalanced(Box<ConsumerRebalanced>),
    /// A broker's consumer table took a member in (its first heartbeat there).
    ConsumerJoined {
        group: String,
        client_id: String,
        broker_addr: String,
    },
    /// A broker's consumer table let a member go.
    ConsumerLeft {
        group: String,
        client_id: String,
        broker_addr: String,
        /// `unregistered` (graceful shutdown), `channel_closed` (process gone) or `expired`
        /// (silent for over 120 s).
        reason: &'static str,
    },
    /// A member took up a queue from an offset below what the group had already consumed: those
    /// messages are read again.
    Duplicates(Box<Duplicates>),
    /// A controller elected a group's master, kept it, or could elect nobody. Boxed: rare, and
    /// large.
    MasterElected(Box<MasterElected>),
    /// The controller accepted a master's new SyncStateSet (`alterSyncStateSet`).
    SyncStateSetChanged {
        group: String,
        cluster: String,
        controller: String,
        /// The master's controller id.
        master: i64,
        old: Vec<i64>,
        new: Vec<i64>,
        /// The new SyncStateSet epoch.
        epoch: i32,
    },
    /// A controller-mode broker took the role the controller gave it, and the broker id that goes
    /// with it (0 as master, its controller id as slave); or a DLedger broker the role its Raft
    /// group gave it (0 as leader, its member number + 1 as slave).
    BrokerRoleChanged {
        /// `controller` or `dledger`.
        mode: &'static str,
        broker_addr: String,
        broker_name: String,
        /// `master`, `slave` or `candidate` (no role yet).
        old_role: &'static str,
        new_role: &'static str,
        old_broker_id: i64,
        broker_id: i64,
        /// The master epoch, which its registrations now carry as `stateVersion` (controller
        /// mode); the Raft term (DLedger).
        epoch: i32,
    },
    /// An acting-master slave learnt that its id is now its group's smallest (the master is gone
    /// from `namesrv`'s member group): it acts as master (`changeSpecialServiceStatus(true)`).
    ActingMasterStarted {
        broker_addr: String,
        broker_name: String,
        broker_id: i64,
        namesrv: String,
    },
    /// It learnt that a smaller id is back in its group (the master's registration): it no longer
    /// acts as master.
    ActingMasterEnded {
        broker_addr: String,
        broker_name: String,
        broker_id: i64,
        namesrv: String,
        min_broker_id: i64,
        min_broker_addr: String,
    },
    /// A Raft group elected a leader: the controllers (`mode` `controller`, `leader` a controller's
    /// name, `votes` the members running) or a DLedger broker group (`mode` `dledger`, `leader`
    /// the broker's address, `votes` the members that voted for it).
    LeaderElected {
        mode: &'static str,
        raft_group: String,
        leader: String,
        term: u64,
        votes: usize,
        members: usize,
    },
    /// An action was applied.
    Action {
        #[serde(flatten)]
        action: Box<Action>,
    },
}

/// `master_elected`: the controller's inputs (the sets it chose from, whom it saw alive, each
/// candidate's epoch, offset and priority) and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MasterElected {
    pub group: String,
    pub cluster: String,
    /// The group's mode (`controller`).
    pub mode: &'static str,
    /// The controller that decided (the leader).
    pub controller: String,
    /// `elected`, `still_master` (the old master chosen again) or `nobody`.
    pub outcome: &'static str,
    /// Why there was an election: `master_silent` (no heartbeat within its timeout),
    /// `master_connection_closed`, `master_inactive` (the leader's re-election scan),
    /// `broker_asked` (a replica with no master asked) or `admin` (`mqadmin electMaster`).
    pub cause: &'static str,
    /// For `master_silent`: how long the master had been silent, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent_ms: Option<u64>,
    pub old_master: Option<i64>,
    pub new_master: Option<i64>,
    pub new_master_addr: Option<String>,
    /// The master epoch after the election.
    pub epoch: i32,
    /// The SyncStateSet it elected from.
    pub sync_state_set: Vec<i64>,
    /// Every replica (only when unclean election is on).
    pub all_replicas: Option<Vec<i64>>,
    /// The replicas the controller saw alive.
    pub alive: Vec<i64>,
    /// The replica asked for (`mqadmin electMaster -b`).
    pub prefer: Option<i64>,
    /// Each replica it could choose from, as the controller last heard of it.
    pub candidates: Candidates,
}

/// (controller id, candidate) pairs, written as a JSON object keyed by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Candidates(pub Vec<(i64, Candidate)>);

impl Serialize for Candidates {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(id, c)| (id, c)))
    }
}

/// A candidate of an election, as its heartbeats said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Candidate {
    pub epoch: i32,
    pub max_offset: i64,
    pub priority: i32,
}

/// A queue in a consumer event: `{brokerName, queueId}` (the topic is the event's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueRef {
    pub broker_name: String,
    pub queue_id: i32,
}

impl QueueRef {
    pub(crate) fn of(mq: &crate::consumer::MessageQueue) -> Self {
        Self {
            broker_name: mq.broker_name.to_string(),
            queue_id: mq.queue_id,
        }
    }
}

/// `consumer_rebalanced`: who, the inputs of the allocation and its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConsumerRebalanced {
    pub group: String,
    pub topic: String,
    pub client_id: String,
    /// The strategy's Java name.
    pub strategy: &'static str,
    /// The topic's readable queues in the member's route, sorted as Java sorts them.
    pub mq_all: Vec<QueueRef>,
    /// The members as the broker it asked answered, sorted.
    pub cid_all: Vec<String>,
    /// The queues the strategy gave this member.
    pub queues: Vec<QueueRef>,
}

/// `duplicates`: how many messages a member will read again, of which queue, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Duplicates {
    pub group: String,
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
    /// The member that reads them again.
    pub client_id: String,
    pub count: u64,
    /// The member that read them first.
    pub previous: String,
    /// `owner_killed`, `owner_frozen`, `owner_still_reading` or `commit_not_seen`.
    pub reason: &'static str,
}

/// The simulator's name for a removal reason.
pub fn reason_name(r: &RemovalReason) -> &'static str {
    match r {
        RemovalReason::Unregistered => "unregistered",
        RemovalReason::ChannelClosed => "channel_closed",
        RemovalReason::IdleClosed => "idle_closed",
        RemovalReason::Expired { .. } => "expired",
    }
}

impl SimEventKind {
    /// A registration that took no new id slot and displaced nobody: a heartbeat.
    pub fn is_heartbeat(&self) -> bool {
        matches!(
            self,
            SimEventKind::BrokerRegistered {
                first: false,
                replaced: None,
                ..
            }
        )
    }

    /// What the feed and the text timeline leave out, as it would drown them: heartbeats,
    /// unchanged route polls and sends that succeeded at the first attempt.
    pub fn is_routine(&self) -> bool {
        self.is_heartbeat()
            || matches!(
                self,
                SimEventKind::RoutePolled {
                    ok: true,
                    changed: false,
                    ..
                } | SimEventKind::Send {
                    ok: true,
                    attempt: 1,
                    ..
                }
            )
    }
}

/// Turns a route-manager event of NameServer `ns` into a simulator event.
pub(crate) fn from_core(ns: &str, e: Event) -> Option<SimEventKind> {
    let namesrv = ns.to_owned();
    Some(match e {
        Event::BrokerRegistered {
            broker_name,
            broker_id,
            broker_addr,
            first,
            replaced,
            ..
        } => SimEventKind::BrokerRegistered {
            namesrv,
            broker_addr: broker_addr.to_string(),
            broker_name: broker_name.to_string(),
            broker_id,
            first,
            replaced: replaced.map(|a| a.to_string()),
        },
        Event::RegistrationRejected {
            broker_name,
            broker_id,
            broker_addr,
            reason,
            state_version,
            holder,
        } => SimEventKind::RegistrationRejected {
            namesrv,
            broker_addr: broker_addr.to_string(),
            broker_name: broker_name.to_string(),
            broker_id,
            reason: serde_json::to_value(reason).ok()?.as_str()?.to_owned(),
            state_version,
            holder_state_version: holder.as_ref().map(|h| h.1),
            holder_addr: holder.map(|h| h.0.to_string()),
        },
        Event::BrokerRemoved {
            broker_name,
            broker_addr,
            reason,
            ..
        } => SimEventKind::BrokerRemoved {
            namesrv,
            broker_addr: broker_addr.to_string(),
            broker_name: broker_name.map(|n| n.to_string()),
            reason: reason_name(&reason),
            last_heartbeat_t: match reason {
                RemovalReason::Expired {
                    last_update_timestamp,
                    ..
                } => Some(last_update_timestamp),
                _ => None,
            },
        },
        Event::BrokerGroupRemoved {
            cluster,
            broker_name,
        } => SimEventKind::BrokerGroupRemoved {
            namesrv,
            cluster: cluster.to_string(),
            broker_name: broker_name.to_string(),
        },
        Event::BrokerIdSwitched {
            broker_name,
            broker_addr,
            old_ids,
            new_id,
        } => SimEventKind::BrokerIdSwitched {
            namesrv,
            broker_name: broker_name.to_string(),
            broker_addr: broker_addr.to_string(),
            old_ids,
            new_id,
        },
        Event::TopicQueueChanged {
            topic,
            broker_name,
            before,
            after,
        } => SimEventKind::TopicChanged {
            namesrv,
            topic: topic.to_string(),
            broker_name: broker_name.to_string(),
            change: if before.is_some() {
                "updated"
            } else {
                "created"
            },
            perm: Some(after.perm),
            cause: None,
        },
        Event::TopicQueueRemoved {
            topic,
            broker_name,
            reason,
            ..
        } => SimEventKind::TopicChanged {
            namesrv,
            topic: topic.to_string(),
            broker_name: broker_name.to_string(),
            change: "removed",
            perm: None,
            cause: Some(match reason {
                TopicRemovalReason::BrokerGroupRemoved => "broker_group_removed",
                TopicRemovalReason::Deleted => "deleted",
                TopicRemovalReason::PrunedByRegistration => "pruned_by_registration",
            }),
        },
        Event::PermChanged {
            broker_name,
            change,
            topics,
        } => SimEventKind::PermChanged {
            namesrv,
            broker_name: broker_name.to_string(),
            change: match change {
                PermChange::Wiped => "wiped",
                PermChange::Added => "added",
            },
            topics: topics.into_iter().map(|t| t.to_string()).collect(),
        },
        Event::KvChanged {
            namespace,
            key,
            value,
        } => SimEventKind::KvChanged {
            namesrv,
            namespace,
            key,
            value,
        },
        // The simulator runs each batch at once; the removal event that follows tells the story.
        Event::UnregisterQueued { .. } => return None,
    })
}
