//! mqadmin 4.9.8's consumer commands (RocketMQ `tools`, `command/consumer` and
//! `command/topic/TopicStatusSubCommand`): `topicStatus -t T`, `consumerProgress -g G [-s true]`
//! from rows the caller gathered (the simulator's stores and offsets, or a real broker's answers),
//! `consumerProgress`'s group list, `consumerConnection -g G` and `brokerStatus -b ADDR` (the
//! backlog commands), each as its `printf`s.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::col;
use crate::consumer::{compare, MessageQueue};
use crate::model::broker_stats::{ConsumeStats, ConsumerConnection};
use crate::view::mq_version::desc as version_desc;

/// A queue of `topicStatus` (`TopicOffset`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicStatusRow {
    pub broker_name: String,
    pub queue_id: i32,
    pub min_offset: u64,
    pub max_offset: u64,
    /// When the last message was stored (epoch ms; 0 when the queue is empty).
    pub last_update_ms: u64,
}

/// A queue of `consumerProgress -g` (`OffsetWrapper`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressRow {
    pub topic: String,
    pub broker_name: String,
    pub queue_id: i32,
    pub broker_offset: u64,
    pub consumer_offset: u64,
    /// The reading member's client id (`-s true` prints what is before its `@`).
    pub client_id: Option<String>,
    /// When the last consumed message was stored (epoch ms; 0: none).
    pub last_timestamp_ms: u64,
}

/// `topicStatus -t topic`: the queues in `MessageQueue` order.
pub fn topic_status(topic: &str, rows: &[TopicStatusRow]) -> String {
    let mut rows: Vec<&TopicStatusRow> = rows.iter().collect();
    crate::sort::sort_by(&mut rows, |a, b| {
        compare(
            &MessageQueue::new(topic, &a.broker_name, a.queue_id),
            &MessageQueue::new(topic, &b.broker_name, b.queue_id),
        )
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<32}  {:<4}  {:<20}  {:<20}    #Last Updated",
        "#Broker Name", "#QID", "#Min Offset", "#Max Offset"
    );
    for r in rows {
        let when = if r.last_update_ms > 0 {
            human_millis(r.last_update_ms)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{}  {:<4}  {:<20}  {:<20}    {when}",
            col(&r.broker_name, 32),
            r.queue_id,
            r.min_offset,
            r.max_offset
        );
    }
    out
}

