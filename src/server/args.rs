//! `routelab namesrv`'s flags, in the manner of `mqnamesrv` (spec §8); [`super::config`] turns them
//! into the configuration.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::model::lenient::Dialect;
use crate::namesrv::Profile;

/// `--profile`: whose rules the route manager follows, and which JSON library the wire copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerProfile {
    /// 4.x or 5.x rules.
    pub rules: Profile,
    /// fastjson 1 (4.9.8, 5.3.3) or fastjson2 (5.4).
    pub json: Dialect,
}

impl ServerProfile {
    /// The profile of `rules` and `json`.
    pub fn new(rules: Profile, json: Dialect) -> Self {
        Self { rules, json }
    }
}

impl From<Profile> for ServerProfile {
    fn from(rules: Profile) -> Self {
        Self::new(rules, Dialect::Fastjson1)
    }
}

impl std::fmt::Display for ServerProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.json {
            Dialect::Fastjson2 => f.write_str("5.4"),
            Dialect::Fastjson1 => self.rules.fmt(f),
        }
    }
}

impl std::str::FromStr for ServerProfile {
    type Err = crate::namesrv::UnknownProfile;

    /// `4.x`, `5.x` as [`Profile`] reads them, or `5.4` (RocketMQ 5.4: 5.x's rules, fastjson2).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "5.4" | "5.4.x" | "v5.4" => Ok(Self::new(Profile::V5, Dialect::Fastjson2)),
            other => other.parse::<Profile>().map(Self::from),
        }
    }
}

/// Run a RocketMQ NameServer on RouteLab's route manager, for real brokers and clients.
///
/// Examples:
///   routelab namesrv                              # 127.0.0.1:9876, 5.x rules, KV under $ROCKETMQ_HOME
///   routelab namesrv --profile 4.x --listen 0.0.0.0:9876
///   routelab namesrv -c namesrv.properties        # Java properties, as mqnamesrv -c
///   routelab namesrv -c namesrv.properties -p     # print the effective config and exit
///   routelab namesrv --home ./ns-home --ws        # + dashboard on http://127.0.0.1:7878/
///   routelab namesrv --ws 0.0.0.0:7878 --token s3cret
///
/// Then point brokers and clients at it (`namesrvAddr=127.0.0.1:9876`), or look with
/// `routelab admin clusterList -n 127.0.0.1:9876`. Stop with Ctrl-C or SIGTERM.
///
/// Properties read from -c (Java names): listenPort, bindAddress, serverChannelMaxIdleTimeSeconds,
/// rocketmqHome, kvConfigPath, configStorePath, orderMessageEnable, returnOrderTopicConfigToBroker,
/// scanNotActiveBrokerInterval, unRegisterBrokerQueueCapacity, supportActingMaster,
/// enableAllTopicList, enableTopicList, deleteTopicWithBrokerRegistration, configBlackList,
/// productEnvName, clusterTest. Other keys are kept and written back unchanged, as Java keeps them.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(verbatim_doc_comment)]
pub struct NamesrvArgs {
    /// A Java properties file with NameServer settings (applied before the other flags).
    #[arg(
        short = 'c',
        long = "config-file",
        alias = "configFile",
        value_name = "FILE"
    )]
    pub config_file: Option<PathBuf>,
    /// Print every config item in force, then exit.
    #[arg(short = 'p', long = "print-config-item", alias = "printConfigItem")]
    pub print_config: bool,
    /// Address to listen on [default: 127.0.0.1:9876].
    #[arg(long, value_name = "HOST:PORT")]
    pub listen: Option<SocketAddr>,
    /// Which RocketMQ NameServer to behave like: 4.x (4.9.8), 5.x (5.3.3) or 5.4 (5.x's rules,
    /// JSON read and written as fastjson2 does) [default: 5.x].
    #[arg(long, value_name = "4.x|5.x|5.4")]
    pub profile: Option<ServerProfile>,
    /// rocketmqHome; the KV store defaults to HOME/namesrv/kvConfig.json.
    #[arg(long, env = "ROCKETMQ_HOME", value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Where the KV config is persisted (kvConfigPath).
    #[arg(long, value_name = "FILE")]
    pub kv_config_path: Option<PathBuf>,
    /// Close a connection that neither sent a complete request nor was written a response for this
    /// long (serverChannelMaxIdleTimeSeconds) [default: 120].
    #[arg(long, value_name = "SECS")]
    pub idle_secs: Option<u64>,
    /// Connections open at once; one more is accepted and closed at once [default: 10000].
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Memory every broker connection's last registration may keep, read, together: a broker
    /// re-registering with what it sent last costs a fraction of reading it again, and one with
    /// 10,000 topics keeps about 5 MB. Beyond it, bodies are read in full. 0 keeps none
    /// [default: 256].
    #[arg(long, value_name = "MB")]
    pub register_cache_mb: Option<usize>,
    /// Also serve the live dashboard, its WebSocket and /metrics, on this address or, with no
    /// value, on 127.0.0.1:7878 (this machine only; 0.0.0.0:7878 lets others in, then consider
    /// --token).
    #[arg(long, value_name = "HOST:PORT", num_args = 0..=1, default_missing_value = "127.0.0.1:7878")]
    pub ws: Option<SocketAddr>,
    /// The HTTP side of --ws, as `routelab bridge` has it.
    #[command(flatten)]
    pub http: crate::host::web::args::HttpArgs,
    /// With --ws, the changes the live view shows are recorded, as `routelab bridge` records them.
    #[command(flatten)]
    pub history: crate::host::history::HistoryArgs,
}
