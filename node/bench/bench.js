'use strict';
// snowfleet (Node) against its npm peers, measured in the same process, with reference rows
// for a bare N-API call returning a BigInt and for a clock read.
//
//   npm ci && npm run compile:hooks && node node/bench/bench.js [--reps 7] [--json FILE]
//
// --json FILE also writes the speed rows (median ns per id, samples) and the burst and rewind
// results in the bench JSON form that bench/chart.py reads (its docstring describes it).
//
// The reference rows (a bare N-API call, the core's C++ loop) come from the test-only addon
// build/Release/snowfleet_test_hooks.node (node/bench/hooks.cc), which `npm run
// compile:hooks` builds beside the shipped one; the package never carries it.
//
// Speed: every row runs `reps` times, rows interleaved round-robin so machine noise hits
// them alike; the table shows the median ns per call and the ratio to snowfleet's
// monotonic nextId(). Each row has its own loop function so its call site stays
// monomorphic, as in an application.
//
// Correctness, same process:
//   burst  - 1,000,000 ids as fast as each library mints them on the real clock: how many
//            duplicates and how many throws.
//   rewind - the reference's section 8 fault: the clock advances 1 ms every 4 reads, steps back
//            300 ms after 4,000 reads, and walks forward again; 8,000 calls. JS peers see it
//            through Date.now, snowfleet through testing.ScriptedClock with the same script.
//
// Monotonic mode borrows future milliseconds when a millisecond's 4,096 sequence values run
// out and never runs more than maxDriftMs (default 1000) ahead of the wall clock, so a
// sustained rate is capped at 4,096 ids/ms per node id like strict mode; the per-call rows
// stay inside that budget (a few million ids in total) and measure the call itself.
const path = require('node:path');
const sf = require('../index.js');

let hooks;
try {
  hooks = require(path.join(__dirname, '..', '..', 'build', 'Release', 'snowfleet_test_hooks.node'));
} catch (e) {
  console.error(`the reference rows need the test-only addon: run \`npm run compile:hooks\` first (${e.message})`);
  process.exit(2);
}
const { Snowflake: Sapphire } = require('@sapphire/snowflake');
const { Snowflake: NodejsSnowflake } = require('nodejs-snowflake');
const FlakeId = require('flake-idgen');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const REPS = opt('reps', 7);
const JSON_OUT = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const EPOCH = 1704067200000;

const now = () => process.hrtime.bigint();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- speed rows: each `run(n)` makes n calls and returns how many ids it produced --------

const mono = new sf.Generator({ nodeId: 1, mode: 'monotonic' });
const monoStr = new sf.Generator({ nodeId: 2, mode: 'monotonic' });
const monoBatch = new sf.Generator({ nodeId: 3, mode: 'monotonic' });
const strict = new sf.Generator({ nodeId: 4 });
const sapphire = new Sapphire(EPOCH);
const nodejsSnowflake = new NodejsSnowflake({ custom_epoch: EPOCH, instance_id: 5 });
const flake = new FlakeId({ id: 6, epoch: EPOCH });
let sink;
let flakeThrows = 0;

const ROWS = [
  {
    name: 'snowfleet monotonic nextId() -> bigint',
    key: 'mono',
    n: 200000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = mono.nextId();
      sink = x;
      return n;
    },
  },
  {
    name: 'snowfleet monotonic nextIdString() -> string',
    key: 'monoString',
    n: 200000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = monoStr.nextIdString();
      sink = x;
      return n;
    },
  },
  {
    name: 'snowfleet monotonic nextIds(10000), per id',
    key: 'batch',
    n: 20,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = monoBatch.nextIds(10000);
      sink = x;
      return n * 10000;
    },
  },
  {
    name: 'snowfleet strict nextId() -> bigint (4,096 ids/ms cap)',
    key: 'strict',
    n: 1000000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = strict.nextId();
      sink = x;
      return n;
    },
  },
  {
    name: '@sapphire/snowflake generate() -> bigint',
    key: 'sapphire',
    peer: true,
    n: 200000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = sapphire.generate();
      sink = x;
      return n;
    },
  },
  {
    name: 'nodejs-snowflake getUniqueID() -> bigint',
    key: 'nodejsSnowflake',
    peer: true,
    n: 50000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = nodejsSnowflake.getUniqueID();
      sink = x;
      return n;
    },
  },
  {
    name: 'flake-idgen next() -> Buffer (throws on overflow)',
    key: 'flake',
    peer: true,
    n: 200000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) {
        try {
          x = flake.next();
        } catch {
          flakeThrows++;
        }
      }
      sink = x;
      return n;
    },
  },
  {
    name: 'reference: core C++ loop, strict next_id()',
    key: 'coreStrict',
    ref: true,
    direct: true, // run() returns ns per id measured in C++
    n: 1000000,
    run(n) {
      return hooks.coreLoop('strict', n);
    },
  },
  {
    name: 'reference: core C++ loop, monotonic next_id()',
    key: 'coreMono',
    ref: true,
    direct: true,
    n: 200000,
    run(n) {
      return hooks.coreLoop('monotonic', n);
    },
  },
  {
    name: 'reference: bare N-API call returning a BigInt',
    key: 'bare',
    ref: true,
    n: 200000,
    run(n) {
      const f = hooks.bareBigInt;
      let x;
      for (let i = 0; i < n; i++) x = f();
      sink = x;
      return n;
    },
  },
  {
    name: 'reference: process.hrtime.bigint()',
    key: 'hrtime',
    ref: true,
    n: 200000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = process.hrtime.bigint();
      sink = x;
      return n;
    },
  },
  {
    name: 'reference: Date.now()',
    key: 'datenow',
    ref: true,
    n: 200000,
    run(n) {
      let x;
      for (let i = 0; i < n; i++) x = Date.now();
      sink = x;
      return n;
    },
  },
];

