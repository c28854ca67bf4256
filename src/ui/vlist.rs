//! A windowed list: only the rows in view (and a few around them) are in the DOM, so a table of
//! 20,000 queue-data rows or a cluster of 200 brokers costs a tick what twenty rows cost. Rows have a
//! fixed height; spacers above and below keep the scrollbar true to the whole list.

use std::ops::Range;

use yew::prelude::*;

/// Rows rendered beyond the visible ones on each side, so a quick scroll does not show blanks.
const OVERSCAN: usize = 4;
/// Rows at least this tall (px) get one row of overscan: a broker card is already 150 px, and the
/// cards are re-rendered on every frame that renders.
const TALL_ROW_PX: u32 = 100;

#[derive(Properties, PartialEq)]
pub struct VirtualListProps {
    /// How many rows the whole list has.
    pub len: usize,
    /// The height of every row, px (CSS must keep rows to it: `.vrow` / `.vtable tr`).
    pub row_height: u32,
    /// The height of the scrolling viewport, px.
    pub viewport: u32,
    /// Renders the rows of a range (keyed rows let the window slide without rewriting them).
    pub rows: Callback<Range<usize>, Html>,
    /// A table header: the rows are then `<tr>`s of a `<table>`, else `<div>`s.
    #[prop_or_default]
    pub head: Option<Html>,
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub testid: Option<AttrValue>,
}

/// The rows to render for a scroll position: the visible ones plus the overscan, within the list.
pub fn window(len: usize, row_height: u32, viewport: u32, scroll_top: i32) -> Range<usize> {
    window_with(len, row_height, viewport, scroll_top, OVERSCAN)
}

/// [`window`] with `overscan` rows on each side.
fn window_with(
    len: usize,
    row_height: u32,
    viewport: u32,
    scroll_top: i32,
    overscan: usize,
) -> Range<usize> {
    let h = row_height.max(1) as usize;
    let first = (scroll_top.max(0) as usize / h).min(len);
    let start = first.saturating_sub(overscan);
    let end = (first + viewport as usize / h + 1 + overscan).min(len);
    start..end
}

/// A scrolling viewport over `len` fixed-height rows.
#[component]
pub fn VirtualList(props: &VirtualListProps) -> Html {
    let scroll_top = use_state(|| 0i32);
    let over = if props.row_height >= TALL_ROW_PX {
        1
    } else {
        OVERSCAN
    };
    let range = window_with(
        props.len,
        props.row_height,
        props.viewport,
        *scroll_top,
        over,
    );
    let onscroll = {
        let scroll_top = scroll_top.clone();
        let (len, h, vp) = (props.len, props.row_height, props.viewport);
        Callback::from(move |e: Event| {
            let top = e.target_unchecked_into::<web_sys::Element>().scroll_top();
            // Re-render only when the window moves, not on every scrolled pixel.
            if window_with(len, h, vp, top, over) != window_with(len, h, vp, *scroll_top, over) {
                scroll_top.set(top);
            }
        })
    };
    let h = props.row_height as usize;
    let above = range.start * h;
    let below = (props.len - range.end) * h;
    let rows = props.rows.emit(range.clone());
    // A list taller than its viewport gets exactly the viewport's height and `contain: strict`: the
    // browser then lays out and paints what changes inside (ages, rings) without touching the page
    // around it, a large part of a frame's cost on a big cluster. A short list keeps its own height.
    let style = if props.len * h > props.viewport as usize {
        format!(
            "height: {}px; overflow-y: auto; contain: strict",
            props.viewport
        )
    } else {
        format!("max-height: {}px; overflow-y: auto", props.viewport)
    };
    let body = match &props.head {
        Some(head) => html! {
            <table class="vtable">
                { head.clone() }
                <tbody>
                    { spacer_row(above) }
                    { rows }
                    { spacer_row(below) }
                </tbody>
            </table>
        },
        None => html! { <>
            <div class="vspacer" style={format!("height: {above}px")}></div>
            { rows }
            <div class="vspacer" style={format!("height: {below}px")}></div>
        </> },
    };
    html! {
        // The list is a scroll box (a short one too, sideways in a narrow column): it takes the
        // keyboard's focus, so its rows can be scrolled without a mouse (they hold nothing
        // focusable of their own).
        <div class={classes!("vlist", props.class.clone())} {style} {onscroll} tabindex="0"
            data-testid={props.testid.clone()} data-first={range.start.to_string()}
            data-rows={props.len.to_string()}>
            { body }
        </div>
    }
}

fn spacer_row(px: usize) -> Html {
    if px == 0 {
        return html! {};
    }
    html! { <tr class="vspacer" aria-hidden="true" style={format!("height: {px}px")}></tr> }
}
