//! The teacher's page publishing its session: what changed since it last told the hub, as the
//! fewest [`TeacherMsg`]s. The page describes what it shows as a [`Shown`]; the publisher keeps
//! what the hub has and says only the difference.

use super::protocol::{Clock, LessonPos, RoomAction, RoomState, Source, TeacherMsg};
use crate::sim::timeline::Timeline;

/// What the teacher's page shows, as the room should have it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// Which world this is: changes when the page loads a scenario or resets (any value that
    /// differs from the last one's).
    pub world: u64,
    pub actions: Vec<RoomAction>,
    pub clock: Clock,
    pub lesson: Option<LessonPos>,
}

impl Shown {
    /// What a teacher's page showing `tl` publishes: the branch's actions, the moment shown and
    /// how its clock runs (`jump`: the page's count of jumps), the lesson step.
    pub fn of(
        tl: &Timeline,
        world: u64,
        (playing, speed, jump): (bool, f64, u64),
        lesson: Option<LessonPos>,
    ) -> Shown {
        Shown {
            world,
            actions: tl
                .branch_actions()
                .map(|(at_ms, a)| RoomAction {
                    at_ms,
                    action: a.clone(),
                })
                .collect(),
            clock: Clock {
                t_ms: tl.now(),
                playing,
                speed,
                jump,
            },
            lesson,
        }
    }
}

/// See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Publisher {
    /// The room's scenario revision this page published last.
    rev: u64,
    /// The world and room the hub has from this page (`None`: nothing yet, or the hub must be
    /// told everything again).
    world: Option<u64>,
    room: RoomState,
}

impl Publisher {
    pub fn new() -> Self {
        Self::default()
    }

    /// The revision published last.
    pub fn rev(&self) -> u64 {
        self.rev
    }

    /// The page (re)connected to a hub whose room is at revision `hub_rev`: everything is
    /// published again, as a new revision, so the students start from the teacher's world.
    pub fn reconnected(&mut self, hub_rev: u64) {
        self.rev = self.rev.max(hub_rev);
        self.world = None;
    }

    /// The page took the hub's room as its own (a teacher's page opened on a room already going):
    /// the hub has all of it, nothing needs saying.
    pub fn adopted(&mut self, world: u64, room: RoomState) {
        self.rev = room.rev;
        self.world = Some(world);
        self.room = room;
    }

    /// What to send so the hub's room shows `now`; `source` is asked for only when the world is
    /// new (a scenario's text can be megabytes). `refresh_clock`: send the clock even if only
    /// its time moved (a playing clock is re-anchored every few seconds, so pages do not drift
    /// from a teacher's page that runs slower than its speed).
    pub fn publish(
        &mut self,
        now: &Shown,
        source: impl FnOnce() -> Source,
        refresh_clock: bool,
    ) -> Vec<TeacherMsg> {
        let mut out = Vec::new();
        if self.world != Some(now.world) {
            self.rev += 1;
            self.world = Some(now.world);
            out.push(TeacherMsg::Scenario {
                rev: self.rev,
                source: source(),
            });
            // As the hub takes it: no actions, the clock at 0 (a jump), no lesson yet.
            self.room.actions.clear();
            self.room.clock = Clock {
                t_ms: u64::MAX,
                ..Clock::default()
            };
            self.room.lesson = None;
        }
        let same = self
            .room
            .actions
            .iter()
            .zip(&now.actions)
            .take_while(|(a, b)| a == b)
            .count();
        if same < self.room.actions.len() || same < now.actions.len() {
            out.push(TeacherMsg::Actions {
                rev: self.rev,
                from: same,
                actions: now.actions[same..].to_vec(),
            });
            self.room.actions = now.actions.clone();
        }
        let c = &self.room.clock;
        let moved = c.playing != now.clock.playing
            || c.speed != now.clock.speed
            || c.jump != now.clock.jump
            || (!now.clock.playing && c.t_ms != now.clock.t_ms);
        if moved || refresh_clock || !out.is_empty() {
            out.push(TeacherMsg::Clock(now.clock));
            self.room.clock = now.clock;
        }
        if self.room.lesson != now.lesson {
            out.push(TeacherMsg::Lesson {
                lesson: now.lesson.clone(),
            });
            self.room.lesson = now.lesson.clone();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Action;

    fn shown(world: u64, actions: &[u64], t_ms: u64, playing: bool) -> Shown {
        Shown {
            world,
            actions: actions
                .iter()
                .map(|&at_ms| RoomAction {
                    at_ms,
                    action: Action::FreezeBroker {
                        broker: "10.0.0.2:10911".into(),
                    },
                })
                .collect(),
            clock: Clock {
                t_ms,
                playing,
                speed: 10.0,
                jump: 0,
            },
            lesson: None,
        }
    }

    fn publish(p: &mut Publisher, now: &Shown, refresh: bool) -> Vec<TeacherMsg> {
        let source = || Source::Preset {
            name: "crash-hang-stop".into(),
        };
        p.publish(now, source, refresh)
    }

    fn kinds(msgs: &[TeacherMsg]) -> Vec<String> {
        msgs.iter()
            .map(|m| match m {
                TeacherMsg::Scenario { rev, .. } => format!("scenario {rev}"),
                TeacherMsg::Actions { from, actions, .. } => {
                    format!("actions {from}+{}", actions.len())
                }
                TeacherMsg::Clock(c) => format!("clock {}", c.t_ms),
                TeacherMsg::Lesson { .. } => "lesson".into(),
                TeacherMsg::Reveal { .. } => "reveal".into(),
                TeacherMsg::Resync => "resync".into(),
            })
            .collect()
    }

    #[test]
    fn says_only_what_changed() {
        let mut p = Publisher::new();
        assert_eq!(
            kinds(&publish(&mut p, &shown(1, &[], 0, false), false)),
            ["scenario 1", "clock 0"]
        );
        assert!(publish(&mut p, &shown(1, &[], 0, false), false).is_empty());
        // Playing: the time moving is not news, until a refresh.
        assert_eq!(
            kinds(&publish(&mut p, &shown(1, &[], 0, true), false)),
            ["clock 0"]
        );
        assert!(publish(&mut p, &shown(1, &[], 900, true), false).is_empty());
        assert_eq!(
            kinds(&publish(&mut p, &shown(1, &[], 2_000, true), true)),
            ["clock 2000"]
        );
        // An action, then a fork that replaces it, then a pause.
        assert_eq!(
            kinds(&publish(&mut p, &shown(1, &[3_000], 3_000, true), false)),
            ["actions 0+1", "clock 3000"]
        );
        assert_eq!(
            kinds(&publish(
                &mut p,
                &shown(1, &[3_000, 4_000], 4_000, true),
                false
            )),
            ["actions 1+1", "clock 4000"]
        );
        assert_eq!(
            kinds(&publish(
                &mut p,
                &shown(1, &[3_000, 3_500], 3_500, false),
                false
            )),
            ["actions 1+1", "clock 3500"]
        );
        // A reset: a new world from the same file.
        assert_eq!(
            kinds(&publish(&mut p, &shown(2, &[], 0, false), false)),
            ["scenario 2", "clock 0"]
        );
        // After the hub restarted: everything again, as a newer revision than the hub has.
        p.reconnected(7);
        assert_eq!(
            kinds(&publish(&mut p, &shown(2, &[100], 100, false), false)),
            ["scenario 8", "actions 0+1", "clock 100"]
        );
    }
}
