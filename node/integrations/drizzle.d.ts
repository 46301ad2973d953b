import type { Generator } from '../index';

/** A `$defaultFn` minting the next id from `generator` (or the one a function returns, at insert time). */
export function snowflakeDefault(generator: Generator | (() => Generator)): () => bigint;
