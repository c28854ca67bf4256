//! The heartbeat ring: an SVG circle that drains from full (just heard from) to empty (expiry).

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RingProps {
    /// ms since the last heartbeat.
    pub age_ms: u64,
    /// The expiry, ms.
    pub timeout_ms: u64,
    /// Tooltip.
    pub title: AttrValue,
}

/// The ring's radius (the circles' `r`).
const RADIUS: f64 = 11.0;

/// A length with two decimals (what `{:.2}` wrote), from integers: no float formatting in the bundle.
fn hundredths(x: f64) -> String {
    let h = (x * 100.0).round() as u64;
    format!("{}.{:02}", h / 100, h % 100)
}

/// A 28 px ring; green while fresh, amber past half, red in the last quarter.
#[component]
pub fn Ring(props: &RingProps) -> Html {
    let frac = 1.0 - (props.age_ms as f64 / props.timeout_ms.max(1) as f64).clamp(0.0, 1.0);
    let circ = 2.0 * std::f64::consts::PI * RADIUS;
    let color = match frac {
        f if f > 0.5 => "var(--ok)",
        f if f > 0.25 => "var(--warn)",
        _ => "var(--bad)",
    };
    html! {
        <svg class="ring" width="28" height="28" viewBox="0 0 28 28" role="img" aria-label={props.title.clone()}>
            <title>{ props.title.clone() }</title>
            <circle cx="14" cy="14" r="11" class="ring-bg" />
            <circle cx="14" cy="14" r="11" class="ring-fg" stroke={color}
                stroke-dasharray={format!("{} {}", hundredths(circ * frac), hundredths(circ))} transform="rotate(-90 14 14)" />
        </svg>
    }
}
