//! Live mode's component tests in headless Chromium: the bridge's messages fed into the live store
//! (as the socket would), and what the page then shows — freshness, a failing NameServer keeping its
//! last data, disagreement marks, heartbeat ages unknown without brokerLiveTable, the mqadmin mirror,
//! resync on a gap, reconnect backoff, the page's bridge URL rules, "Fork into simulator", and
//! the broker buttons of `routelab demo`.
#![cfg(target_arch = "wasm32")]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::time::Duration;

use routelab::live::{
    BrokerLive, NamesrvStatus, NamesrvView, RouteEntry, ServerMessage, Snapshot, Source,
    SourceKind, Update, PROTOCOL_VERSION,
};
use routelab::model::{BrokerData, ClusterInfo, QueueData, TopicRouteData};
use routelab::ui::live::state::{Conn, LiveModel, LiveMsg, LiveStore, BACKOFF_MAX_MS};
use routelab::ui::live::url::{live_url, Page};
use routelab::ui::{LiveApp, LiveAppProps, WorkshopApp, FORK_HASH, WORKSHOP_PAGE};
use routelab::view::mqadmin::{
    cluster_list, topic_route, BrokerRuntime, ClientOrder, ClusterLayout,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};
use yew::{Callback, Reducible};

wasm_bindgen_test_configure!(run_in_browser);

const NS_A: &str = "10.1.0.1:9876";
const NS_B: &str = "10.1.0.2:9876";
/// The server clock in these messages: far from the page's clock on purpose, so ages only come out
/// right when computed on the server's clock.
const T0: u64 = 1_000_000;

fn group(name: &str, addrs: &[(i64, &str)]) -> BrokerData {
    let mut b = BrokerData::new("DefaultCluster".into(), name.into());
    b.enable_acting_master = Some(false);
    for (id, a) in addrs {
        b.broker_addrs.insert(*id, (*a).into());
    }
    b
}

fn queue(name: &str, perm: i32) -> QueueData {
    serde_json::from_value(serde_json::json!({
        "brokerName": name, "readQueueNums": 4, "writeQueueNums": 4, "perm": perm, "topicSysFlag": 0
    }))
    .unwrap()
}

/// A NameServer listing broker-a (master + slave) and broker-b, with TopicTest on both groups
/// (broker-b's write perm wiped when `wiped`), fetched at `at`.
fn view(addr: &str, at: u64, with_b: bool, wiped: bool) -> NamesrvView {
    let mut v = NamesrvView::new(addr);
    v.status = NamesrvStatus::Ok;
    v.fetched_at_ms = Some(at);
    v.last_attempt_ms = Some(at);
    let mut groups = vec![group(
        "broker-a",
        &[(0, "10.0.0.1:10911"), (1, "10.0.0.2:10911")],
    )];
    if with_b {
        groups.push(group("broker-b", &[(0, "10.0.0.3:10911")]));
    }
    let mut cluster = ClusterInfo::default();
    for g in &groups {
        cluster
            .broker_addr_table
            .insert(g.broker_name.clone(), g.clone());
        cluster
            .cluster_addr_table
            .entry("DefaultCluster".into())
            .or_insert_with(BTreeSet::new)
            .insert(g.broker_name.clone());
    }
    v.cluster = cluster;
    let mut route = TopicRouteData::default();
    for g in &groups {
        let perm = if wiped && g.broker_name == "broker-b" {
            4
        } else {
            6
        };
        route.queue_datas.push(queue(g.broker_name.as_str(), perm));
        route.broker_datas.push(g.clone());
    }
    v.topics = ["TopicTest".to_owned(), "TBW102".to_owned()].into();
    v.routes.insert(
        "TopicTest".into(),
        RouteEntry {
            fetched_at_ms: at,
            route: Some(route),
            error: None,
        },
    );
    v
}

