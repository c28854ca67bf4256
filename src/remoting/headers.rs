//! Typed custom headers ↔ `extFields` (spec §5.5, §5.7).
//!
//! Writing follows Java's `makeCustomHeaderToNet`: every set field becomes its `toString()` (decimal
//! numbers, `true`/`false`), unset optional fields are omitted. Reading follows the server: required
//! fields must be present, numbers must parse, and booleans use Java's `parseBoolean` (`"true"` in any
//! case is true, anything else false).

use std::collections::BTreeMap;
use std::str::FromStr;

/// A header field is missing or does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// A required (`@CFNotNull`) field is absent.
    #[error("missing required header field {0}")]
    Missing(&'static str),
    /// A field's text is not a valid value of its type.
    #[error("header field {field} = {value:?} is not a valid {expected}")]
    Invalid {
        /// The field name.
        field: &'static str,
        /// The text found.
        value: String,
        /// The expected type.
        expected: &'static str,
    },
}

/// A custom header carried in `extFields`.
pub trait CommandHeader: Sized {
    /// The ext fields for this header (values as strings, unset fields omitted).
    fn to_ext_fields(&self) -> BTreeMap<String, String>;
    /// Reads the header from ext fields; unknown fields are ignored.
    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError>;
}

/// Collects ext fields.
#[derive(Default)]
struct Out(BTreeMap<String, String>);

impl Out {
    fn set(mut self, key: &str, value: impl ToString) -> Self {
        self.0.insert(key.to_owned(), value.to_string());
        self
    }

    fn opt(self, key: &str, value: Option<impl ToString>) -> Self {
        match value {
            Some(v) => self.set(key, v),
            None => self,
        }
    }
}

fn opt_str(ext: &BTreeMap<String, String>, key: &'static str) -> Option<String> {
    ext.get(key).cloned()
}

fn req_str(ext: &BTreeMap<String, String>, key: &'static str) -> Result<String, HeaderError> {
    opt_str(ext, key).ok_or(HeaderError::Missing(key))
}

fn opt_num<T: FromStr>(
    ext: &BTreeMap<String, String>,
    key: &'static str,
    expected: &'static str,
) -> Result<Option<T>, HeaderError> {
    ext.get(key)
        .map(|v| {
            v.trim().parse::<T>().map_err(|_| HeaderError::Invalid {
                field: key,
                value: v.clone(),
                expected,
            })
        })
        .transpose()
}

fn req_num<T: FromStr>(
    ext: &BTreeMap<String, String>,
    key: &'static str,
    expected: &'static str,
) -> Result<T, HeaderError> {
    opt_num(ext, key, expected)?.ok_or(HeaderError::Missing(key))
}

/// Java `Boolean.parseBoolean`.
fn opt_bool(ext: &BTreeMap<String, String>, key: &'static str) -> Option<bool> {
    ext.get(key).map(|v| v.eq_ignore_ascii_case("true"))
}

/// GET_ROUTEINFO_BY_TOPIC (105) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GetRouteInfoRequestHeader {
    /// Required.
    pub topic: String,
    /// 4.9.4+: ask for a standard-JSON route body.
    pub accept_standard_json_only: Option<bool>,
}

impl CommandHeader for GetRouteInfoRequestHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("topic", &self.topic)
            .opt("acceptStandardJsonOnly", self.accept_standard_json_only)
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            topic: req_str(ext, "topic")?,
            accept_standard_json_only: opt_bool(ext, "acceptStandardJsonOnly"),
        })
    }
}

/// REGISTER_BROKER (103) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegisterBrokerRequestHeader {
    /// Required.
    pub broker_name: String,
    /// Required.
    pub broker_addr: String,
    /// Required.
    pub cluster_name: String,
    /// Required.
    pub ha_server_addr: String,
    /// Required.
    pub broker_id: i64,
    /// Body is zlib-compressed (Java primitive: always written, default false).
    pub compressed: bool,
    /// CRC32 of the body (default 0, always written).
    pub body_crc32: i32,
    /// 5.x, optional.
    pub heartbeat_timeout_millis: Option<i64>,
    /// 5.x, optional.
    pub enable_acting_master: Option<bool>,
}

