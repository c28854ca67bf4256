//! Consumer groups: per group its strategy, members (state, speed, what each consumed and read
//! twice, the queues it reads), the backlog of each queue as a bar coloured by its reader, and
//! forms to add a member or a group and to change the strategy; and a member in the inspector,
//! with what can be done to it.
//!
//! Test contract: `consumer-group` (`data-group`), `consumer` (`data-client`, `data-state`),
//! `queue-backlog` with `data-group`, `data-broker`, `data-queue`, `data-backlog`; `add-consumer`,
//! `consumer-strategy`, `add-consumer-group`.

use yew::prelude::*;

use super::forms::{form_of, read, ticked, zone};
use super::panel::PanelProps;
use super::state::Selection;
use super::{click, fmt_number, fmt_secs, parse_number, state_name};
use crate::consumer::StrategyName;
use crate::i18n::{consumers as w, controls, state_word, Lang, Phrase};
use crate::sim::scenario::ConsumerGroupSpec;
use crate::sim::{Action, ConsumerNode, ConsumerState, Sim};

/// A backlog bar is full at the group's largest backlog, or at this many messages if that is less.
const BAR_FULL_AT_LEAST: u64 = 50;

/// Owner colours cycle through this many classes (`.owner-0` … in style.css).
pub(crate) const OWNER_COLOURS: usize = 8;

/// An event applying what `f` makes of it, if anything.
fn apply_some<E: 'static>(
    on_apply: &Callback<Action>,
    f: impl Fn(E) -> Option<Action> + 'static,
) -> Callback<E> {
    let on_apply = on_apply.clone();
    Callback::from(move |e: E| {
        if let Some(action) = f(e) {
            on_apply.emit(action);
        }
    })
}

#[component]
pub fn ConsumersView(props: &PanelProps) -> Html {
    let lang = props.lang;
    let sim = props.sim.sim();
    html! {
        <section class="panel consumers" aria-label={lang.t(w::CONSUMERS_LABEL)}>
            <h2>{ lang.t(w::CONSUMERS) }</h2>
            { for sim.consumer_groups().iter().enumerate().map(|(g, _)| group_card(props, &sim, g)) }
            { if sim.consumer_groups().is_empty() { html!{ <p class="hint">{ lang.t(w::NO_CONSUMER) }</p> } } else { html!{} } }
            { add_group_form(props) }
        </section>
    }
}

fn group_card(props: &PanelProps, sim: &Sim, g: usize) -> Html {
    let lang = props.lang;
    let group = &sim.consumer_groups()[g];
    let name = group.spec.group.clone();
    let members: Vec<(usize, &ConsumerNode)> = sim
        .consumers()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.group == g)
        .collect();
    let progress = sim.consumer_progress(&name);
    let backlog: u64 = progress.iter().map(|q| q.backlog()).sum();
    let tps = sim.consume_tps(&name);
    // A member's colour: its place among the group's members.
    let colour = |client: &str| {
        members
            .iter()
            .position(|(_, c)| c.client_id == client)
            .map(|i| format!("owner-{}", i % OWNER_COLOURS))
    };
    // Bars are scaled to the largest backlog, but never to less than this: the few messages a
    // keeping-up group has not committed yet do not fill a bar.
    let most = progress
        .iter()
        .map(|q| q.backlog())
        .max()
        .unwrap_or(0)
        .max(BAR_FULL_AT_LEAST);
    let add = click(
        &props.on_apply,
        Action::AddConsumer {
            group: name.clone(),
            client_id: None,
        },
    );
    let on_strategy = {
        let name = name.clone();
        apply_some(&props.on_apply, move |e: Event| {
            let value = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            StrategyName::parse(&value).map(|s| Action::SetConsumerGroup {
                group: name.clone(),
                strategy: Some(s),
                rate: None,
            })
        })
    };
    html! {
        <div class="consumer-group" data-testid="consumer-group" data-group={name.clone()}>
            <div class="group-head">
                <b>{ name.clone() }</b>
                <span>{ lang.fill(w::READS, &[("topics", &group.spec.topics.join(", "))]) }</span>
                <span class={classes!("badge", (backlog >= BAR_FULL_AT_LEAST).then_some("warn"))}>{ lang.fill(w::BACKLOG_N, &[("n", &backlog.to_string())]) }</span>
                <span class="badge">{ lang.fill(w::TPS_N, &[("n", &fmt_number((tps * 10.0).round() / 10.0))]) }</span>
            </div>
            <ul class="members">
                { for members.iter().map(|(_, c)| member_row(props, c, colour(&c.client_id))) }
            </ul>
            <div class="backlog" title={lang.t(w::BACKLOG_HINT)}>
                { for progress.iter().map(|q| {
                    let owner = q.client_id.as_deref();
                    queue_bar(&QueueBar {
                        group: &name,
                        topic: &q.topic,
                        broker: &q.broker_name,
                        queue_id: q.queue_id,
                        broker_offset: q.broker_offset.to_string(),
                        consumer_offset: q.consumer_offset.to_string(),
                        backlog: q.backlog() as i64,
                        owner: owner.map_or(Owner::Nobody, Owner::Member),
                        colour: owner.and_then(colour),
                        most: most as i64,
                        label: format!("{}/{}", q.broker_name, q.queue_id),
                        age: None,
                    }, lang)
                }) }
            </div>
            <div class="group-foot">
                <button data-testid="add-consumer" onclick={add}>{ lang.t(w::ADD_MEMBER) }</button>
                <label>{ lang.t(w::STRATEGY) }{ " " }
                    <select data-testid="consumer-strategy" onchange={on_strategy}>
                        { for StrategyName::ALL.iter().map(|s| html!{
                            <option value={s.as_str()} selected={*s == group.spec.strategy}>{ s.as_str() }</option>
                        }) }
                    </select>
                </label>
            </div>
        </div>
    }
}

