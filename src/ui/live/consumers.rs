//! The consumer groups the bridge read from the brokers: per group its members online, its consume
//! rate and total backlog, and a bar per queue (broker offset − committed offset) with the
//! workshop's test ids (`consumer-group`, `node-consumer-<clientId>` with `data-group`,
//! `queue-backlog` with `data-group`, `data-broker`, `data-queue`, `data-backlog`, `data-owner`),
//! drawn by the workshop's own bar; then each broker's speeds, or why it did not answer. Which
//! member reads which queue is what the members said (their running info): a bar takes its
//! reader's colour, and a member that does not say leaves the owners unknown.

use yew::prelude::*;

use super::LiveProps;
use crate::i18n::{consumers as w, live};
use crate::live::consumers::{ConsumersView, GroupView, MemberView};
use crate::ui::consumers::{queue_bar, Owner, QueueBar, OWNER_COLOURS};
use crate::ui::{fmt_number, fmt_secs};

/// A bar is full at the group's largest backlog, or at this many messages if that is less (as in
/// the workshop's panel).
const BAR_FULL_AT_LEAST: i64 = 20;

#[component]
pub fn LiveConsumers(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    // The past being looked at, with the groups the history kept by then, or the live state.
    let shown = data.shown();
    let consumers = shown.consumers.as_ref();
    let now = shown.server_time_ms;
    html! {
        <section class="panel live-consumers" data-testid="live-consumers" aria-label={lang.t(live::CONSUMER_GROUPS)}>
            <h2>{ lang.t(live::CONSUMER_GROUPS) }</h2>
            { match consumers {
                None if data.past.is_some() => html!{ <p class="hint" data-testid="consumers-not-kept">{ lang.t(live::CONSUMERS_NOT_KEPT) }</p> },
                None => html!{ <p class="hint" data-testid="consumers-not-yet">{ lang.t(live::CONSUMERS_NOT_YET) }</p> },
                Some(view) => body(view, now, data.past.is_some(), lang),
            } }
        </section>
    }
}

