//! mqadmin's backlog commands against real brokers: `topicStatus`, `consumerProgress`,
//! `consumerConnection` and `brokerStatus`. As `DefaultMQAdminExtImpl` (4.9.8) does, the route comes
//! from a NameServer (the topic's, or `%RETRY%<group>`'s for a group) and each broker group's master
//! is asked (a slave when the group has no master). A broker that does not answer is named on
//! standard error with what to do; what the others answered is printed, and the exit code is 1.
//!
//! Where Java picks at random (a slave of a masterless group, the broker asked for a group's
//! connections), RouteLab takes the lowest broker id and the first group of the route, so two runs
//! print the same.

use std::collections::BTreeMap;

use crate::live::backlog::keep_last;
use crate::model::broker_stats::{ConsumeStats, ConsumerConnection, QueueKey};
use crate::model::{BrokerData, TopicRouteData};
use crate::net::{ClientConfig, ClientError, NamesrvClient};
use crate::view::mqadmin::consumer::{self as text, ProgressRow, TopicStatusRow};

use super::report::{explain, Report};

/// `%RETRY%<group>`: the topic every consumer group's brokers create with its first heartbeat,
/// whose route tells mqadmin which brokers know the group.
pub(super) fn retry_topic(group: &str) -> String {
    format!("%RETRY%{group}")
}

/// `BrokerData.selectBrokerAddr`: the master, else a slave (the lowest id here; Java: any).
pub(super) fn select_addr(group: &BrokerData) -> Option<&str> {
    group
        .broker_addrs
        .iter()
        .next()
        .map(|(_, addr)| addr.as_str())
}

/// Collects output and failures.
#[derive(Default)]
pub(super) struct Out {
    pub(super) report: Report,
}

impl Out {
    pub(super) fn fail(&mut self, line: String) {
        self.report.stderr.push_str(&line);
        self.report.stderr.push('\n');
        self.report.failed = true;
    }

    pub(super) fn broker_failed(&mut self, name: &str, addr: &str, err: &ClientError) {
        let hint = match err {
            ClientError::Connect { .. } => {
                "; is the broker running, and is that address reachable from here (brokerIP1)?"
            }
            ClientError::Timeout { .. } | ClientError::Closed { .. } | ClientError::Frame(_) => {
                "; is that address a RocketMQ broker?"
            }
            _ => "",
        };
        self.fail(format!("error: broker {name} ({addr}): {err}{hint}"));
    }
}

/// What the first NameServer of `addrs` that answers says to `f`, with its address; each
/// NameServer that does not answer is reported into `out` (with what to do) only if none does.
async fn first_namesrv<'a, T>(
    addrs: &'a [String],
    config: &ClientConfig,
    out: &mut Out,
    f: impl AsyncFn(&NamesrvClient) -> Result<T, ClientError>,
) -> Option<(&'a str, T)> {
    let mut errors = Vec::new();
    for addr in addrs {
        match ask(addr, config, &f).await {
            Ok(v) => return Some((addr, v)),
            Err(e) => errors.push(explain(addr, &e)),
        }
    }
    for e in errors {
        out.fail(e);
    }
    None
}

/// The route of `topic` from the first NameServer that answers (`None` inside: TOPIC_NOT_EXIST).
pub(super) async fn route(
    addrs: &[String],
    topic: &str,
    config: &ClientConfig,
    out: &mut Out,
) -> Option<Option<TopicRouteData>> {
    first_namesrv(addrs, config, out, async |c: &NamesrvClient| {
        c.route(topic).await
    })
    .await
    .map(|(_, route)| route)
}

/// One request to one broker, on a connection of its own.
pub(super) async fn ask<T, F>(addr: &str, config: &ClientConfig, f: F) -> Result<T, ClientError>
where
    F: AsyncFnOnce(&NamesrvClient) -> Result<T, ClientError>,
{
    let client = NamesrvClient::connect(addr, config.clone()).await?;
    let r = f(&client).await;
    client.close();
    r
}

