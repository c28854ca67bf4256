//! The hub's room: what the teacher published, who is here, and the answers to the current
//! question. Pure: the server hands it messages with the hub's clock and delivers what it returns.
//!
//! One piece, over 500 lines with its tests: the room's state and the three roles' rules on it
//! change together, and half the file is the tests that walk a room through a lesson.
//!
//! Who sent a message is decided by the server before it gets here (the teacher's token is checked
//! at the WebSocket's upgrade), so a student's connection can only ever reach [`Room::student`].

use std::collections::BTreeMap;

use super::protocol::{
    Clock, HubMsg, LessonPos, RoomAction, RoomState, Roster, Source, StudentMsg, Tally, TeacherMsg,
    MAX_CHOICES, SPEED_RANGE,
};
use crate::sim::{lesson as lesson_file, preset, Scenario};

/// The latest virtual time a teacher's clock may show: 30 days (a page asked to catch up further
/// would simulate for hours).
pub const MAX_ROOM_TIME_MS: u64 = 30 * 86_400_000;
/// At most this many actions on a branch.
pub const MAX_ACTIONS: usize = 100_000;
/// Students remembered (to count who disconnected); beyond it the oldest disconnected are forgotten.
pub const MAX_REMEMBERED: usize = 10_000;

/// To whom a message goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Deliver {
    /// Every student's connection.
    Students(HubMsg),
    /// Every teacher's connection.
    Teachers(HubMsg),
    /// Only the connection the message came from.
    Sender(HubMsg),
}

/// One student, by the id their page keeps.
#[derive(Clone, Debug, Default)]
struct Student {
    /// Open connections (a student may have two tabs).
    connections: u32,
    exploring: bool,
    /// When they were last seen connecting (hub ms), to forget the oldest first.
    seen_ms: u64,
}

/// A classroom. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Room {
    code: String,
    student_url: String,
    state: RoomState,
    seq: u64,
    students: BTreeMap<String, Student>,
    /// The students counted by where they are, kept as they move (a join must not walk them all).
    roster: Roster,
    /// Answers to the current step's question, by student id.
    answers: BTreeMap<String, usize>,
}

impl Room {
    /// A room with its code, the link students open, and what it showed last (a restarted hub
    /// resumes from what it kept).
    pub fn new(code: String, student_url: String, state: RoomState) -> Self {
        Self {
            code,
            student_url,
            state,
            seq: 0,
            students: BTreeMap::new(),
            roster: Roster::default(),
            answers: BTreeMap::new(),
        }
    }

    pub fn code(&self) -> &str {
        &self.code
    }

    /// What the teacher published.
    pub fn state(&self) -> &RoomState {
        &self.state
    }

    /// The whole room, for a connection that just opened or asked for it.
    pub fn welcome(&self, hub_ms: u64, teacher: bool) -> HubMsg {
        HubMsg::Welcome {
            room: self.state.clone(),
            seq: self.seq,
            hub_ms,
            code: self.code.clone(),
            student_url: self.student_url.clone(),
            teacher,
        }
    }

    /// How many students follow, explore, or are gone.
    pub fn roster(&self) -> Roster {
        self.roster
    }

