//! The Rust runner of the conformance vectors: every case of conformance/vectors/*.json
//! through the safe crate, as the C++, C, Python, Node, Java and SQL runners run them.
//!
//! Skipped, because Rust's types cannot express them (the runner counts and names them):
//! - a value of a type the parameter cannot hold (the vectors' "TYPE" errors: text or a
//!   float for an integer, a bool, an integer past i64);
//! - a mode other than "strict" / "monotonic": `Mode` is an enum;
//! - a negative count for `next_ids` / `next_many`: the count is the slice's length (in a
//!   scenario, only that refused step is left out: a refused call changes nothing).
use serde_json::{json, Value};
use snowfleet::{
    field_names, format_id, format_time, parse_id, parse_time, ComposeArgs, Encoding, Error,
    Generator, Layout, Mode, ScriptedClock, Segment, Uuid7, Uuid7Generator,
};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../conformance/vectors");
const FROZEN_MS: i64 = 1737747358021;

/// A case that Rust's types cannot express, with the reason.
#[derive(Debug)]
struct Skip(&'static str);

#[derive(Default)]
struct Run {
    case: String,
    failures: Vec<String>,
    case_ok: bool,
}

impl Run {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.case_ok = false;
            self.failures.push(format!("{}: {}", self.case, what()));
        }
    }

    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, got: T, want: T, what: &str) {
        let ok = got == want;
        self.check(ok, || format!("{what}: got {got:?}, expected {want:?}"));
    }

    /// Checks a call's result against `expect`; Some(value) when it succeeded as expected.
    fn outcome<T>(&mut self, expect: &Value, result: Result<T, Error>) -> Option<T> {
        match (expect.get("error"), result) {
            (None, Ok(v)) => Some(v),
            (None, Err(e)) => {
                self.check(false, || {
                    format!("unexpected {}: {}", e.kind().code(), e.message())
                });
                None
            }
            (Some(want), Ok(_)) => {
                self.check(false, || {
                    format!("expected error {want} but the call succeeded")
                });
                None
            }
            (Some(want), Err(e)) => {
                self.eq(e.kind().code(), want.as_str().unwrap(), "error");
                if let Some(d) = expect.get("drift_ms") {
                    self.eq(e.drift_ms(), d.as_i64().unwrap(), "drift_ms");
                }
                for part in expect
                    .get("message_contains")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let part = part.as_str().unwrap();
                    let ok = e.message().contains(part);
                    self.check(ok, || format!("message '{}' lacks '{part}'", e.message()));
                }
                None
            }
        }
    }

    fn subset(&mut self, expect: &Value, actual: &Value) {
        for (key, want) in expect.as_object().unwrap() {
            match actual.get(key) {
                None => self.check(false, || format!("no key {key}")),
                Some(got) => {
                    let ok = got == want;
                    self.check(ok, || format!("{key}: got {got}, expected {want}"));
                }
            }
        }
    }
}

/// Decimal text to i64 through the core's parser; None past i64.
fn i64_of_text(s: &str) -> Option<i64> {
    match s.strip_prefix('-') {
        Some(digits) => parse_id(digits, Encoding::Decimal).ok().map(|v| -v),
        None => parse_id(s, Encoding::Decimal).ok(),
    }
}

