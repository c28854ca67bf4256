//! Controller mode in the simulator (docs/failover.md): the controllers notice a master's silence or
//! its closed connection, elect from the SyncStateSet, the winner re-registers as brokerId 0 with
//! the epoch as `stateVersion`, a stalled slave leaves the set, the old master is fenced when it
//! comes back; the controllers' own leader; `mqadmin electMaster`; the scenario's checks; and the
//! events' contract other tests and the pages drive.
//!
//! Times are virtual milliseconds.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::sim::{ReplicaRole, Sim, SimEvent, SimEventKind};
use serde_json::{json, Value};

const R1: &str = "10.0.1.1:10911";
const R2: &str = "10.0.1.2:10911";
const R3: &str = "10.0.1.3:10911";

/// broker-b in controller mode with three replicas (R1 starts first, so it is elected first), a
/// producer of Orders, `controllers` and `actions` (JSON arrays), and `extra` top-level fields.
fn world(controllers: &str, actions: &str, extra: &str) -> Sim {
    let replica = |addr: &str| {
        format!(
            r#"{{"name": "broker-b", "addr": "{addr}", "mode": "controller", "topics": [{{"topic": "Orders"}}]}}"#
        )
    };
    let text = format!(
        r#"{{"routelab": 1, "seed": 5, "controllers": {controllers}, {extra}
            "brokers": [{}, {}, {}],
            "producers": [{{"group": "pg", "topic": "Orders", "rate": 2}}],
            "actions": {actions}, "until": 150}}"#,
        replica(R1),
        replica(R2),
        replica(R3)
    );
    Sim::from_json(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// The one-controller world with `actions` at `(seconds, do, broker address)`, run to its end.
fn run_with(actions: &[(u32, &str, &str)]) -> (Sim, Vec<SimEvent>) {
    let actions: Vec<String> = actions
        .iter()
        .map(|(at, what, broker)| {
            format!(r#"{{"at": {at}, "do": "{what}", "broker": "{broker}"}}"#)
        })
        .collect();
    run(world(
        r#"["controller-1"]"#,
        &format!("[{}]", actions.join(",")),
        "",
    ))
}

fn run(mut sim: Sim) -> (Sim, Vec<SimEvent>) {
    sim.run();
    let events = sim.drain_events();
    (sim, events)
}

fn json_of(e: &SimEvent) -> Value {
    serde_json::to_value(e).unwrap()
}

fn of_kind<'a>(events: &'a [SimEvent], kind: &str) -> Vec<&'a SimEvent> {
    events
        .iter()
        .filter(|e| json_of(e)["kind"] == kind)
        .collect()
}

/// The first event of `kind` at or after `t`.
fn first_after<'a>(events: &'a [SimEvent], kind: &str, t: u64) -> &'a SimEvent {
    of_kind(events, kind)
        .into_iter()
        .find(|e| e.t >= t)
        .unwrap_or_else(|| panic!("no {kind} at or after {t}"))
}

