//! Flags → [`BridgeConfig`]: the `routelab bridge` command line (clap) and its validation.

use std::net::SocketAddr;
use std::time::Duration;

use crate::host::web::Assets;

/// Serve the live routing of one or more NameServers to RouteLab dashboards.
///
/// Polls each NameServer (cluster info, topic list, then topic routes) and serves the built
/// dashboard at / with a WebSocket at /ws that pushes a snapshot, then updates. Only read requests
/// are ever sent to a NameServer. Prometheus metrics are at /metrics.
///
/// Examples:
///   routelab bridge --namesrv 127.0.0.1:9876
///   routelab bridge --namesrv '10.0.0.1:9876;10.0.0.2:9876' --interval 5s
///   routelab bridge --namesrv 127.0.0.1:9876 --listen 0.0.0.0:7878 --token s3cret
///   routelab bridge --namesrv 127.0.0.1:9876 --history /var/lib/routelab/history.sqlite3 --retain 30d
///
/// Every change seen is recorded (see --history); `routelab history --since 1h` prints them.
/// Alerts (a group without its master, a broker gone, a topic with no writable queue, NameServers
/// disagreeing, a NameServer unreachable, a flapping broker) show on the page, in /metrics as
/// routelab_alert_active{rule,subject} and, with --webhook, are posted as JSON.
/// On a cluster with ACL on, give --access-key and --secret-key (better: ROUTELAB_ACCESS_KEY and
/// ROUTELAB_SECRET_KEY in the environment, which `ps` does not show): every request is signed as
/// RocketMQ's AclClientRPCHook signs it; the keys are never logged, sent to the page or recorded.
/// Logs go to standard error; set RUST_LOG (e.g. RUST_LOG=debug) for more or less detail.
/// The message format is documented in docs/live-protocol.md.
#[derive(Clone, Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct BridgeArgs {
    /// NameServer addresses, host:port, separated by ';' (as RocketMQ's namesrvAddr); the flag may
    /// also be repeated. Example: --namesrv '10.0.0.1:9876;10.0.0.2:9876'
    #[arg(long = "namesrv", value_name = "ADDR[;ADDR…]", required = true)]
    pub namesrv: Vec<String>,
    /// Address to serve the dashboard, /ws and /metrics on. The default only accepts connections
    /// from this machine; 0.0.0.0:7878 lets others in (then consider --token).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,
    /// Time between the starts of two polls of one NameServer (e.g. 500ms, 2s, 1m). A poll that
    /// takes longer delays the next one instead of overlapping it.
    #[arg(long, value_name = "DURATION", default_value = "2s", value_parser = parse_interval)]
    pub interval: Duration,
    #[command(flatten)]
    pub http: crate::host::web::args::HttpArgs,
    /// At most this many topic routes are fetched per poll; the rest wait for later polls
    /// (new topics first, then the oldest), so a cluster with thousands of topics never stalls.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub routes_per_poll: usize,
    /// Route requests in flight at once per NameServer.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub route_concurrency: usize,
    #[command(flatten)]
    pub history: crate::host::history::HistoryArgs,
    /// A broker missing this long raises the broker_gone alert (longer than a restart takes).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = humantime::parse_duration)]
    pub gone_grace: Duration,
    /// POST each alert firing and resolving to this http:// URL as JSON (retried with backoff;
    /// never delays a poll). Alerts are also on the page, in /metrics (routelab_alert_active) and
    /// in the history.
    #[arg(long, value_name = "URL")]
    pub webhook: Option<String>,
    /// Time between two polls of the brokers for consumer groups and backlog (read-only:
    /// GET_BROKER_RUNTIME_INFO, GET_CONSUME_STATS, GET_CONSUMER_CONNECTION_LIST to each broker
    /// group's master, or a slave when it has none). Shown on the live page (Consumer groups) and
    /// in /metrics as routelab_backlog, routelab_consumers_online and the brokers' speeds.
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = parse_interval)]
    pub broker_interval: Duration,
    /// Ask only the NameServers, never a broker.
    #[arg(long)]
    pub no_brokers: bool,
    /// A consumer group's backlog growing this long while members are online, or waiting this
    /// long with no member online, raises backlog_growing / backlog_unread. A group whose backlog
    /// stays put (no traffic) never does.
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = humantime::parse_duration)]
    pub backlog_grace: Duration,
    /// How often each (group, topic, broker) with messages unread is asked how long its first
    /// unread message has waited (QUERY_CONSUME_TIME_SPAN, after a broker poll; at most 128 a
    /// round). Shown beside the backlog ("1,240 behind · oldest 3 min 12 s") and in /metrics as
    /// routelab_backlog_age_seconds. A group read to the end is never asked.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_interval)]
    pub lag_interval: Duration,
    /// Never ask how long messages waited (only the backlog in messages).
    #[arg(long)]
    pub no_lag: bool,
    /// A group whose oldest unread message has waited this long, with members online, raises
    /// backlog_too_old.
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = humantime::parse_duration)]
    pub backlog_age: Duration,
    #[command(flatten)]
    pub acl: crate::host::acl_args::AclArgs,
}

