'use strict';
// A JavaScript client reading a service's JSON as a browser would (plain JSON.parse):
//   node js_client.js PATH=DECIMAL... < body.json
// Each PATH (dot-separated keys and array indexes, e.g. items.0.id) must hold a string whose
// BigInt is exactly DECIMAL. An id sent as a JSON number fails: JSON.parse has already rounded
// anything past 2^53 - 1. Prints one line per id read.
const body = require('node:fs').readFileSync(0, 'utf8');
const doc = JSON.parse(body);
const expected = process.argv.slice(2);
if (expected.length === 0) throw new Error('usage: node js_client.js PATH=DECIMAL... < body.json');
for (const pair of expected) {
  const at = pair.lastIndexOf('=');
  const path = pair.slice(0, at);
  const want = BigInt(pair.slice(at + 1));
  const value = path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), doc);
  if (typeof value !== 'string') {
    console.error(`${path}: ${JSON.stringify(value)} is a ${typeof value}, not the id's decimal string (${want})`);
    process.exit(1);
  }
  if (BigInt(value) !== want) {
    console.error(`${path}: read ${value}, expected ${want}`);
    process.exit(1);
  }
  console.log(`js client: ${path} = ${value} exactly`);
}
