//! `routelab namesrv`'s flags and configuration, in the manner of `mqnamesrv` (spec §8): defaults, then
//! a Java properties file (`-c`), then flags; `-p` prints the effective items.
//!
//! [`Settings`] is what a running server may change (UPDATE_NAMESRV_CONFIG, code 318) and what
//! GET_NAMESRV_CONFIG (319) prints; [`ServerConfig`] adds what is fixed at start (address, profile).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::args::NamesrvArgs;
pub use super::args::ServerProfile;
use crate::host::web::args::HttpAccess;
use crate::model::lenient::Dialect;
use crate::namesrv::{NamesrvConfig, Profile};

/// Enough for a large cluster's brokers and clients, each holding one connection, while keeping a
/// flood of connections from exhausting file descriptors and memory.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// `--register-cache-mb`'s default: about fifty brokers of 10,000 topics, or every broker of a
/// usual cluster.
pub const DEFAULT_REGISTER_CACHE_MB: usize = 256;

/// Keys UPDATE_NAMESRV_CONFIG always refuses (Java adds `rocketmqHome` to `configBlackList`).
const ALWAYS_BLACK_LISTED: &str = "rocketmqHome";

/// The settings a running server reads per request and UPDATE_NAMESRV_CONFIG may change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The route manager's switches.
    pub namesrv: NamesrvConfig,
    /// rocketmqHome.
    pub rocketmq_home: PathBuf,
    /// kvConfigPath.
    pub kv_config_path: PathBuf,
    /// configStorePath: where UPDATE_NAMESRV_CONFIG writes every item (the `-c` file when given).
    pub config_store_path: PathBuf,
    /// productEnvName (reported only).
    pub product_env_name: String,
    /// clusterTest (reported only: RouteLab has no cluster-test processor).
    pub cluster_test: bool,
    /// 5.x: send the ORDER_TOPIC_CONFIG namespace back to registering brokers.
    pub return_order_topic_config_to_broker: bool,
    /// 5.x scan period (4.x hard-codes 10 s).
    pub scan_not_active_broker_interval_ms: u64,
    /// `;`-separated keys UPDATE_NAMESRV_CONFIG refuses.
    pub config_black_list: String,
    /// Items of the `-c` file that RouteLab has no use for. Java's `Configuration` keeps every item
    /// it started with: GET_NAMESRV_CONFIG shows them, UPDATE_NAMESRV_CONFIG may change them and
    /// they are written back to configStorePath, so a file shared with Java loses nothing.
    pub extra: BTreeMap<String, String>,
}

/// Everything the server needs to start.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where to listen.
    pub listen: SocketAddr,
    /// 4.x or 5.x rules.
    pub profile: Profile,
    /// The JSON library Java's NameServer reads and writes with: fastjson 1 (4.9.8, 5.3.3) or
    /// fastjson2 (5.4).
    pub json: Dialect,
    /// serverChannelMaxIdleTimeSeconds.
    pub idle_timeout: Duration,
    /// The largest frame accepted, length prefix included.
    pub max_frame_len: usize,
    /// How long writing one response may take before the connection is dropped as too slow.
    pub write_timeout: Duration,
    /// Connections open at once (RouteLab's bound; Java has none): beyond it, closed on accept.
    pub max_connections: usize,
    /// What the connections' kept register bodies may take together (`--register-cache-mb`).
    pub register_cache_bytes: usize,
    /// `--ws`: the dashboard, WebSocket and /metrics address.
    pub ws: Option<SocketAddr>,
    /// `--dist`, `--allow-origin`, `--token` for `--ws`.
    pub ws_access: HttpAccess,
    /// `--history` for `--ws` (off unless asked for, or `--ws` given on the command line).
    pub ws_history: crate::host::history::HistoryConfig,
    /// Where viewers' commands go (`routelab demo`); `None`: they are refused.
    pub ws_commands: Option<crate::host::live::CommandSink>,
    /// The changeable part.
    pub settings: Settings,
}

impl Default for ServerConfig {
    fn default() -> Self {
        let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
        Self::with_home(home)
    }
}

