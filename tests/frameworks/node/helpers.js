'use strict';
// Shared by the Node integration tests: a fresh database on the test area's PostgreSQL
// (SNOWFLEET_PG_URL, started by scripts/test/frameworks.sh) and the largest id.
const { randomBytes } = require('node:crypto');
const pg = require('pg');

const MAX_ID = (1n << 63n) - 1n;

function pgUrl() {
  const url = process.env.SNOWFLEET_PG_URL;
  if (!url) throw new Error('SNOWFLEET_PG_URL is not set: run these tests through scripts/test/frameworks.sh');
  return url;
}

/** Creates an empty database; returns its URL and a drop() for t.after. */
async function freshDatabase() {
  const name = 't_' + randomBytes(6).toString('hex');
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = pgUrl().replace(/\/[^/]*$/, '/' + name);
  async function drop() {
    const c = new pg.Client({ connectionString: pgUrl() });
    await c.connect();
    await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await c.end();
  }
  return { url, drop };
}

/** The rows' ids as PostgreSQL prints them (id::text), in id order. */
async function storedIds(url, table) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`SELECT id::text AS id FROM ${table} ORDER BY id`);
  await c.end();
  return rows.map((r) => r.id);
}

module.exports = { MAX_ID, freshDatabase, storedIds };