/// `topicStatus -t T`.
pub async fn topic_status(addrs: &[String], topic: &str, config: &ClientConfig) -> Report {
    let mut out = Out::default();
    let Some(route) = route(addrs, topic, config, &mut out).await else {
        return out.report;
    };
    let Some(route) = route else {
        out.fail(format!(
            "error: no NameServer route for topic {topic} (TOPIC_NOT_EXIST, 17): check the name, or create it with updateTopic"
        ));
        return out.report;
    };
    let mut rows = Vec::new();
    for group in &route.broker_datas {
        let Some(addr) = select_addr(group) else {
            continue;
        };
        match ask(addr, config, async |c: &NamesrvClient| {
            c.topic_stats(topic).await
        })
        .await
        {
            Ok(table) => {
                rows.extend(
                    table
                        .offset_table
                        .0
                        .into_iter()
                        .map(|(q, o)| TopicStatusRow {
                            broker_name: q.broker_name,
                            queue_id: q.queue_id,
                            min_offset: o.min_offset.max(0) as u64,
                            max_offset: o.max_offset.max(0) as u64,
                            last_update_ms: o.last_update_timestamp.max(0) as u64,
                        }),
                )
            }
            Err(e) => out.broker_failed(group.broker_name.as_str(), addr, &e),
        }
    }
    if rows.is_empty() && !out.report.failed {
        out.fail(format!(
            "error: Not found the topic stats info: no broker of {topic}'s route answered with a queue"
        ));
        return out.report;
    }
    keep_last(&mut rows, |r| (r.broker_name.clone(), r.queue_id));
    out.report.stdout = text::topic_status(topic, &rows);
    out.report
}

/// `examineConsumeStats(group)`: every broker of the group's retry route, merged (`putAll`); a broker
/// that fails is reported into `out` only when `report`.
async fn consume_stats(
    route: &TopicRouteData,
    group: &str,
    config: &ClientConfig,
    out: &mut Out,
    report: bool,
) -> ConsumeStats {
    let mut merged = ConsumeStats::default();
    for bd in &route.broker_datas {
        let Some(addr) = select_addr(bd) else {
            continue;
        };
        match ask(addr, config, async |c: &NamesrvClient| {
            c.consume_stats(group, None).await
        })
        .await
        {
            Ok(stats) => {
                merged.offset_table.0.extend(stats.offset_table.0);
                merged.consume_tps += stats.consume_tps;
            }
            Err(e) if report => out.broker_failed(bd.broker_name.as_str(), addr, &e),
            Err(_) => {}
        }
    }
    keep_last(&mut merged.offset_table.0, |(q, _)| {
        (q.topic.clone(), q.broker_name.clone(), q.queue_id)
    });
    merged
}

/// `examineConsumerConnectionInfo(group)`: the first broker group of the retry route (Java: one at
/// random) is asked. `Err` carries the line to print.
async fn connections(
    route: &TopicRouteData,
    group: &str,
    config: &ClientConfig,
) -> Result<ConsumerConnection, String> {
    let Some(bd) = route.broker_datas.first() else {
        return Err(format!(
            "error: {group}'s retry topic has no broker in its route"
        ));
    };
    let Some(addr) = select_addr(bd) else {
        return Err(format!(
            "error: broker group {} has no address",
            bd.broker_name
        ));
    };
    match ask(addr, config, async |c: &NamesrvClient| c.consumer_connections(group).await).await {
        Ok(Some(cc)) if !cc.connection_set.is_empty() => Ok(cc),
        Ok(_) => Err(format!(
            "error: Not found the consumer group connection (CONSUMER_NOT_ONLINE, 206): no member of {group} is connected to broker {} ({addr})",
            bd.broker_name
        )),
        Err(e) => Err(format!("error: broker {} ({addr}): {e}", bd.broker_name)),
    }
}

