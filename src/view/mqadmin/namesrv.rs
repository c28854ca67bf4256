//! mqadmin's other NameServer commands, laid out as its `printf`s (RocketMQ `tools`,
//! `command/topic` and `command/namesrv`): `topicRoute -l`, `topicList`, `topicClusterList`,
//! `getNamesrvConfig`, `getKvList`, `wipeWritePerm` / `addWritePerm`, `deleteTopic`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::route::ClientOrder;
use crate::java_order::{order_of, JavaTable, PropertiesOrder};
use crate::model::{ClusterInfo, TopicRouteData};

/// `TopicRouteSubCommand.FORMAT`: `%-45s %-32s %-50s %-10s %-11s %-5s%n`.
fn route_row(out: &mut String, c: [&str; 6]) {
    let _ = writeln!(
        out,
        "{:<45} {:<32} {:<50} {:<10} {:<11} {:<5}",
        c[0], c[1], c[2], c[3], c[4], c[5]
    );
}

/// Java's `HashMap<Long, String>.toString()`, `{0=addr, 1=addr}`, of the map mqadmin decodes a
/// standard route body's `brokerAddrs` (ids in numeric order) into.
fn java_map(addrs: &BTreeMap<i64, crate::model::BrokerAddr>) -> String {
    let ids = order_of(JavaTable::hash_map(), addrs.keys().copied());
    let items: Vec<String> = ids
        .iter()
        .filter_map(|id| addrs.get(id).map(|a| format!("{id}={a}")))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// `mqadmin topicRoute -t T -l`: one row per broker group (sorted by name), a rule of 158 dashes and
/// the totals. A group without queue data (Java would throw) gets empty queue columns.
pub fn topic_route_list(route: &TopicRouteData) -> String {
    let mut out = String::new();
    route_row(
        &mut out,
        [
            "#ClusterName",
            "#BrokerName",
            "#BrokerAddrs",
            "#ReadQueue",
            "#WriteQueue",
            "#Perm",
        ],
    );
    let queues: BTreeMap<&str, _> = route
        .queue_datas
        .iter()
        .map(|q| (q.broker_name.as_str(), q))
        .collect();
    let mut groups: Vec<_> = route.broker_datas.iter().collect();
    groups.sort_by(|a, b| a.broker_name.cmp(&b.broker_name));
    let (mut read, mut write) = (0_i64, 0_i64);
    for group in groups {
        let addrs = java_map(&group.broker_addrs);
        match queues.get(group.broker_name.as_str()) {
            Some(q) => {
                read += i64::from(q.read_queue_nums);
                write += i64::from(q.write_queue_nums);
                route_row(
                    &mut out,
                    [
                        group.cluster.as_str(),
                        group.broker_name.as_str(),
                        &addrs,
                        &q.read_queue_nums.to_string(),
                        &q.write_queue_nums.to_string(),
                        &q.perm.to_string(),
                    ],
                );
            }
            None => route_row(
                &mut out,
                [
                    group.cluster.as_str(),
                    group.broker_name.as_str(),
                    &addrs,
                    "",
                    "",
                    "",
                ],
            ),
        }
    }
    out.push_str(&"-".repeat(158));
    out.push('\n');
    route_row(
        &mut out,
        [
            "Total:",
            &queues.len().to_string(),
            "",
            &read.to_string(),
            &write.to_string(),
            "",
        ],
    );
    out
}

/// `mqadmin topicList`: one topic per line.
/// `mqadmin topicList`: the body's topics, as the `HashSet` mqadmin decodes them into holds them.
pub fn topic_list(sent: &[String]) -> String {
    order_of(JavaTable::hash_map(), sent.iter().map(String::as_str))
        .into_iter()
        .map(|t| format!("{t}\n"))
        .collect()
}

/// `mqadmin getNamesrvConfig`: the body's lines loaded into a `Properties` (in their order) and
/// printed in its order, a Hashtable's on Java 8, a ConcurrentHashMap's from Java 9 on.
pub fn namesrv_config(lines: &[(String, String)], java: PropertiesOrder) -> String {
    let mut props = java.new_properties();
    for (k, _) in lines {
        props.insert(k.as_str());
    }
    props
        .iter()
        .filter_map(|k| lines.iter().find(|(key, _)| key == k))
        .map(|(k, v)| format!("{k:<50}=  {v}\n"))
        .collect()
}

/// `mqadmin topicClusterList -t T`: the clusters whose broker set holds the route's *first* broker
/// group, one per line (`DefaultMQAdminExtImpl.getTopicClusterList` looks at `brokerDatas[0]` only):
/// the clusters met in mqadmin's order, gathered in a `HashSet`, printed in its order.
pub fn topic_cluster_list(
    route: &TopicRouteData,
    info: &ClusterInfo,
    order: &ClientOrder,
) -> String {
    let Some(first) = route.broker_datas.first() else {
        return String::new();
    };
    let holding = order.clusters(info).into_iter().filter(|c| {
        info.cluster_addr_table
            .get(*c)
            .is_some_and(|names| names.contains(&first.broker_name))
    });
    order_of(JavaTable::hash_map(), holding.cloned())
        .into_iter()
        .map(|cluster| format!("{cluster}\n"))
        .collect()
}

/// The line mqadmin puts above each NameServer's section (`getNamesrvConfig`), used by every
/// command when `-n` names several NameServers.
pub fn section_header(addr: &str) -> String {
    format!("============{addr}============\n")
}

/// `mqadmin getNamesrvConfig` body: `%-50s=  %s` per entry (sorted by key here; Java prints a
/// Hashtable's order).
pub fn key_values(map: &BTreeMap<String, String>) -> String {
    map.iter()
        .map(|(k, v)| format!("{k:<50}=  {v}\n"))
        .collect()
}

/// `getKvList -s NS` (no mqadmin counterpart; laid out as getNamesrvConfig), or a note that the
/// namespace does not exist.
pub fn kv_list(namespace: &str, addr: &str, table: Option<&BTreeMap<String, String>>) -> String {
    match table {
        Some(table) => key_values(table),
        None => format!("namespace [{namespace}] not found in name server[{addr}]\n"),
    }
}

/// Which write-permission command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermChange {
    /// `wipeWritePerm`.
    Wipe,
    /// `addWritePerm`.
    Add,
}