/// A vector's 64-bit value: decimal text, or a JSON integer.
fn i64v(v: &Value) -> i64 {
    match v {
        Value::String(s) => i64_of_text(s).unwrap_or_else(|| panic!("not an int64: {v}")),
        _ => v.as_i64().unwrap_or_else(|| panic!("not an int64: {v}")),
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap()
}

fn mode_of(name: &str) -> Result<Mode, Skip> {
    match name {
        "strict" => Ok(Mode::Strict),
        "monotonic" => Ok(Mode::Monotonic),
        _ => Err(Skip("a mode outside the Mode enum")),
    }
}

// ---- layout, codec, time, text, range --------------------------------------------------------

fn describe(l: &Layout) -> Value {
    json!({
        "text": l.text(), "preset": l.preset(),
        "epoch_ms": l.epoch_ms().to_string(), "timestamp_bits": l.timestamp_bits(),
        "node_bits": l.node_bits(), "datacenter_bits": l.datacenter_bits(),
        "machine_bits": l.machine_bits(), "sequence_bits": l.sequence_bits(),
        "timestamp_shift": l.timestamp_shift(), "node_shift": l.node_shift(),
        "max_node_id": l.max_node_id(), "max_datacenter_id": l.max_datacenter_id(),
        "max_machine_id": l.max_machine_id(), "max_sequence": l.max_sequence(),
        "max_elapsed_ms": l.max_elapsed_ms().to_string(),
        "max_timestamp_ms": l.max_timestamp_ms().to_string(),
    })
}

fn layout_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let expect = &c["expect"];
    let result = if c["op"] == "parse" {
        Layout::parse(text(&c["text"]))
    } else {
        let mut b = Layout::builder()
            .epoch_ms(i64v(&c["epoch_ms"]))
            .timestamp_bits(i64v(&c["timestamp_bits"]))
            .sequence_bits(i64v(&c["sequence_bits"]));
        if c.get("datacenter_bits").is_some() {
            b = b
                .datacenter_bits(i64v(&c["datacenter_bits"]))
                .machine_bits(i64v(&c["machine_bits"]));
        } else {
            b = b.node_bits(i64v(&c["node_bits"]));
        }
        b.build()
    };
    if let Some(l) = r.outcome(expect, result) {
        r.subset(expect, &describe(&l));
        let again = Layout::parse(l.text()).map(|a| a.text().to_string());
        r.check(again.as_deref() == Ok(l.text()), || {
            "the text form round-trips".into()
        });
    }
    Ok(())
}

fn decoded_json(d: &snowfleet::Decoded) -> Value {
    json!({"timestamp_ms": d.timestamp_ms.to_string(), "node_id": d.node_id,
           "datacenter_id": d.datacenter_id, "machine_id": d.machine_id, "sequence": d.sequence})
}

fn codec_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let expect = &c["expect"];
    let op = text(&c["op"]);
    if op == "parse_id" {
        if let Some(id) = r.outcome(expect, parse_id(text(&c["text"]), Encoding::Decimal)) {
            r.eq(id.to_string(), text(&expect["id"]).to_string(), "id");
        }
        return Ok(());
    }
    let layout = Layout::parse(text(&c["layout"])).expect("the case's layout");
    if op == "compose" {
        let mut a = ComposeArgs {
            timestamp_ms: i64v(&c["timestamp_ms"]),
            sequence: Some(i64v(&c["sequence"])),
            ..Default::default()
        };
        if c.get("datacenter_id").is_some() {
            a.datacenter_id = Some(i64v(&c["datacenter_id"]));
            a.machine_id = Some(i64v(&c["machine_id"]));
        } else {
            a.node_id = Some(i64v(&c["node_id"]));
        }
        if let Some(id) = r.outcome(expect, layout.compose_fields(&a)) {
            r.eq(id.to_string(), text(&expect["id"]).to_string(), "id");
        }
        return Ok(());
    }
    let value = i64_of_text(text(&c["value"])).ok_or(Skip("an integer past i64"))?;
    if let Some(d) = r.outcome(expect, layout.decode(value)) {
        r.subset(expect, &decoded_json(&d));
    }
    Ok(())
}

fn time_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let expect = &c["expect"];
    if let Some(ms) = r.outcome(expect, parse_time(text(&c["text"]))) {
        r.eq(
            ms.to_string(),
            text(&expect["timestamp_ms"]).to_string(),
            "timestamp_ms",
        );
        if (-62167219200000..=253402300799999).contains(&ms) {
            let back = format_time(ms).and_then(|t| parse_time(&t));
            r.check(back == Ok(ms), || "format_time reads back".into());
        }
    }
    Ok(())
}

fn encoding(name: &str) -> Encoding {
    match name {
        "base32" => Encoding::Base32,
        "base62" => Encoding::Base62,
        "any" => Encoding::Any,
        _ => Encoding::Decimal,
    }
}

fn text_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let expect = &c["expect"];
    let enc = encoding(text(&c["encoding"]));
    if c["op"] == "parse" {
        if let Some(id) = r.outcome(expect, parse_id(text(&c["text"]), enc)) {
            r.eq(id.to_string(), text(&expect["id"]).to_string(), "id");
        }
        return Ok(());
    }
    let value = i64v(&c["value"]);
    if let Some(t) = r.outcome(expect, format_id(value, enc)) {
        r.eq(t.as_str(), text(&expect["text"]), "text");
        if c["op"] == "round_trip" {
            r.check(parse_id(&t, enc) == Ok(value), || "round trip".into());
        }
    }
    Ok(())
}

