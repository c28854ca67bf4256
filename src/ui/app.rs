//! The dashboard's layout: scenario bar, time bar, cluster / route / producers, the event feed, and
//! tabs for the tables, the mqadmin mirror and the forms.

use std::rc::Rc;

use yew::prelude::*;
use yew::Reducible;

use super::classroom::{use_classroom, ClassBar};
use super::clock::{use_shortcuts, use_sim_clock, SHORTCUTS};
use super::cluster::ClusterView;
use super::consumers::ConsumersView;
use super::feed::feed_view;
use super::forms::{ActionsForm, AddBrokerForm, AddProducerForm, TimingForm};
use super::gate::Gate;
use super::inspector::Inspector;
use super::lang_toggle::{initial_lang, lang_toggle};
use super::lesson::{LessonData, LessonList, LessonProps, LessonStrip, LessonView};
use super::live::LiveConnect;
use super::panel::{ClusterPart, PanelData, PanelProps};
use super::producers::ProducersView;
use super::route::RouteView;
use super::scenario_bar::{use_preset_fetch, ScenarioBar};
use super::state::{AppState, Msg, Panels};
use super::tables::{MqadminView, TablesView};
use super::timebar::TimeBar;
use super::timeline::{clock_text, TimelineView};
use super::topology::TopologyView;
use super::Store;
use crate::i18n::{workshop, Lang};
use crate::sim::scenario::share::{from_hash, time_in_hash};
use crate::sim::Scenario;

/// The state at page load: the scenario of a share link in the URL, else the default preset (and,
/// for `#lesson=NAME`, that lesson on its way); in the language chosen before or the browser's.
fn initial_state() -> AppState {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let lang = initial_lang();
    let mut s = match from_hash(&hash) {
        Some(Ok(scenario)) => AppState::at_time(scenario, time_in_hash(&hash)),
        Some(Err(e)) => {
            let mut s = AppState::with_default_preset();
            s.error = Some(lang.fill(workshop::SHARE_LINK_ERROR, &[("error", &e.to_string())]));
            s
        }
        None => {
            // In the language shown, should the lesson asked for not load.
            let mut s = AppState::with_default_preset();
            s.lang = lang;
            match hash.strip_prefix("#lesson=") {
                // As the list of lessons asks for one: fetched, or an error naming it.
                Some(name) => {
                    let asked = Rc::new(s).reduce(Msg::LoadPreset(name.to_owned()));
                    (*asked).clone()
                }
                None => s,
            }
        }
    };
    s.lang = lang;
    s.class = super::classroom::class_from_url().map(Rc::new);
    s
}

#[derive(Clone, Copy, PartialEq)]
enum Tab {
    Tables,
    Mqadmin,
    AddBroker,
    AddProducer,
    Actions,
    Timing,
}

const TABS: [Tab; 6] = [
    Tab::Tables,
    Tab::Mqadmin,
    Tab::Actions,
    Tab::AddBroker,
    Tab::AddProducer,
    Tab::Timing,
];

impl Tab {
    /// The tab's label in `lang` (mqadmin is mqadmin in both).
    fn label(self, lang: Lang) -> &'static str {
        match self {
            Tab::Tables => lang.t(workshop::TAB_TABLES),
            Tab::Mqadmin => "mqadmin",
            Tab::Actions => lang.t(workshop::TAB_TOPICS_PERMS),
            Tab::AddBroker => lang.t(workshop::TAB_ADD_BROKER),
            Tab::AddProducer => lang.t(workshop::TAB_ADD_PRODUCER),
            Tab::Timing => lang.t(workshop::TAB_TIMING),
        }
    }
}

#[derive(Properties)]
pub struct SimAppProps {
    /// A scenario to start on (a fork of live mode) instead of what the URL asks for.
    pub initial: Option<Rc<Scenario>>,
    /// Prefills the "Live…" control.
    pub live_url: AttrValue,
    pub on_live: Callback<String>,
}

/// The forked scenario is compared by identity: a derived deep comparison would walk a 10,000-topic
/// scenario on every render of the root and add its code to the bundle.
impl PartialEq for SimAppProps {
    fn eq(&self, other: &Self) -> bool {
        let same_initial = match (&self.initial, &other.initial) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        same_initial && self.live_url == other.live_url && self.on_live == other.on_live
    }
}

