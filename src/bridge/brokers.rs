//! The broker poller: every `--broker-interval` it reads each broker group's consumer groups and
//! speeds (read-only) for the live page (`consumers` in the protocol) and `/metrics`
//! (`routelab_backlog`, `routelab_consumers_online`, the brokers' speeds). Which brokers and groups come from the NameServers' latest views
//! ([`crate::live::backlog::targets`]). Brokers are asked `BROKER_CONCURRENCY` at a time, each on a
//! connection of its own with the client's timeouts and a deadline for all its requests, so a
//! broker that hangs delays only its own answers, and the NameServer polls never wait for a broker.
//! A broker that fails keeps its last answers, with the reason.
//!
//! Each broker group's slaves are asked for their runtime table too (health, and how far behind
//! the master's commit log they are).
//!
//! Then each online member is asked, through a broker it is connected to, which queues it holds
//! (GET_CONSUMER_RUNNING_INFO, as mqadmin's `consumerProgress -s true`; [`crate::live::owners`]).
//! A member that does not answer is left alone for a while, so a round waits for a silent client
//! only now and then.
//!
//! Last, the topic-offset poll ([`super::topic_offsets`]) reads each user topic's offsets for its
//! rate, and the lag poll ([`super::lag`]) asks how long each group's first unread message has
//! waited.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

use crate::host::clock::now_ms;
use crate::host::live::Hub;
use crate::host::live::Metrics;
use crate::live::backlog::{first_figure, BacklogState, BrokerAnswers, BrokerTarget, DLQ_PREFIX};
use crate::live::broker_health::BrokerHealth;
use crate::live::consumers::MemberHealth;
use crate::model::broker_stats::ConsumerRunningInfo;
use crate::net::{ClientConfig, ClientError, NamesrvClient};
use crate::remoting::ResponseCode;

/// Brokers asked at once.
const BROKER_CONCURRENCY: usize = 4;
/// Requests in flight on one broker's connection (its groups' stats and connections).
const PER_BROKER_IN_FLIGHT: usize = 4;
/// How long a member's running info may take: the broker waits up to 5 s for the client before it
/// answers with an error.
const RUNNING_INFO_TIMEOUT: Duration = Duration::from_secs(7);

/// What the broker poll needs from the configuration.
#[derive(Clone, Debug)]
pub struct BrokerPollSettings {
    /// `--broker-interval`.
    pub interval: Duration,
    /// `--lag-interval`; `None` with `--no-lag`.
    pub lag_interval: Option<Duration>,
    /// `--access-key` / `--secret-key`.
    pub credentials: Option<crate::remoting::acl::Credentials>,
}