/// Spec (ReplicasManager.startBasicService, brokerElect, electMaster first time): the first replica
/// to start asks and becomes master at epoch 1 as brokerId 0; the others follow as slaves with
/// their controller ids, and join the SyncStateSet as they catch up.
#[test]
fn the_first_replica_is_elected_and_the_others_follow() {
    let (sim, events) = run(world(r#"["controller-1"]"#, "[]", ""));
    let elected = json_of(of_kind(&events, "master_elected")[0]);
    assert_eq!(elected["t"], 0);
    assert_eq!(elected["cause"], "broker_asked");
    assert_eq!(elected["new_master"], 1);
    assert_eq!(elected["epoch"], 1);
    let ids: Vec<(String, i64)> = sim
        .brokers()
        .iter()
        .map(|b| (b.addr.clone(), b.id()))
        .collect();
    assert_eq!(
        ids,
        vec![(R1.into(), 0), (R2.into(), 2), (R3.into(), 3)],
        "a master registers as 0, slaves with their controller ids"
    );
    let group = sim.replicas().group("broker-b").unwrap();
    assert_eq!(group.sync_state_set.to_vec(), vec![1, 2, 3]);
    assert!(of_kind(&events, "sync_state_set_changed")
        .iter()
        .all(|e| e.t <= 1_000));
}

/// Spec (scanNotActiveBroker every 5 s from 2 s, controllerHeartBeatTimeoutMills 10 s,
/// DefaultElectPolicy, changeToMaster, nextVersion(epoch), NameServer same-address rule): a frozen
/// master is noticed 10–15 s later; a SyncStateSet member is elected at epoch 2 and re-registers
/// as brokerId 0; producers write again after their next route poll.
#[test]
fn a_silent_master_is_replaced_from_the_sync_state_set() {
    let (sim, events) = run_with(&[(40, "freeze_broker", R1)]);
    let e = first_after(&events, "master_elected", 40_000);
    assert!((50_000..=55_000).contains(&e.t), "noticed at {}", e.t);
    let v = json_of(e);
    assert_eq!(v["group"], "broker-b");
    assert_eq!(v["cluster"], "DefaultCluster");
    assert_eq!(v["mode"], "controller");
    assert_eq!(v["controller"], "controller-1");
    assert_eq!(v["cause"], "master_silent");
    assert!(v["silent_ms"].as_u64().unwrap() > 10_000);
    assert_eq!(v["old_master"], 1);
    assert_eq!(
        v["new_master"], 2,
        "of equal candidates the first in HashSet order"
    );
    assert_eq!(v["new_master_addr"], R2);
    assert_eq!(v["epoch"], 2);
    assert_eq!(v["sync_state_set"], json!([1, 2, 3]));
    assert_eq!(v["all_replicas"], Value::Null);
    assert_eq!(v["alive"], json!([2, 3]));
    assert_eq!(v["prefer"], Value::Null);
    let candidates = v["candidates"].as_object().unwrap();
    assert_eq!(candidates.keys().collect::<Vec<_>>(), vec!["2", "3"]);
    assert_eq!(candidates["2"]["epoch"], 1);
    assert!(candidates["2"]["max_offset"].as_i64().unwrap() > 0);
    let role = first_after(&events, "broker_role_changed", e.t);
    assert_eq!(role.t, e.t, "the controller tells the winner at once");
    let role = json_of(role);
    assert_eq!(
        (
            role["broker_addr"].clone(),
            role["new_role"].clone(),
            role["broker_id"].clone(),
            role["epoch"].clone()
        ),
        (json!(R2), json!("master"), json!(0), json!(2))
    );
    let switched = json_of(first_after(&events, "broker_id_switched", e.t));
    assert_eq!(switched["broker_addr"], R2);
    assert_eq!(switched["new_id"], 0);
    // The producer's next poll (every 30 s from 10 ms) finds the new master; sends succeed after.
    let poll = first_after(&events, "route_polled", e.t);
    assert!(json_of(poll)["changed"] == true);
    let failures_after_poll = events
        .iter()
        .filter(|x| x.t > poll.t + 5_000)
        .filter(|x| matches!(&x.kind, SimEventKind::Send { ok: false, .. }))
        .count();
    assert_eq!(failures_after_poll, 0);
    assert!(events.iter().any(|x| x.t > e.t
        && x.t < poll.t
        && matches!(&x.kind, SimEventKind::Send { ok: false, .. })));
    assert_eq!(
        sim.brokers()[1].replica.as_ref().unwrap().role,
        ReplicaRole::Master
    );
}

/// Spec (RouteInfoManager.registerBroker stateVersion check, schedulingSyncBrokerMetadata,
/// changeToSlave): the old master resumes, registers as brokerId 0 with stateVersion 1 and is
/// turned away; its metadata sync then makes it a slave under its controller id, which registers.
#[test]
fn the_old_master_is_fenced_and_demoted_when_it_resumes() {
    let (sim, events) = run_with(&[(40, "freeze_broker", R1), (90, "resume_broker", R1)]);
    let rejected = json_of(first_after(&events, "registration_rejected", 90_000));
    assert_eq!(rejected["t"], 90_000);
    assert_eq!(rejected["broker_addr"], R1);
    assert_eq!(rejected["broker_id"], 0);
    assert_eq!(rejected["reason"], "stale_state_version");
    assert_eq!(rejected["state_version"], 1);
    assert_eq!(rejected["holder_addr"], R2);
    assert_eq!(rejected["holder_state_version"], 2);
    let demoted = json_of(first_after(&events, "broker_role_changed", 90_000));
    assert_eq!(demoted["broker_addr"], R1);
    assert_eq!(
        (demoted["old_role"].clone(), demoted["new_role"].clone()),
        (json!("master"), json!("slave"))
    );
    assert_eq!(demoted["broker_id"], 1);
    let route = sim.namesrvs()[0].manager.broker_addr_table();
    let addrs = &route.get("broker-b").unwrap().broker_addrs;
    assert_eq!(addrs.get(&0).map(|a| a.as_str()), Some(R2));
    assert_eq!(addrs.get(&1).map(|a| a.as_str()), Some(R1));
}

/// Spec (onBrokerChannelClose): a killed master's connection closes, and the controller elects at
/// once; restarted, the old master asks the controller first and comes back as a slave.
#[test]
fn a_killed_master_is_replaced_at_once_and_returns_as_a_slave() {
    let (_, events) = run_with(&[(40, "kill_broker", R1), (70, "restart_broker", R1)]);
    let e = first_after(&events, "master_elected", 40_000);
    assert_eq!(e.t, 40_000);
    assert_eq!(json_of(e)["cause"], "master_connection_closed");
    assert!(of_kind(&events, "registration_rejected").is_empty());
    let back = json_of(first_after(&events, "broker_role_changed", 70_000));
    assert_eq!(
        (
            back["broker_addr"].clone(),
            back["new_role"].clone(),
            back["broker_id"].clone()
        ),
        (json!(R1), json!("slave"), json!(1))
    );
}

/// Spec (maybeShrinkSyncStateSet, haMaxTimeSlaveNotCatchup 15 s, DefaultElectPolicy unclean
/// off/on): a stalled slave leaves the set 15–20 s later and cannot be elected; with the in-sync
/// replicas gone nobody is elected, unless unclean election is on.
#[test]
fn a_lagging_replica_leaves_the_set_and_is_elected_only_unclean() {
    let actions = format!(
        r#"[{{"at": 20, "do": "lag_replica", "broker": "{R3}", "lagging": true}},
            {{"at": 60, "do": "kill_broker", "broker": "{R2}"}},
            {{"at": 70, "do": "kill_broker", "broker": "{R1}"}}]"#
    );
    let (_, events) = run(world(r#"["controller-1"]"#, &actions, ""));
    let shrunk = json_of(first_after(&events, "sync_state_set_changed", 20_000));
    let t = shrunk["t"].as_u64().unwrap();
    assert!((35_000..=40_000).contains(&t), "left at {t}");
    assert_eq!(shrunk["new"], json!([1, 2]));
    let nobody = json_of(first_after(&events, "master_elected", 70_000));
    assert_eq!(nobody["outcome"], "nobody");
    assert_eq!(nobody["new_master"], Value::Null);
    assert_eq!(nobody["alive"], json!([3]));

    let (_, events) = run(world(
        r#"["controller-1"]"#,
        &actions,
        r#""unclean_election": true,"#,
    ));
    let unclean = json_of(first_after(&events, "master_elected", 70_000));
    assert_eq!(unclean["new_master"], 3);
    assert_eq!(unclean["all_replicas"], json!([1, 2, 3]));
}

/// Spec (mqadmin electMaster, designateElect): the asked replica becomes master when alive; the
/// current master asked again changes nothing.
#[test]
fn an_admin_election_takes_the_asked_replica() {
    let (sim, events) = run(world(
        r#"["controller-1"]"#,
        r#"[{"at": 30, "do": "elect_master", "broker_name": "broker-b", "broker_id": 3},
            {"at": 60, "do": "elect_master", "broker_name": "broker-b", "broker_id": 3}]"#,
        "",
    ));
    let asked = json_of(first_after(&events, "master_elected", 30_000));
    assert_eq!(
        (
            asked["cause"].clone(),
            asked["prefer"].clone(),
            asked["new_master"].clone(),
            asked["epoch"].clone()
        ),
        (json!("admin"), json!(3), json!(3), json!(2))
    );
    let again = json_of(first_after(&events, "master_elected", 60_000));
    assert_eq!(again["outcome"], "still_master");
    assert_eq!(sim.brokers()[2].id(), 0);
    assert_eq!(
        sim.brokers()[0].id(),
        1,
        "the old master steps down to its controller id"
    );
}

/// Spec (DLedger heartBeatTimeIntervalMs × maxHeartBeatLeak, vote interval 300–1000 ms; a Raft
/// majority): the controllers elect a new leader 6.3–7 s after losing theirs, only with a
/// majority running; without a leader no master is elected.
#[test]
fn the_controllers_need_a_leader_with_a_majority() {
    let (_, events) = run(world(
        r#"["controller-1", "controller-2", "controller-3"]"#,
        &format!(
            r#"[{{"at": 20, "do": "kill_controller", "controller": "controller-1"}},
                {{"at": 40, "do": "kill_controller", "controller": "controller-2"}},
                {{"at": 50, "do": "freeze_broker", "broker": "{R1}"}},
                {{"at": 100, "do": "restart_controller", "controller": "controller-1"}}]"#
        ),
        "",
    ));
    let leaders = of_kind(&events, "leader_elected");
    let second = json_of(leaders[1]);
    let t = second["t"].as_u64().unwrap();
    assert!((26_300..=27_000).contains(&t), "new leader at {t}");
    assert_eq!(second["leader"], "controller-2");
    assert_eq!(second["term"], 2);
    let third = json_of(leaders[2]);
    assert!(
        third["t"].as_u64().unwrap() >= 106_300,
        "a leader again only with a majority"
    );
    assert!(of_kind(&events, "master_elected")
        .iter()
        .all(|e| e.t < 50_000 || e.t > third["t"].as_u64().unwrap()));
    let after = json_of(first_after(&events, "master_elected", 50_000));
    assert_eq!(
        after["cause"], "master_inactive",
        "the new leader's re-election scan"
    );
    assert_eq!(after["new_master"], 2);
}

/// The scenario's failover checks, each naming its field.
#[test]
fn failover_settings_are_checked() {
    let bad = |text: &str| Sim::from_json(text).err().unwrap().to_string();
    let broker = |mode: &str, addr: &str| {
        format!(r#"{{"name": "broker-b", "addr": "{addr}", "mode": "{mode}"}}"#)
    };
    assert_eq!(
        bad(&format!(r#"{{"routelab": 1, "brokers": [{}]}}"#, broker("controller", R1))),
        "brokers[0].mode: controller mode needs a controller: add \"controllers\": [\"controller-1\"] to the scenario, or first deploy one (Add broker: Deploy controller-1)"
    );
    assert_eq!(
        bad(&format!(
            r#"{{"routelab": 1, "profile": "4.x", "controllers": ["c"], "brokers": [{}]}}"#,
            broker("controller", R1)
        )),
        "brokers[0].mode: controller mode is RocketMQ 5's: set \"profile\": \"5.x\""
    );
    assert_eq!(
        bad(&format!(r#"{{"routelab": 1, "controllers": ["c"], "brokers": [{}, {}]}}"#, broker("controller", R1), broker("master_slave", R2))),
        "brokers[1].mode: broker-b's other brokers run in controller mode; every broker of a group has the same mode"
    );
    assert_eq!(
        bad(r#"{"routelab": 1, "controllers": ["c", "c"]}"#),
        "controllers[1]: \"c\" is empty or repeated"
    );
    assert_eq!(
        bad(
            r#"{"routelab": 1, "controllers": ["c"], "actions": [{"at": 1, "do": "kill_controller", "controller": "d"}]}"#
        ),
        "actions[0].controller: no controller is named \"d\" (known: c)"
    );
    assert_eq!(
        bad(&format!(r#"{{"routelab": 1, "brokers": [{}], "actions": [{{"at": 1, "do": "lag_replica", "broker": "{R1}", "lagging": true}}]}}"#, broker("master_slave", R1))),
        format!("actions[0].broker: {R1} is not in controller mode: only a controller-mode group has replicas a controller tracks")
    );
    assert_eq!(
        bad(&format!(
            r#"{{"routelab": 1, "controllers": ["c"], "brokers": [{}], "actions": [{{"at": 1, "do": "elect_master", "broker_name": "broker-b", "broker_id": 0}}]}}"#,
            broker("controller", R1)
        )),
        "actions[0].broker_id: controller ids start at 1"
    );
    // `lagging` is true unless said otherwise.
    let s = routelab::sim::Scenario::from_json(&format!(
        r#"{{"routelab": 1, "controllers": ["c"], "brokers": [{}], "actions": [{{"at": 1, "do": "lag_replica", "broker": "{R1}"}}]}}"#,
        broker("controller", R1)
    ))
    .unwrap();
    assert_eq!(
        s.actions[0].action,
        routelab::sim::Action::LagReplica {
            broker: R1.into(),
            lagging: true
        }
    );
}

/// Spec (a controller deployed alone: a DLedger group of one elects itself): `add_controller` where
/// the scenario lists none; controller-mode brokers added after it register with it and elect; one
/// deployed before them only, and only one.
#[test]
fn a_controller_deployed_later_serves_the_brokers_added_after_it() {
    let add = |at: u32, addr: &str| {
        format!(
            r#"{{"at": {at}, "do": "add_broker", "name": "broker-c", "addr": "{addr}", "mode": "controller"}}"#
        )
    };
    let deploy = |at: u32, name: &str| {
        format!(r#"{{"at": {at}, "do": "add_controller", "controller": "{name}"}}"#)
    };
    let text = |actions: Vec<String>, controllers: &str| {
        format!(
            r#"{{"routelab": 1, "controllers": {controllers}, "actions": [{}], "until": 30}}"#,
            actions.join(",")
        )
    };
    let mut sim = Sim::from_json(&text(
        vec![deploy(5, "controller-1"), add(10, R1), add(12, R2)],
        "[]",
    ))
    .unwrap();
    sim.run();
    let events = sim.drain_events();
    let leader = json_of(of_kind(&events, "leader_elected")[0]);
    assert_eq!(
        (leader["t"].clone(), leader["leader"].clone()),
        (json!(5_000), json!("controller-1"))
    );
    let elected = json_of(of_kind(&events, "master_elected")[0]);
    assert_eq!(
        (elected["t"].clone(), elected["new_master"].clone()),
        (json!(10_000), json!(1))
    );
    assert_eq!(sim.brokers()[1].id(), 2, "the second replica follows");
    let bad = |actions, controllers| {
        Sim::from_json(&text(actions, controllers))
            .err()
            .unwrap()
            .to_string()
    };
    assert!(bad(vec![add(3, R1), deploy(5, "controller-1")], "[]")
        .starts_with("actions[0].mode: controller mode needs a controller"));
    let fixed = "only one controller can be deployed, where the scenario has none";
    assert!(bad(vec![deploy(1, "c1"), deploy(2, "c2")], "[]")
        .starts_with(&format!("actions[1].controller: {fixed}")));
    assert!(bad(vec![deploy(1, "c2")], r#"["c1"]"#)
        .starts_with(&format!("actions[0].controller: {fixed}")));
}

/// Same scenario and seed, same events: the controllers' draws come from the scenario's RNG.
#[test]
fn controller_runs_are_deterministic() {
    let actions = format!(
        r#"[{{"at": 20, "do": "kill_controller", "controller": "controller-1"}},
            {{"at": 40, "do": "freeze_broker", "broker": "{R1}"}}]"#
    );
    let a = run(world(
        r#"["controller-1", "controller-2", "controller-3"]"#,
        &actions,
        "",
    ))
    .1;
    let b = run(world(
        r#"["controller-1", "controller-2", "controller-3"]"#,
        &actions,
        "",
    ))
    .1;
    assert_eq!(a, b);
}