impl ServerConfig {
    /// RocketMQ's defaults with `home` as rocketmqHome and the KV file under it.
    pub fn with_home(home: PathBuf) -> Self {
        let dir = home.join("namesrv");
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 9876)),
            profile: Profile::V5,
            json: Dialect::Fastjson1,
            idle_timeout: Duration::from_secs(120),
            max_frame_len: crate::remoting::DEFAULT_MAX_FRAME_LEN,
            write_timeout: Duration::from_secs(10),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            register_cache_bytes: DEFAULT_REGISTER_CACHE_MB << 20,
            ws: None,
            ws_access: HttpAccess::default(),
            ws_history: crate::host::history::HistoryConfig::default(),
            ws_commands: None,
            settings: Settings {
                namesrv: NamesrvConfig::default(),
                kv_config_path: dir.join("kvConfig.json"),
                config_store_path: dir.join("namesrv.properties"),
                rocketmq_home: home,
                product_env_name: "center".into(),
                cluster_test: false,
                return_order_topic_config_to_broker: true,
                scan_not_active_broker_interval_ms: 5_000,
                config_black_list: "configBlackList;configStorePath;kvConfigPath".into(),
                extra: BTreeMap::new(),
            },
        }
    }

    /// Defaults, then the `-c` file, then flags (the order mqnamesrv applies them).
    pub fn from_args(args: &NamesrvArgs) -> Result<Self, String> {
        let mut config = match &args.home {
            Some(home) => Self::with_home(home.clone()),
            None => Self::default(),
        };
        if let Some(file) = &args.config_file {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            for (key, value) in crate::remoting::properties::parse(&text) {
                let known = config
                    .set(&key, &value)
                    .map_err(|e| format!("{}: {key}: {e}", file.display()))?;
                if !known {
                    config.settings.extra.insert(key, value);
                }
            }
            config.settings.config_store_path = file.clone();
        }
        if let Some(listen) = args.listen {
            config.listen = listen;
        }
        if let Some(profile) = args.profile {
            config.profile = profile.rules;
            config.json = profile.json;
        }
        if let Some(path) = &args.kv_config_path {
            config.settings.kv_config_path = path.clone();
        }
        if let Some(secs) = args.idle_secs {
            config.idle_timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(n) = args.max_connections {
            if n == 0 {
                return Err("--max-connections must be at least 1".into());
            }
            config.max_connections = n;
        }
        if let Some(mb) = args.register_cache_mb {
            config.register_cache_bytes = mb.saturating_mul(1 << 20);
        }
        if args.ws.is_some() {
            config.ws = args.ws;
        }
        // Access rules for a page nobody serves would be a silent mistake.
        if config.ws.is_none() && args.http.restricts() {
            return Err("--allow-origin and --token apply to --ws: add --ws".into());
        }
        config.ws_access = HttpAccess::try_from(&args.http)?;
        if config.ws.is_some() {
            config.ws_history = crate::host::history::HistoryConfig::try_from(&args.history)?;
        } else if args.history.history.is_some() {
            return Err("--history records what --ws shows: add --ws".into());
        }
        Ok(config)
    }

    /// The scan schedule in force: (first delay, period). 4.x: 5 s, then every 10 s. 5.x: every
    /// `scanNotActiveBrokerInterval`, the first after one interval (5 s by default, as on HEAD).
    pub fn scan_schedule(&self) -> (Duration, Duration) {
        let (first, period) = self.profile.scan_schedule_ms();
        if self.profile.is_v5() {
            let every =
                Duration::from_millis(self.settings.scan_not_active_broker_interval_ms.max(1));
            (every, every)
        } else {
            (Duration::from_millis(first), Duration::from_millis(period))
        }
    }

    /// Sets one item by its Java name. `Ok(false)` for a name RouteLab does not know (ignored, as
    /// Java's `Configuration.update` ignores it).
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "listenPort" => self.listen.set_port(parse(value)?),
            "bindAddress" => {
                let ip = value
                    .trim()
                    .parse()
                    .map_err(|_| bad(value, "an IP address"))?;
                self.listen.set_ip(ip);
            }
            "serverChannelMaxIdleTimeSeconds" => {
                self.idle_timeout = Duration::from_secs(parse::<u64>(value)?.max(1));
            }
            _ => return self.settings.set(key, value),
        }
        Ok(true)
    }

    /// What GET_NAMESRV_CONFIG answers and configStorePath receives: every item RouteLab knows,
    /// and the items of the `-c` file it does not (Java's `allConfigs`).
    pub fn all_items(&self) -> BTreeMap<String, String> {
        let mut out = self.settings.extra.clone();
        out.extend(self.properties());
        out
    }

    /// Every item RouteLab knows, with its value, by Java name (what `-p` prints, as `mqnamesrv -p`
    /// prints only its config objects).
    pub fn properties(&self) -> BTreeMap<String, String> {
        let mut out = self.settings.properties();
        out.insert("listenPort".into(), self.listen.port().to_string());
        out.insert("bindAddress".into(), self.listen.ip().to_string());
        out.insert(
            "serverChannelMaxIdleTimeSeconds".into(),
            self.idle_timeout.as_secs().to_string(),
        );
        out
    }
}

