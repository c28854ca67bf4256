//! `filterServerTable` (spec §1.1): live broker → its (legacy) filter servers.

use std::collections::BTreeMap;

use serde::Serialize;

use super::broker_live::BrokerAddrInfo;

/// `filterServerTable`: live broker → addresses of its (legacy) filter servers. Normally empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterServerTable(pub(crate) BTreeMap<BrokerAddrInfo, Vec<String>>);

impl FilterServerTable {
    /// The filter servers of a broker.
    pub fn get(&self, key: &BrokerAddrInfo) -> Option<&Vec<String>> {
        self.0.get(key)
    }

    /// True when no broker has filter servers.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for FilterServerTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Keyed by address as in RocketMQ's route bodies; the cluster part only disambiguates in 5.x.
        s.collect_map(self.0.iter().map(|(k, v)| (k.broker_addr.as_str(), v)))
    }
}
