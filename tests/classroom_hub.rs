//! `routelab classroom`'s hub over real WebSockets: who may drive, students following and
//! catching up, answers, bounded messages, and a restarted hub resuming the room.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/classroom.rs"]
mod classroom;
#[path = "support/peer.rs"]
mod peer;

use std::path::Path;
use std::time::Duration;

use classroom::{ws_url, Closed, Page, Teacher};
use peer::ScratchDir;
use routelab::classroom::protocol::{LessonPos, StudentMsg, TeacherMsg, MAX_STUDENT_MESSAGE};
use routelab::classroom_hub::{run, ClassroomArgs, Handle};
use routelab::sim::Action;

async fn start(state: &Path) -> Handle {
    run(ClassroomArgs {
        listen: "127.0.0.1:0".parse().unwrap(),
        public_url: None,
        state: Some(state.join("classroom.sqlite3")),
        new_room: false,
        max_students: 300,
        dist: Some(state.to_path_buf()),
        allow_origin: Vec::new(),
    })
    .await
    .unwrap()
}

fn code(h: &Handle) -> String {
    h.hub().code()
}

fn token(h: &Handle) -> String {
    h.links()
        .teacher
        .split("teacher=")
        .nth(1)
        .unwrap()
        .to_owned()
}

fn student_url(h: &Handle, id: &str) -> String {
    ws_url(h.local_addr(), &format!("room={}&student={id}", code(h)))
}

fn teacher_url(h: &Handle) -> String {
    ws_url(
        h.local_addr(),
        &format!("room={}&token={}", code(h), token(h)),
    )
}

async fn student(h: &Handle, id: &str) -> Page {
    let mut p = Page::open(&student_url(h, id), None).await.unwrap();
    p.until("the welcome", |p| p.follower.welcomed()).await;
    p
}

/// Reads until the page shows `want` (the teacher's moment and state hash).
async fn shows(p: &mut Page, want: (u64, u64), what: &str) {
    p.until(what, |p| p.shows() == Some(want)).await;
}

