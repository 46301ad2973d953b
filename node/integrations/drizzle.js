'use strict';
// snowfleet/drizzle: an id default for Drizzle columns,
//   id: bigint('id', { mode: 'bigint' }).primaryKey().$defaultFn(snowflakeDefault(() => ids))
const { resolveGenerator } = require('./common.js');

/** A `$defaultFn` minting the next id (a BigInt) from `generator` (or the one a function returns). */
function snowflakeDefault(generator) {
  return function nextSnowflakeId() {
    return resolveGenerator(generator, 'snowflakeDefault').nextId();
  };
}

module.exports = { snowflakeDefault };