fn snapshot(seq: u64, sent_at_ms: u64, namesrvs: Vec<NamesrvView>) -> String {
    serde_json::to_string(&ServerMessage::Snapshot(Snapshot {
        protocol: PROTOCOL_VERSION,
        seq,
        sent_at_ms,
        source: Source {
            kind: SourceKind::Bridge,
            version: routelab::VERSION.into(),
            interval_ms: 2_000,
            read_only: true,
            commands: false,
        },
        namesrvs,
        alerts: Vec::new(),
        consumers: None,
    }))
    .unwrap()
}

/// The update the bridge sends when views go from `old` to `new`.
fn update(seq: u64, sent_at_ms: u64, old: &[NamesrvView], new: &[NamesrvView]) -> String {
    let namesrvs = old.iter().zip(new).filter_map(|(o, n)| o.diff(n)).collect();
    serde_json::to_string(&ServerMessage::Update(Update {
        seq,
        sent_at_ms,
        namesrvs,
        alerts: None,
        consumers: None,
    }))
    .unwrap()
}

/// Mounts live mode's page without a socket; returns the page root and the live store.
async fn mount_live() -> (Element, LiveStore) {
    mount_live_opening(None).await
}

/// The same, with the pages it would open handed to `on_open` instead (a test page must not
/// navigate away).
async fn mount_live_opening(on_open: Option<Callback<String>>) -> (Element, LiveStore) {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let slot: Rc<RefCell<Option<LiveStore>>> = Rc::default();
    let props = LiveAppProps {
        live_feed: Some({
            let slot = slot.clone();
            Callback::from(move |s| *slot.borrow_mut() = Some(s))
        }),
        on_open,
    };
    yew::Renderer::<LiveApp>::with_root_and_props(root.clone(), props).render();
    yew::scheduler::flush().await;
    let store = slot
        .borrow()
        .clone()
        .expect("the live page hands out its store");
    (root, store)
}

