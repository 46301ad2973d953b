'use strict';
// The addon keeps its state per environment (Napi::Addon instance data): it must load and
// mint in several worker_threads at once, each with its own Error classes.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const sf = require('../index.js');

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sf = require(workerData.entry);
const g = new sf.Generator({ nodeId: workerData.nodeId, mode: workerData.mode });
const ids = [];
for (let i = 0; i < 5000; i++) ids.push(g.nextIdString());
for (const id of g.nextIds(5000)) ids.push(id.toString());
let errorOk = false;
try { sf.decode(-1n); } catch (e) {
  errorOk = e instanceof sf.InvalidArgument && e instanceof RangeError && e instanceof sf.SnowfleetError && e.code === 'INVALID_ARGUMENT';
}
g.nextIdsAsync(5000).then((a) => {
  for (const id of a) ids.push(id.toString());
  parentPort.postMessage({ ids, errorOk, nodeId: sf.decode(ids[0]).nodeId });
});
`;

function runWorker(nodeId, mode) {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry: path.join(__dirname, '..', 'index.js'), nodeId, mode } });
    let msg;
    w.on('message', (m) => (msg = m));
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 && msg ? resolve(msg) : reject(new Error(`worker exited ${code}`))));
  });
}

test('loads and mints in four workers at once, plus the main thread', async () => {
  const main = new sf.Generator({ nodeId: 100 });
  const runs = Promise.all([runWorker(1, 'strict'), runWorker(2, 'monotonic'), runWorker(3, 'strict'), runWorker(4, 'monotonic')]);
  const mainIds = Array.from(main.nextIds(5000), String);
  const results = await runs;
  const all = new Set(mainIds);
  results.forEach((r, i) => {
    assert.equal(r.errorOk, true, 'worker-local error classes work');
    assert.equal(r.nodeId, i + 1);
    assert.equal(r.ids.length, 15000);
    for (const id of r.ids) all.add(id);
  });
  assert.equal(all.size, 5000 + 4 * 15000, 'no duplicate across threads with distinct node ids');
  // The main thread's instance is untouched by the workers coming and going.
  assert.throws(() => sf.decode(-1n), sf.InvalidArgument);
  assert.ok(main.nextId() > BigInt(mainIds[mainIds.length - 1]));
});

// Two workers that each make their own generator for one node id: the core gives both one
// state word (same process, layout and system clock), so they cannot mint the same id.
const SAME_NODE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sf = require(workerData.entry);
const g = new sf.Generator({ nodeId: workerData.nodeId });
const gate = new Int32Array(workerData.gate);
Atomics.add(gate, 0, 1);
while (Atomics.load(gate, 0) < workerData.workers) {}  // start together
const ids = new BigInt64Array(workerData.rounds * 1100);
let n = 0;
for (let r = 0; r < workerData.rounds; r++) {
  ids.set(g.nextIds(1000), n); n += 1000;
  for (let i = 0; i < 100; i++) ids[n++] = g.nextId();
}
parentPort.postMessage({ ids, issued: g.stats().idsIssued });
`;

test('two worker_threads with generators of the same node id mint no duplicate', async () => {
  const entry = path.join(__dirname, '..', 'index.js');
  const gate = new SharedArrayBuffer(4);
  const rounds = 100;
  const run = () => new Promise((resolve, reject) => {
    const w = new Worker(SAME_NODE_SOURCE, { eval: true, workerData: { entry, nodeId: 44, gate, workers: 2, rounds } });
    let msg;
    w.on('message', (m) => (msg = m));
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 && msg ? resolve(msg) : reject(new Error(`worker exited ${code}`))));
  });
  const results = await Promise.all([run(), run()]);
  const all = new Set();
  for (const r of results) {
    assert.equal(r.issued, rounds * 1100);
    for (let i = 1; i < r.ids.length; i++) assert.ok(r.ids[i] > r.ids[i - 1], 'each worker sees its ids ascending');
    for (const id of r.ids) all.add(id);
  }
  assert.equal(all.size, 2 * rounds * 1100, 'no id minted twice across the two workers');
  // In one thread too: two generators of one node id alternate within one sequence.
  const a = new sf.Generator({ nodeId: 44 });
  const b = new sf.Generator({ nodeId: 44 });
  const x = a.nextId(), y = b.nextId(), z = a.nextId();
  assert.ok(x < y && y < z, 'two generators of one node id mint one ascending sequence');
});

test('workers can be started again after earlier ones exited', async () => {
  for (let round = 0; round < 3; round++) {
    const r = await runWorker(7, 'strict');
    assert.equal(r.ids.length, 15000);
  }
});

test('terminating workers with batches in flight on the threadpool, or inside tight sync loops, does not crash the process', async () => {
  // Each child process starts workers that leave nextIdsAsync work pending (and others
  // spinning in nextId / throwing calls), then terminates them. Before
  // NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS the promise settlement in a terminating
  // environment aborted the whole process.
  const { spawnSync } = require('node:child_process');
  const entry = JSON.stringify(path.join(__dirname, '..', 'index.js'));
  const script = `
    const { Worker } = require('node:worker_threads');
    let done = 0; const N = 8;
    for (let i = 0; i < N; i++) {
      const body = i % 2
        ? "for (let k = 0; k < 4; k++) g.nextIdsAsync(2000000); parentPort.postMessage('go');"
        : "parentPort.postMessage('go'); for (;;) { g.nextId(); g.nextIds(100); try { c.nextId(); } catch {} }";
      const w = new Worker(\`
        const { parentPort } = require('node:worker_threads');
        const sf = require(${entry.replace(/\\/g, '\\\\')});
        const g = new sf.Generator({ nodeId: \${i}, mode: 'monotonic', maxDriftMs: 86400000 });
        const c = new sf.Generator({ nodeId: \${i} }); c.close();
        \${body}\`, { eval: true });
      w.on('message', () => setTimeout(() => w.terminate(), i));
      w.on('exit', () => { if (++done === N) console.log('ok'); });
    }`;
  for (let round = 0; round < 3; round++) {
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, `round ${round}: exit ${r.status} ${r.signal || ''}\n${r.stderr}`);
    assert.equal(r.stdout.trim(), 'ok');
  }
});
