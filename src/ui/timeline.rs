//! The timeline under the time bar: the run from t = 0 to the furthest time reached, painted with
//! its marks (removals by cause, first registrations, perm and topic changes, failed sends, actions),
//! the moment shown, and "Now". Clicking or dragging seeks; a mark seeks to just after its event.
//!
//! Test contract: `data-testid="timeline"`; each mark `timeline-mark` with `data-kind`, `data-t`
//! (virtual ms), `data-broker` and `data-reason` where they apply; `now` returns to the head.

use yew::prelude::*;

use super::dec;
use super::panel::PanelProps;
use super::state::SimRef;
use super::track::Track;
use crate::i18n::{workshop, Lang};
use crate::sim::timeline::{Mark, MarkKind};

/// Columns marks are gathered into: marks closer than this share one element (a big cluster's
/// rolling start registers 200 brokers in 30 s; an hour of failed sends would be thousands).
const COLUMNS: u64 = 400;

/// The spans the timeline is drawn over (virtual ms): the first one the head fits in, so the marks
/// keep their places while the head moves and only move when the span steps up.
const SPANS_MS: [u64; 12] = [
    60_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000,
    28_800_000, 57_600_000, 86_400_000,
];

/// The span for a head at `head_ms`.
pub fn span_for(head_ms: u64) -> u64 {
    SPANS_MS
        .iter()
        .copied()
        .find(|s| *s >= head_ms)
        .unwrap_or_else(|| head_ms.div_ceil(86_400_000) * 86_400_000)
}

/// `mm:ss` (or `h:mm:ss`) of virtual ms, with tenths when not whole.
pub fn clock_text(ms: u64) -> String {
    let secs = ms / 1000;
    let tenths = (ms % 1000) / 100;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let frac = if ms % 1000 == 0 {
        String::new()
    } else {
        format!(".{tenths}")
    };
    if h > 0 {
        format!("{h}:{m:02}:{s:02}{frac}")
    } else {
        format!("{m:02}:{s:02}{frac}")
    }
}

#[component]
pub fn TimelineView(props: &PanelProps) -> Html {
    let lang = props.lang;
    let (now, head, at_head, count) = {
        let tl = props.sim.timeline();
        (tl.now(), tl.head(), tl.at_head(), tl.marks().len())
    };
    let span = span_for(head);
    let seek = props.on_seek.clone();
    let to_head = super::click(&props.on_seek, u64::MAX);
    let where_text = if at_head {
        lang.fill(workshop::AT_HEAD, &[("t", &clock_text(now))])
    } else {
        lang.fill(
            workshop::IN_THE_PAST,
            &[("t", &clock_text(now)), ("head", &clock_text(head))],
        )
    };
    html! {
        <section class={classes!("timeline", (!at_head).then_some("past"))} data-testid="timeline" aria-label={lang.t(workshop::TIMELINE)}
            data-now={now.to_string()} data-head={head.to_string()}>
            <div class="tl-top">
                <span class="tl-where" data-testid="timeline-where">{ where_text }</span>
                <button data-testid="now" class={classes!("tl-now", (!at_head).then_some("primary"))} disabled={at_head}
                    onclick={to_head} title={lang.t(workshop::BACK_TO_NOW_HINT)}>{ lang.t(workshop::BACK_TO_NOW) }</button>
            </div>
            <Track from={0} to={span} reached={head} cursor={Some(now)} on_seek={seek}
                title={lang.t(workshop::TRACK_HINT)}>
                <MarksLayer sim={props.sim.clone()} {lang} {span} {count} epoch={props.marks_epoch} on_seek={props.on_seek.clone()} />
            </Track>
            <div class="tl-scale" aria-hidden="true">
                <span>{ "0:00" }</span><span>{ clock_text(span / 2) }</span><span>{ clock_text(span) }</span>
            </div>
            { legend(lang) }
        </section>
    }
}

#[derive(Properties)]
struct MarksLayerProps {
    sim: SimRef,
    lang: Lang,
    span: u64,
    /// How many marks the branch has: the layer re-renders when it, the span, the branch or the
    /// language changes (marks are only ever added at the head, or replaced by a fork or an undo).
    count: usize,
    epoch: u64,
    on_seek: Callback<u64>,
}

impl PartialEq for MarksLayerProps {
    /// The run, not its version: the marks change only as the count, the span and the epoch say.
    fn eq(&self, other: &Self) -> bool {
        self.sim.same_run(&other.sim)
            && (self.span, self.count, self.epoch) == (other.span, other.count, other.epoch)
            && self.lang == other.lang
    }
}

/// Where a mark is gathered: (column, kind, broker, reason).
type GatherKey<'a> = (u64, MarkKind, Option<&'a str>, Option<&'a str>);

/// Marks gathered into one element: same column and kind (and broker, reason for removals,
/// registrations and actions).
struct Gathered<'a> {
    first: &'a Mark,
    n: usize,
}

