// ESM import works as well as require, and gives the same objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import snowfleet, * as ns from 'snowfleet';
import { Generator, decode, ClockMovedBackwards, testing } from 'snowfleet';

const require = createRequire(import.meta.url);
const cjs = require('snowfleet');

test('named and default ESM exports equal the CommonJS exports', () => {
  assert.equal(snowfleet, cjs);
  const named = Object.keys(ns).filter((k) => k !== 'default').sort();
  assert.deepEqual(named, Object.keys(cjs).sort());
  for (const k of named) assert.equal(ns[k], cjs[k], k);
});

test('an ESM user mints and decodes', () => {
  const g = new Generator({ nodeId: 37, clock: new testing.ScriptedClock(1737747358021) });
  assert.equal(g.nextId(), 141264821508263936n);
  assert.equal(decode('141264821508263936').nodeId, 37);
  assert.ok(new ClockMovedBackwards('x') instanceof cjs.SnowfleetError);
});
