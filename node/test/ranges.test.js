'use strict';
// minId / maxId / idRange with JS time types and the base32 / base62 forms, beyond the
// conformance vectors (which use ms).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const sf = require('../index.js');

test('a Date, a Number and a BigInt of the same ms give the same ids', () => {
  const d = new Date('2025-01-24T19:35:58.021Z');
  const low = 141264821508263936n - (37n << 12n);
  assert.equal(sf.minId(d), low);
  assert.equal(sf.minId(d.getTime()), low);
  assert.equal(sf.minId(BigInt(d.getTime())), low);
  assert.equal(sf.maxId(d), low + (1n << 22n) - 1n);
});

test('idRange: bounds, slack, layout and refusals', () => {
  const a = new Date('2026-12-01T00:00:00Z'), b = new Date('2026-12-02T00:00:00Z');
  const r = sf.idRange(a, b);
  assert.deepEqual(r, { first: sf.minId(a), last: sf.maxId(b.getTime() - 1) });
  assert.equal(sf.idRange(a, b, { slackMs: 1000 }).last, sf.maxId(b.getTime() + 999));
  assert.equal(sf.idRange(a, b, { layout: sf.Layout.TWITTER }).first, sf.minId(a, 'twitter'));
  assert.throws(() => sf.idRange(b, a), sf.InvalidArgument);
  assert.throws(() => sf.idRange(a, b, { slackMs: -1 }), /slack_ms must be >= 0, got -1/);
  assert.throws(() => sf.idRange(a, b, { slack: 1 }), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => sf.minId(new Date('1999-01-01T00:00:00Z')), sf.TimestampOutOfRange);
  assert.throws(() => sf.minId(new Date('nope')), /time must be a valid Date, got Invalid Date/);
  assert.throws(() => sf.minId(1.5), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => sf.minId('2026-12-01T00:00:00Z'), { code: 'ERR_INVALID_ARG_TYPE' });
});

test('base32 / base62 round trip and sort as the ids', () => {
  assert.equal(sf.formatBase32(141264821508263936n), '03XEZKD8M4M00');
  assert.equal(sf.parseBase32('03xezkd8m4m00'), 141264821508263936n);
  const ids = [1n, 62n, 141264821508263936n, (1n << 63n) - 1n];
  const texts = ids.map(sf.formatBase62);
  assert.deepEqual([...texts].sort(), texts);
  assert.deepEqual(texts.map(sf.parseBase62), ids);
  assert.throws(() => sf.parseBase62('AzL8n0Y58m8'), sf.InvalidArgument);
  assert.throws(() => sf.formatBase32(-1n), sf.InvalidArgument);
});

test('formatBase32 / formatBase62 take an id as decode() does, decimal text included', () => {
  for (const id of ['141264821508263936', 141264821508263936n]) {
    assert.equal(sf.formatBase32(id), '03XEZKD8M4M00');
    assert.equal(sf.formatBase62(id), sf.formatBase62(141264821508263936n));
    assert.equal(sf.decode(id).timestampMs, sf.decode(141264821508263936n).timestampMs);
  }
  assert.throws(() => sf.formatBase32('12x'), sf.InvalidArgument);
  assert.throws(() => sf.formatBase62('-1'), sf.InvalidArgument);
});
