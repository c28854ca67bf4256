//! Running one admin command against every NameServer of `-n`, concurrently, and assembling what to
//! print in the order the NameServers were given.

use crate::java_order::PropertiesOrder;
use crate::net::{ClientConfig, ClientError, NamesrvClient};
use crate::view::mqadmin;

use super::backlog::{self, BrokerTarget};
use super::report::explain;
pub use super::report::Report;
use crate::view::mqadmin::namesrv::PermChange;

/// One `routelab admin` command (mqadmin's names and options).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminCommand {
    /// `clusterList`, in the layout given, else the answering NameServer's.
    ClusterList {
        /// `--layout 4.x|5.x`.
        layout: Option<mqadmin::ClusterLayout>,
    },
    /// `topicRoute -t T [-l]`.
    TopicRoute {
        /// The topic.
        topic: String,
        /// `-l`: the table instead of the JSON.
        list: bool,
    },
    /// `topicList`.
    TopicList,
    /// `topicClusterList -t T`.
    TopicClusterList {
        /// The topic.
        topic: String,
    },
    /// `getNamesrvConfig`, in the order of the `Properties` of mqadmin's Java runtime.
    GetNamesrvConfig {
        /// Java 8 (a Hashtable) or 9+ (a ConcurrentHashMap).
        java: PropertiesOrder,
    },
    /// `getKvList -s NS`.
    GetKvList {
        /// The KV namespace.
        namespace: String,
    },
    /// `wipeWritePerm -b B`.
    WipeWritePerm {
        /// The broker group.
        broker: String,
    },
    /// `addWritePerm -b B`.
    AddWritePerm {
        /// The broker group.
        broker: String,
    },
    /// `deleteTopic -t T [-c C]`.
    DeleteTopic {
        /// The topic.
        topic: String,
        /// Only this cluster's queues.
        cluster: Option<String>,
    },
    /// `topicStatus -t T` (asks the brokers).
    TopicStatus {
        /// The topic.
        topic: String,
    },
    /// `consumerProgress [-g G]` (asks the brokers).
    ConsumerProgress {
        /// The group; without it, every group with a retry topic.
        group: Option<String>,
        /// `-s true`: which member reads each queue (with a group only).
        show_client_ip: bool,
    },
    /// `consumerConnection -g G [-b ADDR]` (asks a broker).
    ConsumerConnection {
        /// The group.
        group: String,
        /// Ask this broker instead of one of the group's route.
        broker: Option<String>,
    },
    /// `consumerLag -g G [-t T]` (asks the brokers; RouteLab's own).
    ConsumerLag {
        /// The group.
        group: String,
        /// Only this topic.
        topic: Option<String>,
        /// Text or JSON.
        format: super::lag::LagFormat,
    },
    /// `producerConnection -g G -t T` (asks a broker of the topic).
    ProducerConnection {
        /// The producer group.
        group: String,
        /// A topic it sends to.
        topic: String,
    },
    /// `brokerStatus -b ADDR | -c CLUSTER` (asks the brokers).
    BrokerStatus {
        /// Which brokers.
        target: BrokerTarget,
    },
}

/// Splits mqadmin's `-n` value (`host:port;host:port`), dropping blanks; each part must look like
/// `host:port`.
pub fn parse_namesrv_list(value: &str) -> Result<Vec<String>, String> {
    let addrs: Vec<String> = value
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if addrs.is_empty() {
        return Err(
            "no NameServer address given: use -n host:port (several separated by ';')".into(),
        );
    }
    for addr in &addrs {
        let port_ok = addr
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !port_ok {
            return Err(format!(
                "{addr:?} is not a NameServer address: expected host:port, e.g. 127.0.0.1:9876"
            ));
        }
    }
    Ok(addrs)
}

/// One NameServer's part of the report.
struct Section {
    text: String,
    error: Option<String>,
}

/// Runs `cmd` against every NameServer in `addrs` (all at once) and assembles the report. With
/// several NameServers each section is headed by its address; `getNamesrvConfig` always is, as in
/// mqadmin.
pub async fn run(addrs: &[String], cmd: &AdminCommand, config: &ClientConfig) -> Report {
    // The backlog commands ask the brokers, through the first NameServer that answers.
    match cmd {
        AdminCommand::TopicStatus { topic } => {
            return backlog::topic_status(addrs, topic, config).await
        }
        AdminCommand::ConsumerProgress {
            group: Some(group),
            show_client_ip,
        } => return backlog::consumer_progress(addrs, group, *show_client_ip, config).await,
        AdminCommand::ConsumerProgress { group: None, .. } => {
            return backlog::group_list(addrs, config).await
        }
        AdminCommand::ConsumerConnection { group, broker } => {
            return backlog::consumer_connection(addrs, group, broker.as_deref(), config).await
        }
        AdminCommand::BrokerStatus { target } => {
            return backlog::broker_status(addrs, target, config).await
        }
        AdminCommand::ProducerConnection { group, topic } => {
            return super::producers::producer_connection(addrs, group, topic, config).await
        }
        AdminCommand::ConsumerLag {
            group,
            topic,
            format,
        } => {
            return super::lag::consumer_lag(addrs, group, topic.as_deref(), *format, config).await
        }
        _ => {}
    }
    let sections =
        futures_util::future::join_all(addrs.iter().map(|addr| section(addr, cmd, config))).await;
    let always_head = matches!(cmd, AdminCommand::GetNamesrvConfig { .. });
    let mut report = Report::default();
    for (addr, section) in addrs.iter().zip(sections) {
        if always_head || addrs.len() > 1 {
            report
                .stdout
                .push_str(&mqadmin::namesrv::section_header(addr));
        }
        report.stdout.push_str(&section.text);
        if let Some(error) = section.error {
            report.stderr.push_str(&error);
            report.stderr.push('\n');
            report.failed = true;
        }
    }
    report
}

