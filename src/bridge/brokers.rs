//! The broker poller: every `--broker-interval` it reads each broker group's consumer groups and
//! speeds (read-only) for the live page (`consumers` in the protocol) and `/metrics`
//! (`routelab_backlog`, `routelab_consumers_online`, the brokers' speeds). Which brokers and groups come from the NameServers' latest views
//! ([`crate::live::backlog::targets`]). Brokers are asked `BROKER_CONCURRENCY` at a time, each on a
//! connection of its own with the client's timeouts and a deadline for all its requests, so a
//! broker that hangs delays only its own answers, and the NameServer polls never wait for a broker.
//! A broker that fails keeps its last answers, with the reason.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use super::hub::Hub;
use super::metrics::Metrics;
use super::now_ms;
use crate::live::backlog::{first_figure, BacklogState, BrokerAnswers, BrokerTarget};
use crate::net::{ClientConfig, ClientError, NamesrvClient};

/// Brokers asked at once.
const BROKER_CONCURRENCY: usize = 4;
/// Requests in flight on one broker's connection (its groups' stats and connections).
const PER_BROKER_IN_FLIGHT: usize = 4;

/// Polls the brokers until `shutdown`.
pub async fn run(
    interval: Duration,
    hub: Arc<Hub>,
    metrics: Arc<Metrics>,
    shutdown: CancellationToken,
) {
    let request = interval.clamp(Duration::from_secs(1), Duration::from_secs(3));
    let client = ClientConfig {
        connect_timeout: request,
        request_timeout: request,
        max_in_flight: PER_BROKER_IN_FLIGHT,
        ..ClientConfig::default()
    };
    // A broker's whole turn; beyond it the broker counts as failing this round.
    let deadline = (interval * 3).max(Duration::from_secs(10));
    let mut state = BacklogState::default();
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = ticker.tick() => {}
        }
        let (targets, groups) = hub.broker_targets();
        if targets.is_empty() {
            continue; // no NameServer has answered yet
        }
        let started = Instant::now();
        let round = stream::iter(targets)
            .map(|target| {
                let (client, groups) = (client.clone(), groups.clone());
                async move {
                    let answers =
                        tokio::time::timeout(deadline, ask(&target.addr, &client, &groups)).await;
                    (target, answers)
                }
            })
            .buffer_unordered(BROKER_CONCURRENCY)
            .collect::<Vec<_>>();
        let answers = tokio::select! {
            _ = shutdown.cancelled() => break,
            a = round => a,
        };
        let mut next: BTreeMap<String, (BrokerTarget, BrokerAnswers)> = BTreeMap::new();
        for (target, result) in answers {
            let error = match result {
                Ok(Ok(answers)) => {
                    next.insert(target.broker_name.clone(), (target, answers));
                    continue;
                }
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer within {}", humantime::format_duration(deadline)),
            };
            // Keep what it said last time (if it was at this address), with the reason.
            let mut kept = state
                .brokers
                .remove(&target.broker_name)
                .filter(|(t, _)| t.addr == target.addr)
                .map(|(_, a)| a)
                .unwrap_or_default();
            if kept.error.is_none() {
                tracing::warn!(broker = %target.broker_name, addr = %target.addr, "broker poll failed: {error}");
            }
            kept.error = Some(error);
            next.insert(target.broker_name.clone(), (target, kept));
        }
        state = BacklogState {
            brokers: next,
            groups,
            poll_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        hub.publish_consumers(state.view(now_ms()));
        metrics.set_backlog(state.clone());
    }
}

/// One broker's turn: its runtime speeds, then each group's stats and connections.
async fn ask(
    addr: &str,
    config: &ClientConfig,
    groups: &[String],
) -> Result<BrokerAnswers, ClientError> {
    let client = NamesrvClient::connect(addr, config.clone()).await?;
    let result = ask_on(&client, groups).await;
    client.close();
    result
}

async fn ask_on(client: &NamesrvClient, groups: &[String]) -> Result<BrokerAnswers, ClientError> {
    let runtime = client.broker_runtime_info().await?;
    let mut answers = BrokerAnswers {
        error: None,
        fetched_at_ms: now_ms(),
        put_tps: runtime.table.get("putTps").and_then(|v| first_figure(v)),
        get_tps: runtime
            .table
            .get("getTransferedTps")
            .and_then(|v| first_figure(v)),
        ..BrokerAnswers::default()
    };
    // Owned clones, not borrows: the spawned task's future must not hold a higher-ranked borrow.
    let mut per_group = stream::iter(groups.to_vec())
        .map(|group| {
            let client = client.clone();
            async move {
                let stats = client.consume_stats(&group, None).await;
                let conns = client.consumer_connections(&group).await;
                (group, stats, conns)
            }
        })
        .buffer_unordered(PER_BROKER_IN_FLIGHT);
    while let Some((group, stats, conns)) = per_group.next().await {
        let stats = stats?;
        if !stats.offset_table.0.is_empty() {
            answers.groups.insert(group.clone(), stats);
        }
        if let Some(cc) = conns?.filter(|c| !c.connection_set.is_empty()) {
            answers.connections.insert(group.clone(), cc);
        }
    }
    Ok(answers)
}
