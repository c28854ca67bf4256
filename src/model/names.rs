//! Newtypes for the names RocketMQ keeps in its tables, so a broker name can never be passed where an
//! address or a topic is expected. Each serializes as a plain JSON string (`#[serde(transparent)]`) and
//! borrows as `str`, so maps keyed by them can be looked up with `&str`. The text is shared
//! (`Arc<str>`): names are copied far more often than created (every route answer, every queue a
//! producer picks), and a copy then costs a reference count, not an allocation.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::text::{cmp_text, same_text};

macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, Eq)]
        pub struct $name(Arc<str>);

        // Copies of one name share its text, so equal pointers answer without comparing bytes.
        impl PartialEq for $name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                Arc::ptr_eq(&self.0, &other.0) || same_text(&self.0, &other.0)
            }
        }

        // By the text, as `str` orders it (see `text`), so tree maps keep RocketMQ's order.
        impl Ord for $name {
            #[inline]
            fn cmp(&self, other: &Self) -> Ordering {
                cmp_text(&self.0, &other.0)
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        // By the text, as equality is (and as a String's hash was).
        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.0.hash(state);
            }
        }

        impl $name {
            /// Wraps a name as it arrives; validation belongs to the request that carries it.
            pub fn new(name: impl Into<String>) -> Self {
                Self(Arc::from(name.into()))
            }

            /// The name as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// Whether `other` is a copy of this very name (shares its text), not merely equal.
            pub fn shares_text(&self, other: &Self) -> bool {
                Arc::ptr_eq(&self.0, &other.0)
            }
        }

        // As the Java String it stands for: RocketMQ keys its hash maps by these names.
        impl crate::java_order::JavaKey for $name {
            fn hash_code(&self) -> i32 {
                crate::java_order::string_hash(&self.0)
            }
            fn compare_to(&self, other: &Self) -> Option<Ordering> {
                Some(crate::java_order::string_compare(&self.0, &other.0))
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
                Self(Arc::from(s))
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(Arc::from(s))
            }
        }

        // A plain JSON string, as `#[serde(transparent)]` over a String was.
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map(Self::from)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                same_text(&self.0, other)
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                same_text(&self.0, other)
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
name_type!(
    /// A producer group name (`producerGroup`).
    ProducerGroup
);
