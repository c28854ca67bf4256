//! The workshop in a classroom (`?room=CODE`, with `&teacher=TOKEN` for the teacher's page): the
//! socket to the hub, and the bar that says where the page stands.
//!
//! Test contract: `class-bar` (`data-role` teacher | student, `data-state` joining | following |
//! exploring | teaching | lost), `class-students-link`, `class-qr`, `class-roster`
//! (`data-following`, `data-exploring`, `data-disconnected`), `class-tally` (`data-step`),
//! `class-tally-bar` (`data-count`), `class-reveal`, `class-explore`, `class-follow`,
//! `predict-waiting` (in the lesson panel).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use super::lesson::LessonProps;
use super::socket::Socket;
use super::state::{Class, ClassMsg, LessonRun, Link, Msg, Role};
use super::{click, Store};
use crate::i18n::{classroom as words, Lang};

/// The session-storage key of a student's id: a reload is the same student, another tab another.
const STUDENT_KEY: &str = "routelab.student";

/// The classroom the URL asks for (`?room=CODE[&teacher=TOKEN]`), if any.
pub fn class_from_url() -> Option<Class> {
    let location = web_sys::window()?.location();
    let search = location.search().ok()?;
    // A page opened on a scenario of its own (a share link, `#lesson=`) drives with it.
    let adopt = location.hash().ok().is_none_or(|h| h.is_empty());
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    let code = params.get("room").filter(|c| !c.is_empty())?;
    let role = if params.get("teacher").is_some() {
        Role::Teacher
    } else {
        Role::Student
    };
    Some(Class::new(role, code, adopt))
}

/// `ws(s)://HOST/room/ws?…` for this page.
fn socket_url(class: &Class) -> Option<String> {
    let window = web_sys::window()?;
    let loc = window.location();
    let scheme = if loc.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    let host = loc.host().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&loc.search().ok()?).ok()?;
    let query = web_sys::UrlSearchParams::new().ok()?;
    query.append("room", &class.code);
    match class.role {
        Role::Teacher => query.append("token", &params.get("teacher").unwrap_or_default()),
        Role::Student => query.append("student", &student_id()),
    }
    Some(format!(
        "{scheme}://{host}/room/ws?{}",
        String::from(query.to_string())
    ))
}

/// This tab's student id, made once.
fn student_id() -> String {
    let storage = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    if let Some(id) = storage
        .as_ref()
        .and_then(|s| s.get_item(STUDENT_KEY).ok().flatten())
    {
        return id;
    }
    let id: String = (0..4)
        .map(|_| format!("{:04x}", (js_sys::Math::random() * 65536.0) as u32))
        .collect();
    if let Some(s) = storage {
        let _ = s.set_item(STUDENT_KEY, &id);
    }
    id
}

