'use strict';
// snowfleet for Node.js: Snowflake-style 64-bit ids as BigInt or decimal strings.
//
// The native addon (bindings/node/) wraps the C++ core; this file only builds the Error
// classes from the core's own list of error kinds, hands them to the addon so native code
// throws them directly, and adds JSON helpers. Every rule about ids lives in the core.

const path = require('node:path');

const binding = require('node-gyp-build')(path.join(__dirname, '..'));

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
const errorKinds = Object.freeze(binding.errorKinds().map((k) => Object.freeze(k)));
const errorClasses = errorKinds.map(defineErrorClass);
binding.setErrorClasses(errorClasses);

/** Every error class by its stable code: errors.CLOCK_MOVED_BACKWARDS === ClockMovedBackwards. */
const errors = Object.freeze(Object.fromEntries(errorKinds.map((k, i) => [k.code, errorClasses[i]])));

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

const { Generator, Layout, ScriptedClock, decode, compose, parseId, formatId, parseTime } = binding;

/** Deterministic clocks for tests (the conformance runner uses it too). */
const testing = Object.freeze({ ScriptedClock });

module.exports = {
  Generator,
  Layout,
  decode,
  compose,
  parseId,
  formatId,
  parseTime,
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
// Reference rows for node/bench/bench.js only; not part of the API.
Object.defineProperty(module.exports, '_bareBigInt', { value: binding.bareBigInt });
Object.defineProperty(module.exports, '_coreLoop', { value: binding.coreLoop });