impl Settings {
    /// Sets one item by its Java name; `Ok(false)` when the name is unknown.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let ns = &mut self.namesrv;
        match key {
            "rocketmqHome" => self.rocketmq_home = PathBuf::from(value.trim()),
            "kvConfigPath" => self.kv_config_path = PathBuf::from(value.trim()),
            "configStorePath" => self.config_store_path = PathBuf::from(value.trim()),
            "productEnvName" => value.trim().clone_into(&mut self.product_env_name),
            "clusterTest" => self.cluster_test = java_bool(value),
            "orderMessageEnable" => ns.order_message_enable = java_bool(value),
            "returnOrderTopicConfigToBroker" => {
                self.return_order_topic_config_to_broker = java_bool(value);
            }
            "scanNotActiveBrokerInterval" => {
                self.scan_not_active_broker_interval_ms = parse(value)?;
            }
            "unRegisterBrokerQueueCapacity" => ns.unregister_broker_queue_capacity = parse(value)?,
            "supportActingMaster" => ns.support_acting_master = java_bool(value),
            "enableAllTopicList" => ns.enable_all_topic_list = java_bool(value),
            "enableTopicList" => ns.enable_topic_list = java_bool(value),
            "deleteTopicWithBrokerRegistration" => {
                ns.delete_topic_with_broker_registration = java_bool(value);
            }
            "configBlackList" => value.trim().clone_into(&mut self.config_black_list),
            // Java's `mergeIfExist`: an item nobody uses may change only if the file had it.
            _ => match self.extra.get_mut(key) {
                Some(kept) => value.clone_into(kept),
                None => return Ok(false),
            },
        }
        Ok(true)
    }

    /// The keys UPDATE_NAMESRV_CONFIG refuses.
    pub fn black_list(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = self
            .config_black_list
            .split(';')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .collect();
        keys.extend(["configBlackList", "configStorePath", "kvConfigPath"]);
        keys.push(ALWAYS_BLACK_LISTED);
        keys
    }

    /// The items of this part by Java name.
    pub fn properties(&self) -> BTreeMap<String, String> {
        let ns = &self.namesrv;
        let path = |p: &PathBuf| p.display().to_string();
        [
            ("rocketmqHome", path(&self.rocketmq_home)),
            ("kvConfigPath", path(&self.kv_config_path)),
            ("configStorePath", path(&self.config_store_path)),
            ("productEnvName", self.product_env_name.clone()),
            ("clusterTest", self.cluster_test.to_string()),
            ("orderMessageEnable", ns.order_message_enable.to_string()),
            (
                "returnOrderTopicConfigToBroker",
                self.return_order_topic_config_to_broker.to_string(),
            ),
            (
                "scanNotActiveBrokerInterval",
                self.scan_not_active_broker_interval_ms.to_string(),
            ),
            (
                "unRegisterBrokerQueueCapacity",
                ns.unregister_broker_queue_capacity.to_string(),
            ),
            ("supportActingMaster", ns.support_acting_master.to_string()),
            ("enableAllTopicList", ns.enable_all_topic_list.to_string()),
            ("enableTopicList", ns.enable_topic_list.to_string()),
            (
                "deleteTopicWithBrokerRegistration",
                ns.delete_topic_with_broker_registration.to_string(),
            ),
            ("configBlackList", self.config_black_list.clone()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }
}

/// Java `Boolean.parseBoolean`.
fn java_bool(value: &str) -> bool {
    value.trim().eq_ignore_ascii_case("true")
}

fn parse<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    value.trim().parse().map_err(|_| bad(value, "a number"))
}

