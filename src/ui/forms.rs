//! Forms: add a broker, add a producer, topic and perm actions, timing knobs. A bad field is marked
//! in place with the reason (the simulator's validation names it); nothing is applied.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::panel::PanelProps;
use super::parse_number;
use crate::i18n::{controls, Lang};
use crate::producer::ClientProfile;
use crate::sim::scenario::{BrokerSpec, GroupMode, ProducerSpec, Timing as TimingSpec, TopicSpec};
use crate::sim::{Action, ScenarioError};

/// A labelled text field whose input keeps what is typed (read when the form is sent: no state of
/// its own, less code), with its error (if any) under it.
fn field(label: &str, name: &str, value: &str, error: &Option<ScenarioError>, hint: &str) -> Html {
    let err = error.as_ref().filter(|e| {
        let p = e.path.rsplit('.').next().unwrap_or("");
        p == name || p.starts_with(&format!("{name}[")) || e.path.contains(&format!(".{name}["))
    });
    html! {
        <label class={classes!("field", err.is_some().then_some("invalid"))}>
            <span>{ label.to_owned() }</span>
            <input name={name.to_owned()} value={value.to_owned()} placeholder={hint.to_owned()} aria-invalid={err.is_some().to_string()} />
            { for err.map(|e| html!{ <small class="error" role="alert">{ e.message.clone() }</small> }) }
        </label>
    }
}

/// A labelled checkbox named `name`.
fn check(label: &str, name: &str) -> Html {
    html! {
        <label class="field check"><input type="checkbox" name={name.to_owned()} /><span>{ label.to_owned() }</span></label>
    }
}

/// The value of the form's control named `name` (inputs and selects), as typed.
pub(super) fn read(form: &web_sys::Element, name: &str) -> String {
    let Ok(Some(el)) = form.query_selector(&format!("[name={name}]")) else {
        return String::new();
    };
    match el.dyn_into::<web_sys::HtmlInputElement>() {
        Ok(input) => input.value(),
        Err(el) => el
            .dyn_into::<web_sys::HtmlSelectElement>()
            .map(|s| s.value())
            .unwrap_or_default(),
    }
}

/// Whether the form's checkbox named `name` is ticked.
pub(super) fn ticked(form: &web_sys::Element, name: &str) -> bool {
    form.query_selector(&format!("[name={name}]"))
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|i| i.checked())
}

/// The zone typed in the form's `zone` field, if any.
pub(super) fn zone(form: &web_sys::Element) -> Option<String> {
    let zone = read(form, "zone");
    let zone = zone.trim();
    (!zone.is_empty()).then(|| zone.to_owned())
}

/// The form a submit event came from.
pub(super) fn form_of(e: &SubmitEvent) -> Option<web_sys::Element> {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// A client's zone and zone mode (5.x), for the producer and consumer-group forms.
pub(super) fn zone_fields(lang: Lang, error: &Option<ScenarioError>) -> Html {
    html! {
        <>
            { field(lang.t(controls::ZONE_FIELD), "zone", "", error, "az1") }
            { check(lang.t(controls::ZONE_MODE_FIELD), "zone_mode") }
        </>
    }
}

/// Parses `TopicTest:4:4:6, Other:8` (topic[:read[:write[:perm]]]).
fn parse_topics(lang: Lang, text: &str) -> Result<Vec<TopicSpec>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let mut parts = item.split(':');
            let topic = parts.next().unwrap_or("").trim().to_owned();
            let num = |p: Option<&str>, d: i32, what: &str| -> Result<i32, String> {
                match p.map(str::trim) {
                    None | Some("") => Ok(d),
                    Some(v) => v.parse().map_err(|_| {
                        lang.fill(
                            controls::TOPIC_PART_NOT_A_NUMBER,
                            &[("item", item), ("what", what), ("value", &format!("{v:?}"))],
                        )
                    }),
                }
            };
            let read = num(parts.next(), 4, "read")?;
            let write = num(parts.next(), read, "write")?;
            let perm = num(parts.next(), 6, "perm")?;
            Ok(TopicSpec {
                topic,
                read,
                write,
                perm,
            })
        })
        .collect()
}

fn apply_or_show(
    props: &PanelProps,
    action: Action,
    error: &UseStateHandle<Option<ScenarioError>>,
) {
    // Validate against the live world first so a bad field is shown in place (checking, not applying
    // to a copy: a copy of a 200-broker world costs a visible pause).
    let result = props.sim.sim().check(&action);
    match result {
        Ok(()) => {
            error.set(None);
            props.on_apply.emit(action);
        }
        // Said in the language shown when it happened (the form's own errors are written so too).
        Err(e) => error.set(Some(ScenarioError {
            message: e.message_in(props.lang).to_owned(),
            ..e
        })),
    }
}

