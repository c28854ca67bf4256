//! Forms: add a broker, add a producer, topic and perm actions, timing knobs. A bad field is marked
//! in place with the reason (the simulator's validation names it); nothing is applied.

use yew::prelude::*;

use super::panel::PanelProps;
use super::parse_number;
use crate::i18n::{controls, Lang};
use crate::producer::ClientProfile;
use crate::sim::scenario::{BrokerSpec, ProducerSpec, Timing as TimingSpec, TopicSpec};
use crate::sim::{Action, ScenarioError};

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// A labelled text field bound to a state, with its error (if any) under it.
fn field(
    label: &str,
    name: &str,
    value: &UseStateHandle<String>,
    error: &Option<ScenarioError>,
    hint: &str,
) -> Html {
    let oninput = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| value.set(input_value(&e)))
    };
    let err = error.as_ref().filter(|e| {
        let p = e.path.rsplit('.').next().unwrap_or("");
        p == name || p.starts_with(&format!("{name}[")) || e.path.contains(&format!(".{name}["))
    });
    html! {
        <label class={classes!("field", err.is_some().then_some("invalid"))}>
            <span>{ label.to_owned() }</span>
            <input name={name.to_owned()} value={(**value).clone()} {oninput} placeholder={hint.to_owned()} aria-invalid={err.is_some().to_string()} />
            { for err.map(|e| html!{ <small class="error" role="alert">{ e.message.clone() }</small> }) }
        </label>
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

/// Add a broker: cluster, name, id, address, topics.
#[component]
pub fn AddBrokerForm(props: &PanelProps) -> Html {
    let cluster = use_state(|| "DefaultCluster".to_owned());
    let name = use_state(|| "broker-c".to_owned());
    let id = use_state(|| "0".to_owned());
    let addr = use_state(|| "10.0.0.9:10911".to_owned());
    let topics = use_state(|| "TopicTest:4:4:6".to_owned());
    let error = use_state(|| None::<ScenarioError>);
    let lang = props.lang;
    let onsubmit = {
        let (props, error) = (props.clone(), error.clone());
        let (cluster, name, id, addr, topics) = (
            cluster.clone(),
            name.clone(),
            id.clone(),
            addr.clone(),
            topics.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Ok(idv) = id.trim().parse::<i64>() else {
                error.set(Some(ScenarioError::at(
                    "action.id",
                    lang.fill(
                        controls::BROKER_ID_NOT_A_NUMBER,
                        &[("value", &format!("{:?}", *id))],
                    ),
                )));
                return;
            };
            let topic_specs = match parse_topics(lang, &topics) {
                Ok(t) => t,
                Err(m) => {
                    error.set(Some(ScenarioError::at("action.topics", m)));
                    return;
                }
            };
            let spec = BrokerSpec {
                cluster: (*cluster).clone(),
                name: (*name).clone(),
                id: idv,
                addr: (*addr).clone(),
                ha_addr: None,
                topics: topic_specs,
                heartbeat_secs: None,
                system_topics: true,
                mode: Default::default(),
                zone: None,
            };
            apply_or_show(&props, Action::AddBroker(spec), &error);
        })
    };
    let err = (*error).clone();
    html! {
        <form class="form" data-testid="add-broker-form" {onsubmit} novalidate=true>
            { field(lang.t(controls::CLUSTER), "cluster", &cluster, &err, "DefaultCluster") }
            { field(lang.t(controls::BROKER_NAME), "name", &name, &err, "broker-c") }
            { field(lang.t(controls::BROKER_ID_FIELD), "id", &id, &err, "0") }
            { field(lang.t(controls::ADDRESS), "addr", &addr, &err, "10.0.0.9:10911") }
            { field(lang.t(controls::TOPICS_FIELD), "topics", &topics, &err, "TopicTest:4:4:6") }
            { for err.as_ref().filter(|e| !["cluster","name","id","addr","topics"].iter().any(|n| e.path.ends_with(n) || e.path.contains(".topics["))).map(|e| html!{ <p class="error" role="alert">{ e.to_string() }</p> }) }
            <button type="submit" class="primary">{ lang.t(controls::ADD_BROKER) }</button>
        </form>
    }
}

