'use strict';
// Memory stays flat across generator lifetimes: in worker_threads that come and go, and in
// one thread that makes and drops generators (closed or not) for the GC to collect.
//
// Each case runs in a child process started with --expose-gc, warms up first (V8's heap
// and the allocator's arenas grow to their working size during the first rounds, then stay
// there), and only then takes the baseline RSS. Generators reuse 64 node ids: state the
// core keeps per id space is bounded by those, not by the number of generators. The bounds
// are generous against the growth measured on a flat build (2-6 MB); a leak of 275 bytes per
// generator, built in on purpose, made the two cases grow by 34 MB and 20 MB.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ENTRY = path.join(__dirname, '..', 'index.js');
const MB = 1024 * 1024;

/** Runs `body` (an async function body) in a fresh node with `flags`; returns its JSON result. */
function runChild(flags, body) {
  const script = `
    const sf = require(${JSON.stringify(ENTRY)});
    const settle = async () => {
      // Node runs N-API finalizers on the event loop after the GC that found the object
      // dead, so collect, let them run, and collect what they released.
      for (let k = 0; k < 3; k++) { gc(); await new Promise((r) => setTimeout(r, 10)); }
    };
    const rss = () => process.memoryUsage().rss;
    (async () => { ${body} })().then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });`;
  const r = spawnSync(process.execPath, ['--expose-gc', ...flags, '-e', script], {
    encoding: 'utf8',
    timeout: 300000,
  });
  assert.equal(r.status, 0, `child exited ${r.status} ${r.signal || ''}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const fmt = (bytes) => `${(bytes / MB).toFixed(1)} MB`;

test('workers that make generators and exit leave the parent RSS flat', (t) => {
  const WORKERS = 100;
  const GENERATORS = 1000;
  const WARMUP = 12;
  // One worker at a time: workers running side by side leave what they freed cached in
  // their threads' malloc arenas, so the parent's RSS then grows with the concurrency
  // (bounded, the same with no generator at all), which would hide a leak.
  // Per worker: every generator mints; half are closed; half are still reachable when the
  // worker ends (some only through a detached nextIdString), the rest are garbage by then,
  // some collected with their finalizers still queued. Workers end the three ways an
  // environment is torn down: the script returns, process.exit(), terminate() mid-call.
  const r = runChild([], `
    const { Worker } = require('node:worker_threads');
    const source = \`
      const { parentPort, workerData: d } = require('node:worker_threads');
      const sf = require(d.entry);
      const kept = [];
      for (let i = 0; i < d.generators; i++) {
        const g = new sf.Generator({ nodeId: i % 64 });
        g.nextId();
        if (i % 2) g.close();
        if (i % 4 < 2) kept.push(i % 8 ? g : g.nextIdString);
      }
      if (d.end === 'exit') process.exit(0);
      if (d.end === 'terminate') {
        const g = new sf.Generator({ nodeId: 63, mode: 'monotonic', maxDriftMs: 86400000 });
        parentPort.postMessage('minting');
        for (;;) g.nextId();
      }\`;
    const ENDS = ['return', 'exit', 'terminate'];
    let started = 0;
    const run = () => new Promise((resolve, reject) => {
      const end = ENDS[started++ % ENDS.length];
      const w = new Worker(source, { eval: true, workerData: { entry: ${JSON.stringify(ENTRY)}, generators: ${GENERATORS}, end } });
      w.on('message', () => w.terminate());
      w.on('error', reject);
      w.on('exit', (code) => (code === (end === 'terminate' ? 1 : 0) ? resolve() : reject(new Error(end + ': worker exited ' + code))));
    });
    sf.decode(new sf.Generator({ nodeId: 1 }).nextId());  // the main thread holds an instance too
    for (let i = 0; i < ${WARMUP}; i++) await run();
    await settle();
    const before = rss();
    for (let i = 0; i < ${WORKERS}; i++) await run();
    await settle();
    return { before, after: rss() };`);
  const growth = r.after - r.before;
  const perGenerator = growth / (WORKERS * GENERATORS);
  t.diagnostic(`${WORKERS} workers x ${GENERATORS} generators: parent RSS ${fmt(r.before)} -> ` +
    `${fmt(r.after)} (${growth >= 0 ? '+' : ''}${fmt(growth)}, ${perGenerator.toFixed(1)} B per generator)`);
  assert.ok(growth < 12 * MB, `parent RSS grew by ${fmt(growth)} over ${WORKERS} worker lifetimes`);
});

test('generator lifetimes in one thread leave RSS flat, closed or left to the GC', (t) => {
  const LIFETIMES = 20000;  // per variant: all closed, none closed, half closed
  const WARMUP_ROUNDS = 3;
  // A 1 MB young generation keeps V8's own heap from growing during the measurement, so the
  // RSS figures show native memory. A turn of the event loop every 100 generators lets the
  // finalizers of those already collected run, as in a program that does anything else.
  const r = runChild(['--max-semi-space-size=1'], `
    const lifetimes = async (close) => {
      for (let i = 0; i < ${LIFETIMES}; i++) {
        const g = new sf.Generator({ nodeId: i % 64 });
        g.nextId();
        if (close === 'all' || (close === 'half' && i % 2)) g.close();
        if (i % 100 === 99) await new Promise((r) => setImmediate(r));
      }
    };
    for (let i = 0; i < ${WARMUP_ROUNDS}; i++) await lifetimes('half');
    await settle();
    const before = rss(), heapBefore = process.memoryUsage().heapUsed;
    const after = {};
    for (const close of ['all', 'none', 'half']) {
      await lifetimes(close);
      await settle();
      after[close] = rss();
    }
    return { before, after, heapGrowth: process.memoryUsage().heapUsed - heapBefore };`);
  const rounds = Object.entries(r.after).map(([close, rss]) => `close ${close}: ${fmt(rss)}`);
  const growth = Math.max(...Object.values(r.after)) - r.before;
  t.diagnostic(`RSS ${fmt(r.before)}, then after ${LIFETIMES} lifetimes each with ${rounds.join(', ')} ` +
    `(max +${fmt(growth)}); JS heap ${r.heapGrowth >= 0 ? '+' : ''}${fmt(r.heapGrowth)}`);
  assert.ok(growth < 10 * MB, `RSS grew by ${fmt(growth)} over ${3 * LIFETIMES} generator lifetimes`);
  assert.ok(r.heapGrowth < 1 * MB, `the JS heap grew by ${fmt(r.heapGrowth)}`);
});