fn range_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let expect = &c["expect"];
    let layout = Layout::parse(text(&c["layout"])).expect("the case's layout");
    if c["op"] == "id_range" {
        let slack = c.get("slack_ms").map_or(0, i64v);
        let got = layout.id_range(i64v(&c["start_ms"]), i64v(&c["end_ms"]), slack);
        if let Some((first, last)) = r.outcome(expect, got) {
            r.eq(
                first.to_string(),
                text(&expect["first"]).to_string(),
                "first",
            );
            r.eq(last.to_string(), text(&expect["last"]).to_string(), "last");
        }
        return Ok(());
    }
    let ms = i64v(&c["timestamp_ms"]);
    let got = if c["op"] == "min_id" {
        layout.min_id(ms)
    } else {
        layout.max_id(ms)
    };
    if let Some(id) = r.outcome(expect, got) {
        r.eq(id.to_string(), text(&expect["id"]).to_string(), "id");
    }
    Ok(())
}

// ---- scenarios ------------------------------------------------------------------------------

fn segments(script: &Value) -> Vec<Segment> {
    script
        .as_array()
        .unwrap()
        .iter()
        .map(|s| Segment {
            ms: i64v(&s["ms"]),
            count: s.get("count").map_or(1, i64v),
            step_ms: s.get("step_ms").map_or(0, i64v),
            every: s.get("every").map_or(1, i64v),
        })
        .collect()
}

fn summarize(ids: &[i64], max_sequence: i64) -> Value {
    let mut out = json!({"count": ids.len()});
    out["strictly_increasing"] = json!(ids.windows(2).all(|w| w[0] < w[1]));
    let sum = ids.iter().fold(0u64, |s, id| s.wrapping_add(*id as u64));
    out["sum"] = json!(sum.to_string());
    if let (Some(first), Some(last)) = (ids.first(), ids.last()) {
        out["first"] = json!(first.to_string());
        out["last"] = json!(last.to_string());
        out["max_sequence"] = json!(ids.iter().map(|id| id & max_sequence).max().unwrap());
    }
    out
}

#[derive(Default)]
struct Live {
    clock: Option<Rc<ScriptedClock>>,
    gen: Option<Generator>,
    max_sequence: i64,
}

/// Builds one of a scenario's generators (refused or not, its clock is kept for clock_of).
fn open(r: &mut Run, g: &Value, expect: &Value, gens: &BTreeMap<String, Live>) -> Live {
    let clock = match g.get("clock_of") {
        Some(other) => gens[text(other)]
            .clock
            .clone()
            .expect("clock_of a generator with a clock"),
        None => match ScriptedClock::new(&segments(&g["clock"])) {
            Ok(clock) => Rc::new(clock),
            Err(e) => {
                r.outcome::<()>(expect, Err(e));
                return Live::default();
            }
        },
    };
    let layout = text(&g["layout"]);
    let max_sequence = Layout::parse(layout).map_or(0, |l| l.max_sequence());
    let built = Generator::builder()
        .layout(layout)
        .node_id(i64v(&g["node_id"]))
        .mode(mode_of(text(&g["mode"])).unwrap())
        .max_wait_ms(g["max_wait_ms"].as_f64().unwrap())
        .max_drift_ms(i64v(&g["max_drift_ms"]))
        .clock(&clock)
        .build();
    Live {
        gen: r.outcome(expect, built),
        clock: Some(clock),
        max_sequence,
    }
}

fn count_of(n: i64) -> Result<usize, Skip> {
    usize::try_from(n).map_err(|_| Skip("a negative count (the count is a slice's length)"))
}

