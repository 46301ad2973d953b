// Compiled by node/test/types.test.js with `tsc --noEmit`: exercises every declaration the
// way a user would. The @ts-expect-error lines make the check able to fail when a
// declaration is too loose.
import {
  Generator,
  Layout,
  decode,
  compose,
  parseId,
  formatId,
  parseTime,
  toJSONSafe,
  Uuid7Generator,
  formatBase32,
  jsonReplacer,
  testing,
  SnowfleetError,
  ClockMovedBackwards,
  InvalidArgument,
  TimestampOutOfRange,
  GeneratorClosed,
  errors,
  errorKinds,
  maxBatch,
  type GeneratorOptions,
  type Decoded,
  type Stats,
  type Status,
  type LeaseState,
} from 'snowfleet';

const opts: GeneratorOptions = { nodeId: 37, mode: 'monotonic', maxWaitMs: 5, layout: Layout.TWITTER };
const gen = new Generator(opts);
const id: bigint = gen.nextId();
const s: string = gen.nextIdString();
const batch: BigInt64Array = gen.nextIds(Math.min(10, maxBatch));
const later: Promise<BigInt64Array> = gen.nextIdsAsync(1000);
const stats: Stats = gen.stats();
const waited: bigint = stats.waitedNsTotal;
const status: Status = gen.status();
const healthy: boolean = status.healthy;
const lease: LeaseState = status.leaseState;
const mark: number = status.markMs + status.leaseExpiresInMs + stats.markWrites + stats.leaseRefusals;
const alert: number =
  status.markHeadroomMs + stats.markWriteFailures + stats.leaseRenewalFailures;
const node: number = gen.nodeId;
const drift: number = gen.driftMs;
gen.close();

const d: Decoded = decode(id);
const d2: Decoded = decode('141264821508263936', 'twitter');
const ts: number = d.timestampMs + d2.sequence;
const composed: bigint = compose({ timestampMs: 1737747358021, nodeId: 37, sequence: 0 });
const parsed: bigint = parseId(s);
const text: string = formatId(parsed);
const at: number = parseTime('2025-01-24T19:35:58.021Z');
// @ts-expect-error parseTime takes the text, not a Date
parseTime(new Date());
const json: string = JSON.stringify(toJSONSafe({ id, batch }));
const json2: string = JSON.stringify({ id }, jsonReplacer);

const layout = Layout.create({ epochMs: 1288834974657n, timestampBits: 41, datacenterBits: 5, machineBits: 5, sequenceBits: 12 });
const max: number = layout.maxNodeId;
const name: string = layout.toString() + Layout.DEFAULT.preset + Layout.parse('discord').toJSON();

const clock = new testing.ScriptedClock([{ ms: '1737747358021' }, { ms: 1737747358022n, stepMs: 1, count: 3, every: 2 }]);
const ticking = new testing.ScriptedClock(1737747358021, { ticking: true });
ticking.ticking = false;
const split = new Generator({ layout: Layout.TWITTER, datacenterId: 3, machineId: 5n });
// @ts-expect-error presets are constants, not methods
Layout.default();
clock.setWallMs(1737747358021);
const slept: bigint = clock.sleptNs;
const frozenGen = new Generator({ nodeId: 1n, clock });

try {
  frozenGen.nextId();
} catch (e) {
  if (e instanceof ClockMovedBackwards) {
    const behind: number = e.driftMs;
    const code: 'CLOCK_MOVED_BACKWARDS' = e.code;
    void behind, code;
  } else if (e instanceof InvalidArgument || e instanceof TimestampOutOfRange) {
    const r: RangeError = e;
    void r;
  } else if (e instanceof SnowfleetError) {
    const c: string = e.code;
    void c;
  }
}
const cls: typeof GeneratorClosed = errors.GENERATOR_CLOSED;
const kinds: readonly string[] = errorKinds.map((k) => k.code);

// @ts-expect-error ids are never Numbers
const wrong: number = gen.nextId();
// @ts-expect-error mode is a closed set
new Generator({ nodeId: 1, mode: 'fast' });
// @ts-expect-error unknown option
new Generator({ nodeID: 1 });
// @ts-expect-error nodeId is not a string
new Generator({ nodeId: '1' });
// @ts-expect-error decode does not take a boolean
decode(true);
// @ts-expect-error leaseState is a closed set
const badLease: 'expired' = status.leaseState;

void [split, batch, later, waited, healthy, lease, mark, alert, badLease, node, drift, ts, composed, text, json, json2, max, name, slept, cls, kinds, wrong];

// A UUIDv7 generator has Generator's records and getters; both close on dispose.
const u7 = new Uuid7Generator({ mode: 'monotonic' });
const u7Issued: number = u7.stats().idsIssued;
const u7Healthy: boolean = u7.status().healthy;
const u7Wait: number = u7.maxWaitMs + u7.maxDriftMs;
u7[Symbol.dispose]();
const disposed: Promise<void> = gen[Symbol.asyncDispose]();
const base32FromText: string = formatBase32('141264821508263936');
void [u7Issued, u7Healthy, u7Wait, disposed, base32FromText];
const created: Promise<Generator> = Generator.create({ nodeSource: 'local:/tmp/x' });
void created;