/// Add a producer.
#[component]
pub fn AddProducerForm(props: &PanelProps) -> Html {
    let group = use_state(|| "pg-new".to_owned());
    let topic = use_state(|| props.topic.clone());
    let rate = use_state(|| "2".to_owned());
    let ft = use_state(|| false);
    let client = use_state(|| None::<ClientProfile>);
    let namesrv = use_state(String::new);
    let error = use_state(|| None::<ScenarioError>);
    let lang = props.lang;
    let onsubmit = {
        let (props, error) = (props.clone(), error.clone());
        let (group, topic, rate, ft, client, namesrv) = (
            group.clone(),
            topic.clone(),
            rate.clone(),
            ft.clone(),
            client.clone(),
            namesrv.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(r) = parse_number(&rate) else {
                error.set(Some(ScenarioError::at(
                    "action.rate",
                    lang.fill(
                        controls::RATE_NOT_A_NUMBER,
                        &[("value", &format!("{:?}", *rate))],
                    ),
                )));
                return;
            };
            let spec = ProducerSpec {
                group: (*group).clone(),
                topic: (*topic).clone(),
                rate: r,
                fault_tolerance: *ft,
                client: *client,
                namesrv: (!namesrv.is_empty()).then(|| (*namesrv).clone()),
                zone: None,
                zone_mode: false,
            };
            apply_or_show(&props, Action::AddProducer(spec), &error);
        })
    };
    let on_ft = {
        let ft = ft.clone();
        Callback::from(move |_: Event| ft.set(!*ft))
    };
    let on_client = {
        let client = client.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            client.set(v.parse().ok());
        })
    };
    let on_ns = {
        let namesrv = namesrv.clone();
        Callback::from(move |e: Event| {
            namesrv.set(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            )
        })
    };
    let err = (*error).clone();
    html! {
        <form class="form" data-testid="add-producer-form" {onsubmit} novalidate=true>
            { field(lang.t(controls::PRODUCER_GROUP), "group", &group, &err, "pg-1") }
            { field("topic", "topic", &topic, &err, "TopicTest") }
            { field(lang.t(controls::MESSAGES_PER_SECOND), "rate", &rate, &err, "2") }
            <label class="field check"><input type="checkbox" checked={*ft} onchange={on_ft} /><span>{ lang.t(controls::FAULT_TOLERANCE_FIELD) }</span></label>
            <label class="field"><span>{ lang.t(controls::CLIENT_TABLES) }</span>
                <select onchange={on_client}>
                    <option value="" selected={client.is_none()}>{ lang.t(controls::AS_THE_PROFILE) }</option>
                    <option value="4.x">{ lang.t(controls::CLIENT_4X) }</option>
                    <option value="5.x">{ "5.1.4+" }</option>
                </select>
            </label>
            <label class="field"><span>{ "NameServer" }</span>
                <select onchange={on_ns} data-testid="producer-namesrv">
                    <option value="" selected={namesrv.is_empty()}>{ lang.t(controls::ANY_NAMESRV) }</option>
                    { for props.sim.sim().namesrvs().iter().map(|n| html!{
                        <option value={n.name.clone()} selected={*namesrv == n.name}>{ n.name.clone() }</option>
                    }) }
                </select>
            </label>
            <button type="submit" class="primary">{ lang.t(controls::ADD_PRODUCER) }</button>
        </form>
    }
}

