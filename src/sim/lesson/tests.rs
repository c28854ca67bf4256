//! The lesson format, its questions and the player (docs/scenario.md, "Lessons").

use super::player::{Player, StepState};
use super::predict::outcome;
use super::walk::walk;
use super::*;
use crate::sim::{Scenario, Sim};

/// crash-hang-stop's world (one NameServer, brokers a–d, pg-1 at 2 messages a second) with a
/// lesson added to it.
fn with_lesson(lesson: &str) -> Result<Scenario, crate::sim::ScenarioError> {
    Scenario::from_json(&format!(
        r#"{{"routelab":1,"profile":"5.x","seed":7,"namesrvs":["ns-1"],
        "brokers":[
          {{"name":"broker-a","addr":"10.0.0.1:10911","topics":[{{"topic":"TopicTest"}}]}},
          {{"name":"broker-b","addr":"10.0.0.2:10911","topics":[{{"topic":"TopicTest"}}]}}],
        "producers":[{{"group":"pg-1","topic":"TopicTest","rate":2}}],
        "lesson":{lesson}}}"#
    ))
}

const T: &str = r#"{"en":"x","zh":"某"}"#;
const P: &str = r#"{"en":["a point"],"zh":["一点"]}"#;

fn lesson_of(steps: &[String]) -> String {
    format!(r#"{{"title":{T},"steps":[{}]}}"#, steps.join(","))
}

fn step(extra: &str) -> String {
    let sep = if extra.is_empty() { "" } else { "," };
    format!(r#"{{"title":{T},"text":{P}{sep}{extra}}}"#)
}

/// A removal-time question about broker-b on ns-1 with these ranges (seconds).
fn removal_question(ranges: &[(u32, u32)]) -> String {
    let choices: Vec<String> = ranges
        .iter()
        .map(|(a, b)| format!(r#"{{"from":{a},"to":{b}}}"#))
        .collect();
    format!(
        r#""predict":{{"question":{T},"ask":"removal_time","namesrv":"ns-1","broker":"10.0.0.2:10911","choices":[{}]}}"#,
        choices.join(",")
    )
}

const FREEZE_B: &str = r#""task":{"action":{"do":"freeze_broker","broker":"10.0.0.2:10911"},"hint":{"en":"press freeze","zh":"点冻结"}}"#;

#[test]
fn a_lesson_parses_and_its_errors_name_the_field() {
    let ok = with_lesson(&lesson_of(&[step(""), step(FREEZE_B)])).unwrap();
    assert_eq!(ok.lesson.as_ref().map(|l| l.steps.len()), Some(2));

    let err = |lesson: String| with_lesson(&lesson).unwrap_err().to_string();
    // A text without its Chinese.
    assert!(err(format!(
        r#"{{"title":{{"en":"x"}},"steps":[{}]}}"#,
        step("")
    ))
    .contains("missing field `zh`"),);
    assert!(err(format!(
        r#"{{"title":{{"en":"x","zh":" "}},"steps":[{}]}}"#,
        step("")
    ))
    .starts_with("lesson.title.zh: must not be empty"));
    assert!(err(lesson_of(&[])).starts_with("lesson.steps: a lesson needs at least one step"));
    assert!(err(lesson_of(&[format!(
        r#"{{"title":{T},"text":{{"en":[],"zh":["一"]}}}}"#
    )]))
    .starts_with("lesson.steps[0].text.en:"));
    // A task naming a broker the scenario does not have.
    assert!(err(lesson_of(&[step(
        r#""task":{"action":{"do":"kill_broker","broker":"10.9.9.9:1"},"hint":{"en":"h","zh":"提示"}}"#
    )]))
    .starts_with("lesson.steps[0].task.action.broker: no broker has address"));
    // A question with a choice of the wrong shape, or about an unknown NameServer.
    assert!(err(lesson_of(&[step(&format!(
        r#""predict":{{"question":{T},"ask":"removal_time","namesrv":"ns-1","broker":"10.0.0.2:10911","choices":[{{"from":1,"to":2}},{{"reason":"expired"}}]}}"#
    ))]))
    .starts_with("lesson.steps[0].predict.choices[1]: a removal_time choice has exactly from and to"));
    assert!(err(lesson_of(&[step(&format!(
        r#""predict":{{"question":{T},"ask":"removal_reason","namesrv":"ns-9","broker":"10.0.0.2:10911","choices":[{{"reason":"expired"}},{{"reason":"idle_closed"}}]}}"#
    ))]))
    .starts_with("lesson.steps[0].predict.namesrv: unknown NameServer"));
    assert!(err(lesson_of(&[step(
        r#""until":{"event":{"kind":"broker_removed","producer":"pg-1"}}"#
    )]))
    .starts_with("lesson.steps[0].until.event.producer: this kind of event has no producer"));
    assert!(err(lesson_of(&[step(
        r#""until":{"at":5,"event":{"kind":"send"}}"#
    )]))
    .starts_with("lesson.steps[0].until: an until has exactly one of"));
}

/// A task can add what a later step names.
#[test]
fn a_task_may_add_a_producer_a_later_question_names() {
    let add = r#""task":{"action":{"do":"add_producer","group":"pg-2","topic":"TopicTest"},"hint":{"en":"h","zh":"提示"}}"#;
    let ask = format!(
        r#""predict":{{"question":{T},"ask":"next_send_ok","producer":"pg-2","choices":[{{"ok":true}},{{"ok":false}}]}}"#
    );
    assert!(with_lesson(&lesson_of(&[step(add), step(&ask)])).is_ok());
    let err = with_lesson(&lesson_of(&[step(&ask), step(add)])).unwrap_err();
    assert_eq!(err.path, "lesson.steps[0].predict.producer");
}

/// The answer to "when will ns-1 remove broker-b?" is computed from the world where it is asked:
/// frozen at t = 0 it stops at its first heartbeat, so ns-1 closes its idle connection 120 s later
/// (spec §2.4: the idle close comes before the 120 s expiry scan).
#[test]
fn a_question_is_answered_by_the_simulator() {
    let s = with_lesson(&lesson_of(&[step(&format!(
        "{FREEZE_B},{}",
        removal_question(&[(0, 60), (60, 115), (115, 130), (130, 300)])
    ))]))
    .unwrap();
    let (_, walked) = walk(&s, |_| {}).unwrap();
    let o = walked[0].predict.as_ref().unwrap();
    assert_eq!(o.right, vec![2]);
    let e = o.event.as_ref().unwrap();
    assert!((115_000..130_000).contains(&e.t), "{}", e.t);
    assert!(crate::sim::describe(e).contains("broker-b"));

    // Without the freeze, nothing removes broker-b within the hour: no choice is right, and the
    // walk says so rather than passing.
    let s = with_lesson(&lesson_of(&[step(&removal_question(&[
        (0, 60),
        (60, 3600),
    ]))]))
    .unwrap();
    let e = walk(&s, |_| {}).unwrap_err();
    assert_eq!(e.step, 0);
    assert!(e.message.contains("0 right choices"), "{}", e.message);
}

/// Two ranges that both hold the moment: the walk refuses a question with two right answers.
#[test]
fn a_question_with_two_right_choices_fails_the_walk() {
    let s = with_lesson(&lesson_of(&[step(&format!(
        "{FREEZE_B},{}",
        removal_question(&[(0, 200), (100, 300)])
    ))]))
    .unwrap();
    let e = walk(&s, |_| {}).unwrap_err();
    assert!(e.message.contains("2 right choices"), "{}", e.message);
}

/// The next message's broker follows the producer's round-robin; its fate, its retries.
#[test]
fn next_send_questions_follow_the_producer() {
    let s = with_lesson(&lesson_of(&[step("")])).unwrap();
    let mut sim = Sim::new(&s);
    sim.advance_to(20_000);
    let ask = |ask: &str, choices: &str| -> Predict {
        serde_json::from_str(&format!(
            r#"{{"question":{T},"ask":"{ask}","producer":"pg-1","choices":{choices}}}"#
        ))
        .unwrap()
    };
    let which = ask(
        "next_send_broker",
        r#"[{"broker_name":"broker-a"},{"broker_name":"broker-b"}]"#,
    );
    let o = outcome(&which, &sim, None);
    assert_eq!(o.right.len(), 1);
    // The answer is the broker the copy's next first attempt went to: the real run agrees.
    let mut real = sim.clone();
    let _ = real.drain_events();
    let first = loop {
        real.advance_to(real.now() + 100);
        // The first message begun after the question (a send is reported when it ends).
        if let Some(e) = real.drain_events().into_iter().find(|e| {
            matches!(&e.kind, crate::sim::SimEventKind::Send { attempt: 1, latency_ms, .. }
                if e.t - latency_ms > sim.now())
        }) {
            break e;
        }
    };
    assert_eq!(o.event.as_ref(), Some(&first));
    let crate::sim::SimEventKind::Send { broker_name, .. } = &first.kind else {
        unreachable!()
    };
    assert_eq!(
        which.choices[o.right[0]].broker_name.as_deref(),
        broker_name.as_ref().map(|b| b.as_str())
    );
    // Both brokers up: delivered.
    let ok = ask("next_send_ok", r#"[{"ok":true},{"ok":false}]"#);
    assert_eq!(outcome(&ok, &sim, None).right, vec![0]);
    // A question about a task's effect is answered as if it were done: killed, broker-a is
    // removed at once, its channel closed (spec §2.4).
    let why: Predict = serde_json::from_str(&format!(
        r#"{{"question":{T},"ask":"removal_reason","namesrv":"ns-1","broker":"10.0.0.1:10911",
        "choices":[{{"reason":"channel_closed"}},{{"reason":"expired"}}]}}"#
    ))
    .unwrap();
    let kill = Action::KillBroker {
        broker: "10.0.0.1:10911".into(),
    };
    let o = outcome(&why, &sim, Some(&kill));
    assert_eq!(o.right, vec![0]);
    assert_eq!(o.event.as_ref().map(|e| e.t), Some(sim.now()));
    assert!(
        sim.brokers()
            .iter()
            .all(|b| b.state == crate::sim::BrokerState::Running),
        "the copy was killed, not the world"
    );
}

/// A step's until stops the clock at the event it names.
#[test]
fn until_an_event_stops_at_it() {
    let s = with_lesson(&lesson_of(&[step(&format!(
        r#"{FREEZE_B},"until":{{"event":{{"kind":"broker_removed","namesrv":"ns-1","broker":"10.0.0.2:10911"}}}}"#
    ))]))
    .unwrap();
    let mut seen = 0;
    let (sim, walked) = walk(&s, |_| seen += 1).unwrap();
    let (t, e) = walked[0].until.clone().unwrap();
    assert_eq!(sim.now(), t);
    assert!(matches!(
        e.map(|e| e.kind),
        Some(crate::sim::SimEventKind::BrokerRemoved {
            reason: "idle_closed",
            ..
        })
    ));
    assert!(seen > 0, "the walk reports its events");
}

#[test]
fn the_player_marks_skipped_steps_and_back_returns_where_a_step_began() {
    let s = with_lesson(&lesson_of(&[
        step(FREEZE_B),
        step(&removal_question(&[(0, 10), (10, 20)])),
        step(""),
    ]))
    .unwrap();
    let lesson = s.lesson.as_ref().unwrap();
    let mut p = Player::new(lesson, 0);
    assert_eq!((p.current(), p.len()), (0, 3));
    // Another action does not do the task; the one it names does.
    assert!(!p.action_applied(
        lesson,
        &Action::KillBroker {
            broker: "10.0.0.2:10911".into()
        }
    ));
    assert!(p.action_applied(
        lesson,
        &Action::FreezeBroker {
            broker: "10.0.0.2:10911".into()
        }
    ));
    assert!(p.next(lesson, 5_000));
    assert_eq!(p.states()[0], StepState::Done);
    // Next over an unanswered question: skipped.
    assert!(p.next(lesson, 9_000));
    assert_eq!(p.states()[1], StepState::Skipped);
    assert_eq!(p.back(), Some(5_000));
    assert_eq!(p.current(), 1);
    assert_eq!(p.states()[2], StepState::Ahead);
    p.answer_with(
        1,
        predict::Outcome {
            right: vec![1],
            event: None,
        },
    );
    assert!(p.answer().is_some_and(|a| a.correct()));
    // Answered once: a second choice changes nothing.
    p.answer_with(
        0,
        predict::Outcome {
            right: vec![1],
            event: None,
        },
    );
    assert_eq!(p.answer().map(|a| a.chosen), Some(1));
    assert!(p.next(lesson, 9_000));
    assert_eq!(p.states()[1], StepState::Done);
    assert!(!p.finished());
    assert!(!p.next(lesson, 12_000), "the last step");
    assert!(p.finished());
    // From the last step back to where the second began, then the first.
    assert_eq!(p.back(), Some(5_000));
    assert_eq!(p.back(), Some(0));
    assert_eq!(p.back(), None);
}

#[test]
fn choices_read_in_both_languages() {
    let c = Choice {
        broker_name: None,
        ok: None,
        from: Some(180.0),
        to: Some(200.0),
        reason: None,
        client_id: None,
        broker: None,
        nobody: None,
    };
    assert_eq!(c.label(Lang::En), "between 180 s and 200 s");
    assert_eq!(c.label(Lang::Zh), "180 秒至 200 秒之间");
    let nobody = Choice {
        nobody: Some(true),
        ..c.clone()
    };
    assert_ne!(nobody.label(Lang::En), nobody.label(Lang::Zh));
    for r in REASONS
        .iter()
        .chain(DUPLICATE_REASONS.iter())
        .chain(REGISTRATION_OUTCOMES.iter())
    {
        for lang in Lang::ALL {
            assert_ne!(reason_words(r, lang), "?");
        }
    }
}

#[test]
fn an_until_reads_in_both_languages() {
    let u: Until = serde_json::from_str(
        r#"{"event":{"kind":"broker_removed","namesrv":"ns-1","broker":"10.0.0.2:10911"}}"#,
    )
    .unwrap();
    assert_eq!(u.describe(Lang::En), "until ns-1 removes 10.0.0.2:10911");
    assert_eq!(u.describe(Lang::Zh), "直到 ns-1 移除 10.0.0.2:10911");
    let at: Until = serde_json::from_str(r#"{"at":45}"#).unwrap();
    assert_eq!(at.describe(Lang::En), "to 00:45");
    assert_eq!(at.describe(Lang::Zh), "到 00:45");
}

/// A producer added through the form does a task by its group and topic, whatever rate it sends
/// at, and by the NameServer the task names (lesson 6 binds it to the partitioned one).
#[test]
fn a_producer_task_is_done_by_its_group_topic_and_namesrv() {
    let task: Task = serde_json::from_str(
        r#"{"action": {"do": "add_producer", "group": "pg-orders", "topic": "OrderTopic",
            "rate": 0.2, "namesrv": "ns-2"}, "hint": {"en": "h", "zh": "提示"}}"#,
    )
    .unwrap();
    let added = |rate: f64, namesrv: Option<&str>| {
        Action::AddProducer(crate::sim::scenario::ProducerSpec {
            group: "pg-orders".into(),
            topic: "OrderTopic".into(),
            rate,
            fault_tolerance: false,
            client: None,
            namesrv: namesrv.map(str::to_owned),
            zone: None,
            zone_mode: false,
        })
    };
    assert!(task.done_by(&added(2.0, Some("ns-2"))));
    assert!(!task.done_by(&added(0.2, Some("ns-1"))));
    assert!(!task.done_by(&added(0.2, None)));
}

/// A classroom's student shows the teacher's step: forward as by Next, backward as by Back.
#[test]
fn a_follower_goes_to_the_teachers_step() {
    let sc = with_lesson(&lesson_of(&[step(""), step(FREEZE_B), step(""), step("")])).unwrap();
    let lesson = sc.lesson.as_ref().unwrap();
    let mut p = Player::new(lesson, 0);
    p.go_to_step(lesson, 2, 5_000);
    assert_eq!(p.current(), 2);
    assert_eq!(p.entered(2), Some(5_000));
    // The task of step 1 was not done here: skipped, as Next leaves it.
    assert_eq!(
        p.states(),
        [
            StepState::Done,
            StepState::Skipped,
            StepState::Current,
            StepState::Ahead
        ]
    );
    p.go_to_step(lesson, 0, 9_000);
    assert_eq!(p.current(), 0);
    assert_eq!(p.states()[1..], [StepState::Ahead; 3]);
    // Past the end: the last step.
    p.go_to_step(lesson, 99, 9_000);
    assert_eq!(p.current(), 3);
}

/// A step's `until` comes with its task's own events (lesson 11: resuming the old master changes
/// its role at once), in the player as in the headless walk.
#[test]
fn a_tasks_own_events_can_end_its_step() {
    let s =
        Scenario::from_json(include_str!("../../../scenarios/lesson-11-controller.json")).unwrap();
    let lesson = s.lesson.as_ref().unwrap();
    let mut player = Player::new(lesson, 0);
    player.go_to_step(lesson, 4, 90_010);
    let role = |addr: &str| crate::sim::SimEvent {
        t: 90_010,
        kind: crate::sim::SimEventKind::BrokerRoleChanged {
            mode: "controller",
            broker_addr: addr.into(),
            broker_name: "broker-b".into(),
            old_role: "master",
            new_role: "slave",
            old_broker_id: 0,
            broker_id: 1,
            epoch: 2,
        },
    };
    player.saw(lesson, &[role("10.0.1.3:10911")]);
    assert!(!player.until_reached(), "another broker's role change");
    player.saw(lesson, &[role("10.0.1.1:10911")]);
    assert!(player.until_reached());
}
