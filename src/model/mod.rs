//! Wire-shaped types with RocketMQ's exact JSON field names, the parser for fastjson's legacy
//! bodies, fastjson's string escaping (`fastjson_escape`), and requests read as Java's fastjson reads
//! them (`lenient`).

pub mod broker_stats;
pub mod cluster;
pub mod fastjson;
pub mod fastjson_escape;
pub mod lenient;
pub mod name_map;
pub mod names;
pub mod perm;
pub mod route;
pub mod text;
pub mod topic_config;

pub use cluster::{ClusterInfo, KVTable, TopicList};
pub use name_map::NameMap;
pub use names::{BrokerAddr, BrokerName, ClusterName, ProducerGroup, TopicName};
pub use route::{BrokerData, QueueData, TopicRouteData, MASTER_ID};
pub use topic_config::{DataVersion, RegisterBrokerBody, TopicConfig, TopicConfigSerializeWrapper};