/// Who reads a queue, for its bar.
pub(crate) enum Owner<'a> {
    /// This member (client id).
    Member(&'a str),
    /// No member holds it.
    Nobody,
    /// Not known: a member did not say which queues it holds (the live page).
    Unknown,
}

/// One queue's backlog bar, as the workshop and the live page draw it (test ids `queue-backlog`
/// with `data-group`, `data-topic`, `data-broker`, `data-queue`, `data-backlog`, `data-owner`).
pub(crate) struct QueueBar<'a> {
    pub group: &'a str,
    pub topic: &'a str,
    pub broker: &'a str,
    pub queue_id: i32,
    pub broker_offset: String,
    pub consumer_offset: String,
    pub backlog: i64,
    pub owner: Owner<'a>,
    /// The owner's colour class (`owner-N`).
    pub colour: Option<String>,
    /// The backlog of a full bar.
    pub most: i64,
    /// What the bar is labelled with.
    pub label: String,
    /// How long its first unread message has waited, in words (the live page, when its broker
    /// said), and in ms.
    pub age: Option<(String, i64)>,
}

pub(crate) fn queue_bar(b: &QueueBar, lang: crate::i18n::Lang) -> Html {
    let pct = b.backlog.max(0) * 100 / b.most.max(1);
    let owner = match b.owner {
        Owner::Member(m) => m,
        Owner::Nobody => lang.t(w::NOBODY),
        Owner::Unknown => lang.t(w::OWNER_UNKNOWN),
    };
    let title = lang.fill(
        w::QUEUE_BACKLOG_TITLE,
        &[
            ("queue", &format!("{} {}/{}", b.topic, b.broker, b.queue_id)),
            ("broker", &b.broker_offset),
            ("committed", &b.consumer_offset),
            ("backlog", &b.backlog.to_string()),
            ("owner", owner),
        ],
    );
    let data_owner = match b.owner {
        Owner::Member(m) => Some(m.to_owned()),
        Owner::Nobody => Some(String::new()),
        Owner::Unknown => None,
    };
    html! {
        <div class={classes!("queue-bar", b.colour.clone(), (matches!(b.owner, Owner::Nobody) && b.backlog > 0).then_some("unowned"))}
            data-testid="queue-backlog" data-group={b.group.to_owned()} data-topic={b.topic.to_owned()}
            data-broker={b.broker.to_owned()} data-queue={b.queue_id.to_string()}
            data-backlog={b.backlog.to_string()} data-owner={data_owner} {title}>
            <span class="q-name">{ b.label.clone() }</span>
            <span class="bar"><span class="fill" style={format!("width:{pct}%")}></span></span>
            <span class="n">{ b.backlog.to_string() }</span>
            { for b.age.as_ref().map(|(words, ms)| html!{
                <span class="q-age" data-testid="queue-age" data-lag-ms={ms.to_string()}>{ words.clone() }</span>
            }) }
        </div>
    }
}