/// The workshop dashboard.
#[component]
pub fn SimApp(props: &SimAppProps) -> Html {
    let store = Store::new(use_reducer({
        let initial = props.initial.clone();
        move || initial.map_or_else(initial_state, |s| AppState::new((*s).clone()))
    }));
    use_sim_clock(store.clone());
    use_shortcuts(store.clone());
    use_classroom(store.clone());
    use_preset_fetch(store.clone());
    let tab = use_state(|| Tab::Tables);
    let note = store.base.note.clone();
    let lang = store.lang;
    let dismiss = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::DismissError))
    };
    let set_lang = {
        let store = store.clone();
        Callback::from(move |lang| store.dispatch(Msg::SetLang(lang)))
    };
    let presenting = store.presenting;
    // The header's button toggles presentation mode; the teacher's class bar enters it.
    let toggle_present: fn(MouseEvent) -> Msg = if presenting {
        |_| Msg::Present(Some(false))
    } else {
        |_| Msg::Present(Some(true))
    };
    let select = store.on(Msg::Select);
    // The first screen first: the tables below and the cluster's cards are drawn in a task of their
    // own right after, so the page's first task is shorter (what a phone feels as the page being
    // busy: Lighthouse's total blocking time) and the picture is painted before them.
    let settled = use_state(|| false);
    {
        let settled = settled.clone();
        use_effect_with((), move |()| {
            let timer = gloo_timers::callback::Timeout::new(0, move || settled.set(true));
            move || drop(timer)
        });
    }
    let settled = *settled;
    // The panels' callbacks: each dispatches to the store, stamped with the time.
    let on_apply = store.on(Msg::Apply);
    let on_open = store.on(Msg::LoadPreset);
    let on_load = store.on(|s: Scenario| Msg::Load(Box::new(s)));
    let sim = store.sim_ref();
    let data = PanelData {
        sim: sim.clone(),
        lang,
        selection: store.selection.clone(),
        picks: store.picks.clone(),
        topic: store.topic.clone(),
        topics_version: store.topics_version,
        tables_version: store.tables_version,
        changed: store.changed.clone(),
        base: store.base.clone(),
        playing: store.playing,
        speed: store.speed,
        traffic: store.traffic.clone(),
        on_apply,
        on_select: select.clone(),
        on_topic: store.on(Msg::SelectTopic),
        on_load,
        preset: store.preset.clone(),
        loading: store.loading.clone(),
        lesson: store.lesson.as_ref().map(|run| run.name.clone()),
        behind: store.falling_behind(),
        marks_epoch: store.marks_epoch,
        on_preset: on_open.clone(),
        on_reset: store.on(|_: MouseEvent| Msg::Reset),
        on_error: store.on(Msg::Error),
        on_play: store.on(|_: MouseEvent| Msg::TogglePlay),
        on_speed: store.on(|x: u64| Msg::SetSpeed(x as f64)),
        on_step: store.on(|_: MouseEvent| Msg::Step),
        on_advance: store.on(Msg::Advance),
        on_expiry: store.on(|_: MouseEvent| Msg::AdvanceToExpiry),
        on_seek: store.on(Msg::Seek),
    };
    let panel = PanelProps {
        part: ClusterPart::Cards,
        data: Rc::new(data),
    };
    let lesson = LessonData {
        lang,
        lesson: store.lesson.clone(),
        preset: store.preset.clone(),
        class: store.class.clone(),
        on_lesson: store.on(Msg::Lesson),
        on_open: on_open.clone(),
        on_class: store.on(Msg::Class),
        on_present: store.on(|_: MouseEvent| Msg::Present(Some(true))),
    };
    let lesson = LessonProps {
        data: Rc::new(lesson),
    };
    let lesson_view = html! { <LessonView ..lesson.clone() /> };
    let cluster = store.panel_key(Panels::Cluster);
    let traffic = store.panel_key(Panels::Traffic);
    let time = store.panel_key(Panels::Time);
    // On a phone the header's controls wait behind "Menu", so the clock and the picture come first.
    let menu_open = use_state(|| false);
    let toggle_menu = {
        let menu_open = menu_open.clone();
        Callback::from(move |_: MouseEvent| menu_open.set(!*menu_open))
    };
    html! {
        <div class={classes!("app", presenting.then_some("presenting"))}>
            <header class="top">
                <h1>{ "RouteLab" }<span class="version" id="version">{ format!("v{}", crate::VERSION) }</span></h1>
                <button class="menu-toggle" data-testid="menu-toggle" aria-expanded={menu_open.to_string()}
                    aria-controls="top-controls" onclick={toggle_menu}>{ lang.t(workshop::MENU) }</button>
                <div id="top-controls" class={classes!("top-controls", menu_open.then_some("open"))}>
                    <Gate key_of_group={time}><ScenarioBar ..panel.clone() /></Gate>
                    <LessonList ..lesson.clone() />
                    { lang_toggle(lang, set_lang) }
                    { present_button(lang, presenting, store.on(toggle_present)) }
                    <LiveConnect url={props.live_url.clone()} on_connect={props.on_live.clone()} {lang} />
                </div>
            </header>
            // Everything but the header and the footer: one landmark for assistive technology.
            <main class="content">
            <ClassBar ..lesson.clone() />
            // The teaching note and the lessons fold into one line, so the cluster is on the
            // first screen of a 720p projector; each opens on click.
            <div class="intro">
                { for note.map(|n| {
                    let points = n.points(lang);
                    html!{
                        <details class="note" data-testid="note">
                            <summary><b>{ lang.t(workshop::WATCH_FOR) }</b>{ " " }
                                <span class="first">{ points.first().cloned().unwrap_or_default() }</span></summary>
                            <ul>{ for points.iter().map(|pt| html!{ <li>{ pt.clone() }</li> }) }</ul>
                        </details>
                    }
                }) }
                <LessonStrip ..lesson />
            </div>
            { for store.error.clone().map(|e| html!{
                <p class="error-banner" role="alert">{ e }<button onclick={dismiss.clone()} aria-label={lang.t(workshop::DISMISS)}>{ "×" }</button></p>
            }) }
            <Gate key_of_group={time}><TimeBar ..panel.clone() /></Gate>
            <Gate key_of_group={time}><TimelineView ..panel.clone() /></Gate>
            { for store.fork_notice.map(|f| {
                let undo = { let store = store.clone(); Callback::from(move |_: MouseEvent| store.dispatch(Msg::UndoFork)) };
                let close = { let store = store.clone(); Callback::from(move |_: MouseEvent| store.dispatch(Msg::DismissFork)) };
                html!{ <p class="fork-notice" data-testid="fork-notice" role="status">
                    { lang.fill(workshop::FORK_NOTICE, &[("t", &clock_text(f.at_ms))]) }
                    <button class="primary" data-testid="fork-undo" onclick={undo}>{ lang.t(workshop::UNDO) }</button>
                    <button onclick={close} aria-label={lang.t(workshop::DISMISS)}>{ "×" }</button>
                </p> }
            }) }
            { if store.shortcuts_open { shortcuts(&store) } else { html!{} } }
            // Presenting, the feed goes beside the picture (or below it, beside a lesson), so the
            // room sees the cluster and what just happened on one 720p screen.
            { picture_panel(&store, cluster, lesson_view.clone(), &panel,
                (presenting && store.picture_shown()).then(|| html!{ <Gate key_of_group={time}>{ feed_view(store.feed.clone(), lang, select.clone()) }</Gate> })) }
            // A lesson's panel sits beside the picture (where the class looks), or first in the
            // grid when the picture is hidden.
            <div class={classes!("grid", (store.lesson.is_some() && !store.picture_shown()).then_some("with-lesson"))}>
                { if store.picture_shown() { html! {} } else { lesson_view } }
                <section class="panel cluster" aria-label="cluster">
                    // The same three gates at every render (a gate compares only its key and part):
                    // the cards' gate is empty until the first screen is drawn.
                    { for [(cluster, ClusterPart::Heading), (time, ClusterPart::Chips), (cluster, ClusterPart::Cards)].map(|(key, part)| {
                        let later = part == ClusterPart::Cards && !settled;
                        html! {
                            <Gate key_of_group={key} part={u32::from(later)}>
                                { if later { html!{} } else { html!{ <ClusterView {part} ..panel.clone() /> } } }
                            </Gate>
                        }
                    }) }
                </section>
                <Gate key_of_group={traffic}><RouteView ..panel.clone() /></Gate>
                <div class="side">
                    <Gate key_of_group={traffic}><ProducersView ..panel.clone() /></Gate>
                    <Gate key_of_group={traffic}><ConsumersView ..panel.clone() /></Gate>
                    { if presenting && store.picture_shown() { html!{} } else { html!{ <Gate key_of_group={time}>{ feed_view(store.feed.clone(), lang, select) }</Gate> } } }
                </div>
            </div>
            <section class="panel bottom">
                <nav class="tabs" role="tablist">
                    { for TABS.iter().map(|t| {
                        let onclick = { let tab = tab.clone(); let t = *t; Callback::from(move |_: MouseEvent| tab.set(t)) };
                        html!{ <button role="tab" aria-selected={(*tab == *t).to_string()} class={classes!((*tab == *t).then_some("active"))} {onclick}>{ t.label(lang) }</button> }
                    }) }
                </nav>
                { if !settled { html!{} } else { html!{
                <Gate key_of_group={store.panel_key(Panels::Tabs)} part={*tab as u32}>
                { match *tab {
                    Tab::Tables => html!{ <TablesView ..panel.clone() /> },
                    Tab::Mqadmin => html!{ <MqadminView ..panel.clone() /> },
                    Tab::AddBroker => html!{ <AddBrokerForm ..panel.clone() /> },
                    Tab::AddProducer => html!{ <AddProducerForm ..panel.clone() /> },
                    Tab::Actions => html!{ <ActionsForm ..panel.clone() /> },
                    Tab::Timing => html!{ <TimingForm ..panel.clone() /> },
                } }
                </Gate>
                } } }
            </section>
            </main>
            <footer class="foot">{ lang.fill(workshop::FOOTER, &[("version", crate::VERSION)]) }</footer>
        </div>
    }
}

