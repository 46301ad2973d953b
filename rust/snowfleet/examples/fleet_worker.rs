//! The Rust process of the polyglot fleet: leases a node id from a node source, mints for a
//! few seconds and prints the fleet line protocol, as scripts/demo/fleet-demo/worker.py and
//! go/internal/fleetworker do (see scripts/demo/fleet_summary.py):
//!
//! ```text
//! node <node_id> <claimed_mark_ms>
//! ids <wall_ms> <id> <id> ...
//! error <CODE> <wall_ms> <message>
//! closed <ids_issued> <mark_writes>
//! ```
//!
//! `cargo run --release --example fleet_worker -- SOURCE SECONDS [LAYOUT]`
use snowfleet::Generator;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn run(source: &str, seconds: f64, layout: Option<&str>) -> Result<(), snowfleet::Error> {
    let mut builder = Generator::builder().node_source(source);
    if let Some(layout) = layout {
        builder = builder.layout(layout);
    }
    let gen = builder.build()?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let status = gen.status()?;
    // A closed stdout (the reader gone) ends the run like the deadline does.
    let _ = writeln!(out, "node {} {}", gen.node_id()?, status.mark_ms);
    let mut ids = [0i64; 64];
    let mut line = String::with_capacity(64 * 20 + 32);
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    while Instant::now() < end {
        let wall = wall_ms();
        if let Err(e) = gen.next_ids(&mut ids) {
            let _ = writeln!(out, "error {} {} {}", e.kind().code(), wall, e.message());
            if out.flush().is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        line.clear();
        line.push_str("ids ");
        line.push_str(&wall.to_string());
        for id in ids {
            line.push(' ');
            line.push_str(&id.to_string());
        }
        line.push('\n');
        if out
            .write_all(line.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            break;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    gen.close()?;
    let stats = gen.stats()?;
    let _ = writeln!(out, "closed {} {}", stats.ids_issued, stats.mark_writes);
    let _ = out.flush();
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: fleet_worker SOURCE SECONDS [LAYOUT]");
        return ExitCode::from(2);
    }
    let seconds = match args[2].parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => s,
        _ => {
            eprintln!("fleet_worker: SECONDS {:?} is not a number", args[2]);
            return ExitCode::from(2);
        }
    };
    match run(&args[1], seconds, args.get(3).map(String::as_str)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
