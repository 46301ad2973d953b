'use strict';
// Uuid7Generator: the host forms, 10 M UUIDs strictly increasing, worker threads sharing
// none, and decodeUuid7's refusals.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Worker } = require('node:worker_threads');
const sf = require('../index.js');

const T = 1764720000000;

test('the string and byte forms are one UUID, pinned by a scripted clock and random source', () => {
  const make = () => new sf.Uuid7Generator({ clock: new sf.testing.ScriptedClock(T), randomSeed: 1n });
  const text = make().nextUuid7();
  assert.equal(text, '019ae182-3c00-7486-9fd0-a2eefb32555e'); // conformance uuid7.frozen
  const bytes = make().nextUuid7Bytes();
  assert.ok(bytes instanceof Uint8Array && bytes.length === 16);
  assert.equal(Buffer.from(bytes).toString('hex'), text.replaceAll('-', ''));
  assert.deepEqual(sf.decodeUuid7(bytes), sf.decodeUuid7(text));
  assert.equal(sf.decodeUuid7(text).timestampMs, T);
});

test('nextUuid7s(n): n canonical UUIDs across its 1,024-UUID chunks, as the scripted ones', () => {
  const make = () => new sf.Uuid7Generator({ clock: new sf.testing.ScriptedClock(T), randomSeed: 7n });
  for (const n of [0, 1, 1023, 1024, 1025, 3000]) {
    const batch = make().nextUuid7s(n);
    assert.equal(batch.length, n);
    const one = make();
    const single = Array.from({ length: n }, () => one.nextUuid7());
    assert.deepEqual(batch, single, `n=${n}`); // the same UUIDs as n single calls
    for (const u of batch) assert.match(u, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  const gen = new sf.Uuid7Generator();
  assert.throws(() => gen.nextUuid7s(2 ** 24 + 1), { name: 'InvalidArgument', message: /16777217/ });
  assert.throws(() => gen.nextUuid7s('3'), { code: 'ERR_INVALID_ARG_TYPE' });
});

test('10 M UUIDs are strictly increasing', () => {
  const gen = new sf.Uuid7Generator({ mode: 'monotonic' });
  let last = '';
  let notIncreasing = 0;
  for (let round = 0; round < 100; round++) {
    for (const u of gen.nextUuid7s(100_000)) {
      if (!(last < u)) notIncreasing++;
      last = u;
    }
  }
  assert.equal(notIncreasing, 0);
});

test('worker threads share no UUID', async () => {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const sf = require(${JSON.stringify(require.resolve('../index.js'))});
    const gen = new sf.Uuid7Generator();
    const out = [];
    for (let i = 0; i < 100000; i++) out.push(gen.nextUuid7());
    parentPort.postMessage(out.concat(gen.nextUuid7s(150000)));`;
  const results = await Promise.all([0, 1, 2, 3].map(() => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once('message', resolve);
    w.once('error', reject);
  })));
  for (const list of results) {
    assert.equal(list.filter((u, i) => i > 0 && !(list[i - 1] < u)).length, 0);
  }
  const all = results.flat();
  assert.equal(new Set(all).size, all.length);
  assert.equal(all.length, 1_000_000);
});

test('bad input is refused naming the value', () => {
  assert.throws(() => sf.decodeUuid7('550e8400-e29b-41d4-a716-446655440000'),
    { name: 'InvalidArgument', message: /550e8400-e29b-41d4-a716-446655440000 has version 4/ });
  assert.throws(() => sf.decodeUuid7('nope'), { name: 'InvalidArgument', message: /'nope'/ });
  assert.throws(() => sf.decodeUuid7(new Uint8Array(3)), { name: 'InvalidArgument', message: /got 3/ });
  assert.throws(() => new sf.Uuid7Generator({ mode: 'fast' }), { name: 'InvalidArgument', message: /'fast'/ });
  assert.throws(() => new sf.Uuid7Generator({ maxWaitMs: -1 }), { name: 'InvalidArgument', message: /-1/ });
  assert.throws(() => new sf.Uuid7Generator({ nodeId: 1 }), { code: 'ERR_INVALID_ARG_TYPE' });
  const gen = new sf.Uuid7Generator();
  assert.throws(() => gen.nextUuid7s(-1), { name: 'InvalidArgument', message: /-1/ });
  gen.close();
  assert.ok(gen.closed);
  assert.throws(() => gen.nextUuid7(), { name: 'GeneratorClosed' });
});

test('stats, status and the getters are Generator\'s', () => {
  const clock = new sf.testing.ScriptedClock(T);
  const u = new sf.Uuid7Generator({ clock, mode: 'monotonic', maxWaitMs: 7, maxDriftMs: 250 });
  const g = new sf.Generator({ nodeId: 1, clock: new sf.testing.ScriptedClock(T) });
  u.nextUuid7s(3);
  assert.deepEqual(Object.keys(u.stats()), Object.keys(g.stats()));
  assert.deepEqual(Object.keys(u.status()), Object.keys(g.status()));
  assert.equal(u.stats().idsIssued, 3);
  assert.equal(u.status().healthy, true);
  assert.equal(u.status().mode, 'monotonic');
  assert.equal(u.maxWaitMs, 7);
  assert.equal(u.maxDriftMs, 250);
  u.close();
  g.close();
});

test('Symbol.dispose and Symbol.asyncDispose close either generator', async () => {
  for (const make of [() => new sf.Generator({ nodeId: 1 }), () => new sf.Uuid7Generator()]) {
    const a = make();
    a[Symbol.dispose]();
    assert.ok(a.closed);
    const b = make();
    await b[Symbol.asyncDispose]();
    assert.ok(b.closed);
    a[Symbol.dispose](); // idempotent, as close()
  }
});
