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
// 2026-12-03, node v20.20.2, 2 cores shared with other engineers' jobs (load 2.5-3):
// v7() 681 ns; nextUuid7() 98.5 ns (x6.9); nextUuid7Bytes() 124 ns (x5.5); nextUuid7s(1000)
// 55 ns per UUID (x12.4). In two side-by-side runs against main's addon (load ~3): nextUuid7()
// 117 -> 88 and 125 -> 96 ns (x5.4 -> x7.1, x5.8 -> x7.5), nextUuid7s(1000) 171 -> 53 and
// 166 -> 50 ns (x3.7 -> x11.8, x4.4 -> x14.4). The floor of a single call under N-API, a
// native function that only returns a fixed 36-character Latin-1 string, took 51.6 and 51.2
// ns in those runs (x12.1, x14.1): 10x needs a whole UUID within ~11 ns of that floor, and
// the core's part (clock read, CAS, ChaCha20, format) is ~30 ns (C++ BM_Uuid7Next). A single
// call cannot reach 10x under N-API; the batch does.
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
