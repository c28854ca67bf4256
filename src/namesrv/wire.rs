//! What leaves the NameServer as bytes: the response bodies (spec §6), written as Java's NameServer
//! writes them — fastjson's field order and key forms (spec §6.1, §6.2), and every map, set and list
//! in the order RocketMQ's own collections give it (`crate::java_order`). The semantic answers
//! (`pickup_topic_route_data`, `get_all_cluster_info` …) carry the same content in name order.

use serde::{Serialize, Serializer};

use super::query::TopicListBuild;
use super::{RouteError, RouteManager};
use crate::java_order::{order_of, JavaTable};
use crate::model::fastjson::to_legacy_json_as;
use crate::model::fastjson_escape::{to_vec, Escaping};
use crate::model::lenient::Dialect;
use crate::model::{BrokerAddr, BrokerData, BrokerName, ClusterName, QueueData, MASTER_ID};

/// The two JSON forms of spec §6.1–§6.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonForm {
    /// fastjson's default: integer map keys bare, every map in its Java order.
    Legacy,
    /// What routes asked with version ≥ 401 or `acceptStandardJsonOnly` get: quoted keys, maps
    /// sorted (`MapSortField`), lists in their order, and fastjson's `BrowserCompatible`: `/` and
    /// every non-ASCII character escaped, longs beyond 2^53 as strings.
    Standard,
}

impl JsonForm {
    fn encode<T: Serialize>(self, value: &T, dialect: Dialect) -> Vec<u8> {
        // The workshop's build never writes as fastjson2 (only `routelab namesrv --profile 5.4`
        // does): without that branch its bundle stays inside the room's budget.
        #[cfg(all(target_arch = "wasm32", not(feature = "js-api")))]
        let dialect = {
            let _ = dialect;
            Dialect::Fastjson1
        };
        match (self, dialect) {
            (Self::Legacy, _) => to_legacy_json_as(value, legacy_escaping(dialect)),
            // Java: `encode(BrowserCompatible, QuoteFieldNames, SkipTransientField, MapSortField)`;
            // 5.4 `encode(BrowserCompatible, MapSortField)`, the others being fastjson2's defaults.
            (Self::Standard, Dialect::Fastjson1) => to_vec(value, Escaping::BrowserCompatible),
            (Self::Standard, Dialect::Fastjson2) => to_vec(value, Escaping::Fastjson2Browser),
        }
    }
}

/// How the dialect's library escapes with its default features.
fn legacy_escaping(dialect: Dialect) -> Escaping {
    match dialect {
        Dialect::Fastjson1 => Escaping::Default,
        Dialect::Fastjson2 => Escaping::Fastjson2,
    }
}

impl RouteManager {
    /// fastjson's default output of `value` as this NameServer's JSON library writes it.
    fn legacy<T: Serialize>(&self, value: &T) -> Vec<u8> {
        #[cfg(all(target_arch = "wasm32", not(feature = "js-api")))]
        return to_legacy_json_as(value, Escaping::Default);
        #[cfg(any(not(target_arch = "wasm32"), feature = "js-api"))]
        to_legacy_json_as(value, legacy_escaping(self.json_dialect()))
    }
}

/// A map written in the order of its pairs.
struct InOrder<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for InOrder<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// A `BrokerData` with its `brokerAddrs` in a given order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GroupOut<'a> {
    broker_addrs: InOrder<i64, &'a BrokerAddr>,
    broker_name: &'a BrokerName,
    cluster: &'a ClusterName,
    #[serde(skip_serializing_if = "Option::is_none")]
    enable_acting_master: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    zone_name: Option<&'a str>,
}