fn scenario_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let generators = c["generators"].as_array().unwrap();
    for g in generators {
        mode_of(text(&g["mode"]))?;
    }
    for step in c["steps"].as_array().unwrap() {
        // A refused call changes nothing, so a refusal Rust cannot ask for is left out alone.
        if step["op"] == "next_ids" && step["expect"].get("error").is_none() {
            count_of(i64v(&step["n"]))?;
        }
    }
    let mut gens: BTreeMap<String, Live> = BTreeMap::new();
    let mut deferred: BTreeMap<String, &Value> = BTreeMap::new();
    let first = text(&generators[0]["name"]).to_string();
    let empty = json!({});
    for g in generators {
        let name = text(&g["name"]).to_string();
        if g.get("deferred").and_then(Value::as_bool) == Some(true) {
            deferred.insert(name, g);
            continue;
        }
        let expect = g.get("expect_construct_error").unwrap_or(&empty);
        let live = open(r, g, expect, &gens);
        gens.insert(name, live);
    }
    let case = r.case.clone();
    for (index, step) in c["steps"].as_array().unwrap().iter().enumerate() {
        r.case = format!("{case} step {index}");
        let name = step
            .get("gen")
            .map_or(first.clone(), |g| text(g).to_string());
        let expect = &step["expect"];
        let op = text(&step["op"]);
        if op == "open" {
            let live = open(r, deferred[&name], expect, &gens);
            gens.insert(name, live);
            continue;
        }
        let live = &gens[&name];
        let gen = live.gen.as_ref().expect("an open generator");
        match op {
            "next_id" => {
                let repeat = step.get("repeat").map_or(1, i64v);
                if repeat == 1 {
                    if let Some(id) = r.outcome(expect, gen.next_id()) {
                        r.eq(id.to_string(), text(&expect["id"]).to_string(), "id");
                    }
                } else {
                    let ids: Vec<i64> = (0..repeat).map(|_| gen.next_id().unwrap()).collect();
                    r.subset(expect, &summarize(&ids, live.max_sequence));
                }
            }
            "next_ids" => {
                let Ok(n) = count_of(i64v(&step["n"])) else {
                    println!("{}: step left out, a negative count", r.case);
                    continue;
                };
                let mut ids = vec![0i64; n];
                if r.outcome(expect, gen.next_ids(&mut ids)).is_some() {
                    r.subset(expect, &summarize(&ids, live.max_sequence));
                }
            }
            "stats" => {
                let s = gen.stats().unwrap();
                r.subset(
                    expect,
                    &json!({"ids_issued": s.ids_issued, "rewinds_seen": s.rewinds_seen,
                            "waits": s.waits, "waited_ns_total": s.waited_ns_total.to_string(),
                            "waited_ns_max": s.waited_ns_max.to_string(), "refusals": s.refusals,
                            "ms_borrowed": s.ms_borrowed}),
                );
            }
            "status" => {
                let s = gen.status().unwrap();
                r.subset(
                    expect,
                    &json!({"healthy": s.healthy, "wall_ms": s.wall_ms.to_string(),
                            "last_ms": s.last_ms.to_string(), "drift_ms": s.drift_ms,
                            "node_id": s.node_id}),
                );
                r.check(s.healthy == s.reason.is_empty(), || {
                    "healthy == reason empty".into()
                });
            }
            "drift" => {
                let d = gen.drift_ms().unwrap();
                r.subset(expect, &json!({"drift_ms": d}));
            }
            "close" => r.check(gen.close().is_ok(), || "close".into()),
            _ => {
                r.eq(op, "clock", "op");
                let k = live.clock.as_ref().unwrap().counters().unwrap();
                r.subset(
                    expect,
                    &json!({"reads": k.reads, "sleep_count": k.sleep_count,
                            "slept_ns": k.slept_ns.to_string(),
                            "max_sleep_ns": k.max_sleep_ns.to_string(),
                            "min_sleep_ns": k.min_sleep_ns.to_string()}),
                );
            }
        }
    }
    r.case = case;
    Ok(())
}

// ---- uuid7 ----------------------------------------------------------------------------------

