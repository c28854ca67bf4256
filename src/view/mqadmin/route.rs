//! The text `mqadmin clusterList` and `mqadmin topicRoute -t T` would print for a NameServer's state
//! (RocketMQ `tools`: `ClusterListSubCommand`, `TopicRouteSubCommand`).

use std::fmt::Write as _;

use serde_json::Value;

use std::collections::BTreeMap;

use crate::java_order::{order_of, JavaTable};
use crate::model::{BrokerData, BrokerName, ClusterInfo, ClusterName, TopicRouteData};

/// What the broker would report through GET_BROKER_RUNTIME_INFO, which the route tables do not hold.
#[derive(Clone, Debug, Default)]
pub struct BrokerRuntime {
    /// `brokerVersionDesc` (empty when the broker does not answer, as mqadmin prints it then).
    pub version: String,
    /// `brokerActive`.
    pub active: bool,
}

/// Which mqadmin's `clusterList` columns: 4.9.8's ten, or 5.x's twelve (with `#Timer(Progress)`
/// and `#ACTIVATED`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterLayout {
    V4,
    V5,
}

impl ClusterLayout {
    /// The layout of the mqadmin that matches a NameServer whose answers carry `version` (the
    /// `MQVersion` ordinal Java's NameServer puts in every response): 4.x below V5_0_0 (413), 5.x
    /// from it on and when unknown (0).
    pub fn for_version(version: i32) -> Self {
        if version > 0 && version < 413 {
            Self::V4
        } else {
            Self::V5
        }
    }

    /// The layout matching a simulated NameServer's profile.
    pub fn for_profile(profile: crate::namesrv::Profile) -> Self {
        if profile.is_v5() {
            Self::V5
        } else {
            Self::V4
        }
    }

    /// `4.x` or `5.x` (also `4`, `5`, `v4`, `v5`).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim().trim_start_matches(['v', 'V']) {
            "4" | "4.x" => Some(Self::V4),
            "5" | "5.x" => Some(Self::V5),
            _ => None,
        }
    }
}

/// The order mqadmin prints `clusterList` in. It decodes the body into its own default-sized
/// `HashMap`s, filled in the body's order, and walks those: the clusters in that map's order, the
/// broker names of each sorted (a `TreeSet`), each group's ids in its `HashMap<Long, String>`'s.
#[derive(Clone, Debug, Default)]
pub struct ClientOrder {
    clusters: Vec<ClusterName>,
    ids: BTreeMap<BrokerName, Vec<i64>>,
}

impl ClientOrder {
    /// From the order the body listed its clusters and each group's ids in.
    pub fn from_sent(
        clusters: impl IntoIterator<Item = ClusterName>,
        ids: impl IntoIterator<Item = (BrokerName, Vec<i64>)>,
    ) -> Self {
        // Inserted one by one: `collect` would sort first, another copy of the sort in the bundle.
        let mut by_name = BTreeMap::new();
        for (name, ids) in ids {
            by_name.insert(name, order_of(JavaTable::hash_map(), ids));
        }
        Self {
            clusters: order_of(JavaTable::hash_map(), clusters),
            ids: by_name,
        }
    }

    /// For the body a simulated NameServer writes (its tables' Java order).
    pub fn of_manager(rm: &crate::namesrv::RouteManager) -> Self {
        let table = rm.broker_addr_table();
        Self::from_sent(
            rm.cluster_addr_table().java_clusters().cloned(),
            table.java_iter().map(|g| {
                let ids = table
                    .java_addrs(g.broker_name.as_str())
                    .into_iter()
                    .map(|(id, _)| id);
                (g.broker_name.clone(), ids.collect())
            }),
        )
    }

    /// For a body that listed everything in name order (all a sorted `ClusterInfo` can tell).
    pub fn sorted(info: &ClusterInfo) -> Self {
        Self::from_sent(
            info.cluster_addr_table.keys().cloned(),
            info.broker_addr_table
                .iter()
                .map(|(n, g)| (n.clone(), g.broker_addrs.keys().copied().collect())),
        )
    }

