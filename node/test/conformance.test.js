'use strict';
// Runs every case of the shared conformance vectors (conformance/vectors/*.json, format in
// conformance/README.md) against the Node package. No case is skipped: an unknown op or
// expectation key fails its case.
const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const sf = require('../index.js');
const { runArgumentsCase } = require('./arguments.js');

const VECTORS = process.env.SNOWFLEET_VECTORS_DIR || path.join(__dirname, '..', '..', 'conformance', 'vectors');
const files = fs.existsSync(VECTORS)
  ? fs.readdirSync(VECTORS).filter((f) => f.endsWith('.json')).sort()
  : [];

test('conformance vectors are present', () => {
  assert.ok(files.length > 0, `no vector files in ${VECTORS}`);
});

const MASK64 = (1n << 64n) - 1n;

/** The user's conversion of an id text: BigInt(text), or the text itself when not an integer. */
function idArg(text) {
  try {
    return BigInt(text);
  } catch {
    return text;
  }
}

function expectError(fn, exp, where) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught !== undefined, `${where}: expected ${exp.error}, nothing was thrown`);
  const cls = sf.errors[exp.error];
  assert.ok(cls, `${where}: unknown error code ${exp.error}`);
  assert.ok(caught instanceof cls, `${where}: expected ${cls.name}, got ${caught && caught.name}: ${caught && caught.message}`);
  assert.ok(caught instanceof sf.SnowfleetError, `${where}: not a SnowfleetError`);
  assert.equal(caught.code, exp.error, where);
  if (exp.drift_ms !== undefined) assert.equal(caught.driftMs, exp.drift_ms, `${where}: driftMs`);
  for (const part of exp.message_contains || []) {
    assert.ok(caught.message.includes(part), `${where}: message ${JSON.stringify(caught.message)} lacks ${JSON.stringify(part)}`);
  }
}

/** Compares every key of `exp`: a string expectation is compared with String(actual). */
function checkSubset(actual, exp, where) {
  for (const [key, want] of Object.entries(exp)) {
    assert.ok(key in actual, `${where}: no value for expected key '${key}'`);
    const got = actual[key];
    if (typeof want === 'string') assert.equal(String(got), want, `${where}.${key}`);
    else assert.deepEqual(got, want, `${where}.${key}`);
  }
}

/** Runs fn; checks its result with onResult, or the error when exp carries one. */
function run(fn, exp, where, onResult) {
  if (exp && exp.error !== undefined) return expectError(fn, exp, where);
  onResult(fn());
}

function layoutFacts(l) {
  return {
    text: l.toString(),
    preset: l.preset,
    epoch_ms: l.epochMs,
    timestamp_bits: l.timestampBits,
    node_bits: l.nodeBits,
    datacenter_bits: l.datacenterBits,
    machine_bits: l.machineBits,
    sequence_bits: l.sequenceBits,
    timestamp_shift: l.timestampShift,
    node_shift: l.nodeShift,
    max_node_id: l.maxNodeId,
    max_datacenter_id: l.maxDatacenterId,
    max_machine_id: l.maxMachineId,
    max_sequence: l.maxSequence,
    max_elapsed_ms: l.maxElapsedMs,
    max_timestamp_ms: l.maxTimestampMs,
    split: l.split,
  };
}

function checkLayout(l, exp, where) {
  checkSubset(layoutFacts(l), exp, where);
  // The canonical text parses back to an equal layout.
  assert.ok(sf.Layout.parse(l.toString()).equals(l), `${where}: text does not round-trip`);
}

function runLayoutCase(c) {
  const where = c.id;
  if (c.op === 'parse') {
    return run(() => sf.Layout.parse(c.text), c.expect, where, (l) => checkLayout(l, c.expect, where));
  }
  if (c.op === 'create') {
    const fields = { epochMs: BigInt(c.epoch_ms), timestampBits: c.timestamp_bits, sequenceBits: c.sequence_bits };
    if (c.datacenter_bits !== undefined) {
      fields.datacenterBits = c.datacenter_bits;
      fields.machineBits = c.machine_bits;
    } else {
      fields.nodeBits = c.node_bits;
    }
    return run(() => sf.Layout.create(fields), c.expect, where, (l) => checkLayout(l, c.expect, where));
  }
  throw new Error(`${where}: unknown layout op '${c.op}'`);
}