fn broker(n: u8) -> String {
    format!("10.0.0.{n}:10911")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn students_follow_and_late_joiners_catch_up() {
    let dir = ScratchDir::new("classroom");
    let h = start(dir.path()).await;
    let mut t = Teacher::open(&teacher_url(&h), None, "crash-hang-stop").await;
    let mut early = student(&h, "early").await;
    t.publish().await;
    t.advance(30_000).await;
    t.act(Action::FreezeBroker { broker: broker(4) }).await;
    shows(&mut early, t.shows(), "the freeze").await;
    t.advance(160_000).await;
    shows(&mut early, t.shows(), "the expiry").await;
    // A fork in the past.
    t.seek(20_000).await;
    t.act(Action::KillBroker { broker: broker(2) }).await;
    shows(&mut early, t.shows(), "a fork").await;
    // A late joiner catches up at once, from the welcome alone.
    let late = student(&h, "late").await;
    assert_eq!(late.shows(), Some(t.shows()));
    // The teacher sees who follows.
    t.page
        .until("the roster", |p| p.roster.is_some_and(|r| r.following == 2))
        .await;
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_teachers_token_drives() {
    let dir = ScratchDir::new("classroom");
    let h = start(dir.path()).await;
    let addr = h.local_addr();
    let code = code(&h);
    let refused = |r: Result<Page, Closed>| r.err();
    // The room's code alone is a student; a wrong code or token is refused before the upgrade.
    for (query, status) in [
        (format!("room={code}&token=nope"), 401),
        (format!("room={code}&token="), 401),
        ("room=WRONG1&student=s".to_owned(), 404),
        (format!("room={code}"), 400),
        (format!("room={code}&student=has%20space"), 400),
        (String::new(), 404),
    ] {
        let got = refused(Page::open(&ws_url(addr, &query), None).await);
        assert_eq!(got, Some(Closed::Status(status)), "{query}");
    }
    // Origins: this server's own only.
    let foreign = Page::open(&student_url(&h, "s"), Some("http://evil.example")).await;
    assert_eq!(refused(foreign), Some(Closed::Status(403)));
    let own = format!("http://127.0.0.1:{}", addr.port());
    assert!(Page::open(&student_url(&h, "s"), Some(&own)).await.is_ok());

    // A student sending a teacher's message is closed, and the room is unchanged.
    let mut t = Teacher::open(&teacher_url(&h), None, "crash-hang-stop").await;
    t.publish().await;
    let mut s = student(&h, "mallory").await;
    // Once the teacher's scenario and clock both reached the student, the room is still.
    s.until("the teacher's clock", |p| {
        p.world.is_some() && p.follower.room().clock.jump == 0
    })
    .await;
    let before = h.hub().room().state().clone();
    s.send(&TeacherMsg::Actions {
        rev: before.rev,
        from: 0,
        actions: vec![],
    })
    .await;
    match s.until_closed().await {
        Closed::Code(1008, why) => assert!(why.contains("a student may only send"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(h.hub().room().state(), &before);
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_student_messages_close_that_student_alone() {
    let dir = ScratchDir::new("classroom");
    let h = start(dir.path()).await;
    let mut t = Teacher::open(&teacher_url(&h), None, "crash-hang-stop").await;
    t.publish().await;
    let mut good = student(&h, "good").await;

    let mut big = student(&h, "big").await;
    big.send_text("x".repeat(MAX_STUDENT_MESSAGE + 1)).await;
    assert!(matches!(
        big.until_closed().await,
        Closed::Code(..) | Closed::Dropped
    ));

    let mut garbled = student(&h, "garbled").await;
    garbled.send_text("{\"type\":".into()).await;
    assert!(matches!(
        garbled.until_closed().await,
        Closed::Code(1008, _)
    ));

    let mut chatty = student(&h, "chatty").await;
    for _ in 0..40 {
        chatty.send(&StudentMsg::Explore).await;
    }
    match chatty.until_closed().await {
        Closed::Code(1008, why) => assert_eq!(why, "too many messages"),
        other => panic!("{other:?}"),
    }

    // The others go on following.
    t.advance(50_000).await;
    shows(&mut good, t.shows(), "a change after the bad ones").await;
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_tallied_for_the_teacher_and_revealed_to_all() {
    let dir = ScratchDir::new("classroom");
    let h = start(dir.path()).await;
    let mut t = Teacher::open(&teacher_url(&h), None, "lesson-2-heartbeats").await;
    t.lesson = Some(LessonPos {
        name: "lesson-2-heartbeats".into(),
        step: 1,
        choices: 3,
        revealed: false,
    });
    t.publish().await;
    let mut a = student(&h, "a").await;
    let mut b = student(&h, "b").await;
    a.send(&StudentMsg::Answer { step: 1, choice: 2 }).await;
    b.send(&StudentMsg::Answer { step: 1, choice: 0 }).await;
    t.page
        .until("two answers", |p| {
            p.tally.as_ref().is_some_and(|t| t.counts == [1, 0, 1])
        })
        .await;
    t.send(&TeacherMsg::Reveal { step: 1 }).await;
    for s in [&mut a, &mut b] {
        s.until("the reveal", |p| {
            p.follower
                .room()
                .lesson
                .as_ref()
                .is_some_and(|l| l.revealed)
        })
        .await;
    }
    // A refused teacher's message is said to the teacher, who stays connected.
    t.send(&TeacherMsg::Reveal { step: 7 }).await;
    t.page.until("the refusal", |p| !p.refused.is_empty()).await;
    // Exploring and following again, as the teacher counts them.
    a.send(&StudentMsg::Explore).await;
    t.page
        .until("one exploring", |p| {
            p.roster.is_some_and(|r| r.exploring == 1)
        })
        .await;
    a.send(&StudentMsg::Resync).await;
    drop(b);
    t.page
        .until("one following, one gone", |p| {
            p.roster
                .is_some_and(|r| r.following == 1 && r.exploring == 0 && r.disconnected == 1)
        })
        .await;
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_hub_resumes_the_room() {
    let dir = ScratchDir::new("classroom");
    let h = start(dir.path()).await;
    let (code_before, token_before) = (code(&h), token(&h));
    let mut t = Teacher::open(&teacher_url(&h), None, "crash-hang-stop").await;
    t.publish().await;
    t.advance(40_000).await;
    t.act(Action::StopBroker { broker: broker(3) }).await;
    let mut s = student(&h, "s").await;
    shows(&mut s, t.shows(), "before the restart").await;
    // Give the writing thread its moment, then stop the hub: every page is disconnected.
    tokio::time::sleep(Duration::from_millis(300)).await;
    h.shutdown().await;
    s.until_closed().await;

    let h = start(dir.path()).await;
    assert_eq!((code(&h), token(&h)), (code_before, token_before));
    // A student reconnecting catches up from what the hub kept, before the teacher is back.
    let s = student(&h, "s").await;
    assert_eq!(s.shows(), Some(t.shows()));
    // The teacher's page reconnects with the same link and publishes its world again.
    let mut page = Page::open(&teacher_url(&h), None).await.unwrap();
    page.until("the welcome", |p| p.follower.welcomed()).await;
    t.page = page;
    t.tl.advance_to(60_000);
    let mut publisher = routelab::classroom::publish::Publisher::new();
    publisher.reconnected(t.page.follower.room().rev);
    let source = t.source.clone();
    for m in publisher.publish(&t.shown(), || source, false) {
        t.page.send(&m).await;
    }
    let mut s = s;
    shows(&mut s, t.shows(), "after the teacher came back").await;
    h.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_teachers_page_takes_over_from_the_first() {
    let dir = ScratchDir::new("classroom");
    let h = start(dir.path()).await;
    let mut first = Teacher::open(&teacher_url(&h), None, "crash-hang-stop").await;
    first.publish().await;
    let second = Teacher::open(&teacher_url(&h), None, "crash-hang-stop").await;
    // One page drives a room: the first is told why it was closed and does not drive any more.
    match first.page.until_closed().await {
        Closed::Code(code, why) => {
            assert_eq!(code, routelab::classroom::protocol::REPLACED_CLOSE_CODE);
            assert!(why.contains("another page"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(h.hub().connected().0, 1);
    drop(second);
    h.shutdown().await;
}
