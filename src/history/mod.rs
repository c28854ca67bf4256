//! `routelab history`: the change log a bridge (or `routelab namesrv --ws`) recorded in its
//! history ([`crate::host::history`]), newest last, in the feed's plain words or as JSON lines.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};

use crate::host::history::{default_path, Query, Store};
use crate::live::history::Record;

/// Print what a bridge recorded: brokers appearing and leaving, topics and routes changing, perm,
/// NameServers failing and recovering or disagreeing, consumer group members joining and leaving,
/// alerts. Oldest first, newest last. Times are UTC.
///
/// Examples:
///   routelab history --since 2h
///   routelab history --since 2026-12-03T03:00:00Z --until 2026-12-03T04:00:00Z --broker broker-a
///   routelab history --topic TopicTest --format json
///   routelab history --group GID_orders
#[derive(Clone, Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct HistoryCliArgs {
    /// The history to read (a bridge's --history). Default: the one a bridge writes by default.
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// From this long ago (2h, 30m, 7d) or this time (2026-12-03T03:12:00Z).
    #[arg(long, value_name = "WHEN", default_value = "24h")]
    pub since: String,
    /// Up to this long ago or this time. Default: now.
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Only changes about this broker (its brokerName or its address).
    #[arg(long, value_name = "BROKER")]
    pub broker: Option<String>,
    /// Only changes of this topic.
    #[arg(long, value_name = "TOPIC")]
    pub topic: Option<String>,
    /// Only changes seen on this NameServer (host:port, as the bridge was given it).
    #[arg(long, value_name = "ADDR")]
    pub namesrv: Option<String>,
    /// Only changes of this consumer group (members joining and leaving, its backlog alerts).
    #[arg(long, value_name = "GROUP")]
    pub group: Option<String>,
    /// text: one line per change; json: one JSON object per line (JSON Lines).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Runs the command. Exit code 2 for bad flags, 1 when the history cannot be read.
pub fn main(args: HistoryCliArgs) -> ExitCode {
    let now = crate::host::clock::now_ms();
    let query = match query(&args, now) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(path) = args.db.clone().or_else(default_path) else {
        eprintln!("error: no data directory to find the history in (HOME unset?): pass --db PATH");
        return ExitCode::from(2);
    };
    let result = Store::open_for_reading(&path).and_then(|s| s.query(&query));
    let (records, unreadable) = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    for r in &records {
        let line = match args.format {
            Format::Text => text_line(r),
            Format::Json => serde_json::to_string(r).unwrap_or_default(),
        };
        // A closed pipe (`| head`) ends the listing quietly.
        if writeln!(out, "{line}").is_err() {
            return ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
    if records.is_empty() {
        eprintln!(
            "no changes recorded from {} to {} in {}",
            utc(query.since_ms),
            utc(query.until_ms),
            path.display()
        );
    }
    if unreadable > 0 {
        eprintln!(
            "warning: {unreadable} record(s) in {} could not be read and were skipped",
            path.display()
        );
    }
    ExitCode::SUCCESS
}

/// The flags → a query at `now_ms`.
pub fn query(args: &HistoryCliArgs, now_ms: u64) -> Result<Query, String> {
    let since_ms = when(&args.since, now_ms).map_err(|e| format!("--since {e}"))?;
    let until_ms = match &args.until {
        Some(u) => when(u, now_ms).map_err(|e| format!("--until {e}"))?,
        None => now_ms,
    };
    if since_ms > until_ms {
        return Err(format!(
            "--since ({}) is after --until ({})",
            utc(since_ms),
            utc(until_ms)
        ));
    }
    Ok(Query {
        since_ms,
        until_ms,
        namesrv: args.namesrv.clone(),
        topic: args.topic.clone(),
        broker: args.broker.clone(),
        group: args.group.clone(),
    })
}

/// `2h` (that long before `now_ms`) or `2026-12-03T03:12:00Z` / `2026-12-03 03:12:00` (UTC).
fn when(text: &str, now_ms: u64) -> Result<u64, String> {
    if let Ok(ago) = humantime::parse_duration(text) {
        return Ok(now_ms.saturating_sub(u64::try_from(ago.as_millis()).unwrap_or(u64::MAX)));
    }
    humantime::parse_rfc3339_weak(text)
        .map(|t| {
            t.duration_since(UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        })
        .map_err(|_| {
            format!("{text:?}: expected a duration ago (2h, 30m, 7d) or a UTC time (2026-12-03T03:12:00Z)")
        })
}

/// `2026-12-03T03:12:40.123Z`.
pub fn utc(ms: u64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}

/// One change as a line: when, where, what, and the window it happened in.
pub fn text_line(r: &Record) -> String {
    let at = utc(r.at_ms);
    let window = r
        .since_ms
        .map(|s| format!("  (between {} and {})", &utc(s)[11..23], &at[11..23]))
        .unwrap_or_default();
    format!(
        "{at}  {:<21}  {}{window}",
        r.namesrv.as_deref().unwrap_or("all NameServers"),
        r.change.describe()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::history::Change;

    fn args(since: &str, until: Option<&str>) -> HistoryCliArgs {
        HistoryCliArgs {
            db: None,
            since: since.into(),
            until: until.map(Into::into),
            broker: None,
            group: None,
            topic: None,
            namesrv: None,
            format: Format::Text,
        }
    }

    #[test]
    fn since_and_until_take_durations_ago_or_utc_times() {
        let now = 1_764_730_000_000; // 2025-12-03T02:46:40Z
        let q = query(&args("2h", None), now).unwrap();
        assert_eq!((q.since_ms, q.until_ms), (now - 7_200_000, now));
        let q = query(
            &args("2025-12-03T01:00:00Z", Some("2025-12-03 02:00:00")),
            now,
        )
        .unwrap();
        assert_eq!(utc(q.since_ms), "2025-12-03T01:00:00.000Z");
        assert_eq!(utc(q.until_ms), "2025-12-03T02:00:00.000Z");
        let e = query(&args("yesterday", None), now).unwrap_err();
        assert!(
            e.starts_with("--since \"yesterday\": expected a duration ago"),
            "{e}"
        );
        let e = query(&args("1h", Some("2h")), now).unwrap_err();
        assert!(e.contains("is after --until"), "{e}");
    }

    #[test]
    fn a_line_says_when_where_what_and_between_which_polls() {
        let r = Record {
            at_ms: 1_764_730_000_123,
            since_ms: Some(1_764_729_998_100),
            namesrv: Some("127.0.0.1:9876".into()),
            change: Change::NamesrvRecovered,
        };
        assert_eq!(
            text_line(&r),
            "2025-12-03T02:46:40.123Z  127.0.0.1:9876         NameServer answering again  (between 02:46:38.100 and 02:46:40.123)"
        );
    }
}
