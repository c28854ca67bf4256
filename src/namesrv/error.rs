//! Errors of the route manager. A request that fails validation changes nothing.

use super::config::Profile;

/// Why the route manager refused a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RouteError {
    /// A request field is missing or out of range; nothing was changed.
    #[error("{field}: {reason}")]
    InvalidField {
        /// The field, as RocketMQ names it (e.g. `brokerId`, `topicConfigTable[T].perm`).
        field: String,
        /// What was wrong and what is allowed.
        reason: String,
    },
    /// The request exists only in the other RocketMQ line (e.g. BROKER_HEARTBEAT is 5.x only).
    #[error("{operation} is not supported by the {profile} NameServer")]
    NotSupported {
        /// The RocketMQ request name.
        operation: &'static str,
        /// The profile that lacks it.
        profile: Profile,
    },
    /// 5.x: the single-topic guard of spec §2.2 (a first registration whose body has exactly one
    /// topic). The NameServer answers SYSTEM_ERROR "register broker failed".
    #[error("register broker failed: a first registration of {broker_addr} (id {broker_id}) must carry the full topic table, not exactly one topic")]
    RegisterBrokerFailed {
        /// The broker that tried to register.
        broker_addr: String,
        /// Its id.
        broker_id: i64,
    },
    /// 5.x: the batch-unregistration queue is full (SYSTEM_ERROR in RocketMQ).
    #[error("unregister queue is full ({capacity} requests pending)")]
    UnregisterQueueFull {
        /// `unRegisterBrokerQueueCapacity`.
        capacity: usize,
    },
    /// 5.x: the query is switched off by NamesrvConfig (SYSTEM_ERROR "disable").
    #[error("disable: {0} is switched off in the NameServer config")]
    Disabled(&'static str),
    /// GET_KV_CONFIG / GET_KVLIST_BY_NAMESPACE found nothing (QUERY_NOT_FOUND).
    #[error("No config item, Namespace: {namespace} Key: {key}")]
    KvNotFound {
        /// The namespace asked for.
        namespace: String,
        /// The key asked for (empty for a namespace listing).
        key: String,
    },
}

impl RouteError {
    /// An [`RouteError::InvalidField`].
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        RouteError::InvalidField {
            field: field.into(),
            reason: reason.into(),
        }
    }
}
