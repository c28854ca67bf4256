//! The lesson player beside the cluster: "step 3 / 9" with a progress bar, the step's points, its
//! task with a hint, its question (the answer checked by the simulator, then what really happened),
//! its run to the `until`, and Back / Next (buttons, PageUp / PageDown, ← / →). Also the list of
//! lessons, opened from the header.
//!
//! Test contract: `lesson` (the panel), `lesson-step` ("N / M"), `lesson-back`, `lesson-next`,
//! `lesson-run`, `lesson-task` (`data-done`), `predict-choice` (`data-index`; `data-correct` only
//! once answered), `predict-result`; `lessons-open`, `lessons`, `start-lessons`,
//! `lesson-link` (`data-name`).

use std::rc::Rc;

use yew::prelude::*;

use super::click;
use super::state::{Class, ClassMsg, LessonMsg, LessonRun};
use super::timeline::clock_text;
use crate::i18n::{controls, Lang};
use crate::sim::lesson::player::StepState;

/// The props of the lesson's panel, the start page's strip of lessons, the header's list and the
/// class bar (`ui/classroom.rs`), one type for the four (a props type of its own for each would add
/// about a kilobyte of Yew's props code to the bundle): each uses some of them.
#[derive(Properties, Clone)]
pub struct LessonProps {
    /// Shared by the four of a render: copying the props is a count, not eight fields.
    pub data: Rc<LessonData>,
}

impl std::ops::Deref for LessonProps {
    type Target = LessonData;

    fn deref(&self) -> &LessonData {
        &self.data
    }
}

/// What the lesson's panels and the class bar draw and the callbacks they answer (see
/// [`LessonProps`]).
pub struct LessonData {
    pub lang: Lang,
    /// The lesson being walked.
    pub lesson: Option<Rc<LessonRun>>,
    /// The preset shown (the strip shows on the default one only).
    pub preset: Option<String>,
    /// The page's part in its classroom, if it is in one: a following student's steps are the
    /// teacher's, and their answer waits for the reveal.
    pub class: Option<Rc<Class>>,
    /// A step's buttons: Back, Next, Run, an answer, Close.
    pub on_lesson: Callback<LessonMsg>,
    /// A lesson was picked (its name).
    pub on_open: Callback<String>,
    /// The class bar's buttons: Explore, Follow, Reveal, drive from here.
    pub on_class: Callback<ClassMsg>,
    /// Enter presentation mode (the teacher's class bar).
    pub on_present: Callback<MouseEvent>,
}

