'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const sf = require('../index.js');
const { throwsLike, SEED_MS, SEED_ID } = require('./helpers.js');

test('decode accepts a bigint, a decimal string or a safe-integer Number, all alike', () => {
  const want = { timestampMs: 1737747358021, nodeId: 496, datacenterId: 0, machineId: 496, sequence: 37 };
  assert.deepEqual(sf.decode(141264821510144037n), want);
  assert.deepEqual(sf.decode('141264821510144037'), want);
  assert.deepEqual(sf.decode(4194332672), sf.decode(4194332672n));
  assert.deepEqual(sf.decode(SEED_ID, 'default'), sf.decode(SEED_ID, sf.Layout.DEFAULT));
});

test('a Number above Number.MAX_SAFE_INTEGER is the host type error: it already lost precision', () => {
  // eslint-disable-next-line no-loss-of-precision
  const e = throwsLike(() => sf.decode(141264821508263936), TypeError, 'ERR_INVALID_ARG_TYPE', '141264821508263940', 'safe-integer Number, or a BigInt');
  assert.ok(!(e instanceof sf.SnowfleetError));
  assert.throws(() => sf.decode(Number.MAX_SAFE_INTEGER + 1), TypeError);
  assert.doesNotThrow(() => sf.decode(Number.MAX_SAFE_INTEGER));
  throwsLike(() => sf.decode(1.5), TypeError, 'ERR_INVALID_ARG_TYPE', '1.5');
  throwsLike(() => sf.decode(NaN), TypeError, 'ERR_INVALID_ARG_TYPE', 'NaN');
});

test('out-of-range and malformed ids are InvalidArgument naming the value', () => {
  throwsLike(() => sf.decode(-1n), sf.InvalidArgument, 'INVALID_ARGUMENT', '-1');
  throwsLike(() => sf.decode(2n ** 63n), sf.InvalidArgument, 'INVALID_ARGUMENT', '9223372036854775808');
  throwsLike(() => sf.decode('12a'), sf.InvalidArgument, 'INVALID_ARGUMENT', "'12a'");
  throwsLike(() => sf.decode('-5'), sf.InvalidArgument, 'INVALID_ARGUMENT', "'-5'");
  throwsLike(() => sf.decode(''), sf.InvalidArgument, 'INVALID_ARGUMENT');
  throwsLike(() => sf.decode(SEED_ID, 'nope'), sf.InvalidArgument, 'INVALID_ARGUMENT', 'nope');
});

test('compose round-trips through decode, unsplit and split', () => {
  assert.equal(sf.compose({ timestampMs: SEED_MS, nodeId: 37, sequence: 0 }), SEED_ID);
  assert.equal(sf.compose({ timestampMs: BigInt(SEED_MS), nodeId: 37n }), SEED_ID);
  const tw = sf.Layout.TWITTER;
  const id = sf.compose({ timestampMs: SEED_MS, datacenterId: 7, machineId: 13, sequence: 4095, layout: tw });
  assert.deepEqual(sf.decode(id, tw), { timestampMs: SEED_MS, nodeId: 7 * 32 + 13, datacenterId: 7, machineId: 13, sequence: 4095 });
  assert.equal(sf.compose({ timestampMs: SEED_MS, nodeId: 7 * 32 + 13, sequence: 4095, layout: 'twitter' }), id);
});

