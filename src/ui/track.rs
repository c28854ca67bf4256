//! The timeline track both time-travel views draw: the workshop's run (simulated time from 0) and
//! live mode's recorded history (the bridge's clock). A span of time, the part reached shaded, the
//! caller's marks placed by time, and the moment shown as a cursor; a click on the track (and, where
//! asked, a drag) seeks to the time under the pointer. What the marks are and what seeking does
//! belong to the caller.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::dec;

#[derive(Properties, PartialEq)]
pub struct TrackProps {
    /// The span drawn, in the caller's ms.
    pub from: u64,
    pub to: u64,
    /// Shaded from `from` up to here; the pointer seeks no further.
    pub reached: u64,
    /// The moment shown, if one is.
    pub cursor: Option<u64>,
    pub on_seek: Callback<u64>,
    /// Whether moving the pointer with the button down seeks too (the workshop replays locally;
    /// live mode asks its bridge for each moment, so it seeks on click only).
    #[prop_or(true)]
    pub drag: bool,
    pub title: AttrValue,
    /// The marks, each placed with [`left`].
    #[prop_or_default]
    pub children: Html,
}

/// `left:12.345%`: where `t` sits on a track spanning `from`..`to`.
pub fn left(from: u64, to: u64, t: u64) -> String {
    format!("left:{}%", dec(percent(from, to, t), 3))
}

fn percent(from: u64, to: u64, t: u64) -> f64 {
    t.saturating_sub(from) as f64 * 100.0 / to.saturating_sub(from).max(1) as f64
}

/// The time under a pointer at `client_x` over the track `el`, clamped to `from..=reached`.
fn time_at(el: &web_sys::Element, client_x: i32, from: u64, to: u64, reached: u64) -> u64 {
    let rect = el.get_bounding_client_rect();
    let width = rect.width().max(1.0);
    let x = (f64::from(client_x) - rect.left()).clamp(0.0, width);
    (from + (x / width * to.saturating_sub(from) as f64) as u64).min(reached.max(from))
}

#[component]
pub fn Track(props: &TrackProps) -> Html {
    let (from, to, reached, cursor) = (props.from, props.to, props.reached, props.cursor);
    let seek_at = |drag: bool| {
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            if drag && e.buttons() & 1 == 0 {
                return;
            }
            let Some(el) = e
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            let t = time_at(&el, e.client_x(), from, to, reached);
            // A drag over the same spot (within a pixel's worth of time) does not seek again.
            let moved = cursor.is_none_or(|c| t.abs_diff(c) >= to.saturating_sub(from) / 2000);
            if !drag || moved {
                on_seek.emit(t);
            }
        })
    };
    let onmousemove = props.drag.then(|| seek_at(true));
    html! {
        <div class="tl-track" onmousedown={seek_at(false)} {onmousemove} title={props.title.clone()}>
            <div class="tl-reached" style={format!("width:{}%", dec(percent(from, to, reached), 3))} />
            { props.children.clone() }
            { for cursor.map(|t| html! { <div class="tl-cursor" style={left(from, to, t)} /> }) }
        </div>
    }
}