/// Delivers a frame as the socket would, stamped with the page clock.
async fn feed(store: &LiveStore, text: String) {
    store.dispatch(LiveMsg::Frame {
        text,
        at_ms: js_sys::Date::now(),
    });
    yew::scheduler::flush().await;
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

fn attr(root: &Element, selector: &str, name: &str) -> String {
    find(root, selector).get_attribute(name).unwrap_or_default()
}

fn click(el: &Element) {
    el.clone().dyn_into::<HtmlElement>().unwrap().click();
}

fn broker_view(addr: &str, ns: &str) -> String {
    format!("[data-testid=broker][data-addr=\"{addr}\"][data-namesrv=\"{ns}\"]")
}

fn tab(root: &Element, label: &str) -> Element {
    let tabs = root.query_selector_all(".tabs button").unwrap();
    (0..tabs.length())
        .filter_map(|i| tabs.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|b| b.text_content().unwrap_or_default() == label)
        .unwrap_or_else(|| panic!("no {label} tab"))
}

/// A snapshot makes the page live: each NameServer "updated 1.2 s ago" by the server's clock, the
/// brokers listed by both with heartbeat ages unknown (a bridge cannot know them, and says so in
/// brokerLiveTable), the route per NameServer decoded (perm as R/W) and as JSON, and the mqadmin text
/// exactly what `cluster_list` / `topic_route` print for the same data.
#[wasm_bindgen_test]
async fn snapshot_shows_freshness_routes_and_unknown_heartbeats() {
    let (root, store) = mount_live().await;
    assert_eq!(
        attr(&root, "[data-testid=live-status]", "data-state"),
        "connecting"
    );
    store.dispatch(LiveMsg::Opened);
    let views = vec![
        view(NS_A, T0 - 1_200, true, true),
        view(NS_B, T0 - 1_200, true, true),
    ];
    feed(&store, snapshot(1, T0, views.clone())).await;

    assert_eq!(
        attr(&root, "[data-testid=live-status]", "data-state"),
        "live"
    );
    let chip = format!("[data-testid=namesrv-freshness][data-addr=\"{NS_A}\"]");
    assert_eq!(attr(&root, &chip, "data-freshness"), "fresh");
    let fresh = text(&root, &chip);
    assert!(
        fresh.contains("updated 1.2 s ago") || fresh.contains("updated 1.3 s ago"),
        "{fresh}"
    );

    let a = broker_view("10.0.0.1:10911", NS_A);
    assert_eq!(attr(&root, &a, "data-registered"), "true");
    assert_eq!(attr(&root, &a, "data-age"), "unknown");
    assert!(text(&root, &a).contains("age unknown"));
    assert!(
        root.query_selector(&format!("{a} svg.ring"))
            .unwrap()
            .is_none(),
        "no invented ring"
    );
    assert_eq!(
        root.query_selector_all("[data-testid=broker-card]")
            .unwrap()
            .length(),
        3
    );
    assert!(root
        .query_selector("[data-testid=disagreement]")
        .unwrap()
        .is_none());

    assert_eq!(
        attr(&root, "[data-testid=route-view]", "data-topic"),
        "TopicTest"
    );
    let route = text(
        &root,
        &format!("[data-testid=route-view] [data-namesrv=\"{NS_B}\"]"),
    );
    assert!(route.contains("R--") && route.contains("RW-"), "{route}");
    assert!(
        route.contains("\"brokerName\": \"broker-b\""),
        "route JSON: {route}"
    );
    assert!(
        text(&root, "[data-testid=broker-live-unknown]").contains("not reported by a NameServer")
    );

    click(&tab(&root, "mqadmin"));
    yew::scheduler::flush().await;
    let terminals = root.query_selector_all(".mqadmin pre.terminal").unwrap();
    let shown = |i: u32| {
        terminals
            .item(i)
            .and_then(|n| n.text_content())
            .unwrap_or_default()
    };
    assert_eq!(
        shown(0),
        cluster_list(
            &views[0].cluster,
            ClusterLayout::V5,
            &ClientOrder::sorted(&views[0].cluster),
            |_| BrokerRuntime::default()
        )
    );
    assert_eq!(
        shown(1),
        topic_route("TopicTest", views[0].routes["TopicTest"].route.as_ref())
    );
}

/// A NameServer whose polls start failing keeps its last data on screen, marked failing with the
/// reason; the other one drops broker-b, which is then marked gone there, the broker card and the
/// route marked as disagreeing, and the change written in the feed.
#[wasm_bindgen_test]
async fn failing_namesrv_keeps_last_data_and_disagreement_is_marked() {
    let (root, store) = mount_live().await;
    store.dispatch(LiveMsg::Opened);
    let old = vec![view(NS_A, T0, true, false), view(NS_B, T0, true, false)];
    feed(&store, snapshot(1, T0, old.clone())).await;

    let mut failing = old[1].clone();
    failing.status = NamesrvStatus::Failing;
    failing.error = Some("connect to 10.1.0.2:9876: connection refused".into());
    failing.last_attempt_ms = Some(T0 + 2_000);
    let new = vec![view(NS_A, T0 + 2_000, false, false), failing];
    feed(&store, update(2, T0 + 2_000, &old, &new)).await;

    let chip = format!("[data-testid=namesrv-freshness][data-addr=\"{NS_B}\"]");
    assert_eq!(attr(&root, &chip, "data-freshness"), "failing");
    let t = text(&root, &chip);
    assert!(
        t.contains("connection refused") && t.contains("last good data"),
        "{t}"
    );

    let b_on_failing = broker_view("10.0.0.3:10911", NS_B);
    assert_eq!(
        attr(&root, &b_on_failing, "data-registered"),
        "true",
        "last data kept"
    );
    let b_on_a = broker_view("10.0.0.3:10911", NS_A);
    assert_eq!(attr(&root, &b_on_a, "data-registered"), "false");
    assert!(
        text(&root, &b_on_a).contains("not registered · gone"),
        "{}",
        text(&root, &b_on_a)
    );

    let card = find(
        &root,
        "[data-testid=broker-card][data-addr=\"10.0.0.3:10911\"]",
    );
    let classes = card.get_attribute("class").unwrap_or_default();
    assert!(
        classes.split_whitespace().any(|c| c == "disagree"),
        "{classes}"
    );
    assert!(root
        .query_selector("[data-testid=route-disagree]")
        .unwrap()
        .is_some());
    assert_eq!(
        attr(&root, "[data-testid=disagreement]", "data-brokers"),
        "1"
    );
    assert_eq!(
        attr(&root, "[data-testid=disagreement]", "data-topics"),
        "1"
    );
    let feed_text = text(&root, "[data-testid=live-feed]");
    assert!(
        feed_text.contains(&format!("{NS_A} no longer lists broker-b (10.0.0.3:10911)")),
        "{feed_text}"
    );
    assert!(
        feed_text.contains(&format!("{NS_A}: the route of TopicTest changed")),
        "{feed_text}"
    );
    assert!(
        feed_text.contains(&format!("{NS_B}: polling failed")),
        "{feed_text}"
    );
}

/// A view older than two polling intervals is marked stale; an update that does not follow the
/// last one asks (once) for a resync and says why; the next snapshot clears it.
#[wasm_bindgen_test]
async fn stale_views_and_a_sequence_gap_asks_for_a_resync() {
    let (root, store) = mount_live().await;
    store.dispatch(LiveMsg::Opened);
    let views = vec![view(NS_A, T0 - 9_000, true, false), NamesrvView::new(NS_B)];
    feed(&store, snapshot(5, T0, views.clone())).await;
    let chip = |ns: &str| format!("[data-testid=namesrv-freshness][data-addr=\"{ns}\"]");
    assert_eq!(attr(&root, &chip(NS_A), "data-freshness"), "stale");
    assert!(text(&root, &chip(NS_A)).contains("stale: updated 9."));
    assert_eq!(attr(&root, &chip(NS_B), "data-freshness"), "unknown");
    assert_eq!(
        attr(
            &root,
            &broker_view("10.0.0.1:10911", NS_B),
            "data-registered"
        ),
        "false"
    );

    assert_eq!(store.resyncs, 0);
    let later = vec![view(NS_A, T0, true, false), NamesrvView::new(NS_B)];
    feed(&store, update(9, T0 + 2_000, &views, &later)).await;
    feed(&store, update(10, T0 + 4_000, &views, &later)).await;
    assert_eq!(store.resyncs, 1, "one resync per gap, not one per message");
    let alert = text(&root, "[role=alert]");
    assert!(alert.contains("some updates were missed"), "{alert}");
    feed(&store, snapshot(10, T0 + 4_000, later)).await;
    assert!(root.query_selector("[role=alert]").unwrap().is_none());
    assert_eq!(attr(&root, &chip(NS_A), "data-freshness"), "fresh");
}

/// When the source reports brokerLiveTable (RouteLab's own NameServer), heartbeat ages are shown
/// with the simulator's rings, computed on the server's clock.
#[wasm_bindgen_test]
async fn reported_heartbeats_are_shown_with_rings() {
    let (root, store) = mount_live().await;
    let mut v = view(NS_A, T0, true, false);
    let live: BTreeMap<String, BrokerLive> = ["10.0.0.1:10911", "10.0.0.2:10911", "10.0.0.3:10911"]
        .iter()
        .map(|a| {
            let l = BrokerLive {
                last_update_ms: T0 - 40_000,
                timeout_ms: 120_000,
            };
            ((*a).to_owned(), l)
        })
        .collect();
    v.broker_live = Some(live);
    feed(&store, snapshot(1, T0, vec![v])).await;
    let a = broker_view("10.0.0.1:10911", NS_A);
    assert_eq!(attr(&root, &a, "data-age"), "40000");
    assert!(root
        .query_selector(&format!("{a} svg.ring"))
        .unwrap()
        .is_some());
    assert!(text(&root, &a).contains("40.0 s"));
    assert!(root
        .query_selector("[data-testid=broker-live-unknown]")
        .unwrap()
        .is_none());
}

/// "Fork into simulator" opens the workshop page with the forked scenario waiting in session
/// storage; the workshop then shows it paused at t = 0, with the live brokers, and the route it
/// shows for TopicTest has the live groups and perms.
#[wasm_bindgen_test]
async fn fork_opens_the_simulator_with_the_same_brokers_and_routes() {
    let opened: Rc<RefCell<Vec<String>>> = Rc::default();
    let (live, store) = mount_live_opening(Some({
        let opened = opened.clone();
        Callback::from(move |href| opened.borrow_mut().push(href))
    }))
    .await;
    let views = vec![view(NS_A, T0, true, true), view(NS_B, T0, true, true)];
    feed(&store, snapshot(1, T0, views)).await;
    click(&find(&live, "[data-testid=fork]"));
    yew::scheduler::flush().await;
    assert_eq!(*opened.borrow(), [format!("{WORKSHOP_PAGE}{FORK_HASH}")]);
    live.remove();

    // The workshop page, opened at index.html#fork.
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let before = window.location().href().unwrap();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(FORK_HASH))
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<WorkshopApp>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    // The workshop draws the cluster's cards a timer's turn after its first screen.
    gloo_timers::future::TimeoutFuture::new(0).await;
    yew::scheduler::flush().await;
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before))
        .unwrap();
    let storage = window.session_storage().unwrap().unwrap();
    assert_eq!(
        storage.length().unwrap(),
        0,
        "the workshop took the forked scenario out of session storage"
    );

    assert_eq!(text(&root, "[data-testid=clock]"), "t = 0.0 s");
    let cards = root
        .query_selector_all("[data-testid=broker-card]")
        .unwrap();
    let addrs: BTreeSet<String> = (0..cards.length())
        .filter_map(|i| cards.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter_map(|e| e.get_attribute("data-addr"))
        .collect();
    assert_eq!(
        addrs,
        ["10.0.0.1:10911", "10.0.0.2:10911", "10.0.0.3:10911"]
            .map(String::from)
            .into()
    );
    for ns in ["ns-1", "ns-2"] {
        let v = broker_view("10.0.0.3:10911", ns);
        assert_eq!(
            attr(&root, &v, "data-registered"),
            "true",
            "{} | {}",
            text(&root, &v),
            text(&root, "[data-testid=event-feed]")
        );
    }
    assert!(text(&root, "[data-testid=note]").contains(&format!("ns-1 = {NS_A}")));
    assert_eq!(
        attr(&root, "[data-testid=route-view]", "data-topic"),
        "TopicTest"
    );
    let route = text(&root, "[data-testid=route-view] [data-namesrv=\"ns-1\"]");
    assert!(
        route.contains("broker-b") && route.contains("R--"),
        "{route}"
    );
}

