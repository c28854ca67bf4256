//! The `routelab admin` command line (clap), kept in the library so the binary only wires it in.

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use super::backlog::BrokerTarget;
use super::{parse_namesrv_list, run, AdminCommand};
use crate::java_order::PropertiesOrder;
use crate::net::ClientConfig;
use crate::view::mqadmin::ClusterLayout;

/// Query and change RocketMQ NameServers, and read the brokers' backlog, printing what mqadmin prints.
///
/// Every command runs against each NameServer given with -n (as in mqadmin, `-n` may also follow
/// the command, and defaults to $NAMESRV_ADDR). With several NameServers each one's output is
/// headed `============ADDR============`. A NameServer that cannot be reached is reported on
/// standard error with what to do; the others are still printed, and the exit code is 1.
/// The backlog commands (topicStatus, consumerProgress, consumerConnection, brokerStatus,
/// consumerLag, producerConnection) ask the brokers instead, found through the first NameServer that answers; a
/// broker that does not answer is reported the same way.
/// On a cluster with ACL on, give --access-key and --secret-key (or ROUTELAB_ACCESS_KEY and
/// ROUTELAB_SECRET_KEY): every request is then signed as RocketMQ's AclClientRPCHook signs it.
///
/// Examples:
///   routelab admin -n 127.0.0.1:9876 clusterList
///   routelab admin -n '127.0.0.1:9876;127.0.0.1:9877' topicRoute -t TopicTest
///   routelab admin topicRoute -t TopicTest -l -n 127.0.0.1:9876
///   routelab admin -n 127.0.0.1:9876 consumerProgress -g GroupA
///   ROUTELAB_ACCESS_KEY=rocketmq2 ROUTELAB_SECRET_KEY=… routelab admin -n 127.0.0.1:9876 consumerLag -g GroupA
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment, arg_required_else_help = true)]
pub struct AdminArgs {
    /// NameServer addresses: host:port, several separated by ';'.
    #[arg(
        short = 'n',
        long = "namesrvAddr",
        env = "NAMESRV_ADDR",
        global = true,
        value_name = "ADDR[;ADDR...]"
    )]
    pub namesrv: Option<String>,
    /// How long to wait for a connection and for each answer (e.g. 500ms, 3s).
    #[arg(long, global = true, default_value = "3s", value_parser = humantime::parse_duration)]
    pub timeout: Duration,
    #[command(flatten)]
    pub acl: crate::host::acl_args::AclArgs,
    #[command(subcommand)]
    pub command: AdminSub,
}

