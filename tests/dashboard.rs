//! Dashboard component tests in headless Chromium: the reducer driven through the rendered page
//! (time controls, broker actions, the add-broker form's validation).
#![cfg(target_arch = "wasm32")]
// A test may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

async fn mount() -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<routelab::ui::WorkshopApp>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    // What is below the first screen (the cluster's cards, the tables and forms) is drawn a timer's
    // turn later.
    gloo_timers::future::TimeoutFuture::new(0).await;
    yew::scheduler::flush().await;
    root
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

fn click(el: &Element) {
    el.clone().dyn_into::<HtmlElement>().unwrap().click();
}

/// The button of a broker card whose label is `label`.
fn broker_button(root: &Element, addr: &str, label: &str) -> Element {
    let buttons = root
        .query_selector_all(&format!(
            "[data-testid=broker-card][data-addr=\"{addr}\"] button"
        ))
        .unwrap();
    (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|b| b.text_content().unwrap_or_default().trim() == label)
        .unwrap_or_else(|| panic!("no {label} button on {addr}"))
}

fn broker_state(root: &Element, addr: &str) -> String {
    find(root, &format!("[data-testid=broker][data-addr=\"{addr}\"]"))
        .get_attribute("data-state")
        .unwrap_or_default()
}

/// The default preset loads paused at t = 0 with its brokers running (one `broker` element per
/// NameServer, carrying the broker's state and whether that NameServer has it registered); +30 s moves the clock and the
/// feed; a kill removes the broker from the NameServer at once, and the feed says why.
#[wasm_bindgen_test]
async fn time_controls_and_kill_update_every_view() {
    let root = mount().await;
    assert_eq!(text(&root, "[data-testid=clock]"), "t = 0.0 s");
    assert!(text(&root, "[data-testid=note]").starts_with("Watch for:"));
    assert_eq!(broker_state(&root, "10.0.0.1:10911"), "running");

    click(&find(&root, "[data-testid=advance][data-secs=\"30\"]"));
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "[data-testid=clock]"), "t = 30.0 s");
    let sent: u64 = find(&root, "[data-testid=producer]")
        .get_attribute("data-sent")
        .unwrap()
        .parse()
        .unwrap();
    assert!(sent > 0, "the producer sends while time runs");

    click(&broker_button(&root, "10.0.0.1:10911", "kill"));
    yew::scheduler::flush().await;
    assert_eq!(broker_state(&root, "10.0.0.1:10911"), "killed");
    let el = find(
        &root,
        "[data-testid=broker][data-addr=\"10.0.0.1:10911\"][data-namesrv=\"ns-1\"]",
    );
    assert_eq!(
        el.get_attribute("data-registered").as_deref(),
        Some("false")
    );
    let ns_view = text(
        &root,
        "[data-testid=broker][data-addr=\"10.0.0.1:10911\"][data-namesrv=\"ns-1\"]",
    );
    assert!(ns_view.contains("not registered"), "{ns_view}");
    let feed = text(&root, "[data-testid=event-feed]");
    assert!(feed.contains("its connection closed"), "{feed}");
    let route = text(&root, "[data-testid=route-view] [data-namesrv=\"ns-1\"]");
    assert!(!route.contains("10.0.0.1:10911"), "{route}");
}

/// Clicks the tab named `name` and lets the page draw it.
async fn open_tab(root: &Element, name: &str) {
    let tabs = root.query_selector_all(".tabs button").unwrap();
    let tab = (0..tabs.length())
        .filter_map(|i| tabs.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|b| b.text_content().unwrap_or_default() == name)
        .unwrap();
    click(&tab);
    yew::scheduler::flush().await;
}

/// A bad field in the add-broker form is marked in place with the reason, and nothing is applied.
#[wasm_bindgen_test]
async fn add_broker_form_marks_a_bad_address_and_applies_nothing() {
    let root = mount().await;
    let brokers_before = root
        .query_selector_all("[data-testid=broker-card]")
        .unwrap()
        .length();
    open_tab(&root, "Add broker").await;

    let input: HtmlInputElement = find(&root, "[data-testid=add-broker-form] input[name=addr]")
        .dyn_into()
        .unwrap();
    input.set_value("10.0.0.9");
    input
        .dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    click(&find(
        &root,
        "[data-testid=add-broker-form] button[type=submit]",
    ));
    yew::scheduler::flush().await;

    let field = find(&root, "[data-testid=add-broker-form] .field.invalid");
    let message = field.text_content().unwrap_or_default();
    assert!(message.contains("is not host:port"), "{message}");
    assert_eq!(
        root.query_selector_all("[data-testid=broker-card]")
            .unwrap()
            .length(),
        brokers_before
    );
}