function runCodecCase(c) {
  const where = c.id;
  if (c.op === 'compose') {
    const fields = { layout: c.layout, timestampMs: BigInt(c.timestamp_ms), sequence: c.sequence };
    if (c.datacenter_id !== undefined) {
      fields.datacenterId = c.datacenter_id;
      fields.machineId = c.machine_id;
    } else {
      fields.nodeId = c.node_id;
    }
    return run(() => sf.compose(fields), c.expect, where, (id) => {
      assert.equal(typeof id, 'bigint');
      checkSubset({ id }, c.expect, where);
    });
  }
  if (c.op === 'decode') {
    return run(() => sf.decode(idArg(c.value), c.layout), c.expect, where, (d) => {
      checkSubset(
        { timestamp_ms: d.timestampMs, node_id: d.nodeId, datacenter_id: d.datacenterId, machine_id: d.machineId, sequence: d.sequence },
        c.expect,
        where,
      );
      // The string entry point agrees with the bigint one.
      assert.deepEqual(sf.decode(c.value, c.layout), d, `${where}: decode(string)`);
    });
  }
  if (c.op === 'parse_id') {
    return run(() => sf.parseId(c.text), c.expect, where, (id) => checkSubset({ id }, c.expect, where));
  }
  throw new Error(`${where}: unknown codec op '${c.op}'`);
}

function clockOf(segments) {
  return new sf.testing.ScriptedClock(
    segments.map((s) => {
      const seg = { ms: s.ms };
      if (s.count !== undefined) seg.count = s.count;
      if (s.step_ms !== undefined) seg.stepMs = s.step_ms;
      if (s.every !== undefined) seg.every = s.every;
      return seg;
    }),
  );
}

function generatorOptions(g, clock) {
  const o = { clock };
  if (g.layout !== undefined) o.layout = g.layout;
  if (g.node_id !== undefined) o.nodeId = g.node_id;
  if (g.node_source !== undefined) o.nodeSource = g.node_source;
  if (g.mode !== undefined) o.mode = g.mode;
  if (g.max_wait_ms !== undefined) o.maxWaitMs = g.max_wait_ms;
  if (g.max_drift_ms !== undefined) o.maxDriftMs = g.max_drift_ms;
  return o;
}

function checkRun(ids, gen, exp, where) {
  const maxSeq = BigInt(gen.layout.maxSequence);
  let increasing = true;
  let sum = 0n;
  let maxSequence = 0;
  for (let i = 0; i < ids.length; i++) {
    if (i > 0 && !(ids[i] > ids[i - 1])) increasing = false;
    sum = (sum + ids[i]) & MASK64;
    const s = Number(ids[i] & maxSeq);
    if (s > maxSequence) maxSequence = s;
  }
  const facts = {
    count: ids.length,
    first: ids.length ? ids[0] : undefined,
    last: ids.length ? ids[ids.length - 1] : undefined,
    strictly_increasing: increasing,
    sum,
    max_sequence: maxSequence,
  };
  checkSubset(facts, exp, where);
}

function runScenario(c) {
  const gens = new Map();
  const clocks = new Map();
  const deferred = new Map(); // opened by an "open" step
  const made = []; // every generator constructed: closed at the end (else open until GC)
  let first;
  // On its own scripted clock, or on the clock object of the generator clock_of names (one
  // clock object: one time). The clock is made here, so a script the core refuses is the
  // construction error the case expects.
  const construct = (g) => {
    const clock = g.clock_of !== undefined ? clocks.get(g.clock_of) : clockOf(g.clock);
    assert.ok(clock, `${c.id}: ${g.name} uses the clock of '${g.clock_of}', which is not open`);
    const gen = new sf.Generator(generatorOptions(g, clock));
    made.push(gen);
    gens.set(g.name, gen);
    clocks.set(g.name, clock);
  };
  try {
    for (const g of c.generators) {
      if (g.expect_construct_error !== undefined) {
        expectError(() => construct(g), g.expect_construct_error, `${c.id}: construct ${g.name}`);
        continue;
      }
      if (first === undefined) first = g.name;
      if (g.deferred) deferred.set(g.name, g);
      else construct(g);
    }
    runSteps(c, first, gens, clocks, deferred, construct);
  } finally {
    // Scenarios never see each other's open generators (nor share their state).
    for (const gen of made) gen.close();
  }
}

