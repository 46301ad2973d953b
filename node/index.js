'use strict';
// snowfleet for Node.js: Snowflake-style 64-bit ids as BigInt or decimal strings.
//
// The native addon (bindings/node/) wraps the C++ core. This file builds the Error classes
// from the core's own list of error kinds and makes every error the addon throws (through
// the factories it registers), shapes option objects into the addon's positional arguments
// (own properties only, unknown keys refused), and holds the classes' JS side. Every rule
// about ids and arguments lives in the core; the addon does the host's type check.

const path = require('node:path');

const binding = loadAddon(path.join(__dirname, '..'));

// node-gyp-build finds the addon (build/ from a source build, else the matching prebuild);
// its own errors name neither a way out nor, for LIBC=musl, the variable that chose the file.
// It takes its search from the environment too (SNOWFLEET_PREBUILD, PREBUILDS_ONLY,
// npm_config_arch/platform, LIBC): the error describes the search it made.
function loadAddon(root) {
  const gypBuild = require('node-gyp-build');
  let file;
  try {
    file = gypBuild.resolve(root);
  } catch {
    const env = process.env;
    const prebuilds = env.SNOWFLEET_PREBUILD
      ? `${env.SNOWFLEET_PREBUILD} (SNOWFLEET_PREBUILD)`
      : path.join(root, 'prebuilds');
    const source = env.PREBUILDS_ONLY
      ? `PREBUILDS_ONLY=${env.PREBUILDS_ONLY} in the environment skips a source build in ${path.join(root, 'build')}`
      : `no source build is in ${path.join(root, 'build')}`;
    throw new Error(
      `snowfleet has no native addon for ${addonTarget()}: no prebuild in ${prebuilds} ` +
        `matches and ${source} (pnpm 10 and npm's allowScripts skip the install script ` +
        `that builds it). Build it: npm rebuild snowfleet (needs python3, make and a C++17 ` +
        `compiler; with pnpm, allow snowfleet's build script first)`,
    );
  }
  try {
    return require(file);
  } catch (err) {
    const glibc = glibcVersion();
    let wayOut = 'Rebuild it: npm rebuild snowfleet';
    if (err.code === 'ERR_DLOPEN_DISABLED') {
      wayOut =
        'This Node runs with native addons disabled (--no-addons, or the permission model ' +
        'without --allow-addons): allow them';
    } else if (process.env.LIBC === 'musl' && glibc) {
      wayOut = `LIBC=musl in the environment chose this musl build on a glibc ${glibc} machine: unset LIBC`;
    }
    const e = new Error(
      `snowfleet cannot load its native addon ${file} on ${addonTarget()}: ` +
        `${String(err.message).replace(/\.+$/, '')}. ${wayOut}`,
      { cause: err },
    );
    if (err.code) e.code = err.code;
    throw e;
  }
}

// Only on the error paths: a process report takes milliseconds.
function glibcVersion() {
  return process.report.getReport().header.glibcVersionRuntime;
}

// The platform as node-gyp-build matches prebuilds: os, arch and libc (LIBC overrides it).
function addonTarget() {
  const glibc = glibcVersion();
  const { LIBC, npm_config_arch: arch, npm_config_platform: platform } = process.env;
  const libc = LIBC ? `libc ${LIBC} from LIBC=${LIBC}` : glibc ? `glibc ${glibc}` : 'not glibc';
  const os = platform ? `${platform} (npm_config_platform)` : process.platform;
  const cpu = arch ? `${arch} (npm_config_arch)` : process.arch;
  return `${os}-${cpu} (${libc}), Node ${process.versions.node}`;
}

// package.json and the addon both carry the repository's VERSION file: an addon from another
// release (a stale build/ or prebuild) is refused here, before anything uses it.
const { version } = require('../package.json');
if (binding.version !== version) {
  throw new Error(
    `snowfleet ${version}'s JavaScript layer loaded the native addon ${binding.version}: the two ` +
      `come from different releases. Reinstall one release: npm rebuild snowfleet, or ` +
      `npm install snowfleet@${version}`,
  );
}