impl CommandHeader for RegisterBrokerRequestHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("brokerName", &self.broker_name)
            .set("brokerAddr", &self.broker_addr)
            .set("clusterName", &self.cluster_name)
            .set("haServerAddr", &self.ha_server_addr)
            .set("brokerId", self.broker_id)
            .set("compressed", self.compressed)
            .set("bodyCrc32", self.body_crc32)
            .opt("heartbeatTimeoutMillis", self.heartbeat_timeout_millis)
            .opt("enableActingMaster", self.enable_acting_master)
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            broker_name: req_str(ext, "brokerName")?,
            broker_addr: req_str(ext, "brokerAddr")?,
            cluster_name: req_str(ext, "clusterName")?,
            ha_server_addr: req_str(ext, "haServerAddr")?,
            broker_id: req_num(ext, "brokerId", "i64")?,
            compressed: opt_bool(ext, "compressed").unwrap_or(false),
            body_crc32: opt_num(ext, "bodyCrc32", "i32")?.unwrap_or(0),
            heartbeat_timeout_millis: opt_num(ext, "heartbeatTimeoutMillis", "i64")?,
            enable_acting_master: opt_bool(ext, "enableActingMaster"),
        })
    }
}

/// REGISTER_BROKER (103) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegisterBrokerResponseHeader {
    /// The master's HA address, for slaves.
    pub ha_server_addr: Option<String>,
    /// The master's address, for slaves.
    pub master_addr: Option<String>,
}

impl CommandHeader for RegisterBrokerResponseHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .opt("haServerAddr", self.ha_server_addr.as_ref())
            .opt("masterAddr", self.master_addr.as_ref())
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            ha_server_addr: opt_str(ext, "haServerAddr"),
            master_addr: opt_str(ext, "masterAddr"),
        })
    }
}

/// The broker identity shared by UNREGISTER_BROKER (104) and QUERY_DATA_VERSION (322) requests.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BrokerIdentityHeader {
    /// Required.
    pub broker_name: String,
    /// Required.
    pub broker_addr: String,
    /// Required.
    pub cluster_name: String,
    /// Required.
    pub broker_id: i64,
}

/// UNREGISTER_BROKER (104) request.
pub type UnregisterBrokerRequestHeader = BrokerIdentityHeader;
/// QUERY_DATA_VERSION (322) request.
pub type QueryDataVersionRequestHeader = BrokerIdentityHeader;

impl CommandHeader for BrokerIdentityHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("brokerName", &self.broker_name)
            .set("brokerAddr", &self.broker_addr)
            .set("clusterName", &self.cluster_name)
            .set("brokerId", self.broker_id)
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            broker_name: req_str(ext, "brokerName")?,
            broker_addr: req_str(ext, "brokerAddr")?,
            cluster_name: req_str(ext, "clusterName")?,
            broker_id: req_num(ext, "brokerId", "i64")?,
        })
    }
}

/// QUERY_DATA_VERSION (322) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueryDataVersionResponseHeader {
    /// Whether the broker's DataVersion differs from the stored one.
    pub changed: Option<bool>,
}

impl CommandHeader for QueryDataVersionResponseHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default().opt("changed", self.changed).0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            changed: opt_bool(ext, "changed"),
        })
    }
}

/// GET_KVLIST_BY_NAMESPACE (219) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GetKvListByNamespaceRequestHeader {
    /// Required.
    pub namespace: String,
}

impl CommandHeader for GetKvListByNamespaceRequestHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default().set("namespace", &self.namespace).0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            namespace: req_str(ext, "namespace")?,
        })
    }
}

/// GET_KV_CONFIG (101) and DELETE_KV_CONFIG (102) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KvConfigKeyHeader {
    /// Required.
    pub namespace: String,
    /// Required.
    pub key: String,
}

