'use strict';
// Option objects, presets, the scripted clock's ticking and the event-loop promise.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const sf = require('../index.js');
const { throwsLike, SEED_MS } = require('./helpers.js');

const { ScriptedClock } = sf.testing;

/** Runs fn with Object.prototype[key] = value, removing it afterwards whatever happens. */
function withPrototypeProperty(key, value, fn) {
  Object.prototype[key] = value; // eslint-disable-line no-extend-native
  try {
    return fn();
  } finally {
    delete Object.prototype[key];
  }
}

test('only own properties are options: Object.prototype.mode does not make a generator monotonic', () => {
  const g = withPrototypeProperty('mode', 'monotonic', () => new sf.Generator({ nodeId: 1 }));
  assert.equal(g.mode, 'strict');
  assert.equal(Object.prototype.mode, undefined);
});

test('only own properties are options: Object.prototype.nodeId does not make {} a valid options object', () => {
  withPrototypeProperty('nodeId', 5, () => {
    throwsLike(() => new sf.Generator({}), sf.InvalidArgument, 'INVALID_ARGUMENT', 'node_id', 'node_source');
    throwsLike(() => sf.compose({ timestampMs: SEED_MS }), sf.InvalidArgument, 'INVALID_ARGUMENT', 'node_id');
  });
  withPrototypeProperty('stepMs', 1, () => {
    const c = new ScriptedClock([{ ms: SEED_MS }]);
    const g = new sf.Generator({ nodeId: 2, clock: c });
    assert.equal(g.status().wallMs, SEED_MS);
    assert.equal(g.status().wallMs, SEED_MS, 'still frozen');
  });
});

test('an options object is an object; an unknown key is a TypeError naming it', () => {
  for (const bad of [undefined, null, 37, 'nodeId', [1]]) {
    throwsLike(() => new sf.Generator(bad), TypeError, 'ERR_INVALID_ARG_TYPE', 'options object');
  }
  throwsLike(() => new sf.Generator({ nodeId: 1, maxWait: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE', "'maxWait'");
  // A getter is an own property too, and undefined means "not given".
  assert.equal(new sf.Generator({ get nodeId() { return 6; } }).nodeId, 6);
  assert.equal(new sf.Generator({ nodeId: 7, mode: undefined }).mode, 'strict');
});

test('datacenterId + machineId name the node of a split layout', () => {
  const g = new sf.Generator({ layout: sf.Layout.TWITTER, datacenterId: 3, machineId: 5, clock: new ScriptedClock(SEED_MS) });
  assert.equal(g.nodeId, 3 * 32 + 5);
  const d = sf.decode(g.nextId(), sf.Layout.TWITTER);
  assert.equal(d.datacenterId, 3);
  assert.equal(d.machineId, 5);
  throwsLike(() => new sf.Generator({ layout: 'twitter', datacenterId: 3 }), sf.InvalidArgument, 'INVALID_ARGUMENT', 'datacenter_id=3', 'machine_id');
});

test('presets are the constants Layout.DEFAULT, Layout.TWITTER, Layout.DISCORD', () => {
  assert.equal(sf.Layout.DEFAULT.toString(), '41.10.12@1704067200000');
  assert.equal(sf.Layout.TWITTER.toString(), '41.5.5.12@1288834974657');
  assert.equal(sf.Layout.DISCORD.toString(), '41.5.5.12@1420070400000');
  for (const name of ['default', 'twitter', 'discord', 'standard']) assert.equal(sf.Layout[name], undefined, `Layout.${name}`);
  assert.ok(sf.Layout.parse('discord').equals(sf.Layout.DISCORD));
  assert.ok(Object.isFrozen(sf.Layout.DEFAULT));
  assert.throws(() => { sf.Layout.DEFAULT = sf.Layout.TWITTER; }, TypeError);
});

test('a ticking ScriptedClock passes slept time on the wall, so a wait can be tested', () => {
  const frozen = new ScriptedClock(SEED_MS);
  const ticking = new ScriptedClock(SEED_MS, { ticking: true });
  assert.equal(frozen.ticking, false);
  assert.equal(ticking.ticking, true);
  const a = new sf.Generator({ nodeId: 3, clock: frozen });
  const b = new sf.Generator({ nodeId: 3, clock: ticking });
  a.nextIds(4096);
  b.nextIds(4096);
  // The millisecond is spent: the frozen clock never reaches the next one...
  throwsLike(() => a.nextId(), sf.ClockMovedBackwards, 'CLOCK_MOVED_BACKWARDS');
  // ...the ticking one does while the generator waits, as a real clock would.
  assert.equal(sf.decode(b.nextId()).timestampMs, SEED_MS + 1);
  assert.equal(b.stats().waits, 1);
  assert.ok(ticking.sleptNs > 0n && ticking.sleptNs <= 5_000_000n);
  frozen.ticking = true;
  assert.equal(sf.decode(a.nextId()).timestampMs, SEED_MS + 1, 'ticking can be turned on later');
  throwsLike(() => { frozen.ticking = 1; }, TypeError, 'ERR_INVALID_ARG_TYPE', 'ticking');
  // sleepNs sleeps on the clock as a generator's wait does.
  const c = new ScriptedClock(SEED_MS, { ticking: true });
  c.sleepNs(2_000_000);
  assert.equal(c.peekWallMs(), SEED_MS + 2);
});

test("the event loop: each wait inside a call is at most maxWaitMs; a strict batch spans n / 4096 ms", () => {
  // README "The event loop": strict mode issues at most 4,096 ids per millisecond, so
  // nextIds(n) lasts at least n / 4096 ms (about 4 s for maxBatch), waiting for one
  // millisecond at a time, each wait bounded by maxWaitMs. Large batches: nextIdsAsync.
  const clock = new ScriptedClock(SEED_MS, { ticking: true });
  const g = new sf.Generator({ nodeId: 4, clock, maxWaitMs: 2 });
  const ids = g.nextIds(3 * 4096 + 5);
  assert.equal(sf.decode(ids[ids.length - 1]).timestampMs, SEED_MS + 3);
  assert.equal(g.stats().waits, 3, 'one wait per millisecond spanned');
  assert.ok(clock.maxSleepNs <= 2_000_000n, `a single sleep of ${clock.maxSleepNs} ns`);
  assert.ok(clock.sleptNs >= 3_000_000n, `the batch slept ${clock.sleptNs} ns in all`);
});
