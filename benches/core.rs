//! Core benchmarks: `cargo bench --bench core` prints the median of several runs of each operation
//! (the suite lives in `routelab::bench`, shared with the JavaScript module so the wasm/native
//! ratio compares the same work). `-- --json FILE` also writes the figures as JSON for
//! `scripts/bench`. `-- --serve` reads operation keys from standard input, a line each, and answers
//! each with that operation's figure as one JSON line: `benches/wasm_core.mjs` asks for one
//! operation here, then the same in Chromium, so both sides of a ratio are taken moments apart.
//! Figures are recorded in BENCHMARKS.md; tests never assert on time.
// A bench may unwrap, expect and panic: a failure should stop it loudly (Cargo.toml [lints.clippy]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// Natively, `routelab` runs on mimalloc (src/bin/routelab.rs): measured with the allocator it ships with.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let start = Instant::now();
    let mut clock = || start.elapsed().as_secs_f64() * 1000.0;
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--serve") {
        let mut out = std::io::stdout().lock();
        for line in std::io::stdin().lock().lines() {
            let key = line.expect("stdin");
            let only = Some(key.trim()).filter(|k| !k.is_empty());
            let results = routelab::bench::core_suite_only(&mut clock, 1.0, only);
            writeln!(out, "{}", serde_json::to_string(&results).unwrap()).expect("stdout");
            out.flush().expect("stdout");
        }
        return;
    }
    println!(
        "{:<72} {:>12}",
        format!("operation (median of {} runs)", routelab::bench::RUNS),
        "time per op"
    );
    let results = routelab::bench::core_suite(&mut clock, 1.0);
    for m in &results {
        println!("{:<72} {:>9.3} µs", m.name, m.median_us);
    }
    if let Some(path) = args
        .iter()
        .position(|a| a == "--json")
        .and_then(|i| args.get(i + 1))
    {
        let json = serde_json::to_string_pretty(&results).unwrap_or_default();
        if let Err(e) = std::fs::write(path, json) {
            eprintln!("error: cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
}
