//! The scenario parser (`sim::scenario::Scenario::from_json`), the one entry for `routelab sim`, the
//! dashboard's import and share links; then a few steps of the simulation it describes.
//!
//! Checks: an error names a field path and says something; a scenario that parses is written by
//! `to_json` (export, share link) to text that parses to the same scenario; a valid scenario starts
//! and runs its first steps without a panic (debug assertions, so arithmetic overflow counts).
#![no_main]

use libfuzzer_sys::fuzz_target;
use routelab::sim::scenario::Scenario;
use routelab::sim::Sim;

/// Enough steps to reach the first registrations, heartbeats and actions; bounded so that a
/// scenario with a long timeline does not stall the fuzzer.
const STEPS: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let scenario = match Scenario::from_json(text) {
        Ok(s) => s,
        Err(e) => {
            assert!(!e.path.is_empty(), "an error without a path: {e:?}");
            assert!(!e.message.is_empty(), "an error without a message: {e:?}");
            return;
        }
    };
    let exported = scenario.to_json();
    match Scenario::from_json(&exported) {
        Ok(back) => assert_eq!(back, scenario, "export:\n{exported}"),
        Err(e) => panic!("exported scenario does not parse: {e}\n{exported}"),
    }
    let mut sim = Sim::new(&scenario);
    for _ in 0..STEPS {
        if sim.step().is_none() {
            break;
        }
    }
});
