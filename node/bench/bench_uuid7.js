'use strict';
// snowfleet's UUIDv7 (Node) against `uuid`'s v7(), in the same process.
//
//   npm ci && npm run compile && node node/bench/bench_uuid7.js [--reps 7] [--json FILE]
//
// --json FILE also writes the rows in the bench JSON form that bench/chart.py reads.
//
// Rows run interleaved round-robin, each with its own loop function (a monomorphic call
// site); the table shows the median ns per UUID and the ratio to uuid's v7(). Target (issue
// 13): 10x faster than v7().
//
// 2026-12-03, node v20.20.2, 2 cores shared with other builds (load ~8, so every figure is
// inflated and ratios moved between runs): v7() 1,802 ns; nextUuid7() 154 ns (x11.7; x7.9 and
// x9.9 in two side-by-side runs); nextUuid7Bytes() 191 ns (x9.5); nextUuid7s(1000) 66 ns per
// UUID (x27.4; x12.0 and x18.6). A single call's floor under N-API, a native function that
// only returns a fixed 36-character Latin-1 string, took 44-91 ns in those runs (x20-x36 of
// v7()): the call and the string are most of nextUuid7(), the core's part ~30 ns (the C++
// bench's BM_Uuid7Next). Reaching 10x reliably needs the batch form.
const sf = require('../index.js');
const { v7 } = require('uuid');

const reps = Number(process.argv[process.argv.indexOf('--reps') + 1]) || 7;
const N = 300_000;
const gen = new sf.Uuid7Generator({ mode: 'monotonic', maxDriftMs: 86_400_000 });
const { nextUuid7, nextUuid7Bytes, nextUuid7s } = gen;

let sink;
const rows = {
  'uuid v7() (string)': () => { for (let i = 0; i < N; i++) sink = v7(); },
  'snowfleet nextUuid7() (string)': () => { for (let i = 0; i < N; i++) sink = nextUuid7(); },
  'snowfleet nextUuid7Bytes() (Uint8Array)': () => { for (let i = 0; i < N; i++) sink = nextUuid7Bytes(); },
  'snowfleet nextUuid7s(1000) (strings)': () => { for (let i = 0; i < N / 1000; i++) sink = nextUuid7s(1000); },
};

const times = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
for (const fn of Object.values(rows)) fn(); // warm-up
for (let r = 0; r < reps; r++) {
  for (const [name, fn] of Object.entries(rows)) {
    const t0 = process.hrtime.bigint();
    fn();
    times[name].push(Number(process.hrtime.bigint() - t0) / N);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const peer = median(times['uuid v7() (string)']);
console.log(`ns per UUID, median of ${reps} reps of ${N.toLocaleString()} (ratio: uuid v7() / row)`);
for (const [name, t] of Object.entries(times)) {
  console.log(`  ${name.padEnd(42)} ${median(t).toFixed(1).padStart(8)}   x${(peer / median(t)).toFixed(2)}`);
}
const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0) {
  const rowsOut = Object.entries(times).map(([name, t]) => ({
    key: name,
    label: name.replace(/^snowfleet /, ''),
    group: name.startsWith('snowfleet ') ? 'snowfleet' : 'peer',
    family: 'uuid7',
    ns_per_id: median(t),
    samples: t,
  }));
  const doc = {
    schema: 'snowfleet-bench/1',
    language: 'Node',
    runtime: `node ${process.version}`,
    command: `node node/bench/bench_uuid7.js --reps ${reps}`,
    rows: rowsOut,
  };
  require('node:fs').writeFileSync(process.argv[jsonAt + 1], `${JSON.stringify(doc, null, 2)}\n`);
}
void sink;
