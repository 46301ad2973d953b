'use strict';
// The package's version: one value (the repository's VERSION file) for package.json and the
// native addon, and a clear error when an install pairs a JS layer and an addon from two
// releases (a stale build/ or prebuild).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const pkg = require('../../package.json');

test('package.json, VERSION and the addon carry one version', () => {
  const addon = require('node-gyp-build')(ROOT);
  assert.equal(pkg.version, fs.readFileSync(path.join(ROOT, 'VERSION'), 'utf8').trim());
  assert.equal(addon.version, pkg.version);
});

test('an addon from another release is refused on load, naming both versions', () => {
  // A package whose package.json says 9.9.9 next to this build's addon.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snowfleet-version-'));
  try {
    fs.mkdirSync(path.join(dir, 'node'));
    fs.copyFileSync(path.join(ROOT, 'node', 'index.js'), path.join(dir, 'node', 'index.js'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...pkg, version: '9.9.9' }));
    for (const d of ['build', 'prebuilds', 'node_modules']) {
      if (fs.existsSync(path.join(ROOT, d))) fs.symlinkSync(path.join(ROOT, d), path.join(dir, d));
    }
    const r = spawnSync(process.execPath, ['-e', "require('./node/index.js')"], { cwd: dir, encoding: 'utf8' });
    assert.notEqual(r.status, 0, 'loaded: the version mismatch went unnoticed');
    assert.match(r.stderr, /Error: snowfleet 9\.9\.9's JavaScript layer/);
    assert.ok(r.stderr.includes(`native addon ${pkg.version}`), r.stderr);
    assert.ok(r.stderr.includes('npm rebuild snowfleet'), r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no addon for this platform is one error naming the platform and how to build one', () => {
  // The package as an install with no prebuild for this platform and no source build left
  // (pnpm 10 and npm's allowScripts skip the install script; an unsupported OS or arch).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-no-addon-'));
  try {
    fs.mkdirSync(path.join(dir, 'node'));
    fs.copyFileSync(path.join(ROOT, 'node', 'index.js'), path.join(dir, 'node', 'index.js'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const r = spawnSync(process.execPath, ['-e', "require('./node/index.js')"], { cwd: dir, encoding: 'utf8' });
    assert.notEqual(r.status, 0, 'loaded without an addon');
    const plat = new RegExp(`${process.platform}.{0,8}${process.arch}`);
    assert.match(r.stderr, plat);
    assert.ok(r.stderr.includes('npm rebuild snowfleet'), r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const onGlibc = Boolean(process.report.getReport().header.glibcVersionRuntime);

test('a musl addon that LIBC=musl chose on a glibc machine is refused naming LIBC=musl', { skip: !onGlibc && 'needs glibc' }, () => {
  // LIBC=musl makes node-gyp-build prefer the musl prebuild; on glibc it cannot load (here a
  // stand-in file: the dynamic loader refuses either way), and the way out is unsetting LIBC.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-musl-addon-'));
  try {
    fs.mkdirSync(path.join(dir, 'node'));
    fs.copyFileSync(path.join(ROOT, 'node', 'index.js'), path.join(dir, 'node', 'index.js'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const prebuilds = path.join(dir, 'prebuilds', `${process.platform}-${process.arch}`);
    fs.mkdirSync(prebuilds, { recursive: true });
    fs.writeFileSync(path.join(prebuilds, 'snowfleet.musl.node'), 'not an ELF file\n'.repeat(16));
    const r = spawnSync(process.execPath, ['-e', "require('./node/index.js')"], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, LIBC: 'musl' },
    });
    assert.notEqual(r.status, 0, 'loaded a file that is no addon');
    assert.ok(r.stderr.includes('snowfleet.musl.node'), r.stderr);
    assert.ok(r.stderr.includes('LIBC=musl'), r.stderr);
    assert.match(r.stderr, /glibc/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