/// Presentation mode's button (`P`): "Present" in the header, "Leave presentation" while `on`;
/// `on_present` enters or leaves it. A view function, not a component: it keeps no
/// state, and a component with props of its own would add Yew's lifecycle code for one button.
fn present_button(lang: Lang, on: bool, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <button class={classes!("present-toggle", on.then_some("primary"))} data-testid="present-toggle"
            aria-pressed={on.to_string()} title={lang.t(workshop::PRESENT_HINT)} {onclick}>
            { lang.t(if on { workshop::LEAVE_PRESENT } else { workshop::PRESENT }) }
        </button>
    }
}

/// The list of keyboard shortcuts (`?`).
fn shortcuts(store: &super::Store) -> Html {
    let lang = store.lang;
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::ToggleShortcuts(Some(false))))
    };
    html! {
        <div class="dialog shortcuts" role="dialog" aria-label={lang.t(workshop::SHORTCUTS_LABEL)} data-testid="shortcuts">
            <h2>{ lang.t(workshop::SHORTCUTS_HEADING) }<button onclick={close} aria-label={lang.t(workshop::CLOSE)}>{ "×" }</button></h2>
            <table>
                { for SHORTCUTS.iter().map(|(keys, what)| html!{ <tr><td><kbd>{ *keys }</kbd></td><td>{ lang.t(*what) }</td></tr> }) }
            </table>
            <p class="hint">{ lang.t(workshop::SHORTCUTS_HINT) }</p>
        </div>
    }
}