    /// Changes a student (added if new) and moves them in the counts.
    fn update(&mut self, id: &str, change: impl FnOnce(&mut Student)) {
        fn count<'r>(r: &'r mut Roster, s: &Student) -> &'r mut usize {
            match (s.connections, s.exploring) {
                (0, _) => &mut r.disconnected,
                (_, true) => &mut r.exploring,
                (_, false) => &mut r.following,
            }
        }
        let s = match self.students.get_mut(id) {
            Some(s) => {
                let n = count(&mut self.roster, s);
                *n = n.saturating_sub(1);
                s
            }
            None => self.students.entry(id.to_owned()).or_default(),
        };
        change(s);
        *count(&mut self.roster, s) += 1;
    }

    /// The answers to the current step's question, if it asks one.
    pub fn tally(&self) -> Option<Tally> {
        let lesson = self.state.lesson.as_ref().filter(|l| l.choices > 0)?;
        let mut counts = vec![0; lesson.choices];
        for &c in self.answers.values() {
            if let Some(n) = counts.get_mut(c) {
                *n += 1;
            }
        }
        Some(Tally {
            step: lesson.step,
            counts,
        })
    }

    /// What a teacher's connection gets on opening: the room, who is here, the answers.
    pub fn teacher_joined(&self, hub_ms: u64) -> Vec<Deliver> {
        let mut out = vec![
            Deliver::Sender(self.welcome(hub_ms, true)),
            Deliver::Sender(HubMsg::Roster(self.roster())),
        ];
        out.extend(self.tally().map(|t| Deliver::Sender(HubMsg::Tally(t))));
        out
    }

    /// A student's connection opened: the room for them, the new count for the teacher.
    pub fn student_joined(&mut self, id: &str, hub_ms: u64) -> Vec<Deliver> {
        if !self.students.contains_key(id) && self.students.len() >= MAX_REMEMBERED {
            self.forget_oldest_disconnected();
        }
        self.update(id, |s| {
            s.connections += 1;
            s.exploring = false;
            s.seen_ms = hub_ms;
        });
        vec![
            Deliver::Sender(self.welcome(hub_ms, false)),
            Deliver::Teachers(HubMsg::Roster(self.roster())),
        ]
    }

    /// A student's connection closed.
    pub fn student_left(&mut self, id: &str) -> Vec<Deliver> {
        if self.students.contains_key(id) {
            self.update(id, |s| s.connections = s.connections.saturating_sub(1));
        }
        vec![Deliver::Teachers(HubMsg::Roster(self.roster()))]
    }

    fn forget_oldest_disconnected(&mut self) {
        let oldest = self
            .students
            .iter()
            .filter(|(_, s)| s.connections == 0)
            .min_by_key(|(_, s)| s.seen_ms)
            .map(|(id, _)| id.clone());
        if let Some(id) = oldest {
            self.students.remove(&id);
            self.roster.disconnected = self.roster.disconnected.saturating_sub(1);
            self.answers.remove(&id);
        }
    }

    /// A student's message. `Err` says why it is refused; the server then closes that student's
    /// connection. A well-formed answer that comes too late (the question changed or was revealed
    /// meanwhile) is dropped quietly: the student's page raced the teacher, it did nothing wrong.
    pub fn student(
        &mut self,
        id: &str,
        msg: StudentMsg,
        hub_ms: u64,
    ) -> Result<Vec<Deliver>, String> {
        match msg {
            StudentMsg::Answer { step, choice } => {
                let Some(lesson) = &self.state.lesson else {
                    return Ok(Vec::new());
                };
                if lesson.step != step || lesson.revealed || lesson.choices == 0 {
                    return Ok(Vec::new());
                }
                if choice >= lesson.choices {
                    return Err(format!(
                        "choice {choice} does not exist: the question has {} choices",
                        lesson.choices
                    ));
                }
                self.answers.insert(id.to_owned(), choice);
                Ok(self
                    .tally()
                    .map(|t| Deliver::Teachers(HubMsg::Tally(t)))
                    .into_iter()
                    .collect())
            }
            StudentMsg::Resync => {
                self.set_exploring(id, false);
                Ok(vec![
                    Deliver::Sender(self.welcome(hub_ms, false)),
                    Deliver::Teachers(HubMsg::Roster(self.roster())),
                ])
            }
            StudentMsg::Explore => {
                self.set_exploring(id, true);
                Ok(vec![Deliver::Teachers(HubMsg::Roster(self.roster()))])
            }
        }
    }

    fn set_exploring(&mut self, id: &str, exploring: bool) {
        if self.students.contains_key(id) {
            self.update(id, |s| s.exploring = exploring);
        }
    }

    /// The teacher's message: taken into the room and sent on to the students, or refused with
    /// why (the teacher's page then asks for the room again).
    pub fn teacher(&mut self, msg: TeacherMsg, hub_ms: u64) -> Result<Vec<Deliver>, String> {
        match &msg {
            TeacherMsg::Resync => return Ok(self.teacher_joined(hub_ms)),
            TeacherMsg::Scenario { rev, source } => {
                if *rev < self.state.rev {
                    return Err(format!(
                        "stale scenario: the room is at rev {}, this is rev {rev}",
                        self.state.rev
                    ));
                }
                check_source(source)?;
            }
            TeacherMsg::Actions { rev, from, actions } => {
                if *rev != self.state.rev {
                    return Err(format!(
                        "actions for rev {rev}, but the room is at rev {}",
                        self.state.rev
                    ));
                }
                check_actions(&self.state.actions, *from, actions)?;
            }
            TeacherMsg::Clock(c) => check_clock(c)?,
            TeacherMsg::Lesson { lesson } => {
                if let Some(l) = lesson {
                    check_lesson(l)?;
                }
                let same_question = match (&self.state.lesson, lesson) {
                    (Some(a), Some(b)) => a.name == b.name && a.step == b.step,
                    _ => false,
                };
                if !same_question {
                    self.answers.clear();
                }
            }
            TeacherMsg::Reveal { step } => match &self.state.lesson {
                Some(l) if l.step == *step && l.choices > 0 => {}
                _ => return Err(format!("step {step} is not the question shown")),
            },
        }
        self.state.take(&msg, hub_ms);
        let tally = matches!(msg, TeacherMsg::Lesson { .. })
            .then(|| self.tally())
            .flatten();
        self.seq += 1;
        let mut out = vec![Deliver::Students(HubMsg::Changed {
            seq: self.seq,
            hub_ms,
            change: msg,
        })];
        out.extend(tally.map(|t| Deliver::Teachers(HubMsg::Tally(t))));
        Ok(out)
    }
}