/// The backoff: 0.5 s doubling to 10 s while the bridge cannot be reached, back to 0.5 s after a
/// snapshot; a retry opens a new socket (a new generation).
#[wasm_bindgen_test]
fn reconnect_backoff_doubles_to_ten_seconds_and_resets_after_a_snapshot() {
    let mut m = Rc::new(LiveModel::new(Some("ws://bridge.invalid/ws".into())));
    let mut delays = Vec::new();
    for _ in 0..7 {
        m = m.reduce(LiveMsg::Closed {
            reason: "no connection to the bridge".into(),
            at_ms: 0.0,
        });
        match &m.conn {
            Conn::Reconnecting { delay_ms, .. } => delays.push(*delay_ms),
            other => panic!("{other:?}"),
        }
        let generation = m.generation;
        m = m.reduce(LiveMsg::Retry);
        assert_eq!(
            (m.conn.name(), m.generation),
            ("connecting", generation + 1)
        );
    }
    assert_eq!(
        delays,
        [
            500,
            1_000,
            2_000,
            4_000,
            8_000,
            BACKOFF_MAX_MS,
            BACKOFF_MAX_MS
        ]
    );
    m = m.reduce(LiveMsg::Frame {
        text: snapshot(1, T0, vec![view(NS_A, T0, true, false)]),
        at_ms: 0.0,
    });
    assert_eq!(m.conn, Conn::Live);
    assert_eq!(m.server_now(250.0), T0 + 250, "ages use the server's clock");
    m = m.reduce(LiveMsg::Closed {
        reason: "x".into(),
        at_ms: 0.0,
    });
    assert!(matches!(m.conn, Conn::Reconnecting { delay_ms: 500, .. }));
}