fn uuid7_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    if c["op"] == "decode" {
        let expect = &c["expect"];
        let got = Uuid7::parse(text(&c["text"])).and_then(|u| Ok((u, u.fields()?)));
        if let Some((u, f)) = r.outcome(expect, got) {
            r.eq(
                u.to_string(),
                text(&expect["canonical"]).to_string(),
                "canonical",
            );
            r.eq(
                f.timestamp_ms.to_string(),
                text(&expect["timestamp_ms"]).to_string(),
                "timestamp_ms",
            );
            r.eq(f.counter, i64v(&expect["counter"]), "counter");
            r.eq(
                f.random.to_string(),
                text(&expect["random"]).to_string(),
                "random",
            );
        }
        return Ok(());
    }
    let steps = c["steps"].as_array().unwrap();
    for step in steps {
        if step["op"] != "next" {
            count_of(i64v(&step["n"]))?;
        }
    }
    let clock = ScriptedClock::new(&segments(&c["clock"])).unwrap();
    let gen = Uuid7Generator::builder()
        .mode(mode_of(text(&c["mode"]))?)
        .max_wait_ms(c["max_wait_ms"].as_f64().unwrap())
        .random_seed(i64v(&c["seed"]) as u64)
        .clock(&clock)
        .build()
        .unwrap();
    drop(clock); // the generator holds it
    for step in steps {
        let expect = &step["expect"];
        let got = if step["op"] == "next" {
            gen.next().map(|u| vec![u])
        } else {
            let mut out = vec![Uuid7::default(); count_of(i64v(&step["n"]))?];
            gen.next_many(&mut out).map(|()| out)
        };
        let Some(uuids) = r.outcome(expect, got) else {
            continue;
        };
        let texts: Vec<String> = uuids.iter().map(Uuid7::to_string).collect();
        if let Some(want) = expect.get("uuids") {
            r.eq(json!(texts), want.clone(), "uuids");
        } else {
            r.eq(texts.len() as i64, i64v(&expect["count"]), "count");
            if let (Some(first), Some(last)) = (texts.first(), texts.last()) {
                r.eq(first.as_str(), text(&expect["first"]), "first");
                r.eq(last.as_str(), text(&expect["last"]), "last");
            }
        }
    }
    Ok(())
}

// ---- arguments ------------------------------------------------------------------------------

const TYPE: Skip = Skip("a value of a type the parameter cannot hold");

fn int_arg(args: &Value, key: &str) -> Result<Option<i64>, Skip> {
    match args.get(key) {
        None => Ok(None),
        Some(v) => {
            let t = v.get("int").ok_or(TYPE)?;
            i64_of_text(text(t))
                .map(Some)
                .ok_or(Skip("an integer past i64"))
        }
    }
}

fn float_arg(args: &Value, key: &str) -> Result<Option<f64>, Skip> {
    match args.get(key) {
        None => Ok(None),
        Some(v) => match v.get("float") {
            Some(f) => Ok(f.as_f64()),
            None => Ok(int_arg(args, key)?.map(|i| i as f64)),
        },
    }
}

fn text_arg<'a>(args: &'a Value, key: &str) -> Result<Option<&'a str>, Skip> {
    match args.get(key) {
        None => Ok(None),
        Some(v) => v.get("text").map(|t| Some(text(t))).ok_or(TYPE),
    }
}

fn generator_arg_case(
    r: &mut Run,
    args: &Value,
    expect: &Value,
    clock: &ScriptedClock,
) -> Result<(), Skip> {
    let known: BTreeSet<&str> = field_names("generator").into_iter().collect();
    for key in args.as_object().unwrap().keys() {
        let ok = known.contains(key.as_str()) && key != "clock";
        r.check(ok, || {
            format!("argument '{key}' is not a vector's generator argument")
        });
    }
    let mut b = Generator::builder().clock(clock);
    if let Some(v) = text_arg(args, "layout")? {
        b = b.layout(v);
    }
    if let Some(v) = int_arg(args, "node_id")? {
        b = b.node_id(v);
    }
    if let Some(v) = int_arg(args, "datacenter_id")? {
        b = b.datacenter_id(v);
    }
    if let Some(v) = int_arg(args, "machine_id")? {
        b = b.machine_id(v);
    }
    if let Some(v) = text_arg(args, "node_source")? {
        b = b.node_source(v);
    }
    if let Some(v) = text_arg(args, "mode")? {
        b = b.mode(mode_of(v)?);
    }
    if let Some(v) = float_arg(args, "max_wait_ms")? {
        b = b.max_wait_ms(v);
    }
    if let Some(v) = int_arg(args, "max_drift_ms")? {
        b = b.max_drift_ms(v);
    }
    if let Some(g) = r.outcome(expect, b.build()) {
        let info = g.info().unwrap();
        r.eq(info.node_id, i64v(&expect["node_id"]), "node_id");
        r.eq(info.layout.as_str(), text(&expect["layout"]), "layout");
        r.eq(info.mode.as_str(), text(&expect["mode"]), "mode");
        r.eq(
            info.max_wait_ms,
            expect["max_wait_ms"].as_f64().unwrap(),
            "max_wait_ms",
        );
        r.eq(
            info.max_drift_ms,
            i64v(&expect["max_drift_ms"]),
            "max_drift_ms",
        );
    }
    Ok(())
}

