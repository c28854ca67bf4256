//! The topic chooser for thousands of topics: a search field over a windowed list (a `<select>` of
//! 10,000 options would put 10,000 nodes in the page and rebuild them whenever topics change).

use std::rc::Rc;

use yew::prelude::*;

use super::contains_ci;
use super::vlist::VirtualList;
use crate::i18n::{workshop, Lang};

const ROW_PX: u32 = 22;
const LIST_PX: u32 = 330;

#[derive(Properties)]
pub struct TopicPickerProps {
    pub topics: Rc<Vec<String>>,
    pub selected: String,
    pub lang: Lang,
    /// A topic was picked.
    pub on_choose: Callback<String>,
}

impl PartialEq for TopicPickerProps {
    /// What is shown: the callback is new on every render of the route panel but always selects
    /// the topic in the same store.
    fn eq(&self, other: &Self) -> bool {
        self.selected == other.selected && self.topics == other.topics && self.lang == other.lang
    }
}

/// Type to filter; pick with the mouse (or Enter for the first match).
#[component]
pub fn TopicPicker(props: &TopicPickerProps) -> Html {
    let open = use_state(|| false);
    let query = use_state(String::new);
    let q = query.to_ascii_lowercase();
    let matches: Rc<Vec<usize>> = Rc::new(if *open {
        (0..props.topics.len())
            .filter(|&i| contains_ci(&props.topics[i], &q))
            .collect()
    } else {
        Vec::new()
    });
    let choose = {
        let (on_choose, open) = (props.on_choose.clone(), open.clone());
        Callback::from(move |t: String| {
            open.set(false);
            on_choose.emit(t);
        })
    };
    let onfocus = {
        let (open, query) = (open.clone(), query.clone());
        Callback::from(move |_: FocusEvent| {
            query.set(String::new());
            open.set(true);
        })
    };
    let onblur = {
        let open = open.clone();
        Callback::from(move |_: FocusEvent| open.set(false))
    };
    let oninput = {
        let query = query.clone();
        Callback::from(move |e: InputEvent| {
            query.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            )
        })
    };
    let onkeydown = {
        let (choose, matches, topics) = (choose.clone(), matches.clone(), props.topics.clone());
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                if let Some(&i) = matches.first() {
                    choose.emit(topics[i].clone());
                }
            }
        })
    };
    let rows = {
        let (topics, matches, selected) = (
            props.topics.clone(),
            matches.clone(),
            props.selected.clone(),
        );
        Callback::from(move |range: std::ops::Range<usize>| {
            html! { <>{ for matches[range].iter().map(|&i| {
                let t = topics[i].clone();
                // mousedown, not click: the field's blur (which closes the list) comes before a click.
                let onmousedown = { let (choose, t) = (choose.clone(), t.clone()); Callback::from(move |_: MouseEvent| choose.emit(t.clone())) };
                html! { <div key={t.clone()} class={classes!("vrow", (t == selected).then_some("selected"))} {onmousedown}>{ t }</div> }
            }) }</> }
        })
    };
    let value = if *open {
        (*query).clone()
    } else {
        props.selected.clone()
    };
    html! {
        <span class="topic-picker">
            <input type="search" aria-label="topic" data-testid="topic-picker" {value} {onfocus} {onblur} {oninput} {onkeydown}
                placeholder={props.lang.fill(workshop::FILTER_N_TOPICS, &[("n", &props.topics.len().to_string())])} />
            { if *open { html! {
                <VirtualList len={matches.len()} row_height={ROW_PX} viewport={LIST_PX} class="topic-list"
                    testid="topic-list" {rows} />
            } } else { html! {} } }
        </span>
    }
}
