//! The `/metrics` families that describe the cluster rather than the server: what the broker polls
//! read (backlog, members online, consume and broker speeds) and the active alerts. Named without
//! the server's prefix, as the same figures mean the same whoever serves them.

use crate::host::prometheus::{self, sample};

/// The consumer groups and brokers the broker polls read: families without the bridge's prefix,
/// as they describe the cluster, not the bridge.
pub(super) fn render_backlog(out: &mut String, b: &crate::live::backlog::BacklogState) {
    let family = prometheus::family;
    family(
        out,
        "routelab_backlog",
        "gauge",
        "Messages a consumer group has not consumed yet on a topic: the brokers' max offsets minus the group's committed offsets (mqadmin consumerProgress's Diff).",
    );
    for ((group, topic), n) in b.backlog() {
        sample(
            out,
            "routelab_backlog",
            &[("group", group), ("topic", topic)],
            n as f64,
        );
    }
    family(
        out,
        "routelab_backlog_age_seconds",
        "gauge",
        "How long the oldest unread message of a consumer group on a topic has waited, over the queues of one cluster, as the brokers said (QUERY_CONSUME_TIME_SPAN every --lag-interval; rocketmq-exporter's rocketmq_group_get_latency_by_storetime in seconds). Absent when nothing is unread or the brokers could not say.",
    );
    for ((cluster, group, topic), ms) in b.backlog_ages(crate::host::clock::now_ms()) {
        sample(
            out,
            "routelab_backlog_age_seconds",
            &[("cluster", cluster), ("group", group), ("topic", topic)],
            ms as f64 / 1000.0,
        );
    }
    family(
        out,
        "routelab_topic_offset",
        "counter",
        "The sum of a user topic's queues' max offsets on a broker (GET_TOPIC_STATS_INFO; rocketmq-exporter's rocketmq_producer_offset): rate() of it is the topic's messages per second. A consumed topic's come with its groups' consume stats; the others are read at most 128 (topic, broker) pairs per --broker-interval, the longest unread first.",
    );
    let cluster_of: std::collections::BTreeMap<&str, &str> = b
        .brokers
        .values()
        .map(|(t, _)| (t.broker_name.as_str(), t.cluster.as_str()))
        .collect();
    for ((topic, broker), r) in b.topics.readings() {
        let cluster = cluster_of.get(broker.as_str()).copied().unwrap_or_default();
        sample(
            out,
            "routelab_topic_offset",
            &[
                ("cluster", cluster.to_owned()),
                ("topic", topic.clone()),
                ("broker", broker.clone()),
            ],
            r.offset as f64,
        );
    }
    family(
        out,
        "routelab_producers_online",
        "gauge",
        "Members of a producer group connected to the brokers (distinct client ids; from the brokers' producer tables, GET_ALL_PRODUCER_INFO, 5.x brokers).",
    );
    for g in b.producers() {
        sample(
            out,
            "routelab_producers_online",
            &[("group", g.group.clone())],
            g.members.len() as f64,
        );
    }
    family(
        out,
        "routelab_dlq_messages",
        "gauge",
        "Messages in a consumer group's dead-letter topic %DLQ%<group> (each failed maxReconsumeTimes, 16), summed over brokers: the queues' max minus min offsets (GET_TOPIC_STATS_INFO). Only for groups that have one.",
    );
    for (group, n) in b.dlq() {
        sample(out, "routelab_dlq_messages", &[("group", group)], n as f64);
    }
    family(
        out,
        "routelab_consumers_online",
        "gauge",
        "Members of a consumer group connected to its brokers (distinct client ids).",
    );
    for (group, n) in b.online() {
        sample(
            out,
            "routelab_consumers_online",
            &[("group", group)],
            n as f64,
        );
    }
    let clients = |out: &mut String,
                   name: &str,
                   help: &str,
                   value: &dyn Fn(&crate::live::consumers::MemberHealth) -> f64| {
        family(out, name, "gauge", help);
        for (group, client, h) in b.owners.healths() {
            sample(
                out,
                name,
                &[
                    ("group", group.to_owned()),
                    ("client_id", client.to_owned()),
                ],
                value(h),
            );
        }
    };
    clients(
        out,
        "routelab_client_consume_rt_seconds",
        "How long a member takes per message, from its running info (ConsumeStatus consumeRT; rocketmq-exporter's rocketmq_client_consume_rt in seconds).",
        &|h| h.consume_rt_ms / 1000.0,
    );
    clients(
        out,
        "routelab_client_consume_failed_tps",
        "Messages per second whose consumption failed in a member (ConsumeStatus consumeFailedTPS; the exporter's rocketmq_client_consume_fail_msg_tps).",
        &|h| h.consume_failed_tps,
    );
    clients(
        out,
        "routelab_client_cached_messages",
        "Messages a member has pulled and not consumed yet, over its queues (ProcessQueueInfo cachedMsgCount).",
        &|h| h.cached as f64,
    );
    family(
        out,
        "routelab_consume_tps",
        "gauge",
        "Messages per second a consumer group consumes, summed over brokers.",
    );
    for (group, tps) in b.consume_tps() {
        sample(out, "routelab_consume_tps", &[("group", group)], tps);
    }
    let brokers =
        |out: &mut String,
         name: &str,
         help: &str,
         value: &dyn Fn(&crate::live::backlog::BrokerAnswers) -> Option<f64>| {
            family(out, name, "gauge", help);
            for (target, answers) in b.brokers.values() {
                if let Some(v) = value(answers) {
                    let labels = [
                        ("broker", target.broker_name.clone()),
                        ("addr", target.addr.clone()),
                    ];
                    sample(out, name, &labels, v);
                }
            }
        };
    brokers(
        out,
        "routelab_broker_up",
        "1 when the last broker poll reached the broker.",
        &|a| Some(f64::from(u8::from(a.error.is_none()))),
    );
    brokers(
        out,
        "routelab_broker_put_tps",
        "Messages per second the broker stores (its runtime putTps).",
        &|a| a.put_tps,
    );
    brokers(
        out,
        "routelab_broker_get_tps",
        "Messages per second the broker hands to consumers (its runtime getTransferredTps; getTransferedTps before 5.0).",
        &|a| a.get_tps,
    );
    // Health, of masters and slaves alike (by address).
    let health =
        |out: &mut String,
         name: &str,
         help: &str,
         value: &dyn Fn(&crate::live::broker_health::BrokerHealth) -> Option<f64>| {
            family(out, name, "gauge", help);
            for (target, answers) in b.brokers.values() {
                let slaves = answers
                    .slaves
                    .iter()
                    .filter_map(|(_, addr, h)| Some((addr, h.as_ref().ok()?)));
                for (addr, h) in std::iter::once((&target.addr, &answers.health)).chain(slaves) {
                    if let Some(v) = value(h) {
                        let labels = [
                            ("broker", target.broker_name.clone()),
                            ("addr", addr.clone()),
                        ];
                        sample(out, name, &labels, v);
                    }
                }
            }
        };
    health(
        out,
        "routelab_broker_disk_ratio",
        "Used share of the broker's fullest commit-log disk, 0-1 (runtime commitLogDiskRatio). It deletes files by force above 0.85 and refuses writes above 0.90.",
        &|h| h.disk_ratio,
    );
    health(
        out,
        "routelab_broker_put_latency_99_seconds",
        "The broker's 99th percentile time to store a message (runtime putLatency99).",
        &|h| h.put_latency_99_ms.map(|ms| ms / 1000.0),
    );
    health(
        out,
        "routelab_broker_pagecache_lock_seconds",
        "How long the broker's current write has held the page cache's lock (runtime pageCacheLockTimeMills; the exporter's rocketmq_brokeruntime_pagecache_lock_time_mills in seconds).",
        &|h| h.page_cache_lock_ms.map(|ms| ms / 1000.0),
    );
    health(
        out,
        "routelab_broker_send_queue_wait_seconds",
        "How long the oldest send request has waited for a thread (runtime sendThreadPoolQueueHeadWaitTimeMills; the exporter's rocketmq_brokeruntime_send_threadpoolqueue_headwait_timemills in seconds).",
        &|h| h.send_queue_wait_ms.map(|ms| ms / 1000.0),
    );
    family(
        out,
        "routelab_broker_replication_gap_bytes",
        "gauge",
        "How far a slave is behind its master: the master's commitLogMaxOffset minus the slave's, read in the same round (the exporter's rocketmq_broker_commitlog_diff).",
    );
    for (target, answers) in b.brokers.values() {
        for (_, addr, h) in &answers.slaves {
            if let Some(gap) = h
                .as_ref()
                .ok()
                .and_then(|h| crate::live::broker_health::behind(&answers.health, h))
            {
                let labels = [
                    ("broker", target.broker_name.clone()),
                    ("addr", addr.clone()),
                ];
                sample(
                    out,
                    "routelab_broker_replication_gap_bytes",
                    &labels,
                    gap as f64,
                );
            }
        }
    }
    // The bridge's own figure (hence its prefix), shown with what the round read.
    let took = "routelab_bridge_broker_poll_duration_seconds";
    family(
        out,
        took,
        "gauge",
        "How long the last round of broker polls took.",
    );
    sample(out, took, &[], b.poll_ms as f64 / 1000.0);
}

/// `routelab_alert_active{rule,subject} 1` for each active alert, for Prometheus to alert on
/// (Alertmanager pages from a rule such as `routelab_alert_active == 1`).
pub fn render_alerts(alerts: &[crate::live::alerts::Alert]) -> String {
    let mut out = String::new();
    prometheus::family(
        &mut out,
        "routelab_alert_active",
        "gauge",
        "1 while the alert holds (rules: master_lost, broker_gone, no_writable_queue, namesrv_disagree, namesrv_unreachable, broker_flapping, backlog_growing, backlog_unread, queue_unowned, backlog_too_old, broker_disk_full, replication_gap_growing, dlq_growing).",
    );
    for a in alerts {
        sample(
            &mut out,
            "routelab_alert_active",
            &[("rule", a.rule.clone()), ("subject", a.subject.clone())],
            1.0,
        );
    }
    out
}