/// The commands (mqadmin's names).
#[derive(clap::Subcommand, Debug)]
pub enum AdminSub {
    /// List the brokers of every cluster (GET_BROKER_CLUSTER_INFO).
    ///
    /// One row per broker address, in mqadmin's order and with the columns of the mqadmin that
    /// matches the NameServer: 4.x's ten for a NameServer that answers with a 4.x version, 5.x's
    /// twelve (with #Timer(Progress) and #ACTIVATED) otherwise, or as --layout says. The runtime
    /// columns (version, TPS, …) come from the brokers themselves in mqadmin; routelab asks only
    /// the NameServer, so they read as a broker that did not answer.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 clusterList --layout 4.x
    #[command(name = "clusterList", verbatim_doc_comment)]
    ClusterList {
        /// The mqadmin whose columns to print: 4.x or 5.x (default: the NameServer's version).
        #[arg(long, value_name = "4.x|5.x", value_parser = parse_layout)]
        layout: Option<ClusterLayout>,
    },
    /// Print a topic's route (GET_ROUTEINFO_BY_TOPIC).
    ///
    /// Without -l: the route as JSON, pretty-printed as mqadmin does (fastjson: tabs, broker ids
    /// as bare keys). With -l: a table per broker group with queue counts and perm, and totals.
    /// An unknown topic prints mqadmin's "CODE: 17" error and exits with 1.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 topicRoute -t TopicTest -l
    #[command(name = "topicRoute", verbatim_doc_comment)]
    TopicRoute {
        /// The topic.
        #[arg(short = 't', long = "topic")]
        topic: String,
        /// Print a table instead of JSON.
        #[arg(short = 'l', long = "list")]
        list: bool,
    },
    /// List every topic the NameServer knows (GET_ALL_TOPIC_LIST_FROM_NAMESERVER), one per line.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 topicList
    #[command(name = "topicList", verbatim_doc_comment)]
    TopicList,
    /// Print the cluster(s) a topic belongs to.
    ///
    /// Like mqadmin, looks up the cluster(s) holding the first broker group of the topic's route.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 topicClusterList -t TopicTest
    #[command(name = "topicClusterList", verbatim_doc_comment)]
    TopicClusterList {
        /// The topic.
        #[arg(short = 't', long = "topic")]
        topic: String,
    },
    /// Print the NameServer's configuration (GET_NAMESRV_CONFIG), `key  =  value` per line.
    ///
    /// In the order mqadmin prints it: the lines loaded into a java.util.Properties, whose order
    /// is a Hashtable's on Java 8 (mqadmin 4.9.8's runtime, the default) and a ConcurrentHashMap's
    /// from Java 9 on (--java 9).
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 getNamesrvConfig
    #[command(name = "getNamesrvConfig", verbatim_doc_comment)]
    GetNamesrvConfig {
        /// The Java runtime mqadmin runs on: 8, or 9 and later (17, 21 …).
        #[arg(long, value_name = "VERSION", default_value = "8", value_parser = parse_java)]
        java: PropertiesOrder,
    },
    /// Print one KV-config namespace (GET_KVLIST_BY_NAMESPACE), e.g. ORDER_TOPIC_CONFIG.
    ///
    /// mqadmin has no such command (only updateKvConfig / deleteKvConfig); the layout is
    /// getNamesrvConfig's.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 getKvList -s ORDER_TOPIC_CONFIG
    #[command(name = "getKvList", verbatim_doc_comment)]
    GetKvList {
        /// The namespace.
        #[arg(short = 's', long = "namespace")]
        namespace: String,
    },
    /// Make every queue of a broker group read-only in the NameServer (WIPE_WRITE_PERM_OF_BROKER).
    ///
    /// Producers stop sending to the group once their route refreshes (about 30 s), which drains
    /// it before maintenance. Prints how many topics changed on each NameServer. The broker's
    /// next registration does not undo it; addWritePerm does.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 wipeWritePerm -b broker-a
    #[command(name = "wipeWritePerm", verbatim_doc_comment)]
    WipeWritePerm {
        /// The broker group (brokerName).
        #[arg(short = 'b', long = "brokerName")]
        broker: String,
    },
    /// Give a broker group's queues write permission back (ADD_WRITE_PERM_OF_BROKER).
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 addWritePerm -b broker-a
    #[command(name = "addWritePerm", verbatim_doc_comment)]
    AddWritePerm {
        /// The broker group (brokerName).
        #[arg(short = 'b', long = "brokerName")]
        broker: String,
    },
    /// Delete a topic's route from the NameServer(s) (DELETE_TOPIC_IN_NAMESRV).
    ///
    /// Only the NameServer's tables change: unlike mqadmin, routelab does not delete the topic on
    /// the brokers, so a broker that still has it registers it again with its next heartbeat
    /// (every 30 s). With -c only that cluster's queues go.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 deleteTopic -t TopicTest -c DefaultCluster
    #[command(name = "deleteTopic", verbatim_doc_comment)]
    DeleteTopic {
        /// The topic.
        #[arg(short = 't', long = "topic")]
        topic: String,
        /// Only this cluster.
        #[arg(short = 'c', long = "clusterName")]
        cluster: Option<String>,
    },
    /// Print each queue's min and max offset and when it was last written (asks the brokers).
    ///
    /// As mqadmin: the topic's route from a NameServer, then GET_TOPIC_STATS_INFO to each broker
    /// group's master (a slave when it has none). Max offset minus a group's committed offset is
    /// that group's backlog on the queue (consumerProgress). "topicStats", as the RocketMQ articles
    /// spell it, works too. Dates are printed in UTC.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 topicStatus -t TopicTest
    #[command(
        name = "topicStatus",
        visible_alias = "topicStats",
        verbatim_doc_comment
    )]
    TopicStatus {
        /// The topic.
        #[arg(short = 't', long = "topic")]
        topic: String,
    },
    /// Print a consumer group's backlog per queue, or every group's total (asks the brokers).
    ///
    /// With -g: the brokers of the group's retry topic (%RETRY%<group>) answer GET_CONSUME_STATS;
    /// one row per queue with the broker's offset, the group's committed offset and the difference
    /// (the backlog), then Consume TPS and Diff Total. Without -g: one row per group the NameServer
    /// knows a retry topic of, with its members (Count), lowest client version, type, model, TPS
    /// and total backlog; a group with no member online reads OFFLINE. Dates are printed in UTC.
    ///
    /// With -g and -s true, a #Client IP column says which member reads each queue: each member is
    /// asked through a broker for its running info (GET_CONSUMER_RUNNING_INFO); a member that does
    /// not answer leaves its queues N/A, as mqadmin does.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 consumerProgress -g GroupA
    ///          routelab admin -n 127.0.0.1:9876 consumerProgress -g GroupA -s true
    #[command(name = "consumerProgress", verbatim_doc_comment)]
    ConsumerProgress {
        /// The consumer group.
        #[arg(short = 'g', long = "groupName")]
        group: Option<String>,
        /// "true" (any case) adds the #Client IP column, as mqadmin's -s; anything else does not.
        #[arg(short = 's', long = "showClientIP", value_name = "true|false")]
        show_client_ip: Option<String>,
    },
    /// Print who is in a consumer group: each member's client id, address, language and version,
    /// the group's subscriptions, and how it consumes (asks a broker: GET_CONSUMER_CONNECTION_LIST).
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 consumerConnection -g GroupA
    #[command(name = "consumerConnection", verbatim_doc_comment)]
    ConsumerConnection {
        /// The consumer group.
        #[arg(short = 'g', long = "consumerGroup")]
        group: String,
        /// Ask this broker (host:port) instead of one from the group's route.
        #[arg(short = 'b', long = "brokerAddr")]
        broker: Option<String>,
    },
    /// Print how late a consumer group is, per queue: its backlog and how long the first unread
    /// message has waited (asks the brokers; RouteLab's own command).
    ///
    /// The brokers of the group's retry topic answer GET_CONSUME_STATS, then, for each topic with
    /// messages unread, QUERY_CONSUME_TIME_SPAN (the broker's own delayTime: its clock minus the
    /// store time of the first unconsumed message). One row per queue: broker offset, consumer
    /// offset, diff, when the next unread message was stored (UTC) and its lag; then Diff Total
    /// and the oldest lag. N/A: the broker could not say (the group has no offset there yet, or its
    /// offset fell below what the broker still keeps).
    ///
    /// --format json prints an array of objects with the members topic, broker, queue_id,
    /// broker_offset, consumer_offset, diff, next_store_time_ms (null when nothing is unread) and
    /// lag_ms (0 when nothing is unread; null when the broker could not say).
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 consumerLag -g GroupA
    ///          routelab admin -n 127.0.0.1:9876 consumerLag -g GroupA -t TopicTest --format json
    #[command(name = "consumerLag", verbatim_doc_comment)]
    ConsumerLag {
        /// The consumer group.
        #[arg(short = 'g', long = "groupName")]
        group: String,
        /// Only this topic.
        #[arg(short = 't', long = "topic")]
        topic: Option<String>,
        /// text (columns) or json (an array of objects).
        #[arg(long, value_name = "text|json", default_value = "text", value_parser = super::lag::LagFormat::parse)]
        format: super::lag::LagFormat,
    },
    /// Print who is in a producer group (asks a broker of the topic: GET_PRODUCER_CONNECTION_LIST).
    ///
    /// As mqadmin 4.9.8: one line per member, numbered, with its client id, address, language and
    /// version. A producer heartbeats the brokers of the topics it sends to, so the topic's route
    /// says which broker to ask. A group with no member there is an error.
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 producerConnection -g PID_orders -t TopicTest
    #[command(name = "producerConnection", verbatim_doc_comment)]
    ProducerConnection {
        /// The producer group.
        #[arg(short = 'g', long = "producerGroup")]
        group: String,
        /// A topic the group sends to.
        #[arg(short = 't', long = "topic")]
        topic: String,
    },
    /// Print a broker's runtime figures, sorted by name (GET_BROKER_RUNTIME_INFO): putTps, getTransferedTps, msgPutTotalTodayNow …
    ///
    /// -b asks one broker; -c every master and slave of a cluster (each line then starts with the
    /// broker's address).
    ///
    /// Example: routelab admin -n 127.0.0.1:9876 brokerStatus -b 127.0.0.1:10911
    #[command(name = "brokerStatus", verbatim_doc_comment)]
    BrokerStatus {
        /// The broker's address (host:port).
        #[arg(
            short = 'b',
            long = "brokerAddr",
            required_unless_present = "cluster",
            conflicts_with = "cluster"
        )]
        broker: Option<String>,
        /// Every broker of this cluster.
        #[arg(short = 'c', long = "clusterName")]
        cluster: Option<String>,
    },
}

