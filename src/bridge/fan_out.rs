//! Asking many brokers many small things at a bounded cost: the keys grouped by broker address,
//! `BROKER_CONCURRENCY` brokers at once, each on a connection of its own with
//! `PER_BROKER_IN_FLIGHT` requests in flight, each broker's share within `deadline`. A broker
//! that cannot be reached, or runs out of time, answers every key of its share with why. Used by
//! the lag poll and the topic-offset poll.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use futures_util::stream::{self, StreamExt};

use crate::net::{ClientConfig, NamesrvClient};

/// Brokers asked at once.
const BROKER_CONCURRENCY: usize = 4;
/// Requests in flight on one broker's connection.
const PER_BROKER_IN_FLIGHT: usize = 4;

/// For each broker address, `ask(client, key)` for each of its keys; a broker that fails gives
/// `failed(why)` for each.
pub async fn per_broker<K, T, F, Fut>(
    by_broker: BTreeMap<String, Vec<K>>,
    config: &ClientConfig,
    deadline: Duration,
    ask: F,
    failed: impl Fn(&str) -> T + Clone,
) -> Vec<(K, T)>
where
    K: Clone,
    F: Fn(NamesrvClient, K) -> Fut + Clone,
    Fut: Future<Output = T>,
{
    stream::iter(by_broker)
        .map(|(addr, keys)| {
            let (config, ask, failed) = (config.clone(), ask.clone(), failed.clone());
            async move {
                let share = async {
                    let client = match NamesrvClient::connect(&addr, config).await {
                        Ok(c) => c,
                        Err(e) => {
                            let why = e.to_string();
                            return keys.iter().map(|k| (k.clone(), failed(&why))).collect();
                        }
                    };
                    let answers = stream::iter(keys.iter().cloned())
                        .map(|key| {
                            let (client, ask) = (client.clone(), ask.clone());
                            async move { (key.clone(), ask(client, key).await) }
                        })
                        .buffer_unordered(PER_BROKER_IN_FLIGHT)
                        .collect::<Vec<_>>()
                        .await;
                    client.close();
                    answers
                };
                match tokio::time::timeout(deadline, share).await {
                    Ok(answers) => answers,
                    Err(_) => {
                        let why =
                            format!("no answer within {}", humantime::format_duration(deadline));
                        keys.into_iter().map(|k| (k, failed(&why))).collect()
                    }
                }
            }
        })
        .buffer_unordered(BROKER_CONCURRENCY)
        .flat_map(stream::iter)
        .collect()
        .await
}
