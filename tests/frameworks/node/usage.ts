// The integrations' declarations as an application uses them, checked by tsc --strict
// (tsc.test.js): TypeORM decorators, a Drizzle table, the JSON helpers, pg's parsers.
import 'reflect-metadata';
import { Entity, Column, DataSourceOptions } from 'typeorm';
import { pgTable, bigint, text } from 'drizzle-orm/pg-core';
import * as pg from 'pg';
import { Generator } from 'snowfleet';
import { SnowflakeColumn, SnowflakeSubscriber } from 'snowfleet/typeorm';
import { snowflakeDefault } from 'snowfleet/drizzle';
import { stringify, parse, reviver, installBigIntToJSON } from 'snowfleet/json';
import { useBigIntIds } from 'snowfleet/pg';

const ids = new Generator({ nodeId: 1 });

@Entity('orders')
export class Order {
  @SnowflakeColumn(() => ids)
  id!: bigint;

  @SnowflakeColumn(ids, { primary: false, unique: true })
  tracking!: bigint;

  @Column({ type: 'text' })
  note!: string;
}

export const dataSource: DataSourceOptions = {
  type: 'postgres', entities: [Order], subscribers: [SnowflakeSubscriber] };

export const orders = pgTable('orders', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().$defaultFn(snowflakeDefault(() => ids)),
  note: text('note').notNull(),
});

const restoreParsers: () => void = useBigIntIds(pg);
const restoreToJSON: () => void = installBigIntToJSON();
const body: string = stringify({ id: ids.nextId() }, 2);
const row: { id: bigint } = parse(body, ['id']);
JSON.parse(body, reviver(/^id$/));
restoreParsers();
restoreToJSON();
console.log(row.id);
