//! Time controls: clock, play/pause (Space), speed, step, +10 s / +30 s / +2 min, to the next expiry.

use yew::prelude::*;

use super::state::{Msg, SPEEDS};
use super::{fmt_secs, Store};

#[derive(Properties, PartialEq)]
pub struct TimeBarProps {
    pub store: Store,
}

#[component]
pub fn TimeBar(props: &TimeBarProps) -> Html {
    let store = &props.store;
    let sim = store.sim();
    let now = sim.now();
    let next = sim.next_timer();
    let dispatch = |msg: fn() -> Msg| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(msg()))
    };
    let advance = |secs: u64| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Advance(secs * 1000)))
    };
    let on_speed = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            // Speeds are whole numbers: read as integers (no float parser in the bundle).
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value()
                .parse::<u32>()
                .map_or(10.0, f64::from);
            store.dispatch(Msg::SetSpeed(v));
        })
    };
    // No pause glyph: Debian's Chromium fonts lack U+23F8 and draw an empty box.
    let play_label = if store.playing { "Pause" } else { "▶ Play" };
    html! {
        <section class="timebar" aria-label="time controls">
            <span class="clock" data-testid="clock" title="virtual time">{ format!("t = {} s", crate::decimal::secs_fixed(now, 1)) }</span>
            <button data-testid="play-pause" class={classes!("primary", store.playing.then_some("playing"))}
                onclick={dispatch(|| Msg::TogglePlay)} title="Space">{ play_label }</button>
            <label class="speed">{ "speed " }
                <select onchange={on_speed} aria-label="speed">
                    { for SPEEDS.iter().map(|s| html! {
                        <option value={(*s as u32).to_string()} selected={(*s - store.speed).abs() < 1e-9}>{ format!("{}×", *s as u32) }</option>
                    }) }
                </select>
            </label>
            <button data-testid="step" onclick={dispatch(|| Msg::Step)}
                title="fire the next timer (registration, scan, route poll, send)">{ "Step ⇥" }</button>
            { for [10u64, 30, 120].iter().map(|s| html! {
                <button data-testid="advance" data-secs={s.to_string()} onclick={advance(*s)}>
                    { if *s < 60 { format!("+{s} s") } else { format!("+{} min", s / 60) } }
                </button>
            }) }
            <button data-testid="advance-to-expiry" onclick={dispatch(|| Msg::AdvanceToExpiry)}
                title="run until a NameServer removes a broker (next expiry, idle close or scan)">{ "» next expiry" }</button>
            // Always laid out, shown or hidden, so the bar does not jump while time runs.
            <span class={classes!("behind", store.falling_behind().then_some("on"))} data-testid="behind"
                title="the simulator cannot keep up with this speed here: virtual time runs slower than chosen">
                { "⚠ slower than chosen" }</span>
            <span class="next" title="when the next timer fires">
                { next.map(|t| format!("next timer in {}", fmt_secs(t.saturating_sub(now)))).unwrap_or_default() }
            </span>
        </section>
    }
}
