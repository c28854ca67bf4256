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
    for ((cluster, group, topic), ms) in
        crate::live::lag::backlog_ages(b, crate::host::clock::now_ms())
    {
        sample(
            out,
            "routelab_backlog_age_seconds",
            &[("cluster", cluster), ("group", group), ("topic", topic)],
            ms as f64 / 1000.0,
        );
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
        "1 while the alert holds (rules: master_lost, broker_gone, no_writable_queue, namesrv_disagree, namesrv_unreachable, broker_flapping, backlog_growing, backlog_unread, queue_unowned, backlog_too_old).",
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