impl PermChange {
    fn verb(self) -> &'static str {
        match self {
            Self::Wipe => "wipe",
            Self::Add => "add",
        }
    }
}

/// `wipe write perm of broker[B] in name server[N] OK, 3` (or `add …`), as mqadmin prints it.
pub fn perm_ok(change: PermChange, broker: &str, addr: &str, count: i32) -> String {
    format!(
        "{} write perm of broker[{broker}] in name server[{addr}] OK, {count}\n",
        change.verb()
    )
}

/// `wipe write perm of broker[B] in name server[N] Failed`.
pub fn perm_failed(change: PermChange, broker: &str, addr: &str) -> String {
    format!(
        "{} write perm of broker[{broker}] in name server[{addr}] Failed\n",
        change.verb()
    )
}

/// What `deleteTopic` did on one NameServer (mqadmin prints `delete topic [T] from NameServer
/// success.` once for all of them).
pub fn delete_ok(topic: &str, cluster: Option<&str>, addr: &str) -> String {
    match cluster {
        Some(c) => {
            format!("delete topic [{topic}] of cluster [{c}] from NameServer [{addr}] success.\n")
        }
        None => format!("delete topic [{topic}] from NameServer [{addr}] success.\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fastjson;

    fn route() -> TopicRouteData {
        fastjson::from_str(
            r#"{"brokerDatas":[{"brokerAddrs":{"0":"127.0.0.1:10931"},"brokerName":"broker-b","cluster":"DefaultCluster"},
                {"brokerAddrs":{1:"127.0.0.1:10921",0:"127.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}],
               "queueDatas":[{"brokerName":"broker-b","perm":6,"readQueueNums":4,"writeQueueNums":4},
                {"brokerName":"broker-a","perm":4,"readQueueNums":8,"writeQueueNums":8}]}"#,
        )
        .unwrap()
    }

    /// TopicRouteSubCommand's list format: columns at 45/32/50/10/11/5, groups sorted by name,
    /// brokerAddrs as Java's map toString, 158 dashes, the totals row.
    #[test]
    fn topic_route_list_matches_mqadmin_layout() {
        let text = topic_route_list(&route());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5);
        let header = format!(
            "{:<45} {:<32} {:<50} {:<10} {:<11} {:<5}",
            "#ClusterName", "#BrokerName", "#BrokerAddrs", "#ReadQueue", "#WriteQueue", "#Perm"
        );
        assert_eq!(lines[0], header);
        assert_eq!(&lines[1][..46], format!("{:<45} ", "DefaultCluster"));
        assert_eq!(&lines[1][46..79], format!("{:<32} ", "broker-a"));
        assert_eq!(
            lines[1][79..].trim_end(),
            format!(
                "{:<50} {:<10} {:<11} {}",
                "{0=127.0.0.1:10911, 1=127.0.0.1:10921}", 8, 8, 4
            )
        );
        assert!(lines[2][46..].starts_with("broker-b "));
        assert_eq!(lines[3], "-".repeat(158));
        assert_eq!(
            lines[4],
            format!(
                "{:<45} {:<32} {:<50} {:<10} {:<11} {:<5}",
                "Total:", 2, "", 12, 12, ""
            )
        );
    }

    /// getTopicClusterList: clusters holding the route's first broker group only.
    #[test]
    fn topic_cluster_list_uses_the_first_broker() {
        let info: ClusterInfo = fastjson::from_str(
            r#"{"brokerAddrTable":{},"clusterAddrTable":{"C1":["broker-b"],"C2":["broker-a","broker-b"],"C3":["broker-a"]}}"#,
        )
        .unwrap();
        let order = ClientOrder::sorted(&info);
        assert_eq!(topic_cluster_list(&route(), &info, &order), "C1\nC2\n");
        assert_eq!(
            topic_cluster_list(&TopicRouteData::default(), &info, &order),
            ""
        );
    }

    /// getNamesrvConfig's `%-50s=  %s` and header; the perm and delete lines.
    #[test]
    fn config_and_write_lines() {
        let map = BTreeMap::from([("rocketmqHome".to_owned(), "/opt/rmq".to_owned())]);
        assert_eq!(
            format!("{}{}", section_header("127.0.0.1:9876"), key_values(&map)),
            format!(
                "============127.0.0.1:9876============\n{:<50}=  /opt/rmq\n",
                "rocketmqHome"
            )
        );
        assert_eq!(
            perm_ok(PermChange::Wipe, "broker-a", "127.0.0.1:9876", 3),
            "wipe write perm of broker[broker-a] in name server[127.0.0.1:9876] OK, 3\n"
        );
        assert_eq!(
            perm_failed(PermChange::Add, "broker-a", "n:1"),
            "add write perm of broker[broker-a] in name server[n:1] Failed\n"
        );
        // A HashSet's order: "A" (65) in bucket 1, "B" (66) in bucket 2, whatever the body's.
        assert_eq!(topic_list(&["B".into(), "A".into()]), "A\nB\n");
        assert!(kv_list("NS", "n:1", None).contains("namespace [NS] not found"));
        assert!(delete_ok("T", Some("C"), "n:1").contains("of cluster [C]"));
    }

    /// getNamesrvConfig against 4.9.8's defaults: the body's lines (Java 8 `Hashtable` order of the
    /// server's config) loaded into mqadmin's own Properties. The expected orders are what a JDK
    /// printed for those lines put into a `Hashtable` (Java 8's Properties) and into JDK 17's
    /// `Properties`: on Java 8 the last two lines swap.
    #[test]
    fn namesrv_config_prints_in_the_clients_properties_order() {
        let body = "writeBufferLowWaterMark writeBufferHighWaterMark serverCallbackExecutorThreads useEpollNativeSelector productEnvName serverSocketBacklog configStorePath kvConfigPath serverAsyncSemaphoreValue rocketmqHome serverOnewaySemaphoreValue configBlackList serverSocketRcvBufSize serverPooledByteBufAllocatorEnable serverWorkerThreads clusterTest serverSocketSndBufSize orderMessageEnable serverSelectorThreads serverChannelMaxIdleTimeSeconds listenPort";
        let lines: Vec<(String, String)> = body
            .split(' ')
            .map(|k| (k.to_owned(), "v".to_owned()))
            .collect();
        let keys = |text: String| -> Vec<String> {
            text.lines()
                .map(|l| l.split_whitespace().next().unwrap_or("").to_owned())
                .collect()
        };
        let java8 = keys(namesrv_config(&lines, PropertiesOrder::Java8));
        let mut want: Vec<&str> = body.split(' ').collect();
        want.swap(19, 20);
        assert_eq!(java8, want);
        let java9 = keys(namesrv_config(&lines, PropertiesOrder::Java9));
        assert_eq!(java9, "serverSocketBacklog writeBufferHighWaterMark serverWorkerThreads serverSelectorThreads serverChannelMaxIdleTimeSeconds configBlackList writeBufferLowWaterMark serverSocketRcvBufSize serverAsyncSemaphoreValue configStorePath kvConfigPath clusterTest orderMessageEnable serverSocketSndBufSize serverCallbackExecutorThreads serverOnewaySemaphoreValue listenPort useEpollNativeSelector productEnvName rocketmqHome serverPooledByteBufAllocatorEnable".split(' ').collect::<Vec<_>>());
        assert!(namesrv_config(&lines, PropertiesOrder::Java8)
            .starts_with(&format!("{:<50}=  v\n", "writeBufferLowWaterMark")));
    }
}