/// Polls the brokers until `shutdown`.
pub async fn run(
    settings: BrokerPollSettings,
    hub: Arc<Hub>,
    metrics: Arc<Metrics>,
    shutdown: CancellationToken,
) {
    let interval = settings.interval;
    let request = interval.clamp(Duration::from_secs(1), Duration::from_secs(3));
    let client = ClientConfig {
        connect_timeout: request,
        request_timeout: request,
        max_in_flight: PER_BROKER_IN_FLIGHT,
        credentials: settings.credentials.clone(),
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
        let dlq: Vec<String> = hub
            .dlq_groups()
            .into_iter()
            .filter(|g| groups.contains(g))
            .collect();
        if targets.is_empty() {
            continue; // no NameServer has answered yet
        }
        let started = Instant::now();
        let round = stream::iter(targets)
            .map(|target| {
                let (client, groups, dlq) = (client.clone(), groups.clone(), dlq.clone());
                async move {
                    let answers =
                        tokio::time::timeout(deadline, ask(&target, &client, &groups, &dlq)).await;
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
            poll_ms: 0,
            owners: std::mem::take(&mut state.owners),
            spans: std::mem::take(&mut state.spans),
            topics: std::mem::take(&mut state.topics),
        };
        let online = state.members_online();
        state
            .owners
            .retain_online(online.iter().map(|(g, c, _)| (g.as_str(), c.as_str())));
        let asked = tokio::select! {
            _ = shutdown.cancelled() => break,
            a = ask_owners(&state, &online, &client) => a,
        };
        let now = now_ms();
        for (group, client_id, answer) in asked {
            let queues = answer.map(|info| {
                let queues = info
                    .queues()
                    .map(|q| (q.topic.clone(), q.broker_name.clone(), q.queue_id))
                    .collect();
                if let Some(health) = MemberHealth::of(&info) {
                    let cached = info
                        .mq_table
                        .0
                        .iter()
                        .map(|(q, pq)| {
                            (
                                (q.topic.clone(), q.broker_name.clone(), q.queue_id),
                                pq.cached_msg_count,
                            )
                        })
                        .collect();
                    state
                        .owners
                        .record_health(&group, &client_id, health, cached);
                }
                queues
            });
            state.owners.record(&group, &client_id, queues, now);
        }
        let addrs: BTreeMap<String, String> = state
            .brokers
            .values()
            .filter(|(_, a)| a.error.is_none())
            .map(|(t, _)| (t.broker_name.clone(), t.addr.clone()))
            .collect();
        let pairs = hub.topic_pairs();
        // A consumed topic's offsets came with its groups' consume stats: no request for those.
        let read = state.consumed_topic_offsets(&pairs);
        let unread: Vec<_> = pairs
            .iter()
            .filter(|p| !read.contains_key(*p))
            .cloned()
            .collect();
        for (pair, (offset, at)) in read {
            state.topics.record(pair, offset, at);
        }
        tokio::select! {
            _ = shutdown.cancelled() => break,
            () = super::topic_offsets::poll(&mut state.topics, &pairs, &unread, &addrs, &client, deadline) => {}
        }
        if let Some(lag_interval) = settings.lag_interval {
            tokio::select! {
                _ = shutdown.cancelled() => break,
                () = super::lag::poll(&mut state, &client, lag_interval, deadline) => {}
            }
        }
        state.poll_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        hub.publish_consumers(state.view(now_ms()));
        metrics.set_backlog(state.clone());
    }
}

/// Asks the members due (see [`crate::live::owners::Owners::to_ask`]) for their running info (the
/// queues they hold, how they consume),
/// through a broker each is connected to, `PER_BROKER_IN_FLIGHT` at a time per broker and
/// `BROKER_CONCURRENCY` brokers at once.
async fn ask_owners(
    state: &BacklogState,
    online: &[(String, String, String)],
    config: &ClientConfig,
) -> Vec<(String, String, Result<ConsumerRunningInfo, String>)> {
    let due: BTreeSet<(String, String)> = state
        .owners
        .to_ask(
            online.iter().map(|(g, c, _)| (g.as_str(), c.as_str())),
            now_ms(),
        )
        .into_iter()
        .collect();
    let mut by_broker: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (g, c, addr) in online {
        if due.contains(&(g.clone(), c.clone())) {
            by_broker
                .entry(addr.clone())
                .or_default()
                .push((g.clone(), c.clone()));
        }
    }
    let config = ClientConfig {
        request_timeout: RUNNING_INFO_TIMEOUT,
        ..config.clone()
    };
    stream::iter(by_broker)
        .map(|(addr, members)| {
            let config = config.clone();
            async move {
                let client = match NamesrvClient::connect(&addr, config).await {
                    Ok(c) => c,
                    Err(e) => {
                        let error = e.to_string();
                        return members
                            .into_iter()
                            .map(|(g, c)| (g, c, Err(error.clone())))
                            .collect::<Vec<_>>();
                    }
                };
                let answers = stream::iter(members)
                    .map(|(group, client_id)| {
                        let client = client.clone();
                        async move {
                            let answer = client
                                .consumer_running_info(&group, &client_id)
                                .await
                                .map_err(|e| e.to_string());
                            (group, client_id, answer)
                        }
                    })
                    .buffer_unordered(PER_BROKER_IN_FLIGHT)
                    .collect::<Vec<_>>()
                    .await;
                client.close();
                answers
            }
        })
        .buffer_unordered(BROKER_CONCURRENCY)
        .flat_map(stream::iter)
        .collect()
        .await
}

/// One broker's turn: its runtime speeds and health, then each group's stats and connections,
/// then its slaves' runtime tables (each on a connection of its own; a slave that fails is named,
/// the master's answers stand).
async fn ask(
    target: &BrokerTarget,
    config: &ClientConfig,
    groups: &[String],
    dlq: &[String],
) -> Result<BrokerAnswers, ClientError> {
    let client = NamesrvClient::connect(&target.addr, config.clone()).await?;
    let result = ask_on(&client, groups, dlq).await;
    client.close();
    let mut answers = result?;
    for (id, addr) in &target.slaves {
        let health = async {
            let slave = NamesrvClient::connect(addr, config.clone()).await?;
            let table = slave.broker_runtime_info().await;
            slave.close();
            let table = table?;
            Ok::<_, ClientError>(BrokerHealth::of(|k| table.table.get(k).map(String::as_str)))
        }
        .await
        .map_err(|e| e.to_string());
        answers.slaves.push((*id, addr.clone(), health));
    }
    Ok(answers)
}

async fn ask_on(
    client: &NamesrvClient,
    groups: &[String],
    dlq: &[String],
) -> Result<BrokerAnswers, ClientError> {
    let runtime = client.broker_runtime_info().await?;
    let mut answers = BrokerAnswers {
        error: None,
        fetched_at_ms: now_ms(),
        put_tps: runtime.table.get("putTps").and_then(|v| first_figure(v)),
        get_tps: crate::live::backlog::transferred_tps(|k| {
            runtime.table.get(k).map(|v| v.as_str())
        }),
        health: BrokerHealth::of(|k| runtime.table.get(k).map(String::as_str)),
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
    // Its producers (5.x); a broker that does not know the request (4.x) just has none listed.
    match client.all_producers().await {
        Ok(table) => answers.producers = Some(table.data),
        Err(e) if e.is_connection_error() => return Err(e),
        Err(e) => tracing::debug!("no producer table from {}: {e}", client.addr()),
    }
    // Dead-letter topics: a broker without one for the group says TOPIC_NOT_EXIST, which is no
    // failure (the messages went to another broker, or none yet).
    let mut dead = stream::iter(dlq.to_vec())
        .map(|group| {
            let client = client.clone();
            async move {
                let stats = client.topic_stats(&format!("{DLQ_PREFIX}{group}")).await;
                (group, stats)
            }
        })
        .buffer_unordered(PER_BROKER_IN_FLIGHT);
    while let Some((group, stats)) = dead.next().await {
        match stats {
            Ok(table) => {
                let n = table
                    .offset_table
                    .0
                    .iter()
                    .map(|(_, o)| (o.max_offset - o.min_offset).max(0))
                    .sum();
                answers.dlq.insert(group, n);
            }
            Err(ClientError::Remote { code, .. }) if code == ResponseCode::TOPIC_NOT_EXIST => {}
            Err(e) => return Err(e),
        }
    }
    Ok(answers)
}