fn batch_case(r: &mut Run, c: &Value, clock: &ScriptedClock) -> Result<(), Skip> {
    let (op, args, expect) = (text(&c["op"]), &c["args"], &c["expect"]);
    let n = if op == "next_ids" {
        count_of(int_arg(args, "n")?.unwrap())?
    } else {
        0
    };
    let g = Generator::builder()
        .node_id(9)
        .clock(clock)
        .build()
        .unwrap();
    let before = g.next_id().unwrap();
    if c.get("closed").and_then(Value::as_bool) == Some(true) {
        g.close().unwrap();
    }
    let issued = g.stats().unwrap().ids_issued;
    match op {
        "status" => {
            let s = g.status().unwrap();
            r.eq(s.healthy, expect["healthy"].as_bool().unwrap(), "healthy");
            r.eq(s.reason.as_str(), text(&expect["reason"]), "reason");
            return Ok(());
        }
        "close" => {
            r.check(g.close().is_ok() && g.is_closed(), || "close".into());
            return Ok(());
        }
        _ => {}
    }
    let mut ids = vec![0i64; n];
    let result = if op == "next_id" {
        g.next_id().map(|id| ids = vec![id])
    } else {
        g.next_ids(&mut ids)
    };
    if r.outcome(expect, result).is_some() {
        if op == "next_ids" {
            r.eq(ids.len() as i64, i64v(&expect["count"]), "count");
        }
        r.check(ids.iter().all(|id| *id > before), || {
            "the ids continue".into()
        });
    } else if !g.is_closed() {
        r.eq(
            g.stats().unwrap().ids_issued,
            issued,
            "nothing issued by a refused call",
        );
        r.check(g.next_id().is_ok_and(|id| id > before), || {
            "continues after a refusal".into()
        });
    }
    Ok(())
}

