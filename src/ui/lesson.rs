//! The lesson player beside the cluster: "step 3 / 9" with a progress bar, the step's points, its
//! task with a hint, its question (the answer checked by the simulator, then what really happened),
//! its run to the `until`, and Back / Next (buttons, PageUp / PageDown, ← / →). Also the list of
//! lessons, opened from the header.
//!
//! Test contract: `lesson` (the panel), `lesson-step` ("N / M"), `lesson-back`, `lesson-next`,
//! `lesson-run`, `lesson-task` (`data-done`), `predict-choice` (`data-index`; `data-correct` only
//! once answered), `predict-result`; `lang-toggle`; `lessons-open`, `lessons`, `start-lessons`,
//! `lesson-link` (`data-name`).

use yew::prelude::*;

use super::state::{LessonMsg, Msg};
use super::timeline::clock_text;
use super::Store;
use crate::i18n::Lang;
use crate::sim::lesson::player::StepState;

/// `en` or `zh` by the language shown (the player's own words; the lesson's are in its file).
fn tr(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

#[derive(Properties, PartialEq)]
pub struct LessonProps {
    pub store: Store,
}

#[component]
pub fn LessonView(props: &LessonProps) -> Html {
    let store = &props.store;
    let Some(run) = store.lesson.clone() else {
        return html! {};
    };
    let lang = store.lang;
    let player = &run.player;
    let (i, n) = (player.current(), player.len());
    let Some(step) = run.step() else {
        return html! {};
    };
    let send = |m: LessonMsg| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Msg::Lesson(m.clone())))
    };
    let progress = ((i + 1) * 100).checked_div(n).unwrap_or(0);
    let dots = player.states().iter().enumerate().map(|(k, st)| {
        let class = match st {
            StepState::Ahead => "ahead",
            StepState::Current => "current",
            StepState::Done => "done",
            StepState::Skipped => "skipped",
        };
        html! { <span class={classes!("dot", class)} title={format!("{} {}", k + 1, run.lesson.steps[k].title.get(lang))} /> }
    });
    let task = step.task.as_ref().map(|t| {
        let done = player.task_done();
        html! {
            <div class={classes!("lesson-task", done.then_some("done"))} data-testid="lesson-task" data-done={done.to_string()}>
                <b>{ if done { tr(lang, "✓ Done: ", "✓ 已完成：") } else { tr(lang, "Your turn: ", "轮到你了：") } }</b>
                { t.action.describe() }
                { if done { html! {} } else { html! { <p class="hint">{ t.hint.get(lang) }</p> } } }
            </div>
        }
    });
    let predict = step.predict.as_ref().map(|p| {
        let answer = player.answer();
        let choices = p.choices.iter().enumerate().map(|(k, c)| {
            let chosen = answer.is_some_and(|a| a.chosen == k);
            // Whether a choice is right is not on the page until the learner has answered.
            let correct = answer.map(|a| a.outcome.right.contains(&k).to_string());
            html! {
                <button class={classes!("choice", chosen.then_some("chosen"))} data-testid="predict-choice"
                    data-index={k.to_string()} data-correct={correct} disabled={answer.is_some()}
                    onclick={send(LessonMsg::Answer(k))}>{ c.label(lang) }</button>
            }
        });
        let result = answer.map(|a| {
            let right = a.outcome.the_right_one().map(|k| p.choices[k].label(lang));
            let verdict = match (a.correct(), right) {
                (true, _) => tr(lang, "Right.", "答对了。").to_owned(),
                (false, Some(r)) => match lang {
                    Lang::En => format!("Not quite: the answer is “{r}”."),
                    Lang::Zh => format!("不对：正确答案是“{r}”。"),
                },
                (false, None) => tr(lang, "None of these, in the world as it is now.", "在当前的状态下，以上都不对。").to_owned(),
            };
            let what = a.outcome.event.as_ref().map(|e| {
                format!("{} {} · {}", tr(lang, "What happens:", "实际发生："), clock_text(e.t), crate::sim::describe(e))
            });
            html! {
                <div class={classes!("predict-result", if a.correct() { "right" } else { "wrong" })} data-testid="predict-result" role="status">
                    <b>{ verdict }</b>
                    { for what.map(|w| html! { <p>{ w }</p> }) }
                </div>
            }
        });
        html! {
            <div class="predict">
                <p class="question"><b>{ tr(lang, "Predict: ", "预测：") }</b>{ p.question.get(lang) }</p>
                <div class="choices">{ for choices }</div>
                { for result }
            </div>
        }
    });
    let until = step.until.as_ref().map(|u| {
        let reached = player.until_reached();
        html! {
            <button class="lesson-run" data-testid="lesson-run" disabled={reached} onclick={send(LessonMsg::RunUntil)}>
                { if reached { format!("✓ {}", u.describe(lang)) } else { format!("▶ {} {}", tr(lang, "Run", "运行"), u.describe(lang)) } }
            </button>
        }
    });
    let last = i + 1 == n;
    html! {
        <section class="panel lesson" data-testid="lesson" aria-label={tr(lang, "lesson", "课程")}>
            <div class="lesson-head">
                <h2>{ run.lesson.title.get(lang) }</h2>
                <button class="close" onclick={send(LessonMsg::Close)} aria-label={tr(lang, "close the lesson", "关闭课程")}>{ "×" }</button>
            </div>
            <div class="lesson-progress">
                <span data-testid="lesson-step">{ format!("{} / {n}", i + 1) }</span>
                <div class="bar"><div style={format!("width:{progress}%")} /></div>
                <span class="dots">{ for dots }</span>
            </div>
            <h3>{ step.title.get(lang) }</h3>
            <ul class="points">{ for step.text.get(lang).iter().map(|pt| html! { <li>{ pt.clone() }</li> }) }</ul>
            { for predict }
            { for task }
            { for until }
            <nav class="lesson-nav">
                <button data-testid="lesson-back" disabled={i == 0} onclick={send(LessonMsg::Back)}
                    title={tr(lang, "the step before, the cluster as it was then (PageUp, ←)", "上一步，集群回到当时的状态（PageUp、←）")}>
                    { tr(lang, "← Back", "← 上一步") }</button>
                <button class="primary" data-testid="lesson-next" disabled={last && player.finished()} onclick={send(LessonMsg::Next)}
                    title={tr(lang, "the next step; a task or question left undone is marked skipped (PageDown, →)", "下一步；未完成的任务或问题记为跳过（PageDown、→）")}>
                    { if last { tr(lang, "Finish", "完成") } else { tr(lang, "Next →", "下一步 →") } }</button>
            </nav>
            { if player.finished() { html! { <p class="hint">{ tr(lang, "Lesson finished: Back to revisit a step, or open another lesson.", "课程已完成：可以返回查看某一步，或打开另一课。") }</p> } } else { html! {} } }
        </section>
    }
}

