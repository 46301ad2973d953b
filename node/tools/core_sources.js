'use strict';
// Prints one list of core/sources.txt (the core library's sources, which CMake builds from
// too), one path a line, relative to the package root: `node node/tools/core_sources.js
// core|etcd|no-etcd`. binding.gyp runs it at configure time; it fails on an unknown list
// and on a listed file that is missing, so a broken list stops the build there.
const fs = require('node:fs');
const path = require('node:path');

const core = path.join(__dirname, '..', '..', 'core');
const want = process.argv[2];
const lists = {};
let list = null;
for (const raw of fs.readFileSync(path.join(core, 'sources.txt'), 'utf8').split('\n')) {
  const line = raw.trim();
  if (line === '' || line.startsWith('#')) continue;
  const open = /^\[([a-z-]+)\]$/.exec(line);
  if (open) {
    list = open[1];
    lists[list] = [];
  } else if (list === null) {
    throw new Error(`core/sources.txt: '${line}' comes before any [list]`);
  } else {
    if (!fs.existsSync(path.join(core, line))) throw new Error(`core/sources.txt: ${line} does not exist`);
    lists[list].push(`core/${line}`);
  }
}
if (!Object.hasOwn(lists, want)) {
  throw new Error(`core/sources.txt has no list ${JSON.stringify(want)} (${Object.keys(lists).join(', ')})`);
}
process.stdout.write(lists[want].join('\n') + '\n');
