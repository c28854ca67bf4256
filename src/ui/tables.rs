//! The five RocketMQ tables per NameServer, named as in RocketMQ, with the rows that just changed
//! highlighted (long tables are windowed: every row is reachable by scrolling, only the visible ones
//! are rendered); and the mqadmin mirror.

use yew::prelude::*;

use super::panel::PanelProps;
use super::vlist::VirtualList;
use super::{contains_ci, fmt_secs};
use crate::i18n::{workshop, Lang};
use crate::model::perm::perm_to_string;
use crate::view::mqadmin::{cluster_list, topic_route, BrokerRuntime, ClientOrder, ClusterLayout};

/// Rows shown per table before asking for a filter.
pub(crate) const ROW_LIMIT: usize = 150;

/// `topicStatus -t` of each topic a consumer group reads, and `consumerProgress -g G -s true` of
/// each group, in mqadmin 4.9.8's layout.
fn consumer_commands(sim: &crate::sim::Sim) -> Html {
    use crate::view::mqadmin::consumer::{consumer_progress, topic_status};
    let ns = sim.namesrvs().first().map_or("ns-1", |n| n.name.as_str());
    let mut topics: Vec<&str> = sim
        .consumer_groups()
        .iter()
        .flat_map(|g| g.spec.topics.iter().map(String::as_str))
        .collect();
    crate::sort::sort_by(&mut topics, |a, b| a.cmp(b));
    topics.dedup();
    html! { <>
        { for topics.into_iter().map(|t| html!{ <>
            <h3><code>{ format!("$ mqadmin topicStatus -t {t} -n {ns}:9876") }</code></h3>
            <pre class="terminal" tabindex="0" data-testid="mqadmin-topic-status">{ topic_status(t, &sim.topic_status(t)) }</pre>
        </> }) }
        { for sim.consumer_groups().iter().map(|g| {
            let name = g.spec.group.as_str();
            let rows: Vec<_> = sim.consumer_progress(name).iter().map(|q| q.row()).collect();
            html!{ <>
                <h3><code>{ format!("$ mqadmin consumerProgress -g {name} -s true -n {ns}:9876") }</code></h3>
                <pre class="terminal" tabindex="0" data-testid="mqadmin-consumer-progress">{ consumer_progress(&rows, sim.consume_tps(name), true) }</pre>
            </> }
        }) }
    </> }
}

/// `getSyncStateSet` of each controller-mode group on the controllers' leader and
/// `getBrokerEpoch` of its brokers, in 5.3.3's layout.
fn controller_commands(sim: &crate::sim::Sim) -> Html {
    use crate::view::mqadmin::ha::{broker_epoch, sync_state_set};
    let Some(c) = sim.controller_leader() else {
        return html! {};
    };
    let leader = &sim.controllers()[c];
    let ns = sim.namesrvs().first().map_or("ns-1", |n| n.name.as_str());
    let now = sim.now();
    html! { <>{ for sim.replicas().groups().map(|g| {
        let alive = |id| leader.live.is_active(now, &crate::sim::replica_key(&g.cluster, &g.broker_name, id));
        let epochs: String = sim.brokers().iter()
            .filter(|b| b.spec.name == g.broker_name && b.is_up())
            .filter_map(|b| b.replica.as_ref().map(|r| broker_epoch(&b.spec.cluster, &b.spec.name, &b.addr, b.id(), &r.epochs, r.max_offset)))
            .collect();
        html! { <>
            <h3><code>{ format!("$ mqadmin getSyncStateSet -a {}:9878 -b {}", leader.name, g.broker_name) }</code></h3>
            <pre class="terminal" tabindex="0" data-testid="mqadmin-sync-state-set">{ sync_state_set(g, alive) }</pre>
            <h3><code>{ format!("$ mqadmin getBrokerEpoch -n {ns}:9876 -b {}", g.broker_name) }</code></h3>
            <pre class="terminal" tabindex="0" data-testid="mqadmin-broker-epoch">{ epochs }</pre>
        </> }
    }) }</> }
}

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
    pub rows: std::rc::Rc<Vec<TopicRow>>,
    /// The language of the column headers.
    #[prop_or_default]
    pub lang: Lang,
}