/// The page's bridge: the meta tag on the page's own host (wss on https), `?live=` for development,
/// the page's token passed on, and a share link always opening the simulator.
#[wasm_bindgen_test]
fn bridge_url_rules() {
    let page = |protocol: &str, search: &str, hash: &str, meta: Option<&str>| Page {
        protocol: protocol.into(),
        host: "lab.example:8081".into(),
        search: search.into(),
        hash: hash.into(),
        meta: meta.map(str::to_owned),
    };
    assert_eq!(live_url(&page("http:", "", "", None)), None);
    assert_eq!(
        live_url(&page("http:", "", "", Some("/ws"))).as_deref(),
        Some("ws://lab.example:8081/ws")
    );
    assert_eq!(
        live_url(&page("https:", "?token=a%2Bb c", "", Some("/ws"))).as_deref(),
        Some("wss://lab.example:8081/ws?token=a%2Bb%20c")
    );
    assert_eq!(
        live_url(&page(
            "http:",
            "?live=ws%3A%2F%2F127.0.0.1%3A9000%2Fws&token=t",
            "",
            None
        ))
        .as_deref(),
        Some("ws://127.0.0.1:9000/ws?token=t")
    );
    assert_eq!(
        live_url(&page(
            "http:",
            "?live=ws://h:1/ws?token=mine&token=t",
            "",
            None
        ))
        .as_deref(),
        Some("ws://h:1/ws?token=mine"),
        "a URL with its own token keeps it"
    );
    assert_eq!(
        live_url(&page("http:", "", "#scenario=eyJ9", Some("/ws"))),
        None
    );
}