/// `a` and `b` are the same `Rc` (or both `None`).
fn same<T>(a: &Option<Rc<T>>, b: &Option<Rc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

impl PartialEq for LessonProps {
    /// What is shown: the lesson and the class by identity (the reducer makes new ones whenever
    /// they change), and not the callbacks, new on every render of the page but dispatching to the
    /// same store.
    fn eq(&self, other: &Self) -> bool {
        same(&self.lesson, &other.lesson)
            && same(&self.class, &other.class)
            && self.lang == other.lang
            && self.preset == other.preset
    }
}

#[component]
pub fn LessonView(props: &LessonProps) -> Html {
    let Some(run) = props.lesson.clone() else {
        return html! {};
    };
    let lang = props.lang;
    let player = &run.player;
    let (i, n) = (player.current(), player.len());
    let Some(step) = run.step() else {
        return html! {};
    };
    let send = |m: LessonMsg| click(&props.on_lesson, m);
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
    // A student following the teacher: the steps are the teacher's, an answer waits for the reveal.
    let following = props.class.as_ref().is_some_and(|c| c.following());
    let task = step.task.as_ref().map(|t| {
        let done = player.task_done();
        let label = match (done, following) {
            (true, _) => controls::TASK_DONE,
            (false, true) => crate::i18n::classroom::TEACHER_DOES,
            (false, false) => controls::YOUR_TURN,
        };
        html! {
            <div class={classes!("lesson-task", done.then_some("done"))} data-testid="lesson-task" data-done={done.to_string()}>
                <b>{ lang.t(label) }</b>
                { t.action.describe_in(lang) }
                { if done || following { html! {} } else { html! { <p class="hint">{ t.hint.get(lang) }</p> } } }
            </div>
        }
    });
    let waiting = props
        .class
        .as_ref()
        .and_then(|c| c.pending.as_ref().map(|(s, a)| (*s, a.chosen)))
        .filter(|(s, _)| *s == i)
        .map(|(_, chosen)| chosen);
    let predict = step.predict.as_ref().map(|p| {
        let answer = player.answer();
        let choices = p.choices.iter().enumerate().map(|(k, c)| {
            let chosen = answer.is_some_and(|a| a.chosen == k) || waiting == Some(k);
            // Whether a choice is right is not on the page until the learner has answered.
            let correct = answer.map(|a| a.outcome.right.contains(&k).to_string());
            html! {
                <button class={classes!("choice", chosen.then_some("chosen"))} data-testid="predict-choice"
                    data-index={k.to_string()} data-correct={correct} disabled={answer.is_some() || waiting.is_some()}
                    onclick={send(LessonMsg::Answer(k))}>{ c.label(lang) }</button>
            }
        });
        let result = answer.map(|a| {
            let right = a.outcome.the_right_one().map(|k| p.choices[k].label(lang));
            let verdict = match (a.correct(), right) {
                (true, _) => lang.t(controls::ANSWER_RIGHT).to_owned(),
                (false, Some(r)) => lang.fill(controls::ANSWER_WRONG, &[("answer", &r)]),
                (false, None) => lang.t(controls::ANSWER_NONE).to_owned(),
            };
            let what = a.outcome.event.as_ref().map(|e| {
                lang.fill(controls::WHAT_HAPPENS, &[("time", &clock_text(e.t)), ("event", &crate::sim::describe_in(e, lang))])
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
                <p class="question"><b>{ lang.t(controls::PREDICT) }</b>{ p.question.get(lang) }</p>
                <div class="choices">{ for choices }</div>
                { if waiting.is_some() && answer.is_none() {
                    html! { <p class="predict-waiting" data-testid="predict-waiting" role="status">{ lang.t(crate::i18n::classroom::ANSWER_SENT) }</p> }
                } else { html! {} } }
                { for result }
            </div>
        }
    });
    let until = step.until.as_ref().map(|u| {
        let reached = player.until_reached();
        html! {
            <button class="lesson-run" data-testid="lesson-run" disabled={reached} onclick={send(LessonMsg::RunUntil)}>
                { if reached { format!("✓ {}", u.describe(lang)) } else { lang.fill(controls::RUN_UNTIL, &[("until", &u.describe(lang))]) } }
            </button>
        }
    });
    let last = i + 1 == n;
    html! {
        <section class="panel lesson" data-testid="lesson" aria-label={lang.t(controls::LESSON)}>
            <div class="lesson-head">
                <h2>{ run.lesson.title.get(lang) }</h2>
                <button class="close" onclick={send(LessonMsg::Close)} aria-label={lang.t(controls::CLOSE_THE_LESSON)}>{ "×" }</button>
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
            // Run and Back/Next stay on screen at the viewport's bottom while the panel runs past
            // it (a 1280×720 projector shows the step's text but not its end).
            <div class="lesson-foot">
                { for until }
                { if following {
                    html! { <p class="hint lesson-led">{ lang.t(crate::i18n::classroom::TEACHER_LEADS) }</p> }
                } else { html! {
                <nav class="lesson-nav">
                    <button data-testid="lesson-back" disabled={i == 0} onclick={send(LessonMsg::Back)}
                        title={lang.t(controls::BACK_TITLE)}>
                        { lang.t(controls::LESSON_BACK) }</button>
                    <button class="primary" data-testid="lesson-next" disabled={last && player.finished()} onclick={send(LessonMsg::Next)}
                        title={lang.t(controls::NEXT_TITLE)}>
                        { lang.t(if last { controls::LESSON_FINISH } else { controls::LESSON_NEXT }) }</button>
                </nav>
                } } }
            </div>
            { if player.finished() { html! { <p class="hint">{ lang.t(controls::LESSON_FINISHED) }</p> } } else { html! {} } }
        </section>
    }
}

/// A link opening lesson `l` (its URL `#lesson=NAME`, loaded at once); `then` runs after a click.
fn lesson_link(props: &LessonProps, l: &crate::sim::LessonFile, then: Callback<()>) -> Html {
    let name = l.name.to_owned();
    let onclick = {
        let on_open = props.on_open.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_hash(&format!("lesson={name}"));
            }
            then.emit(());
            on_open.emit(name.clone());
        })
    };
    let title = l.title_in(props.lang);
    html! { <a href={format!("#lesson={}", l.name)} data-testid="lesson-link" data-name={l.name} {onclick}>{ title }</a> }
}

/// The lessons on the start page (the default preset, no lesson open): one line under its note.
#[component]
pub fn LessonStrip(props: &LessonProps) -> Html {
    if props.lesson.is_some() || props.preset.as_deref() != Some(super::state::DEFAULT_PRESET) {
        return html! {};
    }
    let lang = props.lang;
    let lessons = crate::sim::lessons();
    html! {
        <details class="start-lessons" data-testid="start-lessons">
            <summary><b>{ lang.t(controls::NEW_HERE) }</b>{ " " }
                <span class="first">{ lang.fill(controls::LESSONS_COUNT, &[("n", &lessons.len().to_string())]) }</span></summary>
            <nav aria-label={lang.t(controls::LESSONS_LINE)}>
                <ol>
                { for lessons.iter().map(|l| html! {
                    <li class="lesson-item">{ lesson_link(props, l, Callback::noop()) }</li>
                }) }
                </ol>
            </nav>
        </details>
    }
}

/// The lessons, opened from the header ("Lessons").
#[component]
pub fn LessonList(props: &LessonProps) -> Html {
    let open = use_state(|| false);
    let lang = props.lang;
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let list = (*open).then(|| {
        html! {
            <div class="dialog lessons" role="dialog" data-testid="lessons" aria-label={lang.t(controls::LESSON_LIST)}>
                <h2>{ lang.t(controls::LESSONS) }<button onclick={toggle.clone()} aria-label={lang.t(controls::CLOSE)}>{ "×" }</button></h2>
                <ol>
                { for crate::sim::lessons().iter().map(|l| {
                    let close = { let open = open.clone(); Callback::from(move |()| open.set(false)) };
                    let current = props.lesson.as_ref().is_some_and(|r| r.name == l.name);
                    html! { <li class={classes!(current.then_some("current"))}>{ lesson_link(props, l, close) }</li> }
                }) }
                </ol>
                <p class="hint">{ lang.t(controls::LESSONS_EXPLAINED) }</p>
            </div>
        }
    });
    html! { <>
        <button class="lessons-open" data-testid="lessons-open" onclick={toggle}>{ lang.t(controls::LESSONS) }</button>
        { for list }
    </> }
}