/// The add-broker form sets the new group's failover mode and zone (5.x): the new broker's card
/// carries its zone.
#[wasm_bindgen_test]
async fn add_broker_form_sets_the_mode_and_the_zone() {
    let root = mount().await;
    open_tab(&root, "Add broker").await;
    let form = find(&root, "[data-testid=add-broker-form]");
    let modes = form.query_selector_all("select[name=mode] option").unwrap();
    assert_eq!(modes.length(), 3);
    let mode: web_sys::HtmlSelectElement = form
        .query_selector("select[name=mode]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!(mode.value(), "master_slave", "the default mode");
    let set = |name: &str, value: &str| {
        let el = form
            .query_selector(&format!("[name={name}]"))
            .unwrap()
            .unwrap();
        match el.dyn_into::<HtmlInputElement>() {
            Ok(input) => input.set_value(value),
            Err(el) => el
                .dyn_into::<web_sys::HtmlSelectElement>()
                .unwrap()
                .set_value(value),
        }
    };
    set("name", "broker-z");
    set("addr", "10.0.9.9:10911");
    set("mode", "acting_master");
    set("zone", "az9");
    click(&find(
        &root,
        "[data-testid=add-broker-form] button[type=submit]",
    ));
    yew::scheduler::flush().await;
    let card = root
        .query_selector("[data-testid=broker-card][data-addr='10.0.9.9:10911']")
        .unwrap();
    let errors = form.text_content().unwrap_or_default();
    let card = card.unwrap_or_else(|| panic!("no card for the new broker: {errors}"));
    assert_eq!(card.get_attribute("data-zone").as_deref(), Some("az9"));
}

/// Where the world has no controller, the add-broker form deploys one ("Deploy controller-1"); a
/// controller-mode broker added then is elected by it and drawn as master, and the button is gone.
#[wasm_bindgen_test]
async fn add_broker_form_deploys_a_controller_for_controller_mode() {
    let root = mount().await;
    open_tab(&root, "Add broker").await;
    click(&find(&root, "[data-testid=deploy-controller]"));
    yew::scheduler::flush().await;
    find(&root, "[data-testid=node-controller-controller-1]");
    assert!(root
        .query_selector("[data-testid=deploy-controller]")
        .unwrap()
        .is_none());
    let form = find(&root, "[data-testid=add-broker-form]");
    for (name, value) in [("name", "broker-y"), ("addr", "10.0.9.8:10911")] {
        form.query_selector(&format!("input[name={name}]"))
            .unwrap()
            .unwrap()
            .dyn_into::<HtmlInputElement>()
            .unwrap()
            .set_value(value);
    }
    form.query_selector("select[name=mode]")
        .unwrap()
        .unwrap()
        .dyn_into::<web_sys::HtmlSelectElement>()
        .unwrap()
        .set_value("controller");
    click(&find(
        &root,
        "[data-testid=add-broker-form] button[type=submit]",
    ));
    yew::scheduler::flush().await;
    let card = root
        .query_selector("[data-testid=broker-card][data-addr='10.0.9.8:10911']")
        .unwrap()
        .unwrap_or_else(|| panic!("no card: {}", form.text_content().unwrap_or_default()));
    assert_eq!(card.get_attribute("data-role").as_deref(), Some("master"));
}

/// Mounts a windowed list of `len` rows of 20 px in a 200 px viewport; each row reads `row N`.
async fn mount_list(len: usize) -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let rows = yew::Callback::from(|range: std::ops::Range<usize>| -> yew::Html {
        range
            .map(|i| yew::html! { <div class="vrow" key={i} style="height: 20px">{ format!("row {i}") }</div> })
            .collect()
    });
    let props = routelab::ui::VirtualListProps {
        len,
        row_height: 20,
        viewport: 200,
        rows,
        head: None,
        class: yew::Classes::new(),
        testid: Some("list".into()),
    };
    yew::Renderer::<routelab::ui::VirtualList>::with_root_and_props(root.clone(), props).render();
    yew::scheduler::flush().await;
    root
}

