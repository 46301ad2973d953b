'use strict';
// snowfleet/json: BigInt ids through JSON. JSON.stringify throws on a BigInt, and a JSON
// number above 2^53 reaches JavaScript rounded, so ids travel as decimal strings: write them
// with `replacer` (or `stringify`), read them back with `reviver(keys)` (or `parse`).
const { parseId } = require('../index.js');

/** JSON.stringify(value, replacer): every BigInt as its decimal string. */
function replacer(_key, value) {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** JSON.stringify with `replacer`. */
function stringify(value, space) {
  return JSON.stringify(value, replacer, space);
}

function keyTest(keys) {
  if (typeof keys === 'function') return keys;
  if (keys instanceof RegExp) return (key) => keys.test(key);
  if (Array.isArray(keys) || keys instanceof Set) {
    const set = new Set(keys);
    return (key) => set.has(key);
  }
  throw new TypeError('keys must be an array or Set of property names, a RegExp or a function (key) => boolean');
}

function reviveOne(key, value) {
  if (typeof value === 'string') return parseId(value);
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    throw new RangeError(
      `${JSON.stringify(key)} is the JSON number ${value}, which JavaScript cannot hold exactly: ` +
        'send ids as strings');
  }
  if (Array.isArray(value)) return value.map((v) => (v === null ? v : reviveOne(key, v)));
  return value;
}

/**
 * A JSON.parse reviver turning the properties named by `keys` into BigInt ids (and each
 * element of an array, at any depth, held by such a property): decimal text by the core's
 * rule (parseId: digits only, at most 2^63 - 1, else InvalidArgument), or a number that is
 * still exact. A number past 2^53 - 1 was already rounded by JSON.parse, so it is refused
 * (RangeError) instead of revived wrong.
 */
function reviver(keys) {
  const isId = keyTest(keys);
  return function reviveId(key, value) {
    return !isId(key) || value === null ? value : reviveOne(key, value);
  };
}

/** JSON.parse with `reviver(keys)`. */
function parse(text, keys) {
  return JSON.parse(text, reviver(keys));
}

/**
 * The process-wide policy: BigInt.prototype.toJSON writes a decimal string, so a plain
 * JSON.stringify (and every framework calling it: res.json, reply.send) accepts rows with
 * BigInt ids. Returns a function that restores the previous state.
 */
function installBigIntToJSON() {
  const had = Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON');
  Object.defineProperty(BigInt.prototype, 'toJSON', {
    value: function toJSON() {
      return this.toString();
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return function restore() {
    if (had) Object.defineProperty(BigInt.prototype, 'toJSON', had);
    else delete BigInt.prototype.toJSON;
  };
}

module.exports = { replacer, stringify, reviver, parse, installBigIntToJSON };