#[component]
fn MarksLayer(props: &MarksLayerProps) -> Html {
    let tl = props.sim.timeline();
    let span = props.span.max(1);
    // Sorted by key; marks come in time order, so most go at the end (a `Vec`, not a `BTreeMap`:
    // each B-tree key and value type adds a copy of the B-tree's code to the bundle).
    let mut groups: Vec<(GatherKey, Gathered)> = Vec::new();
    for m in tl.marks() {
        let column = m.t * COLUMNS / span;
        let who = match m.kind {
            MarkKind::BrokerRemoved | MarkKind::BrokerRegistered | MarkKind::Action => {
                m.broker.as_deref()
            }
            _ => None,
        };
        let key = (column, m.kind, who, m.reason);
        match groups.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => groups[i].1.n += 1,
            Err(i) => groups.insert(i, (key, Gathered { first: m, n: 1 })),
        }
    }
    let lang = props.lang;
    // Removals in one column sit side by side (crash-hang-stop removes two brokers at 75 s).
    let mut beside: Vec<(u64, u32)> = Vec::new();
    html! { <>
        { for groups.into_iter().map(|((column, ..), g)| {
            let m = g.first;
            let t = m.t;
            let onclick = props.on_seek.reform(move |e: MouseEvent| {
                e.stop_propagation();
                t
            });
            let title = if g.n > 1 {
                lang.fill(workshop::MARKS_GATHERED, &[("t", &clock_text(t)), ("n", &g.n.to_string()), ("kind", kind_words(m.kind, lang)), ("text", &m.text(lang))])
            } else {
                format!("{} · {}", clock_text(t), m.text(lang))
            };
            // Failed sends show their density: more in a column, darker.
            let left = dec(t as f64 * 100.0 / span as f64, 3);
            let style = match m.kind {
                MarkKind::Send => format!("left:{left}%;opacity:{}", dec((0.35 + 0.13 * g.n as f64).min(1.0), 2)),
                MarkKind::BrokerRemoved => {
                    let before = match beside.iter_mut().find(|(c, _)| *c == column) {
                        Some((_, n)) => {
                            *n += 1;
                            *n - 1
                        }
                        None => {
                            beside.push((column, 1));
                            0
                        }
                    };
                    format!("left:calc({left}% + {}px)", before * 7)
                }
                _ => format!("left:{left}%"),
            };
            // A mark is a few pixels wide: a mouse's shortcut to its moment, not a control of its
            // own (a target that small fails WCAG 2.5.8, and hundreds of them would be as many
            // Tab stops). The keyboard reaches the same moments with ← / →, and the feed says
            // each event in words.
            html! {
                <span class={classes!("mark", m.kind.name(), m.reason)} data-testid="timeline-mark"
                    data-kind={m.kind.name()} data-t={t.to_string()} data-broker={m.broker.clone()}
                    data-reason={m.reason} data-count={g.n.to_string()} {style} {title}
                    onmousedown={Callback::from(|e: MouseEvent| e.stop_propagation())} {onclick} />
            }
        }) }
    </> }
}

/// A kind in words, for the legend and the hover of gathered marks.
fn kind_words(k: MarkKind, lang: Lang) -> &'static str {
    lang.t(match k {
        MarkKind::BrokerRemoved => workshop::MARK_BROKER_REMOVED,
        MarkKind::BrokerRegistered => workshop::MARK_FIRST_REGISTRATION,
        MarkKind::PermChanged => workshop::MARK_PERM_CHANGED,
        MarkKind::TopicQueueChanged => workshop::MARK_TOPIC_ROUTES_CHANGED,
        MarkKind::Send => workshop::MARK_FAILED_SENDS,
        MarkKind::Action => workshop::MARK_ACTION,
        MarkKind::Rebalance => crate::i18n::consumers::MARK_REBALANCE,
    })
}

/// What the colours mean. A view function, not a component: a dozen keys are cheaper to build
/// again with the timeline than props of their own are in the bundle.
fn legend(lang: Lang) -> Html {
    let removal = |reason: &'static str, words: crate::i18n::Phrase| {
        html! { <span class="key"><i class={classes!("mark", "broker_removed", reason)} />{ lang.t(words) }</span> }
    };
    let other = |k: MarkKind| {
        html! { <span class="key"><i class={classes!("mark", k.name())} />{ kind_words(k, lang) }</span> }
    };
    html! {
        <div class="tl-legend" data-testid="timeline-legend">
            <span class="key-title">{ lang.t(workshop::LEGEND_REMOVED) }</span>
            { removal("expired", workshop::LEGEND_EXPIRED) }
            { removal("channel_closed", workshop::LEGEND_CHANNEL_CLOSED) }
            { removal("idle_closed", workshop::LEGEND_IDLE_CLOSED) }
            { removal("unregistered", workshop::LEGEND_UNREGISTERED) }
            { other(MarkKind::BrokerRegistered) }
            { other(MarkKind::PermChanged) }
            { other(MarkKind::TopicQueueChanged) }
            { other(MarkKind::Send) }
            { other(MarkKind::Rebalance) }
            { other(MarkKind::Action) }
        </div>
    }
}