fn row_texts(root: &Element) -> Vec<String> {
    let rows = root.query_selector_all(".vrow").unwrap();
    (0..rows.length())
        .filter_map(|i| rows.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

/// The windowed list renders only the rows in view plus a few around them, and spacers keep the
/// scroll height of the whole list.
#[wasm_bindgen_test]
async fn a_windowed_list_renders_only_the_visible_rows() {
    let root = mount_list(10_000).await;
    let rows = row_texts(&root);
    assert_eq!(rows.first().map(String::as_str), Some("row 0"));
    assert!(rows.len() <= 20, "{} rows in the DOM", rows.len());
    assert!(rows.len() >= 10, "the viewport shows 10 rows: {rows:?}");
    let list = find(&root, "[data-testid=list]");
    assert_eq!(
        list.scroll_height(),
        10_000 * 20,
        "spacers stand for the rest"
    );
    // Windows are pure arithmetic too: the first row, the overscan, the end of the list.
    assert_eq!(routelab::ui::window(10_000, 20, 200, 0), 0..15);
    assert_eq!(routelab::ui::window(10_000, 20, 200, 2_000), 96..115);
    assert_eq!(routelab::ui::window(12, 20, 200, 100), 1..12);
}

/// Scrolling moves the window: the rows at the new position are rendered, the old ones are gone.
#[wasm_bindgen_test]
async fn scrolling_a_windowed_list_moves_the_window() {
    let root = mount_list(10_000).await;
    let list = find(&root, "[data-testid=list]");
    list.set_scroll_top(100 * 20);
    list.dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    let rows = row_texts(&root);
    assert!(rows.contains(&"row 100".to_owned()), "{rows:?}");
    assert!(!rows.contains(&"row 0".to_owned()), "{rows:?}");
    assert!(rows.len() <= 20, "{} rows in the DOM", rows.len());
    assert_eq!(list.get_attribute("data-first").as_deref(), Some("96"));
}

/// The event feed shows its newest items until scrolled near its end, then all of them; scrolled
/// back to the top, the newest again (a new event moves every item shown: fewer in the page keep a
/// frame short).
#[wasm_bindgen_test]
async fn the_feed_shows_all_its_items_only_when_scrolled_to_its_end() {
    use routelab::ui::{FeedItem, FeedList, FeedListProps, FEED_SHOWN_FIRST};
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let feed = (0..200u64)
        .rev()
        .map(|i| FeedItem {
            t: i * 1000,
            event: routelab::sim::SimEvent {
                t: i * 1000,
                kind: routelab::sim::SimEventKind::Action {
                    action: Box::new(routelab::sim::Action::AddNamesrv {
                        name: format!("event {i}"),
                    }),
                },
            },
            kind: "action",
            target: None,
            group: None,
            seq: i,
        })
        .collect();
    let props = FeedListProps {
        feed: std::sync::Arc::new(feed),
        lang: routelab::i18n::Lang::En,
        on_select: yew::Callback::noop(),
    };
    yew::Renderer::<FeedList>::with_root_and_props(root.clone(), props).render();
    yew::scheduler::flush().await;
    let items = |root: &Element| root.query_selector_all("li").unwrap().length() as usize;
    assert_eq!(items(&root), FEED_SHOWN_FIRST);
    assert!(text(&root, "li").contains("event 199"), "newest first");
    // The page's style sheet is not loaded here: the box the feed has on the page.
    let list = find(&root, "[data-testid=event-feed]");
    list.set_attribute("style", "height: 200px; overflow-y: auto; display: block")
        .unwrap();
    let scroll_to = |top: i32| {
        list.set_scroll_top(top);
        list.dispatch_event(&web_sys::Event::new("scroll").unwrap())
            .unwrap();
    };
    scroll_to(list.scroll_height());
    yew::scheduler::flush().await;
    assert_eq!(items(&root), 200);
    assert!(text(&root, "[data-testid=event-feed]").contains("event 0"));
    scroll_to(0);
    yew::scheduler::flush().await;
    assert_eq!(items(&root), FEED_SHOWN_FIRST);
}

/// The reducer's state for the crash-hang-stop preset (the one the bundle carries), paused at t = 0.
fn crash_hang_stop_state() -> std::rc::Rc<routelab::ui::AppState> {
    let scenario =
        routelab::sim::Scenario::from_json(routelab::sim::preset_json("crash-hang-stop").unwrap())
            .unwrap();
    std::rc::Rc::new(routelab::ui::AppState::new(scenario))
}

/// When the simulator cannot keep up with the speed asked, the owed time piles up to its cap and the
/// time bar says the clock runs slower than chosen; once a frame has time to catch up, it does not.
#[wasm_bindgen_test]
fn the_time_bar_says_when_the_simulator_falls_behind() {
    use routelab::ui::{Budget, Msg, Panels};
    use yew::Reducible;
    let mut s = crash_hang_stop_state();
    s = s.reduce(Msg::SetSpeed(60.0));
    s = s.reduce(Msg::TogglePlay);
    assert!(!s.falling_behind(), "nothing owed yet");
    // Frames without time to simulate owe theirs: 3 × 100 ms at 60× = 18 virtual seconds.
    for group in Panels::ALL {
        s = s.reduce(Msg::Tick {
            dt_ms: 100.0,
            budget: None,
            render: Some(group),
        });
    }
    assert!(s.falling_behind());
    let before = s.sim().now();
    s = s.reduce(Msg::Tick {
        dt_ms: 0.0,
        budget: Some(Budget::new(|| true)),
        render: None,
    });
    assert!(!s.falling_behind(), "a frame with time to spare catches up");
    assert!(
        s.sim().now() >= before + 15_000,
        "the owed time was simulated"
    );
}

/// Presets the bundle does not carry: picking one waits for its file (`loading`); only the file of
/// the preset last picked loads, paused at t = 0; a file that cannot be had is an error shown.
#[wasm_bindgen_test]
fn a_fetched_preset_loads_only_if_still_wanted() {
    use routelab::ui::{AppState, Msg};
    use yew::Reducible;
    let fault_tolerance = include_str!("../scenarios/fault-tolerance.json");
    assert!(
        routelab::sim::preset_json("fault-tolerance").is_none(),
        "not in the bundle"
    );
    let mut s = std::rc::Rc::new(AppState::with_default_preset());
    s = s.reduce(Msg::Advance(10_000));
    s = s.reduce(Msg::LoadPreset("fault-tolerance".into()));
    assert_eq!(s.loading.as_deref(), Some("fault-tolerance"));
    assert_eq!(
        s.preset.as_deref(),
        Some("crash-hang-stop"),
        "shown until the file comes"
    );
    // Another preset picked meanwhile: the first file, arriving late, is dropped.
    s = s.reduce(Msg::LoadPreset("2m-2s".into()));
    s = s.reduce(Msg::PresetFetched {
        name: "fault-tolerance".into(),
        json: Ok(fault_tolerance.into()),
    });
    assert_eq!(s.preset.as_deref(), Some("crash-hang-stop"));
    assert_eq!(s.loading.as_deref(), Some("2m-2s"));
    s = s.reduce(Msg::PresetFetched {
        name: "2m-2s".into(),
        json: Err("scenarios/2m-2s.json: HTTP 404".into()),
    });
    assert_eq!(s.loading, None);
    assert!(
        s.error.as_deref().is_some_and(|e| e.contains("HTTP 404")),
        "{:?}",
        s.error
    );
    s = s.reduce(Msg::LoadPreset("fault-tolerance".into()));
    s = s.reduce(Msg::PresetFetched {
        name: "fault-tolerance".into(),
        json: Ok(fault_tolerance.into()),
    });
    assert_eq!(s.preset.as_deref(), Some("fault-tolerance"));
    assert_eq!(s.loading, None);
    assert_eq!(s.sim().now(), 0, "a preset opens at t = 0");
    assert!(s
        .base
        .title
        .as_deref()
        .is_some_and(|t| t.starts_with("Fault tolerance")));
}

/// A frame of the clock renders one group of panels: only that group's key changes, so the other
/// groups' gates keep what they showed; any other message changes every group's key.
#[wasm_bindgen_test]
fn a_frame_renders_one_group_of_panels() {
    use routelab::ui::{AppState, Budget, Msg, Panels};
    use yew::Reducible;
    let mut s = crash_hang_stop_state();
    s = s.reduce(Msg::TogglePlay);
    let keys = |s: &AppState| Panels::ALL.map(|g| s.panel_key(g));
    for group in Panels::ALL {
        let before = keys(&s);
        s = s.reduce(Msg::Tick {
            dt_ms: 16.0,
            budget: Some(Budget::unlimited()),
            render: Some(group),
        });
        let after = keys(&s);
        for other in Panels::ALL {
            let i = other as usize;
            assert_eq!(
                before[i] != after[i],
                other == group,
                "{group:?} frame: {other:?} key {:?} → {:?}",
                before[i],
                after[i]
            );
        }
    }
    let before = keys(&s);
    s = s.reduce(Msg::Tick {
        dt_ms: 16.0,
        budget: Some(Budget::unlimited()),
        render: None,
    });
    assert_eq!(keys(&s), before, "a frame rendering nothing changes no key");
    s = s.reduce(Msg::SetSpeed(60.0));
    let after = keys(&s);
    assert!(
        (0..Panels::COUNT).all(|i| before[i] != after[i]),
        "{before:?} → {after:?}"
    );
}

/// The route view opens on a topic some producer sends to, also when the producer only comes with
/// a later action (big-cluster's do), not on the first topic of a topic set; and a topic no
/// producer sends to says so under "Producers' cached copies".
#[wasm_bindgen_test]
async fn the_route_view_opens_on_a_producers_topic() {
    let scenario = routelab::sim::Scenario::from_json(
        r#"{"routelab": 1, "namesrvs": ["ns-1"],
            "brokers": [{"cluster": "c", "name": "broker-a", "id": 0, "addr": "10.0.0.1:10911",
                         "topics": [{"topic": "Quiet"}, {"topic": "Busy"}]}],
            "actions": [{"at": 5, "do": "add_producer", "group": "pg-1", "topic": "Busy"}]}"#,
    )
    .unwrap();
    let state = routelab::ui::AppState::new(scenario);
    assert_eq!(state.topic, "Busy");

    let root = mount().await;
    let panel = "section.route";
    let route = text(&root, panel);
    assert!(
        !route.contains("no producer sends to"),
        "the preset's producer sends to the topic shown: {route}"
    );
    // A topic nobody sends to: TBW102, which every broker of the preset carries once registered.
    click(&find(&root, "[data-testid=advance][data-secs='10']"));
    yew::scheduler::flush().await;
    let select: web_sys::HtmlSelectElement =
        find(&root, "section.route select").dyn_into().unwrap();
    select.set_value("TBW102");
    assert_eq!(select.value(), "TBW102", "the topic list offers TBW102");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    let route = text(&root, panel);
    assert!(route.contains("no producer sends to TBW102"), "{route}");
}

/// The reducer's time travel: a seek shows the feed and the route of that moment, paused; acting in
/// the past forks with a notice; Undo puts the old future back.
#[wasm_bindgen_test]
fn the_reducer_seeks_forks_and_undoes() {
    use routelab::sim::Action;
    use routelab::ui::Msg;
    use yew::functional::Reducible;
    let mut s = crash_hang_stop_state();
    s = s.reduce(Msg::Advance(240_000));
    let feed_at_head = s.feed.len();
    s = s.reduce(Msg::Seek(100_000));
    assert_eq!(s.sim().now(), 100_000);
    assert!(!s.playing);
    assert!(
        s.feed.iter().all(|f| f.t <= 100_000),
        "the feed of that moment"
    );
    assert!(s.feed.len() < feed_at_head);
    s = s.reduce(Msg::Apply(Action::RestartBroker {
        broker: "10.0.0.2:10911".into(),
    }));
    assert_eq!(s.fork_notice.map(|f| f.at_ms), Some(100_000));
    assert_eq!(s.timeline.borrow().head(), 100_000);
    s = s.reduce(Msg::UndoFork);
    assert!(s.fork_notice.is_none());
    assert_eq!(s.timeline.borrow().head(), 240_000);
    s = s.reduce(Msg::SeekHead);
    assert_eq!(s.sim().now(), 240_000);
    assert_eq!(s.feed.len(), feed_at_head, "the old future's feed is back");
}

/// A share link's `&t=` opens at that time; one beyond 24 h is refused with an error, at t = 0.
#[wasm_bindgen_test]
fn a_link_time_opens_there_within_a_day() {
    let scenario = crash_hang_stop_state().base.as_ref().clone();
    let at = routelab::ui::AppState::at_time(scenario.clone(), Some(191_500));
    assert_eq!(at.sim().now(), 191_500);
    assert!(at.error.is_none());
    let far = routelab::ui::AppState::at_time(scenario, Some(90_000_000));
    assert_eq!(far.sim().now(), 0);
    assert!(
        far.error.as_deref().is_some_and(|e| e.contains("24 h")),
        "{:?}",
        far.error
    );
}

/// A lesson is fetched like a preset and walked with the player: Next runs a step's `until`, an
/// answer is checked by the simulator, the task is done by the learner's action, and Back shows the
/// world as it was when the step began, the task undone (docs/scenario.md, "Lessons").
#[wasm_bindgen_test]
fn a_lesson_is_walked_with_back_and_next() {
    use routelab::sim::BrokerState;
    use routelab::ui::{AppState, LessonMsg, Msg};
    use yew::Reducible;
    let file = include_str!("../scenarios/lesson-2-heartbeats.json");
    let mut s = std::rc::Rc::new(AppState::with_default_preset());
    s = s.reduce(Msg::LoadPreset("lesson-2-heartbeats".into()));
    assert_eq!(s.loading.as_deref(), Some("lesson-2-heartbeats"), "fetched");
    s = s.reduce(Msg::PresetFetched {
        name: "lesson-2-heartbeats".into(),
        json: Ok(file.into()),
    });
    let step = |s: &AppState| s.lesson.as_ref().map(|r| r.player.current());
    assert_eq!(step(&s), Some(0));
    // Next runs step 1's until (45 s).
    s = s.reduce(Msg::Lesson(LessonMsg::Next));
    assert_eq!((step(&s), s.sim().now()), (Some(1), 45_000));
    // Kill broker-a: a wrong answer first (expired), then the task.
    s = s.reduce(Msg::Lesson(LessonMsg::Answer(0)));
    let answered = s
        .lesson
        .as_ref()
        .and_then(|r| r.player.answer().cloned())
        .unwrap();
    assert!(!answered.correct());
    assert_eq!(answered.outcome.right, vec![1], "channel_closed");
    let a = "10.0.0.1:10911";
    s = s.reduce(Msg::Apply(routelab::sim::Action::KillBroker {
        broker: a.into(),
    }));
    assert!(s.lesson.as_ref().unwrap().player.task_done());
    let state_of = |s: &AppState| {
        s.sim()
            .brokers()
            .iter()
            .find(|b| b.addr == a)
            .map(|b| b.state)
    };
    assert_eq!(state_of(&s), Some(BrokerState::Killed));
    // The ← key is Next and Back while a lesson runs.
    s = s.reduce(Msg::KeyForward);
    assert_eq!(step(&s), Some(2));
    s = s.reduce(Msg::KeyBack);
    assert_eq!(step(&s), Some(1));
    assert_eq!(s.sim().now(), 45_000, "back where step 2 began");
    assert_eq!(state_of(&s), Some(BrokerState::Running), "the kill undone");
    assert!(!s.lesson.as_ref().unwrap().player.task_done());
}

/// Sends a key press to the window, as the page's shortcuts read it.
fn press(key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&e).unwrap();
}

