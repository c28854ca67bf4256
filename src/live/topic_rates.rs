//! Per-topic production: each (topic, broker)'s queues' max offsets summed, read with
//! GET_TOPIC_STATS_INFO, kept as a counter (`routelab_topic_offset`, so Prometheus's `rate()` gives
//! the topic's TPS, as rocketmq-exporter's `rocketmq_producer_offset`) and turned into a rate
//! between two readings for the page's busiest topics (pure; the bridge's broker poll reads them).
//!
//! A consumed topic's offsets come with its groups' consume stats
//! ([`super::backlog::BacklogState::consumed_topic_offsets`]); for the
//! others, a cluster may hold thousands: each round reads at most a budget of (topic, broker) pairs,
//! those never read first, then the longest unread, as the bridge's route planner does; a rate
//! needs two readings of the same pair, whatever their gap.
//! RocketMQ's own topics (retry, dead-letter, system) are left out: "production" means users'.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::topics::is_system_topic;
use super::view::{NamesrvStatus, NamesrvView};

/// A (topic, broker name) pair.
pub type TopicBroker = (String, String);

/// One pair's last reading: when, the offsets' sum, and the rate since the reading before.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    pub read_at_ms: u64,
    pub offset: i64,
    /// Messages per second since the previous reading; `None` after the first one, or when the
    /// sum went down (queues deleted, a broker's store replaced).
    pub rate: Option<f64>,
}

/// A topic's production, as the page lists the busiest.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TopicRate {
    pub topic: String,
    /// Messages per second, summed over its brokers.
    pub msgs_per_s: f64,
    /// Its brokers with a rate.
    pub brokers: Vec<String>,
}

// Rates are finite (computed from integers over a positive time), so equality is an equivalence.
impl Eq for TopicRate {}

/// Every pair's last reading.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopicRates {
    readings: BTreeMap<TopicBroker, Reading>,
}

/// The (topic, broker) pairs to read, from the first NameServer that answers: each user topic's
/// route's brokers.
pub fn pairs(views: &[NamesrvView]) -> Vec<TopicBroker> {
    let Some(v) = views.iter().find(|v| v.status == NamesrvStatus::Ok) else {
        return Vec::new();
    };
    let own: Vec<&str> = v
        .cluster
        .cluster_addr_table
        .keys()
        .map(|c| c.as_str())
        .chain(v.cluster.broker_addr_table.keys().map(|b| b.as_str()))
        .collect();
    let mut out = Vec::new();
    for (topic, entry) in &v.routes {
        if is_system_topic(topic, own.iter().copied()) {
            continue;
        }
        for qd in entry.route.iter().flat_map(|r| r.queue_datas.iter()) {
            out.push((topic.clone(), qd.broker_name.to_string()));
        }
    }
    out.sort();
    out.dedup();
    out
}

impl TopicRates {
    /// Of `pairs`, at most `budget` to read now: never read first, then the longest unread.
    pub fn due(&self, pairs: &[TopicBroker], budget: usize) -> Vec<TopicBroker> {
        let mut keyed: Vec<(Option<u64>, &TopicBroker)> = pairs
            .iter()
            .map(|p| (self.readings.get(p).map(|r| r.read_at_ms), p))
            .collect();
        keyed.sort_by_key(|(at, _)| *at);
        keyed
            .into_iter()
            .take(budget)
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// Records a reading of `pair`: its queues' max offsets summed, at `at_ms`.
    pub fn record(&mut self, pair: TopicBroker, offset: i64, at_ms: u64) {
        let rate = self.readings.get(&pair).and_then(|prev| {
            let dt = at_ms.checked_sub(prev.read_at_ms).filter(|dt| *dt > 0)?;
            (offset >= prev.offset).then(|| (offset - prev.offset) as f64 * 1000.0 / dt as f64)
        });
        self.readings.insert(
            pair,
            Reading {
                read_at_ms: at_ms,
                offset,
                rate,
            },
        );
    }

    /// Forgets pairs no longer in `pairs` (a topic deleted, a broker gone from its route).
    pub fn retain(&mut self, pairs: &[TopicBroker]) {
        let keep: std::collections::BTreeSet<&TopicBroker> = pairs.iter().collect();
        self.readings.retain(|p, _| keep.contains(p));
    }

    /// Every pair's last reading.
    pub fn readings(&self) -> impl Iterator<Item = (&TopicBroker, &Reading)> {
        self.readings.iter()
    }

    /// The `n` topics producing most (with a rate above zero), busiest first, ties by name.
    pub fn busiest(&self, n: usize) -> Vec<TopicRate> {
        let mut topics: BTreeMap<&str, TopicRate> = BTreeMap::new();
        for ((topic, broker), r) in &self.readings {
            let Some(rate) = r.rate.filter(|r| *r > 0.0) else {
                continue;
            };
            let t = topics.entry(topic).or_insert_with(|| TopicRate {
                topic: topic.clone(),
                ..TopicRate::default()
            });
            t.msgs_per_s += rate;
            t.brokers.push(broker.clone());
        }
        let mut out: Vec<TopicRate> = topics.into_values().collect();
        crate::sort::sort_by(&mut out, |a, b| {
            b.msgs_per_s
                .total_cmp(&a.msgs_per_s)
                .then_with(|| a.topic.cmp(&b.topic))
        });
        out.truncate(n);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn pair(t: &str, b: &str) -> TopicBroker {
        (t.to_owned(), b.to_owned())
    }

    #[test]
    fn rates_between_two_readings_and_the_busiest() {
        let mut r = TopicRates::default();
        r.record(pair("Orders", "a"), 100, 0);
        r.record(pair("Orders", "b"), 50, 0);
        r.record(pair("Quiet", "a"), 7, 0);
        assert!(r.busiest(10).is_empty(), "one reading gives no rate");
        r.record(pair("Orders", "a"), 300, 10_000);
        r.record(pair("Orders", "b"), 150, 10_000);
        r.record(pair("Quiet", "a"), 7, 10_000);
        let busiest = r.busiest(10);
        assert_eq!(busiest.len(), 1, "a topic without traffic is not busy");
        assert_eq!(busiest[0].topic, "Orders");
        assert_eq!(busiest[0].msgs_per_s, 30.0);
        assert_eq!(busiest[0].brokers, ["a", "b"]);
        // An offset that goes down (queues recreated) is no rate, not a negative one.
        r.record(pair("Orders", "a"), 5, 20_000);
        let busiest = r.busiest(10);
        assert_eq!(
            (busiest[0].msgs_per_s, busiest[0].brokers.clone()),
            (10.0, vec!["b".to_owned()])
        );
    }

    /// Never read first, then the longest unread; the budget bounds a round; every pair is read
    /// within ceil(n / budget) rounds.
    #[test]
    fn due_pairs_new_first_then_oldest_within_the_budget() {
        let pairs: Vec<TopicBroker> = (0..7).map(|i| pair(&format!("T{i}"), "a")).collect();
        let mut r = TopicRates::default();
        let budget = 3;
        for round in 1..=9u64 {
            for p in r.due(&pairs, budget) {
                r.record(p, 0, round);
            }
            if round >= 3 {
                let oldest = r.readings().map(|(_, x)| x.read_at_ms).min().unwrap();
                assert!(round - oldest < 3, "round {round}: oldest {oldest}");
            }
        }
        r.retain(&pairs[..2]);
        assert_eq!(r.readings().count(), 2);
    }
}
