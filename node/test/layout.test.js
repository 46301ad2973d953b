'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const sf = require('../index.js');
const { throwsLike } = require('./helpers.js');

test('presets and their properties', () => {
  const d = sf.Layout.DEFAULT;
  assert.equal(d.toString(), '41.10.12@1704067200000');
  assert.equal(d.preset, 'default');
  assert.equal(d.epochMs, 1704067200000);
  assert.equal(d.timestampBits, 41);
  assert.equal(d.nodeBits, 10);
  assert.equal(d.datacenterBits, 0);
  assert.equal(d.machineBits, 10);
  assert.equal(d.sequenceBits, 12);
  assert.equal(d.split, false);
  assert.equal(d.timestampShift, 22);
  assert.equal(d.nodeShift, 12);
  assert.equal(d.maxNodeId, 1023);
  assert.equal(d.maxSequence, 4095);
  assert.equal(d.maxElapsedMs, 2199023255551);
  assert.equal(d.maxTimestampMs, 3903090455551);
  assert.ok(new sf.Layout().equals(d));
  assert.equal(sf.Layout.TWITTER.toString(), '41.5.5.12@1288834974657');
  assert.equal(sf.Layout.TWITTER.maxDatacenterId, 31);
  assert.equal(sf.Layout.TWITTER.split, true);
  assert.equal(sf.Layout.DISCORD.toString(), '41.5.5.12@1420070400000');
  assert.equal(sf.Layout.DISCORD.preset, 'discord');
});

test('parse, create, equality and JSON', () => {
  assert.ok(sf.Layout.parse('twitter').equals(sf.Layout.TWITTER));
  assert.ok(new sf.Layout('41.5.5.12@1288834974657').equals('twitter'));
  const custom = sf.Layout.create({ epochMs: 1600000000000, timestampBits: 42, nodeBits: 8, sequenceBits: 13 });
  assert.equal(custom.toString(), '42.8.13@1600000000000');
  assert.equal(custom.preset, '');
  assert.ok(sf.Layout.parse(custom.toString()).equals(custom));
  const split = sf.Layout.create({ epochMs: 1288834974657n, timestampBits: 41, datacenterBits: 5, machineBits: 5, sequenceBits: 12 });
  assert.equal(split.preset, 'twitter');
  assert.equal(JSON.stringify({ layout: split }), '{"layout":"41.5.5.12@1288834974657"}');
  assert.ok(!custom.equals(split));
});

test('timestamps: at most 52 bits, so every timestamp is an exact Number; 53 is refused', () => {
  const l = sf.Layout.create({ epochMs: 1704067200000, timestampBits: 52, nodeBits: 5, sequenceBits: 6 });
  assert.equal(l.maxElapsedMs, 2 ** 52 - 1);
  assert.equal(l.maxTimestampMs, 1704067200000 + 2 ** 52 - 1);
  assert.ok(Number.isSafeInteger(l.maxTimestampMs));
  // The latest epoch plus 52 bits still stays below 2^53.
  const late = sf.Layout.create({ epochMs: 253402300799999, timestampBits: 52, nodeBits: 5, sequenceBits: 6 });
  assert.ok(Number.isSafeInteger(late.maxTimestampMs));
  const last = sf.compose({ timestampMs: late.maxTimestampMs, nodeId: 31, sequence: 63, layout: late });
  assert.equal(sf.decode(last, late).timestampMs, late.maxTimestampMs);
  throwsLike(() => sf.Layout.create({ epochMs: 1704067200000, timestampBits: 53, nodeBits: 5, sequenceBits: 5 }), sf.InvalidArgument, 'INVALID_ARGUMENT', '53');
  throwsLike(() => sf.Layout.parse('53.5.5@1704067200000'), sf.InvalidArgument, 'INVALID_ARGUMENT', '53');
  // Wide node or sequence fields can still exceed 2^53 - 1: those limits come back as bigint.
  assert.equal(sf.Layout.create({ epochMs: 0, timestampBits: 1, nodeBits: 1, sequenceBits: 61 }).maxSequence, 2n ** 61n - 1n);
});

test('invalid layouts are InvalidArgument naming the bad part', () => {
  throwsLike(() => sf.Layout.parse('41.10.13@0'), sf.InvalidArgument, 'INVALID_ARGUMENT', '64');
  throwsLike(() => sf.Layout.parse('banana'), sf.InvalidArgument, 'INVALID_ARGUMENT', 'banana');
  throwsLike(() => sf.Layout.create({ epochMs: -1, timestampBits: 41, nodeBits: 10, sequenceBits: 12 }), sf.InvalidArgument, 'INVALID_ARGUMENT', '-1');
  // Which fields go together is the core's rule (Layout::create): InvalidArgument naming them.
  throwsLike(() => sf.Layout.create({ epochMs: 0, timestampBits: 41, nodeBits: 10 }), sf.InvalidArgument, 'INVALID_ARGUMENT', 'sequence_bits');
  throwsLike(() => sf.Layout.create({ epochMs: 0, timestampBits: 41, nodeBits: 10, sequenceBits: 12, datacenterBits: 5 }), sf.InvalidArgument, 'INVALID_ARGUMENT', 'datacenter_bits');
  throwsLike(() => sf.Layout.create({ epochMs: 0, timestampBits: 41, nodeBits: 10, sequenceBits: 12, nodeBit: 1 }), TypeError, 'ERR_INVALID_ARG_TYPE', "'nodeBit'");
  throwsLike(() => sf.Layout.create({ epochMs: 0, timestampBits: 41.5, nodeBits: 10, sequenceBits: 12 }), TypeError, 'ERR_INVALID_ARG_TYPE', '41.5');
  throwsLike(() => sf.Layout.parse(41), TypeError, 'ERR_INVALID_ARG_TYPE');
  throwsLike(() => new sf.Layout({}), TypeError, 'ERR_INVALID_ARG_TYPE');
});