impl<'a> GroupOut<'a> {
    fn new(group: &'a BrokerData, ids: impl IntoIterator<Item = i64>) -> Self {
        Self {
            broker_addrs: InOrder(
                ids.into_iter()
                    .filter_map(|id| group.broker_addrs.get(&id).map(|a| (id, a)))
                    .collect(),
            ),
            broker_name: &group.broker_name,
            cluster: &group.cluster,
            enable_acting_master: group.enable_acting_master,
            zone_name: group.zone_name.as_deref(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RouteOut<'a> {
    broker_datas: Vec<GroupOut<'a>>,
    filter_server_table: InOrder<&'a str, &'a Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    order_topic_conf: Option<&'a str>,
    queue_datas: Vec<&'a QueueData>,
    #[serde(skip_serializing_if = "Option::is_none")]
    topic_queue_mapping_by_broker: Option<InOrder<&'a str, MappingOut<'a>>>,
}

/// A broker's `TopicQueueMappingInfo` in a route. Java holds `currIdMap` as a
/// `ConcurrentMap<Integer, Integer>`: fastjson's legacy form writes its keys bare, in the map's
/// order (`{0:0,1:1}`); the standard form quotes them (`BrowserCompatible`) in numeric order
/// (`MapSortField` makes a `TreeMap` of the Integer keys).
struct MappingOut<'a> {
    info: &'a serde_json::Value,
    form: JsonForm,
}

impl Serialize for MappingOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let serde_json::Value::Object(fields) = self.info else {
            return self.info.serialize(s);
        };
        s.collect_map(fields.iter().map(|(k, v)| {
            let ids = match (k.as_str(), v) {
                ("currIdMap", serde_json::Value::Object(m)) => m
                    .keys()
                    .map(|id| id.parse::<i64>().ok())
                    .collect::<Option<Vec<i64>>>(),
                _ => None,
            };
            let value = match ids {
                Some(mut ids) => {
                    match self.form {
                        JsonForm::Legacy => ids = order_of(JavaTable::concurrent(), ids),
                        // MapSortField's TreeMap of Integer keys: numeric order (the crate's
                        // sort: the dashboard then carries no quicksort of its own for i64).
                        JsonForm::Standard => crate::sort::sort_by(&mut ids, Ord::cmp),
                    }
                    FieldOut::Ids(InOrder(
                        ids.into_iter()
                            .filter_map(|id| v.get(id.to_string()).map(|x| (id, x)))
                            .collect(),
                    ))
                }
                None => FieldOut::Plain(v),
            };
            (k, value)
        }))
    }
}

/// A field of a mapping: as it is, or an integer-keyed map in its Java order.
enum FieldOut<'a> {
    Plain(&'a serde_json::Value),
    Ids(InOrder<i64, &'a serde_json::Value>),
}

impl Serialize for FieldOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Plain(v) => v.serialize(s),
            Self::Ids(m) => m.serialize(s),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterInfoOut<'a> {
    broker_addr_table: InOrder<&'a BrokerName, GroupOut<'a>>,
    cluster_addr_table: InOrder<&'a ClusterName, Vec<&'a BrokerName>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TopicListOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    broker_addr: Option<&'a str>,
    topic_list: Vec<&'a str>,
}

#[derive(Serialize)]
struct KvTableOut<'a> {
    table: InOrder<&'a str, &'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MemberGroupOut<'a> {
    broker_addrs: InOrder<i64, &'a BrokerAddr>,
    broker_name: &'a str,
    cluster: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MemberGroupBodyOut<'a> {
    broker_member_group: MemberGroupOut<'a>,
}

impl RouteManager {
    /// The body of GET_ROUTEINFO_BY_TOPIC for `topic`, or None when there is no route.
    ///
    /// `queueDatas` in the order of the topic's map; `brokerDatas` in the order of the name set
    /// Java fills from that map's keys (4.9.8: `new HashSet<>()` and `addAll`; 5.x:
    /// `new HashSet<>(keys)`, sized for them); each group's ids as the copy of its map holds them
    /// (`clone()` / `new HashMap<>(map)`: a table sized for the ids, so ids can come out in another
    /// order than the original's), after 5.x's acting-master rewrite; filter servers in the order of
    /// the `HashMap` they are put in. The standard form sorts the maps, not the lists.
    pub fn route_body(&self, topic: &str, form: JsonForm) -> Option<Vec<u8>> {
        self.encode_route(topic, form, None)
    }

    /// The body of GET_ROUTEINFO_BY_TOPIC for a client asking in zone mode (5.x's
    /// `ZoneRouteRPCHook.doAfterResponse`): the body as [`route_body`](Self::route_body) makes it,
    /// decoded, filtered by [`super::zone::filter_by_zone`] and encoded again with plain `encode()`:
    /// the legacy form whatever the client's version, each decoded map (`brokerAddrs`,
    /// `filterServerTable`, `topicQueueMappingByBroker`) a new `HashMap` filled in the first body's
    /// order.
    pub fn zone_route_body(&self, topic: &str, form: JsonForm, zone: &str) -> Option<Vec<u8>> {
        self.encode_route(topic, form, Some(zone))
    }

    /// The route of `topic` with `queueDatas` and `brokerDatas` in the order a standard body lists
    /// them (what a client decodes); its maps are sorted, as that body's are.
    pub fn route_as_sent(&self, topic: &str) -> Option<crate::model::TopicRouteData> {
        let mut route = self.pickup_topic_route_data(topic)?;
        let groups = self.topic_queue_table.java_group_order(topic)?;
        let names = self.route_names(groups);
        let rank = |list: &[BrokerName], name: &BrokerName| list.iter().position(|n| n == name);
        let in_map: Vec<BrokerName> = groups.iter().cloned().collect();
        crate::sort::sort_by(&mut route.queue_datas, |a, b| {
            rank(&in_map, &a.broker_name).cmp(&rank(&in_map, &b.broker_name))
        });
        crate::sort::sort_by(&mut route.broker_datas, |a, b| {
            rank(&names, &a.broker_name).cmp(&rank(&names, &b.broker_name))
        });
        Some(route)
    }

