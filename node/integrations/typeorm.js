'use strict';
// snowfleet/typeorm: a TypeORM column holding a snowfleet id, filled before insert.
//   @Entity() class Order { @SnowflakeColumn(() => ids) id!: bigint; }
// typeorm is a peer dependency, loaded when the decorator is first used.
const { resolveGenerator } = require('./common.js');

/** Column transformer: BigInt in the entity, the decimal text to and from the driver. */
const bigintTransformer = Object.freeze({
  to(value) {
    if (value === null || value === undefined) return value;
    if (typeof value === 'object' && value !== null && typeof value.getSql === 'function') return value; // FindOperator pass-through
    return BigInt(value).toString();
  },
  from(value) {
    return value === null || value === undefined ? value : BigInt(value);
  },
});

/**
 * A property decorator: a `bigint` column (the primary key unless `options.primary` is
 * false) whose value, when still undefined or null at insert, is the next id of
 * `generator` (or of the generator a function returns at that time). Other options go to
 * TypeORM's PrimaryColumn / Column.
 */
function SnowflakeColumn(generator, options = {}) {
  const typeorm = require('typeorm');
  const { primary = true, ...column } = options;
  return function decorate(target, propertyKey) {
    const define = primary ? typeorm.PrimaryColumn : typeorm.Column;
    define({ type: 'bigint', transformer: bigintTransformer, ...column })(target, propertyKey);
    const method = `snowfleetAssign_${String(propertyKey)}`;
    Object.defineProperty(target, method, {
      value: function assignSnowflakeId() {
        if (this[propertyKey] === undefined || this[propertyKey] === null) {
          this[propertyKey] = resolveGenerator(generator, 'SnowflakeColumn').nextId();
        }
      },
      configurable: true,
      writable: true,
      enumerable: false,
    });
    typeorm.BeforeInsert()(target, method);
  };
}

module.exports = { SnowflakeColumn, bigintTransformer };
