//! The RocketMQ tables per live NameServer, as far as they can be known from outside:
//! brokerAddrTable and clusterAddrTable (GET_BROKER_CLUSTER_INFO), topicQueueTable and
//! filterServerTable rebuilt from the routes fetched, brokerLiveTable only when the source reports it.
//! And the mqadmin mirror: the text `clusterList` and `topicRoute` print for the same data.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use super::route::chosen_topic;
use super::LiveProps;
use crate::i18n::{live, Lang};
use crate::live::compare::has_data;
use crate::live::NamesrvView;
use crate::ui::fmt_secs;
use crate::ui::tables::{TopicRow, TopicRows, ROW_LIMIT};
use crate::view::mqadmin::{cluster_list, topic_route, BrokerRuntime, ClientOrder, ClusterLayout};

#[component]
pub fn LiveTables(props: &LiveProps) -> Html {
    let lang = props.lang;
    let filter = use_state(String::new);
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            filter.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let data = props.data.borrow();
    let f = filter.to_lowercase();
    let now = data.shown().server_time_ms;
    html! {
        <div class="tables">
            <label class="filter">{ lang.t(live::FILTER_TOPICS) }<input type="search" value={(*filter).clone()} oninput={on_filter} placeholder={lang.t(live::FILTER_EXAMPLE)} /></label>
            <div class="ns-tables">
            { for data.shown().namesrvs.iter().map(|v| {
                let matching = || v.routes.iter()
                    .filter(|(t, _)| f.is_empty() || t.to_lowercase().contains(&f))
                    .filter_map(|(t, e)| e.route.as_ref().map(|r| (t, r)));
                let rows: Vec<TopicRow> = matching()
                    .flat_map(|(t, r)| r.queue_datas.iter().map(move |qd| (t, qd)))
                    .take(ROW_LIMIT + 1)
                    .map(|(t, qd)| {
                        let key = format!("{}/{}/{}", v.addr, t, qd.broker_name);
                        TopicRow { changed: data.changed.contains(&key), key, topic: t.clone(), qd: qd.clone() }
                    })
                    .collect();
                let total: usize = matching().map(|(_, r)| r.queue_datas.len()).sum();
                let hidden = total.saturating_sub(ROW_LIMIT);
                let with_route = v.routes.values().filter(|e| e.route.is_some()).count();
                html! {
                    <div class="ns-table" data-namesrv={v.addr.clone()}>
                        <h3>{ v.addr.clone() }</h3>
                        { if has_data(v) { html!{} } else { html!{ <p class="hint">{ lang.t(live::NO_DATA_FROM_NAMESRV) }</p> } } }
                        <h4>{ lang.fill(live::TOPIC_QUEUE_TABLE_REBUILT, &[("topics", &with_route.to_string())]) }</h4>
                        <TopicRows rows={Rc::new(rows)} />
                        { if hidden > 0 { html!{ <p class="hint">{ lang.fill(live::MORE_ROWS, &[("hidden", &hidden.to_string())]) }</p> } } else { html!{} } }
                        <h4>{ "brokerAddrTable" }</h4>
                        <table><thead><tr><th>{"brokerName"}</th><th>{"cluster"}</th><th>{"brokerAddrs"}</th></tr></thead>
                        <tbody>{ for v.cluster.broker_addr_table.iter().map(|(name, bd)| html!{ <tr>
                            <td>{ name.to_string() }</td><td>{ bd.cluster.to_string() }</td>
                            <td>{ bd.broker_addrs.iter().map(|(id, a)| format!("{id}: {a}")).collect::<Vec<_>>().join(", ") }</td>
                        </tr> }) }</tbody></table>
                        <h4>{ "clusterAddrTable" }</h4>
                        <table><tbody>{ for v.cluster.cluster_addr_table.iter().map(|(c, names)| html!{ <tr>
                            <td>{ c.to_string() }</td><td>{ names.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ") }</td>
                        </tr> }) }</tbody></table>
                        <h4>{ "brokerLiveTable" }</h4>
                        { broker_live(v, now, lang) }
                        <h4>{ "filterServerTable" }</h4>
                        { filter_servers(v, lang) }
                    </div>
                }
            }) }
            </div>
        </div>
    }
}

fn broker_live(view: &NamesrvView, now: u64, lang: Lang) -> Html {
    match &view.broker_live {
        Some(table) => html! {
            <table><thead><tr><th>{"brokerAddr"}</th><th>{"lastUpdateTimestamp"}</th><th>{ lang.t(live::AGE) }</th><th>{ lang.t(live::TIMEOUT) }</th></tr></thead>
            <tbody>{ for table.iter().map(|(addr, l)| html!{ <tr>
                <td>{ addr.clone() }</td><td>{ l.last_update_ms }</td>
                <td>{ fmt_secs(now.saturating_sub(l.last_update_ms)) }</td><td>{ fmt_secs(l.timeout_ms) }</td>
            </tr> }) }</tbody></table>
        },
        None => html! {
            <p class="hint" data-testid="broker-live-unknown">{ lang.t(live::BROKER_LIVE_UNKNOWN) }</p>
        },
    }
}

/// filterServerTable as the routes carry it: broker address → filter servers.
fn filter_servers(view: &NamesrvView, lang: Lang) -> Html {
    let table: BTreeMap<&String, &Vec<String>> = view
        .routes
        .values()
        .filter_map(|e| e.route.as_ref())
        .flat_map(|r| r.filter_server_table.iter())
        .collect();
    if table.is_empty() {
        return html! { <p class="hint">{ lang.t(live::FILTER_SERVERS_EMPTY) }</p> };
    }
    html! {
        <table><tbody>{ for table.iter().map(|(addr, servers)| html!{ <tr>
            <td>{ (*addr).clone() }</td><td>{ servers.join(", ") }</td>
        </tr> }) }</tbody></table>
    }
}

/// What `mqadmin clusterList` and `mqadmin topicRoute -t T` print against each live NameServer.
#[component]
pub fn LiveMqadmin(props: &LiveProps) -> Html {
    let lang = props.lang;
    let data = props.data.borrow();
    let topic = chosen_topic(&data, props.topic.as_deref());
    html! {
        <div class="mqadmin">
            <p class="hint">{ lang.t(live::RUNTIME_COLUMNS_UNKNOWN) }</p>
            { for data.shown().namesrvs.iter().filter(|v| has_data(v)).map(|v| {
                let order = ClientOrder::sorted(&v.cluster);
                let text = cluster_list(&v.cluster, ClusterLayout::V5, &order, |_| BrokerRuntime::default());
                let route = match v.routes.get(&topic) {
                    Some(e) => topic_route(&topic, e.route.as_ref()),
                    None => lang.t(live::NOT_FETCHED_YET_LINE).to_owned(),
                };
                html! { <>
                    <h3><code>{ format!("$ mqadmin clusterList -n {}", v.addr) }</code></h3>
                    <pre class="terminal" tabindex="0">{ text }</pre>
                    <h3><code>{ format!("$ mqadmin topicRoute -t {topic} -n {}", v.addr) }</code></h3>
                    <pre class="terminal" tabindex="0">{ route }</pre>
                </> }
            }) }
        </div>
    }
}
