//! A teacher's timeline published through the room to followers: after each of the teacher's
//! moves every follower shows the same world (same state hash, same moment).

use super::*;
use crate::classroom::protocol::{Source, StudentMsg};
use crate::classroom::publish::{Publisher, Shown};
use crate::classroom::room::{Deliver, Room};
use crate::sim::{preset_json, Action, Scenario};

const PRESET: &str = "crash-hang-stop";

fn world() -> Timeline {
    Timeline::new(Scenario::from_json(preset_json(PRESET).unwrap()).unwrap())
}

struct Student {
    id: String,
    follower: Follower,
    world: Option<Timeline>,
    exploring: bool,
}

/// The teacher's page, the hub's room and the students, with one clock (the hub's ms) for all.
struct Class {
    source: Source,
    teacher: Timeline,
    world: u64,
    jump: u64,
    playing: bool,
    publisher: Publisher,
    room: Room,
    students: Vec<Student>,
    hub_ms: u64,
    /// Drop the next change on its way to the students (a gap they must notice).
    lose_next: bool,
}

impl Class {
    fn new() -> Self {
        let mut c = Class {
            source: Source::Preset {
                name: PRESET.into(),
            },
            teacher: world(),
            world: 1,
            jump: 0,
            playing: false,
            publisher: Publisher::new(),
            room: Room::new(
                "ABCDEF".into(),
                "http://h/?room=ABCDEF".into(),
                Default::default(),
            ),
            students: Vec::new(),
            hub_ms: 1_000_000,
            lose_next: false,
        };
        c.publish();
        c
    }

    fn shown(&self) -> Shown {
        Shown::of(
            &self.teacher,
            self.world,
            (self.playing, 10.0, self.jump),
            None,
        )
    }

    fn publish(&mut self) {
        let shown = self.shown();
        let source = self.source.clone();
        for m in self.publisher.publish(&shown, || source, false) {
            let out = self.room.teacher(m, self.hub_ms).unwrap();
            self.deliver(out, None);
        }
    }

    fn deliver(&mut self, out: Vec<Deliver>, sender: Option<usize>) {
        for d in out {
            match d {
                Deliver::Students(m) => {
                    if std::mem::take(&mut self.lose_next) {
                        continue;
                    }
                    for i in 0..self.students.len() {
                        self.receive(i, m.clone());
                    }
                }
                Deliver::Sender(m) => {
                    if let Some(i) = sender {
                        self.receive(i, m)
                    }
                }
                Deliver::Teachers(_) => {}
            }
        }
    }

    fn receive(&mut self, i: usize, m: HubMsg) {
        let now = self.hub_ms as f64;
        let r = self.students[i].follower.receive(m, now);
        match r {
            Received::NewWorld => {
                let s = &mut self.students[i];
                s.world = Some(world());
                s.follower.world_loaded();
            }
            Received::Missed => {
                let id = self.students[i].id.clone();
                let out = self
                    .room
                    .student(&id, StudentMsg::Resync, self.hub_ms)
                    .unwrap();
                self.deliver(out, Some(i));
                return;
            }
            _ => {}
        }
        self.sync(i);
    }

    fn sync(&mut self, i: usize) {
        let now = self.hub_ms as f64;
        let s = &mut self.students[i];
        if s.exploring {
            return;
        }
        let Some(tl) = s.world.as_mut() else { return };
        let out = s.follower.sync(tl, now);
        assert!(out.refused.is_empty(), "{:?}", out.refused);
        if tl.now() < out.target_ms {
            tl.advance_to(out.target_ms);
        }
    }

    fn join(&mut self, id: &str) -> usize {
        self.students.push(Student {
            id: id.into(),
            follower: Follower::new(),
            world: None,
            exploring: false,
        });
        let i = self.students.len() - 1;
        let out = self.room.student_joined(id, self.hub_ms);
        self.deliver(out, Some(i));
        i
    }

    fn act(&mut self, action: Action) {
        let (fork, _) = self.teacher.apply(action).unwrap();
        if fork.is_some() {
            self.jump += 1;
        }
        self.publish();
    }

    fn advance(&mut self, t: u64) {
        self.teacher.advance_to(t);
        self.publish();
    }

    fn seek(&mut self, t: u64) {
        self.teacher.seek(t);
        self.jump += 1;
        self.publish();
    }

    /// Every following student shows the teacher's moment and world.
    fn check(&self, what: &str) {
        let want = (self.teacher.now(), self.teacher.sim().state_hash());
        for s in self.students.iter().filter(|s| !s.exploring) {
            let tl = s.world.as_ref().unwrap();
            assert_eq!(
                (tl.now(), tl.sim().state_hash()),
                want,
                "{} after {what}",
                s.id
            );
        }
    }
}

fn broker(n: u8) -> String {
    format!("10.0.0.{n}:10911")
}

#[test]
fn followers_show_the_teachers_world_after_every_move() {
    let mut c = Class::new();
    c.join("early");
    c.check("joining");
    c.advance(30_000);
    c.check("advancing");
    c.act(Action::FreezeBroker { broker: broker(4) });
    c.check("an action");
    c.advance(200_000);
    c.check("the expiry");
    c.join("late");
    c.check("a late join");
    // Back in time, then an action there: a fork.
    c.seek(20_000);
    c.check("a seek back");
    c.act(Action::KillBroker { broker: broker(4) });
    c.check("a fork");
    c.advance(60_000);
    c.teacher.undo_fork();
    c.jump += 1;
    c.publish();
    c.check("an undo");
    // A reset: a new world from the same scenario.
    c.teacher = world();
    c.world += 1;
    c.publish();
    c.check("a reset");
}

#[test]
fn a_playing_clock_is_extrapolated_and_a_pause_lands_exactly() {
    let mut c = Class::new();
    c.join("s");
    c.advance(10_000);
    c.playing = true;
    c.publish();
    // Two real seconds at 10×: the student runs on its own to 30 s.
    c.hub_ms += 2_000;
    c.sync(0);
    assert_eq!(c.students[0].world.as_ref().unwrap().now(), 30_000);
    // The teacher's page ran a little slower and pauses at 29.5 s: the student goes back to it.
    c.teacher.advance_to(29_500);
    c.playing = false;
    c.publish();
    c.check("a pause");
}

#[test]
fn a_missed_change_is_noticed_and_caught_up() {
    let mut c = Class::new();
    c.join("s");
    c.lose_next = true;
    c.act(Action::StopBroker { broker: broker(3) });
    // The action was lost; the clock that followed shows the gap and the student resyncs.
    c.check("a lost change");
    c.advance(150_000);
    c.check("later");
}

#[test]
fn an_explorer_comes_back_to_the_teachers_world() {
    let mut c = Class::new();
    c.join("s");
    c.advance(40_000);
    // The student explores: kills another broker and runs ahead on their own.
    c.students[0].exploring = true;
    let tl = c.students[0].world.as_mut().unwrap();
    tl.apply(Action::KillBroker { broker: broker(1) }).unwrap();
    tl.advance_to(90_000);
    // Meanwhile the teacher goes on.
    c.act(Action::FreezeBroker { broker: broker(2) });
    c.advance(70_000);
    let s = &mut c.students[0];
    s.exploring = false;
    s.follower.rejoin(true);
    c.sync(0);
    c.check("following again");
}