/// The socket glue against a port nothing listens on (47: not one browsers refuse outright): the page says it is reconnecting, with the
/// countdown and the reason.
#[wasm_bindgen_test]
async fn an_unreachable_bridge_shows_reconnecting() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let before = window.location().href().unwrap();
    history
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some("?live=ws://127.0.0.1:47/ws"),
        )
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<LiveApp>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before))
        .unwrap();
    let mut state = String::new();
    for _ in 0..50 {
        yew::platform::time::sleep(Duration::from_millis(100)).await;
        state = attr(&root, "[data-testid=live-status]", "data-state");
        if state == "reconnecting" {
            break;
        }
    }
    assert_eq!(state, "reconnecting");
    let t = text(&root, "[data-testid=live-status]");
    assert!(
        t.starts_with("reconnecting in ") && t.contains("(no connection to the bridge)"),
        "{t}"
    );
}

/// `routelab demo` takes commands: only then do broker cards get kill / freeze / stop / restart
/// buttons, and a click asks the socket glue to send the command naming the broker by address.
#[wasm_bindgen_test]
async fn demo_commands_only_when_the_source_takes_them() {
    let (root, store) = mount_live().await;
    let views = vec![view(NS_A, T0, true, false)];
    feed(&store, snapshot(1, T0, views.clone())).await;
    assert!(root
        .query_selector("[data-testid=demo-kill]")
        .unwrap()
        .is_none());
    let demo = snapshot(2, T0, views).replace(r#""commands":false"#, r#""commands":true"#);
    feed(&store, demo).await;
    let card = "[data-testid=broker-card][data-addr=\"10.0.0.3:10911\"]";
    for word in ["kill", "freeze", "stop", "restart"] {
        find(&root, &format!("{card} [data-testid=demo-{word}]"));
    }
    assert_eq!(store.commands_sent, 0);
    click(&find(&root, &format!("{card} [data-testid=demo-freeze]")));
    yew::scheduler::flush().await;
    assert_eq!(store.commands_sent, 1);
    assert_eq!(store.command.as_deref(), Some("freeze 10.0.0.3:10911"));
}
