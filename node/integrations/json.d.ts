// snowfleet/json: BigInt ids through JSON as decimal strings.

/** JSON.stringify(value, replacer): every BigInt as its decimal string. */
export function replacer(key: string, value: unknown): unknown;
/** JSON.stringify with `replacer`. */
export function stringify(value: unknown, space?: string | number): string;
/** Which properties hold ids: names, a RegExp or a predicate on the key. */
export type IdKeys = readonly string[] | ReadonlySet<string> | RegExp | ((key: string) => boolean);
/**
 * A JSON.parse reviver turning the properties named by `keys` into BigInt ids, and the
 * elements of arrays they hold (decimal text, or a number that is still exact; a number past
 * 2^53 - 1 is refused with a RangeError).
 */
export function reviver(keys: IdKeys): (key: string, value: unknown) => unknown;
/** JSON.parse with `reviver(keys)`. */
export function parse(text: string, keys: IdKeys): any;
/** Makes BigInt.prototype.toJSON write a decimal string, process-wide; returns a restore function. */
export function installBigIntToJSON(): () => void;
