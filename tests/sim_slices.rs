#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `Sim::advance_toward`: the dashboard advances the simulator in slices that fit an animation
//! frame. However the advance is cut, the same events fire in the same order and the world ends the
//! same as with one `advance_to`. Plain Rust only, so this file also runs under wasm32.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use routelab::sim::Sim;

/// A preset's file, read here: the library's wasm32 build carries only the dashboard's default.
fn sim_of(name: &str) -> Sim {
    let json = match name {
        "crash-hang-stop" => include_str!("../scenarios/crash-hang-stop.json"),
        "fault-tolerance" => include_str!("../scenarios/fault-tolerance.json"),
        "namesrv-divergence" => include_str!("../scenarios/namesrv-divergence.json"),
        "big-cluster" => include_str!("../scenarios/big-cluster.json"),
        _ => panic!("no scenario file for {name} in this test"),
    };
    Sim::from_json(json).unwrap()
}

/// Runs to `until` with `advance_toward`, allowing `steps` steps per call and asking for
/// `stride` ms more each frame (as the dashboard's clock does), and returns the events and the
/// final tables as JSON.
fn sliced(name: &str, until: u64, stride: u64, steps: usize) -> (String, usize) {
    let mut sim = sim_of(name);
    let mut events = Vec::new();
    let mut target = 0;
    let mut calls = 0;
    while sim.now() < until {
        target = (target + stride).min(until);
        let mut left = steps;
        let done = sim.advance_toward(target, || {
            left -= 1;
            left > 0
        });
        calls += 1;
        if done {
            assert_eq!(
                sim.now(),
                target,
                "a finished slice leaves the clock at its target"
            );
        } else {
            assert!(
                sim.now() < target,
                "an unfinished slice stops before its target"
            );
            // The debt is carried: the next frame asks for the rest plus its own stride.
            target = target.saturating_sub(stride);
        }
        events.extend(sim.drain_events());
    }
    let out = serde_json::json!({
        "events": events,
        "final": sim.final_state(),
    });
    (out.to_string(), calls)
}

fn whole(name: &str, until: u64) -> String {
    let mut sim = sim_of(name);
    sim.advance_to(until);
    let events = sim.drain_events();
    serde_json::json!({ "events": events, "final": sim.final_state() }).to_string()
}

#[test]
fn slices_fire_the_same_events_in_the_same_order() {
    for name in ["crash-hang-stop", "fault-tolerance", "namesrv-divergence"] {
        let reference = whole(name, 200_000);
        assert!(
            reference.contains("\"events\":[{"),
            "{name}: the run has events"
        );
        for (stride, steps) in [(1_000, 1), (1_000, 3), (6_000, 2), (250, 1)] {
            let (got, calls) = sliced(name, 200_000, stride, steps);
            assert!(
                calls >= (200_000 / stride) as usize,
                "{name}: one call per frame at least"
            );
            assert_eq!(
                got, reference,
                "{name}: slices of {stride} ms, {steps} steps per call"
            );
        }
    }
}

#[test]
fn a_slice_takes_at_least_one_step_and_stops_when_asked() {
    let mut sim = sim_of("big-cluster");
    let first = sim.next_timer().unwrap();
    // No budget at all: still one step, so a slow frame never stalls the clock.
    let done = sim.advance_toward(10_000, || false);
    assert!(!done);
    assert_eq!(sim.now(), first);
    // A generous budget reaches the target.
    assert!(sim.advance_toward(10_000, || true));
    assert_eq!(sim.now(), 10_000);
}
