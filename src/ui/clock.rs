//! Real time → `Msg::Tick`: one tick per animation frame while playing, owned by an effect (stopped
//! on unmount or pause), and the keyboard shortcuts.
//!
//! Frames take turns: one simulates for a few ms of real time at most (`SIM_BUDGET_MS`), the next
//! simulates for a moment only (`RENDER_SIM_BUDGET_MS`) and renders one group of panels, the groups
//! in turn ([`Panels`]); what a frame does not simulate is owed to the next ones (see
//! `AppState::owed_ms`). A frame that did both was over 16 ms on a big cluster at 60×: its render,
//! with the browser's style, layout and paint, now has the frame to itself.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::state::{Budget, LessonMsg, Msg, Panels};
use super::Store;
use crate::i18n::{workshop, Phrase};

/// Real ms of simulation a frame that renders nothing may spend (a 60 Hz frame is 16.7 ms).
const SIM_BUDGET_MS: f64 = 6.0;
/// Real ms of simulation a frame that renders may spend: the rest is for one group of panels, with
/// the browser's style, layout and paint of what it changed. Each group renders 7.5 times a second at
/// 60 Hz; ages changing 60 times a second could not be read anyway.
const RENDER_SIM_BUDGET_MS: f64 = 1.0;
/// A longer gap between frames (a hidden tab, a debugger) counts as this much.
const MAX_FRAME_MS: f64 = 100.0;

/// The frame callback, shared with itself so it can ask for the next frame.
type FrameCallback = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// A `requestAnimationFrame` loop calling `on_frame` with the real ms since the previous frame,
/// until dropped.
struct FrameLoop {
    window: web_sys::Window,
    handle: Rc<Cell<Option<i32>>>,
    /// The frame callback, which re-arms itself through this cell; emptied on drop to break the cycle.
    callback: FrameCallback,
}

impl FrameLoop {
    fn start(mut on_frame: impl FnMut(f64) + 'static) -> Option<Self> {
        let window = web_sys::window()?;
        let handle = Rc::new(Cell::new(None));
        let callback: FrameCallback = Rc::new(RefCell::new(None));
        let last = Cell::new(None::<f64>);
        let closure = {
            let (window, handle, callback) = (window.clone(), handle.clone(), callback.clone());
            Closure::<dyn FnMut(f64)>::new(move |t: f64| {
                // Re-arm first: the next frame is requested however long this one takes.
                if let Some(cb) = callback.borrow().as_ref() {
                    handle.set(
                        window
                            .request_animation_frame(cb.as_ref().unchecked_ref())
                            .ok(),
                    );
                }
                let dt = last.get().map_or(0.0, |l| (t - l).clamp(0.0, MAX_FRAME_MS));
                last.set(Some(t));
                on_frame(dt);
            })
        };
        handle.set(
            window
                .request_animation_frame(closure.as_ref().unchecked_ref())
                .ok(),
        );
        *callback.borrow_mut() = Some(closure);
        Some(Self {
            window,
            handle,
            callback,
        })
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = self.window.cancel_animation_frame(h);
        }
        self.callback.borrow_mut().take();
    }
}

/// Drives the simulator while playing.
#[hook]
pub fn use_sim_clock(store: Store) {
    let playing = store.playing;
    use_effect_with(playing, move |playing| {
        let frames = playing
            .then(|| {
                let frame = Cell::new(0u32);
                FrameLoop::start(move |dt_ms| {
                    let n = frame.get() as usize;
                    frame.set(frame.get().wrapping_add(1));
                    let render = (n % 2 == 1).then(|| Panels::ALL[n / 2 % Panels::COUNT]);
                    let budget_ms = match render {
                        Some(_) => RENDER_SIM_BUDGET_MS,
                        None => SIM_BUDGET_MS,
                    };
                    let deadline = js_sys::Date::now() + budget_ms;
                    store.dispatch(Msg::Tick {
                        dt_ms,
                        budget: Some(Budget::new(move || js_sys::Date::now() < deadline)),
                        render,
                    })
                })
            })
            .flatten();
        move || drop(frames)
    });
}

/// The keyboard shortcuts, as the `?` list shows them: (keys, as the keyboard labels them; what
/// they do).
pub const SHORTCUTS: [(&str, Phrase); 11] = [
    ("Space", workshop::KEY_PLAY_PAUSE),
    ("←", workshop::KEY_PREVIOUS_MARK),
    ("→", workshop::KEY_NEXT_MARK),
    ("PageUp / PageDown", workshop::KEY_LESSON_STEPS),
    ("Shift + ←", workshop::KEY_BACK_10_S),
    ("Shift + →", workshop::KEY_FORWARD_10_S),
    ("Home", workshop::KEY_HOME),
    ("End", workshop::KEY_END),
    ("P", workshop::KEY_PRESENT),
    ("Esc", workshop::KEY_ESCAPE),
    ("?", workshop::KEY_TOGGLE_LIST),
];

/// The keyboard shortcuts (unless typing in a field): Space, ← / →, PageUp / PageDown, Shift + ← / →, Home, End, P
/// (presentation mode), ?, and Escape to close the list or leave presentation mode.
#[hook]
pub fn use_shortcuts(store: Store) {
    use_effect_with((), move |_| {
        let listener =
            Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    });
                if typing || e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                // Space and Enter on a focused button or link press it, and nothing else.
                let on_control = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY")
                            || el.get_attribute("role").as_deref() == Some("button")
                    });
                if on_control && matches!(e.key().as_str(), " " | "Enter") {
                    return;
                }
                let msg = match (e.key().as_str(), e.shift_key()) {
                    (" ", _) => Msg::TogglePlay,
                    ("ArrowLeft", false) => Msg::KeyBack,
                    ("ArrowRight", false) => Msg::KeyForward,
                    ("PageUp", _) => Msg::Lesson(LessonMsg::Back),
                    ("PageDown", _) => Msg::Lesson(LessonMsg::Next),
                    ("ArrowLeft", true) => Msg::SeekBy(-10_000),
                    ("ArrowRight", true) => Msg::SeekBy(10_000),
                    ("Home", _) => Msg::Seek(0),
                    ("End", _) => Msg::SeekHead,
                    ("?", _) => Msg::ToggleShortcuts(None),
                    ("p" | "P", _) => Msg::Present(None),
                    ("Escape", _) => Msg::Escape,
                    _ => return,
                };
                e.prevent_default();
                store.dispatch(msg);
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
