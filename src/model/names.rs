//! Newtypes for the names RocketMQ keeps in its tables, so a broker name can never be passed where an
//! address or a topic is expected. Each serializes as a plain JSON string (`#[serde(transparent)]`) and
//! borrows as `str`, so maps keyed by them can be looked up with `&str`.

use std::borrow::Borrow;
use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Wraps a name as it arrives; validation belongs to the request that carries it.
            pub fn new(name: impl Into<String>) -> Self {
                Self(name.into())
            }

            /// The name as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                // pad, not write_str: honours width and alignment in tables.
                f.pad(&self.0)
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_owned())
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(s)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

name_type!(
    /// A cluster name (`clusterName`), the key of `clusterAddrTable`.
    ClusterName
);
name_type!(
    /// A broker group name (`brokerName`): a master and its slaves share it.
    BrokerName
);
name_type!(
    /// A broker's `ip:port` address (`brokerAddr`).
    BrokerAddr
);
name_type!(
    /// A topic name, the key of `topicQueueTable`.
    TopicName
);