fn member_row(props: &PanelProps, c: &ConsumerNode, colour: Option<String>) -> Html {
    let lang = props.lang;
    let select = click(
        &props.on_select,
        Some(Selection::Consumer(c.client_id.clone())),
    );
    let selected = props.selection == Some(Selection::Consumer(c.client_id.clone()));
    let queues: Vec<String> = c
        .owned
        .iter()
        .map(|o| format!("{}/{}", o.mq.broker_name, o.mq.queue_id))
        .collect();
    html! {
        <li class={classes!("member", state_name(c.state), selected.then_some("selected"))} data-testid="consumer"
            data-client={c.client_id.clone()} data-state={state_name(c.state)}>
            <button class={classes!("member-name", colour)} onclick={select}>{ c.client_id.clone() }</button>
            <span class="badge">{ state_word(lang, c.state.into()) }</span>
            <span>{ lang.fill(w::RATE_AT_MOST, &[("n", &fmt_number(c.rate))]) }</span>
            <span>{ lang.fill(w::CONSUMED_N, &[("n", &c.stats.consumed.to_string())]) }</span>
            { if c.stats.duplicates > 0 { html!{ <span class="dup">{ lang.fill(w::DUPLICATES_N, &[("n", &c.stats.duplicates.to_string())]) }</span> } } else { html!{} } }
            <span class="queues">{ if queues.is_empty() { lang.t(w::IDLE).to_owned() } else { queues.join(" ") } }</span>
        </li>
    }
}

/// A small form: a group on a topic, its strategy, how many members and how fast. Its fields keep
/// what is typed in the page itself (read when it is sent): no component of its own, less code.
fn add_group_form(props: &PanelProps) -> Html {
    let lang = props.lang;
    let next_name = format!("cg-{}", props.sim.sim().consumer_groups().len() + 1);
    let onsubmit = {
        let next_name = next_name.clone();
        apply_some(&props.on_apply, move |e: SubmitEvent| {
            e.prevent_default();
            let form = form_of(&e)?;
            let name = read(&form, "group");
            let spec = ConsumerGroupSpec {
                group: if name.trim().is_empty() {
                    next_name.clone()
                } else {
                    name.trim().to_owned()
                },
                topics: vec![read(&form, "topic").trim().to_owned()],
                strategy: StrategyName::parse(&read(&form, "strategy")).unwrap_or_default(),
                members: parse_number(&read(&form, "members")).map(|n| n.max(0.0) as u32),
                client_ids: Vec::new(),
                rate: parse_number(&read(&form, "rate")).unwrap_or(f64::NAN),
                client: None,
                virtual_nodes: None,
                config: Default::default(),
                namesrv: None,
                zone: zone(&form),
                zone_mode: ticked(&form, "zone_mode"),
            };
            Some(Action::AddConsumerGroup(spec))
        })
    };
    html! {
        <details class="add-group">
            <summary>{ lang.t(w::ADD_GROUP) }</summary>
            <form class="row" data-testid="add-consumer-group" {onsubmit}>
                <label>{ lang.t(w::GROUP_NAME) }<input name="group" placeholder={next_name} /></label>
                <label>{ lang.t(w::TOPIC) }<input name="topic" value={props.topic.clone()} /></label>
                <label>{ lang.t(w::STRATEGY) }
                    <select name="strategy">
                        { for StrategyName::ALL.iter().map(|s| html!{ <option value={s.as_str()}>{ s.as_str() }</option> }) }
                    </select>
                </label>
                <label>{ lang.t(w::MEMBERS) }<input name="members" inputmode="numeric" value="2" /></label>
                <label>{ lang.t(w::RATE) }<input name="rate" inputmode="decimal" value="10" /></label>
                <label>{ lang.t(controls::ZONE_FIELD) }<input name="zone" placeholder="az1" /></label>
                <label><input type="checkbox" name="zone_mode" />{ lang.t(controls::ZONE_MODE_FIELD) }</label>
                <button class="primary" type="submit">{ lang.t(w::ADD) }</button>
            </form>
        </details>
    }
}