fn bad(value: &str, expected: &str) -> String {
    format!("{value:?} is not {expected}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4.x body in Java 8's order: what a JDK's Hashtables gave for the same merge (4.9.8's
    /// NamesrvConfig fields, then NettyServerConfig's, each through a fresh Properties), for the
    /// 4.9.8 defaults; 5.x sorts.
    #[test]
    fn file_then_flags() {
        let dir = std::env::temp_dir().join(format!("routelab-nscfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ns.properties");
        std::fs::write(
            &file,
            "listenPort=9999\norderMessageEnable=true\nnoSuchKey=1\nserverChannelMaxIdleTimeSeconds=30\n",
        )
        .unwrap();
        let args = NamesrvArgs {
            config_file: Some(file.clone()),
            home: Some(dir.clone()),
            listen: Some("127.0.0.1:7000".parse().unwrap()),
            ..NamesrvArgs::default()
        };
        let c = ServerConfig::from_args(&args).unwrap();
        assert_eq!(c.listen.port(), 7000, "flags win over the file");
        assert!(c.settings.namesrv.order_message_enable);
        assert_eq!(c.idle_timeout, Duration::from_secs(30));
        assert_eq!(c.settings.config_store_path, file);
        assert_eq!(c.settings.kv_config_path, dir.join("namesrv/kvConfig.json"));
        let props = c.properties();
        assert_eq!(props["listenPort"], "7000");
        assert_eq!(props["orderMessageEnable"], "true");
        assert!(
            !props.contains_key("noSuchKey"),
            "-p prints known items only"
        );
        let mut c = c;
        assert_eq!(
            c.all_items()["noSuchKey"],
            "1",
            "kept as Java's allConfigs keeps it"
        );
        assert_eq!(c.set("noSuchKey", "2"), Ok(true), "a kept item may change");
        assert_eq!(
            c.set("neverSeen", "2"),
            Ok(false),
            "mergeIfExist: others are ignored"
        );
        assert_eq!(c.all_items()["noSuchKey"], "2");
        assert!(!c.all_items().contains_key("neverSeen"));
        std::fs::write(&file, "listenPort=abc\n").unwrap();
        let err = ServerConfig::from_args(&args).unwrap_err();
        assert!(err.contains("listenPort"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ws_flags_are_the_bridges() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: NamesrvArgs,
        }
        let parse = |v: &[&str]| {
            let cli = Cli::try_parse_from(std::iter::once("namesrv").chain(v.iter().copied()))
                .map_err(|e| e.to_string())?;
            ServerConfig::from_args(&cli.args)
        };
        let c = parse(&["--home", "/x", "--ws"]).unwrap();
        assert_eq!(c.ws, Some(SocketAddr::from(([127, 0, 0, 1], 7878))));
        assert_eq!(c.ws_access, HttpAccess::default());
        let c = parse(&[
            "--home",
            "/x",
            "--ws",
            "127.0.0.1:0",
            "--allow-origin",
            "http://localhost:8080/",
            "--allow-origin",
            "http://lab.example",
            "--token",
            "s3cret",
            "--dist",
            "web",
        ])
        .unwrap();
        assert_eq!(
            c.ws_access.allow_origins,
            vec!["http://localhost:8080", "http://lab.example"]
        );
        assert_eq!(c.ws_access.token.as_deref(), Some("s3cret"));
        assert_eq!(c.ws_access.dist, PathBuf::from("web").into());
        assert!(parse(&["--home", "/x", "--token", "s3cret"]).is_err());
        assert!(parse(&["--home", "/x", "--ws", "--allow-origin", "*"]).is_err());
        assert!(parse(&["--home", "/x", "--ws", "--token", "a b"]).is_err());
        // --ws records its changes as the bridge does: by default in the user's data directory.
        let c = parse(&["--home", "/x", "--ws"]).unwrap();
        assert_eq!(c.ws_history.path, crate::host::history::default_path());
        let c = parse(&[
            "--home",
            "/x",
            "--ws",
            "--history",
            "h.db",
            "--retain",
            "2d",
        ])
        .unwrap();
        assert_eq!(c.ws_history.path, Some(PathBuf::from("h.db")));
        assert_eq!(c.ws_history.retain, Duration::from_secs(2 * 86_400));
        let c = parse(&["--home", "/x", "--ws", "--no-history"]).unwrap();
        assert_eq!(c.ws_history.path, None);
        let c = parse(&["--home", "/x"]).unwrap();
        assert_eq!(c.ws_history.path, None, "no --ws, nothing to record");
        let e = parse(&["--home", "/x", "--history", "h.db"]).unwrap_err();
        assert!(e.contains("add --ws"), "{e}");
        let e = parse(&["--home", "/x", "--ws", "--retain", "10s"]).unwrap_err();
        assert!(e.contains("--retain must be at least 1m"), "{e}");
        // The limits: defaults, then flags.
        let c = parse(&["--home", "/x", "--ws"]).unwrap();
        assert_eq!(c.max_connections, 10_000);
        assert_eq!(c.ws_access.max_viewers, 256);
        let c = parse(&[
            "--home",
            "/x",
            "--ws",
            "--max-viewers",
            "3",
            "--max-connections",
            "5",
        ])
        .unwrap();
        assert_eq!((c.max_connections, c.ws_access.max_viewers), (5, 3));
        assert!(parse(&["--home", "/x", "--max-connections", "0"]).is_err());
        assert!(parse(&["--home", "/x", "--ws", "--max-viewers", "0"]).is_err());
    }

    #[test]
    fn black_list_always_has_home() {
        let s = ServerConfig::with_home(PathBuf::from("/x")).settings;
        let keys = s.black_list();
        for k in [
            "rocketmqHome",
            "kvConfigPath",
            "configStorePath",
            "configBlackList",
        ] {
            assert!(keys.contains(&k), "{k}");
        }
    }

    #[test]
    fn scan_period_by_profile() {
        let mut c = ServerConfig::with_home(PathBuf::from("/x"));
        assert_eq!(c.scan_schedule().1, Duration::from_secs(5));
        c.profile = Profile::V4;
        assert_eq!(c.scan_schedule().1, Duration::from_secs(10));
    }
}
