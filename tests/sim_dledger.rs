//! DLedger groups in the simulator (docs/failover.md, "DLedger"): a group's brokers elect a leader
//! by Raft among themselves; the leader registers as brokerId 0, the others as slaves with their
//! member number + 1; a lost leader is replaced after 3 missed heartbeats (6 s) and a vote, and
//! comes back as a slave. Times are virtual milliseconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

mod sim_common;
use sim_common::of_kind;

use routelab::sim::{Sim, SimEventKind};

const N0: &str = "10.0.0.1:10911";
const N1: &str = "10.0.0.2:10911";
const N2: &str = "10.0.0.3:10911";

/// broker-a as a DLedger group of three (n0, n1, n2) beside broker-b (master/slave); `actions`
/// spliced in.
fn world(profile: &str, seed: u64, actions: &str) -> Sim {
    let text = format!(
        r#"{{"routelab": 1, "seed": {seed}, "profile": "{profile}",
            "brokers": [
              {{"name": "broker-a", "id": 0, "addr": "{N0}", "mode": "dledger", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-a", "id": 1, "addr": "{N1}", "mode": "dledger", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-a", "id": 2, "addr": "{N2}", "mode": "dledger", "topics": [{{"topic": "Orders"}}]}},
              {{"name": "broker-b", "addr": "10.0.1.1:10911", "topics": [{{"topic": "Orders"}}]}}
            ],
            "producers": [{{"group": "pg", "topic": "Orders", "rate": 2}}],
            "actions": [{actions}],
            "until": 200}}"#
    );
    Sim::from_json(&text).unwrap()
}

/// broker-a's addresses by id, as ns-1 holds them.
fn group_a(sim: &Sim) -> Vec<(i64, String)> {
    let route = sim.namesrvs()[0]
        .manager
        .pickup_topic_route_data("Orders")
        .unwrap();
    let bd = route
        .broker_datas
        .iter()
        .find(|b| b.broker_name == "broker-a")
        .unwrap();
    bd.broker_addrs
        .iter()
        .map(|(id, a)| (*id, a.to_string()))
        .collect()
}

/// Spec: DLedgerLeaderElector (votes, majority), DLedgerRoleChangeHandler (LEADER →
/// changeToMaster: brokerId 0; FOLLOWER → changeToSlave(selfId index + 1)); 4.x and 5.x alike.
#[test]
fn the_group_elects_one_leader_which_registers_as_id_0() {
    for profile in ["4.x", "5.x"] {
        let mut sim = world(profile, 4, "");
        sim.advance_to(5_000);
        let events = sim.drain_events();
        let elected = of_kind(&events, "leader_elected");
        assert_eq!(elected.len(), 1, "{elected:?}");
        let e = &elected[0];
        assert_eq!(
            (&e["mode"], &e["raft_group"]),
            (&"dledger".into(), &"broker-a".into())
        );
        assert!(e["votes"].as_u64().unwrap() >= 2);
        let leader = e["leader"].as_str().unwrap().to_owned();
        let ids = group_a(&sim);
        assert_eq!(ids[0], (0, leader.clone()), "{profile}: {ids:?}");
        assert_eq!(ids.len(), 3);
        // The followers as slaves, with their member number + 1.
        for (n, addr) in [N0, N1, N2].iter().enumerate() {
            if *addr != leader {
                assert!(ids.contains(&(n as i64 + 1, addr.to_string())), "{ids:?}");
            }
        }
        let roles = of_kind(&events, "broker_role_changed");
        assert!(roles.iter().all(|r| r["mode"] == "dledger"));
    }
}

