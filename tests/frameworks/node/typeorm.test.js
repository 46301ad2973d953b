'use strict';
// TypeORM: @SnowflakeColumn fills the primary key before insert (repository.save), and the
// entity reads it back as the same BigInt; 2^63 - 1 round-trips; a rewind inserts nothing.
// Decorators are applied as functions here (plain JavaScript); typeorm-usage.ts has the same
// entity with decorator syntax, checked by tsc.
require('reflect-metadata');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Entity, Column, DataSource } = require('typeorm');
const { Generator, ClockMovedBackwards, decode, testing } = require('snowfleet');
const { SnowflakeColumn } = require('snowfleet/typeorm');
const { stringify } = require('snowfleet/json');
const { MAX_ID, freshDatabase, storedIds } = require('./helpers.js');

let ids = new Generator({ nodeId: 12 });

class Order {}
SnowflakeColumn(() => ids)(Order.prototype, 'id');
SnowflakeColumn(() => ids, { primary: false, name: 'tracking', nullable: true })(Order.prototype, 'tracking');
Column({ type: 'text', default: '' })(Order.prototype, 'note');
Entity('orders')(Order);

async function connect(t, options = {}) {
  const db0 = await freshDatabase();
  const source = new DataSource({ type: 'postgres', url: db0.url, entities: [Order], synchronize: true, ...options });
  await source.initialize();
  t.after(async () => { await source.destroy(); await db0.drop(); });
  return { source, url: db0.url };
}

test('typeorm: save() mints the ids, find() reads them back unchanged', async (t) => {
  const { source, url } = await connect(t);
  const repo = source.getRepository(Order);
  const saved = await repo.save([1, 2, 3].map((n) => Object.assign(new Order(), { note: `n${n}` })));
  const minted = saved.map((o) => o.id);
  assert.ok(minted.every((id) => typeof id === 'bigint' && decode(id).nodeId === 12));
  assert.ok(saved.every((o) => o.tracking > o.id));
  await repo.save(Object.assign(new Order(), { id: MAX_ID, tracking: MAX_ID, note: 'max' }));
  const top = await repo.findOneByOrFail({ id: MAX_ID });
  assert.equal(top.id, MAX_ID);
  assert.equal(top.tracking, MAX_ID);
  assert.equal(stringify(top), '{"id":"9223372036854775807","tracking":"9223372036854775807","note":"max"}');
  assert.deepEqual((await repo.find({ order: { id: 'ASC' } })).map((o) => o.id), [...minted, MAX_ID]);
  assert.deepEqual(await storedIds(url, 'orders'), [...minted, MAX_ID].map(String));
});

test('typeorm: a clock rewind fails save() and inserts nothing', async (t) => {
  const { source, url } = await connect(t);
  const clock = new testing.ScriptedClock([1737747359000, 1737747358400]);
  const previous = ids;
  ids = new Generator({ nodeId: 13, clock, maxWaitMs: 0 });
  t.after(() => { ids = previous; });
  const repo = source.getRepository(Order);
  await assert.rejects(repo.save(Object.assign(new Order(), { note: 'x' })), ClockMovedBackwards);
  assert.deepEqual(await storedIds(url, 'orders'), []);
});

test('typeorm: with SnowflakeSubscriber, plain objects get ids too (insert, save, query builder)', async (t) => {
  const { SnowflakeSubscriber } = require('snowfleet/typeorm');
  const { source, url } = await connect(t, { subscribers: [SnowflakeSubscriber] });
  const repo = source.getRepository(Order);
  await repo.insert(Object.assign(new Order(), { note: 'entity' }));
  await repo.insert([{ note: 'plain0' }, { note: 'plain1' }]);
  await source.manager.insert(Order, { note: 'manager' });
  await source.createQueryBuilder().insert().into(Order).values({ note: 'builder' }).execute();
  const saved = await repo.save({ note: 'saved plain' });
  assert.equal(typeof saved.id, 'bigint');
  const rows = await repo.find({ order: { id: 'ASC' } });
  assert.equal(rows.length, 6);
  assert.ok(rows.every((o) => o.tracking > 0n), stringify(rows));
  assert.ok(rows.every((o) => typeof o.id === 'bigint' && decode(o.id).nodeId === 12), stringify(rows));
  const { In } = require('typeorm');
  const picked = await repo.findBy({ id: In([rows[0].id, rows[4].id]) });
  assert.deepEqual(picked.map((o) => o.id).sort(), [rows[0].id, rows[4].id].sort());
  assert.equal((await storedIds(url, 'orders')).length, 6);
});

test('typeorm: without the subscriber, a plain object is refused by the database, not given a wrong id', async (t) => {
  const { source, url } = await connect(t);
  await assert.rejects(source.getRepository(Order).insert({ note: 'plain' }), /null value in column "id"/);
  assert.deepEqual(await storedIds(url, 'orders'), []);
});
