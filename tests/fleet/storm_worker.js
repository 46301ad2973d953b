'use strict';
// Claim-storm worker, Node: constructs N generators on one node source from an agreed
// instant (one after another: the constructor is synchronous) and holds the slots until
// SIGTERM (or 120 s). Same line protocol as tests/storm_worker.cc.
//   node storm_worker.js SOURCE GENERATORS LAYOUT START_AT_UNIX_MS
const fs = require('node:fs');
const path = require('node:path');
const sf = require(path.join(__dirname, '..', '..', 'node', 'index.js'));

const [source, count, layout, startAt] = process.argv.slice(2);
const out = (line) => fs.writeSync(1, line + '\n');
const nap = new Int32Array(new SharedArrayBuffer(4));
const wait = Number(startAt) - Date.now();
if (wait > 0) Atomics.wait(nap, 0, 0, wait);
const gens = [];
let refused = 0;
for (let i = 0; i < Number(count); ++i) {
  const t0 = performance.now();
  try {
    const g = new sf.Generator({ nodeSource: source, layout });
    gens.push(g);
    out(`claimed ${g.nodeId} ${Math.round((performance.now() - t0) * 1000)}`);
  } catch (e) {
    ++refused;
    out(`error ${e.code} ${Math.round((performance.now() - t0) * 1000)} ${e.message}`);
  }
}
out(`ready ${gens.length} ${refused}`);
for (const g of gens) {
  try {
    out(`ids ${Date.now()} ${Array.from(g.nextIds(4)).join(' ')}`);
  } catch (e) {
    out(`error ${e.code} 0 ${e.message}`); // a held slot refusing (fenced); keep holding
  }
}
const finish = () => {
  for (const g of gens) g.close();
  out('closed');
  process.exit(0);
};
process.on('SIGTERM', finish);
setTimeout(finish, 120000);
