'use strict';
// index.d.ts is checked by compiling a usage file with tsc --noEmit (strict, nodenext
// resolution through package.json "exports", like a TypeScript user importing 'snowfleet').
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

test('tsc --noEmit accepts node/test/types/usage.ts against index.d.ts', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(__dirname, 'types', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});