    /// The clusters of `info` in mqadmin's order.
    pub fn clusters<'a>(&'a self, info: &'a ClusterInfo) -> Vec<&'a ClusterName> {
        let mut out: Vec<&ClusterName> = self
            .clusters
            .iter()
            .filter(|c| info.cluster_addr_table.contains_key(*c))
            .collect();
        out.extend(
            info.cluster_addr_table
                .keys()
                .filter(|c| !self.clusters.contains(c)),
        );
        out
    }

    fn ids(&self, group: &BrokerData) -> Vec<i64> {
        let known = self
            .ids
            .get(&group.broker_name)
            .cloned()
            .unwrap_or_default();
        let mut out: Vec<i64> = known
            .into_iter()
            .filter(|id| group.broker_addrs.contains_key(id))
            .collect();
        out.extend(
            group
                .broker_addrs
                .keys()
                .filter(|id| !out.contains(id))
                .copied()
                .collect::<Vec<_>>(),
        );
        out
    }
}

/// `mqadmin clusterList` in either layout, in mqadmin's order (see [`ClientOrder`]). Runtime columns
/// come from `runtime(addr)`: a broker that answers reads as an idle one (the simulator does not
/// model traffic statistics); one that does not (an empty version) as mqadmin prints it then.
pub fn cluster_list(
    info: &ClusterInfo,
    layout: ClusterLayout,
    order: &ClientOrder,
    runtime: impl Fn(&str) -> BrokerRuntime,
) -> String {
    let mut out = String::new();
    match layout {
        ClusterLayout::V4 => v4_row(&mut out, V4_HEADER),
        ClusterLayout::V5 => v5_header(&mut out),
    }
    for cluster in order.clusters(info) {
        let Some(names) = info.cluster_addr_table.get(cluster) else {
            continue;
        };
        for name in names {
            let Some(group) = info.broker_addr_table.get(name) else {
                continue;
            };
            for id in order.ids(group) {
                let Some(addr) = group.broker_addrs.get(&id) else {
                    continue;
                };
                let rt = runtime(addr.as_str());
                let id = id.to_string();
                let answered = !rt.version.is_empty();
                let (in_tps, pc_wait) = if answered {
                    ("     0.00(0,0ms)", "0")
                } else {
                    ("     0.00(,ms)", "")
                };
                let ids = [
                    cluster.as_str(),
                    name.as_str(),
                    &id,
                    addr.as_str(),
                    &rt.version,
                ];
                match layout {
                    ClusterLayout::V4 => v4_row(
                        &mut out,
                        [
                            ids[0], ids[1], ids[2], ids[3], ids[4], in_tps, in_tps, pc_wait,
                            "0.00", "0.0000",
                        ],
                    ),
                    ClusterLayout::V5 => {
                        let active = rt.active.to_string();
                        let out_tps = if answered {
                            "     0.00(0,0ms|0,0ms)"
                        } else {
                            "     0.00(,ms|,ms)"
                        };
                        v5_row(
                            &mut out,
                            [
                                ids[0],
                                ids[1],
                                ids[2],
                                ids[3],
                                ids[4],
                                in_tps,
                                out_tps,
                                "0-0(0.0w, 0.0, 0.0)",
                                pc_wait,
                                "0.00",
                                "0.0000",
                                &active,
                            ],
                        )
                    }
                }
            }
        }
    }
    out
}

const V4_HEADER: [&str; 10] = [
    "#Cluster Name",
    "#Broker Name",
    "#BID",
    "#Addr",
    "#Version",
    "#InTPS(LOAD)",
    "#OutTPS(LOAD)",
    "#PCWait(ms)",
    "#Hour",
    "#SPACE",
];

/// 4.9.8's header and rows share one format: `%-16s  %-22s  %-4s  %-22s %-16s %19s %19s %10s %5s %6s`.
fn v4_row(out: &mut String, c: [&str; 10]) {
    let _ = writeln!(
        out,
        "{:<16}  {:<22}  {:<4}  {:<22} {:<16} {:>19} {:>19} {:>10} {:>5} {:>6}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]
    );
}

