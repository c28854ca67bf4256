//! The timeline against the plain simulator: a moment reached by seeking, forking or undoing is the
//! moment a fresh run of the same history reaches (natively and in wasm).

use super::*;
use crate::rng::SeededRng;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const BROKERS: [&str; 4] = [
    "10.0.0.1:10911",
    "10.0.0.2:10911",
    "10.0.0.3:10911",
    "10.0.0.4:10911",
];

/// A small random scenario: 1–2 NameServers, 2–4 brokers, 1–2 producers, a few scripted actions.
fn random_scenario(rng: &mut SeededRng) -> Scenario {
    let namesrvs = 1 + rng.next_below(2) as usize;
    let brokers = 2 + rng.next_below(3) as usize;
    let profile = if rng.next_below(2) == 0 { "4.x" } else { "5.x" };
    let mut json = format!(
        r#"{{"routelab":1,"profile":"{profile}","seed":{},"namesrvs":[{}],"brokers":["#,
        rng.next_below(1000),
        (1..=namesrvs)
            .map(|i| format!("\"ns-{i}\""))
            .collect::<Vec<_>>()
            .join(",")
    );
    for (i, addr) in BROKERS.iter().take(brokers).enumerate() {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#"{{"name":"broker-{i}","addr":"{addr}","topics":[{{"topic":"T"}}]}}"#
        ));
    }
    json.push_str(r#"],"producers":[{"group":"pg-1","topic":"T","rate":2}"#);
    if rng.next_below(2) == 0 {
        json.push_str(r#",{"group":"pg-2","topic":"T","rate":1,"fault_tolerance":true}"#);
    }
    json.push_str(r#"],"actions":["#);
    let scripted = rng.next_below(3);
    for k in 0..scripted {
        if k > 0 {
            json.push(',');
        }
        let at = 5 + rng.next_below(120);
        let addr = BROKERS[rng.next_below(brokers as u64) as usize];
        let what = ["kill_broker", "freeze_broker", "stop_broker"][rng.next_below(3) as usize];
        json.push_str(&format!(r#"{{"at":{at},"do":"{what}","broker":"{addr}"}}"#));
    }
    json.push_str("]}");
    Scenario::from_json(&json).expect("a valid random scenario")
}

/// A random teacher's action for the world as it is.
fn random_action(rng: &mut SeededRng, sim: &Sim) -> Action {
    let addr = sim.brokers()[rng.next_below(sim.brokers().len() as u64) as usize]
        .addr
        .clone();
    let ns = sim.namesrvs()[0].name.clone();
    match rng.next_below(7) {
        0 => Action::KillBroker { broker: addr },
        1 => Action::FreezeBroker { broker: addr },
        2 => Action::RestartBroker { broker: addr },
        3 => Action::StopBroker { broker: addr },
        4 => Action::Partition(crate::sim::scenario::Link::namesrv(&addr, &ns)),
        5 => Action::WipeWritePerm {
            broker_name: sim.brokers()[0].spec.name.clone(),
            namesrv: None,
        },
        _ => Action::QueryRoute {
            topic: "T".into(),
            namesrv: ns,
        },
    }
}

/// Everything the dashboard shows of a moment: the tables, every NameServer's state, the
/// brokers, the producers (cached routes, fault tables, in-flight sends), the feed and picks.
fn shown(sim: &Sim, digest: &Digest) -> String {
    format!(
        "{}\n{:?}\n{:?}\n{:?}\n{:?}\nfired {}",
        serde_json::to_string(&sim.final_state()).unwrap(),
        sim.namesrvs(),
        sim.brokers(),
        sim.producers(),
        digest,
        sim.fired()
    )
}

/// A fresh simulator of the timeline's branch, advanced to `t`, with its feed.
fn fresh_at(tl: &Timeline, t: u64) -> String {
    let mut sim = Sim::new(&tl.branch_scenario());
    let mut digest = Digest::default();
    sim.advance_to(t);
    digest.absorb(&sim.drain_events());
    shown(&sim, &digest)
}

/// Plays a random history with teacher's actions (some in the past, forking), then seeks to
/// random times: each moment equals a fresh run of the branch advanced to it.
fn seek_matches_a_fresh_run(case: u64) {
    let mut rng = SeededRng::new(0x5eed_0000 + case);
    let mut tl = Timeline::new(random_scenario(&mut rng));
    for _ in 0..6 {
        let ahead = 1 + rng.next_below(40_000);
        let _ = tl.advance_to(tl.now() + ahead);
        if rng.next_below(3) == 0 {
            let back = rng.next_below(tl.head() + 1);
            tl.seek(back);
        }
        let action = random_action(&mut rng, tl.sim());
        let _ = tl.apply(action);
    }
    let _ = tl.advance_to(tl.now() + 30_000);
    for _ in 0..4 {
        let t = rng.next_below(tl.head() + 1);
        tl.seek(t);
        assert_eq!(tl.now(), t);
        assert_eq!(
            shown(tl.sim(), tl.digest()),
            fresh_at(&tl, t),
            "case {case}: seek to {t} ms"
        );
    }
    tl.seek_head();
    assert!(tl.at_head());
    assert_eq!(shown(tl.sim(), tl.digest()), fresh_at(&tl, tl.head()));
}

#[test]
fn seeking_gives_the_state_of_a_fresh_run() {
    // Fewer cases in wasm, where a debug build runs in Node.
    let cases = if cfg!(target_arch = "wasm32") { 4 } else { 24 };
    for case in 0..cases {
        seek_matches_a_fresh_run(case);
    }
}

fn crash_hang_stop() -> Timeline {
    Timeline::new(Scenario::from_json(crate::sim::preset_json("crash-hang-stop").unwrap()).unwrap())
}

fn removals(tl: &Timeline) -> Vec<(u64, String, &'static str)> {
    tl.marks()
        .iter()
        .filter(|m| m.kind == MarkKind::BrokerRemoved)
        .map(|m| (m.t, m.broker.clone().unwrap(), m.reason.unwrap()))
        .collect()
}

/// crash-hang-stop's removals are marked with the broker and the cause; the marks do not change
/// when the run is replayed by seeking back and playing on.
#[test]
fn marks_name_removals_by_cause_and_survive_replay() {
    let mut tl = crash_hang_stop();
    let _ = tl.advance_to(240_000);
    let expected = vec![
        (75_000, "10.0.0.1:10911".to_owned(), "channel_closed"),
        (75_000, "10.0.0.3:10911".to_owned(), "unregistered"),
        (190_000, "10.0.0.2:10911".to_owned(), "idle_closed"),
    ];
    let mut got = removals(&tl);
    got.sort();
    assert_eq!(got, expected);
    let kinds: std::collections::BTreeSet<&str> =
        tl.marks().iter().map(|m| m.kind.name()).collect();
    for k in ["broker_registered", "send", "action", "topic_queue_changed"] {
        assert!(kinds.contains(k), "{k} marked: {kinds:?}");
    }
    let before = tl.marks().to_vec();
    tl.seek(100_000);
    let _ = tl.advance_to(240_000);
    assert_eq!(tl.marks(), &before[..], "replay adds no marks");
    assert!(tl.at_head());
}

/// ← and → step between marks; a mark's time shows the world just after its event.
#[test]
fn stepping_between_marks() {
    let mut tl = crash_hang_stop();
    let _ = tl.advance_to(240_000);
    tl.seek(189_999);
    let route = |tl: &Timeline| {
        tl.sim().namesrvs()[0]
            .manager
            .pickup_topic_route_data("TopicTest")
            .map(|r| r.broker_datas.len())
    };
    assert_eq!(route(&tl), Some(2), "broker-b and broker-d just before");
    assert_eq!(tl.next_mark(), Some(190_000));
    tl.seek(tl.next_mark().unwrap());
    assert_eq!(route(&tl), Some(1), "only broker-d just after");
    let prev = tl.prev_mark().unwrap();
    assert!(prev < 190_000);
    tl.seek(prev);
    assert_eq!(tl.now(), prev);
}

/// Acting in the past replaces the history after that time; undo restores it; the branch's
/// scenario (what a share link carries) reproduces the new branch.
#[test]
fn fork_replaces_the_future_and_undo_restores_it() {
    let mut tl = crash_hang_stop();
    let _ = tl.advance_to(60_000);
    let restart = Action::RestartBroker {
        broker: "10.0.0.1:10911".into(),
    };
    let (fork, _) = tl.apply(restart.clone()).unwrap();
    assert_eq!(fork, None, "at the head: no fork");
    let _ = tl.advance_to(240_000);
    let old_marks = tl.marks().to_vec();
    let old_shown = shown(tl.sim(), tl.digest());

    tl.seek(100_000);
    let heal = Action::RestartBroker {
        broker: "10.0.0.2:10911".into(),
    };
    let (fork, _) = tl.apply(heal).unwrap();
    assert_eq!(fork, Some(Fork { at_ms: 100_000 }));
    assert_eq!(tl.fork(), Some(Fork { at_ms: 100_000 }));
    assert_eq!(tl.head(), 100_000, "the old future is gone");
    let _ = tl.advance_to(240_000);
    assert!(
        !removals(&tl)
            .iter()
            .any(|r| r.1 == "10.0.0.2:10911" && r.2 == "idle_closed"),
        "restarted broker-b is never idle-closed"
    );
    assert_ne!(tl.marks(), &old_marks[..]);
    assert_eq!(shown(tl.sim(), tl.digest()), fresh_at(&tl, 240_000));
    let share = tl.branch_scenario();
    assert_eq!(share.actions.len(), tl.base().actions.len() + 2);

    assert!(tl.undo_fork());
    assert_eq!(tl.fork(), None);
    assert_eq!(tl.now(), 100_000);
    assert_eq!(tl.head(), 240_000);
    assert_eq!(tl.marks(), &old_marks[..]);
    tl.seek_head();
    assert_eq!(shown(tl.sim(), tl.digest()), old_shown);
    assert!(!tl.undo_fork(), "one level");
}

/// However long the run, the snapshots stay within their number.
#[test]
fn snapshots_are_bounded() {
    let mut tl = crash_hang_stop();
    // Twelve hours make enough work to thin the snapshots at least once (natively; wasm checks
    // the bound on a shorter run).
    let hours = if cfg!(target_arch = "wasm32") { 1 } else { 12 };
    let _ = tl.advance_to(hours * 3_600_000);
    assert!(tl.checkpoint_count() <= MAX_CHECKPOINTS);
    if hours == 12 {
        assert!(
            tl.checkpoint_count() >= MAX_CHECKPOINTS / 2,
            "{}",
            tl.checkpoint_count()
        );
    }
    tl.seek(1_234_567);
    assert_eq!(tl.now(), 1_234_567);
}