    /// The name set a route's `brokerDatas` follow: 4.9.8 `new HashSet<>()` + `addAll(keys)`,
    /// 5.x `new HashSet<>(keys)` (sized for them).
    fn route_names(&self, groups: &JavaTable<BrokerName>) -> Vec<BrokerName> {
        if groups.len() <= 11 {
            // Either set has 16 buckets for up to 11 names and never grows: its order is the
            // names by bucket, in the map's order within one. (Sorted without building the set:
            // this runs for every route a client asks for.)
            let mut names: Vec<BrokerName> = groups.iter().cloned().collect();
            crate::sort::sort_by_key(&mut names, |n| crate::java_order::hash_map_bucket(n, 16));
            return names;
        }
        let names_set = if self.profile.is_v5() {
            JavaTable::hash_set_for(groups.len())
        } else {
            JavaTable::hash_map()
        };
        order_of(names_set, groups.iter().cloned())
    }

    fn encode_route(&self, topic: &str, form: JsonForm, zone: Option<&str>) -> Option<Vec<u8>> {
        let route = self.pickup_topic_route_data(topic)?;
        let groups = self.topic_queue_table.java_group_order(topic)?;
        let mut queue_datas: Vec<&QueueData> = groups
            .iter()
            .filter_map(|n| route.queue_datas.iter().find(|q| q.broker_name == *n))
            .collect();
        let names = self.route_names(groups);
        let mut broker_datas = Vec::new();
        let mut filters: JavaTable<&str> = JavaTable::hash_map();
        for name in &names {
            let Some(bd) = route.broker_data(name.as_str()) else {
                continue;
            };
            if form == JsonForm::Standard {
                // MapSortField: the ids sorted, whatever the copy's order.
                broker_datas.push(GroupOut::new(bd, bd.broker_addrs.keys().copied()));
                continue;
            }
            let mut copy = self
                .broker_addr_table
                .java_ids(name.as_str())
                .map(JavaTable::java_clone)
                .unwrap_or_default();
            let live_has_master = self
                .broker_addr_table
                .get(name.as_str())
                .is_some_and(|g| g.broker_addrs.contains_key(&MASTER_ID));
            if bd.broker_addrs.contains_key(&MASTER_ID) && !live_has_master {
                // 5.x acting master: `remove(minId)`, then `put(0, addr)` on the copy.
                let min = self
                    .broker_addr_table
                    .get(name.as_str())
                    .and_then(|g| g.broker_addrs.keys().next().copied());
                if let Some(min) = min {
                    copy.remove(&min);
                }
                copy.insert(MASTER_ID);
            }
            let ids: Vec<i64> = copy.iter().copied().collect();
            for id in &ids {
                if let Some(addr) = bd.broker_addrs.get(id) {
                    if route.filter_server_table.contains_key(addr.as_str()) {
                        filters.insert(addr.as_str());
                    }
                }
            }
            broker_datas.push(GroupOut::new(bd, ids));
        }
        let mut filter_keys: Vec<&str> = match form {
            JsonForm::Legacy => filters.iter().copied().collect(),
            JsonForm::Standard => route
                .filter_server_table
                .keys()
                .map(String::as_str)
                .collect(),
        };
        let mut mapping_names: Option<Vec<&str>> = route
            .topic_queue_mapping_by_broker
            .as_ref()
            .map(|m| match form {
                // RouteInfoManager keeps a topic's mappings in a `HashMap` by brokerName: the
                // legacy form writes it in that map's order, the standard one sorted.
                JsonForm::Legacy => order_of(JavaTable::hash_map(), m.keys().map(String::as_str)),
                JsonForm::Standard => m.keys().map(String::as_str).collect(),
            });
        let form = match zone {
            None => form,
            Some(zone) => {
                let removed = super::zone::filter_by_zone(
                    &mut broker_datas,
                    zone,
                    super::zone::equals_ignore_case,
                    |g| {
                        (
                            g.broker_addrs.0.iter().any(|(id, _)| *id == MASTER_ID),
                            g.zone_name,
                        )
                    },
                );
                queue_datas.retain(|q| !removed.iter().any(|g| g.broker_name == &q.broker_name));
                let gone: Vec<&str> = removed
                    .iter()
                    .flat_map(|g| g.broker_addrs.0.iter().map(|(_, a)| a.as_str()))
                    .collect();
                filter_keys.retain(|a| !gone.contains(a));
                // Decoded into new `HashMap`s (fastjson), filled in the first body's order.
                for g in &mut broker_datas {
                    let order =
                        order_of(JavaTable::hash_map(), g.broker_addrs.0.iter().map(|p| p.0));
                    let mut pairs = std::mem::take(&mut g.broker_addrs.0);
                    crate::sort::sort_by_key(&mut pairs, |(id, _)| {
                        order.iter().position(|o| o == id)
                    });
                    g.broker_addrs.0 = pairs;
                }
                filter_keys = order_of(JavaTable::hash_map(), filter_keys);
                mapping_names = mapping_names.map(|n| order_of(JavaTable::hash_map(), n));
                JsonForm::Legacy
            }
        };
        let filter_server_table = InOrder(
            filter_keys
                .into_iter()
                .filter_map(|a| route.filter_server_table.get_key_value(a))
                .map(|(k, v)| (k.as_str(), v))
                .collect(),
        );
        Some(form.encode(
            &RouteOut {
                broker_datas,
                filter_server_table,
                order_topic_conf: route.order_topic_conf.as_deref(),
                queue_datas,
                topic_queue_mapping_by_broker: route.topic_queue_mapping_by_broker.as_ref().map(
                    |m| {
                        InOrder(
                            mapping_names
                                .unwrap_or_default()
                                .into_iter()
                                .filter_map(|b| m.get(b).map(|info| (b, MappingOut { info, form })))
                                .collect(),
                        )
                    },
                ),
            },
            self.json_dialect(),
        ))
    }