async fn section(addr: &str, cmd: &AdminCommand, config: &ClientConfig) -> Section {
    let failed_text = match cmd {
        AdminCommand::WipeWritePerm { broker } => {
            mqadmin::namesrv::perm_failed(PermChange::Wipe, broker, addr)
        }
        AdminCommand::AddWritePerm { broker } => {
            mqadmin::namesrv::perm_failed(PermChange::Add, broker, addr)
        }
        _ => String::new(),
    };
    let client = match NamesrvClient::connect(addr, config.clone()).await {
        Ok(client) => client,
        Err(e) => {
            return Section {
                text: failed_text,
                error: Some(explain(addr, &e)),
            }
        }
    };
    let result = execute(&client, addr, cmd).await;
    client.close();
    match result {
        Ok((text, error)) => Section { text, error },
        Err(e) => Section {
            text: failed_text,
            error: Some(explain(addr, &e)),
        },
    }
}

/// The text for one NameServer, plus an error line when the command "succeeded" with a negative
/// answer (an unknown topic).
async fn execute(
    client: &NamesrvClient,
    addr: &str,
    cmd: &AdminCommand,
) -> Result<(String, Option<String>), ClientError> {
    let not_found = |topic: &str| {
        Some(format!(
            "error: NameServer {addr} has no route for topic {topic} (TOPIC_NOT_EXIST, 17)"
        ))
    };
    Ok(match cmd {
        AdminCommand::ClusterList { layout } => {
            let (info, sent, version) = client.cluster_info_as_sent().await?;
            let layout = layout.unwrap_or(mqadmin::ClusterLayout::for_version(version));
            // The NameServer does not know the brokers' runtime figures (mqadmin asks each
            // broker); they read as a broker that did not answer.
            let text = mqadmin::cluster_list(&info, layout, &sent.client_order(), |_| {
                mqadmin::BrokerRuntime::default()
            });
            (text, None)
        }
        AdminCommand::TopicRoute { topic, list } => match client.route(topic).await? {
            Some(route) if *list => (mqadmin::namesrv::topic_route_list(&route), None),
            Some(route) => (mqadmin::topic_route(topic, Some(&route)), None),
            None => (mqadmin::topic_route(topic, None), not_found(topic)),
        },
        AdminCommand::TopicList => (
            mqadmin::namesrv::topic_list(&client.all_topics_as_sent().await?),
            None,
        ),
        AdminCommand::TopicClusterList { topic } => match client.route(topic).await? {
            Some(route) => {
                let (info, sent, _) = client.cluster_info_as_sent().await?;
                let text =
                    mqadmin::namesrv::topic_cluster_list(&route, &info, &sent.client_order());
                (text, None)
            }
            None => (String::new(), not_found(topic)),
        },
        AdminCommand::GetNamesrvConfig { java } => {
            let lines = client.namesrv_config_lines().await?;
            (mqadmin::namesrv::namesrv_config(&lines, *java), None)
        }
        AdminCommand::GetKvList { namespace } => {
            let table = client.kv_list(namespace).await?;
            (
                mqadmin::namesrv::kv_list(namespace, addr, table.as_ref()),
                None,
            )
        }
        AdminCommand::WipeWritePerm { broker } => {
            let n = client.wipe_write_perm(broker).await?;
            (
                mqadmin::namesrv::perm_ok(PermChange::Wipe, broker, addr, n),
                None,
            )
        }
        AdminCommand::AddWritePerm { broker } => {
            let n = client.add_write_perm(broker).await?;
            (
                mqadmin::namesrv::perm_ok(PermChange::Add, broker, addr, n),
                None,
            )
        }
        AdminCommand::DeleteTopic { topic, cluster } => {
            client.delete_topic(topic, cluster.as_deref()).await?;
            (
                mqadmin::namesrv::delete_ok(topic, cluster.as_deref(), addr),
                None,
            )
        }
        // Run by `run` itself.
        AdminCommand::TopicStatus { .. }
        | AdminCommand::ConsumerProgress { .. }
        | AdminCommand::ConsumerConnection { .. }
        | AdminCommand::BrokerStatus { .. }
        | AdminCommand::ConsumerLag { .. }
        | AdminCommand::ProducerConnection { .. } => (String::new(), None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namesrv_list_is_split_and_checked() {
        assert_eq!(
            parse_namesrv_list(" 127.0.0.1:9876; localhost:9877;").unwrap(),
            ["127.0.0.1:9876", "localhost:9877"]
        );
        assert!(parse_namesrv_list(";")
            .unwrap_err()
            .contains("-n host:port"));
        assert!(parse_namesrv_list("127.0.0.1")
            .unwrap_err()
            .contains("expected host:port"));
        assert!(parse_namesrv_list("h:99999").is_err());
    }
}
