//! The core benchmark suite, shared by the native bench binary (`cargo bench --bench core`) and the
//! JavaScript module (`benchCore`, run in headless Chromium by `scripts/bench`), so that the
//! wasm/native ratio compares exactly the same work. The caller supplies the clock: the core never
//! reads one. Tests never assert on these figures; `BENCHMARKS.md` records them.

use std::hint::black_box;

use serde::Serialize;

use crate::model::{DataVersion, TopicConfig, TopicConfigSerializeWrapper};
use crate::namesrv::{Profile, RegisterBroker, RouteManager};
use crate::producer::{ClientProfile, MqFaultStrategy, TopicPublishInfo};
use crate::rng::SeededRng;

/// Runs per operation; the median is reported.
pub const RUNS: usize = 7;
/// Scans per call in the no-expiry scan row.
const SCAN_BATCH: u64 = 100;

/// One operation's result.
#[derive(Debug, Clone, Serialize)]
pub struct Measure {
    /// Stable key (used to pair native and wasm rows).
    pub key: String,
    /// What was measured, in words.
    pub name: String,
    /// Median over [`RUNS`] runs of the time per operation, in microseconds.
    pub median_us: f64,
    /// Operations per run.
    pub iters: u64,
}

/// Runs every core operation. `now_ms` is a monotonic clock in milliseconds (`Instant` natively,
/// `performance.now()` in a browser); `scale` multiplies the iteration counts (1.0 for the figures,
/// smaller for a quick check).
pub fn core_suite(now_ms: &mut dyn FnMut() -> f64, scale: f64) -> Vec<Measure> {
    core_suite_only(now_ms, scale, None)
}

/// [`core_suite`], measuring only the operation keyed `only` when given (the others' setup still
/// runs, so the operation meets the same state). `scripts/bench` measures one operation natively,
/// then the same in Chromium, and so on, so that both sides of a ratio are taken moments apart.
pub fn core_suite_only(
    now_ms: &mut dyn FnMut() -> f64,
    scale: f64,
    only: Option<&str>,
) -> Vec<Measure> {
    let mut out = Vec::new();
    let mut m = Meter {
        now_ms,
        scale,
        only,
        out: &mut out,
    };
    for profile in [Profile::V4, Profile::V5] {
        let first = broker(0, 1000, 1);
        m.measure(
            &format!("register_first_{profile}"),
            &format!("register, 1,000 topics, first registration ({profile})"),
            20,
            &mut || {
                let mut rm = RouteManager::new(profile);
                black_box(rm.register_broker(0, &first).is_ok());
            },
        );
        let mut rm = RouteManager::new(profile);
        let _ = rm.register_broker(0, &first);
        let mut counter = 1;
        m.measure(
            &format!("register_changed_{profile}"),
            &format!("register, 1,000 topics, DataVersion changed ({profile})"),
            20,
            &mut || {
                counter += 1;
                let again = broker(0, 1000, counter);
                black_box(rm.register_broker(counter.unsigned_abs(), &again).is_ok());
                rm.drain_events();
            },
        );
        let same = broker(0, 1000, counter);
        m.measure(
            &format!("register_heartbeat_{profile}"),
            &format!("register, 1,000 topics, same DataVersion = heartbeat ({profile})"),
            // A 4.x heartbeat does not read its topics: a fraction of a microsecond.
            if profile.is_v5() { 500 } else { 20_000 },
            &mut || {
                black_box(rm.register_broker(1, &same).is_ok());
                rm.drain_events();
            },
        );
    }

    let mut rm = RouteManager::new(Profile::V5);
    for i in 0..4 {
        let _ = rm.register_broker(0, &broker(i, 1000, 1));
    }
    m.measure(
        "route_pickup",
        "pickupTopicRouteData, 4 broker groups",
        100_000,
        &mut || {
            black_box(rm.pickup_topic_route_data("Topic500"));
        },
    );

    let mut big = RouteManager::new(Profile::V4);
    for i in 0..1000 {
        let _ = big.register_broker(50_000, &broker(i, 2, 1));
    }
    // A scan that finds nothing is a few ns: a batch of them per call keeps the harness's own call
    // (an indirect call, dearer in wasm) out of the figure, which is per scan.
    m.measure_batched(
        "scan_1000",
        "scan over 1,000 live brokers, none expired",
        1_000_000,
        SCAN_BATCH,
        &mut || {
            for now in 60_000..60_000 + SCAN_BATCH {
                black_box(big.scan_not_active_brokers(black_box(now)));
            }
        },
    );
    // The scan's walk: one more broker, registered long before the others, is found expired and
    // removed on each run (its registration is part of the cost).
    let late = broker(1000, 2, 1);
    m.measure(
        "scan_1000_expire",
        "scan over 1,000 live brokers, one expired and removed (with its registration)",
        1000,
        &mut || {
            let _ = big.register_broker(0, &late);
            black_box(big.scan_not_active_brokers(150_000));
            big.drain_events();
        },
    );

    let Some(route) = rm.pickup_topic_route_data("Topic500") else {
        return out;
    };
    for (client, ft, key) in [
        (ClientProfile::V4, false, "select_v4"),
        (ClientProfile::V4, true, "select_v4_ft"),
        (ClientProfile::V5, true, "select_v5_ft"),
    ] {
        let Ok(mut info) = TopicPublishInfo::from_route("Topic500", &route, client) else {
            continue;
        };
        let mut strategy = MqFaultStrategy::new(client, ft);
        strategy.update_fault_item(0, "broker-1", 3000, true, false);
        let mut rng = SeededRng::new(1);
        let mut now = 1;
        let what = if ft {
            "fault tolerance on, one broker isolated"
        } else {
            "fault tolerance off"
        };
        m.measure(
            key,
            &format!("selectOneMessageQueue, 32 queues, {client} client, {what}"),
            1_000_000,
            &mut || {
                now += 1;
                black_box(strategy.select_one_message_queue(
                    now,
                    &mut info,
                    Some("broker-0"),
                    false,
                    &mut rng,
                ));
            },
        );
    }
    out
}