/// `consumerProgress -g group` (with `show_client_ip`: `-s true`), then `Consume TPS` and
/// `Diff Total`.
pub fn consumer_progress(rows: &[ProgressRow], consume_tps: f64, show_client_ip: bool) -> String {
    let mut rows: Vec<&ProgressRow> = rows.iter().collect();
    crate::sort::sort_by(&mut rows, |a, b| {
        compare(
            &MessageQueue::new(&a.topic, &a.broker_name, a.queue_id),
            &MessageQueue::new(&b.topic, &b.broker_name, b.queue_id),
        )
    });
    let mut out = String::new();
    if show_client_ip {
        let _ = writeln!(
            out,
            "{:<64}  {:<32}  {:<4}  {:<20}  {:<20}  {:<20} {:<20}  #LastTime",
            "#Topic",
            "#Broker Name",
            "#QID",
            "#Broker Offset",
            "#Consumer Offset",
            "#Client IP",
            "#Diff"
        );
    } else {
        let _ = writeln!(
            out,
            "{:<64}  {:<32}  {:<4}  {:<20}  {:<20}  {:<20}  #LastTime",
            "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff"
        );
    }
    let mut diff_total: i64 = 0;
    for r in rows {
        let diff = r.broker_offset as i64 - r.consumer_offset as i64;
        diff_total += diff;
        let last = if r.last_timestamp_ms == 0 {
            "N/A".to_owned()
        } else {
            human_seconds(r.last_timestamp_ms)
        };
        let head = format!(
            "{}  {}  {:<4}  {:<20}  {:<20}  ",
            col(&r.topic, 64),
            col(&r.broker_name, 32),
            r.queue_id,
            r.broker_offset,
            r.consumer_offset
        );
        if show_client_ip {
            let ip = r
                .client_id
                .as_deref()
                .map_or("N/A", |c| c.split('@').next().unwrap_or(c));
            let _ = writeln!(out, "{head}{ip:<20} {diff:<20}  {last}");
        } else {
            let _ = writeln!(out, "{head}{diff:<20}  {last}");
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Consume TPS: {consume_tps:.2}");
    let _ = writeln!(out, "Diff Total: {diff_total}");
    out
}

/// Days since 1970-01-01 → (year, month, day) (the proleptic Gregorian calendar).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Epoch ms as `yyyy-MM-dd HH:mm:ss` (UTC: the simulator's clock starts at the epoch).
pub fn human_seconds(ms: u64) -> String {
    let secs = (ms / 1000) as i64;
    let (y, mo, d) = civil(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{mo:02}-{d:02} {:02}:{:02}:{:02}",
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

/// Epoch ms as `UtilAll.timeMillisToHumanString2`: `yyyy-MM-dd HH:mm:ss,SSS`.
pub fn human_millis(ms: u64) -> String {
    format!("{},{:03}", human_seconds(ms), ms % 1000)
}

/// The header of `consumerProgress` without `-g`.
pub fn group_list_header() -> String {
    format!(
        "{:<64}  {:<6}  {:<24} {:<5}  {:<14}  {:<7}  #Diff Total\n",
        "#Group", "#Count", "#Version", "#Type", "#Model", "#TPS"
    )
}

/// One group's row of `consumerProgress` without `-g` (`GroupConsumeInfo`): what it could learn,
/// a missing part read as mqadmin reads it (no stats: 0 TPS and 0 diff; no connection: OFFLINE).
pub fn group_row(
    group: &str,
    stats: Option<&ConsumeStats>,
    conn: Option<&ConsumerConnection>,
) -> String {
    let count = conn.map_or(0, |c| c.connection_set.len());
    let online = conn.filter(|_| count > 0);
    let version = match online {
        Some(c) => version_desc(c.min_version().unwrap_or(0)),
        None => "OFFLINE",
    };
    let passive = online.is_some_and(|c| c.consume_type != "CONSUME_ACTIVELY");
    let kind = match online {
        Some(_) if passive => "PUSH",
        Some(_) => "PULL",
        None => "",
    };
    let model = match online {
        Some(c) if passive => c.message_model.as_str(),
        _ => "",
    };
    // `(int) consumeStats.getConsumeTps()`: truncated toward zero.
    let tps = stats.map_or(0, |s| s.consume_tps as i64);
    let diff = stats.map_or(0, ConsumeStats::total_diff);
    format!(
        "{}  {count:<6}  {version:<24} {kind:<5}  {model:<14}  {tps:<7}  {diff}\n",
        col(group, 64)
    )
}

/// `consumerConnection -g G`.
pub fn consumer_connection(cc: &ConsumerConnection) -> String {
    let mut out = format!(
        "{:<36} {:<22} {:<10} #Version\n",
        "#ClientId", "#ClientAddr", "#Language"
    );
    for c in &cc.connection_set {
        let _ = writeln!(
            out,
            "{:<36} {:<22} {:<10} {}",
            c.client_id,
            c.client_addr,
            c.language,
            version_desc(c.version)
        );
    }
    out.push_str("\nBelow is subscription:\n");
    let _ = writeln!(out, "{:<20} #SubExpression", "#Topic");
    for (_, sd) in &cc.subscription_table {
        let _ = writeln!(out, "{:<20} {}", sd.topic, sd.sub_string);
    }
    out.push('\n');
    let _ = writeln!(out, "ConsumeType: {}", cc.consume_type);
    let _ = writeln!(out, "MessageModel: {}", cc.message_model);
    let _ = writeln!(out, "ConsumeFromWhere: {}", cc.consume_from_where);
    out
}

/// `brokerStatus -b ADDR` (the table sorted by key, a `TreeMap`); with `-c` each line starts with
/// the broker's address.
pub fn broker_status(table: &BTreeMap<String, String>, addr: Option<&str>) -> String {
    let mut out = String::new();
    for (k, v) in table {
        match addr {
            Some(a) => {
                let _ = writeln!(out, "{a:<24} {k:<32}: {v}");
            }
            None => {
                let _ = writeln!(out, "{k:<32}: {v}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn dates_are_calendar_dates() {
        assert_eq!(human_millis(0), "1970-01-01 00:00:00,000");
        assert_eq!(human_millis(80_250), "1970-01-01 00:01:20,250");
        // 2026-12-05 07:49:12.5 UTC.
        assert_eq!(human_millis(1_796_456_952_500), "2026-12-05 07:49:12,500");
        assert_eq!(human_seconds(951_782_400_000), "2000-02-29 00:00:00");
    }

    /// mqadmin 4.9.8's layout, column for column.
    #[test]
    fn consumer_progress_is_mqadmins_layout() {
        let row = |b: &str, q, bo, co, c: Option<&str>| ProgressRow {
            topic: "TopicTest".into(),
            broker_name: b.into(),
            queue_id: q,
            broker_offset: bo,
            consumer_offset: co,
            client_id: c.map(str::to_owned),
            last_timestamp_ms: if co > 0 { 61_000 } else { 0 },
        };
        let rows = [
            row("broker-b", 0, 10, 4, None),
            row("broker-a", 1, 7, 7, Some("10.0.1.1@4011")),
        ];
        let text = consumer_progress(&rows, 12.5, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "{:<64}  {:<32}  {:<4}  {:<20}  {:<20}  {:<20} {:<20}  #LastTime",
                "#Topic",
                "#Broker Name",
                "#QID",
                "#Broker Offset",
                "#Consumer Offset",
                "#Client IP",
                "#Diff"
            )
        );
        assert!(lines[1].starts_with(&format!("{:<64}  {:<32}  1   ", "TopicTest", "broker-a")));
        assert!(
            lines[1].ends_with("10.0.1.1             0                     1970-01-01 00:01:01")
        );
        assert!(
            lines[2].ends_with("N/A                  6                     1970-01-01 00:01:01")
        );
        assert_eq!(&lines[3..], ["", "Consume TPS: 12.50", "Diff Total: 6"]);
        let plain = consumer_progress(&rows, 0.0, false);
        assert!(!plain.contains("#Client IP"));
    }

    #[test]
    fn topic_status_is_mqadmins_layout() {
        let rows = [
            TopicStatusRow {
                broker_name: "broker-a".into(),
                queue_id: 1,
                min_offset: 0,
                max_offset: 9,
                last_update_ms: 1_500,
            },
            TopicStatusRow {
                broker_name: "broker-a".into(),
                queue_id: 0,
                min_offset: 0,
                max_offset: 0,
                last_update_ms: 0,
            },
        ];
        let text = topic_status("T", &rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "#Broker Name                      #QID  #Min Offset           #Max Offset             #Last Updated"
        );
        assert_eq!(
            lines[1],
            "broker-a                          0     0                     0                       "
        );
        assert_eq!(
            lines[2],
            "broker-a                          1     0                     9                       1970-01-01 00:00:01,500"
        );
    }

    use crate::model::broker_stats::{Connection, SubscriptionData};

    fn connection() -> ConsumerConnection {
        ConsumerConnection {
            connection_set: vec![Connection {
                client_id: "10.0.0.1@4011".into(),
                client_addr: "10.0.0.1:50001".into(),
                language: "JAVA".into(),
                version: 395,
            }],
            subscription_table: vec![(
                "TopicTest".into(),
                SubscriptionData {
                    topic: "TopicTest".into(),
                    sub_string: "*".into(),
                },
            )],
            consume_type: "CONSUME_PASSIVELY".into(),
            message_model: "CLUSTERING".into(),
            consume_from_where: "CONSUME_FROM_LAST_OFFSET".into(),
        }
    }

    /// ConsumerConnectionSubCommand's printf widths (36, 22, 10), the blank line and the footer.
    #[test]
    fn consumer_connection_layout() {
        let text = consumer_connection(&connection());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "{:<36} {:<22} {:<10} #Version",
                "#ClientId", "#ClientAddr", "#Language"
            )
        );
        assert_eq!(
            lines[1],
            format!(
                "{:<36} {:<22} {:<10} {}",
                "10.0.0.1@4011",
                "10.0.0.1:50001",
                "JAVA",
                version_desc(395)
            )
        );
        assert_eq!(
            &lines[2..5],
            [
                "",
                "Below is subscription:",
                "#Topic               #SubExpression"
            ]
        );
        assert_eq!(lines[5], "TopicTest            *");
        assert_eq!(
            &lines[6..],
            [
                "",
                "ConsumeType: CONSUME_PASSIVELY",
                "MessageModel: CLUSTERING",
                "ConsumeFromWhere: CONSUME_FROM_LAST_OFFSET"
            ]
        );
    }

    /// GroupConsumeInfo: an online push group, and an offline one (OFFLINE, no type or model).
    #[test]
    fn group_rows() {
        let stats = ConsumeStats {
            consume_tps: 12.9,
            ..ConsumeStats::default()
        };
        let online = group_row("G1", Some(&stats), Some(&connection()));
        assert_eq!(
            online,
            format!(
                "{:<64}  1       {:<24} PUSH   CLUSTERING      12       0\n",
                "G1",
                version_desc(395)
            )
        );
        let offline = group_row("G2", None, None);
        assert_eq!(
            offline,
            format!(
                "{:<64}  0       {:<24} {:<5}  {:<14}  0        0\n",
                "G2", "OFFLINE", "", ""
            )
        );
        assert!(group_list_header().starts_with(&format!("{:<64}  #Count  #Version", "#Group")));
    }

    #[test]
    fn broker_status_is_sorted_key_value_lines() {
        let table: BTreeMap<String, String> = [
            ("putTps".into(), "1.0".into()),
            ("brokerVersion".into(), "395".into()),
        ]
        .into();
        assert_eq!(
            broker_status(&table, None),
            format!("{:<32}: 395\n{:<32}: 1.0\n", "brokerVersion", "putTps")
        );
        assert!(broker_status(&table, Some("10.0.0.1:10911"))
            .starts_with("10.0.0.1:10911           brokerVersion"));
    }
}
