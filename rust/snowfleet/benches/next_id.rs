//! next_id and UUIDv7 beside what they are measured against: one clock read
//! (SystemTime::now, Instant::now) and the uuid crate's Uuid::now_v7(). A plain timing
//! binary (no criterion: its dependencies would double the crate's build): each figure is
//! the median of 9 runs of `ITERS` calls, in ns per call.
//!   cargo bench -p snowfleet --bench next_id
//!
//! A node mints at most 4,096 ids per ms (the default layout's sequence), so a monotonic
//! generator called faster than that runs ahead of the wall clock, up to max_drift_ms. Each
//! run uses a node id of its own and stays within that budget: the figures are the cost of a
//! call, not the layout's cap (the "sustained" line shows the cap).
use snowfleet::{Generator, Mode, Uuid7Generator};
use std::hint::black_box;
use std::time::{Instant, SystemTime};

const ITERS: u64 = 200_000;
const RUNS: usize = 9;

fn median_ns(mut per_run: impl FnMut(u32) -> f64) -> f64 {
    let mut v: Vec<f64> = (0..RUNS as u32).map(&mut per_run).collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[RUNS / 2]
}

fn time_loop(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..ITERS {
        f();
    }
    start.elapsed().as_nanos() as f64 / ITERS as f64
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn main() {
    // `cargo test --benches` runs this with --bench absent; keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("next_id bench: run with `cargo bench` (skipped under cargo test)");
        return;
    }
    println!("CPU: {}", cpu_name());
    println!(
        "snowfleet {}, median of {RUNS} runs x {ITERS} calls",
        snowfleet::version()
    );
    let row = |name: &str, ns: f64, base: Option<(&str, f64)>| match base {
        Some((b, bns)) => println!("{name:<40} {ns:>7.1} ns  {:>6.2}x {b}", ns / bns),
        None => println!("{name:<40} {ns:>7.1} ns"),
    };

    let system = median_ns(|_| {
        time_loop(|| {
            black_box(SystemTime::now());
        })
    });
    let instant = median_ns(|_| {
        time_loop(|| {
            black_box(Instant::now());
        })
    });
    row("SystemTime::now()", system, None);
    row("Instant::now()", instant, None);

    let monotonic = median_ns(|run| {
        let g = Generator::builder()
            .node_id(100 + run as i64)
            .mode(Mode::Monotonic)
            .build()
            .unwrap();
        time_loop(|| {
            black_box(g.next_id().unwrap());
        })
    });
    row(
        "Generator::next_id (monotonic)",
        monotonic,
        Some(("SystemTime::now", system)),
    );

    let batch = median_ns(|run| {
        let g = Generator::builder()
            .node_id(200 + run as i64)
            .mode(Mode::Monotonic)
            .build()
            .unwrap();
        let mut buf = vec![0i64; 4096];
        let start = Instant::now();
        for _ in 0..ITERS / 4096 {
            g.next_ids(&mut buf).unwrap();
            black_box(&buf);
        }
        start.elapsed().as_nanos() as f64 / ((ITERS / 4096) * 4096) as f64
    });
    row("Generator::next_ids, per id (4096)", batch, None);

    // Strict mode at the layout's cap: 4,096 ids per ms, then it waits for the next ms.
    let strict = median_ns(|run| {
        let g = Generator::builder()
            .node_id(300 + run as i64)
            .build()
            .unwrap();
        time_loop(|| {
            black_box(g.next_id().unwrap());
        })
    });
    row("Generator::next_id (strict, sustained)", strict, None);
    println!(
        "{:<40} {:>7.2} M ids/s (the cap: 4.096)",
        "  = ",
        1e3 / strict
    );

    let ours = median_ns(|_| {
        let g = Uuid7Generator::new().unwrap();
        time_loop(|| {
            black_box(g.next().unwrap());
        })
    });
    let theirs = median_ns(|_| {
        time_loop(|| {
            black_box(uuid::Uuid::now_v7());
        })
    });
    row("uuid::Uuid::now_v7()", theirs, None);
    row("Uuid7Generator::next", ours, Some(("Uuid::now_v7", theirs)));
}
