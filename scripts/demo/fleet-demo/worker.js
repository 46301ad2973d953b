'use strict';
// Polyglot fleet demo, Node worker: leases a node id from a node source, mints for a few
// seconds, prints the fleet line protocol (see scripts/demo/fleet_summary.py).
//   node worker.js SOURCE SECONDS [LAYOUT]
const fs = require('node:fs');
const path = require('node:path');
const sf = require(path.join(__dirname, '..', '..', '..', 'node', 'index.js'));

const [source, seconds, layout] = process.argv.slice(2);
const out = (line) => fs.writeSync(1, line + '\n');
const nap = new Int32Array(new SharedArrayBuffer(4));
const gen = new sf.Generator(layout ? { nodeSource: source, layout } : { nodeSource: source });
const status = gen.status();
out(`node ${gen.nodeId} ${status.markMs ?? -1}`);
const end = performance.now() + Number(seconds) * 1000;
while (performance.now() < end) {
  const wall = Date.now();
  try {
    out(`ids ${wall} ${Array.from(gen.nextIds(64)).join(' ')}`);
  } catch (e) {
    out(`error ${e.code} ${wall} ${e.message}`);
    Atomics.wait(nap, 0, 0, 10);
    continue;
  }
  Atomics.wait(nap, 0, 0, 0.5);
}
const stats = gen.stats();
gen.close();
out(`closed ${stats.idsIssued} ${stats.markWrites ?? -1}`);
