//! The topic-offset poll: after a round of broker polls, each user topic's queues' max offsets on
//! each of its brokers. A topic some group consumes came with that group's consume stats (every
//! read queue's broker offset) at no cost; the others are asked with GET_TOPIC_STATS_INFO, at most
//! [`PAIRS_PER_ROUND`] (topic, broker) pairs a round, never-read first then the longest unread
//! ([`crate::live::topic_rates`]), fanned out as [`super::fan_out`] does. `/metrics` exports them as `routelab_topic_offset` (a counter) and the
//! page lists the busiest topics. A pair that fails keeps its last reading.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::host::clock::now_ms;
use crate::live::topic_rates::{TopicBroker, TopicRates};
use crate::net::{ClientConfig, NamesrvClient};

/// (topic, broker) pairs read in one round at most.
pub const PAIRS_PER_ROUND: usize = 128;

/// Keeps the readings of `pairs` only, and reads the pairs due of `unread` (those the consume
/// stats did not cover; their brokers' addresses by name in `addrs`) into `rates`.
pub async fn poll(
    rates: &mut TopicRates,
    pairs: &[TopicBroker],
    unread: &[TopicBroker],
    addrs: &BTreeMap<String, String>,
    config: &ClientConfig,
    deadline: Duration,
) {
    rates.retain(pairs);
    let mut by_broker: BTreeMap<String, Vec<TopicBroker>> = BTreeMap::new();
    for pair in rates.due(unread, PAIRS_PER_ROUND) {
        if let Some(addr) = addrs.get(&pair.1) {
            by_broker.entry(addr.clone()).or_default().push(pair);
        }
    }
    let answers = super::fan_out::per_broker(by_broker, config, deadline, ask, |why: &str| {
        Err(why.to_owned())
    })
    .await;
    for (pair, answer) in answers {
        match answer {
            Ok((offset, at)) => rates.record(pair, offset, at),
            Err(e) => tracing::debug!(topic = %pair.0, broker = %pair.1, "topic stats: {e}"),
        }
    }
}

/// One pair: the sum of its queues' max offsets on that broker, and when it was read.
async fn ask(client: NamesrvClient, pair: TopicBroker) -> Result<(i64, u64), String> {
    let table = client
        .topic_stats(&pair.0)
        .await
        .map_err(|e| e.to_string())?;
    let offset = table
        .offset_table
        .0
        .iter()
        .filter(|(q, _)| q.broker_name == pair.1)
        .map(|(_, o)| o.max_offset.max(0))
        .sum();
    Ok((offset, now_ms()))
}