/// GET_KV_CONFIG (101) request.
pub type GetKvConfigRequestHeader = KvConfigKeyHeader;
/// DELETE_KV_CONFIG (102) request.
pub type DeleteKvConfigRequestHeader = KvConfigKeyHeader;

impl CommandHeader for KvConfigKeyHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("namespace", &self.namespace)
            .set("key", &self.key)
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            namespace: req_str(ext, "namespace")?,
            key: req_str(ext, "key")?,
        })
    }
}

/// GET_KV_CONFIG (101) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GetKvConfigResponseHeader {
    /// The value, when found.
    pub value: Option<String>,
}

impl CommandHeader for GetKvConfigResponseHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default().opt("value", self.value.as_ref()).0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            value: opt_str(ext, "value"),
        })
    }
}

/// PUT_KV_CONFIG (100) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PutKvConfigRequestHeader {
    /// Required.
    pub namespace: String,
    /// Required.
    pub key: String,
    /// Required.
    pub value: String,
}

impl CommandHeader for PutKvConfigRequestHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("namespace", &self.namespace)
            .set("key", &self.key)
            .set("value", &self.value)
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            namespace: req_str(ext, "namespace")?,
            key: req_str(ext, "key")?,
            value: req_str(ext, "value")?,
        })
    }
}

/// GET_TOPICS_BY_CLUSTER (224) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GetTopicsByClusterRequestHeader {
    /// Required.
    pub cluster: String,
}

impl CommandHeader for GetTopicsByClusterRequestHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default().set("cluster", &self.cluster).0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            cluster: req_str(ext, "cluster")?,
        })
    }
}

/// WIPE_WRITE_PERM_OF_BROKER (205) and ADD_WRITE_PERM_OF_BROKER (327) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BrokerNameHeader {
    /// Required.
    pub broker_name: String,
}

/// WIPE_WRITE_PERM_OF_BROKER (205) request.
pub type WipeWritePermOfBrokerRequestHeader = BrokerNameHeader;
/// ADD_WRITE_PERM_OF_BROKER (327) request.
pub type AddWritePermOfBrokerRequestHeader = BrokerNameHeader;

impl CommandHeader for BrokerNameHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default().set("brokerName", &self.broker_name).0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            broker_name: req_str(ext, "brokerName")?,
        })
    }
}

/// WIPE_WRITE_PERM_OF_BROKER (205) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WipeWritePermOfBrokerResponseHeader {
    /// Required: how many topics lost write permission.
    pub wipe_topic_count: i32,
}

impl CommandHeader for WipeWritePermOfBrokerResponseHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("wipeTopicCount", self.wipe_topic_count)
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            wipe_topic_count: req_num(ext, "wipeTopicCount", "i32")?,
        })
    }
}

/// ADD_WRITE_PERM_OF_BROKER (327) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AddWritePermOfBrokerResponseHeader {
    /// Required: how many topics regained write permission.
    pub add_topic_count: i32,
}

impl CommandHeader for AddWritePermOfBrokerResponseHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default().set("addTopicCount", self.add_topic_count).0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            add_topic_count: req_num(ext, "addTopicCount", "i32")?,
        })
    }
}

/// DELETE_TOPIC_IN_NAMESRV (216) request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeleteTopicFromNamesrvRequestHeader {
    /// Required.
    pub topic: String,
    /// Optional: restrict the delete to one cluster.
    pub cluster_name: Option<String>,
}

impl CommandHeader for DeleteTopicFromNamesrvRequestHeader {
    fn to_ext_fields(&self) -> BTreeMap<String, String> {
        Out::default()
            .set("topic", &self.topic)
            .opt("clusterName", self.cluster_name.as_ref())
            .0
    }

    fn from_ext_fields(ext: &BTreeMap<String, String>) -> Result<Self, HeaderError> {
        Ok(Self {
            topic: req_str(ext, "topic")?,
            cluster_name: opt_str(ext, "clusterName"),
        })
    }
}
