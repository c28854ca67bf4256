//! Request codes, response codes and sender languages (spec §5.2, §5.7, §5.8).
//!
//! Codes stay plain `i32` on [`RemotingCommand`](super::RemotingCommand) because the wire carries any
//! value; the constants here name the ones RouteLab knows, and `name()` turns a code back into its Java
//! name for logs and the UI.

/// Request codes (`RequestCode.java`, spec §5.7).
#[derive(Debug, Clone, Copy)]
pub struct RequestCode;

/// Response codes (`ResponseCode.java`, `RemotingSysResponseCode.java`, spec §5.8).
#[derive(Debug, Clone, Copy)]
pub struct ResponseCode;

macro_rules! named_codes {
    ($ty:ident { $($(#[$doc:meta])* $name:ident = $value:expr,)* }) => {
        impl $ty {
            $($(#[$doc])* pub const $name: i32 = $value;)*

            /// Every known code with its Java name, in table order.
            pub const ALL: &'static [(i32, &'static str)] = &[$(($value, stringify!($name)),)*];

            /// The Java name of a code, or `None` for a code this table does not know.
            pub fn name(code: i32) -> Option<&'static str> {
                Self::ALL.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
            }
        }
    };
}

named_codes!(RequestCode {
    /// Client → broker: send a message.
    SEND_MESSAGE = 10,
    /// Client → broker: commit a consumer group's offset of one queue.
    UPDATE_CONSUMER_OFFSET = 15,
    /// Admin → broker: create or update a topic.
    UPDATE_AND_CREATE_TOPIC = 17,
    /// NameServer/admin → broker: all topic configs.
    GET_ALL_TOPIC_CONFIG = 21,
    /// Admin → broker: its runtime figures as a KVTable (mqadmin brokerStatus).
    GET_BROKER_RUNTIME_INFO = 28,
    /// Client → broker heartbeat.
    HEART_BEAT = 34,
    /// Client → broker: unregister a client.
    UNREGISTER_CLIENT = 35,
    /// `namespace`, `key`, `value` (all required).
    PUT_KV_CONFIG = 100,
    /// `namespace`, `key`; the response header carries `value`.
    GET_KV_CONFIG = 101,
    /// `namespace`, `key`.
    DELETE_KV_CONFIG = 102,
    /// Broker registration; body RegisterBrokerBody.
    REGISTER_BROKER = 103,
    /// Broker unregistration.
    UNREGISTER_BROKER = 104,
    /// `topic` (+ `acceptStandardJsonOnly`); body TopicRouteData.
    GET_ROUTEINFO_BY_TOPIC = 105,
    /// Body ClusterInfo.
    GET_BROKER_CLUSTER_INFO = 106,
    /// Admin → broker: min/max offset of each queue of a topic (mqadmin topicStatus).
    GET_TOPIC_STATS_INFO = 202,
    /// Admin → broker: a consumer group's connections and subscriptions (consumerConnection).
    GET_CONSUMER_CONNECTION_LIST = 203,
    /// Admin → broker: a producer group's connections (producerConnection); `producerGroup`.
    GET_PRODUCER_CONNECTION_LIST = 204,
    /// `brokerName`; response header `wipeTopicCount`.
    WIPE_WRITE_PERM_OF_BROKER = 205,
    /// Body TopicList.
    GET_ALL_TOPIC_LIST_FROM_NAMESERVER = 206,
    /// Admin → broker: a consumer group's offsets per queue and its TPS (consumerProgress).
    GET_CONSUME_STATS = 208,
    /// `topic`, `clusterName`.
    DELETE_TOPIC_IN_NAMESRV = 216,
    /// 5.x: `topic`; body TopicRouteData.
    REGISTER_TOPIC_IN_NAMESRV = 217,
    /// `namespace`; body KVTable.
    GET_KVLIST_BY_NAMESPACE = 219,
    /// `cluster`; body TopicList.
    GET_TOPICS_BY_CLUSTER = 224,
    /// Admin → broker: per queue of a topic, the store time of the first message a group has not
    /// consumed, as `delayTime` (`topic`, `group`).
    QUERY_CONSUME_TIME_SPAN = 303,
    /// Body TopicList (+ brokerAddr).
    GET_SYSTEM_TOPIC_LIST_FROM_NS = 304,
    /// Admin → broker → client: a member's running info, its queues among them (consumerProgress
    /// -s); `consumerGroup`, `clientId`, `jstackEnable`.
    GET_CONSUMER_RUNNING_INFO = 307,
    /// Client → broker: send a message with the short header.
    SEND_MESSAGE_V2 = 310,
    /// Body TopicList.
    GET_UNIT_TOPIC_LIST = 311,
    /// Body TopicList.
    GET_HAS_UNIT_SUB_TOPIC_LIST = 312,
    /// Body TopicList.
    GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST = 313,
    /// Body: Java properties text.
    UPDATE_NAMESRV_CONFIG = 318,
    /// Response body: Java properties text.
    GET_NAMESRV_CONFIG = 319,
    /// Broker identity; body DataVersion; response header `changed`.
    QUERY_DATA_VERSION = 322,
    /// `brokerName`; response header `addTopicCount`.
    ADD_WRITE_PERM_OF_BROKER = 327,
    /// Admin → broker (5.x): every producer group and its producers.
    GET_ALL_PRODUCER_INFO = 328,
    /// 5.x: `clusterName`, `brokerName`.
    GET_BROKER_MEMBER_GROUP = 901,
    /// 5.x: oneway broker heartbeat.
    BROKER_HEARTBEAT = 904,
    /// 5.x: NameServer → broker, oneway.
    NOTIFY_MIN_BROKER_ID_CHANGE = 905,
});

named_codes!(ResponseCode {
    /// The request succeeded.
    SUCCESS = 0,
    /// A handler failed; `remark` describes the exception.
    SYSTEM_ERROR = 1,
    /// Rejected or overloaded (`[REJECTREQUEST]…`, `[OVERLOAD]…`).
    SYSTEM_BUSY = 2,
    /// 5.x answer to an unknown request code.
    REQUEST_CODE_NOT_SUPPORTED = 3,
    /// Transaction failure.
    TRANSACTION_FAILED = 4,
    /// Broker flush timed out.
    FLUSH_DISK_TIMEOUT = 10,
    /// No slave available.
    SLAVE_NOT_AVAILABLE = 11,
    /// Slave flush timed out.
    FLUSH_SLAVE_TIMEOUT = 12,
    /// Bad message.
    MESSAGE_ILLEGAL = 13,
    /// Service not available.
    SERVICE_NOT_AVAILABLE = 14,
    /// Version not supported.
    VERSION_NOT_SUPPORTED = 15,
    /// No permission (e.g. a blacklisted config key).
    NO_PERMISSION = 16,
    /// GET_ROUTEINFO_BY_TOPIC for an unknown topic.
    TOPIC_NOT_EXIST = 17,
    /// The topic exists already.
    TOPIC_EXIST_ALREADY = 18,
    /// GET_KV_CONFIG / GET_KVLIST_BY_NAMESPACE found nothing.
    QUERY_NOT_FOUND = 22,
    /// Invalid parameter.
    INVALID_PARAMETER = 29,
    /// No buyer id.
    NO_BUYER_ID = 204,
    /// Not in the current unit.
    NOT_IN_CURRENT_UNIT = 205,
    /// The consumer group has no online member on this broker.
    CONSUMER_NOT_ONLINE = 206,
    /// The broker does not exist.
    BROKER_NOT_EXIST = 211,
    /// Flow control.
    FLOW_CONTROL = 215,
    /// 5.x: the server is shutting down.
    GO_AWAY = 1500,
    /// Client side (5.x): unknown RPC failure.
    RPC_UNKNOWN = -1000,
    /// Client side (5.x): no address.
    RPC_ADDR_IS_NULL = -1002,
    /// Client side (5.x): the channel write failed.
    RPC_SEND_TO_CHANNEL_FAILED = -1004,
    /// Client side (5.x): timed out.
    RPC_TIME_OUT = -1006,
});

/// The sender's language (`LanguageCode.java`, spec §5.2). Bytes not in the table decode to
/// [`LanguageCode::Unknown`] (Java decodes them to `null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LanguageCode {
    /// 0
    #[default]
    Java,
    /// 1
    Cpp,
    /// 2
    DotNet,
    /// 3
    Python,
    /// 4
    Delphi,
    /// 5
    Erlang,
    /// 6
    Ruby,
    /// 7
    Other,
    /// 8
    Http,
    /// 9
    Go,
    /// 10
    Php,
    /// 11
    Oms,
    /// 12
    Rust,
    /// 13 (5.x only)
    NodeJs,
    /// A byte the table does not know. In a JSON header it is written as the bare number; an unknown
    /// language *name* in a JSON header decodes to `Unknown(255)`.
    Unknown(u8),
}

const LANGUAGES: [(LanguageCode, &str); 14] = [
    (LanguageCode::Java, "JAVA"),
    (LanguageCode::Cpp, "CPP"),
    (LanguageCode::DotNet, "DOTNET"),
    (LanguageCode::Python, "PYTHON"),
    (LanguageCode::Delphi, "DELPHI"),
    (LanguageCode::Erlang, "ERLANG"),
    (LanguageCode::Ruby, "RUBY"),
    (LanguageCode::Other, "OTHER"),
    (LanguageCode::Http, "HTTP"),
    (LanguageCode::Go, "GO"),
    (LanguageCode::Php, "PHP"),
    (LanguageCode::Oms, "OMS"),
    (LanguageCode::Rust, "RUST"),
    (LanguageCode::NodeJs, "NODE_JS"),
];

impl LanguageCode {
    /// The language for a wire byte; bytes outside the table give `Unknown(byte)`.
    pub fn from_byte(byte: u8) -> Self {
        LANGUAGES
            .get(usize::from(byte))
            .map_or(Self::Unknown(byte), |(lang, _)| *lang)
    }

    /// The wire byte.
    pub fn to_byte(self) -> u8 {
        match self {
            Self::Unknown(b) => b,
            known => LANGUAGES
                .iter()
                .position(|(l, _)| *l == known)
                .and_then(|i| u8::try_from(i).ok())
                .unwrap_or(u8::MAX),
        }
    }

    /// The Java enum name (`"JAVA"`, `"RUST"` …), or `None` for `Unknown`.
    pub fn name(self) -> Option<&'static str> {
        LANGUAGES.iter().find(|(l, _)| *l == self).map(|(_, n)| *n)
    }

    /// The language with this Java enum name (exact, as fastjson matches enum names).
    pub fn from_name(name: &str) -> Option<Self> {
        LANGUAGES.iter().find(|(_, n)| *n == name).map(|(l, _)| *l)
    }
}
