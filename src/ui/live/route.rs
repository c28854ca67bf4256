//! The chosen topic's route as each live NameServer last answered it: the decoded table and the JSON
//! (same markup and hooks as the simulator's route view), with how old each answer is and whether the
//! NameServers disagree.

use std::collections::BTreeSet;
use std::rc::Rc;

use yew::prelude::*;

use super::data::LiveData;
use super::state::LiveMsg;
use super::LiveProps;
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

/// Every topic any NameServer lists or has a route for.
fn all_topics(data: &LiveData) -> BTreeSet<&str> {
    data.state
        .namesrvs
        .iter()
        .flat_map(|v| v.topics.iter().chain(v.routes.keys()))
        .map(String::as_str)
        .collect()
}

/// The chosen topic, else the first user topic, else the first topic.
pub fn chosen_topic(data: &LiveData, chosen: Option<&str>) -> String {
    let topics = all_topics(data);
    chosen
        .map(str::to_owned)
        .or_else(|| {
            topics
                .iter()
                .find(|t| !is_system(data, t))
                .or(topics.iter().next())
                .map(|t| (*t).to_owned())
        })
        .unwrap_or_else(|| "TBW102".into())
}

#[component]
pub fn LiveRoute(props: &LiveProps) -> Html {
    let store = &props.store;
    let data = store.data.borrow();
    let topic = chosen_topic(&data, store.topic.as_deref());
    let mut topics = all_topics(&data);
    topics.insert(&topic);
    let topics: Rc<Vec<String>> = Rc::new(topics.into_iter().map(str::to_owned).collect());
    let disagree = route_differs(&data.state.namesrvs, &topic);
    let on_select = {
        let store = store.clone();
        Callback::from(move |t: String| store.dispatch(LiveMsg::SelectTopic(t)))
    };
    html! {
        <section class="panel route" aria-label="topic route">
            <h2>{ "Topic route " }
                <TopicSelect topics={topics} selected={topic.clone()} on_select={on_select} />
                { if disagree { html!{ <span class="badge disagree" data-testid="route-disagree">{ "NameServers disagree" }</span> } } else { html!{} } }
            </h2>
            <div class="route-columns" data-testid="route-view" data-topic={topic.clone()}>
                { for data.state.namesrvs.iter().map(|v| column(v, &topic, data.state.server_time_ms)) }
            </div>
            <p class="hint">{ "Producers' cached copies are not visible from outside a client: each re-pulls its routes every 30 s (pollNameServerInterval), so it can hold an older route than shown here." }</p>
        </section>
    }
}

/// One NameServer's answer for `topic`.
fn column(view: &NamesrvView, topic: &str, now: u64) -> Html {
    let entry = view.routes.get(topic);
    let body = match entry {
        _ if !has_data(view) => {
            html! { <p class="hint">{ "no data from this NameServer yet" }</p> }
        }
        None if !view.topics.contains(topic) => {
            html! { <p class="gone">{ "TOPIC_NOT_EXIST (code 17): not in its topic list" }</p> }
        }
        None => html! { <p class="hint">{ "not fetched yet" }</p> },
        Some(e) => match &e.route {
            Some(r) => route_table(r),
            None => html! { <p class="gone">{ "TOPIC_NOT_EXIST (code 17): no route" }</p> },
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
                <p class="timer">{ format!("fetched {} before the last update", fmt_secs(now.saturating_sub(e.fetched_at_ms))) }</p>
            }) }
            { for entry.and_then(|e| e.error.clone()).map(|err| html!{
                <p class="error">{ format!("last fetch failed: {err}; showing the last good answer") }</p>
            }) }
            { body }
            <details><summary>{ "JSON a client receives" }</summary><pre class="json">{ json }</pre></details>
        </div>
    }
}