/// `past`: `now` is the moment looked at, and the groups are what the history kept by then.
fn body(view: &ConsumersView, now: u64, past: bool, lang: crate::i18n::Lang) -> Html {
    let age = fmt_secs(now.saturating_sub(view.fetched_at_ms));
    let read = if past {
        live::CONSUMERS_READ_BEFORE
    } else {
        live::CONSUMERS_READ_AGO
    };
    html! { <>
        <p class="hint" data-testid="consumers-age">{ lang.fill(read, &[("age", &age)]) }</p>
        { if view.groups.is_empty() {
            html!{ <p class="hint">{ lang.t(live::NO_GROUPS) }</p> }
        } else {
            html!{ <>{ for view.groups.iter().map(|g| group_card(g, now, lang)) }</> }
        } }
        { if view.topics.is_empty() { html!{} } else { html!{
            <div class="busiest" data-testid="busiest-topics" title={lang.t(live::BUSIEST_HINT)}>
                <h3>{ lang.t(live::BUSIEST_TOPICS) }</h3>
                <ul>
                    { for view.topics.iter().map(|t| html!{
                        <li data-testid="topic-rate" data-topic={t.topic.clone()} data-rate={t.msgs_per_s.to_string()}>
                            { lang.fill(live::TOPIC_RATE, &[("topic", &t.topic), ("rate", &tps(t.msgs_per_s))]) }
                        </li>
                    }) }
                </ul>
            </div>
        } } }
        { if view.producers.is_empty() { html!{} } else { html!{
            <div class="producers" data-testid="live-producers" title={lang.t(live::PRODUCERS_HINT)}>
                <h3>{ lang.t(live::PRODUCERS) }</h3>
                <ul>
                    { for view.producers.iter().map(|p| html!{
                        <li data-testid="producer-group" data-group={p.group.clone()} data-online={p.members.len().to_string()}>
                            <b>{ lang.fill(live::PRODUCER_GROUP, &[("group", &p.group), ("n", &p.members.len().to_string()), ("brokers", &p.brokers.join(", "))]) }</b>
                            { for p.members.iter().map(|m| html!{
                                <span class="from" data-testid={format!("node-producer-{}", m.client_id)}>
                                    { format!("{} ({} · {} · {})", m.client_id, m.client_addr, m.language, crate::view::mq_version::desc(m.version)) }
                                </span>
                            }) }
                        </li>
                    }) }
                </ul>
            </div>
        } } }
        <ul class="broker-speeds">
            { for view.brokers.iter().map(|b| {
                let text = match &b.error {
                    Some(error) => lang.fill(live::BROKER_NOT_READ, &[("broker", &b.broker_name), ("addr", &b.addr), ("error", error)]),
                    None => lang.fill(live::BROKER_SPEED, &[
                        ("broker", &b.broker_name),
                        ("put", &b.put_tps.map_or("–".into(), tps)),
                        ("get", &b.get_tps.map_or("–".into(), tps)),
                    ]),
                };
                html!{ <li class={classes!(b.error.is_some().then_some("bad"))} data-testid="broker-speed" data-broker={b.broker_name.clone()}>
                    { text }
                    { for b.health.as_ref().filter(|_| b.error.is_none()).map(|h| html!{ <>{ " · " }{ broker_health(h, lang) }</> }) }
                    { for b.slaves.iter().map(|sl| {
                        let text = match (&sl.error, sl.behind_bytes) {
                            (Some(e), _) => lang.fill(live::SLAVE_NOT_READ, &[("id", &sl.id.to_string()), ("addr", &sl.addr), ("error", e)]),
                            (None, Some(gap)) => lang.fill(live::SLAVE_BEHIND, &[("id", &sl.id.to_string()), ("addr", &sl.addr), ("bytes", &bytes(gap))]),
                            (None, None) => format!("slave {} ({})", sl.id, sl.addr),
                        };
                        html!{ <span class={classes!("slave", sl.error.is_some().then_some("bad"))} data-testid="slave"
                            data-addr={sl.addr.clone()} data-behind={sl.behind_bytes.map(|g| g.to_string())}>
                            { text }
                            { for sl.health.as_ref().map(|h| html!{ <>{ " · " }{ broker_health(h, lang) }</> }) }
                        </span> }
                    }) }
                </li> }
            }) }
        </ul>
    </> }
}

/// A broker's disk, put latency and send queue wait, where its runtime table gave them.
pub(super) fn broker_health(
    h: &crate::live::broker_health::BrokerHealth,
    lang: crate::i18n::Lang,
) -> Html {
    let mut parts = Vec::new();
    if let Some(r) = h.disk_ratio {
        parts.push(lang.fill(live::BROKER_DISK, &[("pct", &format!("{:.0}", r * 100.0))]));
    }
    if let Some(ms) = h.put_latency_99_ms {
        parts.push(lang.fill(live::BROKER_PUT_P99, &[("ms", &tps(ms))]));
    }
    if let Some(ms) = h.send_queue_wait_ms.filter(|ms| *ms > 0.0) {
        parts.push(lang.fill(live::BROKER_SEND_WAIT, &[("ms", &tps(ms))]));
    }
    let full = h
        .disk_ratio
        .is_some_and(|r| r > crate::live::broker_health::DISK_WARN_RATIO);
    html! {
        <span class={classes!("health", full.then_some("bad"))} data-testid="broker-health"
            data-disk={h.disk_ratio.map(|r| r.to_string())} title={lang.t(live::BROKER_HEALTH_HINT)}>
            { parts.join(" · ") }
        </span>
    }
}