/// Spec: maintainAsFollower (no heartbeat for maxHeartBeatLeak × heartBeatTimeIntervalMs = 6 s →
/// candidate), maintainAsCandidate (a vote after 300–1000 ms, a majority of the three), handleVote
/// (the restarted member's log is behind: no votes for it): the leader killed at 40 s is replaced
/// within 6–9 s in a larger term; restarted at 90 s it follows, as a slave.
#[test]
fn a_killed_leader_is_replaced_and_returns_as_a_slave() {
    let mut sim = world("4.x", 4, "");
    sim.advance_to(30_000);
    let first = of_kind(&sim.drain_events(), "leader_elected");
    let leader = first[0]["leader"].as_str().unwrap().to_owned();
    let term = first[0]["term"].as_u64().unwrap();
    sim.apply(&routelab::sim::Action::KillBroker {
        broker: leader.clone(),
    })
    .unwrap();
    sim.advance_to(60_000);
    let events = sim.drain_events();
    let next = of_kind(&events, "leader_elected");
    assert_eq!(next.len(), 1, "{next:?}");
    let t = next[0]["t"].as_u64().unwrap();
    assert!((36_000..=39_100).contains(&t), "elected at {t}");
    assert!(next[0]["term"].as_u64().unwrap() > term);
    assert_eq!(next[0]["votes"], 2);
    let new_leader = next[0]["leader"].as_str().unwrap().to_owned();
    assert_ne!(new_leader, leader);
    assert_eq!(group_a(&sim)[0], (0, new_leader.clone()));
    sim.apply(&routelab::sim::Action::RestartBroker {
        broker: leader.clone(),
    })
    .unwrap();
    sim.advance_to(100_000);
    let events = sim.drain_events();
    assert!(of_kind(&events, "leader_elected").is_empty());
    let back = of_kind(&events, "broker_role_changed");
    assert!(back
        .iter()
        .any(|r| r["broker_addr"] == leader.as_str() && r["new_role"] == "slave"));
    let ids = group_a(&sim);
    assert_eq!(ids[0], (0, new_leader));
    assert!(ids.iter().any(|(id, a)| *a == leader && *id > 0), "{ids:?}");
}

/// Spec: isQuorum: with two of three members down the last one cannot be elected, and a leader
/// that hears back from no majority for 6 s stands down (sendHeartbeats → changeRoleToCandidate),
/// so the group has no master.
#[test]
fn no_majority_no_master() {
    let mut sim = world("5.x", 2, "");
    sim.advance_to(20_000);
    let leader = of_kind(&sim.drain_events(), "leader_elected")[0]["leader"]
        .as_str()
        .unwrap()
        .to_owned();
    for addr in [N0, N1, N2].into_iter().filter(|a| *a != leader) {
        sim.apply(&routelab::sim::Action::KillBroker {
            broker: addr.into(),
        })
        .unwrap();
    }
    sim.advance_to(60_000);
    let events = sim.drain_events();
    assert!(of_kind(&events, "leader_elected").is_empty());
    let down = of_kind(&events, "broker_role_changed");
    assert!(down
        .iter()
        .any(|r| r["broker_addr"] == leader.as_str() && r["new_role"] == "slave"));
    assert!(group_a(&sim).iter().all(|(id, _)| *id != 0));
}

/// A DLedger group's members are fixed (dLegerPeers): none is added by an action.
#[test]
fn members_are_listed_not_added() {
    let text = format!(
        r#"{{"routelab": 1, "brokers": [{{"name": "broker-a", "addr": "{N0}", "mode": "dledger"}}],
            "actions": [{{"at": 5, "do": "add_broker", "name": "broker-a", "id": 1, "addr": "{N1}", "mode": "dledger"}}]}}"#
    );
    let err = Sim::from_json(&text).err().unwrap().to_string();
    assert!(err.starts_with("actions[0].mode"), "{err}");
    assert!(err.contains("dLegerPeers"), "{err}");
}

