// Type declarations for snowfleet (checked by node/test/types.test.js with tsc --noEmit).
//
// Ids are bigint (or decimal strings): never a Number, which cannot hold 64 bits.
// Millisecond timestamps are Numbers: a layout has at most 52 timestamp bits, so every
// timestamp it can hold is below 2^53 and exact in a Number.

/** An id given to snowfleet: a bigint, a decimal string, or a Number that is a safe integer. */
export type IdLike = bigint | string | number;
/** An integer argument: a Number that is a safe integer, or a bigint. */
export type IntLike = number | bigint;
export type Mode = 'strict' | 'monotonic';

export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'TIMESTAMP_OUT_OF_RANGE'
  | 'CLOCK_MOVED_BACKWARDS'
  | 'FORK_DETECTED'
  | 'GENERATOR_CLOSED'
  | 'NODE_ID_UNAVAILABLE'
  | 'LEASE_LOST'
  | 'INTERNAL';

/**
 * Only own properties count; an unknown key is a TypeError (code ERR_INVALID_ARG_TYPE).
 * Give exactly one node form: nodeId, datacenterId + machineId, or nodeSource.
 */
export interface GeneratorOptions {
  /** 0 .. layout.maxNodeId. */
  nodeId?: IntLike;
  /** With machineId: the node as two halves (a split layout's fields; 0 on an unsplit one). */
  datacenterId?: IntLike;
  /** With datacenterId. */
  machineId?: IntLike;
  /** Where the node id comes from: 'static:37', 'env:VAR', 'k8s[:OFFSET]', 'local[:DIR][?share=NAME]', 'etcd://host:port/prefix?ttl=10', 'postgres://...', 'k8s-lease://PREFIX'. */
  nodeSource?: string;
  /** A Layout or its text form / preset name. Default: Layout.DEFAULT. */
  layout?: Layout | string;
  /** Default 'strict'. */
  mode?: Mode;
  /** Rewinds up to this many ms are waited out (blocking the calling thread), larger ones refused. Default 5. */
  maxWaitMs?: IntLike;
  /** Monotonic mode: how far ahead of the wall clock the generator may run. Default 1000. */
  maxDriftMs?: IntLike;
  /** A scripted clock for tests. Default: the system clock. */
  clock?: testing.ScriptedClock;
}

export interface Stats {
  idsIssued: number;
  rewindsSeen: number;
  waits: number;
  waitedNsTotal: bigint;
  waitedNsMax: bigint;
  refusals: number;
  msBorrowed: number;
  /** Leased node ids: high-water marks persisted (about two a second while minting, plus one at close()). 0 without a lease. */
  markWrites: number;
  /** Calls refused with LeaseLost. */
  leaseRefusals: number;
  /** Leased node ids: high-water mark writes that failed (disk full, registry unwritable, store unreachable); retried every tick. 0 without a lease. */
  markWriteFailures: number;
  /** etcd: keepalives that failed; the lease goes 'unconfirmed' at its local deadline if none succeeds. 0 for 'local' and without a lease. */
  leaseRenewalFailures: number;
}

/** 'none' unless the node id is leased ('local', 'etcd://'); 'unconfirmed' is etcd past its local deadline. */
export type LeaseState = 'none' | 'held' | 'unconfirmed' | 'lost' | 'released';

export interface Status {
  healthy: boolean;
  /** Empty when healthy. */
  reason: string;
  wallMs: number;
  /** -1 before the first id. */
  lastMs: number;
  driftMs: number;
  nodeId: number;
  mode: Mode;
  leaseState: LeaseState;
  /** The slot's persisted high-water mark (Unix ms): no later holder of the slot issues an id at or below it. -1 without a lease. */
  markMs: number;
  /** etcd: ms until the local lease deadline (negative once past it). -1 when the lease cannot expire ('local') or there is none. */
  leaseExpiresInMs: number;
  /** How far the persisted mark runs ahead of the later of lastMs and wallMs (0 when it does not: calls wait for a mark write). -1 without a lease. */
  markHeadroomMs: number;
}

export interface Decoded {
  timestampMs: number;
  nodeId: number;
  datacenterId: number;
  machineId: number;
  sequence: number;
}

export interface ComposeFields {
  timestampMs: IntLike;
  nodeId?: IntLike;
  datacenterId?: IntLike;
  machineId?: IntLike;
  /** Default 0. */
  sequence?: IntLike;
  /** Default Layout.DEFAULT. */
  layout?: Layout | string;
}

