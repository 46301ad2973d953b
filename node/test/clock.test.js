'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const sf = require('../index.js');
const { throwsLike, SEED_MS } = require('./helpers.js');

const { ScriptedClock } = sf.testing;
const readMs = (clock) => {
  // A generator's status() consumes exactly one wall reading.
  const g = new sf.Generator({ nodeId: 0, clock });
  return g.status().wallMs;
};

test('segments follow the conformance format (ms as number, bigint or string)', () => {
  const c = new ScriptedClock([{ ms: String(SEED_MS) }, { ms: BigInt(SEED_MS + 10), count: 2, stepMs: 1 }, { ms: SEED_MS + 100, stepMs: -4, every: 2 }]);
  const got = [];
  for (let i = 0; i < 7; i++) got.push(readMs(c) - SEED_MS);
  assert.deepEqual(got, [0, 10, 11, 100, 100, 96, 96]);
  assert.equal(c.reads, 7);
});

test('setWallMs, advanceWallMs, peekWallMs and append', () => {
  const c = new ScriptedClock(SEED_MS);
  assert.equal(c.peekWallMs(), SEED_MS);
  c.advanceWallMs(-600);
  assert.equal(c.peekWallMs(), SEED_MS - 600);
  c.setWallMs(String(SEED_MS + 5));
  assert.equal(readMs(c), SEED_MS + 5);
  c.setScript([{ ms: 10 }]);
  c.append({ ms: 20, stepMs: 1 });
  assert.equal(readMs(c), 10);
  assert.equal(readMs(c), 20);
  assert.equal(readMs(c), 21);
  assert.equal(new ScriptedClock().peekWallMs(), 0);
});

test('sleep counters report the virtual time a generator waited', () => {
  const c = new ScriptedClock([{ ms: SEED_MS + 3 }, { ms: SEED_MS }, { ms: SEED_MS + 3, stepMs: 1 }]);
  const g = new sf.Generator({ nodeId: 1, clock: c });
  g.nextId();
  g.nextId(); // 3 ms behind: waited out
  assert.ok(c.sleepCount >= 1);
  assert.equal(typeof c.sleptNs, 'bigint');
  assert.ok(c.sleptNs > 0n && c.sleptNs <= 5_000_000n);
  assert.ok(c.maxSleepNs >= c.minSleepNs && c.minSleepNs > 0n);
  assert.equal(g.stats().waits, 1);
});

test('invalid scripts are rejected with a clear error', () => {
  throwsLike(() => new ScriptedClock([]), sf.InvalidArgument, 'INVALID_ARGUMENT');
  throwsLike(() => new ScriptedClock([{ ms: 1, count: 0 }]), sf.InvalidArgument, 'INVALID_ARGUMENT');
  throwsLike(() => new ScriptedClock([{ ms: 'soon' }]), sf.InvalidArgument, 'INVALID_ARGUMENT', "'soon'");
  throwsLike(() => new ScriptedClock([{ ms: 1, step_ms: 1 }]), TypeError, 'ERR_INVALID_ARG_TYPE', "'step_ms'");
  throwsLike(() => new ScriptedClock([{ count: 1 }]), TypeError, 'ERR_INVALID_ARG_TYPE', 'ms');
  throwsLike(() => new ScriptedClock([{ ms: 2n ** 60n }]), sf.InvalidArgument, 'INVALID_ARGUMENT');
  throwsLike(() => new ScriptedClock([{ ms: 2 ** 60 }]), TypeError, 'ERR_INVALID_ARG_TYPE', 'BigInt');
  throwsLike(() => new ScriptedClock(true), TypeError, 'ERR_INVALID_ARG_TYPE');
  throwsLike(() => new ScriptedClock(0, { tick: true }), TypeError, 'ERR_INVALID_ARG_TYPE', "'tick'");
});
