//! The placeholder dashboard: one tiny cluster simulated by the core, and the route it computes.
//!
//! broker-a heartbeats every 30 s; broker-b is frozen (it registered once, then went silent). Advance
//! the virtual clock and watch the NameServer's scan drop broker-b from TopicTest's route once its last
//! heartbeat is more than 120 s old.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::perm::perm_to_string;
use crate::model::{DataVersion, TopicConfig, TopicConfigSerializeWrapper, TopicRouteData};
use crate::namesrv::{Profile, RegisterBroker, RouteManager};

/// The topic whose route the page shows.
pub const TOPIC: &str = "TopicTest";
const HEARTBEAT_MS: u64 = 30_000;

/// What the page shows: the NameServer and the virtual clock.
#[derive(Clone)]
pub struct DemoState {
    /// The NameServer, as the core models it.
    pub manager: RouteManager,
    /// Virtual time, ms.
    pub now_ms: u64,
    /// What happened in the last step, in plain words.
    pub log: Vec<String>,
}

fn registration(name: &str, addr: &str) -> RegisterBroker {
    let topics = TopicConfigSerializeWrapper::new(
        DataVersion::new(1, 0),
        [
            TopicConfig::new(TOPIC, 4, 4, 6),
            TopicConfig::new("TBW102", 8, 8, 7),
        ],
    );
    RegisterBroker::new("DefaultCluster", name, 0, addr, topics)
}

impl DemoState {
    /// Both brokers registered at t = 0 on a 5.x NameServer.
    pub fn new() -> Self {
        let mut manager = RouteManager::new(Profile::V5);
        for (name, addr) in [
            ("broker-a", "10.0.0.1:10911"),
            ("broker-b", "10.0.0.2:10911"),
        ] {
            // Valid by construction: fixed names, addresses and topics.
            let _ = manager.register_broker(0, &registration(name, addr));
        }
        manager.drain_events();
        Self {
            manager,
            now_ms: 0,
            log: vec!["t=0 s: broker-a and broker-b registered; broker-b then froze".into()],
        }
    }

    /// Moves the clock by `dt_ms`: broker-a heartbeats on its 30 s period, the NameServer scans.
    pub fn advance(&mut self, dt_ms: u64) {
        let end = self.now_ms + dt_ms;
        self.log.clear();
        while self.now_ms < end {
            let next = (self.now_ms / HEARTBEAT_MS + 1) * HEARTBEAT_MS;
            self.now_ms = next.min(end);
            if self.now_ms % HEARTBEAT_MS == 0 {
                let _ = self
                    .manager
                    .register_broker(self.now_ms, &registration("broker-a", "10.0.0.1:10911"));
            }
            let expired = self.manager.scan_not_active_brokers(self.now_ms);
            self.manager.apply_pending_unregistrations();
            for key in expired {
                self.log.push(format!(
                    "t={} s: scan removed {}: no heartbeat for more than 120 s",
                    self.now_ms / 1000,
                    key.broker_addr
                ));
            }
        }
        self.manager.drain_events();
    }

    /// The route of [`TOPIC`] as the NameServer would return it.
    pub fn route(&self) -> Option<TopicRouteData> {
        self.manager.pickup_topic_route_data(TOPIC)
    }
}

impl Default for DemoState {
    fn default() -> Self {
        Self::new()
    }
}

/// What the buttons do.
pub enum Action {
    /// Advance the virtual clock by this many ms.
    Advance(u64),
    /// Start over.
    Reset,
}

impl Reducible for DemoState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Advance(dt) => {
                let mut next = (*self).clone();
                next.advance(dt);
                Rc::new(next)
            }
            Action::Reset => Rc::new(DemoState::new()),
        }
    }
}

/// The placeholder dashboard.
#[component]
pub fn App() -> Html {
    let state = use_reducer(DemoState::new);
    let advance = |dt: u64| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Advance(dt)))
    };
    let reset = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Reset))
    };
    let route = state.route();
    let json = route
        .as_ref()
        .and_then(|r| serde_json::to_string_pretty(r).ok())
        .unwrap_or_else(|| "null (TOPIC_NOT_EXIST)".into());
    let ages: Html = state
        .manager
        .broker_live_table()
        .iter()
        .map(|(key, live)| {
            let age = (state.now_ms - live.last_update_timestamp) / 1000;
            html! { <li>{ format!("{}: last heartbeat {age} s ago (expires after {} s)", key.broker_addr, live.heartbeat_timeout_millis / 1000) }</li> }
        })
        .collect();
    html! {
        <main class="app">
            <header>
                <h1>{ "RouteLab" }</h1>
                <span id="version" class="version">{ format!("core v{}", crate::VERSION) }</span>
            </header>
            <p class="note">{ "A 5.x NameServer simulated in your browser. broker-a heartbeats every 30 s; broker-b registered once and froze. Advance the clock and watch the route of TopicTest lose broker-b after the 120 s expiry." }</p>
            <section class="controls">
                <span id="clock" class="clock">{ format!("t = {} s", state.now_ms / 1000) }</span>
                <button id="advance-30" onclick={advance(30_000)}>{ "+30 s" }</button>
                <button id="advance-120" onclick={advance(120_000)}>{ "+2 min" }</button>
                <button id="reset" onclick={reset}>{ "Reset" }</button>
            </section>
            <section>
                <h2>{ "brokerLiveTable" }</h2>
                <ul id="live">{ ages }</ul>
                <ul id="log" class="log">{ for state.log.iter().map(|l| html!{ <li>{ l }</li> }) }</ul>
            </section>
            <section>
                <h2>{ format!("Route of {TOPIC}") }</h2>
                { route_table(route.as_ref()) }
                <pre id="route-json">{ json }</pre>
            </section>
        </main>
    }
}

fn route_table(route: Option<&TopicRouteData>) -> Html {
    let Some(route) = route else {
        return html! { <p id="route-table">{ "No route: TOPIC_NOT_EXIST" }</p> };
    };
    let rows: Html = route
        .queue_datas
        .iter()
        .map(|qd| {
            let master = route
                .broker_data(qd.broker_name.as_str())
                .and_then(|b| b.master_addr())
                .map_or("no master".to_owned(), |a| a.to_string());
            html! {
                <tr>
                    <td>{ qd.broker_name.to_string() }</td>
                    <td>{ master }</td>
                    <td>{ qd.read_queue_nums }</td>
                    <td>{ qd.write_queue_nums }</td>
                    <td>{ perm_to_string(qd.perm) }</td>
                </tr>
            }
        })
        .collect();
    html! {
        <table id="route-table">
            <thead><tr><th>{ "brokerName" }</th><th>{ "master (id 0)" }</th><th>{ "read" }</th><th>{ "write" }</th><th>{ "perm" }</th></tr></thead>
            <tbody>{ rows }</tbody>
        </table>
    }
}