fn check_source(source: &Source) -> Result<(), String> {
    match source {
        Source::Preset { name } => {
            if preset(name).is_none() && lesson_file(name).is_none() {
                return Err(format!("no preset or lesson is named {name:?}"));
            }
        }
        Source::Json { text } => {
            Scenario::from_json(text).map_err(|e| format!("the scenario is not valid: {e}"))?;
        }
    }
    Ok(())
}

fn check_actions(kept: &[RoomAction], from: usize, new: &[RoomAction]) -> Result<(), String> {
    if from > kept.len() {
        return Err(format!(
            "actions from #{from}, but the room has {}",
            kept.len()
        ));
    }
    if from + new.len() > MAX_ACTIONS {
        return Err(format!("more than {MAX_ACTIONS} actions"));
    }
    let mut last = from
        .checked_sub(1)
        .and_then(|i| kept.get(i))
        .map_or(0, |a| a.at_ms);
    for (i, a) in new.iter().enumerate() {
        if a.at_ms < last {
            return Err(format!(
                "action #{} at {} ms comes before the one before it ({last} ms)",
                from + i,
                a.at_ms
            ));
        }
        if a.at_ms > MAX_ROOM_TIME_MS {
            return Err(format!("action #{} is later than 30 days", from + i));
        }
        last = a.at_ms;
    }
    Ok(())
}

fn check_clock(c: &Clock) -> Result<(), String> {
    if !(c.speed.is_finite() && c.speed >= SPEED_RANGE.0 && c.speed <= SPEED_RANGE.1) {
        return Err(format!(
            "speed must be between {} and {}",
            SPEED_RANGE.0, SPEED_RANGE.1
        ));
    }
    if c.t_ms > MAX_ROOM_TIME_MS {
        return Err("the clock is later than 30 days".into());
    }
    Ok(())
}

