'use strict';
// Host-shared node id worker, Node: joins a node source (local:DIR?share=NAME), says which
// node id it got, waits for `go END_UNIX_MS` on stdin, then mints in batches as fast as it
// can until END_UNIX_MS, writing each batch's runs of consecutive ids to RUNFILE (`FIRST
// COUNT` lines) after each batch. Same protocol as share_worker.py.
//   node share_worker.js SOURCE RUNFILE BATCH
const fs = require('node:fs');
const path = require('node:path');
const sf = require(path.join(__dirname, '..', '..', 'node', 'index.js'));

const [source, runfile, batchText] = process.argv.slice(2);
const batch = Number(batchText);
const out = (line) => fs.writeSync(1, line + '\n');
const nap = new Int32Array(new SharedArrayBuffer(4));

// The first line of stdin, read synchronously (this worker has nothing else to do).
function readLine() {
  const buf = Buffer.alloc(256);
  let text = '';
  while (!text.includes('\n')) {
    let n;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') { Atomics.wait(nap, 0, 0, 5); continue; }
      throw e;
    }
    if (n === 0) break;
    text += buf.toString('latin1', 0, n);
  }
  return text.split('\n')[0];
}

// Runs of consecutive ids, compared as 32-bit halves (a BigInt per id would cost more than
// the minting); an id not above the one before it starts a run of its own.
function runs(ids) {
  const w = new Uint32Array(ids.buffer, ids.byteOffset, ids.length * 2);
  let text = '';
  let start = 0;
  for (let i = 1; i <= ids.length; ++i) {
    if (i < ids.length) {
      const lo = w[2 * i], hi = w[2 * i + 1], plo = w[2 * i - 2], phi = w[2 * i - 1];
      const next = plo === 0xffffffff ? lo === 0 && hi === phi + 1 : lo === plo + 1 && hi === phi;
      if (next) continue;
    }
    text += `${ids[start]} ${i - start}\n`;
    start = i;
  }
  return text;
}

const fd = fs.openSync(runfile, 'w');
const gen = new sf.Generator({ nodeSource: source });
out(`node ${gen.nodeId} ${gen.status().markMs ?? -1}`);
const endMs = Number(readLine().split(' ')[1]);
out(`minting ${Date.now()}`);
let handed = 0;
while (Date.now() < endMs) {
  let ids;
  try {
    ids = gen.nextIds(batch);
  } catch (e) {
    out(`error ${e.code} ${Date.now()} ${e.message}`);
    Atomics.wait(nap, 0, 0, 1);
    continue;
  }
  fs.writeSync(fd, runs(ids));
  handed += ids.length;
}
const stats = gen.stats();
gen.close();
fs.closeSync(fd);
out(`closed ${handed} ${stats.markWrites} ${stats.markWriteFailures}`);