/** Runs the case's steps in order; an "open" step constructs a deferred generator. */
function runSteps(c, first, gens, clocks, deferred, construct) {
  c.steps.forEach((step, i) => {
    const name = step.gen === undefined ? first : step.gen;
    const where = `${c.id} step ${i} (${step.op} on ${name})`;
    const exp = step.expect;
    if (step.op === 'open') {
      const g = deferred.get(name);
      assert.ok(g, `${where}: no deferred generator '${name}'`);
      return run(() => construct(g), exp, where, () => assert.deepEqual(exp, {}, `${where}: expect`));
    }
    const gen = gens.get(name);
    assert.ok(gen, `${where}: no usable generator '${name}'`);
    switch (step.op) {
      case 'next_id': {
        const repeat = step.repeat === undefined ? 1 : step.repeat;
        if (repeat === 1) {
          return run(() => gen.nextId(), exp, where, (id) => {
            assert.equal(typeof id, 'bigint');
            checkSubset({ id }, exp, where);
          });
        }
        return run(
          () => {
            const ids = new Array(repeat);
            for (let k = 0; k < repeat; k++) ids[k] = gen.nextId();
            return ids;
          },
          exp,
          where,
          (ids) => checkRun(ids, gen, exp, where),
        );
      }
      case 'next_ids':
        return run(() => gen.nextIds(step.n), exp, where, (ids) => {
          assert.ok(ids instanceof BigInt64Array);
          checkRun(ids, gen, exp, where);
        });
      case 'stats': {
        const s = gen.stats();
        return checkSubset(
          {
            ids_issued: s.idsIssued,
            rewinds_seen: s.rewindsSeen,
            waits: s.waits,
            refusals: s.refusals,
            ms_borrowed: s.msBorrowed,
            waited_ns_total: s.waitedNsTotal,
            waited_ns_max: s.waitedNsMax,
            mark_writes: s.markWrites,
            lease_refusals: s.leaseRefusals,
            mark_write_failures: s.markWriteFailures,
            lease_renewal_failures: s.leaseRenewalFailures,
          },
          exp,
          where,
        );
      }
      case 'status': {
        const s = gen.status();
        return checkSubset(
          {
            healthy: s.healthy, wall_ms: s.wallMs, last_ms: s.lastMs, drift_ms: s.driftMs, node_id: s.nodeId, reason: s.reason, mode: s.mode,
            lease_state: s.leaseState, mark_ms: s.markMs, lease_expires_in_ms: s.leaseExpiresInMs,
            mark_headroom_ms: s.markHeadroomMs,
          },
          exp,
          where,
        );
      }
      case 'drift':
        return checkSubset({ drift_ms: gen.driftMs }, exp, where);
      case 'close':
        assert.deepEqual(exp, {}, `${where}: expect`);
        return gen.close();
      case 'clock': {
        const k = clocks.get(name);
        return checkSubset(
          { reads: k.reads, sleep_count: k.sleepCount, slept_ns: k.sleptNs, max_sleep_ns: k.maxSleepNs, min_sleep_ns: k.minSleepNs },
          exp,
          where,
        );
      }
      default:
        throw new Error(`${where}: unknown scenario op '${step.op}'`);
    }
  });
}