/// 5.x's header: #PCWait(ms) and #ACTIVATED are left-aligned here (`%-11s`, `%-10s`) and
/// right-aligned in rows.
fn v5_header(out: &mut String) {
    let c = [
        "#Cluster Name",
        "#Broker Name",
        "#BID",
        "#Addr",
        "#Version",
        "#InTPS(LOAD)",
        "#OutTPS(LOAD)",
        "#Timer(Progress)",
        "#PCWait(ms)",
        "#Hour",
        "#SPACE",
        "#ACTIVATED",
    ];
    let _ = writeln!(
        out,
        "{:<22}  {:<22}  {:<4}  {:<22} {:<16}  {:>16}  {:>30}  {:<22}  {:<11}  {:<12}  {:<8}  {:<10}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]
    );
}

fn v5_row(out: &mut String, c: [&str; 12]) {
    let _ = writeln!(
        out,
        "{:<22}  {:<22}  {:<4}  {:<22} {:<16}  {:>16}  {:>30}  {:<22}  {:>11}  {:<12}  {:<8}  {:>10}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]
    );
}

/// `mqadmin topicRoute -t T`: the route as fastjson's pretty format prints it (tabs, no space after
/// the colon, broker ids as bare map keys), or the error mqadmin reports.
pub fn topic_route(topic: &str, route: Option<&TopicRouteData>) -> String {
    match route.and_then(|r| serde_json::to_value(r).ok()) {
        Some(v) => {
            let mut out = String::new();
            pretty(&v, 0, "", &mut out);
            out.push('\n');
            out
        }
        None => format!(
            "org.apache.rocketmq.client.exception.MQClientException: CODE: 17  DESC: No topic route info in name server for the topic: {topic}\n"
        ),
    }
}

fn indent(n: usize, out: &mut String) {
    out.extend(std::iter::repeat_n('\t', n));
}

