//! The chosen topic's route as each NameServer returns it (decoded table and the JSON a client
//! receives) next to each producer's cached copy and its age, so staleness is visible.

use std::rc::Rc;

use yew::prelude::*;

use super::fmt_secs;
use super::panel::PanelProps;
use super::topic_picker::TopicPicker;
use crate::i18n::{workshop, Lang};

/// Above this many topics the chooser is a search field over a windowed list instead of a `<select>`.
const PICKER_FROM: usize = 300;
use crate::model::perm::perm_to_string;
use crate::model::TopicRouteData;

/// The decoded route in English, for live mode's page until it passes its language
/// ([`route_table_in`]).
pub(crate) fn route_table(route: &TopicRouteData) -> Html {
    route_table_in(route, Lang::En)
}

/// The decoded route: one row per broker group, with its master and its queues and perm.
pub(crate) fn route_table_in(route: &TopicRouteData, lang: Lang) -> Html {
    let mut qds = route.queue_datas.clone();
    crate::sort::sort_by(&mut qds, |a, b| a.broker_name.cmp(&b.broker_name));
    html! {
        <table class="route-table">
            <thead><tr><th>{ "brokerName" }</th><th>{ lang.t(workshop::MASTER_ID_0) }</th><th>{ "R" }</th><th>{ "W" }</th><th>{ "perm" }</th></tr></thead>
            <tbody>
            { for qds.iter().map(|qd| {
                let master = route.broker_data(qd.broker_name.as_str()).and_then(|b| b.master_addr()).map(|a| a.to_string());
                let writable = qd.is_writeable() && master.is_some();
                html! {
                    <tr class={classes!((!writable).then_some("not-writable"))}>
                        <td>{ qd.broker_name.to_string() }</td>
                        <td>{ master.unwrap_or_else(|| lang.t(workshop::NO_MASTER_SKIPPED).into()) }</td>
                        <td>{ qd.read_queue_nums }</td>
                        <td>{ qd.write_queue_nums }</td>
                        <td title={format!("perm {}", qd.perm)}>{ perm_to_string(qd.perm) }</td>
                    </tr>
                }
            }) }
            </tbody>
        </table>
    }
}

#[derive(Properties)]
pub(crate) struct TopicSelectProps {
    pub topics: Rc<Vec<String>>,
    pub selected: String,
    pub on_select: Callback<String>,
}

impl PartialEq for TopicSelectProps {
    /// The callback is made anew on every tick; the list changes only when topics come or go.
    /// Comparing the list (not the callback) lets Yew skip re-rendering a thousand options per tick.
    fn eq(&self, other: &Self) -> bool {
        self.selected == other.selected && self.topics == other.topics
    }
}

/// The topic chooser: one option per topic any NameServer knows (simulator and live mode).
#[component]
pub(crate) fn TopicSelect(props: &TopicSelectProps) -> Html {
    let on_topic = props.on_select.reform(|e: Event| {
        e.target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
    });
    html! {
        <select onchange={on_topic} aria-label="topic">
            { for props.topics.iter().map(|t| html! {
                <option key={t.clone()} value={t.clone()} selected={*t == props.selected}>{ t.clone() }</option>
            }) }
        </select>
    }
}

