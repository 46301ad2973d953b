'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const sf = require('../index.js');
const { throwsLike, SEED_MS } = require('./helpers.js');

const EXPECTED_BASE = { argument: RangeError, range: RangeError };

test('one exported Error class per core error kind, built from errorKinds()', () => {
  assert.ok(sf.errorKinds.length >= 8);
  for (const k of sf.errorKinds) {
    const cls = sf[k.name];
    assert.equal(typeof cls, 'function', `missing export ${k.name}`);
    assert.equal(cls.name, k.name);
    assert.equal(cls.code, k.code);
    assert.equal(sf.errors[k.code], cls);
    const e = new cls('boom');
    assert.equal(e.code, k.code);
    assert.equal(e.name, k.name);
    assert.equal(e.message, 'boom');
    assert.ok(e instanceof Error);
    assert.ok(e instanceof sf.SnowfleetError, `${k.name} instanceof SnowfleetError`);
    assert.ok(e.stack.startsWith(`${k.name}: boom`));
    const base = EXPECTED_BASE[k.category];
    if (base) {
      assert.ok(e instanceof base, `${k.name} (${k.category}) should be a ${base.name}`);
    } else {
      assert.ok(Object.getPrototypeOf(cls) === sf.SnowfleetError, `${k.name} extends SnowfleetError`);
      assert.ok(!(e instanceof RangeError));
    }
  }
  assert.deepEqual(
    sf.errorKinds.map((k) => k.code),
    ['INVALID_ARGUMENT', 'TIMESTAMP_OUT_OF_RANGE', 'CLOCK_MOVED_BACKWARDS', 'FORK_DETECTED', 'GENERATOR_CLOSED', 'NODE_ID_UNAVAILABLE', 'LEASE_LOST', 'INTERNAL'],
  );
});

test('SnowfleetError instanceof is a brand check, not a catch-all', () => {
  assert.ok(!(new Error('x') instanceof sf.SnowfleetError));
  assert.ok(!(new RangeError('x') instanceof sf.SnowfleetError));
  assert.ok(!(null instanceof sf.SnowfleetError));
  assert.ok(!(new sf.InvalidArgument('x') instanceof sf.ClockMovedBackwards));
  assert.ok(!(new sf.GeneratorClosed('x') instanceof sf.ClockMovedBackwards));
  assert.equal(new sf.ClockMovedBackwards('x', { driftMs: 7 }).driftMs, 7);
  assert.equal(new sf.ClockMovedBackwards('x').driftMs, 0);
});

test('index.d.ts and index.mjs name every error class of the core (no drift)', () => {
  const dts = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8');
  const mjs = fs.readFileSync(path.join(__dirname, '..', 'index.mjs'), 'utf8');
  const declared = [...dts.matchAll(/export class (\w+) extends (?:RangeError|SnowfleetError)/g)].map((m) => m[1]);
  assert.deepEqual(declared.sort(), sf.errorKinds.map((k) => k.name).sort());
  for (const k of sf.errorKinds) {
    assert.match(dts, new RegExp(`readonly code: '${k.code}'`));
    assert.match(dts, new RegExp(`readonly ${k.code}: typeof ${k.name};`));
    assert.match(mjs, new RegExp(`^  ${k.name},$`, 'm'));
  }
});

test('core errors thrown by native code are the registered classes', () => {
  throwsLike(() => sf.decode(-1n), sf.InvalidArgument, 'INVALID_ARGUMENT', '-1');
  throwsLike(() => sf.compose({ timestampMs: 5, nodeId: 1 }), sf.TimestampOutOfRange, 'TIMESTAMP_OUT_OF_RANGE', '5');
  const g = new sf.Generator({ nodeId: 1 });
  g.close();
  throwsLike(() => g.nextId(), sf.GeneratorClosed, 'GENERATOR_CLOSED', 'node 1');
  throwsLike(() => new sf.Generator({ nodeSource: 'env:SNOWFLEET_TEST_SURELY_UNSET_VARIABLE' }), sf.NodeIdUnavailable, 'NODE_ID_UNAVAILABLE', 'SNOWFLEET_TEST_SURELY_UNSET_VARIABLE');
  const clock = new sf.testing.ScriptedClock([{ ms: SEED_MS + 1000 }, { ms: SEED_MS + 400, stepMs: 1 }]);
  const r = new sf.Generator({ nodeId: 7, clock });
  r.nextId();
  const e = throwsLike(() => r.nextId(), sf.ClockMovedBackwards, 'CLOCK_MOVED_BACKWARDS', '600 ms');
  assert.equal(e.driftMs, 600);
  assert.ok(e instanceof sf.SnowfleetError);
  // The stack points at the caller, not at snowfleet internals only.
  assert.match(e.stack, /errors\.test\.js/);
});

test('wrong JS types are plain TypeErrors with code ERR_INVALID_ARG_TYPE naming the value', () => {
  throwsLike(() => new sf.Generator({ nodeId: true }), TypeError, 'ERR_INVALID_ARG_TYPE', 'nodeId', 'boolean true');
  throwsLike(() => new sf.Generator({ nodeId: '37' }), TypeError, 'ERR_INVALID_ARG_TYPE', "string '37'");
  throwsLike(() => new sf.Generator(), TypeError, 'ERR_INVALID_ARG_TYPE', 'options');
  throwsLike(() => new sf.Generator({ nodeID: 3 }), TypeError, 'ERR_INVALID_ARG_TYPE', "'nodeID'");
  throwsLike(() => sf.decode(true), TypeError, 'ERR_INVALID_ARG_TYPE', 'boolean true');
  throwsLike(() => sf.decode({}), TypeError, 'ERR_INVALID_ARG_TYPE', 'object');
  throwsLike(() => sf.parseId(5), TypeError, 'ERR_INVALID_ARG_TYPE', 'number 5');
  throwsLike(() => new sf.Generator({ nodeId: 1, clock: {} }), TypeError, 'ERR_INVALID_ARG_TYPE', 'ScriptedClock');
  throwsLike(() => new sf.Generator({ nodeId: 1, layout: 42 }), TypeError, 'ERR_INVALID_ARG_TYPE', 'layout');
});

test('the addon keeps working after an error thrown from a constructor', () => {
  for (let i = 0; i < 1000; i++) {
    assert.throws(() => new sf.Generator({ nodeId: 5000 }), sf.InvalidArgument);
  }
  assert.equal(typeof new sf.Generator({ nodeId: 5 }).nextId(), 'bigint');
});