/// The rows of topicQueueTable. Its own component so a clock tick that changed no row re-renders
/// nothing here (the props compare equal).
#[component]
pub(crate) fn TopicRows(props: &TopicRowsProps) -> Html {
    let lang = props.lang;
    html! {
        <table><thead><tr><th>{"topic"}</th><th>{"brokerName"}</th><th>{ lang.t(workshop::COLUMN_READ) }</th><th>{ lang.t(workshop::COLUMN_WRITE) }</th><th>{"perm"}</th><th>{"topicSysFlag"}</th></tr></thead>
        <tbody>{ for props.rows.iter().take(ROW_LIMIT).map(|r| html!{
            <tr key={r.key.clone()} class={classes!(r.changed.then_some("changed"))}>
                <td>{ r.topic.clone() }</td><td>{ r.qd.broker_name.to_string() }</td><td>{ r.qd.read_queue_nums }</td>
                <td>{ r.qd.write_queue_nums }</td><td>{ format!("{} ({})", perm_to_string(r.qd.perm), r.qd.perm) }</td><td>{ r.qd.topic_sys_flag }</td>
            </tr>
        }) }</tbody></table>
    }
}

/// Row height of the windowed tables, px (`.vtable tr` in style.css).
const ROW_PX: u32 = 24;
/// Viewport of the topicQueueTable, px (about 16 rows).
const TOPICS_PX: u32 = 400;
/// Viewport of brokerAddrTable and brokerLiveTable, px (about 10 rows).
const BROKERS_PX: u32 = 260;

fn head(cols: &[&str]) -> Html {
    html! { <thead><tr>{ for cols.iter().map(|c| html!{ <th>{ *c }</th> }) }</tr></thead> }
}