/** Options of a Uuid7Generator; each may be left out (the core's defaults). */
export interface Uuid7GeneratorOptions {
  mode?: 'strict' | 'monotonic';
  maxWaitMs?: number;
  maxDriftMs?: number | bigint;
  /** Tests: a scripted clock. */
  clock?: testing.ScriptedClock;
  /** Tests: the scripted (splitmix64) random source's seed; every UUID is then known. */
  randomSeed?: number | bigint;
}
/** RFC 9562 UUIDv7 from the core's guarded generator (same guards and modes as Generator). */
export class Uuid7Generator {
  constructor(options?: Uuid7GeneratorOptions);
  /** The next UUIDv7, canonical lowercase text. */
  readonly nextUuid7: () => string;
  /** The next UUIDv7 as 16 bytes (network order). */
  readonly nextUuid7Bytes: () => Uint8Array;
  /** n ascending UUIDv7s as canonical strings. */
  readonly nextUuid7s: (n: number | bigint) => string[];
  /** The counters, as Generator's. */
  stats(): Stats;
  /** Reads the clock once: whether a call now would be served, as Generator's (nodeId 0). */
  status(): Status;
  close(): void;
  readonly closed: boolean;
  readonly mode: 'strict' | 'monotonic';
  readonly maxWaitMs: number;
  readonly maxDriftMs: number;
  /** Closes the generator (`using`). */
  [Symbol.dispose](): void;
  /** Closes the generator (`await using`). */
  [Symbol.asyncDispose](): Promise<void>;
}
/** The fields of a UUIDv7 (text or 16 bytes); another version throws InvalidArgument. */
export function decodeUuid7(uuid: string | Uint8Array): {
  timestampMs: number;
  counter: number;
  random: number;
  uuid: string;
};

/** A thread-safe Snowflake id generator over the C++ core. */
export class Generator {
  /** Synchronous: a leased node source (local:, etcd://) claims on the calling thread. */
  constructor(options: GeneratorOptions);
  /**
   * The same generator, constructed on the libuv threadpool: a leased node source claims its
   * node id without blocking the event loop. Bad options and a failed claim reject.
   */
  static create(options: GeneratorOptions): Promise<Generator>;
  /** The next id. Synchronous: may block the event loop up to maxWaitMs on a rewind or a spent millisecond. */
  nextId(): bigint;
  /** The next id as a decimal string (JSON-safe). */
  nextIdString(): string;
  /**
   * n ascending ids (0 <= n <= maxBatch), written straight into the array. Each wait inside
   * is at most maxWaitMs, but a strict batch spans at least n / 4096 ms (default layout):
   * use nextIdsAsync for large ones.
   */
  nextIds(n: IntLike): BigInt64Array;
  /** nextIds on the libuv threadpool: never blocks the event loop. Errors reject the promise. */
  nextIdsAsync(n: IntLike): Promise<BigInt64Array>;
  stats(): Stats;
  /** Reads the clock once: whether a call now would be served. */
  status(): Status;
  /** Stops the generator; later calls throw GeneratorClosed. Idempotent. */
  close(): void;
  readonly nodeId: number;
  readonly mode: Mode;
  readonly maxWaitMs: number;
  readonly maxDriftMs: number;
  readonly layout: Layout;
  readonly closed: boolean;
  /** max(0, last issued ms - wall clock now). Reads the clock. */
  readonly driftMs: number;
  /** Closes the generator (`using`). */
  [Symbol.dispose](): void;
  /** Closes the generator (`await using`). */
  [Symbol.asyncDispose](): Promise<void>;
}

export interface LayoutFields {
  epochMs: IntLike;
  timestampBits: number;
  /** Unsplit node field; or give datacenterBits + machineBits. */
  nodeBits?: number;
  datacenterBits?: number;
  machineBits?: number;
  sequenceBits: number;
}