struct Meter<'a> {
    now_ms: &'a mut dyn FnMut() -> f64,
    scale: f64,
    only: Option<&'a str>,
    out: &'a mut Vec<Measure>,
}

impl Meter<'_> {
    /// Median time per iteration over [`RUNS`] runs.
    fn measure(&mut self, key: &str, name: &str, iters: u64, f: &mut dyn FnMut()) {
        self.measure_batched(key, name, iters, 1, f)
    }

    /// [`Self::measure`] of a closure doing `batch` operations per call: `iters` counts operations.
    fn measure_batched(
        &mut self,
        key: &str,
        name: &str,
        iters: u64,
        batch: u64,
        f: &mut dyn FnMut(),
    ) {
        if self.only.is_some_and(|only| only != key) {
            return;
        }
        // Float to integer: the scale only shortens a quick run, at least one iteration.
        let calls = ((iters as f64 * self.scale) as u64 / batch).max(1);
        let iters = calls * batch;
        let mut per_iter: Vec<f64> = (0..RUNS)
            .map(|_| {
                let start = (self.now_ms)();
                for _ in 0..calls {
                    f();
                }
                ((self.now_ms)() - start) * 1000.0 / iters as f64
            })
            .collect();
        per_iter.sort_by(f64::total_cmp);
        self.out.push(Measure {
            key: key.to_string(),
            name: name.to_string(),
            median_us: per_iter[RUNS / 2],
            iters,
        });
    }
}

fn broker(i: usize, topics: usize, counter: i64) -> RegisterBroker {
    let wrapper = TopicConfigSerializeWrapper::new(
        DataVersion::new(counter, 0),
        (0..topics).map(|t| TopicConfig::new(&format!("Topic{t}"), 8, 8, 6)),
    );
    let addr = format!("10.{}.{}.{}:10911", i / 65536, (i / 256) % 256, i % 256);
    RegisterBroker::new("DefaultCluster", &format!("broker-{i}"), 0, &addr, wrapper)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation reports, with a clock that advances one millisecond per reading.
    #[test]
    fn the_suite_names_every_operation() {
        let mut t = 0.0;
        let mut clock = || {
            t += 1.0;
            t
        };
        let got = core_suite(&mut clock, 0.0);
        let keys: Vec<&str> = got.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys.len(), 12, "{keys:?}");
        assert!(keys.contains(&"route_pickup") && keys.contains(&"select_v5_ft"));
        // One call per run at scale 0, 1 ms per call: one operation per call, or a batch of them.
        for m in &got {
            let batch = if m.key == "scan_1000" { SCAN_BATCH } else { 1 };
            assert_eq!(m.iters, batch, "{}", m.key);
            assert_eq!(m.median_us, 1000.0 / batch as f64, "{}", m.key);
        }
    }

    /// One operation alone, as the side-by-side rounds ask for it; an unknown key measures nothing.
    #[test]
    fn one_operation_alone() {
        let mut t = 0.0;
        let mut clock = || {
            t += 1.0;
            t
        };
        let got = core_suite_only(&mut clock, 0.0, Some("scan_1000_expire"));
        let keys: Vec<&str> = got.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["scan_1000_expire"]);
        assert!(core_suite_only(&mut clock, 0.0, Some("no_such_row")).is_empty());
    }
}
