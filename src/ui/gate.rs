//! A gate over a group of panels: its children render only when the group's key changes. The clock
//! renders one group every second animation frame ([`super::state::Panels`]); the panels of the other groups
//! keep what they showed, without being asked (their world's version changes on every frame that
//! renders, so without the gate every panel would).

use yew::prelude::*;

#[derive(Properties)]
pub struct GateProps {
    /// [`super::AppState::panel_key`] of the group.
    pub key_of_group: (usize, u64),
    /// Which of several contents the gate holds (a tab), when the parent switches between them.
    #[prop_or_default]
    pub part: u32,
    pub children: Html,
}

/// Only the key and the part count: the children are rebuilt by the parent on every render, and are what the
/// key says changed.
impl PartialEq for GateProps {
    fn eq(&self, other: &Self) -> bool {
        self.key_of_group == other.key_of_group && self.part == other.part
    }
}

#[component]
pub fn Gate(props: &GateProps) -> Html {
    props.children.clone()
}
