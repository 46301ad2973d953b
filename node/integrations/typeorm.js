'use strict';
// snowfleet/typeorm: a TypeORM column holding a snowfleet id, filled before insert.
//   @Entity() class Order { @SnowflakeColumn(() => ids) id!: bigint; }
//   new DataSource({ ..., subscribers: [SnowflakeSubscriber] })   // plain objects too
// typeorm is an optional peer dependency: without it the decorator fails when used.
const { resolveGenerator } = require('./common.js');

/** Entity class -> [[property, generator]] of its @SnowflakeColumn properties. */
const columns = new Map();

/** Sets each still-unset @SnowflakeColumn property of `row` (an entity or a plain object). */
function fill(entityClass, row) {
  for (let c = entityClass; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const [property, generator] of columns.get(c) || []) {
      if (row[property] === undefined || row[property] === null) {
        row[property] = resolveGenerator(generator, 'SnowflakeColumn').nextId();
      }
    }
  }
}

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
    if (!columns.has(target.constructor)) columns.set(target.constructor, []);
    columns.get(target.constructor).push([propertyKey, generator]);
    const method = `snowfleetAssign_${String(propertyKey)}`;
    Object.defineProperty(target, method, {
      value: function assignSnowflakeId() {
        fill(target.constructor, this);
      },
      configurable: true,
      writable: true,
      enumerable: false,
    });
    typeorm.BeforeInsert()(target, method);
  };
}

/**
 * A TypeORM subscriber (list it in the DataSource's `subscribers`) giving @SnowflakeColumn
 * properties their ids in whatever is inserted, plain objects included:
 * repository.insert({...}), save({...}), the query builder's values(...). Entity instances
 * get theirs without it.
 */
class SnowflakeSubscriber {
  beforeInsert(event) {
    if (event.entity && event.metadata && typeof event.metadata.target === 'function') {
      fill(event.metadata.target, event.entity);
    }
  }
}
try {
  require('typeorm').EventSubscriber()(SnowflakeSubscriber);
} catch (e) {
  if (e && e.code !== 'MODULE_NOT_FOUND') throw e; // without typeorm there is nothing to subscribe to
}

module.exports = { SnowflakeColumn, SnowflakeSubscriber, bigintTransformer };