/// Add a broker: cluster, name, id, address, topics, its group's failover mode and its zone.
#[component]
pub fn AddBrokerForm(props: &PanelProps) -> Html {
    let error = use_state(|| None::<ScenarioError>);
    let lang = props.lang;
    let onsubmit = {
        let (props, error) = (props.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(form) = form_of(&e) else { return };
            let id = read(&form, "id");
            let Ok(idv) = id.trim().parse::<i64>() else {
                error.set(Some(ScenarioError::at(
                    "action.id",
                    lang.fill(
                        controls::BROKER_ID_NOT_A_NUMBER,
                        &[("value", &format!("{id:?}"))],
                    ),
                )));
                return;
            };
            let topic_specs = match parse_topics(lang, &read(&form, "topics")) {
                Ok(t) => t,
                Err(m) => {
                    error.set(Some(ScenarioError::at("action.topics", m)));
                    return;
                }
            };
            let spec = BrokerSpec {
                cluster: read(&form, "cluster"),
                name: read(&form, "name"),
                id: idv,
                addr: read(&form, "addr"),
                ha_addr: None,
                topics: topic_specs,
                heartbeat_secs: None,
                system_topics: true,
                mode: GroupMode::from_name(&read(&form, "mode")).unwrap_or_default(),
                zone: zone(&form),
            };
            apply_or_show(&props, Action::AddBroker(spec), &error);
        })
    };
    // Controller mode needs a controller: where the world has none, one can be deployed here.
    let deploy = props.sim.sim().controllers().is_empty().then(|| {
        let (props, error) = (props.clone(), error.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            let controller = "controller-1".to_owned();
            apply_or_show(&props, Action::AddController { controller }, &error);
        });
        html! { <button type="button" data-testid="deploy-controller" {onclick}>{ lang.t(controls::DEPLOY_CONTROLLER) }</button> }
    });
    let err = (*error).clone();
    html! {
        <form class="form" data-testid="add-broker-form" {onsubmit} novalidate=true>
            { field(lang.t(controls::CLUSTER), "cluster", "DefaultCluster", &err, "DefaultCluster") }
            { field(lang.t(controls::BROKER_NAME), "name", "broker-c", &err, "broker-c") }
            { field(lang.t(controls::BROKER_ID_FIELD), "id", "0", &err, "0") }
            { field(lang.t(controls::ADDRESS), "addr", "10.0.0.9:10911", &err, "10.0.0.9:10911") }
            { field(lang.t(controls::TOPICS_FIELD), "topics", "TopicTest:4:4:6", &err, "TopicTest:4:4:6") }
            <label class="field"><span>{ lang.t(controls::MODE_FIELD) }</span>
                <select name="mode">
                    // Not dledger: a DLedger group's members are fixed by its dLegerPeers.
                    // The default marked: the page may otherwise keep whichever option it drew last.
                    { for GroupMode::ALL[..3].iter().map(|m| html!{ <option value={m.as_str()} selected={m.is_master_slave()}>{ m.as_str() }</option> }) }
                </select>
            </label>
            { for deploy }
            { field(lang.t(controls::ZONE_FIELD), "zone", "", &err, "az1") }
            { for err.as_ref().filter(|e| !["cluster","name","id","addr","topics","zone"].iter().any(|n| e.path.ends_with(n) || e.path.contains(".topics["))).map(|e| html!{ <p class="error" role="alert">{ e.to_string() }</p> }) }
            <button type="submit" class="primary">{ lang.t(controls::ADD_BROKER) }</button>
        </form>
    }
}

