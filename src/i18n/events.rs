//! The feed's sentences: what the simulator's events and the teacher's actions say
//! (`sim::describe_in`, `Action::describe_in`). `routelab sim` prints the English ones.

use super::phrases;

phrases! {
    /// Placeholder until the event sentences move here.
    EV_ACTION: "action: {what}", "操作：{what}";
}
