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
