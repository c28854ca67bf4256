//! Time travel natively: an hour of big-cluster (200 brokers, 10,000 topics) and of crash-hang-stop
//! recorded in a `Timeline`, then 20 seeks from the head to random earlier times. Reports the seek
//! times (p50 / p95 / max), how many snapshots were kept and the memory they hold (live heap bytes
//! with the timeline minus without: a counting allocator).
//!
//! `cargo bench --bench timeline [-- --json PATH]`

// A bench of the shipped presets: a preset that does not load is a broken build, not input.
#![allow(clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use routelab::rng::SeededRng;
use routelab::sim::timeline::Timeline;
use routelab::sim::{preset_json, Scenario, Sim};

/// Counts live heap bytes.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Ordering::Relaxed);
        // SAFETY: the caller's layout, as GlobalAlloc requires.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        // SAFETY: p came from alloc with this layout.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const HOUR_MS: u64 = 3_600_000;

fn scenario(name: &str) -> Scenario {
    Scenario::from_json(preset_json(name).expect("a shipped preset")).expect("a valid preset")
}

fn measure(name: &str) -> serde_json::Value {
    // The world alone for the hour: the heap it holds at its end.
    let base = LIVE.load(Ordering::Relaxed);
    let mut sim = Sim::new(&scenario(name));
    sim.advance_to(HOUR_MS);
    let _ = sim.drain_events();
    let world = LIVE.load(Ordering::Relaxed) - base;
    drop(sim);

    let base = LIVE.load(Ordering::Relaxed);
    let started = Instant::now();
    let mut tl = Timeline::new(scenario(name));
    let _ = tl.advance_to(HOUR_MS);
    let record_s = started.elapsed().as_secs_f64();
    let with_timeline = LIVE.load(Ordering::Relaxed) - base;

    let mut rng = SeededRng::new(20);
    let mut seeks: Vec<f64> = (0..20)
        .map(|_| {
            tl.seek_head();
            let t = rng.next_below(HOUR_MS);
            let at = Instant::now();
            tl.seek(t);
            at.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    seeks.sort_by(f64::total_cmp);
    let pick = |q: f64| seeks[((seeks.len() as f64 * q).ceil() as usize).clamp(1, seeks.len()) - 1];
    let snapshots_mb = with_timeline.saturating_sub(world) as f64 / 1e6;
    println!(
        "{name}: recorded 1 h in {record_s:.2} s; {} snapshots, {snapshots_mb:.1} MB beyond the world's {:.1} MB; 20 seeks from the head: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms; {} marks",
        tl.checkpoint_count(),
        world as f64 / 1e6,
        pick(0.5),
        pick(0.95),
        pick(1.0),
        tl.marks().len()
    );
    serde_json::json!({
        "preset": name,
        "record_s": record_s,
        "snapshots": tl.checkpoint_count(),
        "snapshot_mb": snapshots_mb,
        "world_mb": world as f64 / 1e6,
        "seek_p50_ms": pick(0.5),
        "seek_p95_ms": pick(0.95),
        "seek_max_ms": pick(1.0),
        "marks": tl.marks().len(),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let json = args
        .iter()
        .position(|a| a == "--json")
        .and_then(|i| args.get(i + 1));
    let out = serde_json::json!([measure("big-cluster"), measure("crash-hang-stop")]);
    if let Some(path) = json {
        if let Err(e) = std::fs::write(path, out.to_string()) {
            eprintln!("timeline bench: cannot write {path}: {e}");
        }
    }
}