/** The bit layout of an id: text form "41.10.12@1704067200000" or split "41.5.5.12@1288834974657". */
export class Layout {
  /** new Layout() is the default layout; new Layout(text) parses the text form or a preset name. */
  constructor(text?: string);
  /** 41.10.12@1704067200000 (epoch 2024-01-01). */
  static readonly DEFAULT: Layout;
  /** 41.5.5.12@1288834974657. */
  static readonly TWITTER: Layout;
  /** 41.5.5.12@1420070400000. */
  static readonly DISCORD: Layout;
  static parse(text: string): Layout;
  static create(fields: LayoutFields): Layout;
  toString(): string;
  toJSON(): string;
  equals(other: Layout | string): boolean;
  /** 'default', 'twitter', 'discord' or ''. */
  readonly preset: string;
  readonly epochMs: number;
  readonly timestampBits: number;
  readonly nodeBits: number;
  readonly datacenterBits: number;
  readonly machineBits: number;
  readonly sequenceBits: number;
  readonly split: boolean;
  readonly timestampShift: number;
  readonly nodeShift: number;
  readonly maxNodeId: number;
  readonly maxDatacenterId: number;
  readonly maxMachineId: number;
  readonly maxSequence: number;
  readonly maxElapsedMs: number;
  readonly maxTimestampMs: number;
}

/** Unpacks an id (bigint, decimal string or safe-integer Number; a Number above 2^53 - 1 is a TypeError). */
export function decode(id: IdLike, layout?: Layout | string): Decoded;
/** Packs fields into an id; a value outside its field throws, nothing is masked. */
export function compose(fields: ComposeFields): bigint;
/** Parses a decimal id string strictly (digits only, 0 .. 2^63 - 1). */
export function parseId(text: string): bigint;
/** The decimal string of an id. */
export function formatId(id: IdLike): string;
/**
 * Parses an RFC 3339 date-time into Unix ms with the core's one parser, e.g.
 * parseTime('2025-01-24T20:35:58.021+01:00') === 1737747358021. YYYY-MM-DDTHH:MM:SS[.fraction]
 * then Z, +HH:MM or -HH:MM; 't'/'z' may be lower case; no space for 'T'; years 0000-9999; the
 * day must exist in its month; digits past the ms must be 0; no leap second (:60). Anything
 * else throws InvalidArgument quoting the text and naming the rule; a non-string, TypeError.
 */
export function parseTime(text: string): number;
/** A time: a Date, or Unix ms as a safe-integer Number or a BigInt. */
export type TimeLike = Date | number | bigint;
/** The lowest id any node can mint in that millisecond; outside the layout's window, TimestampOutOfRange. */
export function minId(time: TimeLike, layout?: Layout | string): bigint;
/** The highest id any node can mint in that millisecond. */
export function maxId(time: TimeLike, layout?: Layout | string): bigint;
/** Inclusive id bounds: first <= id <= last. */
export interface IdRange {
  readonly first: bigint;
  readonly last: bigint;
}
/**
 * The ids stamped in [start, end). slackMs (default 0) widens the upper bound: pass a monotonic
 * generator's maxDriftMs to find every id it minted in that time. An empty or reversed range
 * or a negative slack is InvalidArgument.
 */
export function idRange(start: TimeLike, end: TimeLike, options?: { slackMs?: number | bigint; layout?: Layout | string }): IdRange;
/** The 13-character Crockford base32 form (TSID's), upper case, of an id as decode() takes it. */
export function formatBase32(id: number | bigint | string): string;
/** Parses base32: 13 characters, either case, I/L/O aliases, at most 2^63 - 1. */
export function parseBase32(text: string): bigint;
/** The 11-character base62 form (0-9A-Za-z): byte order is numeric order. */
export function formatBase62(id: number | bigint | string): string;
/** Parses base62: 11 characters of 0-9A-Za-z, at most 2^63 - 1 (AzL8n0Y58m7). */
export function parseBase62(text: string): bigint;
/**
 * Parses an id in whichever text form it is, as the CLI's `decode` does: digits only are
 * decimal whatever the length (`'8000000000000'` is 8 x 10^12), else 13 characters are base32
 * and 11 base62; anything else throws InvalidArgument.
 */
export function parseIdText(text: string): bigint;
/** A copy of value with every bigint (and BigInt64Array element) as a decimal string, for JSON.stringify. */
export function toJSONSafe(value: unknown): any;
/** A JSON.stringify replacer that writes bigints as decimal strings. */
export function jsonReplacer(key: string, value: unknown): unknown;
/** Largest n accepted by nextIds / nextIdsAsync. */
export const maxBatch: number;

export interface ErrorKindInfo {
  readonly code: ErrorCode;
  readonly name: string;
  readonly category: string;
  readonly summary: string;
}
/** The core's error kinds, in the core's order. */
export const errorKinds: readonly ErrorKindInfo[];