/// Presentation mode: the header's button and `P` enter it (the page then shows the picture, the
/// time bar and the feed, and hides the tabs), `Esc` closes the open list of shortcuts first and
/// leaves the mode next; a scenario loaded meanwhile keeps it, like the language.
#[wasm_bindgen_test]
async fn presentation_mode_by_button_and_keys() {
    let root = mount().await;
    let presenting = |root: &Element| root.query_selector(".app.presenting").unwrap().is_some();
    assert!(!presenting(&root));
    click(&find(&root, "[data-testid=present-toggle]"));
    yew::scheduler::flush().await;
    assert!(presenting(&root));
    assert_eq!(
        find(&root, "[data-testid=present-toggle]").get_attribute("aria-pressed"),
        Some("true".into())
    );
    press("?");
    yew::scheduler::flush().await;
    assert!(text(&root, "[data-testid=shortcuts]").contains("presentation mode"));
    press("Escape");
    yew::scheduler::flush().await;
    assert!(root
        .query_selector("[data-testid=shortcuts]")
        .unwrap()
        .is_none());
    assert!(presenting(&root), "the first Esc closes the list only");
    click(&find(&root, "[data-testid=reset]"));
    yew::scheduler::flush().await;
    assert!(presenting(&root), "a reset keeps presentation mode");
    press("Escape");
    yew::scheduler::flush().await;
    assert!(!presenting(&root));
    press("p");
    yew::scheduler::flush().await;
    assert!(presenting(&root));
    press("P");
    yew::scheduler::flush().await;
    assert!(!presenting(&root));
}
