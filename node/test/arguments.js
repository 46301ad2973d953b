'use strict';
// The runner of conformance/vectors/arguments.json (kind "arguments", conformance/README.md):
// the argument rulebook. Values are host-neutral; JavaScript gets an int as a Number when
// it is a safe integer AND, in a second run of the same case, as a BigInt (an int no Number
// holds exactly runs once, as a BigInt). Names are camelCase. No case is skipped.
const assert = require('node:assert/strict');
const sf = require('../index.js');

const FROZEN_MS = 1737747358021;
const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** The JS forms of a vector value: one, or two for a safe int (Number and BigInt). */
function forms(v) {
  if ('int' in v) {
    const big = BigInt(v.int);
    const n = Number(v.int);
    return Number.isSafeInteger(n) ? [n, big] : [big];
  }
  if ('float' in v) return [v.float];
  if ('text' in v) return [v.text];
  if ('bool' in v) return [v.bool];
  throw new Error(`unknown argument value ${JSON.stringify(v)}`);
}

/** Every combination of the JS forms of `args`: [{ camelName: value }, ...]. */
function variants(args) {
  let out = [{}];
  for (const [name, v] of Object.entries(args)) {
    out = out.flatMap((o) => forms(v).map((x) => ({ ...o, [camel(name)]: x })));
  }
  return out;
}

function outcome(fn, expect, where) {
  let value;
  let caught;
  try {
    value = fn();
  } catch (e) {
    caught = e;
  }
  if (expect.error === undefined) {
    assert.equal(caught, undefined, `${where}: unexpected ${caught && caught.name}: ${caught && caught.message}`);
    return value;
  }
  assert.ok(caught !== undefined, `${where}: expected ${expect.error}, nothing was thrown`);
  if (expect.error === 'TYPE') {
    assert.equal(caught.constructor, TypeError, `${where}: expected a plain TypeError, got ${caught.name}: ${caught.message}`);
    assert.equal(caught.code, 'ERR_INVALID_ARG_TYPE', where);
    assert.ok(!(caught instanceof sf.SnowfleetError), `${where}: a host type error is not a SnowfleetError`);
    return undefined;
  }
  assert.ok(caught instanceof sf.errors[expect.error], `${where}: expected ${expect.error}, got ${caught.name}: ${caught.message}`);
  assert.ok(caught instanceof sf.SnowfleetError, `${where}: not a SnowfleetError`);
  assert.equal(caught.code, expect.error, where);
  for (const part of expect.message_contains || []) {
    assert.ok(caught.message.includes(part), `${where}: message ${JSON.stringify(caught.message)} lacks ${JSON.stringify(part)}`);
  }
  return undefined;
}

/** A generator case's checks on a new generator. */
function checkGenerator(g, expect, where) {
  assert.equal(g.nodeId, expect.node_id, `${where}: nodeId`);
  assert.equal(g.layout.toString(), expect.layout, `${where}: layout`);
  assert.equal(g.mode, expect.mode, `${where}: mode`);
  assert.equal(g.maxWaitMs, expect.max_wait_ms, `${where}: maxWaitMs`);
  assert.equal(g.maxDriftMs, expect.max_drift_ms, `${where}: maxDriftMs`);
}

/** next_ids / next_id / status / close on node 9 after one id, closed or not. */
function runBatchCase(c, a, where) {
  const g = new sf.Generator({ nodeId: 9, clock: new sf.testing.ScriptedClock(FROZEN_MS) });
  const before = g.nextId();
  if (c.closed) g.close();
  const issued = g.stats().idsIssued;
  if (c.op === 'status') {
    const st = g.status();
    assert.equal(st.healthy, c.expect.healthy, where);
    assert.equal(st.reason, c.expect.reason, where);
    return;
  }
  if (c.op === 'close') {
    g.close();
    assert.equal(g.closed, true, where);
    return;
  }
  const got = outcome(() => (c.op === 'next_id' ? [g.nextId()] : g.nextIds(a.n)), c.expect, where);
  if (got !== undefined) {
    if (c.op === 'next_ids') assert.equal(got.length, c.expect.count, `${where}: count`);
    for (const id of got) assert.ok(id > before, `${where}: ids follow the first`);
  } else if (!g.closed) {
    assert.equal(g.stats().idsIssued, issued, `${where}: a refusal issued nothing`);
    assert.ok(g.nextId() > before, `${where}: the generator carries on`);
  }
}