fn parse_layout(text: &str) -> Result<ClusterLayout, String> {
    ClusterLayout::parse(text).ok_or_else(|| format!("{text:?} is not a layout: use 4.x or 5.x"))
}

fn parse_java(text: &str) -> Result<PropertiesOrder, String> {
    PropertiesOrder::parse(text)
        .ok_or_else(|| format!("{text:?} is not a Java version: use 8, or 9 and later (e.g. 17)"))
}

impl From<AdminSub> for AdminCommand {
    fn from(sub: AdminSub) -> Self {
        match sub {
            AdminSub::ClusterList { layout } => Self::ClusterList { layout },
            AdminSub::TopicRoute { topic, list } => Self::TopicRoute { topic, list },
            AdminSub::TopicList => Self::TopicList,
            AdminSub::TopicClusterList { topic } => Self::TopicClusterList { topic },
            AdminSub::GetNamesrvConfig { java } => Self::GetNamesrvConfig { java },
            AdminSub::GetKvList { namespace } => Self::GetKvList { namespace },
            AdminSub::WipeWritePerm { broker } => Self::WipeWritePerm { broker },
            AdminSub::AddWritePerm { broker } => Self::AddWritePerm { broker },
            AdminSub::DeleteTopic { topic, cluster } => Self::DeleteTopic { topic, cluster },
            AdminSub::TopicStatus { topic } => Self::TopicStatus { topic },
            AdminSub::ConsumerProgress {
                group,
                show_client_ip,
            } => Self::ConsumerProgress {
                group,
                // mqadmin: hasOption('s') && "true".equalsIgnoreCase(value).
                show_client_ip: show_client_ip.is_some_and(|v| v.eq_ignore_ascii_case("true")),
            },
            AdminSub::ConsumerConnection { group, broker } => {
                Self::ConsumerConnection { group, broker }
            }
            AdminSub::ProducerConnection { group, topic } => {
                Self::ProducerConnection { group, topic }
            }
            AdminSub::ConsumerLag {
                group,
                topic,
                format,
            } => Self::ConsumerLag {
                group,
                topic,
                format,
            },
            AdminSub::BrokerStatus { broker, cluster } => Self::BrokerStatus {
                target: match (broker, cluster) {
                    (Some(addr), _) => BrokerTarget::Addr(addr),
                    (None, Some(c)) => BrokerTarget::Cluster(c),
                    // clap requires one of the two.
                    (None, None) => BrokerTarget::Cluster(String::new()),
                },
            },
        }
    }
}

/// Runs `routelab admin`: exit code 0, 1 when a NameServer failed, 2 for bad arguments.
pub fn main(args: AdminArgs) -> ExitCode {
    let addrs = match args.namesrv.as_deref().map(parse_namesrv_list) {
        Some(Ok(addrs)) => addrs,
        Some(Err(e)) => {
            eprintln!("error: -n: {e}");
            return ExitCode::from(2);
        }
        None => {
            eprintln!(
                "error: no NameServer given: pass -n host:port (several separated by ';') or set NAMESRV_ADDR"
            );
            return ExitCode::from(2);
        }
    };
    let credentials = match args.acl.credentials() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let config = ClientConfig {
        connect_timeout: args.timeout,
        request_timeout: args.timeout,
        credentials,
        ..ClientConfig::default()
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let command = AdminCommand::from(args.command);
    let report = runtime.block_on(run(&addrs, &command, &config));
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(report.stdout.as_bytes())
        .and_then(|()| stdout.flush());
    eprint!("{}", report.stderr);
    match written {
        // A closed pipe (`… | head`) is not a failure.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::FAILURE
        }
        _ if report.failed => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    }
}