/// Everything the bridge needs, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BridgeConfig {
    /// NameServer addresses, in the order given, without duplicates.
    pub namesrvs: Vec<String>,
    pub listen: SocketAddr,
    pub interval: Duration,
    /// The dashboard's files.
    pub dist: Assets,
    /// Extra origins allowed on /ws, normalized by [`crate::host::web::access::normalize_origin`].
    pub allow_origins: Vec<String>,
    pub token: Option<String>,
    pub routes_per_poll: usize,
    pub route_concurrency: usize,
    /// Messages a viewer may have waiting; a viewer that falls this far behind is dropped.
    pub viewer_queue: usize,
    /// Viewers connected at once (`--max-viewers`).
    pub max_viewers: usize,
    /// Where changes are recorded (`--history`); off unless asked for.
    pub history: crate::host::history::HistoryConfig,
    /// `--gone-grace`.
    pub gone_grace: Duration,
    /// `--webhook`.
    pub webhook: Option<super::webhook::Webhook>,
    /// `--broker-interval`; `None` with `--no-brokers`.
    pub broker_interval: Option<Duration>,
    /// `--backlog-grace`.
    pub backlog_grace: Duration,
    /// `--lag-interval`; `None` with `--no-lag`.
    pub lag_interval: Option<Duration>,
    /// `--backlog-age`.
    pub backlog_age: Duration,
    /// `--access-key` / `--secret-key` (its `Debug` hides the secret).
    pub credentials: Option<crate::remoting::acl::Credentials>,
}

impl BridgeConfig {
    /// A configuration with the defaults of the command line, polling `namesrvs`.
    pub fn new(namesrvs: Vec<String>) -> Self {
        Self {
            namesrvs,
            listen: SocketAddr::from(([127, 0, 0, 1], 7878)),
            interval: Duration::from_secs(2),
            dist: Assets::choose(None),
            allow_origins: Vec::new(),
            token: None,
            routes_per_poll: 256,
            route_concurrency: 8,
            viewer_queue: crate::host::live::DEFAULT_VIEWER_QUEUE,
            max_viewers: crate::host::web::args::DEFAULT_MAX_VIEWERS,
            history: crate::host::history::HistoryConfig::default(),
            gone_grace: Duration::from_secs(60),
            webhook: None,
            broker_interval: Some(Duration::from_secs(10)),
            backlog_grace: Duration::from_secs(300),
            lag_interval: Some(Duration::from_secs(30)),
            backlog_age: Duration::from_secs(300),
            credentials: None,
        }
    }
}

/// The shortest interval accepted: below it a bridge would mostly measure itself.
const MIN_INTERVAL: Duration = Duration::from_millis(100);

impl TryFrom<BridgeArgs> for BridgeConfig {
    type Error = String;

    fn try_from(args: BridgeArgs) -> Result<Self, String> {
        let namesrvs = split_namesrvs(&args.namesrv)?;
        let access = crate::host::web::args::HttpAccess::try_from(&args.http)?;
        if args.routes_per_poll == 0 || args.route_concurrency == 0 {
            return Err("--routes-per-poll and --route-concurrency must be at least 1".into());
        }
        Ok(Self {
            namesrvs,
            listen: args.listen,
            interval: args.interval,
            dist: access.dist,
            allow_origins: access.allow_origins,
            token: access.token,
            routes_per_poll: args.routes_per_poll,
            route_concurrency: args.route_concurrency,
            viewer_queue: crate::host::live::DEFAULT_VIEWER_QUEUE,
            max_viewers: access.max_viewers,
            history: crate::host::history::HistoryConfig::try_from(&args.history)?,
            gone_grace: args.gone_grace,
            webhook: args
                .webhook
                .as_deref()
                .map(super::webhook::Webhook::parse)
                .transpose()?,
            broker_interval: (!args.no_brokers).then_some(args.broker_interval),
            backlog_grace: args.backlog_grace,
            lag_interval: (!args.no_lag).then_some(args.lag_interval),
            backlog_age: args.backlog_age,
            credentials: args.acl.credentials()?,
        })
    }
}