function speed() {
  const samples = new Map(ROWS.map((r) => [r.key, []]));
  for (const r of ROWS) r.run(Math.max(1, Math.floor(r.n / 10))); // warm up the JIT
  for (let rep = 0; rep < REPS; rep++) {
    for (const r of ROWS) {
      const t0 = now();
      const res = r.run(r.n);
      const dt = Number(now() - t0);
      samples.get(r.key).push(r.direct ? res : dt / res);
    }
  }
  const medians = {};
  for (const r of ROWS) medians[r.key] = median(samples.get(r.key));
  return { medians, samples };
}

// ---- correctness under a burst ----------------------------------------------------------

function burst(name, mint, toBig = (x) => x) {
  // Mint first (nothing else in the loop, so each library runs at its full speed), count
  // duplicates afterwards.
  const N = 1000000;
  const out = new Array(N);
  let throws = 0;
  let minted = 0;
  for (let i = 0; i < N; i++) {
    try {
      out[minted] = mint();
      minted++;
    } catch {
      throws++;
    }
  }
  const seen = new Set();
  for (let i = 0; i < minted; i++) seen.add(toBig(out[i]));
  return { name, calls: N, duplicates: minted - seen.size, throws };
}

function bursts() {
  const flakeBurst = new FlakeId({ id: 16, epoch: EPOCH });
  const sap = new Sapphire(EPOCH);
  const ns = new NodejsSnowflake({ custom_epoch: EPOCH, instance_id: 15 });
  const st = new sf.Generator({ nodeId: 11 });
  const mo = new sf.Generator({ nodeId: 12, mode: 'monotonic' });
  return [
    burst('snowfleet strict nextId()', () => st.nextId()),
    burst('snowfleet monotonic nextId()', () => mo.nextId()),
    burst('@sapphire/snowflake generate()', () => sap.generate()),
    burst('nodejs-snowflake getUniqueID()', () => ns.getUniqueID()),
    burst('flake-idgen next()', () => flakeBurst.next(), (b) => b.readBigUInt64BE(0)),
  ];
}

// ---- correctness under a rewind ---------------------------------------------------------

const T0 = 1737747358021;
const PER_MS = 4;
const STEP_AFTER = 4000;
const BACK_MS = 300;
const CALLS = 8000;
/** Where the clock lands: BACK_MS behind the last reading before the step. */
const T_BACK = T0 + STEP_AFTER / PER_MS - 1 - BACK_MS;

/** Date.now replaced by the scripted sequence while fn runs. */
function withScriptedDateNow(fn) {
  const real = Date.now;
  let reads = 0;
  Date.now = () => {
    const k = reads++;
    return k < STEP_AFTER ? T0 + Math.floor(k / PER_MS) : T_BACK + Math.floor((k - STEP_AFTER) / PER_MS);
  };
  try {
    return fn();
  } finally {
    Date.now = real;
  }
}

function rewindRun(name, mint, toBig = (x) => x) {
  const seen = new Set();
  let throws = 0;
  let backwards = 0;
  let last = -1n;
  let firstError = '';
  for (let i = 0; i < CALLS; i++) {
    let id;
    try {
      id = toBig(mint());
    } catch (e) {
      throws++;
      if (!firstError) firstError = `${e.name}: ${e.message}`.slice(0, 70);
      continue;
    }
    if (id <= last) backwards++;
    last = id > last ? id : last;
    seen.add(id);
  }
  return { name, minted: CALLS - throws, duplicates: CALLS - throws - seen.size, backwards, throws, firstError };
}

function rewinds() {
  const script = () =>
    new sf.testing.ScriptedClock([
      { ms: T0, count: STEP_AFTER, stepMs: 1, every: PER_MS },
      { ms: T_BACK, stepMs: 1, every: PER_MS },
    ]);
  const st = new sf.Generator({ nodeId: 21, clock: script() });
  const mo = new sf.Generator({ nodeId: 22, mode: 'monotonic', clock: script() });
  const rows = [rewindRun('snowfleet strict', () => st.nextId()), rewindRun('snowfleet monotonic', () => mo.nextId())];
  rows.push(withScriptedDateNow(() => {
    const sap = new Sapphire(EPOCH);
    return rewindRun('@sapphire/snowflake', () => sap.generate());
  }));
  rows.push(withScriptedDateNow(() => {
    const ns = new NodejsSnowflake({ custom_epoch: EPOCH, instance_id: 25 });
    return rewindRun('nodejs-snowflake', () => ns.getUniqueID());
  }));
  rows.push(withScriptedDateNow(() => {
    const f = new FlakeId({ id: 26, epoch: EPOCH });
    return rewindRun('flake-idgen', () => f.next(), (b) => b.readBigUInt64BE(0));
  }));
  return rows;
}

