//! Domain events: what each mutation changed and why, so a UI and a log can explain it.

use serde::Serialize;

use crate::model::{BrokerAddr, BrokerName, ClusterName, QueueData, TopicName};

/// Why a broker left the tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RemovalReason {
    /// The broker sent UNREGISTER_BROKER (graceful shutdown).
    Unregistered,
    /// Its connection closed or failed (process died, reset, exception).
    ChannelClosed,
    /// Its connection was idle for `serverChannelMaxIdleTimeSeconds` (120 s) and the server closed it.
    IdleClosed,
    /// The scan found no heartbeat for longer than the timeout.
    #[serde(rename_all = "camelCase")]
    Expired {
        /// When the broker last spoke.
        last_update_timestamp: u64,
        /// The timeout that elapsed.
        heartbeat_timeout_millis: u64,
    },
}

/// Why a topic lost one group's QueueData.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TopicRemovalReason {
    /// The group itself was removed (its last member left).
    BrokerGroupRemoved,
    /// DELETE_TOPIC_IN_NAMESRV.
    Deleted,
    /// 5.x `deleteTopicWithBrokerRegistration`: the broker's body no longer lists the topic.
    PrunedByRegistration,
}

/// Which way a write-perm request went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PermChange {
    /// WIPE_WRITE_PERM_OF_BROKER: `perm & !WRITE`.
    Wiped,
    /// ADD_WRITE_PERM_OF_BROKER: `perm = READ | WRITE`.
    Added,
}

/// Why a registration was not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// 5.x: the id slot holds another address with a larger stateVersion.
    StaleStateVersion,
    /// 5.x: first registration of the id with exactly one topic.
    SingleTopicGuard,
}

/// Something that changed in the route tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A broker registered (or re-registered). `first` is RocketMQ's `registerFirst`: a new group or a
    /// new id slot in it.
    BrokerRegistered {
        cluster: ClusterName,
        broker_name: BrokerName,
        broker_id: i64,
        broker_addr: BrokerAddr,
        first: bool,
        /// Another address that held this id slot until now (Java replaces it without a word: a
        /// returning DLedger leader or an old master taking id 0 back from the one elected).
        #[serde(skip_serializing_if = "Option::is_none")]
        replaced: Option<BrokerAddr>,
    },
    /// The same-address rule removed the broker's address from other id slots of its group (a slave
    /// that came back as master, or the reverse).
    BrokerIdSwitched {
        broker_name: BrokerName,
        broker_addr: BrokerAddr,
        old_ids: Vec<i64>,
        new_id: i64,
    },
    /// A registration that was refused or ignored.
    RegistrationRejected {
        broker_name: BrokerName,
        broker_id: i64,
        broker_addr: BrokerAddr,
        reason: RejectReason,
        /// The stateVersion the registration carried.
        state_version: i64,
        /// For a stale stateVersion: the address holding the id slot, and its stateVersion.
        holder: Option<(BrokerAddr, i64)>,
    },
    /// A topic's QueueData for one group was created (`before` is None) or changed.
    TopicQueueChanged {
        topic: TopicName,
        broker_name: BrokerName,
        before: Option<QueueData>,
        after: QueueData,
    },
    /// A topic's QueueData for one group was removed; `topic_removed` says the topic is now gone.
    TopicQueueRemoved {
        topic: TopicName,
        broker_name: BrokerName,
        reason: TopicRemovalReason,
        topic_removed: bool,
    },
    /// 5.x: an unregistration was queued for the next batch.
    UnregisterQueued {
        cluster: ClusterName,
        broker_name: BrokerName,
        broker_addr: BrokerAddr,
        reason: RemovalReason,
    },
    /// A broker left the live table and its group (`broker_id` is None when no group held it).
    BrokerRemoved {
        cluster: ClusterName,
        broker_name: Option<BrokerName>,
        broker_id: Option<i64>,
        broker_addr: BrokerAddr,
        reason: RemovalReason,
    },
    /// A group lost its last member and was removed from brokerAddrTable (and its cluster set).
    BrokerGroupRemoved {
        cluster: ClusterName,
        broker_name: BrokerName,
    },
    /// Write permission of a group's topics was wiped or added.
    PermChanged {
        broker_name: BrokerName,
        change: PermChange,
        topics: Vec<TopicName>,
    },
    /// A KV config entry was put (`value` Some) or deleted.
    KvChanged {
        namespace: String,
        key: String,
        value: Option<String>,
    },
}
