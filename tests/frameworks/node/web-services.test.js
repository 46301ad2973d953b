'use strict';
// docs/web-services.md's Node service, run: a cluster of two workers each leasing its own
// node id from a `local` registry, ids as JSON strings, slots released at SIGTERM; and the
// app's 503 answer to a clock rewind (buildApp with a scripted clock, through inject).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn, execFileSync } = require('node:child_process');
const { Generator, NodeIdUnavailable, decode, testing } = require('snowfleet');

const ROOT = path.resolve(__dirname, '..', '..', '..');

function extractSnippets() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-'));
  execFileSync('python3', [path.join(ROOT, 'tests/frameworks/snippets.py'), path.join(ROOT, 'docs/web-services.md'), dir]);
  return dir;
}
const snippets = extractSnippets();
process.on('exit', () => fs.rmSync(snippets, { recursive: true, force: true }));
const service = path.join(snippets, 'node_service.js');

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const claimed = (registry) =>
  fs.existsSync(registry) ? fs.readdirSync(registry).filter((f) => /^slot-\d{4}$/.test(f)).map((f) => Number(f.slice(5))) : [];

function held(registry) {
  return claimed(registry).filter((n) => {
    try {
      new Generator({ nodeSource: `local:${registry}?node=${n}` }).close();
      return false;
    } catch (e) {
      if (e instanceof NodeIdUnavailable) return true;
      throw e;
    }
  });
}

test('a cluster of two workers: two leased node ids, ids as strings, released at SIGTERM', async () => {
  const registry = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-'));
  const port = await freePort();
  const child = spawn(process.execPath, [service], {
    env: { ...process.env, PORT: String(port), WORKERS: '2', SNOWFLEET_NODE_SOURCE: `local:${registry}` },
    stdio: 'inherit',
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30000;
    for (;;) {
      const ok = await fetch(url + '/health/ready').then((r) => r.ok, () => false);
      if (ok && claimed(registry).length === 2) break;
      assert.ok(Date.now() < deadline, 'the service did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const workers = held(registry);
    assert.equal(workers.length, 2);
    const bodies = [];
    for (let i = 0; i < 40; i++) {
      const r = await fetch(url + '/orders', { method: 'POST', headers: { connection: 'close' } });
      assert.equal(r.status, 200);
      bodies.push(await r.text());
    }
    const orders = bodies.map((b) => JSON.parse(b));
    assert.ok(orders.every((o) => typeof o.id === 'string'));
    assert.equal(new Set(orders.map((o) => o.id)).size, orders.length);
    assert.ok(orders.every((o) => workers.includes(o.nodeId) && decode(o.id).nodeId === o.nodeId));
    assert.deepEqual(new Set(orders.map((o) => o.nodeId)), new Set(workers)); // round-robin reached both
    child.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null });
    await new Promise((r) => setTimeout(r, 300)); // the workers exit after the primary
    assert.deepEqual(held(registry), []);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a clock rewind is a 503 with Retry-After, and readiness fails', async () => {
  const { buildApp } = require(service);
  const clock = new testing.ScriptedClock([1737747359000, 1737747356600]); // then 2.4 s back
  const app = buildApp(new Generator({ nodeId: 3, clock, maxWaitMs: 0 }));
  const first = await app.inject({ method: 'POST', url: '/orders' });
  assert.equal(first.statusCode, 200);
  assert.match(first.body, /^\{"id":"\d+","nodeId":3\}$/);
  const refused = await app.inject({ method: 'POST', url: '/orders' });
  assert.equal(refused.statusCode, 503);
  assert.equal(refused.headers['retry-after'], '3');
  assert.deepEqual(refused.json(), { error: 'CLOCK_MOVED_BACKWARDS' });
  assert.equal((await app.inject({ url: '/health/ready' })).statusCode, 503);
  assert.equal((await app.inject({ url: '/health/live' })).statusCode, 200);
  await app.close();
});