// ---- report -----------------------------------------------------------------------------

/** The bench JSON form (bench/chart.py): one row per speed row, ns per id as its median. */
function writeJson(file, m, samples, burstRows, rewindRows) {
  const rows = ROWS.map((r) => ({
    key: r.key,
    label: r.name.replace(/^(snowfleet |reference: )/, ''),
    group: r.peer ? 'peer' : r.ref ? 'reference' : 'snowfleet',
    family: 'snowflake',
    ns_per_id: m[r.key],
    samples: samples.get(r.key),
  }));
  const doc = {
    schema: 'snowfleet-bench/1',
    language: 'Node',
    runtime: `node ${process.version}`,
    command: `node node/bench/bench.js --reps ${REPS}`,
    rows,
    burst: burstRows,
    rewind: rewindRows,
  };
  require('node:fs').writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}

function main() {
  const os = require('node:os');
  console.log(`snowfleet Node bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0].model}), load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`speed: median of ${REPS} interleaved runs per row\n`);
  const { medians: m, samples } = speed();
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  console.log(`${pad('row', 58)}${lpad('ns/call', 10)}${lpad('ids/s', 14)}${lpad('vs snowfleet', 14)}`);
  for (const r of ROWS) {
    const ns = m[r.key];
    const ratio = r.key === 'mono' ? '1.00x' : `${(ns / m.mono).toFixed(2)}x`;
    console.log(`${pad(r.name, 58)}${lpad(ns.toFixed(1), 10)}${lpad(Math.round(1e9 / ns).toLocaleString('en-US'), 14)}${lpad(ratio, 14)}`);
  }
  if (flakeThrows) console.log(`(flake-idgen threw on ${flakeThrows.toLocaleString('en-US')} of its timed calls: sequence overflow)`);

  console.log('\nburst: 1,000,000 calls as fast as possible on the real clock');
  console.log(`${pad('library', 36)}${lpad('duplicates', 12)}${lpad('throws', 10)}`);
  const b = bursts();
  for (const r of b) console.log(`${pad(r.name, 36)}${lpad(r.duplicates.toLocaleString('en-US'), 12)}${lpad(r.throws.toLocaleString('en-US'), 10)}`);

  console.log(`\nrewind: clock +1 ms every ${PER_MS} reads, steps back ${BACK_MS} ms after ${STEP_AFTER} reads; ${CALLS} calls`);
  console.log(`${pad('library', 22)}${lpad('minted', 8)}${lpad('dups', 6)}${lpad('not >last', 11)}${lpad('throws', 8)}  first error`);
  const rw = rewinds();
  for (const r of rw) {
    console.log(`${pad(r.name, 22)}${lpad(r.minted, 8)}${lpad(r.duplicates, 6)}${lpad(r.backwards, 11)}${lpad(r.throws, 8)}  ${r.firstError}`);
  }

  const peers = ROWS.filter((r) => r.peer);
  const checks = [
    [`strict nextId() >= 4.0M ids/s`, 1e9 / m.strict >= 4.0e6, `${(1e9 / m.strict / 1e6).toFixed(2)}M ids/s (the core's own C++ loop: ${(1e9 / m.coreStrict / 1e6).toFixed(2)}M ids/s)`],
    [`monotonic nextId() <= 75 ns`, m.mono <= 75, `${m.mono.toFixed(1)} ns (${(m.mono / m.bare).toFixed(2)}x the bare N-API BigInt call)`],
    [`monotonic nextIdString() <= 140 ns`, m.monoString <= 140, `${m.monoString.toFixed(1)} ns`],
    [`nextIds(10000) <= 5 ns/id`, m.batch <= 5, `${m.batch.toFixed(2)} ns/id`],
    [
      `monotonic nextId() faster than every peer`,
      peers.every((p) => m[p.key] > m.mono),
      peers.map((p) => `${p.key} ${(m[p.key] / m.mono).toFixed(2)}x`).join(', '),
    ],
    [
      `only snowfleet has no duplicate under burst and rewind`,
      b.filter((r) => r.name.startsWith('snowfleet')).every((r) => r.duplicates === 0) &&
        rw.filter((r) => r.name.startsWith('snowfleet')).every((r) => r.duplicates === 0 && r.backwards === 0),
      '',
    ],
  ];
  console.log('\ntargets');
  for (const [what, ok, detail] of checks) console.log(`  ${ok ? 'met    ' : 'NOT MET'}  ${what}  ${detail}`);
  if (JSON_OUT) writeJson(JSON_OUT, m, samples, b, rw);
  void sink;
}

main();