fn argument_case(r: &mut Run, c: &Value) -> Result<(), Skip> {
    let (op, args, expect) = (text(&c["op"]), &c["args"], &c["expect"]);
    if expect.get("error").and_then(Value::as_str) == Some("TYPE") {
        return Err(TYPE);
    }
    let clock = ScriptedClock::fixed(FROZEN_MS).unwrap();
    match op {
        "generator" => generator_arg_case(r, args, expect, &clock),
        "next_ids" | "next_id" | "status" | "close" => batch_case(r, c, &clock),
        "decode" => {
            let layout = Layout::parse(text(&args["layout"]["text"])).unwrap();
            let id = &args["id"];
            let got = if id.get("int").is_some() {
                layout.decode(int_arg(args, "id")?.unwrap())
            } else if let Some(t) = id.get("text") {
                layout.decode_text(text(t))
            } else {
                return Err(TYPE);
            };
            if let Some(d) = r.outcome(expect, got) {
                let mut want = expect.clone();
                want["timestamp_ms"] = json!(text(&expect["timestamp_ms"]));
                r.subset(&want, &decoded_json(&d));
            }
            Ok(())
        }
        "compose" => {
            let layout = Layout::parse(text(&args["layout"]["text"])).unwrap();
            let a = ComposeArgs {
                timestamp_ms: int_arg(args, "timestamp_ms")?.unwrap_or(0),
                node_id: int_arg(args, "node_id")?,
                datacenter_id: int_arg(args, "datacenter_id")?,
                machine_id: int_arg(args, "machine_id")?,
                sequence: int_arg(args, "sequence")?,
            };
            if let Some(id) = r.outcome(expect, layout.compose_fields(&a)) {
                r.eq(id.to_string(), text(&expect["id"]).to_string(), "id");
            }
            Ok(())
        }
        "layout_create" => {
            let mut b = Layout::builder();
            if let Some(v) = int_arg(args, "epoch_ms")? {
                b = b.epoch_ms(v);
            }
            if let Some(v) = int_arg(args, "timestamp_bits")? {
                b = b.timestamp_bits(v);
            }
            if let Some(v) = int_arg(args, "node_bits")? {
                b = b.node_bits(v);
            }
            if let Some(v) = int_arg(args, "datacenter_bits")? {
                b = b.datacenter_bits(v);
            }
            if let Some(v) = int_arg(args, "machine_bits")? {
                b = b.machine_bits(v);
            }
            if let Some(v) = int_arg(args, "sequence_bits")? {
                b = b.sequence_bits(v);
            }
            if let Some(l) = r.outcome(expect, b.build()) {
                r.eq(l.text(), text(&expect["text"]), "text");
            }
            Ok(())
        }
        "fields" => {
            let record = text(&args["record"]["text"]);
            // A UUIDv7 generator's records are Generator's types, which the compiler checks
            // here; the core lists their fields.
            let _: fn(&Uuid7Generator) -> Result<snowfleet::Stats, Error> = Uuid7Generator::stats;
            let _: fn(&Uuid7Generator) -> Result<snowfleet::Status, Error> = Uuid7Generator::status;
            let record = match record {
                "stats" | "uuid7_stats" => "stats",
                "status" | "uuid7_status" => "status",
                "layout" => "layout",
                "generator_args" => "generator",
                other => {
                    r.check(false, || format!("unknown record {other}"));
                    return Ok(());
                }
            };
            r.eq(json!(field_names(record)), expect["names"].clone(), "names");
            Ok(())
        }
        _ => {
            r.check(false, || format!("unknown op {op}"));
            Ok(())
        }
    }
}

// ---- the files ------------------------------------------------------------------------------

type CaseFn = fn(&mut Run, &Value) -> Result<(), Skip>;

#[test]
fn every_conformance_vector() {
    let files: BTreeMap<&str, (&str, CaseFn)> = BTreeMap::from([
        ("arguments.json", ("arguments", argument_case as CaseFn)),
        ("codec.json", ("codec", codec_case)),
        ("layout.json", ("layout", layout_case)),
        ("range.json", ("range", range_case)),
        ("scenarios.json", ("scenario", scenario_case)),
        ("text.json", ("text", text_case)),
        ("time.json", ("time", time_case)),
        ("uuid7.json", ("uuid7", uuid7_case)),
    ]);
    let mut r = Run::default();
    for entry in std::fs::read_dir(VECTORS).expect("conformance/vectors") {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".json") && !files.contains_key(name.as_str()) {
            r.failures.push(format!("{name} has no runner here"));
        }
    }
    let (mut ran, mut passed) = (0, 0);
    let mut skipped: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (name, (kind, run)) in &files {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{VECTORS}/{name}")).unwrap())
                .unwrap();
        assert_eq!(doc["schema_version"], 1, "{name}");
        assert_eq!(doc["kind"], *kind, "{name}");
        let (mut file_ran, mut file_passed, mut file_skipped) = (0, 0, 0);
        for c in doc["cases"].as_array().unwrap() {
            r.case = text(&c["id"]).to_string();
            r.case_ok = true;
            match run(&mut r, c) {
                Err(Skip(why)) => {
                    file_skipped += 1;
                    skipped.entry(why).or_default().push(r.case.clone());
                }
                Ok(()) => {
                    file_ran += 1;
                    file_passed += r.case_ok as i32;
                }
            }
        }
        println!(
            "{name:<15} {file_passed:>3} cases passed of {file_ran:>3} run ({file_skipped} skipped: not expressible in Rust)"
        );
        ran += file_ran;
        passed += file_passed;
    }
    for (why, cases) in &skipped {
        println!("skipped, {why}: {}", cases.join(", "));
    }
    let total_skipped: usize = skipped.values().map(Vec::len).sum();
    println!(
        "Rust: {passed} of {ran} cases passed, {total_skipped} skipped, {} failed checks",
        r.failures.len()
    );
    assert!(r.failures.is_empty(), "{}", r.failures.join("\n"));
    assert_eq!(passed, ran);
}