/** The async twin of a next_ids case: the same answer, as a promise (never a throw). */
async function runBatchAsync(c, a, where) {
  const g = new sf.Generator({ nodeId: 9, clock: new sf.testing.ScriptedClock(FROZEN_MS) });
  g.nextId();
  if (c.closed) g.close();
  let p;
  assert.doesNotThrow(() => { p = g.nextIdsAsync(a.n); }, `${where}: nextIdsAsync threw synchronously`);
  assert.ok(p instanceof Promise, `${where}: a promise`);
  let got;
  let caught;
  try {
    got = await p;
  } catch (e) {
    caught = e;
  }
  outcome(() => { if (caught) throw caught; return got; }, c.expect, `${where} (async)`);
  if (got) assert.equal(got.length, c.expect.count, `${where} (async): count`);
}

/** The async factory's twin of a generator case: the same answer, as a promise (never a throw). */
async function runCreateAsync(c, a, where) {
  let p;
  assert.doesNotThrow(() => { p = sf.Generator.create({ ...a, clock: new sf.testing.ScriptedClock(FROZEN_MS) }); },
    `${where}: Generator.create threw synchronously`);
  assert.ok(p instanceof Promise, `${where}: a promise`);
  let got;
  let caught;
  try {
    got = await p;
  } catch (e) {
    caught = e;
  }
  const g = outcome(() => { if (caught) throw caught; return got; }, c.expect, `${where} (create)`);
  if (g) {
    assert.ok(g instanceof sf.Generator, `${where} (create): a Generator`);
    checkGenerator(g, c.expect, `${where} (create)`);
    g.close();
  }
}

function runOne(c, a, where) {
  switch (c.op) {
    case 'generator': {
      const g = outcome(() => new sf.Generator({ ...a, clock: new sf.testing.ScriptedClock(FROZEN_MS) }), c.expect, where);
      if (g) checkGenerator(g, c.expect, where);
      return;
    }
    case 'next_ids':
    case 'next_id':
    case 'status':
    case 'close':
      return runBatchCase(c, a, where);
    case 'decode': {
      const d = outcome(() => sf.decode(a.id, a.layout), c.expect, where);
      if (d) {
        assert.equal(String(d.timestampMs), c.expect.timestamp_ms, `${where}: timestampMs`);
        for (const k of ['node_id', 'datacenter_id', 'machine_id', 'sequence']) assert.equal(d[camel(k)], c.expect[k], `${where}: ${k}`);
      }
      return;
    }
    case 'compose': {
      const id = outcome(() => sf.compose(a), c.expect, where);
      if (id !== undefined) assert.equal(String(id), c.expect.id, where);
      return;
    }
    case 'layout_create': {
      const l = outcome(() => sf.Layout.create(a), c.expect, where);
      if (l) assert.equal(l.toString(), c.expect.text, where);
      return;
    }
    case 'fields':
      assert.deepEqual(fieldNames(a.record), c.expect.names.map(camel), where);
      return;
    default:
      throw new Error(`${where}: unknown arguments op '${c.op}'`);
  }
}

// Layout properties that are not fields of the list: its preset name and whether split.
const LAYOUT_EXTRAS = ['preset', 'split'];

/** The names the package really offers for `record`, in the order it offers them. */
function fieldNames(record) {
  switch (record) {
    case 'stats':
    case 'status': {
      const g = new sf.Generator({ nodeId: 9, clock: new sf.testing.ScriptedClock(FROZEN_MS) });
      return Object.keys(record === 'stats' ? g.stats() : g.status());
    }
    case 'uuid7_stats':
    case 'uuid7_status': {
      const g = new sf.Uuid7Generator({ clock: new sf.testing.ScriptedClock(FROZEN_MS) });
      return Object.keys(record === 'uuid7_stats' ? g.stats() : g.status());
    }
    case 'layout':
      return Object.keys(new sf.Layout()).filter((k) => !LAYOUT_EXTRAS.includes(k));
    case 'generator_args': {
      // The options the constructor accepts, in its order: the one list its message for an
      // unknown key names.
      let message = '';
      try {
        new sf.Generator({ nodeId: 9, notAnOption: 1 });
      } catch (e) {
        message = e.message;
      }
      const m = /expected one of (.*)\)$/.exec(message);
      assert.ok(m, `an unknown option names the accepted ones: ${message}`);
      return m[1].split(', ');
    }
    default:
      throw new Error(`unknown fields record '${record}'`);
  }
}

/** Runs case `c` once per JS form of its arguments; returns how many runs it made. */
async function runArgumentsCase(c) {
  const all = variants(c.args);
  for (const [i, a] of all.entries()) {
    const where = `${c.id} [${Object.entries(a).map(([k, v]) => `${k}=${typeof v === 'bigint' ? `${v}n` : JSON.stringify(v)}`).join(', ')}]${all.length > 1 ? ` #${i}` : ''}`;
    runOne(c, a, where);
    if (c.op === 'next_ids') await runBatchAsync(c, a, where);
    if (c.op === 'generator') await runCreateAsync(c, a, where);
  }
  return all.length;
}

module.exports = { runArgumentsCase };
