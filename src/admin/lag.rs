//! `consumerLag -g G [-t T] [--format text|json]`: each queue's backlog and how long its first
//! unread message has waited. The group's brokers come from its retry topic's route, as for
//! consumerProgress; each answers GET_CONSUME_STATS, then QUERY_CONSUME_TIME_SPAN once per topic
//! with messages unread on it (a topic read to the end has lag 0 and costs nothing). A broker that
//! fails either is named on standard error with why, and its queues are left out (stats) or N/A
//! (time spans); the others are printed, and the exit code is 1.

use std::collections::{BTreeMap, BTreeSet};

use crate::consumer::lag::QueueLag;
use crate::host::clock::now_ms;
use crate::net::{ClientConfig, NamesrvClient};
use crate::view::mqadmin::lag::consumer_lag as text;

use super::backlog::{ask, no_retry_route, retry_topic, route, select_addr, Out};
use super::report::Report;

/// How the rows are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LagFormat {
    /// consumerProgress's columns and two more.
    #[default]
    Text,
    /// A JSON array of [`QueueLag`] objects.
    Json,
}

impl LagFormat {
    /// `text` or `json`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(Self::Text),
            "json" => Ok(Self::Json),
            other => Err(format!("{other:?} is not a format: use text or json")),
        }
    }
}

/// `consumerLag -g G [-t T]`.
pub async fn consumer_lag(
    addrs: &[String],
    group: &str,
    topic: Option<&str>,
    format: LagFormat,
    config: &ClientConfig,
) -> Report {
    let mut out = Out::default();
    let Some(route) = route(addrs, &retry_topic(group), config, &mut out).await else {
        return out.report;
    };
    let Some(route) = route else {
        out.fail(no_retry_route(group));
        return out.report;
    };
    let mut rows: BTreeMap<(String, String, i32), QueueLag> = BTreeMap::new();
    for bd in &route.broker_datas {
        let Some(addr) = select_addr(bd) else {
            continue;
        };
        let broker = bd.broker_name.as_str();
        let asked = ask(addr, config, async |c: &NamesrvClient| {
            let stats = c.consume_stats(group, topic).await?;
            // Topics with something unread on this broker: only they need a time span.
            let unread: BTreeSet<String> = stats
                .offset_table
                .0
                .iter()
                .filter(|(_, o)| o.broker_offset > o.consumer_offset)
                .map(|(q, _)| q.topic.clone())
                .collect();
            let mut spans = BTreeMap::new();
            for t in unread {
                let answer = c.consume_time_span(&t, group).await;
                spans.insert(t, (answer, now_ms()));
            }
            Ok((stats, spans))
        })
        .await;
        let (stats, spans) = match asked {
            Ok(v) => v,
            Err(e) => {
                out.broker_failed(broker, addr, &e);
                continue;
            }
        };
        let mut delays: BTreeMap<(String, String, i32), (i64, u64)> = BTreeMap::new();
        for (t, (answer, at)) in spans {
            match answer {
                Ok(body) => {
                    for span in body.consume_time_span_set {
                        if let Some(q) = span.message_queue {
                            delays.insert(
                                (q.topic, q.broker_name, q.queue_id),
                                (span.delay_time, at),
                            );
                        }
                    }
                }
                Err(e) => out.fail(format!(
                    "error: broker {broker} ({addr}): the lag of {t} is unknown: {e}"
                )),
            }
        }
        for (q, o) in &stats.offset_table.0 {
            let key = (q.topic.clone(), q.broker_name.clone(), q.queue_id);
            let (delay, at) = match delays.get(&key) {
                Some((d, at)) => (Some(*d), *at),
                None => (None, now_ms()),
            };
            let row = QueueLag::new(
                &q.topic,
                &q.broker_name,
                q.queue_id,
                o.broker_offset,
                o.consumer_offset.max(0),
                delay,
                at,
            );
            // mqadmin's putAll: of the same queue from two brokers, the last stays.
            rows.insert(key, row);
        }
    }
    let rows: Vec<QueueLag> = rows.into_values().collect();
    if rows.is_empty() {
        if !out.report.failed {
            out.fail(match topic {
                Some(t) => format!(
                    "error: consumer group {group} has no offsets on topic {t}: it has not consumed from it (check the topic's name, and consumerProgress -g {group})"
                ),
                None => format!(
                    "error: consumer group {group} has no offsets on any broker: it has not consumed anything yet (CONSUMER_NOT_ONLINE, 206)"
                ),
            });
        }
        return out.report;
    }
    out.report.stdout = match format {
        LagFormat::Text => text(&rows),
        LagFormat::Json => {
            let mut sorted = rows;
            crate::sort::sort_by(&mut sorted, |a, b| {
                crate::consumer::compare(
                    &crate::consumer::MessageQueue::new(&a.topic, &a.broker, a.queue_id),
                    &crate::consumer::MessageQueue::new(&b.topic, &b.broker, b.queue_id),
                )
            });
            let mut json = crate::json_text::to_text(&sorted, true);
            json.push('\n');
            json
        }
    };
    out.report
}
