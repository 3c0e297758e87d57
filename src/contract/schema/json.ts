import fc from 'fast-check';
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import type { ExactJson } from './compiled-schema.js';
import { decimalText, toDecimal } from './decimal.js';
import { codePointArbitrary } from './text.js';

/** A JSON object without a prototype, so `__proto__` and `constructor` are ordinary keys. */
export function exactObject(entries: Iterable<readonly [string, ExactJson]>): { [key: string]: ExactJson } {
  const object = Object.create(null) as { [key: string]: ExactJson };
  // Without a prototype there is no `__proto__` setter: assignment makes an own property of every key.
  for (const [key, value] of entries) object[key] = value;
  return object;
}

/** Whether an exact JSON value is an object of members: not null, an array, nor a number kept as a LosslessNumber. */
export function isExactObject(value: ExactJson): value is { [key: string]: ExactJson } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}

/** Sets `key` as an own data property, so a key named `__proto__` stays a member (assignment would set the prototype). */
export function setOwnMember(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of a parsed JSON value with `leaf` applied to every value that is not an array nor a plain object, at any depth. */
export function mapLeaves(value: unknown, leaf: (value: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapLeaves(item, leaf));
  if (value === null || typeof value !== 'object' || !hasPlainPrototype(value)) return leaf(value);
  const copy = {};
  for (const [key, item] of Object.entries(value)) setOwnMember(copy, key, mapLeaves(item, leaf));
  return copy;
}

/**
 * A copy of a schema graph, shared nodes and cycles kept (one copy per node): `fill` writes each plain object's
 * copy; `instead` may name another node to copy in a node's place.
 */
export function graphCopier(
  fill: (node: Record<string, unknown>, out: Record<string, unknown>) => void,
  instead?: (node: Record<string, unknown>) => unknown,
): (node: unknown) => unknown {
  const copies = new Map<object, unknown>();
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (node === null || typeof node !== 'object' || !hasPlainPrototype(node)) return node;
    const record = node as Record<string, unknown>;
    const other = instead?.(record);
    if (other !== undefined) return copy(other);
    const known = copies.get(node);
    if (known !== undefined) return known;
    const out: Record<string, unknown> = {};
    copies.set(node, out);
    fill(record, out);
    return out;
  };
  return copy;
}

function hasPlainPrototype(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}

/** A value found in a schema (`enum`, `const`) as generation writes values: exact numbers, bare objects. */
export function toExact(value: unknown): ExactJson {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint' || isLosslessNumber(value)) return value;
  if (typeof value === 'number') {
    return Number.isInteger(value) && Number.isSafeInteger(value) ? BigInt(value) : new LosslessNumber(String(value));
  }
  if (Array.isArray(value)) return value.map(toExact);
  if (typeof value === 'object') return exactObject(Object.entries(value).map(([key, item]) => [key, toExact(item)]));
  throw new TypeError(`not a JSON value: ${typeof value}`);
}

/** The value as `parseExactJson` would give it from its JSON text: what a check judges. */
export function asParsed(value: ExactJson): unknown {
  return parseExactJson(stringifyExactJson(value));
}

/**
 * A text equal for values JSON Schema calls equal (`1`, `1.0` and `1e0` are one number; key order
 * does not matter), for `uniqueItems` and `enum`. Numbers compare as the doubles they parse to, as
 * the check (ajv) compares them: two decimals one double apart are one value to it.
 */
export function jsonKey(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  const decimal = toDecimal(value);
  if (decimal !== undefined) return `n${String(Number(decimalText(decimal)))}`;
  if (Array.isArray(value)) return `[${value.map(jsonKey).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${jsonKey((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return typeof value;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return jsonKey(a) === jsonKey(b);
}

const AWKWARD_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'ünïcödé',
  '🌱',
  'a.b',
  '$ref',
];

let keys: fc.Arbitrary<string> | undefined;

/**
 * Property names a naive implementation trips on, then any short text. One instance per process (it
 * holds no state), so the samples `Context.filtered` takes of it are taken once.
 */
export function keyArbitrary(): fc.Arbitrary<string> {
  keys ??= fc.oneof(fc.constantFrom(...AWKWARD_KEYS), fc.string({ unit: codePointArbitrary, maxLength: 8 }));
  return keys;
}

/** Integers every JSON parser reads exactly (RFC 8259 section 6). */
const INTEROPERABLE = 2n ** 53n - 1n;

/**
 * A number of any kind a double holds exactly: integers (as bigint) within ±(2^53-1) and doubles (as
 * lossless text). A place the schema leaves open asks for no more, and a JavaScript server that keeps
 * an undeclared member (`JSON.parse`) must give it back as sent.
 */
export function anyNumberArbitrary(): fc.Arbitrary<ExactJson> {
  return fc.oneof(
    fc.bigInt({ min: -INTEROPERABLE, max: INTEROPERABLE }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => toExact(value)),
  );
}

/**
 * Any JSON value two levels deep, for places the schema leaves open. Not fast-check's recursive
 * `jsonValue`: its depth counter is shared state, which made a recorded shrink path replay to another value.
 */
export function anyJsonArbitrary(): fc.Arbitrary<ExactJson> {
  const scalar: fc.Arbitrary<ExactJson> = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    anyNumberArbitrary(),
    fc.string({ unit: codePointArbitrary, maxLength: 10 }),
  );
  return fc.oneof(
    { arbitrary: scalar, weight: 3 },
    fc.array(scalar, { maxLength: 3 }),
    fc
      .uniqueArray(fc.tuple(keyArbitrary(), scalar), { maxLength: 3, selector: ([key]) => key })
      .map((entries) => exactObject(entries)),
  );
}
