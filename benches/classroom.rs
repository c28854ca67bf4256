//! The classroom under a full class: `cargo bench --bench classroom`.
//!
//! `routelab classroom`'s hub on loopback with 200 students, each a real WebSocket client running
//! the simulator natively from what it receives (the same `Follower` as the browser's page). The
//! teacher's page (a native timeline, published as the browser publishes) makes 20 moves of a
//! lesson on crash-hang-stop: running on, actions, a seek back, a fork. After each move, the lag of
//! each student is the time from the teacher's send to the moment the student shows the teacher's
//! moment with the same state hash. Mid-lesson, 50 students are killed and started again: the time
//! until all of them caught up is reported too.
//!
//! `-- --json FILE` also writes the figures for `scripts/bench`. Tests never assert on time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/classroom.rs"]
mod classroom;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(load::main());
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod load {
    use std::collections::HashMap;
    use std::time::{Duration, Instant};

    use tokio::sync::mpsc;
    use tokio::task::JoinHandle;

    use super::classroom::{ws_url, Page, Teacher};
    use routelab::classroom_hub::{run, ClassroomArgs, Handle};
    use routelab::sim::Action;

    const STUDENTS: usize = 200;
    const RESTARTED: usize = 50;

    /// What a student reports: who, the moment shown and its hash, when.
    type Shown = (usize, (u64, u64), Instant);

    fn student_url(h: &Handle, id: usize) -> String {
        ws_url(
            h.local_addr(),
            &format!("room={}&student=s{id}", h.hub().code()),
        )
    }

    /// A student's page in its own task, reporting every new moment it shows.
    fn spawn_student(url: String, id: usize, tx: mpsc::UnboundedSender<Shown>) -> JoinHandle<()> {
        tokio::spawn(async move {
            let mut page = Page::open(&url, None).await.expect("a student is let in");
            let mut last = None;
            loop {
                if !page.read_one(Duration::from_secs(60)).await && page.closed.is_some() {
                    return;
                }
                let shows = page.shows();
                if shows != last {
                    last = shows;
                    if let Some(s) = shows {
                        let _ = tx.send((id, s, Instant::now()));
                    }
                }
            }
        })
    }

    /// Waits until every student in `ids` reported `want`; returns each one's lag from `t0`.
    async fn until_all(
        rx: &mut mpsc::UnboundedReceiver<Shown>,
        latest: &mut HashMap<usize, ((u64, u64), Instant)>,
        ids: &[usize],
        want: (u64, u64),
        t0: Instant,
    ) -> Vec<f64> {
        let deadline = t0 + Duration::from_secs(60);
        loop {
            let done = ids
                .iter()
                .all(|i| latest.get(i).is_some_and(|(s, _)| *s == want));
            if done {
                return ids
                    .iter()
                    .map(|i| latest[i].1.saturating_duration_since(t0).as_secs_f64() * 1000.0)
                    .collect();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, rx.recv()).await {
                Ok(Some((id, s, at))) => {
                    latest.insert(id, (s, at));
                }
                _ => {
                    let behind = ids
                        .iter()
                        .filter(|i| latest.get(i).is_none_or(|(s, _)| *s != want))
                        .count();
                    panic!("{behind} students never showed the teacher's moment {want:?}");
                }
            }
        }
    }

    fn percentile(sorted: &[f64], p: f64) -> f64 {
        let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted[i.min(sorted.len() - 1)]
    }

    pub async fn main() {
        let json_out = std::env::args().skip_while(|a| a != "--json").nth(1);
        let dir =
            std::env::temp_dir().join(format!("routelab-classroom-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let h = run(ClassroomArgs {
            listen: "127.0.0.1:0".parse().unwrap(),
            public_url: None,
            state: Some(dir.join("classroom.sqlite3")),
            new_room: true,
            max_students: STUDENTS + 10,
            dist: Some(dir.clone()),
            allow_origin: Vec::new(),
        })
        .await
        .unwrap();
        let teacher_url = ws_url(
            h.local_addr(),
            &format!(
                "room={}&token={}",
                h.hub().code(),
                h.links().teacher.split("teacher=").nth(1).unwrap()
            ),
        );
        let mut t = Teacher::open(&teacher_url, None, "crash-hang-stop").await;
        t.publish().await;

        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut tasks: Vec<JoinHandle<()>> = (0..STUDENTS)
            .map(|i| spawn_student(student_url(&h, i), i, tx.clone()))
            .collect();
        let all: Vec<usize> = (0..STUDENTS).collect();
        let mut latest = HashMap::new();
        let joined = Instant::now();
        until_all(&mut rx, &mut latest, &all, t.shows(), joined).await;
        eprintln!("{STUDENTS} students joined and show the teacher's world");

        let broker = |n: u8| format!("10.0.0.{n}:10911");
        let mut lags = Vec::new();
        let mut restart_ms = 0.0;
        for step in 0..20u32 {
            let t0 = Instant::now();
            match step {
                0 => t.advance(30_000).await,
                1 => t.act(Action::FreezeBroker { broker: broker(4) }).await,
                2 => t.advance(80_000).await,
                3 => t.act(Action::KillBroker { broker: broker(2) }).await,
                4 => t.advance(200_000).await,
                5 => t.seek(60_000).await,
                6 => t.act(Action::StopBroker { broker: broker(1) }).await,
                7 => t.advance(140_000).await,
                8 => t.act(Action::RestartBroker { broker: broker(1) }).await,
                9 => {
                    // Kill 50 students mid-lesson; the lesson goes on; they come back.
                    for task in tasks.drain(..RESTARTED) {
                        task.abort();
                    }
                    for i in 0..RESTARTED {
                        latest.remove(&i);
                    }
                    t.advance(170_000).await;
                    let back = Instant::now();
                    tasks.splice(
                        0..0,
                        (0..RESTARTED).map(|i| spawn_student(student_url(&h, i), i, tx.clone())),
                    );
                    let ids: Vec<usize> = (0..RESTARTED).collect();
                    let caught = until_all(&mut rx, &mut latest, &ids, t.shows(), back).await;
                    restart_ms = caught.iter().copied().fold(0.0, f64::max);
                    eprintln!(
                        "{RESTARTED} students restarted: all caught up in {restart_ms:.0} ms"
                    );
                }
                n if n % 2 == 0 => t.advance(t.tl.now() + 15_000).await,
                _ => {
                    let b = broker(3);
                    let action = if step % 4 == 1 {
                        Action::WipeWritePerm {
                            broker_name: "broker-c".into(),
                            namesrv: None,
                        }
                    } else {
                        Action::RestartBroker { broker: b }
                    };
                    t.act(action).await;
                }
            }
            let step_lags = until_all(&mut rx, &mut latest, &all, t.shows(), t0).await;
            lags.extend(step_lags);
        }
        lags.sort_by(f64::total_cmp);
        let (p50, p99, max) = (
            percentile(&lags, 0.5),
            percentile(&lags, 0.99),
            *lags.last().unwrap(),
        );
        println!(
            "classroom, {STUDENTS} students on loopback, 20 teacher moves on crash-hang-stop:\n  \
             lag until every student shows the teacher's state: p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms (target ≤ 500 ms)\n  \
             {RESTARTED} students killed and restarted mid-lesson: all caught up within {restart_ms:.0} ms"
        );
        if let Some(path) = json_out {
            std::fs::write(
                path,
                serde_json::json!({
                    "students": STUDENTS,
                    "moves": 20,
                    "lag_p50_ms": p50,
                    "lag_p99_ms": p99,
                    "lag_max_ms": max,
                    "restarted": RESTARTED,
                    "restart_catch_up_ms": restart_ms,
                })
                .to_string(),
            )
            .unwrap();
        }
        for task in tasks {
            task.abort();
        }
        h.shutdown().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
