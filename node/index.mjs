// ESM entry: the same module instance as require('snowfleet') (one addon load per thread).
// The names below are checked against the CommonJS exports by node/test/esm.test.mjs.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const snowfleet = require('./index.js');

export default snowfleet;
export const {
  Generator,
  Uuid7Generator,
  decodeUuid7,
  Layout,
  decode,
  compose,
  parseId,
  formatId,
  parseTime,
  minId,
  maxId,
  idRange,
  formatBase32,
  parseBase32,
  formatBase62,
  parseBase62,
  parseIdText,
  toJSONSafe,
  jsonReplacer,
  testing,
  SnowfleetError,
  errors,
  errorKinds,
  maxBatch,
  InvalidArgument,
  TimestampOutOfRange,
  ClockMovedBackwards,
  ForkDetected,
  GeneratorClosed,
  NodeIdUnavailable,
  LeaseLost,
  InternalError,
} = snowfleet;