function runTimeCase(c) {
  if (c.op !== 'parse_time') throw new Error(`${c.id}: unknown time op '${c.op}'`);
  return run(() => sf.parseTime(c.text), c.expect, c.id, (ms) => {
    assert.equal(typeof ms, 'number', `${c.id}: a Number`);
    checkSubset({ timestamp_ms: ms }, c.expect, c.id);
  });
}

const TEXT = {
  base32: [sf.formatBase32, sf.parseBase32],
  base62: [sf.formatBase62, sf.parseBase62],
  any: [null, sf.parseIdText],
};

function runTextCase(c) {
  const [format, parse] = TEXT[c.encoding];
  if (c.op === 'parse') return run(() => parse(c.text), c.expect, c.id, (id) => assert.equal(id, BigInt(c.expect.id)));
  if (c.op !== 'round_trip' && c.op !== 'format') throw new Error(`${c.id}: unknown text op '${c.op}'`);
  return run(() => format(BigInt(c.value)), c.expect, c.id, (text) => {
    assert.equal(text, c.expect.text, c.id);
    if (c.op === 'round_trip') assert.equal(parse(text), BigInt(c.value), `${c.id}: parsed back`);
  });
}

function runRangeCase(c) {
  if (c.op === 'id_range') {
    const options = { layout: c.layout, ...(c.slack_ms === undefined ? {} : { slackMs: BigInt(c.slack_ms) }) };
    return run(() => sf.idRange(BigInt(c.start_ms), BigInt(c.end_ms), options), c.expect, c.id, (r) => checkSubset(r, c.expect, c.id));
  }
  const fn = { min_id: sf.minId, max_id: sf.maxId }[c.op];
  if (!fn) throw new Error(`${c.id}: unknown range op '${c.op}'`);
  return run(() => fn(BigInt(c.timestamp_ms), c.layout), c.expect, c.id, (id) => assert.equal(id, BigInt(c.expect.id)));
}

/** uuid7.json: UUIDv7 generators on a scripted clock and random source; decode of UUID text. */
function runUuid7Case(c) {
  if (c.op === 'decode') {
    if (c.expect.error !== undefined) return expectError(() => sf.decodeUuid7(c.text), c.expect, c.id);
    const d = sf.decodeUuid7(c.text);
    return checkSubset({ timestamp_ms: d.timestampMs, counter: d.counter, random: d.random, canonical: d.uuid }, c.expect, c.id);
  }
  assert.equal(c.op, 'generate', `${c.id}: unknown op`);
  const g = new sf.Uuid7Generator({ mode: c.mode, maxWaitMs: c.max_wait_ms, clock: clockOf(c.clock), randomSeed: BigInt(c.seed) });
  c.steps.forEach((step, i) => {
    const where = `${c.id} step ${i}`;
    const call = () => (step.op === 'next' ? [g.nextUuid7()] : g.nextUuid7s(step.n));
    if (step.expect.error !== undefined) return expectError(call, step.expect, where);
    const got = call();
    if (step.expect.uuids !== undefined) return assert.deepEqual(got, step.expect.uuids, where);
    assert.equal(got.length, step.expect.count, where);
    assert.equal(got[0], step.expect.first, where);
    assert.equal(got[got.length - 1], step.expect.last, where);
  });
}

const RUNNERS = { layout: runLayoutCase, codec: runCodecCase, scenario: runScenario, time: runTimeCase, arguments: runArgumentsCase, text: runTextCase, range: runRangeCase, uuid7: runUuid7Case };

for (const file of files) {
  const doc = JSON.parse(fs.readFileSync(path.join(VECTORS, file), 'utf8'));
  describe(`conformance/${file}`, () => {
    test('header', () => {
      assert.equal(doc.schema_version, 1);
      assert.ok(RUNNERS[doc.kind], `unknown kind ${doc.kind}`);
      assert.ok(Array.isArray(doc.cases) && doc.cases.length > 0);
      assert.equal(new Set(doc.cases.map((c) => c.id)).size, doc.cases.length, 'case ids are unique');
    });
    for (const c of doc.cases) test(c.id, () => RUNNERS[doc.kind](c));
  });
}