test('compose never masks: every out-of-field value is an error naming it', () => {
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, nodeId: 1024 }), sf.InvalidArgument, 'INVALID_ARGUMENT', '1024');
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, nodeId: 1, sequence: 4096 }), sf.InvalidArgument, 'INVALID_ARGUMENT', '4096');
  throwsLike(() => sf.compose({ timestampMs: 1704067199999, nodeId: 1 }), sf.TimestampOutOfRange, 'TIMESTAMP_OUT_OF_RANGE', '1704067199999');
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, datacenterId: 32, machineId: 0, layout: 'twitter' }), sf.InvalidArgument, 'INVALID_ARGUMENT', '32');
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, nodeId: 1, datacenterId: 1, machineId: 1 }), sf.InvalidArgument, 'INVALID_ARGUMENT', 'node_id=1');
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, datacenterId: 1 }), sf.InvalidArgument, 'INVALID_ARGUMENT', 'machine_id');
  throwsLike(() => sf.compose({ nodeId: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE', 'timestampMs');
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, nodeId: 1, seq: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE', "'seq'");
  throwsLike(() => sf.compose({ timestampMs: '1737747358021', nodeId: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE', 'timestampMs');
  throwsLike(() => sf.compose({ timestampMs: SEED_MS, nodeId: false }), TypeError, 'ERR_INVALID_ARG_TYPE', 'boolean false');
});

test('parseId and formatId use the core decimal codec', () => {
  assert.equal(sf.parseId('141264821508263936'), SEED_ID);
  assert.equal(sf.parseId('9223372036854775807'), 2n ** 63n - 1n);
  assert.equal(sf.parseId('0'), 0n);
  for (const bad of ['12a', '', '-1', '9223372036854775808', ' 1', '1e3', '0x10']) {
    throwsLike(() => sf.parseId(bad), sf.InvalidArgument, 'INVALID_ARGUMENT');
  }
  assert.equal(sf.formatId(SEED_ID), '141264821508263936');
  assert.equal(sf.formatId(2n ** 63n - 1n), '9223372036854775807');
  assert.equal(sf.formatId('42'), '42');
  assert.throws(() => sf.formatId(-1n), sf.InvalidArgument);
});

test('parseTime reads RFC 3339 with the core parser and names the rule it refuses by', () => {
  assert.equal(sf.parseTime('2025-01-24T19:35:58.021Z'), SEED_MS);
  assert.equal(sf.parseTime('2025-01-24T20:35:58.021+01:00'), SEED_MS);
  assert.equal(typeof sf.parseTime('0000-01-01T00:00:00Z'), 'number');
  assert.equal(sf.compose({ timestampMs: sf.parseTime('2025-01-24T19:35:58.021Z'), nodeId: 37 }), SEED_ID);
  const e = throwsLike(() => sf.parseTime('2024-02-31T00:00:00Z'), sf.InvalidArgument, 'INVALID_ARGUMENT',
    "'2024-02-31T00:00:00Z'", 'day 31 is outside 01-29 for 2024-02');
  assert.ok(e instanceof RangeError);
  for (const bad of [SEED_MS, new Date(SEED_MS), undefined]) {
    throwsLike(() => sf.parseTime(bad), TypeError, 'ERR_INVALID_ARG_TYPE', 'time text must be a string');
  }
});

test('JSON: bigints become decimal strings via toJSONSafe or jsonReplacer', () => {
  assert.throws(() => JSON.stringify({ id: SEED_ID }), TypeError, 'plain JSON.stringify rejects a bigint');
  const g = new sf.Generator({ nodeId: 37, clock: new sf.testing.ScriptedClock(SEED_MS) });
  const payload = { id: g.nextId(), batch: g.nextIds(2), nested: [{ n: 1n }], layout: g.layout, s: 'x', k: null };
  const safe = sf.toJSONSafe(payload);
  assert.deepEqual(safe, {
    id: '141264821508263936',
    batch: ['141264821508263937', '141264821508263938'],
    nested: [{ n: '1' }],
    layout: '41.10.12@1704067200000',
    s: 'x',
    k: null,
  });
  assert.equal(JSON.stringify({ id: SEED_ID, n: 1 }, sf.jsonReplacer), '{"id":"141264821508263936","n":1}');
  assert.equal(BigInt(JSON.parse(JSON.stringify(safe)).id), SEED_ID);
  assert.equal(BigInt.prototype.toJSON, undefined, 'no global patching');
});