/// Runs the socket to the hub while the page is in a classroom: one per `generation`, the
/// state's outbox sent (and acknowledged with `ClassMsg::Sent`) after every change, the reconnect
/// timer while lost.
#[hook]
pub fn use_classroom(store: Store) {
    let current: Rc<RefCell<Option<Socket>>> = use_mut_ref(|| None);
    let class = store.class.clone();
    let generation = class.as_ref().map(|c| c.generation);
    {
        let current = current.clone();
        let dispatcher = store.clone();
        let class = class.clone();
        use_effect_with(generation, move |_| {
            if let Some(url) = class.as_deref().and_then(socket_url) {
                let d = (dispatcher.clone(), dispatcher.clone(), dispatcher.clone());
                let opened = Socket::open(
                    &url,
                    move || d.0.dispatch(Msg::Class(ClassMsg::Opened)),
                    move |text| d.1.dispatch(Msg::Class(ClassMsg::Frame(text))),
                    move |code, _| d.2.dispatch(Msg::Class(ClassMsg::Closed(code))),
                );
                match opened {
                    Ok(s) => *current.borrow_mut() = Some(s),
                    Err(_) => dispatcher.dispatch(Msg::Class(ClassMsg::Closed(0))),
                }
            }
            move || drop(current.borrow_mut().take())
        });
    }
    {
        let current = current.clone();
        let class = class.clone();
        let store = store.clone();
        // The texts numbered below this were taken, should a render come before the reducer has
        // the acknowledgement.
        let taken = use_mut_ref(|| 0u64);
        use_effect_with(store.version, move |_| {
            let first = store.outbox_first.max(*taken.borrow());
            let upto = store.outbox_first + store.outbox.len() as u64;
            if let (Some(class), Some(socket), true) =
                (class, current.borrow().as_ref(), upto > first)
            {
                // What was said before the connection dropped is not sent: it is said again after
                // the welcome.
                if class.link == Link::Open {
                    let skip = (first - store.outbox_first) as usize;
                    for text in store.outbox.iter().skip(skip) {
                        socket.send(text);
                    }
                }
                *taken.borrow_mut() = upto;
                store.dispatch(Msg::Class(ClassMsg::Sent(upto)));
            }
        });
    }
    let retry = class.as_ref().and_then(|c| match c.link {
        Link::Lost { retry_ms } => Some(retry_ms),
        _ => None,
    });
    let dispatcher = store.clone();
    use_effect_with((generation, retry), move |(_, retry)| {
        let timer = retry
            .map(|ms| Timeout::new(ms, move || dispatcher.dispatch(Msg::Class(ClassMsg::Retry))));
        move || drop(timer)
    });
}

/// The bar under the header: the teacher's room, link, QR code, who follows and the answers; or
/// the student's state with Explore / Follow.
#[component]
pub fn ClassBar(props: &LessonProps) -> Html {
    let big_qr = use_state(|| false);
    let Some(c) = props.class.as_deref() else {
        return html! {};
    };
    let lang = props.lang;
    let send = |m: ClassMsg| click(&props.on_class, m);
    let refused = c.refused.as_ref().map(|why| {
        html! { <p class="class-refused" role="alert">{ lang.fill(words::REFUSED, &[("why", why)]) }</p> }
    });
    let link = match c.link {
        Link::Open | Link::Replaced => None,
        Link::Connecting => Some(lang.t(words::CONNECTING).to_owned()),
        Link::Lost { retry_ms } => {
            Some(lang.fill(words::LOST, &[("s", &(retry_ms / 1000).max(1).to_string())]))
        }
    };
    match c.role {
        Role::Teacher => {
            let url = c.follower.student_url().to_owned();
            let r = c.roster;
            let toggle = {
                let big_qr = big_qr.clone();
                Callback::from(move |_: MouseEvent| big_qr.set(!*big_qr))
            };
            let state = match c.link {
                Link::Replaced => "replaced",
                Link::Lost { .. } => "lost",
                _ if !c.follower.welcomed() => "joining",
                _ => "teaching",
            };
            html! {
                <section class={classes!("class-bar", "teacher", big_qr.then_some("big-qr"))} data-testid="class-bar" data-role="teacher" data-state={state}>
                    <div class="class-who">
                        <b>{ lang.fill(words::TEACHER_ROOM, &[("code", &c.code)]) }</b>
                        <span>{ lang.t(words::STUDENTS_OPEN) }</span>
                        <a class="class-link" data-testid="class-students-link" href={url.clone()} target="_blank">{ url }</a>
                        <span class="class-roster" data-testid="class-roster" data-following={r.following.to_string()}
                            data-exploring={r.exploring.to_string()} data-disconnected={r.disconnected.to_string()}>
                            { lang.fill(words::ROSTER, &[("following", &r.following.to_string()), ("exploring", &r.exploring.to_string()), ("disconnected", &r.disconnected.to_string())]) }
                        </span>
                        { for link.map(|l| html! { <span class="class-link-state">{ l }</span> }) }
                        { if c.link == Link::Replaced { html! {
                            <span class="class-link-state">{ lang.t(words::REPLACED) }
                                <button class="primary" data-testid="class-drive" onclick={send(ClassMsg::Retry)}>{ lang.t(words::DRIVE_HERE) }</button>
                            </span>
                        } } else { html! {} } }
                    </div>
                    { tally(props.lesson.as_deref(), c, lang, send(ClassMsg::Reveal)) }
                    // What the projector should show once the class has joined.
                    <button class="class-present" data-testid="class-present" title={lang.t(crate::i18n::workshop::PRESENT_HINT)}
                        onclick={props.on_present.clone()}>
                        { lang.t(crate::i18n::workshop::PRESENT) }</button>
                    <button class="class-qr" onclick={toggle} title={lang.t(if *big_qr { words::SMALLER_QR } else { words::BIGGER_QR })}>
                        <img data-testid="class-qr" src="/room/qr.svg" alt={lang.t(words::QR_LABEL)} />
                    </button>
                    { for refused }
                </section>
            }
        }
        Role::Student => {
            let (state, text) = if let Some(l) = &link {
                (
                    if c.link == Link::Connecting {
                        "joining"
                    } else {
                        "lost"
                    },
                    l.clone(),
                )
            } else if !c.follower.welcomed() {
                ("joining", lang.fill(words::JOINING, &[("code", &c.code)]))
            } else if c.follower.room().source.is_none() {
                ("joining", lang.t(words::WAITING_FOR_TEACHER).to_owned())
            } else if c.exploring {
                ("exploring", lang.t(words::EXPLORING).to_owned())
            } else {
                ("following", lang.t(words::FOLLOWING).to_owned())
            };
            let button = if c.exploring {
                html! { <button class="primary" data-testid="class-follow" onclick={send(ClassMsg::Follow)}>{ lang.t(words::FOLLOW) }</button> }
            } else {
                html! { <button data-testid="class-explore" onclick={send(ClassMsg::Explore)} disabled={state != "following"}>{ lang.t(words::EXPLORE) }</button> }
            };
            html! {
                <section class={classes!("class-bar", "student", state)} data-testid="class-bar" data-role="student" data-state={state}>
                    <b>{ lang.fill(words::STUDENT_ROOM, &[("code", &c.code)]) }</b>
                    <span class="class-state" role="status">{ text }</span>
                    { button }
                    { for refused }
                </section>
            }
        }
    }
}

