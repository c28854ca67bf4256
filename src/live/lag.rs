//! The bridge's lag readings: what each broker last said of each (group, topic) with messages
//! unread (QUERY_CONSUME_TIME_SPAN), and which of them to ask next at a bounded cost (pure; the
//! per-queue rules are [`crate::consumer::lag`]; which triples have messages unread, and the
//! oldest wait for `/metrics`, are [`super::backlog::BacklogState`]'s).

use std::collections::BTreeMap;

/// (group, topic, broker name): what one QUERY_CONSUME_TIME_SPAN asks.
pub type SpanKey = (String, String, String);

/// What a broker last said of a group's topic: each queue's `delayTime`, or why it did not say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpanReading {
    /// When the answer arrived (ms since the epoch, our clock).
    pub read_at_ms: u64,
    /// `delayTime` by queue id.
    pub delays: BTreeMap<i32, i64>,
    /// Why the last ask failed (its earlier delays are dropped: they would only mislead).
    pub error: Option<String>,
}

/// Which of `unread` to ask now, at most `budget`: those never asked first, then those read
/// longest ago, each at most once per `interval_ms` (an answer that failed waits as long).
pub fn due_spans(
    unread: &BTreeMap<SpanKey, String>,
    readings: &BTreeMap<SpanKey, SpanReading>,
    now_ms: u64,
    interval_ms: u64,
    budget: usize,
) -> Vec<(SpanKey, String)> {
    let mut due: Vec<(Option<u64>, &SpanKey, &String)> = unread
        .iter()
        .map(|(k, addr)| (readings.get(k).map(|r| r.read_at_ms), k, addr))
        .filter(|(at, _, _)| at.is_none_or(|at| now_ms.saturating_sub(at) >= interval_ms))
        .collect();
    due.sort_by_key(|(at, _, _)| *at);
    due.into_iter()
        .take(budget)
        .map(|(_, k, addr)| (k.clone(), addr.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(g: &str) -> SpanKey {
        (g.to_owned(), "T".to_owned(), "broker-a".to_owned())
    }

    fn read_at(at: u64) -> SpanReading {
        SpanReading {
            read_at_ms: at,
            ..SpanReading::default()
        }
    }

    /// Never asked first, then the oldest; nothing asked again within the interval; the budget
    /// bounds a round.
    #[test]
    fn spans_are_asked_new_first_then_oldest_within_a_budget() {
        let unread: BTreeMap<SpanKey, String> = ["a", "b", "c", "d"]
            .iter()
            .map(|g| (key(g), "10.0.0.1:10911".to_owned()))
            .collect();
        let readings = BTreeMap::from([
            (key("a"), read_at(50_000)),
            (key("b"), read_at(10_000)),
            (key("d"), read_at(95_000)),
        ]);
        let groups = |v: Vec<(SpanKey, String)>| -> Vec<String> {
            v.into_iter().map(|(k, _)| k.0).collect()
        };
        assert_eq!(
            groups(due_spans(&unread, &readings, 100_000, 30_000, 10)),
            ["c", "b", "a"]
        );
        assert_eq!(
            groups(due_spans(&unread, &readings, 100_000, 30_000, 2)),
            ["c", "b"]
        );
        assert!(due_spans(&unread, &readings, 100_000, 30_000, 0).is_empty());
        // Nothing unread, nothing asked.
        assert!(due_spans(&BTreeMap::new(), &readings, 100_000, 30_000, 10).is_empty());
    }
}
