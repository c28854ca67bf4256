//! The WebSocket glue, kept small: open a socket per `generation`, turn its events into
//! [`LiveMsg`]s stamped with the page clock, send a resync when `resyncs` moves, and fire the
//! reconnect timer. Everything else is in the pure reducer (`state.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use super::state::{CloseReason, Conn, LiveMsg, LiveStore};
use crate::ui::socket::Socket;

/// `ClientMessage::Resync` as JSON (the one message a viewer sends).
const RESYNC: &str = r#"{"type":"resync"}"#;

/// Opens `url`, its events turned into [`LiveMsg`]s stamped with the page clock.
fn open(url: &str, dispatch: Callback<LiveMsg>) -> Result<Socket, CloseReason> {
    let (opened, frames) = (dispatch.clone(), dispatch.clone());
    Socket::open(
        url,
        move || opened.emit(LiveMsg::Opened),
        move |text| {
            frames.emit(LiveMsg::Frame {
                text,
                at_ms: js_sys::Date::now(),
            })
        },
        move |code, reason| {
            dispatch.emit(LiveMsg::Closed {
                reason: close_reason(code, &reason),
                at_ms: js_sys::Date::now(),
            })
        },
    )
    .map_err(|why| CloseReason::CannotOpen {
        url: url.to_owned(),
        why,
    })
}

/// Why a socket closed: the reason the bridge gave, else the code (the page puts it in words).
fn close_reason(code: u16, reason: &str) -> CloseReason {
    match reason.trim() {
        "" => CloseReason::Code(code),
        given => CloseReason::Given(given.to_owned()),
    }
}

/// Runs the socket for `store` while its URL is set.
#[hook]
pub fn use_live_socket(store: LiveStore) {
    let current: Rc<RefCell<Option<Socket>>> = use_mut_ref(|| None);
    {
        let current = current.clone();
        let dispatcher = store.dispatcher();
        use_effect_with((store.url.clone(), store.generation), move |(url, _)| {
            if let Some(url) = url {
                let dispatch = Callback::from(move |m| dispatcher.dispatch(m));
                match open(url, dispatch.clone()) {
                    Ok(c) => *current.borrow_mut() = Some(c),
                    Err(reason) => dispatch.emit(LiveMsg::Closed {
                        reason,
                        at_ms: js_sys::Date::now(),
                    }),
                }
            }
            move || drop(current.borrow_mut().take())
        });
    }
    {
        let current = current.clone();
        use_effect_with(store.resyncs, move |n| {
            if *n > 0 {
                if let Some(c) = current.borrow().as_ref() {
                    c.send(RESYNC);
                }
            }
        });
    }
    {
        let current = current.clone();
        let command = store.command.clone();
        use_effect_with(store.commands_sent, move |n| {
            if *n > 0 {
                if let (Some(c), Some(text)) = (current.borrow().as_ref(), command) {
                    // A string always serializes; the fallback only keeps this free of unwrap.
                    let text = serde_json::to_string(&text).unwrap_or_else(|_| "\"\"".into());
                    c.send(&format!(r#"{{"type":"command","text":{text}}}"#));
                }
            }
        });
    }
    let delay = match &store.conn {
        Conn::Reconnecting { delay_ms, .. } => Some(*delay_ms),
        _ => None,
    };
    let dispatcher = store.dispatcher();
    use_effect_with((store.generation, delay), move |(_, delay)| {
        let timer = delay.map(|ms| {
            Timeout::new(ms.min(u32::MAX as u64) as u32, move || {
                dispatcher.dispatch(LiveMsg::Retry)
            })
        });
        move || drop(timer)
    });
}
