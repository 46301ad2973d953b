'use strict';
// docs/migrating.md: which layout string reproduces another library's or service's ids. Each
// claim is checked here against the documented example ids and, for @sapphire/snowflake (a
// devDependency), against ids the library itself generates.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { Snowflake, DiscordSnowflake, TwitterSnowflake } = require('@sapphire/snowflake');
const { compose, decode } = require('..');

test("Discord's documented example decodes under 'discord' (worker = datacenter, process = machine)", () => {
  // discord.com/developers/docs/reference#snowflakes: 175928847299117063 is
  // 2016-04-30T11:18:25.796Z, internal worker 1, internal process 0, increment 7.
  assert.deepEqual(decode('175928847299117063', 'discord'), {
    timestampMs: Date.parse('2016-04-30T11:18:25.796Z'), nodeId: 32, datacenterId: 1, machineId: 0, sequence: 7,
  });
});

test("Twitter's example (Wikipedia, 'Snowflake ID') decodes under 'twitter'", () => {
  // 1541815603606036480: 2022-06-28T16:07:40.105Z, machine 378, sequence 0.
  const d = decode('1541815603606036480', 'twitter');
  assert.equal(new Date(d.timestampMs).toISOString(), '2022-06-28T16:07:40.105Z');
  assert.equal(d.nodeId, 378);
  assert.equal(d.sequence, 0);
});

const SAPPHIRE_CASES = [
  ['DiscordSnowflake', DiscordSnowflake, 'discord'],
  ['TwitterSnowflake', TwitterSnowflake, 'twitter'],
  ["new Snowflake(new Date('2000-01-01T00:00:00.000Z'))", new Snowflake(new Date('2000-01-01T00:00:00.000Z')), '41.5.5.12@946684800000'],
];

for (const [name, sapphire, layout] of SAPPHIRE_CASES) {
  test(`@sapphire/snowflake ${name}: its ids are layout ${layout}'s, field for field`, () => {
    for (const [timestamp, workerId, processId, increment] of [
      [Date.parse('2024-06-01T12:00:00.000Z'), 0, 0, 0],
      [Date.parse('2025-01-24T19:35:58.021Z'), 31, 17, 4095],
      [Date.parse('2030-12-31T23:59:59.999Z'), 7, 31, 1],
    ]) {
      const id = sapphire.generate({ timestamp, workerId: BigInt(workerId), processId: BigInt(processId), increment: BigInt(increment) });
      const mine = compose({ timestampMs: timestamp, datacenterId: workerId, machineId: processId, sequence: increment, layout });
      assert.equal(mine, id);
      const d = decode(id, layout);
      const theirs = sapphire.deconstruct(id);
      assert.deepEqual(
        [d.timestampMs, d.datacenterId, d.machineId, d.sequence].map(BigInt),
        [theirs.timestamp, theirs.workerId, theirs.processId, theirs.increment],
      );
    }
  });
}

test("@sapphire/snowflake's documented example id decodes the same under 41.5.5.12@946684800000", () => {
  // Its README: new Snowflake(new Date('2000-01-01T00:00:00.000Z')).deconstruct('3971046231244935168').
  const d = decode('3971046231244935168', '41.5.5.12@946684800000');
  assert.equal(new Date(d.timestampMs).toISOString(), '2030-01-01T00:00:00.000Z');
  assert.deepEqual([d.datacenterId, d.machineId, d.sequence], [1, 1, 0]);
});
