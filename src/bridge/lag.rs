//! The lag poll: how long each group's first unread message has waited, asked of the brokers with
//! QUERY_CONSUME_TIME_SPAN after a round of broker polls ([`crate::live::lag`]). Its cost is
//! bounded on its own: one request per (group, topic, broker) with messages unread — a group read
//! to the end costs nothing — each at most once per `--lag-interval`, at most [`SPANS_PER_ROUND`]
//! per round, fanned out as [`super::fan_out`] does, within the round's deadline. A broker that
//! fails, hangs or answers garbage leaves that group's lag unknown with why; everything else keeps
//! polling.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::host::clock::now_ms;
use crate::live::backlog::BacklogState;
use crate::live::lag::{due_spans, SpanKey, SpanReading};
use crate::net::{ClientConfig, NamesrvClient};

/// Time spans asked in one round at most (the longest-unasked first; the rest wait a round).
pub const SPANS_PER_ROUND: usize = 128;

/// Asks the spans due and records the answers in `state.spans`; spans of topics read to the end
/// since are dropped.
pub async fn poll(
    state: &mut BacklogState,
    config: &ClientConfig,
    interval: Duration,
    deadline: Duration,
) {
    let unread = state.unread_spans();
    state.spans.retain(|k, _| unread.contains_key(k));
    let interval_ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
    let due = due_spans(
        &unread,
        &state.spans,
        now_ms(),
        interval_ms,
        SPANS_PER_ROUND,
    );
    if due.is_empty() {
        return;
    }
    let mut by_broker: BTreeMap<String, Vec<SpanKey>> = BTreeMap::new();
    for (key, addr) in due {
        by_broker.entry(addr).or_default().push(key);
    }
    let answers = super::fan_out::per_broker(by_broker, config, deadline, ask, failed).await;
    for (key, reading) in answers {
        if let Some(e) = &reading.error {
            if state.spans.get(&key).is_none_or(|r| r.error.is_none()) {
                tracing::warn!(group = %key.0, topic = %key.1, broker = %key.2, "lag unknown: {e}");
            }
        }
        state.spans.insert(key, reading);
    }
}

fn failed(why: &str) -> SpanReading {
    SpanReading {
        read_at_ms: now_ms(),
        delays: BTreeMap::new(),
        error: Some(format!("QUERY_CONSUME_TIME_SPAN: {why}")),
    }
}

/// One span, on its broker's connection.
async fn ask(client: NamesrvClient, key: SpanKey) -> SpanReading {
    let (group, topic, broker) = (&key.0, &key.1, &key.2);
    match client.consume_time_span(topic, group).await {
        Ok(body) => SpanReading {
            read_at_ms: now_ms(),
            delays: body
                .consume_time_span_set
                .into_iter()
                .filter_map(|s| {
                    let q = s.message_queue?;
                    (q.broker_name == *broker && q.topic == *topic)
                        .then_some((q.queue_id, s.delay_time))
                })
                .collect(),
            error: None,
        },
        Err(e) => failed(&e.to_string()),
    }
}
