import type { Generator } from '../index';

/** TypeORM's ValueTransformer shape: BigInt in the entity, decimal text in the driver. */
export declare const bigintTransformer: {
  to(value: bigint | string | number | null | undefined): string | null | undefined;
  from(value: string | number | bigint | null | undefined): bigint | null | undefined;
};
export interface SnowflakeColumnOptions {
  /** The primary key (default) or a plain column. */
  primary?: boolean;
  /** Other PrimaryColumn / Column options (name, unique, comment, ...). */
  [option: string]: unknown;
}
/**
 * A bigint column filled, when still undefined or null at insert (repository.save,
 * manager.save), with the next id of `generator`.
 */
export function SnowflakeColumn(
  generator: Generator | (() => Generator),
  options?: SnowflakeColumnOptions,
): (target: object, propertyKey: string | symbol) => void;
/**
 * A subscriber for the DataSource's `subscribers`: @SnowflakeColumn properties get their ids
 * in plain objects too (repository.insert({...}), save({...}), the query builder's values).
 */
export declare class SnowflakeSubscriber {
  beforeInsert(event: { entity?: unknown; metadata: { target: unknown } }): void;
}
