'use strict';
// node node/tools/stage_package.js DIR: copies the files the npm tarball carries (package.json
// "files", as `npm pack --dry-run` lists them) into DIR, empty or new, with node/README.md as
// the package's README.md: npm shows the README at the package root, and the repository's
// root README is about every language. scripts/dist/build.sh packs from DIR (adding prebuilds/);
// tests/packaging/check_archives.py and scripts/test/node.sh check the tarball packed there.
// A prebuilds/ directory in the checkout (npm run prebuild) is left out: DIR's prebuilds
// are the ones its caller puts there.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node node/tools/stage_package.js DIR');
  process.exit(2);
}
if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
  console.error(`stage_package: ${dir} is not empty`);
  process.exit(2);
}
const listing = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
  cwd: root,
  encoding: 'utf8',
});
const files = JSON.parse(listing)[0].files.map((f) => f.path);
for (const f of files) {
  if (f.startsWith('prebuilds/')) continue;
  const from = path.join(root, f === 'README.md' ? 'node/README.md' : f);
  fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
  fs.copyFileSync(from, path.join(dir, f));
}
