'use strict';
// Drizzle ($defaultFn), Knex and Kysely inserting snowfleet ids over node-postgres into the
// test area's PostgreSQL: the ids read back (as BigInt, snowfleet/pg) and the ids PostgreSQL
// prints are the ids minted, 2^63 - 1 included.
const test = require('node:test');
const assert = require('node:assert/strict');
const pg = require('pg');
const { Generator, decode } = require('snowfleet');
const { useBigIntIds } = require('snowfleet/pg');
const { snowflakeDefault } = require('snowfleet/drizzle');
const { stringify, parse } = require('snowfleet/json');
const { MAX_ID, freshDatabase, storedIds } = require('./helpers.js');

const ids = new Generator({ nodeId: 9 });
useBigIntIds(pg);

const TABLE = 'CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, note text NOT NULL)';

function checkMinted(minted) {
  assert.deepEqual([...minted].sort((a, b) => (a < b ? -1 : 1)), minted);
  assert.equal(new Set(minted).size, minted.length);
  for (const id of minted) assert.equal(decode(id).nodeId, 9);
}

test('drizzle: $defaultFn mints the id, bigint mode reads it back', async (t) => {
  const { drizzle } = require('drizzle-orm/node-postgres');
  const { pgTable, bigint, text } = require('drizzle-orm/pg-core');
  const { eq } = require('drizzle-orm');
  const db0 = await freshDatabase();
  const orders = pgTable('orders', {
    id: bigint('id', { mode: 'bigint' }).primaryKey().$defaultFn(snowflakeDefault(() => ids)),
    customerId: bigint('customer_id', { mode: 'bigint' }),
    note: text('note').notNull(),
  });
  const pool = new pg.Pool({ connectionString: db0.url });
  t.after(async () => { await pool.end(); await db0.drop(); });
  await pool.query(TABLE);
  const db = drizzle(pool);
  const made = await db.insert(orders).values([{ note: 'a' }, { note: 'b' }, { note: 'c' }]).returning();
  const minted = made.map((r) => r.id);
  checkMinted(minted);
  await db.insert(orders).values({ id: MAX_ID, customerId: MAX_ID, note: 'max' });
  const [top] = await db.select().from(orders).where(eq(orders.id, MAX_ID));
  assert.deepEqual(top, { id: MAX_ID, customerId: MAX_ID, note: 'max' });
  const json = stringify(top); // what a service sends
  assert.equal(json, '{"id":"9223372036854775807","customerId":"9223372036854775807","note":"max"}');
  assert.deepEqual(parse(json, ['id', 'customerId']), top);
  assert.deepEqual(await storedIds(db0.url, 'orders'), [...minted, MAX_ID].map(String));
});

test('knex: ids passed to insert arrive unchanged', async (t) => {
  const db0 = await freshDatabase();
  const knex = require('knex')({ client: 'pg', connection: db0.url });
  t.after(async () => { await knex.destroy(); await db0.drop(); });
  await knex.raw(TABLE);
  const minted = [ids.nextId(), ids.nextId()];
  await knex('orders').insert(minted.map((id) => ({ id, note: 'k' })));
  await knex('orders').insert({ id: MAX_ID, customer_id: minted[0], note: 'max' });
  const rows = await knex('orders').select('id', 'customer_id').orderBy('id');
  assert.deepEqual(rows.map((r) => r.id), [...minted, MAX_ID]);
  assert.equal(rows[2].customer_id, minted[0]);
  assert.equal(stringify(rows[2]), `{"id":"9223372036854775807","customer_id":"${minted[0]}"}`);
  checkMinted(minted);
  assert.deepEqual(await storedIds(db0.url, 'orders'), [...minted, MAX_ID].map(String));
});

test('kysely: ids passed to insertInto arrive unchanged', async (t) => {
  const { Kysely, PostgresDialect } = require('kysely');
  const db0 = await freshDatabase();
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db0.url }) }) });
  t.after(async () => { await db.destroy(); await db0.drop(); });
  const { sql } = require('kysely');
  await sql.raw(TABLE).execute(db);
  const made = await db.insertInto('orders')
    .values([{ id: ids.nextId(), note: 'a' }, { id: ids.nextId(), note: 'b' }, { id: MAX_ID, note: 'max' }])
    .returning('id').execute();
  const minted = made.map((r) => r.id).slice(0, 2);
  checkMinted(minted);
  const top = await db.selectFrom('orders').selectAll().where('id', '=', MAX_ID).executeTakeFirstOrThrow();
  assert.equal(top.id, MAX_ID);
  assert.equal(stringify(top), '{"id":"9223372036854775807","customer_id":null,"note":"max"}');
  assert.deepEqual(await storedIds(db0.url, 'orders'), [...minted, MAX_ID].map(String));
});

test('pg: int8 arrays of any dimension read back as BigInt', async (t) => {
  const db0 = await freshDatabase();
  const client = new pg.Client({ connectionString: db0.url });
  await client.connect();
  t.after(async () => { await client.end(); await db0.drop(); });
  const { rows: [row] } = await client.query(
    "SELECT ARRAY[1, 9223372036854775807]::int8[] AS flat, " +
    "ARRAY[[1, NULL], [3, 9223372036854775807]]::int8[] AS nested, '{}'::int8[] AS empty");
  assert.deepEqual(row, { flat: [1n, MAX_ID], nested: [[1n, null], [3n, MAX_ID]], empty: [] });
});