fn check_lesson(l: &LessonPos) -> Result<(), String> {
    if lesson_file(&l.name).is_none() {
        return Err(format!("no lesson is named {:?}", l.name));
    }
    if l.choices > MAX_CHOICES {
        return Err(format!("a question has at most {MAX_CHOICES} choices"));
    }
    if l.step >= 1000 {
        return Err("no lesson has 1000 steps".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Action;

    fn room() -> Room {
        Room::new(
            "K7Q2PX".into(),
            "http://h/?room=K7Q2PX".into(),
            RoomState::default(),
        )
    }

    fn kill(at_ms: u64) -> RoomAction {
        RoomAction {
            at_ms,
            action: Action::KillBroker {
                broker: "10.0.0.2:10911".into(),
            },
        }
    }

    fn preset_source() -> Source {
        Source::Preset {
            name: "crash-hang-stop".into(),
        }
    }

    fn students_msgs(out: &[Deliver]) -> Vec<&HubMsg> {
        out.iter()
            .filter_map(|d| match d {
                Deliver::Students(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn teacher_changes_reach_students_in_order() {
        let mut r = room();
        let out = r
            .teacher(
                TeacherMsg::Scenario {
                    rev: 1,
                    source: preset_source(),
                },
                10,
            )
            .unwrap();
        assert!(matches!(
            students_msgs(&out)[..],
            [HubMsg::Changed {
                seq: 1,
                hub_ms: 10,
                ..
            }]
        ));
        let out = r
            .teacher(
                TeacherMsg::Actions {
                    rev: 1,
                    from: 0,
                    actions: vec![kill(5_000)],
                },
                20,
            )
            .unwrap();
        assert!(matches!(
            students_msgs(&out)[..],
            [HubMsg::Changed { seq: 2, .. }]
        ));
        assert_eq!(r.state().actions, vec![kill(5_000)]);
        // A late joiner gets all of it at once.
        let out = r.student_joined("s1", 30);
        match &out[0] {
            Deliver::Sender(HubMsg::Welcome {
                room, seq, teacher, ..
            }) => {
                assert_eq!(room.actions.len(), 1);
                assert_eq!(room.source, Some(preset_source()));
                assert_eq!(*seq, 2);
                assert!(!teacher);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_teacher_messages_change_nothing() {
        let mut r = room();
        r.teacher(
            TeacherMsg::Scenario {
                rev: 2,
                source: preset_source(),
            },
            0,
        )
        .unwrap();
        let before = r.state().clone();
        let bad = [
            TeacherMsg::Scenario {
                rev: 1,
                source: preset_source(),
            },
            TeacherMsg::Scenario {
                rev: 3,
                source: Source::Preset {
                    name: "nope".into(),
                },
            },
            TeacherMsg::Scenario {
                rev: 3,
                source: Source::Json {
                    text: "{\"routelab\":1,\"brokers\":7}".into(),
                },
            },
            TeacherMsg::Actions {
                rev: 1,
                from: 0,
                actions: vec![kill(1)],
            },
            TeacherMsg::Actions {
                rev: 2,
                from: 3,
                actions: vec![kill(1)],
            },
            TeacherMsg::Actions {
                rev: 2,
                from: 0,
                actions: vec![kill(9), kill(8)],
            },
            TeacherMsg::Clock(Clock {
                speed: f64::NAN,
                ..Clock::default()
            }),
            TeacherMsg::Clock(Clock {
                t_ms: MAX_ROOM_TIME_MS + 1,
                ..Clock::default()
            }),
            TeacherMsg::Lesson {
                lesson: Some(LessonPos {
                    name: "lesson-99".into(),
                    step: 0,
                    choices: 2,
                    revealed: false,
                }),
            },
            TeacherMsg::Reveal { step: 0 },
        ];
        for m in bad {
            let why = r.teacher(m.clone(), 1).unwrap_err();
            assert!(!why.is_empty(), "{m:?}");
            assert_eq!(r.state(), &before, "{m:?} changed the room");
        }
    }

    #[test]
    fn a_fork_replaces_the_later_actions() {
        let mut r = room();
        let actions = |from, actions| TeacherMsg::Actions {
            rev: 0,
            from,
            actions,
        };
        r.teacher(actions(0, vec![kill(1_000), kill(5_000), kill(9_000)]), 0)
            .unwrap();
        r.teacher(actions(1, vec![kill(3_000)]), 0).unwrap();
        assert_eq!(r.state().actions, vec![kill(1_000), kill(3_000)]);
        // Not before the action kept before it.
        assert!(r.teacher(actions(1, vec![kill(500)]), 0).is_err());
    }

    #[test]
    fn answers_are_tallied_once_per_student_until_revealed() {
        let mut r = room();
        r.teacher(
            TeacherMsg::Lesson {
                lesson: Some(LessonPos {
                    name: "lesson-2-heartbeats".into(),
                    step: 1,
                    choices: 3,
                    revealed: false,
                }),
            },
            0,
        )
        .unwrap();
        r.student_joined("a", 0);
        r.student_joined("b", 0);
        let answer = |step, choice| StudentMsg::Answer { step, choice };
        r.student("a", answer(1, 0), 0).unwrap();
        r.student("a", answer(1, 2), 0).unwrap();
        let out = r.student("b", answer(1, 2), 0).unwrap();
        assert_eq!(
            out,
            vec![Deliver::Teachers(HubMsg::Tally(Tally {
                step: 1,
                counts: vec![0, 0, 2]
            }))]
        );
        // An answer to another step is a race, dropped; a choice that does not exist is refused.
        assert_eq!(r.student("a", answer(0, 1), 0).unwrap(), vec![]);
        assert!(r.student("a", answer(1, 3), 0).is_err());
        r.teacher(TeacherMsg::Reveal { step: 1 }, 0).unwrap();
        assert!(r.state().lesson.as_ref().unwrap().revealed);
        assert_eq!(r.student("a", answer(1, 1), 0).unwrap(), vec![]);
        assert_eq!(r.tally().unwrap().counts, vec![0, 0, 2]);
        // The next step starts a new tally.
        r.teacher(
            TeacherMsg::Lesson {
                lesson: Some(LessonPos {
                    name: "lesson-2-heartbeats".into(),
                    step: 2,
                    choices: 2,
                    revealed: false,
                }),
            },
            0,
        )
        .unwrap();
        assert_eq!(r.tally().unwrap().counts, vec![0, 0]);
    }

    #[test]
    fn roster_counts_following_exploring_and_gone() {
        let mut r = room();
        r.student_joined("a", 0);
        r.student_joined("b", 0);
        r.student_joined("c", 0);
        r.student("b", StudentMsg::Explore, 0).unwrap();
        r.student_left("c");
        assert_eq!(
            r.roster(),
            Roster {
                following: 1,
                exploring: 1,
                disconnected: 1
            }
        );
        // Back: following again, from the room as it is.
        r.student_joined("c", 5);
        r.student("b", StudentMsg::Resync, 0).unwrap();
        assert_eq!(r.roster().following, 3);
    }

    #[test]
    fn remembered_students_are_bounded() {
        let mut r = room();
        for i in 0..MAX_REMEMBERED + 10 {
            let id = format!("s{i}");
            r.student_joined(&id, i as u64);
            r.student_left(&id);
        }
        assert_eq!(r.students.len(), MAX_REMEMBERED);
        assert_eq!(r.roster().disconnected, MAX_REMEMBERED);
        // The oldest went first.
        assert!(!r.students.contains_key("s0"));
        assert!(r.students.contains_key(&format!("s{}", MAX_REMEMBERED + 9)));
    }
}
