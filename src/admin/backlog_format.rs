//! The text of mqadmin 4.9.8's backlog commands that the workshop does not share
//! (`view::mqadmin_consumers` has topicStatus and consumerProgress -g): consumerProgress's group
//! list, consumerConnection and brokerStatus, each as its `SubCommand`'s `printf`s.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::model::broker_stats::{ConsumeStats, ConsumerConnection};

use crate::view::mq_version::desc as version_desc;

/// `String.format("%-Ns", UtilAll.frontStringAtLeast(s, N))`.
fn col(s: &str, n: usize) -> String {
    let cut: String = s.chars().take(n).collect();
    format!("{cut:<n$}")
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