/// Topic and permission actions, and adding a NameServer.
#[component]
pub fn ActionsForm(props: &PanelProps) -> Html {
    let lang = props.lang;
    let broker_name = use_state(|| {
        props
            .sim
            .sim()
            .brokers()
            .first()
            .map(|b| b.spec.name.clone())
            .unwrap_or_default()
    });
    let topic = use_state(|| "NewTopic".to_owned());
    let queues = use_state(|| "4".to_owned());
    let perm = use_state(|| "6".to_owned());
    let namesrv = use_state(String::new);
    let new_ns = use_state(|| format!("ns-{}", props.sim.sim().namesrvs().len() + 1));
    let error = use_state(|| None::<ScenarioError>);
    let err = (*error).clone();
    let ns_opt = |v: &str| (!v.is_empty()).then(|| v.to_owned());
    let create = {
        let (props, error) = (props.clone(), error.clone());
        let (broker_name, topic, queues, perm) = (
            broker_name.clone(),
            topic.clone(),
            queues.clone(),
            perm.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let (Ok(q), Ok(p)) = (queues.trim().parse::<i32>(), perm.trim().parse::<i32>()) else {
                error.set(Some(ScenarioError::at(
                    "action.read",
                    lang.t(controls::QUEUES_AND_PERM_NOT_NUMBERS),
                )));
                return;
            };
            let a = Action::CreateTopic {
                broker: None,
                broker_name: Some((*broker_name).clone()),
                topic: (*topic).clone(),
                read: q,
                write: q,
                perm: p,
            };
            apply_or_show(&props, a, &error);
        })
    };
    let perm_action = |wipe: bool| {
        let (props, error, broker_name, namesrv) = (
            props.clone(),
            error.clone(),
            broker_name.clone(),
            namesrv.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let ns = ns_opt(&namesrv);
            let a = if wipe {
                Action::WipeWritePerm {
                    broker_name: (*broker_name).clone(),
                    namesrv: ns,
                }
            } else {
                Action::AddWritePerm {
                    broker_name: (*broker_name).clone(),
                    namesrv: ns,
                }
            };
            apply_or_show(&props, a, &error);
        })
    };
    let add_ns = {
        let (props, error, new_ns) = (props.clone(), error.clone(), new_ns.clone());
        Callback::from(move |_: MouseEvent| {
            apply_or_show(
                &props,
                Action::AddNamesrv {
                    name: (*new_ns).clone(),
                },
                &error,
            )
        })
    };
    let on_ns = {
        let namesrv = namesrv.clone();
        Callback::from(move |e: Event| {
            namesrv.set(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            )
        })
    };
    let sim = props.sim.sim();
    html! {
        <div class="form actions-form">
            { field(lang.t(controls::BROKER_NAME), "broker_name", &broker_name, &err, "broker-a") }
            <fieldset>
                <legend>{ lang.t(controls::CREATE_TOPIC_LEGEND) }</legend>
                { field("topic", "topic", &topic, &err, "NewTopic") }
                { field(lang.t(controls::READ_EQUALS_WRITE_QUEUES), "read", &queues, &err, "4") }
                { field(lang.t(controls::PERM_FIELD), "perm", &perm, &err, "6") }
                <button onclick={create}>{ lang.t(controls::CREATE_TOPIC) }</button>
            </fieldset>
            <fieldset>
                <legend>{ lang.t(controls::WRITE_PERM_LEGEND) }</legend>
                <label class="field"><span>{ "NameServer" }</span>
                    <select onchange={on_ns}>
                        <option value="">{ lang.t(controls::ALL_NAMESERVERS) }</option>
                        { for sim.namesrvs().iter().map(|n| html!{ <option value={n.name.clone()}>{ n.name.clone() }</option> }) }
                    </select>
                </label>
                <button onclick={perm_action(true)}>{ lang.t(controls::WIPE_WRITE_PERM) }</button>
                <button onclick={perm_action(false)}>{ lang.t(controls::ADD_WRITE_PERM) }</button>
            </fieldset>
            <fieldset>
                <legend>{ lang.t(controls::ADD_A_NAMESERVER_LEGEND) }</legend>
                { field(lang.t(controls::NAME), "name", &new_ns, &err, "ns-3") }
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
    let register = use_state(|| secs(t.register_ms));
    let scan = use_state(|| secs(t.scan_ms));
    let expiry = use_state(|| secs(t.expiry_ms));
    let idle = use_state(|| secs(t.idle_close_ms));
    let poll = use_state(|| secs(t.route_poll_ms));
    let timeout = use_state(|| t.send_timeout_ms.to_string());
    let error = use_state(|| None::<ScenarioError>);
    let warnings = props.sim.sim().timing().warnings_in(lang);
    let onsubmit = {
        let (props, error) = (props.clone(), error.clone());
        let vals = (
            register.clone(),
            scan.clone(),
            expiry.clone(),
            idle.clone(),
            poll.clone(),
            timeout.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let parse = |name: &str, v: &str| -> Result<f64, ScenarioError> {
                parse_number(v).ok_or_else(|| {
                    ScenarioError::at(
                        format!("timing.{name}"),
                        lang.fill(controls::NOT_A_NUMBER, &[("value", &format!("{v:?}"))]),
                    )
                })
            };
            let timing = (|| -> Result<TimingSpec, ScenarioError> {
                Ok(TimingSpec {
                    register_secs: Some(parse("register_secs", &vals.0)?),
                    scan_secs: Some(parse("scan_secs", &vals.1)?),
                    expiry_secs: Some(parse("expiry_secs", &vals.2)?),
                    idle_close_secs: Some(parse("idle_close_secs", &vals.3)?),
                    route_poll_secs: Some(parse("route_poll_secs", &vals.4)?),
                    send_timeout_ms: Some(parse("send_timeout_ms", &vals.5)? as u64),
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
            { field(lang.t(controls::REGISTER_PERIOD), "register_secs", &register, &err, "30") }
            { field(lang.t(controls::SCAN_INTERVAL), "scan_secs", &scan, &err, "5") }
            { field(lang.t(controls::EXPIRY), "expiry_secs", &expiry, &err, "120") }
            { field(lang.t(controls::IDLE_CLOSE), "idle_close_secs", &idle, &err, "120") }
            { field(lang.t(controls::CLIENT_ROUTE_POLL), "route_poll_secs", &poll, &err, "30") }
            { field(lang.t(controls::SEND_TIMEOUT), "send_timeout_ms", &timeout, &err, "3000") }
            <button type="submit" class="primary">{ lang.t(controls::APPLY_AND_RESTART) }</button>
            { for warnings.iter().map(|w| html!{ <p class="warning" role="status">{ format!("⚠ {w}") }</p> }) }
        </form>
    }
}
