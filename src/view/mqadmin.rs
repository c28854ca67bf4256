//! The text `mqadmin clusterList` and `mqadmin topicRoute -t T` would print for a NameServer's state
//! (RocketMQ `tools`: `ClusterListSubCommand`, `TopicRouteSubCommand`).

use std::fmt::Write as _;

use serde_json::Value;

use crate::model::{ClusterInfo, TopicRouteData};

/// What the broker would report through GET_BROKER_RUNTIME_INFO, which the route tables do not hold.
#[derive(Clone, Debug, Default)]
pub struct BrokerRuntime {
    /// `brokerVersionDesc` (empty when the broker does not answer, as mqadmin prints it then).
    pub version: String,
    /// `brokerActive`.
    pub active: bool,
}

/// `mqadmin clusterList` (5.x columns). Runtime columns come from `runtime(addr)`; the simulator does
/// not model traffic statistics, so they read as an idle broker's.
pub fn cluster_list(info: &ClusterInfo, runtime: impl Fn(&str) -> BrokerRuntime) -> String {
    let mut out = String::new();
    // The header and the rows use different formats in ClusterListSubCommand: #PCWait(ms) and
    // #ACTIVATED are left-aligned in the header (`%-11s`, `%-10s`) and right-aligned in rows.
    let header = |out: &mut String, c: [&str; 12]| {
        let _ = writeln!(
            out,
            "{:<22}  {:<22}  {:<4}  {:<22} {:<16}  {:>16}  {:>30}  {:<22}  {:<11}  {:<12}  {:<8}  {:<10}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]
        );
    };
    let row = |out: &mut String, c: [&str; 12]| {
        let _ = writeln!(
            out,
            "{:<22}  {:<22}  {:<4}  {:<22} {:<16}  {:>16}  {:>30}  {:<22}  {:>11}  {:<12}  {:<8}  {:>10}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]
        );
    };
    header(
        &mut out,
        [
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
        ],
    );
    for (cluster, names) in &info.cluster_addr_table {
        for name in names {
            let Some(group) = info.broker_addr_table.get(name) else {
                continue;
            };
            for (id, addr) in &group.broker_addrs {
                let rt = runtime(addr.as_str());
                let id = id.to_string();
                let active = rt.active.to_string();
                row(
                    &mut out,
                    [
                        cluster.as_str(),
                        name.as_str(),
                        &id,
                        addr.as_str(),
                        &rt.version,
                        "     0.00(0,0ms)",
                        "     0.00(0,0ms|0,0ms)",
                        "0-0(0.0w, 0.0, 0.0)",
                        "0",
                        "0.00",
                        "0.0000",
                        &active,
                    ],
                );
            }
        }
    }
    out
}

/// `mqadmin topicRoute -t T`: the route as fastjson's pretty format prints it (tabs, no space after
/// the colon, broker ids as bare map keys), or the error mqadmin reports.
pub fn topic_route(topic: &str, route: Option<&TopicRouteData>) -> String {
    match route.and_then(|r| serde_json::to_value(r).ok()) {
        Some(v) => {
            let mut out = String::new();
            pretty(&v, 0, false, &mut out);
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
fn pretty(v: &Value, level: usize, id_map: bool, out: &mut String) {
    match v {
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) if id_map => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{k}:{v}");
            }
            out.push('\n');
            indent(level, out);
            out.push('}');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                indent(level + 1, out);
                let _ = write!(out, "{}:", Value::String(k.clone()));
                pretty(v, level + 1, k == "brokerAddrs", out);
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
                pretty(item, level + 1, false, out);
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

    /// clusterList prints one row per broker address, under RocketMQ's 5.x header.
    #[test]
    fn cluster_list_has_a_row_per_broker() {
        let info: ClusterInfo = crate::model::fastjson::from_str(
            r#"{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"10.0.0.1:10911",1:"10.0.0.2:10911"},"brokerName":"broker-a","cluster":"C"}},"clusterAddrTable":{"C":["broker-a"]}}"#,
        )
        .unwrap();
        let text = cluster_list(&info, |a| BrokerRuntime {
            version: "V5_3_3".into(),
            active: a.ends_with("1:10911"),
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
