'use strict';
// snowfleet/pg: node-postgres (and Knex, Kysely, Drizzle, TypeORM over it) reading bigint
// columns as BigInt instead of strings, so an id read back is the id that was written.
const INT8 = 20;
const INT8_ARRAY = 1016;

function parseInt8(text) {
  return text === null ? null : BigInt(text);
}

/** pg's int8[] parser gives nested arrays of decimal strings, one level per dimension. */
function toBigInts(value) {
  return Array.isArray(value) ? value.map(toBigInts) : parseInt8(value);
}

/**
 * Sets pg's type parsers for int8 and int8[] (of any dimension) to BigInt. `pg` is the module
 * the application uses (require('pg')), or its `types` object; returns a function that
 * restores the old parsers.
 */
function useBigIntIds(pg) {
  const types = pg && pg.types ? pg.types : pg;
  if (!types || typeof types.setTypeParser !== 'function') {
    throw new TypeError("useBigIntIds expects require('pg') or its types object");
  }
  const before = [types.getTypeParser(INT8, 'text'), types.getTypeParser(INT8_ARRAY, 'text')];
  const parseArray = before[1];
  types.setTypeParser(INT8, parseInt8);
  types.setTypeParser(INT8_ARRAY, (text) => toBigInts(parseArray(text)));
  return function restore() {
    types.setTypeParser(INT8, before[0]);
    types.setTypeParser(INT8_ARRAY, before[1]);
  };
}

module.exports = { useBigIntIds };