/// `--namesrv` values → addresses: split on ';', trimmed, empty parts and repeats dropped.
pub fn split_namesrvs(values: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for part in values.iter().flat_map(|v| v.split(';')) {
        let addr = part.trim();
        if addr.is_empty() || out.iter().any(|a| a == addr) {
            continue;
        }
        let port_ok = addr
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !port_ok {
            return Err(format!(
                "--namesrv {addr:?}: expected host:port, e.g. 127.0.0.1:9876"
            ));
        }
        out.push(addr.to_owned());
    }
    if out.is_empty() {
        return Err("--namesrv: give at least one NameServer address, e.g. 127.0.0.1:9876".into());
    }
    Ok(out)
}

/// `--interval`: a humantime duration (`2s`, `500ms`, `1m`) of at least 100 ms.
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(text.trim())
        .map_err(|e| format!("{e} (expected e.g. 2s, 500ms or 1m)"))?;
    if d < MIN_INTERVAL {
        return Err(format!("{text} is too short: at least 100ms"));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn namesrvs_split_on_semicolons_and_repeats() {
        let got = split_namesrvs(&strings(&["a:1; b:2;", "a:1", "c:3"])).unwrap();
        assert_eq!(got, strings(&["a:1", "b:2", "c:3"]));
    }

    #[test]
    fn namesrvs_need_a_port() {
        assert!(split_namesrvs(&strings(&["localhost"])).is_err());
        assert!(split_namesrvs(&strings(&[":9876"])).is_err());
        assert!(split_namesrvs(&strings(&["h:99999"])).is_err());
        assert!(split_namesrvs(&strings(&[" ; "])).is_err());
        assert!(split_namesrvs(&strings(&["[::1]:9876"])).is_ok());
    }

    #[test]
    fn intervals() {
        assert_eq!(parse_interval("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_interval("500ms"), Ok(Duration::from_millis(500)));
        assert!(parse_interval("10ms").is_err());
        assert!(parse_interval("soon").is_err());
    }

    #[test]
    fn args_are_validated() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: BridgeArgs,
        }
        let parse = |v: &[&str]| {
            let cli = Cli::try_parse_from(std::iter::once("bridge").chain(v.iter().copied()))
                .map_err(|e| e.to_string())?;
            BridgeConfig::try_from(cli.args)
        };
        let c = parse(&[
            "--namesrv",
            "127.0.0.1:9876",
            "--allow-origin",
            "HTTP://LocalHost:8080/",
        ])
        .unwrap();
        assert_eq!(c.allow_origins, strings(&["http://localhost:8080"]));
        assert_eq!(c.listen, SocketAddr::from(([127, 0, 0, 1], 7878)));
        assert_eq!(c.interval, Duration::from_secs(2));
        assert_eq!(c.max_viewers, 256);
        let c = parse(&["--namesrv", "a:1", "--max-viewers", "7"]).unwrap();
        assert_eq!(c.max_viewers, 7);
        assert!(parse(&["--namesrv", "a:1", "--max-viewers", "0"]).is_err());
        assert!(parse(&["--namesrv", "a:1", "--token", "has space"]).is_err());
        assert!(parse(&["--namesrv", "a:1", "--allow-origin", "*"]).is_err());
        assert!(parse(&["--namesrv", "a:1", "--listen", "localhost:1"]).is_err());
        assert!(parse(&["--namesrv", "a:1", "--routes-per-poll", "0"]).is_err());
        let c = parse(&[
            "--namesrv",
            "a:1",
            "--access-key",
            "ak",
            "--secret-key",
            "s3cret",
        ])
        .unwrap();
        assert_eq!(c.credentials.as_ref().map(|c| c.access_key()), Some("ak"));
        assert!(
            !format!("{c:?}").contains("s3cret"),
            "the secret stays out of Debug"
        );
        assert!(parse(&["--namesrv", "a:1", "--access-key", "ak"]).is_err());
        assert_eq!(c.lag_interval, Some(Duration::from_secs(30)));
        let c = parse(&["--namesrv", "a:1", "--no-lag"]).unwrap();
        assert_eq!(c.lag_interval, None);
        assert!(parse(&[]).is_err());
    }
}
