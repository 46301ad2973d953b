'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Generator, InvalidArgument } = require('snowfleet');
const sfjson = require('snowfleet/json');
const { MAX_ID } = require('./helpers.js');

test('stringify writes BigInt ids as strings that parse back exactly', () => {
  const id = new Generator({ nodeId: 3 }).nextId();
  const row = { id, authorId: MAX_ID, tags: [1n], title: 'x', n: 5 };
  const text = sfjson.stringify(row);
  assert.equal(text, `{"id":"${id}","authorId":"9223372036854775807","tags":["1"],"title":"x","n":5}`);
  assert.equal(JSON.stringify(row, sfjson.replacer), text);
  const back = sfjson.parse(text, ['id', 'authorId']);
  assert.deepEqual(back, { id, authorId: MAX_ID, tags: ['1'], title: 'x', n: 5 });
  assert.deepEqual(JSON.parse(text, sfjson.reviver(/Id$|^id$/)).authorId, MAX_ID);
  assert.deepEqual(sfjson.parse('{"id":42}', (k) => k === 'id'), { id: 42n });
});

test('reviver refuses what it cannot read exactly', () => {
  assert.throws(() => sfjson.parse('{"id":9223372036854775807}', ['id']), /cannot hold exactly/);
  assert.throws(() => sfjson.parse('{"id":"9223372036854775808"}', ['id']), InvalidArgument);
  assert.throws(() => sfjson.parse('{"id":"12ab"}', ['id']), InvalidArgument);
  assert.throws(() => sfjson.reviver('id'), TypeError);
});

test('installBigIntToJSON makes plain JSON.stringify accept BigInt, and restores', () => {
  assert.throws(() => JSON.stringify({ id: 1n }), TypeError);
  const restore = sfjson.installBigIntToJSON();
  try {
    assert.equal(JSON.stringify({ id: MAX_ID }), '{"id":"9223372036854775807"}');
  } finally {
    restore();
  }
  assert.throws(() => JSON.stringify({ id: 1n }), TypeError);
});

test('reviver reads arrays of ids under a named key, at any depth', () => {
  const text = sfjson.stringify({
    order: { id: MAX_ID, lineIds: [1n, MAX_ID], parents: [[2n, null], [MAX_ID]] },
    items: [{ id: 3n }, { id: MAX_ID }],
  });
  const back = sfjson.parse(text, ['id', 'lineIds', 'parents']);
  assert.deepEqual(back, {
    order: { id: MAX_ID, lineIds: [1n, MAX_ID], parents: [[2n, null], [MAX_ID]] },
    items: [{ id: 3n }, { id: MAX_ID }],
  });
  assert.throws(() => sfjson.parse('{"lineIds":["1",9223372036854775807]}', ['lineIds']), /cannot hold exactly/);
  assert.throws(() => sfjson.parse('{"lineIds":["1","x"]}', ['lineIds']), InvalidArgument);
});
