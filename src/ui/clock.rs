//! Real time → `Msg::Tick`: an interval owned by an effect (dropped on unmount), and Space to
//! play/pause.

use gloo_timers::callback::Interval;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::state::Msg;
use super::Store;

/// Tick period in real ms.
const TICK_MS: u32 = 100;

/// Drives the simulator while playing.
#[hook]
pub fn use_sim_clock(store: Store) {
    let playing = store.playing;
    use_effect_with(playing, move |playing| {
        let interval = playing.then(|| {
            let store = store.clone();
            Interval::new(TICK_MS, move || {
                store.dispatch(Msg::Tick {
                    dt_ms: TICK_MS as f64,
                })
            })
        });
        move || drop(interval)
    });
}

/// Space toggles play/pause (unless typing in a field).
#[hook]
pub fn use_space_toggle(store: Store) {
    use_effect_with((), move |_| {
        let listener =
            Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    });
                if e.key() == " " && !typing {
                    e.prevent_default();
                    store.dispatch(Msg::TogglePlay);
                }
            });
        let window = web_sys::window();
        if let Some(w) = &window {
            let _ =
                w.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(w) = window {
                let _ = w.remove_event_listener_with_callback(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    });
}
