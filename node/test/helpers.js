'use strict';
// Shared test helpers.
const assert = require('node:assert/strict');

/** Asserts fn throws an instance of cls with .code `code` and a message containing each part. */
function throwsLike(fn, cls, code, ...parts) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught !== undefined, `expected ${cls.name}, nothing was thrown`);
  assert.ok(caught instanceof cls, `expected ${cls.name}, got ${caught.name}: ${caught.message}`);
  assert.equal(caught.code, code);
  for (const p of parts) assert.ok(caught.message.includes(p), `message ${JSON.stringify(caught.message)} lacks ${JSON.stringify(p)}`);
  return caught;
}

/** The reference's literal: node 37, sequence 0, at 2025-01-24T19:35:58.021Z. */
const SEED_MS = 1737747358021;
const SEED_ID = 141264821508263936n;

module.exports = { throwsLike, SEED_MS, SEED_ID };