// ---- errors ---------------------------------------------------------------------------

const BRAND = Symbol.for('snowfleet.error');

/**
 * Base of every error the core raises. InvalidArgument and TimestampOutOfRange extend
 * RangeError instead (JS has single inheritance), so `instanceof SnowfleetError` checks a
 * brand that all snowfleet error classes carry.
 */
class SnowfleetError extends Error {
  static [Symbol.hasInstance](value) {
    if (this === SnowfleetError) return value != null && value[BRAND] === true;
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

// Host base class by the core's `category` column. A category missing here makes loading
// fail loudly instead of silently picking a base.
const BASES = {
  argument: RangeError,
  range: RangeError,
  clock: SnowfleetError,
  state: SnowfleetError,
  unavailable: SnowfleetError,
  internal: SnowfleetError,
};

function defineErrorClass(kind) {
  const Base = BASES[kind.category];
  if (Base === undefined) {
    throw new Error(`snowfleet: no JS base class for error category '${kind.category}'`);
  }
  const { code, name } = kind;
  const hasDrift = code === 'CLOCK_MOVED_BACKWARDS';
  // The computed key names the class, so stacks read "ClockMovedBackwards: ...".
  const cls = {
    [name]: class extends Base {
      constructor(message, options) {
        super(message);
        /** The core's stable code, e.g. 'CLOCK_MOVED_BACKWARDS'. */
        this.code = code;
        if (hasDrift) {
          /** How many ms the clock was behind (0 when it stopped rather than retreated). */
          this.driftMs = options && options.driftMs !== undefined ? options.driftMs : 0;
        }
      }
    },
  }[name];
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
  Object.defineProperty(cls.prototype, BRAND, { value: true });
  Object.defineProperty(cls, 'code', { value: code, enumerable: true });
  Object.defineProperty(cls, 'category', { value: kind.category, enumerable: true });
  return cls;
}

Object.defineProperty(SnowfleetError.prototype, 'name', {
  value: 'SnowfleetError',
  writable: true,
  configurable: true,
});
Object.defineProperty(SnowfleetError.prototype, BRAND, { value: true });

/** The core's error kinds ({ code, name, category, summary }), in the core's order. */
const errorKinds = Object.freeze(binding.errorKinds.map((k) => Object.freeze(k)));
const errorClasses = errorKinds.map(defineErrorClass);

/** Every error class by its stable code: errors.CLOCK_MOVED_BACKWARDS === ClockMovedBackwards. */
const errors = Object.freeze(Object.fromEntries(errorKinds.map((k, i) => [k.code, errorClasses[i]])));

// ---- host type errors -------------------------------------------------------------------

/** A JS value as messages name it: "boolean true", "string '12a'", "bigint 5n", "an array". */
function describe(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return `string '${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
    case 'bigint':
      return `bigint ${v}n`;
    case 'number':
    case 'boolean':
      return `${typeof v} ${v}`;
    case 'object':
      return 'an object';
    default:
      return `a ${typeof v}`;
  }
}

/** The host's type error, as Node's own APIs raise it: a plain TypeError with this code. */
function hostTypeError(message) {
  const e = new TypeError(message);
  e.code = 'ERR_INVALID_ARG_TYPE';
  return e;
}

/** A value of the wrong host type: names the argument, what it must be and what it got. */
const typeError = (name, want, got) => hostTypeError(`${name} must be ${want}, got ${describe(got)}`);

// The addon throws what these make: every JS error is shaped here.
binding.setErrorFactories((kind, message, driftMs) => new errorClasses[kind](message, { driftMs }), typeError);

// ---- option objects ---------------------------------------------------------------------

const own = (o, k) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/**
 * The values of `keys` in `options`, in order, undefined for a key not given. Only own
 * properties count (an Object.prototype property set by other code never becomes an
 * option); an own enumerable key outside `keys` is a TypeError, so a typo such as
 * `nodeID` never falls back to a default.
 */
function shape(options, keys, what) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw typeError(what, 'an options object', options);
  }
  for (const k of Object.keys(options)) {
    if (!keys.includes(k)) throw hostTypeError(`unknown ${what} key '${k.slice(0, 40)}' (expected one of ${keys.join(', ')})`);
  }
  return keys.map((k) => own(options, k));
}

// ---- Layout -------------------------------------------------------------------------------

const LAYOUT_TEXT = Symbol('snowfleet.layoutText');
const LAYOUT_FIELDS = ['epochMs', 'timestampBits', 'nodeBits', 'datacenterBits', 'machineBits', 'sequenceBits'];

/**
 * The bit layout of an id. Immutable; its properties come from the core (parseLayout).
 * new Layout() is the default layout; new Layout(text) parses the text form or a preset name.
 */
class Layout {
  constructor(text) {
    const info = arguments.length === 0 ? binding.parseLayout('default') : binding.parseLayout(text);
    this[LAYOUT_TEXT] = info.text;
    for (const [k, v] of Object.entries(info)) if (k !== 'text') this[k] = v;
    Object.freeze(this);
  }

  /** Layout.parse(text): the text form ("41.10.12@1704067200000") or a preset name. */
  static parse(text) {
    return new Layout(arguments.length === 0 ? undefined : text);
  }

  /**
   * Layout.create({ epochMs, timestampBits, nodeBits, sequenceBits }) or, split,
   * Layout.create({ epochMs, timestampBits, datacenterBits, machineBits, sequenceBits }).
   * The core's Layout::create decides which fields go together.
   */
  static create(fields) {
    return new Layout(binding.createLayout(...shape(fields, LAYOUT_FIELDS, 'Layout.create')).text);
  }

  toString() {
    return this[LAYOUT_TEXT];
  }

  toJSON() {
    return this[LAYOUT_TEXT];
  }

  /** Same layout as `other` (a Layout or its text form). */
  equals(other) {
    return new Layout(layoutArg(other))[LAYOUT_TEXT] === this[LAYOUT_TEXT];
  }
}
for (const [name, text] of [['DEFAULT', 'default'], ['TWITTER', 'twitter'], ['DISCORD', 'discord']]) {
  Object.defineProperty(Layout, name, { value: new Layout(text), enumerable: true });
}

/** A layout argument as the addon takes it: a Layout becomes its text, anything else passes. */
const layoutArg = (v) => (v instanceof Layout ? v[LAYOUT_TEXT] : v);

// ---- ScriptedClock ------------------------------------------------------------------------

/** A clock argument as the addon takes it: a ScriptedClock becomes its handle. */
let clockArg;

const SEGMENT_KEYS = ['ms', 'count', 'stepMs', 'every'];

/**
 * One segment as [ms, count, stepMs, every]: a ms value alone, or a segment object. A ms
 * value is a Number, a BigInt or signed decimal text (the addon reads each).
 */
function segment(s) {
  if (s !== null && typeof s === 'object' && !Array.isArray(s)) {
    const [ms, count, stepMs, every] = shape(s, SEGMENT_KEYS, 'clock segment');
    return [ms, count, stepMs, every];
  }
  return [s, undefined, undefined, undefined];
}

/** A script (one ms value, one segment, or a list of them) as flat segments for the addon. */
const script = (s) => (Array.isArray(s) ? s.flatMap(segment) : segment(s));

/**
 * A deterministic clock for tests: wall readings follow a script of segments
 * { ms, count = 1, stepMs = 0, every = 1 }; monotonic time advances only by what is slept
 * on it. With { ticking: true }, time slept on it also passes on the wall.
 */
class ScriptedClock {
  #c;

  constructor(initial = 0, options = {}) {
    const [ticking] = shape(options, ['ticking'], 'ScriptedClock option');
    this.#c = binding.newClock(script(initial));
    if (ticking !== undefined) this.ticking = ticking;
  }

  setScript(s) { this.#c.setScript(script(s)); }
  append(s) { this.#c.append(segment(s)); }
  setWallMs(ms) { this.#c.setWallMs(ms); }
  advanceWallMs(deltaMs) { this.#c.advanceWallMs(deltaMs); }
  /** The reading the next wall-clock read will return, in ms (does not consume it). */
  peekWallMs() { return this.#c.counters().wallMs; }
  /** Sleeps on the clock, as a generator's wait does (virtual time: returns at once). */
  sleepNs(ns) { this.#c.sleepNs(ns); }
  get ticking() { return this.#c.counters().ticking; }
  set ticking(on) { this.#c.setTicking(on); }
  get reads() { return this.#c.counters().reads; }
  get sleepCount() { return this.#c.counters().sleepCount; }
  get sleptNs() { return this.#c.counters().sleptNs; }
  get maxSleepNs() { return this.#c.counters().maxSleepNs; }
  get minSleepNs() { return this.#c.counters().minSleepNs; }

  static {
    clockArg = (v) => (v instanceof ScriptedClock ? v.#c.handle : v);
  }
}

// ---- Generator ----------------------------------------------------------------------------

// SNOWFLEET_GENERATOR_ARGS's camel names, in newGenerator's order (lists.h).
const GENERATOR_OPTIONS = Object.freeze([...binding.generatorOptions]);
const LAYOUT_ARG = GENERATOR_OPTIONS.indexOf('layout');
const CLOCK_ARG = GENERATOR_OPTIONS.indexOf('clock');
if (LAYOUT_ARG < 0 || CLOCK_ARG < 0) throw new Error(`snowfleet: the addon's generator options lack layout or clock: ${GENERATOR_OPTIONS}`);

/** The constructor's arguments for the addon, in its order, from a user's options. */
function generatorArgs(options) {
  const args = shape(options, GENERATOR_OPTIONS, 'Generator option');
  args[LAYOUT_ARG] = layoutArg(args[LAYOUT_ARG]);
  args[CLOCK_ARG] = clockArg(args[CLOCK_ARG]);
  return args;
}

/** A core generator made by Generator.create, handed to the constructor (module-private). */
class NativeGenerator {
  constructor(g) { this.g = g; }
}

/** A thread-safe Snowflake id generator over the C++ core. */
class Generator {
  #g;
  #layout;

  constructor(options) {
    const g = options instanceof NativeGenerator ? options.g : binding.newGenerator(...generatorArgs(options));
    this.#g = g;
    // The hot methods are the native functions themselves, bound to the core generator:
    // no JS frame and no unwrap per call, and a detached `const next = gen.nextId` works.
    for (const name of ['nextId', 'nextIdString', 'nextIds']) {
      Object.defineProperty(this, name, { value: g[name], configurable: true });
    }
  }

  /**
   * Generator.create(options): the same generator, constructed on the libuv threadpool, so
   * a leased node source (local:, etcd://) claims its node id without blocking the event
   * loop. Always a promise: bad options and a failed claim reject it.
   */
  static async create(options) {
    return new Generator(new NativeGenerator(await binding.newGeneratorAsync(...generatorArgs(options))));
  }

  /** nextIds(n) on the libuv threadpool; always a promise (errors reject it). */
  nextIdsAsync(n) {
    try {
      return this.#g.nextIdsAsync(n);
    } catch (e) {
      return Promise.reject(e); // a bad n or a closed generator, judged before any work
    }
  }
  stats() { return this.#g.stats(); }
  status() { return this.#g.status(); }
  close() { this.#g.close(); }
  get closed() { return this.#g.closed(); }
  /** max(0, last issued ms - wall clock now). Reads the clock. */
  get driftMs() { return this.#g.driftMs(); }
  get nodeId() { return this.#g.nodeId; }
  get mode() { return this.#g.mode; }
  get maxWaitMs() { return this.#g.maxWaitMs; }
  get maxDriftMs() { return this.#g.maxDriftMs; }
  get layout() { return (this.#layout ??= new Layout(this.#g.layout)); }
}

// ---- UUIDv7 -------------------------------------------------------------------------------

const UUID7_OPTIONS = ['mode', 'maxWaitMs', 'maxDriftMs', 'clock', 'randomSeed'];

/**
 * RFC 9562 UUIDv7 from the core's guarded generator: the same rewind guard, modes, wait
 * budget and drift limit as Generator; strictly increasing per generator and across threads.
 * nextUuid7() returns the canonical string, nextUuid7Bytes() a 16-byte Uint8Array (a Buffer),
 * nextUuid7s(n) an array of n strings. `clock` (a testing.ScriptedClock) and `randomSeed`
 * (the scripted splitmix64 random source of the conformance vectors) are for tests.
 */
class Uuid7Generator {
  #g;

  constructor(options = {}) {
    const args = shape(options, UUID7_OPTIONS, 'Uuid7Generator option');
    args[3] = clockArg(args[3]);
    const scratch = new Uint8Array(16);
    const g = binding.newUuid7Generator(...args, scratch);
    this.#g = g;
    Object.defineProperty(this, 'nextUuid7', { value: g.nextUuid7, configurable: true });
    // One native call for the batch, one string per 1,024 UUIDs, sliced here (the core
    // checks n): a string per UUID made through N-API cost more than the UUID itself. A
    // slice shares its chunk's string: a kept UUID keeps up to 36 KiB alive.
    const text = g.nextUuid7sText;
    Object.defineProperty(this, 'nextUuid7s', {
      value: function nextUuid7s(n) {
        const out = [];
        for (const chunk of text(n)) {
          for (let at = 0; at < chunk.length; at += 36) out.push(chunk.slice(at, at + 36));
        }
        return out;
      },
      configurable: true,
    });
    // A Buffer (a Uint8Array) from Node's pool, filled from the scratch the core wrote.
    const fill = g.fillUuid7;
    const allocUnsafe = Buffer.allocUnsafe;
    Object.defineProperty(this, 'nextUuid7Bytes', {
      value: function nextUuid7Bytes() {
        fill();
        const out = allocUnsafe(16);
        out.set(scratch);
        return out;
      },
      configurable: true,
    });
  }

  stats() { return this.#g.stats(); }
  status() { return this.#g.status(); }
  close() { this.#g.close(); }
  get closed() { return this.#g.closed(); }
  get mode() { return this.#g.mode; }
  get maxWaitMs() { return this.#g.maxWaitMs; }
  get maxDriftMs() { return this.#g.maxDriftMs; }
}

// `using g = new Generator(...)` / `await using`: disposing closes the generator.
for (const cls of [Generator, Uuid7Generator]) {
  Object.defineProperty(cls.prototype, Symbol.dispose, {
    value: function dispose() { this.close(); }, writable: true, configurable: true,
  });
  Object.defineProperty(cls.prototype, Symbol.asyncDispose, {
    value: async function asyncDispose() { this.close(); }, writable: true, configurable: true,
  });
}

// ---- codec --------------------------------------------------------------------------------

/** decode(id, layout?): id a BigInt, a decimal string or a safe-integer Number. */
function decode(id, layout) {
  return binding.decode(id, layoutArg(layout));
}

const COMPOSE_FIELDS = ['timestampMs', 'nodeId', 'datacenterId', 'machineId', 'sequence', 'layout'];

/** compose({ timestampMs, nodeId | datacenterId + machineId, sequence = 0, layout }) -> bigint */
function compose(fields) {
  const [timestampMs, nodeId, datacenterId, machineId, sequence, layout] = shape(fields, COMPOSE_FIELDS, 'compose field');
  return binding.compose(layoutArg(layout), timestampMs, nodeId, datacenterId, machineId, sequence);
}

// ---- the ids of a time, text forms --------------------------------------------------------

/** Unix ms of a Date (an invalid Date is InvalidArgument); a Number or BigInt passes as is. */
function timeMs(value, name) {
  if (!(value instanceof Date)) return value;
  const ms = value.getTime();
  if (Number.isNaN(ms)) throw new errors.INVALID_ARGUMENT(`${name} must be a valid Date, got Invalid Date`);
  return ms;
}

/** minId(time, layout?): the lowest id any node can mint in that ms (a Date or Unix ms). */
function minId(time, layout) {
  return binding.minId(timeMs(time, 'time'), layoutArg(layout));
}

/** maxId(time, layout?): the highest id any node can mint in that ms. */
function maxId(time, layout) {
  return binding.maxId(timeMs(time, 'time'), layoutArg(layout));
}

/**
 * idRange(start, end, { slackMs = 0, layout }?) -> { first, last }: inclusive bounds of the ids
 * stamped in [start, end). Pass a monotonic generator's maxDriftMs as slackMs to find every
 * id it minted in that time (it may stamp ids up to maxDriftMs ahead of the clock).
 */
function idRange(start, end, options) {
  const [slackMs, layout] = options === undefined ? [] : shape(options, ['slackMs', 'layout'], 'idRange option');
  return binding.idRange(timeMs(start, 'start'), timeMs(end, 'end'), slackMs, layoutArg(layout));
}

/** Crockford base32 (13 characters, TSID's form) and base62 (11) forms of an id. */
const formatBase32 = (id) => binding.formatIdAs(id, 'base32');
const parseBase32 = (text) => binding.parseIdAs(text, 'base32');
const formatBase62 = (id) => binding.formatIdAs(id, 'base62');
const parseBase62 = (text) => binding.parseIdAs(text, 'base62');
// decode's rule (the CLI's): digits only are decimal whatever the length, else 13
// characters base32 and 11 base62.
const parseIdText = (text) => binding.parseIdAs(text, 'any');

// ---- JSON -----------------------------------------------------------------------------

/**
 * A copy of `value` that JSON.stringify accepts: every bigint becomes its decimal string,
 * a BigInt64Array/BigUint64Array becomes an array of strings. JSON.stringify throws a
 * TypeError on a bigint by design; this does not patch BigInt.prototype.toJSON.
 */
function toJSONSafe(value) {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof BigInt64Array || value instanceof BigUint64Array) {
    return Array.from(value, (x) => x.toString());
  }
  if (Array.isArray(value)) return value.map(toJSONSafe);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    if (typeof value.toJSON === 'function') return toJSONSafe(value.toJSON());
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJSONSafe(v);
    return out;
  }
  return value;
}

/** A JSON.stringify replacer writing bigints as decimal strings: JSON.stringify(x, jsonReplacer). */
function jsonReplacer(_key, value) {
  return typeof value === 'bigint' ? value.toString() : value;
}

// ---- exports --------------------------------------------------------------------------

const { parseId, formatId, parseTime, decodeUuid7 } = binding;

/** Deterministic clocks for tests (the conformance runner uses it too). */
const testing = Object.freeze({ ScriptedClock });

module.exports = {
  Generator,
  Uuid7Generator,
  decodeUuid7,
  Layout,
  decode,
  compose,
  parseId,
  formatId,
  parseTime,
  minId,
  maxId,
  idRange,
  formatBase32,
  parseBase32,
  formatBase62,
  parseBase62,
  parseIdText,
  toJSONSafe,
  jsonReplacer,
  testing,
  SnowfleetError,
  errors,
  errorKinds,
  /** Largest n accepted by nextIds / nextIdsAsync. */
  maxBatch: binding.maxBatch,
};
for (let i = 0; i < errorKinds.length; i++) module.exports[errorKinds[i].name] = errorClasses[i];