/// The language toggle: English ↔ 简体中文, remembered in the browser.
#[component]
pub fn LangToggle(props: &LessonProps) -> Html {
    let store = &props.store;
    let next = match store.lang {
        Lang::En => Lang::Zh,
        Lang::Zh => Lang::En,
    };
    let onclick = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten())
            {
                let _ = storage.set_item(LANG_KEY, next.code());
            }
            store.dispatch(Msg::SetLang(next));
        })
    };
    html! {
        <button class="lang-toggle" data-testid="lang-toggle" data-lang={store.lang.code()} {onclick}
            title={tr(store.lang, "switch to 简体中文", "switch to English")}>
            { tr(store.lang, "中文", "English") }
        </button>
    }
}

/// Where the language chosen is remembered.
pub const LANG_KEY: &str = "routelab.lang";

/// The language to start in: as chosen before, else the browser's.
pub fn initial_lang() -> Lang {
    let window = web_sys::window();
    let stored = window
        .as_ref()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    match stored.as_deref() {
        Some("zh") => Lang::Zh,
        Some("en") => Lang::En,
        _ => window
            .and_then(|w| w.navigator().language())
            .map_or(Lang::En, |tag| Lang::from_tag(&tag)),
    }
}

/// A link opening lesson `l` (its URL `#lesson=NAME`, loaded at once); `then` runs after a click.
fn lesson_link(store: &Store, l: &crate::sim::LessonFile, then: Callback<()>) -> Html {
    let name = l.name.to_owned();
    let onclick = {
        let store = store.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_hash(&format!("lesson={name}"));
            }
            then.emit(());
            store.dispatch(Msg::LoadPreset(name.clone()));
        })
    };
    let title = l.title_in(store.lang);
    html! { <a href={format!("#lesson={}", l.name)} data-testid="lesson-link" data-name={l.name} {onclick}>{ title }</a> }
}

/// The lessons on the start page (the default preset, no lesson open): one line under its note.
#[component]
pub fn LessonStrip(props: &LessonProps) -> Html {
    let store = &props.store;
    if store.lesson.is_some() || store.preset.as_deref() != Some(super::state::DEFAULT_PRESET) {
        return html! {};
    }
    let lang = store.lang;
    html! {
        <nav class="start-lessons" data-testid="start-lessons" aria-label={tr(lang, "lessons", "课程")}>
            <b>{ tr(lang, "New here? Start a lesson: ", "第一次来？从一课开始：") }</b>
            { for crate::sim::lessons().iter().enumerate().map(|(k, l)| html! {
                <span class="lesson-item">{ format!("{}. ", k + 1) }{ lesson_link(store, l, Callback::noop()) }</span>
            }) }
        </nav>
    }
}

/// The lessons, opened from the header ("Lessons").
#[component]
pub fn LessonList(props: &LessonProps) -> Html {
    let store = &props.store;
    let open = use_state(|| false);
    let lang = store.lang;
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let list = (*open).then(|| {
        html! {
            <div class="dialog lessons" role="dialog" data-testid="lessons" aria-label={tr(lang, "lessons", "课程列表")}>
                <h2>{ tr(lang, "Lessons", "课程") }<button onclick={toggle.clone()} aria-label="close">{ "×" }</button></h2>
                <ol>
                { for crate::sim::lessons().iter().map(|l| {
                    let close = { let open = open.clone(); Callback::from(move |()| open.set(false)) };
                    let current = store.lesson.as_ref().is_some_and(|r| r.name == l.name);
                    html! { <li class={classes!(current.then_some("current"))}>{ lesson_link(store, l, close) }</li> }
                }) }
                </ol>
                <p class="hint">{ tr(lang, "Each lesson walks a scenario step by step: read, do, predict, then watch what happens.", "每一课按步骤带你走完一个场景：阅读、动手、预测，然后观察实际发生了什么。") }</p>
            </div>
        }
    });
    html! { <>
        <button class="lessons-open" data-testid="lessons-open" onclick={toggle}>{ tr(lang, "Lessons", "课程") }</button>
        { for list }
    </> }
}