pub(super) fn no_retry_route(group: &str) -> String {
    format!(
        "error: no NameServer route for {} (TOPIC_NOT_EXIST, 17): the group {group} has never sent a heartbeat to a broker; check the group's name",
        retry_topic(group)
    )
}

/// `getMessageQueueAllocationResult`: each member of the group (from one broker's connections) asked
/// for its running info through the first broker of the retry route with an address; queue → client
/// id. As in mqadmin, the first failure ends the asking and keeps what was learnt.
async fn queue_owners(
    route: &TopicRouteData,
    group: &str,
    config: &ClientConfig,
) -> BTreeMap<(String, String, i32), String> {
    let mut owners = BTreeMap::new();
    let Ok(cc) = connections(route, group, config).await else {
        return owners;
    };
    let Some(addr) = route.broker_datas.iter().find_map(select_addr) else {
        return owners;
    };
    // The broker waits a few seconds for a silent member before it answers; Java gives this call
    // three times its usual timeout.
    let config = ClientConfig {
        request_timeout: config.request_timeout * 3,
        ..config.clone()
    };
    for member in &cc.connection_set {
        let asked = ask(addr, &config, async |c: &NamesrvClient| {
            c.consumer_running_info(group, &member.client_id).await
        })
        .await;
        let Ok(info) = asked else {
            break;
        };
        for q in info.queues() {
            owners.insert(
                (q.topic.clone(), q.broker_name.clone(), q.queue_id),
                member.client_id.clone(),
            );
        }
    }
    owners
}

/// `consumerProgress -g G [-s true]`.
pub async fn consumer_progress(
    addrs: &[String],
    group: &str,
    show_client_ip: bool,
    config: &ClientConfig,
) -> Report {
    let mut out = Out::default();
    let Some(route) = route(addrs, &retry_topic(group), config, &mut out).await else {
        return out.report;
    };
    let Some(route) = route else {
        out.fail(no_retry_route(group));
        return out.report;
    };
    let stats = consume_stats(&route, group, config, &mut out, true).await;
    if stats.offset_table.0.is_empty() {
        if !out.report.failed {
            out.fail("error: Not found the consumer group consume stats, because return offset table is empty, maybe the consumer not consume any message (CONSUMER_NOT_ONLINE, 206)".into());
        }
        return out.report;
    }
    let owners = if show_client_ip {
        queue_owners(&route, group, config).await
    } else {
        BTreeMap::new()
    };
    let rows: Vec<ProgressRow> = stats
        .offset_table
        .0
        .iter()
        .map(
            |(
                QueueKey {
                    topic,
                    broker_name,
                    queue_id,
                },
                o,
            )| ProgressRow {
                topic: topic.clone(),
                broker_name: broker_name.clone(),
                queue_id: *queue_id,
                broker_offset: o.broker_offset.max(0) as u64,
                consumer_offset: o.consumer_offset.max(0) as u64,
                client_id: owners
                    .get(&(topic.clone(), broker_name.clone(), *queue_id))
                    .cloned(),
                last_timestamp_ms: o.last_timestamp.max(0) as u64,
            },
        )
        .collect();
    out.report.stdout = text::consumer_progress(&rows, stats.consume_tps, show_client_ip);
    out.report
}

/// `consumerProgress` without `-g`: one row per group with a retry topic, in the order mqadmin's
/// `HashSet` of topics holds them; a group whose stats or connections fail reads as mqadmin reads
/// it (0, OFFLINE).
pub async fn group_list(addrs: &[String], config: &ClientConfig) -> Report {
    let mut out = Out::default();
    let Some((_, topics)) = first_namesrv(addrs, config, &mut out, async |c: &NamesrvClient| {
        c.all_topics_as_sent().await
    })
    .await
    else {
        return out.report;
    };
    let mut stdout = text::group_list_header();
    for topic in crate::view::mqadmin::namesrv::topic_list(&topics).lines() {
        let Some(group) = topic.strip_prefix("%RETRY%") else {
            continue;
        };
        let mut quiet = Out::default();
        let (stats, conn) = match route(addrs, topic, config, &mut quiet).await.flatten() {
            Some(route) => (
                Some(consume_stats(&route, group, config, &mut quiet, false).await),
                connections(&route, group, config).await.ok(),
            ),
            None => (None, None),
        };
        stdout.push_str(&text::group_row(group, stats.as_ref(), conn.as_ref()));
    }
    out.report.stdout = stdout;
    out.report
}