#[component]
pub fn TablesView(props: &PanelProps) -> Html {
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
    let lang = props.lang;
    let sim = props.sim.sim();
    let f = filter.to_ascii_lowercase();
    html! {
        <div class="tables">
            <label class="filter">{ lang.t(workshop::FILTER_TOPICS) }{ " " }<input type="search" value={(*filter).clone()} oninput={on_filter} placeholder={lang.t(workshop::FILTER_EXAMPLE)} /></label>
            <div class="ns-tables">
            { for (0..sim.namesrvs().len()).map(|i| html! {
                <NsTables tables={props.clone()} ns={i} filter={f.clone()} />
            }) }
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct NsTablesProps {
    tables: PanelProps,
    ns: usize,
    /// Lowercase.
    filter: String,
}

/// One NameServer's tables. brokerLiveTable's ages change on every frame; the other tables' rows
/// (and topicQueueTable's row count, a walk over every topic) are recomputed only when the reducer
/// says a table changed (`tables_version`), so a frame of plain heartbeats re-renders only them.
#[component]
fn NsTables(props: &NsTablesProps) -> Html {
    let (tables, i) = (&props.tables, props.ns);
    let tables_key = (tables.sim.run_id(), tables.tables_version);
    let key = (tables_key.0, tables_key.1, props.filter.clone());
    let total = *use_memo(key.clone(), |(_, _, f)| {
        tables.sim.sim().namesrvs().get(i).map_or(0, |ns| {
            ns.manager
                .topic_queue_table()
                .iter()
                .filter(|(t, _)| contains_ci(t.as_str(), f))
                .map(|(_, g)| g.len())
                .sum::<usize>()
        })
    });
    let topic_cb = (*use_memo(key.clone(), |(_, _, f)| topic_rows(tables, i, f.clone()))).clone();
    let addr_cb = (*use_memo(tables_key, |_| addr_rows(tables, i))).clone();
    let sim = tables.sim.sim();
    let Some(ns) = sim.namesrvs().get(i) else {
        return html! {};
    };
    let m = &ns.manager;
    let lang = tables.lang;
    let (read, write) = (
        lang.t(workshop::COLUMN_READ),
        lang.t(workshop::COLUMN_WRITE),
    );
    let (age, timeout) = (
        lang.t(workshop::COLUMN_AGE),
        lang.t(workshop::COLUMN_TIMEOUT),
    );
    html! {
        <div class="ns-table" data-namesrv={ns.name.clone()}>
            <h3>{ ns.name.clone() }</h3>
            <h4>{ lang.fill(workshop::TOPIC_QUEUE_TABLE_COUNTS, &[("topics", &m.topic_queue_table().len().to_string()), ("rows", &total.to_string())]) }</h4>
            <VirtualList len={total} row_height={ROW_PX} viewport={TOPICS_PX} testid="topic-queue-table"
                head={head(&["topic", "brokerName", read, write, "perm", "topicSysFlag"])}
                rows={topic_cb} />
            <h4>{ lang.fill(workshop::BROKER_ADDR_TABLE_COUNTS, &[("n", &m.broker_addr_table().len().to_string())]) }</h4>
            <VirtualList len={m.broker_addr_table().len()} row_height={ROW_PX} viewport={BROKERS_PX}
                testid="broker-addr-table" head={head(&["brokerName", "cluster", "brokerAddrs"])}
                rows={addr_cb} />
            <h4>{ "clusterAddrTable" }</h4>
            <table><tbody>{ for m.cluster_addr_table().iter().map(|(c, names)| html!{ <tr>
                <td>{ c.to_string() }</td><td>{ names.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ") }</td>
            </tr> }) }</tbody></table>
            <h4>{ lang.fill(workshop::BROKER_LIVE_TABLE_COUNTS, &[("n", &m.broker_live_table().len().to_string())]) }</h4>
            <VirtualList len={m.broker_live_table().len()} row_height={ROW_PX} viewport={BROKERS_PX}
                testid="broker-live-table"
                head={head(&["brokerAddr", "lastUpdateTimestamp", age, timeout, "dataVersion", "haServerAddr"])}
                rows={live_rows(tables, i)} />
            <h4>{ "filterServerTable" }</h4>
            <p class="hint">{ if m.filter_server_table().is_empty() { lang.t(workshop::FILTER_SERVERS_EMPTY) } else { "" } }</p>
        </div>
    }
}

/// The topicQueueTable rows of NameServer `ns` in a range (topics matching `filter`, each group a row).
fn topic_rows(
    tables: &PanelProps,
    ns: usize,
    filter: String,
) -> Callback<std::ops::Range<usize>, Html> {
    let tables = tables.clone();
    Callback::from(move |range: std::ops::Range<usize>| {
        let sim = tables.sim.sim();
        let Some(n) = sim.namesrvs().get(ns) else {
            return html! {};
        };
        let rows = n
            .manager
            .topic_queue_table()
            .iter()
            .filter(|(t, _)| contains_ci(t.as_str(), &filter))
            .flat_map(|(t, groups)| groups.values().map(move |qd| (t, qd)))
            .skip(range.start)
            .take(range.len());
        html! { <>{ for rows.map(|(t, qd)| {
            let key = format!("{}/{}/{}", n.name, t, qd.broker_name);
            let changed = tables.changed.contains(&key);
            html!{
                <tr key={key} class={classes!(changed.then_some("changed"))}>
                    <td>{ t.to_string() }</td><td>{ qd.broker_name.to_string() }</td><td>{ qd.read_queue_nums }</td>
                    <td>{ qd.write_queue_nums }</td><td>{ format!("{} ({})", perm_to_string(qd.perm), qd.perm) }</td><td>{ qd.topic_sys_flag }</td>
                </tr>
            }
        }) }</> }
    })
}

/// The brokerAddrTable rows of NameServer `ns` in a range.
fn addr_rows(tables: &PanelProps, ns: usize) -> Callback<std::ops::Range<usize>, Html> {
    let tables = tables.clone();
    Callback::from(move |range: std::ops::Range<usize>| {
        let sim = tables.sim.sim();
        let Some(n) = sim.namesrvs().get(ns) else {
            return html! {};
        };
        let rows = n
            .manager
            .broker_addr_table()
            .iter()
            .skip(range.start)
            .take(range.len());
        html! { <>{ for rows.map(|(name, bd)| html!{ <tr key={name.to_string()}>
            <td>{ name.to_string() }</td><td>{ bd.cluster.to_string() }</td>
            <td>{ bd.broker_addrs.iter().map(|(id, a)| format!("{id}: {a}")).collect::<Vec<_>>().join(", ") }</td>
        </tr> }) }</> }
    })
}

/// The brokerLiveTable rows of NameServer `ns` in a range.
fn live_rows(tables: &PanelProps, ns: usize) -> Callback<std::ops::Range<usize>, Html> {
    let tables = tables.clone();
    Callback::from(move |range: std::ops::Range<usize>| {
        let sim = tables.sim.sim();
        let now = sim.now();
        let Some(n) = sim.namesrvs().get(ns) else {
            return html! {};
        };
        let rows = n
            .manager
            .broker_live_table()
            .iter()
            .skip(range.start)
            .take(range.len());
        html! { <>{ for rows.map(|(k, l)| {
            let key = format!("{}/{}", n.name, k.broker_addr);
            let changed = tables.changed.contains(&key);
            html!{ <tr key={key} class={classes!(changed.then_some("changed"))}>
                <td>{ if k.cluster_name.as_str().is_empty() { k.broker_addr.to_string() } else { format!("{} ({})", k.broker_addr, k.cluster_name) } }</td>
                <td>{ l.last_update_timestamp }</td><td>{ fmt_secs(now.saturating_sub(l.last_update_timestamp)) }</td>
                <td>{ fmt_secs(l.heartbeat_timeout_millis) }</td><td>{ format!("counter {}", l.data_version.counter) }</td><td>{ l.ha_server_addr.clone() }</td>
            </tr> }
        }) }</> }
    })
}

/// What `mqadmin clusterList` and `mqadmin topicRoute -t T` print against each NameServer.
#[component]
pub fn MqadminView(props: &PanelProps) -> Html {
    let sim = props.sim.sim();
    let version = match sim.scenario().profile {
        crate::namesrv::Profile::V4 => "V4_9_8",
        crate::namesrv::Profile::V5 => "V5_3_3",
    };
    html! {
        <div class="mqadmin">
            <p class="hint">{ props.lang.t(workshop::MQADMIN_RUNTIME_HINT) }</p>
            { for sim.namesrvs().iter().map(|ns| {
                let info = ns.manager.get_all_cluster_info();
                let layout = ClusterLayout::for_profile(ns.manager.profile());
                let order = ClientOrder::of_manager(&ns.manager);
                let text = cluster_list(&info, layout, &order, |addr| {
                    let up = sim.brokers().iter().any(|b| b.addr == addr && b.is_up());
                    BrokerRuntime { version: if up { version.into() } else { String::new() }, active: up }
                });
                // What mqadmin decodes: the route with its lists in the NameServer's Java order.
                let route = ns.manager.route_as_sent(&props.topic);
                html! { <>
                    <h3><code>{ format!("$ mqadmin clusterList -n {}:9876", ns.name) }</code></h3>
                    <pre class="terminal" tabindex="0">{ text }</pre>
                    <h3><code>{ format!("$ mqadmin topicRoute -t {} -n {}:9876", props.topic, ns.name) }</code></h3>
                    <pre class="terminal" tabindex="0">{ topic_route(&props.topic, route.as_ref()) }</pre>
                </> }
            }) }
            { consumer_commands(&sim) }
            { controller_commands(&sim) }
        </div>
    }
}
