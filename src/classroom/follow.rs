//! A student's page following the room: its copy of what the teacher published, and how its own
//! [`Timeline`] is brought to the teacher's moment. The same code runs in the browser and in the
//! load test's 200 native students.
//!
//! The world is never sent. A page rebuilds it from the scenario, replays the teacher's actions at
//! their virtual times and runs its clock as the teacher's runs: a deterministic simulator then
//! shows the very same cluster. Between the teacher's jumps a follower only moves forward (a
//! playing clock is extrapolated from the hub's timestamps, so a follower a little ahead waits);
//! a jump, a pause, a new action or a fork brings it to the teacher's moment exactly.

use super::protocol::{HubMsg, RoomState, Roster, Tally, TeacherMsg};
use super::room::MAX_ROOM_TIME_MS;
use crate::sim::timeline::Timeline;
use crate::sim::SimEvent;

/// What a message from the hub means for the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Received {
    /// The room changed: [`Follower::sync`] brings the world to it.
    Changed,
    /// A new scenario (or the first): the page builds its world from [`Follower::room`]'s source,
    /// then calls [`Follower::world_loaded`].
    NewWorld,
    /// A change was missed (a gap in the hub's sequence): ask for the room again.
    Missed,
    /// For the teacher's page.
    Roster(Roster),
    Tally(Tally),
    /// The hub refused what this page sent.
    Refused(String),
}

/// What a sync did.
#[derive(Debug, Default)]
pub struct Synced {
    /// What happened in the world, oldest first (the page's feed and highlights take them in).
    pub events: Vec<SimEvent>,
    /// The world was rebuilt or moved backwards: every panel shows another moment.
    pub jumped: bool,
    /// The teacher's moment now: while the clock plays, the page moves its world toward it at
    /// its own pace (the browser within a frame's budget).
    pub target_ms: u64,
    /// The teacher's actions applied by this sync, in order (a lesson's task may be among them).
    pub applied: Vec<crate::sim::Action>,
    /// Actions the world refused (the teacher's world took them, so this means the two worlds
    /// differ: shown to the student, never silently dropped).
    pub refused: Vec<String>,
}

/// What the page's world reflects of the room.
#[derive(Clone, Debug, Default)]
struct Mirror {
    /// The scenario revision the world was built from (`None`: no world yet).
    rev: Option<u64>,
    /// How many of the room's actions the world has applied.
    applied: usize,
    /// The clock's last jump the world went to.
    jump: Option<u64>,
    /// The world left the room's history (a fork the page missed, or the student explored and
    /// acted): start it again from the scenario.
    rebuild: bool,
}

/// A page's copy of the room. See the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Follower {
    room: RoomState,
    /// The hub's `seq` of the last change taken (`None` before the welcome).
    seq: Option<u64>,
    /// The smallest (local ms − hub ms) seen: the offset between the two clocks plus the
    /// quickest delivery.
    offset: Option<f64>,
    mirror: Mirror,
    code: String,
    student_url: String,
    teacher: bool,
}

impl Follower {
    pub fn new() -> Self {
        Self::default()
    }

    /// The room as last received.
    pub fn room(&self) -> &RoomState {
        &self.room
    }

    /// Whether the welcome came (the room is known).
    pub fn welcomed(&self) -> bool {
        self.seq.is_some()
    }

    /// The room's code and the link students open, from the welcome.
    pub fn code(&self) -> &str {
        &self.code
    }

    pub fn student_url(&self) -> &str {
        &self.student_url
    }

    /// Whether the hub took this connection as the teacher's.
    pub fn is_teacher(&self) -> bool {
        self.teacher
    }

    /// Whether the world is built from the room's current scenario.
    pub fn has_world(&self) -> bool {
        self.mirror.rev == Some(self.room.rev)
    }

