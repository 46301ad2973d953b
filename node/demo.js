'use strict';
// Mints and decodes a few ids from Node.js (scripts/demo/node.sh runs it).
const sf = require('./index.js');

const gen = new sf.Generator({ nodeId: 37 }); // default layout, strict mode, maxWaitMs 5
console.log('mint 5 ids as node 37 (bigint), then one as a JSON-safe string:');
const ids = [gen.nextId(), gen.nextId(), gen.nextId(), gen.nextId(), gen.nextId()];
for (const id of ids) console.log(' ', id);
console.log(' ', JSON.stringify({ id: gen.nextIdString() }));

console.log('decode them (time in ISO-8601 UTC, node, sequence):');
for (const id of ids) {
  const d = sf.decode(id);
  console.log(`  ${id}  ${new Date(d.timestampMs).toISOString()}  node ${d.nodeId}  seq ${d.sequence}`);
}

console.log('worked examples:');
for (const [id, layout] of [['141264821508263936'], ['141264821510144037'], ['1724551110457221119', 'twitter']]) {
  const d = sf.decode(id, layout);
  console.log(`  ${id} (${layout || 'default'}) -> ${JSON.stringify(d)}`);
}

console.log('a batch of 10,000 ids (BigInt64Array, ascending):');
const batch = gen.nextIds(10000);
console.log(`  first ${batch[0]}, last ${batch[batch.length - 1]}`);

console.log('a 600 ms clock rewind, on a scripted clock, is refused:');
const clock = new sf.testing.ScriptedClock([{ ms: '1704067201000' }, { ms: '1704067200400', stepMs: 1 }]);
const g = new sf.Generator({ nodeId: 7, clock });
console.log('  first id', g.nextId());
try {
  g.nextId();
} catch (e) {
  console.log(`  ${e.name} (code ${e.code}, driftMs ${e.driftMs}): ${e.message}`);
}