/// fastjson PrettyFormat: beans and lists one member per line; `Map<Long, String>` (brokerAddrs)
/// inline with bare keys, closed on its own line.
/// `under` is the name of the field `v` is the value of: `brokerAddrs` and `filterServerTable` are
/// `HashMap`s mqadmin filled from the standard body (sorted) and prints in their order; every other
/// object is a bean, printed alphabetically (fastjson's SortField).
fn pretty(v: &Value, level: usize, under: &str, out: &mut String) {
    let id_map = under == "brokerAddrs";
    match v {
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) if id_map => {
            // mqadmin's own HashMap<Long, String>, filled from the standard body's ids (in
            // numeric order).
            let mut ids: Vec<i64> = map.keys().filter_map(|k| k.parse().ok()).collect();
            crate::sort::sort_by(&mut ids, Ord::cmp);
            out.push('{');
            for (i, id) in order_of(JavaTable::hash_map(), ids).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let v = map.get(&id.to_string()).unwrap_or(&Value::Null);
                let _ = write!(out, "{id}:{v}");
            }
            out.push('\n');
            indent(level, out);
            out.push('}');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            let keys: Vec<&str> = map.keys().map(String::as_str).collect();
            let keys = if under == "filterServerTable" {
                order_of(JavaTable::hash_map(), keys)
            } else {
                keys
            };
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                indent(level + 1, out);
                let _ = write!(out, "{}:", Value::String(k.to_owned()));
                pretty(&map[k], level + 1, k, out);
            }
            out.push('\n');
            indent(level, out);
            out.push('}');
        }
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                indent(level + 1, out);
                pretty(item, level + 1, "", out);
            }
            out.push('\n');
            indent(level, out);
            out.push(']');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Spec §9.3: `mqadmin topicRoute` output of a 5.2 cluster, byte for byte.
    #[test]
    fn topic_route_matches_mqadmin_output_of_a_5_2_cluster() {
        let expected = "{\n\t\"brokerDatas\":[\n\t\t{\n\t\t\t\"brokerAddrs\":{0:\"127.0.0.1:10911\"\n\t\t\t},\n\t\t\t\"brokerName\":\"broker-a\",\n\t\t\t\"cluster\":\"DefaultCluster\",\n\t\t\t\"enableActingMaster\":false\n\t\t}\n\t],\n\t\"filterServerTable\":{},\n\t\"queueDatas\":[\n\t\t{\n\t\t\t\"brokerName\":\"broker-a\",\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":4,\n\t\t\t\"topicSysFlag\":0,\n\t\t\t\"writeQueueNums\":4\n\t\t}\n\t]\n}\n";
        let route: TopicRouteData = crate::model::fastjson::from_str(expected).unwrap();
        assert_eq!(topic_route("TopicTest", Some(&route)), expected);
        assert!(topic_route("Nope", None).contains("CODE: 17"));
    }

    /// topicRoute prints brokerAddrs as mqadmin's HashMap<Long, String> holds them: ids 0, 2, 17
    /// (sorted in the standard body) land in buckets 0, 2 and 1 of 16.
    #[test]
    fn topic_route_prints_ids_in_the_clients_order() {
        let route: TopicRouteData = crate::model::fastjson::from_str(
            r#"{"brokerDatas":[{"brokerAddrs":{"0":"a:1","2":"b:1","17":"c:1"},"brokerName":"g","cluster":"C"}],"filterServerTable":{},"queueDatas":[]}"#,
        )
        .unwrap();
        let text = topic_route("T", Some(&route));
        assert!(
            text.contains(r#""brokerAddrs":{0:"a:1",17:"c:1",2:"b:1""#),
            "{text}"
        );
    }

    /// 4.9.8's clusterList: its ten-column header, and a broker that did not answer as mqadmin
    /// prints it (empty queue figures, no version, no page-cache wait); clusters in the order of
    /// mqadmin's HashMap (both names hash to bucket 15: the body's order), names sorted. The
    /// expected lines are what Java's `printf` with ClusterListSubCommand's formats printed.
    #[test]
    fn cluster_list_in_the_4x_layout() {
        let info: ClusterInfo = crate::model::fastjson::from_str(
            r#"{"brokerAddrTable":{"b":{"brokerAddrs":{0:"10.0.0.2:10911"},"brokerName":"b","cluster":"DefaultCluster"},"a":{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"a","cluster":"DefaultCluster"},"x":{"brokerAddrs":{0:"10.1.0.1:10911"},"brokerName":"x","cluster":"c2"}},"clusterAddrTable":{"DefaultCluster":["b","a"],"c2":["x"]}}"#,
        )
        .unwrap();
        let text = cluster_list(
            &info,
            ClusterLayout::V4,
            &ClientOrder::sorted(&info),
            |_| BrokerRuntime::default(),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "#Cluster Name     #Broker Name            #BID  #Addr                  #Version                #InTPS(LOAD)       #OutTPS(LOAD) #PCWait(ms) #Hour #SPACE"
        );
        assert!(lines[1].starts_with("DefaultCluster    a ") && lines[2].contains(" b "));
        assert_eq!(
            lines[3],
            "c2                x                       0     10.1.0.1:10911                                    0.00(,ms)           0.00(,ms)             0.00 0.0000"
        );
        assert_eq!(ClusterLayout::for_version(409), ClusterLayout::V4);
        assert_eq!(ClusterLayout::for_version(479), ClusterLayout::V5);
        assert_eq!(ClusterLayout::for_version(0), ClusterLayout::V5);
    }

    /// clusterList prints one row per broker address, under RocketMQ's 5.x header.
    #[test]
    fn cluster_list_has_a_row_per_broker() {
        let info: ClusterInfo = crate::model::fastjson::from_str(
            r#"{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"10.0.0.1:10911",1:"10.0.0.2:10911"},"brokerName":"broker-a","cluster":"C"}},"clusterAddrTable":{"C":["broker-a"]}}"#,
        )
        .unwrap();
        let text = cluster_list(&info, ClusterLayout::V5, &ClientOrder::sorted(&info), |a| {
            BrokerRuntime {
                version: "V5_3_3".into(),
                active: a.ends_with("1:10911"),
            }
        });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("#Cluster Name"));
        assert!(
            lines[1].starts_with("C ")
                && lines[1].contains("10.0.0.1:10911")
                && lines[1].ends_with("      true")
        );
        assert!(lines[2].contains(" 1 ") && lines[2].contains("false"));
    }
}