/// A member in the inspector: its group, state, next rebalance, the queues it reads with its offset
/// and the broker's, and its actions (kill, freeze, stop, restart, set its rate).
pub(crate) fn member_inspector(
    lang: Lang,
    on_apply: &Callback<Action>,
    sim: &Sim,
    m: usize,
) -> Html {
    let c = &sim.consumers()[m];
    let group = sim.consumer_groups()[c.group].spec.group.clone();
    let id = c.client_id.clone();
    let now = sim.now();
    let up = matches!(c.state, ConsumerState::Running | ConsumerState::Frozen);
    let button = |label: Phrase, action: Action, disabled: bool| {
        html! { <button onclick={click(on_apply, action)} {disabled}>{ lang.t(label) }</button> }
    };
    html! {
        <div class="inspect-consumer" data-testid="inspector-consumer" data-client={id.clone()}>
            <h3>{ id.clone() }<span class={classes!("badge", state_name(c.state))}>{ state_word(lang, c.state.into()) }</span></h3>
            <p class="hint">{ lang.fill(w::MEMBER_OF, &[("group", &group)]) }</p>
            <dl>
                <dt>{ lang.t(w::NEXT_REBALANCE) }</dt>
                <dd>{ c.next_rebalance.filter(|_| c.is_up()).map_or_else(|| "—".to_owned(), |t| fmt_secs(t.saturating_sub(now))) }</dd>
                <dt>{ lang.t(w::RATE) }</dt><dd>{ fmt_number(c.rate) }</dd>
            </dl>
            <p>{ lang.fill(w::CONSUMED_N, &[("n", &c.stats.consumed.to_string())]) }{ " · " }{ lang.fill(w::DUPLICATES_N, &[("n", &c.stats.duplicates.to_string())]) }</p>
            <h4>{ lang.t(w::ITS_QUEUES) }</h4>
            <table class="mini">
                <thead><tr><th>{ lang.t(w::QUEUE) }</th><th>{ lang.t(w::NEXT_OFFSET) }</th><th>{ lang.t(w::BROKER_OFFSET) }</th></tr></thead>
                <tbody>{ for c.owned.iter().map(|o| {
                    let max = sim.store(o.mq.broker_name.as_str()).map_or(0, |s| s.max_offset(o.mq.topic.as_str(), o.mq.queue_id));
                    html!{ <tr><td>{ format!("{} {}/{}", o.mq.topic.as_str(), o.mq.broker_name.as_str(), o.mq.queue_id) }</td><td>{ o.offset }</td><td>{ max }</td></tr> }
                }) }</tbody>
            </table>
            <div class="actions" title={lang.t(w::CONSUMER_ACTIONS_HINT)}>
                { button(w::KILL, Action::KillConsumer { client_id: id.clone() }, !up) }
                { button(w::FREEZE, Action::FreezeConsumer { client_id: id.clone() }, c.state != ConsumerState::Running) }
                { button(w::STOP, Action::StopConsumer { client_id: id.clone() }, c.state != ConsumerState::Running) }
                { button(w::RESTART, Action::RestartConsumer { client_id: id.clone() }, false) }
            </div>
            { rate_form(lang, on_apply, &id, c.rate) }
        </div>
    }
}

/// A member's rate, typed and set (read from the form when sent).
fn rate_form(lang: Lang, on_apply: &Callback<Action>, client_id: &str, rate: f64) -> Html {
    let onsubmit = {
        let id = client_id.to_owned();
        apply_some(on_apply, move |e: SubmitEvent| {
            e.prevent_default();
            let form = form_of(&e)?;
            Some(Action::SetConsumer {
                client_id: id.clone(),
                rate: parse_number(&read(&form, "rate")).unwrap_or(f64::NAN),
            })
        })
    };
    html! {
        <form class="row rate" data-testid="consumer-rate" {onsubmit}>
            <label>{ lang.t(w::RATE) }<input name="rate" inputmode="decimal" value={fmt_number(rate)} /></label>
            <button type="submit">{ lang.t(w::SET_RATE) }</button>
        </form>
    }
}