/// Bytes as people read them: `512 B`, `4.0 KiB`, `1.5 MiB`, `2.0 GiB`.
pub(super) fn bytes(n: i64) -> String {
    let n = n.max(0) as f64;
    match n {
        n if n < 1024.0 => format!("{n:.0} B"),
        n if n < 1024.0 * 1024.0 => format!("{:.1} KiB", n / 1024.0),
        n if n < 1024.0 * 1024.0 * 1024.0 => format!("{:.1} MiB", n / 1024.0 / 1024.0),
        n => format!("{:.1} GiB", n / 1024.0 / 1024.0 / 1024.0),
    }
}

/// A rate with one decimal.
fn tps(v: f64) -> String {
    fmt_number((v * 10.0).round() / 10.0)
}

/// A wait in words: `45 s`, `3 min 12 s`, `2 h 5 min`, `3 d 4 h` (秒, 分, 小时, 天).
fn age_words(ms: i64, lang: crate::i18n::Lang) -> String {
    let s = ms.max(0) / 1000;
    let n = |v: i64| v.to_string();
    match s {
        0..60 => lang.fill(live::AGE_S, &[("s", &n(s))]),
        60..3600 => lang.fill(live::AGE_MIN, &[("m", &n(s / 60)), ("s", &n(s % 60))]),
        3600..86_400 => lang.fill(
            live::AGE_H,
            &[("h", &n(s / 3600)), ("m", &n(s % 3600 / 60))],
        ),
        _ => lang.fill(
            live::AGE_D,
            &[("d", &n(s / 86_400)), ("h", &n(s % 86_400 / 3600))],
        ),
    }
}

/// 1240 → `1,240`.
fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

fn group_card(g: &GroupView, now: u64, lang: crate::i18n::Lang) -> Html {
    let backlog = g.backlog();
    let now = i64::try_from(now).unwrap_or(i64::MAX);
    // The oldest unread message's wait, at the moment shown.
    let oldest = g.oldest_unread_ms().map(|t| now.saturating_sub(t).max(0));
    let most = g
        .queues
        .iter()
        .map(|q| q.backlog())
        .max()
        .unwrap_or(0)
        .max(BAR_FULL_AT_LEAST);
    let online = if g.members.is_empty() {
        lang.t(live::NOBODY_ONLINE).to_owned()
    } else {
        lang.fill(live::ONLINE_N, &[("n", &g.members.len().to_string())])
    };
    // A member's colour: its place among the group's members, as in the workshop.
    let colour = |client: &str| {
        g.members
            .iter()
            .position(|m| m.client_id == client)
            .map(|i| format!("owner-{}", i % OWNER_COLOURS))
    };
    let unowned = g.owners_known
        && !g.members.is_empty()
        && g.queues
            .iter()
            .any(|q| q.owner.is_none() && q.backlog() > 0);
    html! {
        <div class="consumer-group" data-testid="consumer-group" data-group={g.group.clone()} data-online={g.members.len().to_string()}
            data-owners-known={g.owners_known.to_string()}>
            <div class="group-head">
                <b>{ g.group.clone() }</b>
                <span class={classes!("badge", g.members.is_empty().then_some("warn"))}>{ online }</span>
                { match oldest {
                    Some(ms) => html!{
                        <span class="badge warn" data-testid="group-lag" data-lag-ms={ms.to_string()} title={lang.t(live::LAG_HINT)}>
                            { lang.fill(live::BEHIND_OLDEST, &[("n", &grouped(backlog)), ("age", &age_words(ms, lang))]) }
                        </span>
                    },
                    None => html!{
                        <span class={classes!("badge", (backlog >= BAR_FULL_AT_LEAST).then_some("warn"))}>{ lang.fill(w::BACKLOG_N, &[("n", &backlog.to_string())]) }</span>
                    },
                } }
                { for g.dlq.map(|n| html!{
                    <span class={classes!("badge", (n > 0).then_some("warn"))} data-testid="group-dlq" data-dlq={n.to_string()}
                        title={lang.t(live::DLQ_HINT)}>{ lang.fill(live::DLQ_N, &[("n", &grouped(n))]) }</span>
                }) }
                { for g.lag_error.as_ref().map(|e| html!{
                    <span class="badge" data-testid="group-lag-unknown" title={e.clone()}>{ lang.fill(live::LAG_UNKNOWN, &[("error", e)]) }</span>
                }) }
                <span class="badge">{ lang.fill(w::TPS_N, &[("n", &tps(g.consume_tps))]) }</span>
                { for unowned.then(|| html!{ <span class="badge warn" data-testid="queues-unowned">{ lang.t(live::QUEUES_UNOWNED) }</span> }) }
            </div>
            <ul class="members">
                { for g.members.iter().map(|m| member_row(g, m, colour(&m.client_id), lang)) }
            </ul>
            <div class="backlog" title={lang.t(live::LIVE_BACKLOG_HINT)}>
                { for g.queues.iter().map(|q| {
                    let owner = match (&q.owner, g.owners_known) {
                        (Some(m), _) => Owner::Member(m),
                        (None, true) => Owner::Nobody,
                        (None, false) => Owner::Unknown,
                    };
                    queue_bar(&QueueBar {
                        group: &g.group,
                        topic: &q.topic,
                        broker: &q.broker_name,
                        queue_id: q.queue_id,
                        broker_offset: q.broker_offset.to_string(),
                        consumer_offset: q.consumer_offset.to_string(),
                        backlog: q.backlog(),
                        owner,
                        colour: q.owner.as_deref().and_then(colour),
                        most,
                        label: format!("{} {}/{}", q.topic, q.broker_name, q.queue_id),
                        age: q.next_store_time_ms.filter(|_| q.backlog() > 0).map(|t| {
                            let ms = now.saturating_sub(t).max(0);
                            (lang.fill(live::QUEUE_WAITED, &[("age", &age_words(ms, lang))]), ms)
                        }),
                    }, lang)
                }) }
            </div>
        </div>
    }
}