/// The answers to the current question as bars, with the Reveal button.
fn tally(run: Option<&LessonRun>, c: &Class, lang: Lang, reveal: Callback<MouseEvent>) -> Html {
    let question = run.and_then(|r| r.step().and_then(|s| s.predict.as_ref()).map(|p| (r, p)));
    let Some((run, p)) = question else {
        return html! { <p class="class-tally hint">{ lang.t(words::NO_QUESTION) }</p> };
    };
    let step = run.player.current();
    let counts = c
        .tally
        .as_ref()
        .filter(|t| t.step == step)
        .map(|t| t.counts.clone())
        .unwrap_or_else(|| vec![0; p.choices.len()]);
    let total: usize = counts.iter().sum();
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    let revealed = c
        .follower
        .room()
        .lesson
        .as_ref()
        .is_some_and(|l| l.revealed && l.step == step && l.name == run.name);
    html! {
        <div class="class-tally" data-testid="class-tally" data-step={step.to_string()}>
            <b>{ lang.fill(words::ANSWERS, &[("n", &total.to_string())]) }</b>
            { for p.choices.iter().zip(&counts).map(|(choice, n)| html! {
                <div class="tally-row">
                    <span class="tally-label">{ choice.label(lang) }</span>
                    <span class="tally-bar" data-testid="class-tally-bar" data-count={n.to_string()}
                        style={format!("width:{}%", n * 100 / most)} />
                    <span class="tally-n">{ n.to_string() }</span>
                </div>
            }) }
            { if revealed {
                html! { <span class="revealed">{ lang.t(words::REVEALED) }</span> }
            } else {
                html! { <button class="primary" data-testid="class-reveal" onclick={reveal}>{ lang.t(words::REVEAL) }</button> }
            } }
        </div>
    }
}