    /// The body of GET_BROKER_CLUSTER_INFO (always legacy): the live brokerAddrTable (each group's
    /// ids as its map holds them) and clusterAddrTable (each set in its order).
    pub fn cluster_info_body(&self) -> Vec<u8> {
        let table = &self.broker_addr_table;
        let groups = table
            .java_iter()
            .map(|g| {
                let ids = table
                    .java_addrs(g.broker_name.as_str())
                    .into_iter()
                    .map(|(id, _)| id);
                (&g.broker_name, GroupOut::new(g, ids.collect::<Vec<_>>()))
            })
            .collect();
        let clusters = self
            .cluster_addr_table
            .java_clusters()
            .map(|c| (c, self.cluster_addr_table.java_names(c.as_str())))
            .collect();
        self.legacy(&ClusterInfoOut {
            broker_addr_table: InOrder(groups),
            cluster_addr_table: InOrder(clusters),
        })
    }

    /// A topic-list body (always legacy): the topics as the list's set holds them — a `HashSet`
    /// in 4.9.8, a `ConcurrentHashMap.newKeySet()` in 5.x — filled in the order they were added.
    pub fn topic_list_body(&self, list: &TopicListBuild) -> Vec<u8> {
        let set = if self.profile.is_v5() {
            JavaTable::concurrent()
        } else {
            JavaTable::hash_map()
        };
        let topics = order_of(set, list.added.iter().map(String::as_str));
        self.legacy(&TopicListOut {
            broker_addr: list.broker_addr.as_deref(),
            topic_list: topics,
        })
    }

    /// The body of GET_KVLIST_BY_NAMESPACE (always legacy), or QUERY_NOT_FOUND.
    pub fn kv_list_body(&self, namespace: &str) -> Result<Vec<u8>, RouteError> {
        let entries = self
            .kv
            .java_entries(namespace)
            .ok_or_else(|| RouteError::KvNotFound {
                namespace: namespace.to_owned(),
                key: String::new(),
            })?;
        Ok(self.legacy(&KvTableOut {
            table: InOrder(entries),
        }))
    }

    /// The body of GET_BROKER_MEMBER_GROUP (5.x, always legacy): the group's ids copied by
    /// `putAll` into a new map (sized for them, as a clone is).
    pub fn member_group_body(
        &self,
        cluster: &str,
        broker_name: &str,
    ) -> Result<Vec<u8>, RouteError> {
        let group = self.get_broker_member_group(cluster, broker_name)?;
        let ids: Vec<i64> = self
            .broker_addr_table
            .java_ids(broker_name)
            .map(|ids| ids.java_clone().iter().copied().collect())
            .unwrap_or_default();
        Ok(self.legacy(&MemberGroupBodyOut {
            broker_member_group: MemberGroupOut {
                broker_addrs: InOrder(
                    ids.into_iter()
                        .filter_map(|id| group.broker_addrs.get(&id).map(|a| (id, a)))
                        .collect(),
                ),
                broker_name: group.broker_name.as_str(),
                cluster: group.cluster.as_str(),
            },
        }))
    }
}