/// A member: its name in its colour, where it connects from, and the queues it says it holds (or
/// that it does not say).
fn member_row(
    g: &GroupView,
    m: &MemberView,
    colour: Option<String>,
    lang: crate::i18n::Lang,
) -> Html {
    let held: Vec<String> = g
        .queues
        .iter()
        .filter(|q| q.owner.as_deref() == Some(m.client_id.as_str()))
        .map(|q| format!("{} {}/{}", q.topic, q.broker_name, q.queue_id))
        .collect();
    let queues = match (&m.queues_unknown, held.is_empty()) {
        (Some(why), _) => {
            html! { <span class="queues unknown" title={why.clone()}>{ lang.t(live::MEMBER_QUEUES_UNKNOWN) }</span> }
        }
        (None, true) if g.owners_known => html! { <span class="queues">{ lang.t(w::IDLE) }</span> },
        (None, true) => html! {},
        (None, false) => html! { <span class="queues">{ held.join(" ") }</span> },
    };
    let health = m.health.as_ref().map(|h| {
        let text = lang.fill(
            live::MEMBER_HEALTH,
            &[
                ("rt", &tps(h.consume_rt_ms)),
                ("ok", &tps(h.consume_ok_tps)),
                ("failed", &tps(h.consume_failed_tps)),
                ("cached", &grouped(h.cached)),
            ],
        );
        html! {
            <span class={classes!("health", (h.consume_failed_tps > 0.0).then_some("bad"))} data-testid="member-health"
                title={lang.t(live::MEMBER_HEALTH_HINT)}>{ text }</span>
        }
    });
    html! {
        <li class="member" data-testid={format!("node-consumer-{}", m.client_id)} data-group={g.group.clone()} data-state="online"
            data-queues={held.len().to_string()}>
            <span class={classes!("member-name", colour)}>{ m.client_id.clone() }</span>
            <span class="from">{ format!("{} · {} · {}", m.client_addr, m.language, crate::view::mq_version::desc(m.version)) }</span>
            { queues }
            { for health }
        </li>
    }
}
