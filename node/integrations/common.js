'use strict';
// What the ORM defaults share: a generator given now, or a function returning the one the
// application creates at start (schemas are often declared before it exists).
function resolveGenerator(source, who) {
  const gen = typeof source === 'function' && typeof source.nextId !== 'function' ? source() : source;
  if (!gen || typeof gen.nextId !== 'function') {
    throw new TypeError(`${who}: expected a snowfleet Generator or a function returning one, got ${gen}`);
  }
  return gen;
}

module.exports = { resolveGenerator };
