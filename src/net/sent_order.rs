//! The order a NameServer's body listed things in, which serde's maps forget: mqadmin decodes a
//! body into Java `HashMap`s filled in that order, and prints in theirs (`view::mqadmin`).

use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// The keys of a JSON object in the body's order (values skipped).
#[derive(Debug, Default)]
pub struct KeysInOrder(pub Vec<String>);

impl<'de> Deserialize<'de> for KeysInOrder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = KeysInOrder;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeysInOrder, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(KeysInOrder(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}

/// A group of a ClusterInfo body: its ids in the body's order.
#[derive(Debug, Default, Deserialize)]
pub struct GroupSent {
    #[serde(rename = "brokerAddrs", default)]
    pub broker_addrs: KeysInOrder,
}

/// The groups of a ClusterInfo body in its order.
#[derive(Debug, Default)]
pub struct GroupsInOrder(pub Vec<(String, GroupSent)>);

impl<'de> Deserialize<'de> for GroupsInOrder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Groups;
        impl<'de> Visitor<'de> for Groups {
            type Value = GroupsInOrder;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of broker groups")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<GroupsInOrder, A::Error> {
                let mut groups = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    groups.push((k, map.next_value::<GroupSent>()?));
                }
                Ok(GroupsInOrder(groups))
            }
        }
        d.deserialize_map(Groups)
    }
}

/// A ClusterInfo body's order: its clusters, and each group's ids.
#[derive(Debug, Default, Deserialize)]
pub struct ClusterInfoSent {
    #[serde(rename = "brokerAddrTable", default)]
    pub groups: GroupsInOrder,
    #[serde(rename = "clusterAddrTable", default)]
    pub clusters: KeysInOrder,
}

impl ClusterInfoSent {
    /// The order as mqadmin meets it.
    pub fn client_order(&self) -> crate::view::mqadmin::ClientOrder {
        crate::view::mqadmin::ClientOrder::from_sent(
            self.clusters.0.iter().map(|c| c.as_str().into()),
            self.groups.0.iter().map(|(name, g)| {
                let ids = g
                    .broker_addrs
                    .0
                    .iter()
                    .filter_map(|k| k.trim().parse().ok());
                (name.as_str().into(), ids.collect())
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_bodys_order() {
        let body = br#"{"brokerAddrTable":{"b":{"brokerAddrs":{9:"x",2:"y"}},"a":{"brokerAddrs":{0:"z"}}},"clusterAddrTable":{"c2":["b"],"c1":["a"]}}"#;
        let sent: ClusterInfoSent = crate::model::fastjson::from_body(body).unwrap();
        assert_eq!(sent.clusters.0, ["c2", "c1"]);
        let groups: Vec<(&str, &[String])> = sent
            .groups
            .0
            .iter()
            .map(|(n, g)| (n.as_str(), g.broker_addrs.0.as_slice()))
            .collect();
        assert_eq!(groups[0], ("b", &["9".to_owned(), "2".to_owned()][..]));
        assert_eq!(groups[1].0, "a");
    }
}
