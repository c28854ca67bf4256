//! The chosen topic's route as each live NameServer last answered it: the decoded table and the JSON
//! (same markup and hooks as the simulator's route view), with how old each answer is and whether the
//! NameServers disagree.

use std::rc::Rc;

use yew::prelude::*;

use super::data::LiveData;
use super::LiveProps;
use crate::i18n::{live, Lang};
use crate::live::compare::{has_data, route_differs};
use crate::live::topics::is_system_topic;
use crate::live::NamesrvView;
use crate::ui::fmt_secs;
use crate::ui::route::{route_table, TopicSelect};

fn is_system(data: &LiveData, topic: &str) -> bool {
    is_system_topic(
        topic,
        data.known
            .values()
            .flat_map(|m| [m.cluster.as_str(), m.name.as_str()]),
    )
}

/// The chosen topic, else the first user topic, else the first topic.
pub fn chosen_topic(data: &LiveData, chosen: Option<&str>) -> String {
    chosen
        .map(str::to_owned)
        .or_else(|| {
            let topics = data.topics();
            topics
                .iter()
                .find(|t| !is_system(data, t))
                .or(topics.first())
                .cloned()
        })
        .unwrap_or_else(|| "TBW102".into())
}

#[component]
pub fn LiveRoute(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    let topic = chosen_topic(&data, props.topic.as_deref());
    let mut topics = data.topics();
    // A topic chosen earlier that no NameServer knows any more stays choosable.
    if let Err(at) = topics.binary_search(&topic) {
        Rc::make_mut(&mut topics).insert(at, topic.clone());
    }
    let disagree = route_differs(&data.shown().namesrvs, &topic);
    let on_select = props.on_select_topic.clone();
    html! {
        <section class="panel route" aria-label={lang.t(live::TOPIC_ROUTE)}>
            <h2>{ lang.t(live::TOPIC_ROUTE_HEADING) }
                <TopicSelect topics={topics} selected={topic.clone()} on_select={on_select} />
                { if disagree { html!{ <span class="badge disagree" data-testid="route-disagree">{ lang.t(live::NAMESRVS_DISAGREE) }</span> } } else { html!{} } }
            </h2>
            <div class="route-columns" data-testid="route-view" data-topic={topic.clone()}>
                { for data.shown().namesrvs.iter().map(|v| column(v, &topic, data.shown().server_time_ms, lang)) }
            </div>
            <p class="hint">{ lang.t(live::PRODUCERS_CACHE_ROUTES) }</p>
        </section>
    }
}

/// One NameServer's answer for `topic`.
fn column(view: &NamesrvView, topic: &str, now: u64, lang: Lang) -> Html {
    let entry = view.routes.get(topic);
    let body = match entry {
        _ if !has_data(view) => {
            html! { <p class="hint">{ lang.t(live::NO_DATA_FROM_NAMESRV) }</p> }
        }
        None if !view.topics.contains(topic) => {
            html! { <p class="gone">{ lang.t(live::TOPIC_NOT_IN_LIST) }</p> }
        }
        None => html! { <p class="hint">{ lang.t(live::NOT_FETCHED_YET) }</p> },
        Some(e) => match &e.route {
            Some(r) => route_table(r),
            None => html! { <p class="gone">{ lang.t(live::TOPIC_NO_ROUTE) }</p> },
        },
    };
    let json = entry
        .and_then(|e| e.route.as_ref())
        .and_then(|r| serde_json::to_string_pretty(r).ok())
        .unwrap_or_else(|| "null".into());
    html! {
        <div class="route-ns" data-namesrv={view.addr.clone()}>
            <h3>{ view.addr.clone() }</h3>
            { for entry.map(|e| html!{
                <p class="timer">{ lang.fill(live::FETCHED_BEFORE_UPDATE, &[("age", &fmt_secs(now.saturating_sub(e.fetched_at_ms)))]) }</p>
            }) }
            { for entry.and_then(|e| e.error.clone()).map(|err| html!{
                <p class="error">{ lang.fill(live::LAST_FETCH_FAILED, &[("error", &err)]) }</p>
            }) }
            { body }
            <details><summary>{ lang.t(live::JSON_A_CLIENT_RECEIVES) }</summary><pre class="json" tabindex="0">{ json }</pre></details>
        </div>
    }
}