export interface SnowfleetErrorOptions {
  driftMs?: number;
}

/** Base of the runtime errors; `instanceof SnowfleetError` is also true for InvalidArgument and TimestampOutOfRange. */
export class SnowfleetError extends Error {
  constructor(message?: string, options?: SnowfleetErrorOptions);
  readonly code: ErrorCode;
}
/** An argument outside its domain (a RangeError). */
export class InvalidArgument extends RangeError {
  constructor(message?: string, options?: SnowfleetErrorOptions);
  readonly code: 'INVALID_ARGUMENT';
  static readonly code: 'INVALID_ARGUMENT';
}
/** A timestamp outside the layout's window (a RangeError). */
export class TimestampOutOfRange extends RangeError {
  constructor(message?: string, options?: SnowfleetErrorOptions);
  readonly code: 'TIMESTAMP_OUT_OF_RANGE';
  static readonly code: 'TIMESTAMP_OUT_OF_RANGE';
}
/** The clock is behind for longer than the wait budget (or stuck); nothing was issued. */
export class ClockMovedBackwards extends SnowfleetError {
  readonly code: 'CLOCK_MOVED_BACKWARDS';
  static readonly code: 'CLOCK_MOVED_BACKWARDS';
  /** How many ms the clock was behind (0 when it stopped rather than retreated). */
  readonly driftMs: number;
}
export class ForkDetected extends SnowfleetError {
  readonly code: 'FORK_DETECTED';
  static readonly code: 'FORK_DETECTED';
}
export class GeneratorClosed extends SnowfleetError {
  readonly code: 'GENERATOR_CLOSED';
  static readonly code: 'GENERATOR_CLOSED';
}
export class NodeIdUnavailable extends SnowfleetError {
  readonly code: 'NODE_ID_UNAVAILABLE';
  static readonly code: 'NODE_ID_UNAVAILABLE';
}
export class LeaseLost extends SnowfleetError {
  readonly code: 'LEASE_LOST';
  static readonly code: 'LEASE_LOST';
}
export class InternalError extends SnowfleetError {
  readonly code: 'INTERNAL';
  static readonly code: 'INTERNAL';
}

/** Every error class by its stable code. */
export const errors: {
  readonly INVALID_ARGUMENT: typeof InvalidArgument;
  readonly TIMESTAMP_OUT_OF_RANGE: typeof TimestampOutOfRange;
  readonly CLOCK_MOVED_BACKWARDS: typeof ClockMovedBackwards;
  readonly FORK_DETECTED: typeof ForkDetected;
  readonly GENERATOR_CLOSED: typeof GeneratorClosed;
  readonly NODE_ID_UNAVAILABLE: typeof NodeIdUnavailable;
  readonly LEASE_LOST: typeof LeaseLost;
  readonly INTERNAL: typeof InternalError;
};

export namespace testing {
  /** { ms, count = 1, stepMs = 0, every = 1 }: count readings ms + stepMs * floor(k / every). */
  interface ClockSegment {
    ms: IntLike | string;
    count?: IntLike;
    stepMs?: IntLike | string;
    every?: IntLike;
  }
  /** One segment: a ms value (count 1) or a segment object. */
  type Segment = ClockSegment | IntLike | string;
  interface ScriptedClockOptions {
    /** Time slept on the clock passes on the wall too (default false). */
    ticking?: boolean;
  }
  /** The core's deterministic clock: wall readings from a script, virtual monotonic time. */
  class ScriptedClock {
    /** One ms value (a frozen clock), one segment, or a list of them. Default: frozen at 0. */
    constructor(script?: Segment | Segment[], options?: ScriptedClockOptions);
    setScript(script: Segment | Segment[]): void;
    append(segment: Segment): void;
    setWallMs(ms: IntLike | string): void;
    advanceWallMs(deltaMs: IntLike | string): void;
    peekWallMs(): number;
    /** Sleeps on the clock as a generator's wait does (virtual time: returns at once). */
    sleepNs(ns: IntLike): void;
    /** While true, time slept on the clock passes on the wall too, so waits can be tested. */
    ticking: boolean;
    readonly reads: number;
    readonly sleepCount: number;
    readonly sleptNs: bigint;
    readonly maxSleepNs: bigint;
    readonly minSleepNs: bigint;
  }
}

// Symbol.dispose / Symbol.asyncDispose (Node 20+) for projects whose lib predates them.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}