/// The picture with its inspector (and `lesson_view`, the lesson's panel, beside it; `feed`, the
/// event feed, in presentation mode), or the button that shows it.
fn picture_panel(
    store: &super::Store,
    key: (usize, u64),
    lesson_view: Html,
    panel: &PanelProps,
    feed: Option<Html>,
) -> Html {
    let lang = store.lang;
    let shown = store.picture_shown();
    let toggle = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::ShowPicture(!shown)))
    };
    html! {
        <section class={classes!("panel", "picture", (!shown).then_some("hidden"))} aria-label={lang.t(workshop::PICTURE_LABEL)}>
            <h2>{ lang.t(workshop::PICTURE_HEADING) }
                // One line, the whole text on hover: the picture starts high on a 720p screen.
                <span class="hint" title={lang.t(workshop::PICTURE_HINT)}>{ lang.t(workshop::PICTURE_HINT) }</span>
                <button class="picture-toggle" data-testid="picture-toggle" onclick={toggle}>{ lang.t(if shown { workshop::HIDE_PICTURE } else { workshop::SHOW_PICTURE }) }</button>
            </h2>
            { if shown { html!{
                <div class={classes!("picture-body", store.lesson.is_some().then_some("with-lesson"))}>
                    <Gate key_of_group={key}><TopologyView ..panel.clone() /></Gate>
                    <div class="picture-side">
                        { lesson_view }
                        <Gate key_of_group={key}><Inspector ..panel.clone() /></Gate>
                    </div>
                    { for feed.map(|f| html!{ <div class="picture-feed">{ f }</div> }) }
                </div>
            } } else { html!{} } }
        </section>
    }
}