#[component]
pub fn RouteView(props: &PanelProps) -> Html {
    let lang = props.lang;
    let sim = props.sim.sim();
    let topic = props.topic.clone();
    // Rebuilt only when topics come or go (not on every tick: 10,000 topics on two NameServers).
    let topics: Rc<Vec<String>> = use_memo((props.sim.run_id(), props.topics_version), |_| {
        // Each NameServer's table is in topic order: merged by a sort and dedup of the names, not
        // a `BTreeSet` (its code, once more in the bundle).
        let mut topics: Vec<&str> = Vec::new();
        for ns in sim.namesrvs() {
            topics.extend(
                ns.manager
                    .topic_queue_table()
                    .iter()
                    .map(|(t, _)| t.as_str()),
            );
        }
        crate::sort::sort_by(&mut topics, |a, b| a.cmp(b));
        topics.dedup();
        topics
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<String>>()
    });
    let on_select = props.on_topic.clone();
    let chooser = if topics.len() > PICKER_FROM {
        html! { <TopicPicker topics={topics} selected={topic.clone()} {lang} on_choose={on_select} /> }
    } else {
        let topics = if topics.binary_search(&topic).is_ok() {
            topics
        } else {
            let mut with = (*topics).clone();
            with.push(topic.clone());
            crate::sort::sort_by(&mut with, Ord::cmp);
            Rc::new(with)
        };
        html! { <TopicSelect topics={topics} selected={topic.clone()} on_select={on_select} /> }
    };
    let routes: Vec<(String, Option<TopicRouteData>)> = sim
        .namesrvs()
        .iter()
        .map(|ns| {
            (
                ns.name.clone(),
                ns.manager
                    .pickup_topic_route_data(&topic)
                    .map(|r| r.sorted()),
            )
        })
        .collect();
    let disagree = routes.windows(2).any(|w| w[0].1 != w[1].1);
    // The bytes each NameServer writes for a client that asks for standard JSON (every 4.9.4+ and
    // 5.x Java client): Java's order, as `routelab namesrv` sends them.
    let bodies: Vec<String> = sim
        .namesrvs()
        .iter()
        .map(|ns| {
            ns.manager
                .route_body(&topic, crate::namesrv::JsonForm::Standard)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_else(|| lang.t(workshop::NO_BODY_TOPIC_NOT_EXIST).into())
        })
        .collect();
    let senders: Vec<_> = sim
        .producers()
        .iter()
        .filter(|p| p.active && p.spec.topic == topic)
        .collect();
    let now = sim.now();
    html! {
        <section class="panel route" aria-label={lang.t(workshop::TOPIC_ROUTE_LABEL)}>
            <h2>{ lang.t(workshop::TOPIC_ROUTE) }{ " " }
                { chooser }
                { if disagree { html!{ <span class="badge disagree">{ lang.t(workshop::NAMESRVS_DISAGREE) }</span> } } else { html!{} } }
            </h2>
            <div class="route-columns" data-testid="route-view" data-topic={topic.clone()}>
            { for routes.iter().zip(&bodies).map(|((ns, route), json)| {
                html! {
                    <div class="route-ns" data-namesrv={ns.clone()}>
                        <h3>{ ns.clone() }</h3>
                        { match route {
                            Some(r) => route_table_in(r, lang),
                            None => html!{ <p class="gone">{ lang.t(workshop::TOPIC_NOT_EXIST_NO_ROUTE) }</p> },
                        } }
                        <details><summary>{ lang.t(workshop::JSON_A_CLIENT_RECEIVES) }</summary>
                            <p class="hint">{ lang.t(workshop::JSON_WIRE_HINT) }</p>
                            <pre class="json wire" tabindex="0">{ json.clone() }</pre></details>
                    </div>
                }
            }) }
            </div>
            <h3>{ lang.t(workshop::CACHED_COPIES) }</h3>
            <ul class="cached">
            { if senders.is_empty() {
                html!{ <li class="none">{ lang.fill(workshop::NO_PRODUCER_SENDS_TO, &[("topic", &topic)]) }</li> }
            } else { html!{} } }
            { for senders.iter().map(|p| {
                let ns = p.namesrv().and_then(|i| sim.namesrvs().get(i)).map(|n| n.name.clone()).unwrap_or_else(|| lang.t(workshop::NO_NAMESRV_YET).into());
                let age = p.route_fetched_at().map(|t| lang.fill(workshop::FETCHED_AGO, &[("age", &fmt_secs(now.saturating_sub(t)))])).unwrap_or_else(|| lang.t(workshop::NOT_FETCHED_YET).into());
                let cached = p.info.as_ref().map(|i| i.topic_route_data.sorted());
                let fresh = routes.iter().find(|(n, _)| *n == ns).map(|(_, r)| r.clone());
                let stale = matches!((&cached, &fresh), (Some(c), Some(Some(f))) if c != f) || matches!((&cached, &fresh), (Some(_), Some(None)));
                let brokers: Vec<String> = cached.as_ref().map(|c| c.broker_datas.iter().map(|b| b.broker_name.to_string()).collect()).unwrap_or_default();
                html! {
                    <li class={classes!(stale.then_some("stale"))}>
                        <b>{ p.spec.group.clone() }</b>{ lang.fill(workshop::CACHED_VIA, &[("ns", &ns), ("age", &age)]) }
                        { if brokers.is_empty() { lang.t(workshop::NO_ROUTE).to_owned() } else { brokers.join(", ") } }
                        { if stale { html!{ <span class="badge stale" title={lang.t(workshop::STALE_HINT)}>{ lang.t(workshop::STALE) }</span> } } else { html!{} } }
                        <span class="timer">{ p.next_poll.map(|t| lang.fill(workshop::NEXT_POLL_IN, &[("t", &fmt_secs(t.saturating_sub(now)))])).unwrap_or_default() }</span>
                    </li>
                }
            }) }
            </ul>
        </section>
    }
}
