//! The five RocketMQ tables per NameServer, named as in RocketMQ, with the rows that just changed
//! highlighted; and the mqadmin mirror.

use std::rc::Rc;

use yew::prelude::*;

use super::{fmt_secs, Store};
use crate::model::perm::perm_to_string;
use crate::view::mqadmin::{cluster_list, topic_route, BrokerRuntime};

/// Rows shown per table before asking for a filter.
pub(crate) const ROW_LIMIT: usize = 150;

/// One row of a topicQueueTable view (simulator and live mode).
#[derive(Clone, PartialEq)]
pub(crate) struct TopicRow {
    pub key: String,
    pub topic: String,
    pub qd: crate::model::QueueData,
    pub changed: bool,
}

#[derive(Properties, PartialEq)]
pub(crate) struct TopicRowsProps {
    pub rows: Rc<Vec<TopicRow>>,
}

/// The rows of topicQueueTable. Its own component so a clock tick that changed no row re-renders
/// nothing here (the props compare equal).
#[component]
pub(crate) fn TopicRows(props: &TopicRowsProps) -> Html {
    html! {
        <table><thead><tr><th>{"topic"}</th><th>{"brokerName"}</th><th>{"read"}</th><th>{"write"}</th><th>{"perm"}</th><th>{"topicSysFlag"}</th></tr></thead>
        <tbody>{ for props.rows.iter().take(ROW_LIMIT).map(|r| html!{
            <tr key={r.key.clone()} class={classes!(r.changed.then_some("changed"))}>
                <td>{ r.topic.clone() }</td><td>{ r.qd.broker_name.to_string() }</td><td>{ r.qd.read_queue_nums }</td>
                <td>{ r.qd.write_queue_nums }</td><td>{ format!("{} ({})", perm_to_string(r.qd.perm), r.qd.perm) }</td><td>{ r.qd.topic_sys_flag }</td>
            </tr>
        }) }</tbody></table>
    }
}

#[derive(Properties, PartialEq)]
pub struct TablesViewProps {
    pub store: Store,
}

#[component]
pub fn TablesView(props: &TablesViewProps) -> Html {
    let store = &props.store;
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
    let sim = store.sim.borrow();
    let now = sim.now();
    let f = filter.to_lowercase();
    html! {
        <div class="tables">
            <label class="filter">{ "filter topics " }<input type="search" value={(*filter).clone()} oninput={on_filter} placeholder="e.g. TopicTest" /></label>
            <div class="ns-tables">
            { for sim.namesrvs().iter().map(|ns| {
                let m = &ns.manager;
                let rows: Vec<TopicRow> = m.topic_queue_table().iter()
                    .filter(|(t, _)| f.is_empty() || t.as_str().to_lowercase().contains(&f))
                    .flat_map(|(t, groups)| groups.values().map(move |qd| (t, qd)))
                    .take(ROW_LIMIT + 1)
                    .map(|(t, qd)| {
                        let key = format!("{}/{}/{}", ns.name, t, qd.broker_name);
                        TopicRow { changed: store.changed.contains(&key), key, topic: t.to_string(), qd: qd.clone() }
                    })
                    .collect();
                let total: usize = m.topic_queue_table().iter()
                    .filter(|(t, _)| f.is_empty() || t.as_str().to_lowercase().contains(&f))
                    .map(|(_, g)| g.len())
                    .sum();
                let hidden = total.saturating_sub(ROW_LIMIT);
                html! {
                    <div class="ns-table" data-namesrv={ns.name.clone()}>
                        <h3>{ ns.name.clone() }</h3>
                        <h4>{ format!("topicQueueTable ({} topics)", m.topic_queue_table().len()) }</h4>
                        <TopicRows rows={Rc::new(rows)} />
                        { if hidden > 0 { html!{ <p class="hint">{ format!("{hidden} more rows: type in the filter to narrow") }</p> } } else { html!{} } }
                        <h4>{ "brokerAddrTable" }</h4>
                        <table><thead><tr><th>{"brokerName"}</th><th>{"cluster"}</th><th>{"brokerAddrs"}</th></tr></thead>
                        <tbody>{ for m.broker_addr_table().iter().map(|(name, bd)| html!{ <tr>
                            <td>{ name.to_string() }</td><td>{ bd.cluster.to_string() }</td>
                            <td>{ bd.broker_addrs.iter().map(|(id, a)| format!("{id}: {a}")).collect::<Vec<_>>().join(", ") }</td>
                        </tr> }) }</tbody></table>
                        <h4>{ "clusterAddrTable" }</h4>
                        <table><tbody>{ for m.cluster_addr_table().iter().map(|(c, names)| html!{ <tr>
                            <td>{ c.to_string() }</td><td>{ names.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ") }</td>
                        </tr> }) }</tbody></table>
                        <h4>{ "brokerLiveTable" }</h4>
                        <table><thead><tr><th>{"brokerAddr"}</th><th>{"lastUpdateTimestamp"}</th><th>{"age"}</th><th>{"timeout"}</th><th>{"dataVersion"}</th><th>{"haServerAddr"}</th></tr></thead>
                        <tbody>{ for m.broker_live_table().iter().map(|(k, l)| {
                            let key = format!("{}/{}", ns.name, k.broker_addr);
                            html!{ <tr class={classes!(store.changed.contains(&key).then_some("changed"))}>
                                <td>{ if k.cluster_name.as_str().is_empty() { k.broker_addr.to_string() } else { format!("{} ({})", k.broker_addr, k.cluster_name) } }</td>
                                <td>{ l.last_update_timestamp }</td><td>{ fmt_secs(now.saturating_sub(l.last_update_timestamp)) }</td>
                                <td>{ fmt_secs(l.heartbeat_timeout_millis) }</td><td>{ format!("counter {}", l.data_version.counter) }</td><td>{ l.ha_server_addr.clone() }</td>
                            </tr> }
                        }) }</tbody></table>
                        <h4>{ "filterServerTable" }</h4>
                        <p class="hint">{ if m.filter_server_table().is_empty() { "empty (filter servers are a legacy feature)" } else { "" } }</p>
                    </div>
                }
            }) }
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct MqadminViewProps {
    pub store: Store,
}

/// What `mqadmin clusterList` and `mqadmin topicRoute -t T` print against each NameServer.
#[component]
pub fn MqadminView(props: &MqadminViewProps) -> Html {
    let store = &props.store;
    let sim = store.sim.borrow();
    let version = match sim.scenario().profile {
        crate::namesrv::Profile::V4 => "V4_9_8",
        crate::namesrv::Profile::V5 => "V5_3_3",
    };
    html! {
        <div class="mqadmin">
            <p class="hint">{ "Runtime columns (TPS, timer, disk) are not simulated and read as an idle broker's." }</p>
            { for sim.namesrvs().iter().map(|ns| {
                let info = ns.manager.get_all_cluster_info();
                let text = cluster_list(&info, |addr| {
                    let up = sim.brokers().iter().any(|b| b.addr == addr && b.is_up());
                    BrokerRuntime { version: if up { version.into() } else { String::new() }, active: up }
                });
                let route = ns.manager.pickup_topic_route_data(&store.topic);
                html! { <>
                    <h3><code>{ format!("$ mqadmin clusterList -n {}:9876", ns.name) }</code></h3>
                    <pre class="terminal">{ text }</pre>
                    <h3><code>{ format!("$ mqadmin topicRoute -t {} -n {}:9876", store.topic, ns.name) }</code></h3>
                    <pre class="terminal">{ topic_route(&store.topic, route.as_ref()) }</pre>
                </> }
            }) }
        </div>
    }
}