/// Add a producer.
#[component]
pub fn AddProducerForm(props: &PanelProps) -> Html {
    let error = use_state(|| None::<ScenarioError>);
    let lang = props.lang;
    let onsubmit = {
        let (props, error) = (props.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(form) = form_of(&e) else { return };
            let rate = read(&form, "rate");
            let Some(r) = parse_number(&rate) else {
                error.set(Some(ScenarioError::at(
                    "action.rate",
                    lang.fill(
                        controls::RATE_NOT_A_NUMBER,
                        &[("value", &format!("{rate:?}"))],
                    ),
                )));
                return;
            };
            let namesrv = read(&form, "namesrv");
            let spec = ProducerSpec {
                group: read(&form, "group"),
                topic: read(&form, "topic"),
                rate: r,
                fault_tolerance: ticked(&form, "ft"),
                client: read(&form, "client").parse::<ClientProfile>().ok(),
                namesrv: (!namesrv.is_empty()).then_some(namesrv),
                zone: zone(&form),
                zone_mode: ticked(&form, "zone_mode"),
            };
            apply_or_show(&props, Action::AddProducer(spec), &error);
        })
    };
    let err = (*error).clone();
    html! {
        <form class="form" data-testid="add-producer-form" {onsubmit} novalidate=true>
            { field(lang.t(controls::PRODUCER_GROUP), "group", "pg-new", &err, "pg-1") }
            { field("topic", "topic", &props.topic, &err, "TopicTest") }
            { field(lang.t(controls::MESSAGES_PER_SECOND), "rate", "2", &err, "2") }
            { check(lang.t(controls::FAULT_TOLERANCE_FIELD), "ft") }
            <label class="field"><span>{ lang.t(controls::CLIENT_TABLES) }</span>
                <select name="client">
                    <option value="">{ lang.t(controls::AS_THE_PROFILE) }</option>
                    <option value="4.x">{ lang.t(controls::CLIENT_4X) }</option>
                    <option value="5.x">{ "5.1.4+" }</option>
                </select>
            </label>
            <label class="field"><span>{ "NameServer" }</span>
                <select name="namesrv" data-testid="producer-namesrv">
                    <option value="">{ lang.t(controls::ANY_NAMESRV) }</option>
                    { for props.sim.sim().namesrvs().iter().map(|n| html!{
                        <option value={n.name.clone()}>{ n.name.clone() }</option>
                    }) }
                </select>
            </label>
            { zone_fields(lang, &err) }
            { for err.as_ref().filter(|e| !["group","topic","rate","zone"].iter().any(|n| e.path.ends_with(n))).map(|e| html!{ <p class="error" role="alert">{ e.to_string() }</p> }) }
            <button type="submit" class="primary">{ lang.t(controls::ADD_PRODUCER) }</button>
        </form>
    }
}

/// The NameServer the write-perm buttons act on (None: all).
fn perm_ns(form: &web_sys::Element) -> Option<String> {
    Some(read(form, "perm_ns")).filter(|n| !n.is_empty())
}

