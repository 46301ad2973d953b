'use strict';
// After prebuildify: put the id-space registry (libsnowfleet_registry.so.1, built by
// binding.gyp next to the addon) beside every prebuilt .node, which loads it through
// RUNPATH $ORIGIN.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const lib = path.join(root, 'build', 'Release', 'libsnowfleet_registry.so.1');
if (!fs.existsSync(lib)) throw new Error(`${lib} is missing: build the addon first`);
for (const dir of fs.readdirSync(path.join(root, 'prebuilds'))) {
  fs.copyFileSync(lib, path.join(root, 'prebuilds', dir, path.basename(lib)));
}
