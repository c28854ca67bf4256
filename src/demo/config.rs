//! `routelab demo`'s flags ([`DemoArgs`]) → [`DemoConfig`].

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use super::broker::Schedule;
use crate::host::web::args::{HttpAccess, HttpArgs};
use crate::sim::{FIRST_REGISTER_REPEAT_MS, REGISTER_PERIOD_MS};

/// Live mode with no cluster of your own: our NameServer, five emulated brokers and the dashboard.
///
/// Starts RouteLab's NameServer on 127.0.0.1, brokers that register over real TCP as RocketMQ
/// brokers do (at start, after 10 s, then every 30 s, each on its own connection) in
/// DefaultCluster — broker-a and broker-b (a master and a slave each) and broker-c — with
/// TopicTest and a few topics, and the live dashboard. Then type commands to make a broker fail:
///
///   kill broker-a      its connection closes: the NameServer drops it at once
///   freeze broker-c    it stops registering, connection open: it leaves after 120 s (--expiry)
///   stop broker-b      graceful: UNREGISTER_BROKER, then close
///   restart broker-a   list   help   quit
///
/// Examples:
///   routelab demo                          # NameServer on 127.0.0.1:9876, page on 127.0.0.1:7878
///   routelab demo --expiry 30s             # frozen brokers leave after 30 s instead of 120 s
///   routelab demo --port 19876 --listen 127.0.0.1:17878
///
/// Real clients can use the NameServer too: `routelab admin clusterList -n 127.0.0.1:9876`.
/// The dashboard must be built first (`trunk build --release`, into dist/).
#[derive(Clone, Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct DemoArgs {
    /// The NameServer's port, on 127.0.0.1.
    #[arg(long, value_name = "PORT", default_value_t = 9876)]
    pub port: u16,
    /// Address to serve the dashboard, /ws and /metrics on. The default only accepts connections
    /// from this machine.
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,
    /// Brokers announce this heartbeat timeout (heartbeatTimeoutMillis) instead of leaving the
    /// NameServer's 120 s, and register often enough for it (a third of it, at most every 30 s),
    /// so a frozen broker leaves sooner. E.g. 30s. At least 1s.
    #[arg(long, value_name = "DURATION", value_parser = parse_expiry)]
    pub expiry: Option<Duration>,
    #[command(flatten)]
    pub http: HttpArgs,
}

/// Everything the demo needs, validated.
#[derive(Clone, Debug)]
pub struct DemoConfig {
    /// Where our NameServer listens.
    pub namesrv: SocketAddr,
    /// The dashboard's address.
    pub listen: SocketAddr,
    pub access: HttpAccess,
    pub schedule: Schedule,
    /// rocketmqHome of the in-process NameServer (its KV file lives under it).
    pub home: PathBuf,
}

impl DemoConfig {
    /// The defaults of the command line.
    pub fn new() -> Self {
        Self {
            namesrv: SocketAddr::from((Ipv4Addr::LOCALHOST, 9876)),
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 7878)),
            access: HttpAccess::default(),
            schedule: schedule(None),
            // Not the user's ROCKETMQ_HOME: the demo must not touch a real NameServer's KV file.
            home: std::env::temp_dir().join(format!("routelab-demo-{}", std::process::id())),
        }
    }
}

impl Default for DemoConfig {
    fn default() -> Self {
        Self::new()
    }
}

impl TryFrom<DemoArgs> for DemoConfig {
    type Error = String;

    fn try_from(args: DemoArgs) -> Result<Self, String> {
        Ok(Self {
            namesrv: SocketAddr::from((Ipv4Addr::LOCALHOST, args.port)),
            listen: args.listen,
            access: HttpAccess::try_from(&args.http)?,
            schedule: schedule(args.expiry),
            ..Self::new()
        })
    }
}

/// A broker's registrations with this announced timeout: the faithful 10 s / 30 s, quickened to a
/// third of a short timeout so a running broker never expires between two registrations.
pub fn schedule(expiry: Option<Duration>) -> Schedule {
    let first_repeat = Duration::from_millis(FIRST_REGISTER_REPEAT_MS);
    let period = Duration::from_millis(REGISTER_PERIOD_MS);
    let third = expiry.map_or(period, |e| e / 3);
    Schedule {
        first_repeat: first_repeat.min(third),
        period: period.min(third),
        expiry,
    }
}

/// `--expiry`: a humantime duration of at least 1 s.
pub fn parse_expiry(text: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(text.trim())
        .map_err(|e| format!("{e} (expected e.g. 30s or 2m)"))?;
    if d < Duration::from_secs(1) {
        return Err(format!("{text} is too short: at least 1s"));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faithful_by_default_quicker_with_a_short_expiry() {
        let s = schedule(None);
        assert_eq!(s.first_repeat, Duration::from_secs(10));
        assert_eq!(s.period, Duration::from_secs(30));
        assert_eq!(s.expiry, None);
        let s = schedule(Some(Duration::from_secs(30)));
        assert_eq!(s.period, Duration::from_secs(10));
        assert_eq!(s.first_repeat, Duration::from_secs(10));
        let s = schedule(Some(Duration::from_secs(6)));
        assert_eq!(
            (s.first_repeat, s.period),
            (Duration::from_secs(2), Duration::from_secs(2))
        );
        assert!(parse_expiry("500ms").is_err());
        assert!(parse_expiry("soon").is_err());
        assert_eq!(parse_expiry("2m"), Ok(Duration::from_secs(120)));
    }
}