/// Topic and permission actions, and adding a NameServer.
#[component]
pub fn ActionsForm(props: &PanelProps) -> Html {
    let lang = props.lang;
    let error = use_state(|| None::<ScenarioError>);
    let err = (*error).clone();
    // Each button reads the fields of the form it sits in, as typed.
    let on = |make: fn(Lang, &web_sys::Element) -> Result<Action, ScenarioError>| {
        let (props, error) = (props.clone(), error.clone());
        Callback::from(move |e: MouseEvent| {
            let host = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|t| t.closest(".actions-form").ok().flatten());
            let Some(host) = host else { return };
            match make(props.lang, &host) {
                Ok(a) => apply_or_show(&props, a, &error),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let create = on(|lang, f| {
        let (Ok(q), Ok(p)) = (
            read(f, "read").trim().parse::<i32>(),
            read(f, "perm").trim().parse::<i32>(),
        ) else {
            return Err(ScenarioError::at(
                "action.read",
                lang.t(controls::QUEUES_AND_PERM_NOT_NUMBERS),
            ));
        };
        Ok(Action::CreateTopic {
            broker: None,
            broker_name: Some(read(f, "broker_name")),
            topic: read(f, "topic"),
            read: q,
            write: q,
            perm: p,
        })
    });
    let wipe = on(|_, f| {
        Ok(Action::WipeWritePerm {
            broker_name: read(f, "broker_name"),
            namesrv: perm_ns(f),
        })
    });
    let add = on(|_, f| {
        Ok(Action::AddWritePerm {
            broker_name: read(f, "broker_name"),
            namesrv: perm_ns(f),
        })
    });
    let add_ns = on(|_, f| {
        Ok(Action::AddNamesrv {
            name: read(f, "name"),
        })
    });
    let sim = props.sim.sim();
    let first_group = sim
        .brokers()
        .first()
        .map(|b| b.spec.name.clone())
        .unwrap_or_default();
    let next_ns = format!("ns-{}", sim.namesrvs().len() + 1);
    html! {
        <div class="form actions-form">
            { field(lang.t(controls::BROKER_NAME), "broker_name", &first_group, &err, "broker-a") }
            <fieldset>
                <legend>{ lang.t(controls::CREATE_TOPIC_LEGEND) }</legend>
                { field("topic", "topic", "NewTopic", &err, "NewTopic") }
                { field(lang.t(controls::READ_EQUALS_WRITE_QUEUES), "read", "4", &err, "4") }
                { field(lang.t(controls::PERM_FIELD), "perm", "6", &err, "6") }
                <button onclick={create}>{ lang.t(controls::CREATE_TOPIC) }</button>
            </fieldset>
            <fieldset>
                <legend>{ lang.t(controls::WRITE_PERM_LEGEND) }</legend>
                <label class="field"><span>{ "NameServer" }</span>
                    <select name="perm_ns">
                        <option value="">{ lang.t(controls::ALL_NAMESERVERS) }</option>
                        { for sim.namesrvs().iter().map(|n| html!{ <option value={n.name.clone()}>{ n.name.clone() }</option> }) }
                    </select>
                </label>
                <button onclick={wipe}>{ lang.t(controls::WIPE_WRITE_PERM) }</button>
                <button onclick={add}>{ lang.t(controls::ADD_WRITE_PERM) }</button>
            </fieldset>
            <fieldset>
                <legend>{ lang.t(controls::ADD_A_NAMESERVER_LEGEND) }</legend>
                { field(lang.t(controls::NAME), "name", &next_ns, &err, "ns-3") }
                <button onclick={add_ns}>{ lang.t(controls::ADD_NAMESERVER) }</button>
            </fieldset>
            { for err.as_ref().map(|e| html!{ <p class="error" role="alert">{ e.to_string() }</p> }) }
        </div>
    }
}

/// The timing knobs of the scenario, with plain warnings; applying restarts the scenario with them.
#[component]
pub fn TimingForm(props: &PanelProps) -> Html {
    let lang = props.lang;
    let t = props.sim.sim().timing().clone();
    let secs = crate::decimal::secs_short;
    let error = use_state(|| None::<ScenarioError>);
    let warnings = props.sim.sim().timing().warnings_in(lang);
    let onsubmit = {
        let (props, error) = (props.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(form) = form_of(&e) else { return };
            let parse = |name: &str| -> Result<f64, ScenarioError> {
                let v = read(&form, name);
                parse_number(&v).ok_or_else(|| {
                    ScenarioError::at(
                        format!("timing.{name}"),
                        lang.fill(controls::NOT_A_NUMBER, &[("value", &format!("{v:?}"))]),
                    )
                })
            };
            let timing = (|| -> Result<TimingSpec, ScenarioError> {
                Ok(TimingSpec {
                    register_secs: Some(parse("register_secs")?),
                    scan_secs: Some(parse("scan_secs")?),
                    expiry_secs: Some(parse("expiry_secs")?),
                    idle_close_secs: Some(parse("idle_close_secs")?),
                    route_poll_secs: Some(parse("route_poll_secs")?),
                    send_timeout_ms: Some(parse("send_timeout_ms")? as u64),
                })
            })();
            let mut scenario = (*props.base).clone();
            match timing {
                Ok(t) => scenario.timing = Some(t),
                Err(e) => return error.set(Some(e)),
            }
            match scenario.validate() {
                Ok(()) => {
                    error.set(None);
                    props.on_load.emit(scenario);
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let err = (*error).clone();
    html! {
        <form class="form" data-testid="timing-form" {onsubmit} novalidate=true>
            { field(lang.t(controls::REGISTER_PERIOD), "register_secs", &secs(t.register_ms), &err, "30") }
            { field(lang.t(controls::SCAN_INTERVAL), "scan_secs", &secs(t.scan_ms), &err, "5") }
            { field(lang.t(controls::EXPIRY), "expiry_secs", &secs(t.expiry_ms), &err, "120") }
            { field(lang.t(controls::IDLE_CLOSE), "idle_close_secs", &secs(t.idle_close_ms), &err, "120") }
            { field(lang.t(controls::CLIENT_ROUTE_POLL), "route_poll_secs", &secs(t.route_poll_ms), &err, "30") }
            { field(lang.t(controls::SEND_TIMEOUT), "send_timeout_ms", &t.send_timeout_ms.to_string(), &err, "3000") }
            <button type="submit" class="primary">{ lang.t(controls::APPLY_AND_RESTART) }</button>
            { for warnings.iter().map(|w| html!{ <p class="warning" role="status">{ format!("⚠ {w}") }</p> }) }
        </form>
    }
}
