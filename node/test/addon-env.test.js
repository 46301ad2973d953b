'use strict';
// node-gyp-build chooses where to look from the environment (SNOWFLEET_PREBUILD,
// npm_config_arch, PREBUILDS_ONLY); the no-addon error must describe the search it made, not
// the default one.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const NODE_MODULES = path.dirname(path.dirname(require.resolve('node-gyp-build')));

// The error of `require(index.js)` in a package copy with no addon, under extra env.
function loadError(env, setUp = () => {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snowfleet-addon-env-'));
  try {
    fs.mkdirSync(path.join(dir, 'node'));
    fs.copyFileSync(path.join(ROOT, 'node', 'index.js'), path.join(dir, 'node', 'index.js'));
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    setUp(dir);
    const script = `require(${JSON.stringify(path.join(dir, 'node'))})`;
    const r = spawnSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, NODE_PATH: NODE_MODULES, ...env },
    });
    assert.notEqual(r.status, 0, 'loaded an addon that is not there');
    return r.stderr.split('\n').find((l) => l.startsWith('Error: ')) || r.stderr;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('SNOWFLEET_PREBUILD: the error names the directory searched', () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'snowfleet-prebuild-'));
  try {
    const e = loadError({ SNOWFLEET_PREBUILD: elsewhere });
    assert.ok(e.includes(elsewhere), e);
  } finally {
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('npm_config_arch: the error names the arch searched for', () => {
  const other = process.arch === 'ppc64' ? 's390x' : 'ppc64';
  const e = loadError({ npm_config_arch: other });
  assert.ok(e.includes(other), e);
});

test('PREBUILDS_ONLY: a source build that is there is not called missing', () => {
  const e = loadError({ PREBUILDS_ONLY: '1' }, (dir) => {
    fs.mkdirSync(path.join(dir, 'build', 'Release'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'build', 'Release', 'snowfleet.node'), '');
  });
  assert.ok(e.includes('PREBUILDS_ONLY'), e);
});

test('addons disabled (--no-addons): the error says so, not "npm rebuild"', () => {
  const script = `require(${JSON.stringify(path.join(ROOT, 'node'))})`;
  const r = spawnSync(process.execPath, ['--no-addons', '-e', script], { encoding: 'utf8' });
  assert.notEqual(r.status, 0, 'loaded an addon with addons disabled');
  const e = r.stderr.split('\n').find((l) => l.startsWith('Error: ')) || r.stderr;
  assert.ok(e.includes('--no-addons') && !e.includes('npm rebuild'), e);
});