/// Same seed, same elections.
#[test]
fn dledger_is_deterministic() {
    let run = || {
        let mut sim = world(
            "4.x",
            9,
            &format!(
                r#"{{"at": 30, "do": "freeze_broker", "broker": "{N0}"}}, {{"at": 30, "do": "freeze_broker", "broker": "{N1}"}}, {{"at": 60, "do": "resume_broker", "broker": "{N0}"}}, {{"at": 70, "do": "resume_broker", "broker": "{N1}"}}"#
            ),
        );
        sim.run();
        serde_json::to_string(&sim.drain_events()).unwrap()
    };
    assert_eq!(run(), run());
}

/// Spec: no stateVersion and no controller: a frozen leader that resumes sends its overdue
/// registration as brokerId 0 before it learns the new term (RouteInfoManager puts it under id 0,
/// displacing the new master), then stands down and registers as a slave: the group has no master
/// on the NameServer until the new leader's next periodic registration (30 s).
#[test]
fn a_resumed_leader_displaces_the_new_master_until_its_next_registration() {
    let mut sim = world("4.x", 4, "");
    sim.advance_to(20_000);
    let leader = of_kind(&sim.drain_events(), "leader_elected")[0]["leader"]
        .as_str()
        .unwrap()
        .to_owned();
    sim.apply(&routelab::sim::Action::FreezeBroker {
        broker: leader.clone(),
    })
    .unwrap();
    sim.advance_to(40_000);
    let new_leader = of_kind(&sim.drain_events(), "leader_elected")[0]["leader"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(group_a(&sim)[0], (0, new_leader.clone()));
    sim.apply(&routelab::sim::Action::ResumeBroker {
        broker: leader.clone(),
    })
    .unwrap();
    sim.advance_to(41_000);
    let ids = group_a(&sim);
    assert!(ids.iter().all(|(id, _)| *id != 0), "no master: {ids:?}");
    assert!(ids.iter().any(|(id, a)| *a == leader && *id > 0), "{ids:?}");
    sim.advance_to(72_000);
    assert_eq!(group_a(&sim)[0], (0, new_leader));
}

/// Lesson 15's answers, as Raft and the NameServer's rules give them: the frozen leader is
/// replaced in term 2 after its missed heartbeats and a split vote, by 2 votes of 3 (a majority
/// without it); its overdue registration as brokerId 0 is accepted (no stateVersion) and displaces
/// the new master; with 2 members of 3 the group still writes; with 1 of 3 nobody is elected.
#[test]
fn the_dledger_lesson_teaches_majorities_and_the_missing_fence() {
    let text = include_str!("../scenarios/lesson-15-dledger.json");
    let s = routelab::sim::Scenario::from_json(text).unwrap();
    let (_, walked) = routelab::sim::lesson::walk::walk(&s, |_| {}).unwrap();
    let decided = |i: usize| {
        walked[i]
            .predict
            .as_ref()
            .and_then(|o| o.event.clone())
            .map(|e| (e.t, e.kind))
    };
    match decided(1) {
        Some((
            t,
            SimEventKind::LeaderElected {
                leader,
                term,
                votes,
                ..
            },
        )) => {
            // Frozen at 40 s: 6 s of missed heartbeats, then the vote.
            assert!((46_000..50_000).contains(&t), "elected at {t}");
            assert_eq!((leader.as_str(), term, votes), (N1, 2, 2));
        }
        other => panic!("step 2: {other:?}"),
    }
    match decided(3) {
        Some((
            75_000,
            SimEventKind::BrokerRegistered {
                broker_addr,
                broker_id: 0,
                replaced,
                ..
            },
        )) => {
            assert_eq!(broker_addr, N0);
            assert_eq!(replaced.as_deref(), Some(N1));
        }
        other => panic!("step 4: {other:?}"),
    }
    assert!(matches!(
        decided(5),
        Some((_, SimEventKind::Send { ok: true, .. }))
    ));
    // Nobody: no election within the horizon, so no deciding event.
    let last_question = walked[6].predict.as_ref().unwrap();
    assert!(last_question.event.is_none());
    assert_eq!(last_question.the_right_one(), Some(1));
}