    /// Takes in a message from the hub, received at `local_ms` (any monotonic clock of the page).
    pub fn receive(&mut self, msg: HubMsg, local_ms: f64) -> Received {
        match msg {
            HubMsg::Welcome {
                room,
                seq,
                hub_ms,
                code,
                student_url,
                teacher,
            } => {
                self.saw_hub(hub_ms, local_ms);
                // The actions the world applied must still be the room's first ones.
                let kept = self.room.actions.get(..self.mirror.applied);
                if room.rev != self.room.rev || kept != room.actions.get(..self.mirror.applied) {
                    self.mirror.rebuild = true;
                }
                self.room = room;
                self.seq = Some(seq);
                self.code = code;
                self.student_url = student_url;
                self.teacher = teacher;
                if self.has_world() {
                    Received::Changed
                } else {
                    Received::NewWorld
                }
            }
            HubMsg::Changed {
                seq,
                hub_ms,
                change,
            } => {
                let Some(last) = self.seq else {
                    return Received::Missed;
                };
                if seq != last + 1 {
                    return Received::Missed;
                }
                self.seq = Some(seq);
                self.saw_hub(hub_ms, local_ms);
                if let TeacherMsg::Actions { from, .. } = &change {
                    if *from < self.mirror.applied {
                        self.mirror.rebuild = true;
                    }
                }
                self.room.take(&change, hub_ms);
                if matches!(change, TeacherMsg::Scenario { .. }) {
                    Received::NewWorld
                } else {
                    Received::Changed
                }
            }
            HubMsg::Roster(r) => Received::Roster(r),
            HubMsg::Tally(t) => Received::Tally(t),
            HubMsg::Refused { why } => Received::Refused(why),
        }
    }

    fn saw_hub(&mut self, hub_ms: u64, local_ms: f64) {
        let offset = local_ms - hub_ms as f64;
        self.offset = Some(self.offset.map_or(offset, |o| o.min(offset)));
    }

    /// The page built its world from the room's current scenario (at t = 0, nothing applied).
    pub fn world_loaded(&mut self) {
        self.mirror = Mirror {
            rev: Some(self.room.rev),
            ..Mirror::default()
        };
    }

    /// The student goes back to following after exploring; `acted` if they changed their world
    /// meanwhile (it is then started again from the scenario).
    pub fn rejoin(&mut self, acted: bool) {
        self.mirror.rebuild |= acted;
        self.mirror.jump = None;
    }

    /// The teacher's moment at `local_ms`: the clock's time, plus what passed since the hub took
    /// it times the speed while it plays.
    pub fn target_ms(&self, local_ms: f64) -> u64 {
        let c = &self.room.clock;
        if !c.playing {
            return c.t_ms;
        }
        let hub_now = local_ms - self.offset.unwrap_or(local_ms);
        let elapsed = (hub_now - self.room.clock_hub_ms as f64).max(0.0);
        let t = c.t_ms as f64 + elapsed * c.speed;
        (t as u64).min(MAX_ROOM_TIME_MS)
    }

    /// Brings `tl` (built from the room's scenario, see [`Follower::world_loaded`]) to the room:
    /// starts it again if it left the room's history, applies the teacher's new actions at their
    /// times, and goes to the teacher's moment when the clock jumped or is paused. While the
    /// clock plays, moving forward to [`Synced::target_ms`] is the caller's.
    pub fn sync(&mut self, tl: &mut Timeline, local_ms: f64) -> Synced {
        let mut out = Synced {
            target_ms: self.target_ms(local_ms),
            ..Synced::default()
        };
        if !self.has_world() {
            return out;
        }
        if std::mem::take(&mut self.mirror.rebuild) {
            *tl = Timeline::new(tl.base().clone());
            self.mirror.applied = 0;
            out.jumped = true;
        }
        while let Some(a) = self.room.actions.get(self.mirror.applied) {
            out.jumped |= go_to(tl, a.at_ms, &mut out.events);
            match tl.apply(a.action.clone()) {
                Ok((_, events)) => {
                    out.events.extend(events);
                    out.applied.push(a.action.clone());
                }
                Err(e) => out.refused.push(e.to_string()),
            }
            self.mirror.applied += 1;
        }
        let jump = self.room.clock.jump;
        if self.mirror.jump != Some(jump) || !self.room.clock.playing {
            out.jumped |= go_to(tl, out.target_ms, &mut out.events);
            self.mirror.jump = Some(jump);
        }
        out
    }
}

/// Moves `tl` to exactly `t`: forward by running, backward by a seek. True for a seek.
fn go_to(tl: &mut Timeline, t: u64, events: &mut Vec<SimEvent>) -> bool {
    if tl.now() > t {
        tl.seek(t);
        true
    } else {
        events.extend(tl.advance_to(t));
        false
    }
}

#[cfg(test)]
mod tests;
