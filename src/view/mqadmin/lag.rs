//! `consumerLag -g G [-t T]`: RouteLab's own command (mqadmin has none), in consumerProgress's
//! columns with the next unread message's store time and its lag added, so it reads beside it.

use std::fmt::Write as _;

use super::col;
use super::consumer::human_millis;
use crate::consumer::lag::{human_lag, QueueLag};
use crate::consumer::{compare, MessageQueue};

/// The table: one row per queue in `MessageQueue` order, then the totals and the oldest lag.
/// Store times are UTC, as consumerProgress prints them.
pub fn consumer_lag(rows: &[QueueLag]) -> String {
    let mut rows: Vec<&QueueLag> = rows.iter().collect();
    crate::sort::sort_by(&mut rows, |a, b| {
        compare(
            &MessageQueue::new(&a.topic, &a.broker, a.queue_id),
            &MessageQueue::new(&b.topic, &b.broker, b.queue_id),
        )
    });
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<64}  {:<32}  {:<4}  {:<20}  {:<20}  {:<20}  {:<23}  #Lag",
        "#Topic",
        "#Broker Name",
        "#QID",
        "#Broker Offset",
        "#Consumer Offset",
        "#Diff",
        "#Next Unread Stored"
    );
    for r in &rows {
        let stored = r
            .next_store_time_ms
            .map_or("N/A".to_owned(), |t| human_millis(t.max(0) as u64));
        let lag = r.lag_ms.map_or("N/A".to_owned(), human_lag);
        let _ = writeln!(
            out,
            "{}  {}  {:<4}  {:<20}  {:<20}  {:<20}  {:<23}  {lag}",
            col(&r.topic, 64),
            col(&r.broker, 32),
            r.queue_id,
            r.broker_offset,
            r.consumer_offset,
            r.diff,
            stored
        );
    }
    let diff_total: i64 = rows.iter().map(|r| r.diff).sum();
    let _ = writeln!(out);
    let _ = writeln!(out, "Diff Total: {diff_total}");
    let oldest = rows
        .iter()
        .filter(|r| r.diff > 0)
        .filter_map(|r| r.lag_ms)
        .max();
    let unknown = rows.iter().filter(|r| r.lag_ms.is_none()).count();
    let said = match oldest {
        Some(ms) => human_lag(ms),
        None if unknown > 0 => "unknown".to_owned(),
        None => "none (nothing unread)".to_owned(),
    };
    let _ = write!(out, "Oldest Unread: {said}");
    if unknown > 0 {
        let _ = write!(out, " ({unknown} queue(s) N/A: the broker could not say)");
    }
    let _ = writeln!(out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_796_000_000_000;

    #[test]
    fn rows_in_queue_order_with_totals_and_the_oldest_lag() {
        let rows = vec![
            QueueLag::new("T", "broker-b", 0, 10, 10, None, NOW),
            QueueLag::new("T", "broker-a", 1, 300, 100, Some(192_000), NOW),
            QueueLag::new("T", "broker-a", 0, 50, 45, Some(4_000), NOW),
        ];
        let text = consumer_lag(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("#Topic"), "{text}");
        assert!(
            lines[0].ends_with("#Next Unread Stored      #Lag"),
            "{text}"
        );
        assert!(
            lines[1].contains("broker-a") && lines[1].ends_with("4 s"),
            "{text}"
        );
        assert!(lines[2].ends_with("3 min 12 s"), "{text}");
        assert!(lines[2].contains("2026-11-30 00:50:08,000"), "{text}");
        assert!(
            lines[3].contains("broker-b") && lines[3].ends_with("N/A                      0 s"),
            "{text}"
        );
        assert_eq!(lines[5], "Diff Total: 205");
        assert_eq!(lines[6], "Oldest Unread: 3 min 12 s");
    }

    #[test]
    fn nothing_unread_and_unknown_say_so() {
        let idle = vec![QueueLag::new("T", "b", 0, 10, 10, None, NOW)];
        assert!(consumer_lag(&idle).ends_with("Oldest Unread: none (nothing unread)\n"));
        let unknown = vec![QueueLag::new("T", "b", 0, 10, 5, Some(-1), NOW)];
        let text = consumer_lag(&unknown);
        assert!(
            text.ends_with("Oldest Unread: unknown (1 queue(s) N/A: the broker could not say)\n"),
            "{text}"
        );
    }
}