/// `consumerConnection -g G [-b ADDR]`.
pub async fn consumer_connection(
    addrs: &[String],
    group: &str,
    broker: Option<&str>,
    config: &ClientConfig,
) -> Report {
    let mut out = Out::default();
    let result = match broker {
        Some(addr) => {
            match ask(addr, config, async |c: &NamesrvClient| c.consumer_connections(group).await)
                .await
            {
                Ok(Some(cc)) if !cc.connection_set.is_empty() => Ok(cc),
                Ok(_) => Err(format!("error: Not found the consumer group connection (CONSUMER_NOT_ONLINE, 206): no member of {group} is connected to {addr}")),
                Err(e) => {
                    out.broker_failed(addr, addr, &e);
                    return out.report;
                }
            }
        }
        None => {
            let Some(route) = route(addrs, &retry_topic(group), config, &mut out).await else {
                return out.report;
            };
            let Some(route) = route else {
                out.fail(no_retry_route(group));
                return out.report;
            };
            connections(&route, group, config).await
        }
    };
    match result {
        Ok(cc) => out.report.stdout = text::consumer_connection(&cc),
        Err(line) => out.fail(line),
    }
    out.report
}

/// `brokerStatus -b ADDR`, or `-c CLUSTER` (every master and slave of the cluster, each line headed
/// by its address).
pub async fn broker_status(
    addrs: &[String],
    target: &BrokerTarget,
    config: &ClientConfig,
) -> Report {
    let mut out = Out::default();
    match target {
        BrokerTarget::Addr(addr) => {
            match ask(addr, config, async |c: &NamesrvClient| {
                c.broker_runtime_info().await
            })
            .await
            {
                Ok(kv) => out.report.stdout = text::broker_status(&kv.table, None),
                Err(e) => out.broker_failed(addr, addr, &e),
            }
        }
        BrokerTarget::Cluster(cluster) => {
            let Some(brokers) = cluster_addrs(addrs, cluster, config, &mut out).await else {
                return out.report;
            };
            for (name, addr) in brokers {
                match ask(&addr, config, async |c: &NamesrvClient| {
                    c.broker_runtime_info().await
                })
                .await
                {
                    Ok(kv) => out
                        .report
                        .stdout
                        .push_str(&text::broker_status(&kv.table, Some(&addr))),
                    Err(e) => out.broker_failed(&name, &addr, &e),
                }
            }
        }
    }
    out.report
}

/// Which brokers `brokerStatus` asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrokerTarget {
    /// `-b ADDR`.
    Addr(String),
    /// `-c CLUSTER`.
    Cluster(String),
}

/// `CommandUtil.fetchMasterAndSlaveAddrByClusterName`: every address of every broker group of the
/// cluster (by group name, then id).
async fn cluster_addrs(
    addrs: &[String],
    cluster: &str,
    config: &ClientConfig,
    out: &mut Out,
) -> Option<Vec<(String, String)>> {
    let (addr, info) = first_namesrv(addrs, config, out, async |c: &NamesrvClient| {
        c.cluster_info().await
    })
    .await?;
    let Some(names) = info.cluster_addr_table.get(cluster) else {
        out.fail(format!(
            "error: NameServer {addr} knows no cluster {cluster}: clusterList lists the clusters"
        ));
        return None;
    };
    let mut found = Vec::new();
    for name in names {
        if let Some(bd) = info.broker_addr_table.get(name.as_str()) {
            for a in bd.broker_addrs.values() {
                found.push((name.to_string(), a.to_string()));
            }
        }
    }
    Some(found)
}
