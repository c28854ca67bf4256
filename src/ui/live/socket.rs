//! The WebSocket glue, kept small: open a socket per `generation`, turn its events into
//! [`LiveMsg`]s stamped with the page clock, send a resync when `resyncs` moves, and fire the
//! reconnect timer. Everything else is in the pure reducer (`state.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CloseEvent, MessageEvent, WebSocket};
use yew::prelude::*;

use super::state::{CloseReason, Conn, LiveMsg, LiveStore};

/// `ClientMessage::Resync` as JSON (the one message a viewer sends).
const RESYNC: &str = r#"{"type":"resync"}"#;

/// An open socket with its handlers; dropping it detaches them and closes the socket, so a stale
/// socket's late events never reach the reducer.
struct Connection {
    ws: WebSocket,
    _on_open: Closure<dyn FnMut()>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
}

impl Connection {
    fn open(url: &str, dispatch: Callback<LiveMsg>) -> Result<Self, CloseReason> {
        let ws = WebSocket::new(url).map_err(|e| CloseReason::CannotOpen {
            url: url.to_owned(),
            why: e.as_string(),
        })?;
        let on_open = {
            let dispatch = dispatch.clone();
            Closure::<dyn FnMut()>::new(move || dispatch.emit(LiveMsg::Opened))
        };
        let on_message = {
            let dispatch = dispatch.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                // The protocol is text frames only; anything else is ignored.
                if let Some(text) = e.data().as_string() {
                    dispatch.emit(LiveMsg::Frame {
                        text,
                        at_ms: js_sys::Date::now(),
                    });
                }
            })
        };
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |e: CloseEvent| {
            dispatch.emit(LiveMsg::Closed {
                reason: close_reason(e.code(), &e.reason()),
                at_ms: js_sys::Date::now(),
            })
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Ok(Self {
            ws,
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
        })
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        let _ = self.ws.close();
    }
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
    let current: Rc<RefCell<Option<Connection>>> = use_mut_ref(|| None);
    {
        let current = current.clone();
        let dispatcher = store.dispatcher();
        use_effect_with((store.url.clone(), store.generation), move |(url, _)| {
            if let Some(url) = url {
                let dispatch = Callback::from(move |m| dispatcher.dispatch(m));
                match Connection::open(url, dispatch.clone()) {
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
                    let _ = c.ws.send_with_str(RESYNC);
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
                    let _ =
                        c.ws.send_with_str(&format!(r#"{{"type":"command","text":{text}}}"#));
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
