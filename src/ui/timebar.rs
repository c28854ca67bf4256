//! Time controls: clock, play/pause (Space), speed, step, +10 s / +30 s / +2 min, to the next expiry.

use yew::prelude::*;

use super::panel::PanelProps;
use super::state::SPEEDS;
use super::{click, fmt_secs};
use crate::i18n::workshop;

#[component]
pub fn TimeBar(props: &PanelProps) -> Html {
    let lang = props.lang;
    let sim = props.sim.sim();
    let now = sim.now();
    let next = sim.next_timer();
    let advance = |secs: u64| click(&props.on_advance, secs * 1000);
    let on_speed = props.on_speed.reform(|e: Event| {
        // Speeds are whole numbers: read as integers (no float parser in the bundle).
        e.target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
            .parse::<u32>()
            .map_or(10, u64::from)
    });
    // No pause glyph: Debian's Chromium fonts lack U+23F8 and draw an empty box.
    let play_label = lang.t(if props.playing {
        workshop::PAUSE
    } else {
        workshop::PLAY
    });
    html! {
        <section class="timebar" aria-label={lang.t(workshop::TIME_CONTROLS)}>
            <span class="clock" data-testid="clock" title={lang.t(workshop::VIRTUAL_TIME)}>{ format!("t = {} s", crate::decimal::secs_fixed(now, 1)) }</span>
            <button data-testid="play-pause" class={classes!("primary", props.playing.then_some("playing"))}
                onclick={props.on_play.clone()} title="Space">{ play_label }</button>
            <label class="speed">{ lang.t(workshop::SPEED) }{ " " }
                <select onchange={on_speed} aria-label={lang.t(workshop::SPEED)}>
                    { for SPEEDS.iter().map(|s| html! {
                        <option value={(*s as u32).to_string()} selected={(*s - props.speed).abs() < 1e-9}>{ format!("{}×", *s as u32) }</option>
                    }) }
                </select>
            </label>
            <button data-testid="step" onclick={props.on_step.clone()}
                title={lang.t(workshop::STEP_HINT)}>{ lang.t(workshop::STEP) }</button>
            { for [10u64, 30, 120].iter().map(|s| html! {
                <button data-testid="advance" data-secs={s.to_string()} onclick={advance(*s)}>
                    { if *s < 60 { format!("+{s} s") } else { format!("+{} min", s / 60) } }
                </button>
            }) }
            <button data-testid="advance-to-expiry" onclick={props.on_expiry.clone()}
                title={lang.t(workshop::NEXT_EXPIRY_HINT)}>{ lang.t(workshop::NEXT_EXPIRY) }</button>
            // Always laid out, shown or hidden, so the bar does not jump while time runs.
            <span class={classes!("behind", props.behind.then_some("on"))} data-testid="behind"
                title={lang.t(workshop::BEHIND_HINT)}>
                { lang.t(workshop::BEHIND) }</span>
            <span class="next" title={lang.t(workshop::NEXT_TIMER_HINT)}>
                { next.map(|t| lang.fill(workshop::NEXT_TIMER_IN, &[("t", &fmt_secs(t.saturating_sub(now)))])).unwrap_or_default() }
            </span>
        </section>
    }
}
