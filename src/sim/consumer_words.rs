//! Consumer events and actions in plain words (English or 简体中文), for the feed and
//! `routelab sim`.

use super::event::{ConsumerRebalanced, Duplicates, QueueRef};
use super::scenario::Action;
use crate::i18n::consumers as w;
use crate::i18n::Lang;

/// A queue as the feed names it: `broker-a/2`.
pub(crate) fn queue_words(q: &QueueRef) -> String {
    format!("{}/{}", q.broker_name, q.queue_id)
}

/// `consumer_rebalanced` in words.
pub(crate) fn rebalanced(e: &ConsumerRebalanced, lang: Lang) -> String {
    let queues = if e.queues.is_empty() {
        lang.t(w::NO_QUEUES_IDLE).to_owned()
    } else {
        e.queues
            .iter()
            .map(queue_words)
            .collect::<Vec<_>>()
            .join(" ")
    };
    lang.fill(
        w::EV_REBALANCED,
        &[
            ("client", &e.client_id),
            ("topic", &e.topic),
            ("strategy", e.strategy),
            ("queues", &queues),
            ("n", &e.mq_all.len().to_string()),
            ("m", &e.cid_all.len().to_string()),
        ],
    )
}

/// `consumer_joined` in words.
pub(crate) fn joined(group: &str, client_id: &str, broker: &str, lang: Lang) -> String {
    lang.fill(
        w::EV_CONSUMER_JOINED,
        &[("broker", broker), ("client", client_id), ("group", group)],
    )
}

/// `consumer_left` in words.
pub(crate) fn left(group: &str, client_id: &str, broker: &str, reason: &str, lang: Lang) -> String {
    let why = match reason {
        "unregistered" => lang.t(w::LEFT_UNREGISTERED),
        "channel_closed" => lang.t(w::LEFT_CHANNEL_CLOSED),
        _ => lang.t(w::LEFT_EXPIRED),
    };
    lang.fill(
        w::EV_CONSUMER_LEFT,
        &[
            ("broker", broker),
            ("client", client_id),
            ("group", group),
            ("why", why),
        ],
    )
}

/// `duplicates` in words.
pub(crate) fn duplicates(e: &Duplicates, lang: Lang) -> String {
    let why_phrase = match e.reason {
        "owner_killed" => w::DUP_OWNER_KILLED,
        "owner_frozen" => w::DUP_OWNER_FROZEN,
        "owner_still_reading" => w::DUP_OWNER_STILL_READING,
        _ => w::DUP_COMMIT_NOT_SEEN,
    };
    let why = lang.fill(why_phrase, &[("previous", &e.previous)]);
    let queue = format!("{} {}/{}", e.topic, e.broker_name, e.queue_id);
    lang.fill(
        w::EV_DUPLICATES,
        &[
            ("client", &e.client_id),
            ("n", &e.count.to_string()),
            ("queue", &queue),
            ("why", &why),
        ],
    )
}

/// A consumer action in words; None for the other actions.
pub(crate) fn action(a: &Action, lang: Lang) -> Option<String> {
    let client = |p, id: &str| lang.fill(p, &[("client", id)]);
    Some(match a {
        Action::AddConsumerGroup(spec) => {
            let n = if spec.client_ids.is_empty() {
                spec.members.unwrap_or(1) as usize
            } else {
                spec.client_ids.len()
            };
            lang.fill(
                w::ACT_ADD_CONSUMER_GROUP,
                &[
                    ("group", &spec.group),
                    ("topics", &spec.topics.join(", ")),
                    ("strategy", spec.strategy.as_str()),
                    ("n", &n.to_string()),
                ],
            )
        }
        Action::AddConsumer {
            group,
            client_id: Some(id),
        } => lang.fill(w::ACT_ADD_CONSUMER, &[("client", id), ("group", group)]),
        Action::AddConsumer {
            group,
            client_id: None,
        } => lang.fill(w::ACT_ADD_CONSUMER_NEXT, &[("group", group)]),
        Action::KillConsumer { client_id } => client(w::ACT_KILL_CONSUMER, client_id),
        Action::FreezeConsumer { client_id } => client(w::ACT_FREEZE_CONSUMER, client_id),
        Action::StopConsumer { client_id } => client(w::ACT_STOP_CONSUMER, client_id),
        Action::RestartConsumer { client_id } => client(w::ACT_RESTART_CONSUMER, client_id),
        Action::SetConsumer { client_id, rate } => lang.fill(
            w::ACT_SET_CONSUMER,
            &[("client", client_id), ("rate", &rate_words(*rate))],
        ),
        Action::SetConsumerGroup {
            group,
            strategy,
            rate,
        } => {
            let mut parts = Vec::new();
            if let Some(s) = strategy {
                parts.push(lang.fill(w::STRATEGY_IS, &[("strategy", s.as_str())]));
            }
            if let Some(r) = rate {
                parts.push(lang.fill(w::RATE_IS, &[("rate", &rate_words(*r))]));
            }
            let sep = match lang {
                Lang::En => ", ",
                Lang::Zh => "，",
            };
            lang.fill(
                w::ACT_SET_CONSUMER_GROUP,
                &[("group", group), ("what", &parts.join(sep))],
            )
        }
        _ => return None,
    })
}

/// A rate as written: whole numbers plainly.
fn rate_words(rate: f64) -> String {
    if rate.fract() == 0.0 && rate.abs() < 1e15 {
        format!("{}", rate as i64)
    } else {
        format!("{rate}")
    }
}
