import { isLosslessNumber, parse, stringify } from 'lossless-json';
import { NOT_PLAIN, parsePlainJson } from './plain-json.js';

/**
 * JSON with exact numbers. Values come back with ordinary JavaScript numbers, so schema validators
 * and application code see familiar types, while the digits each number was written with stay
 * available through {@link numberText} for exact integer checks.
 */

/** Thrown when a text is not JSON this project accepts; `message` says what and where. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** Thrown when a JSON text nests arrays and objects deeper than allowed. */
export class JsonDepthError extends Error {
  override readonly name = 'JsonDepthError';
}

/** Deep enough for any realistic document; shallow enough that no parser recursion can overflow. */
export const DEFAULT_MAX_DEPTH = 256;

const numberTexts = new WeakMap<object, Map<string | number, string>>();

/**
 * The digits a number was written with in the JSON text it was parsed from, given the object or
 * array that holds it and its key or index; `undefined` when that value was not a parsed number.
 * An integer of at most 15 digits (not `-0`) reads as `String(value)`, the only way JSON writes it
 * without a fraction or exponent, so its text is not kept (see {@link isShortCanonicalInteger}).
 */
export function numberText(parent: object, key: string | number): string | undefined {
  const text = numberTexts.get(parent)?.get(key);
  if (text !== undefined) return text;
  const value = (parent as Record<string | number, unknown>)[key];
  return typeof value === 'number' && isShortInteger(value) ? String(value) : undefined;
}

/**
 * The digits kept for a parsed number ({@link numberText} without its `String(value)` answer): `undefined`
 * for a number written as `String` writes it (an integer of at most 15 digits) or not parsed at all.
 */
export function keptNumberText(parent: object, key: string | number): string | undefined {
  return numberTexts.get(parent)?.get(key);
}

/** An integer that `String` writes with at most 15 digits and nothing else: exactly a double. */
function isShortInteger(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) < 1e15 && !Object.is(value, -0);
}

/**
 * Whether a JSON number text is what `String` writes for its value: an optional minus and 1 to 15
 * digits without a leading zero, not `-0`. Such a text is exact as a double, and {@link numberText}
 * answers `String(value)` for it, so parsing need not keep it (most numbers of most bodies).
 */
export function isShortCanonicalInteger(text: string): boolean {
  const start = text.charCodeAt(0) === 0x2d ? 1 : 0;
  const digits = text.length - start;
  if (digits < 1 || digits > 15) return false;
  if (text.charCodeAt(start) === 0x30) return digits === 1 && start === 0;
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * Parses JSON text exactly: duplicate keys with different values are rejected, `__proto__` is an
 * ordinary key, objects have no prototype, and every number keeps its text (see {@link numberText}).
 */
export function parseExactJson(text: string, maxDepth = DEFAULT_MAX_DEPTH): unknown {
  // The one-pass parser recurses once per level, and gives up past either limit: text it parses
  // nests no deeper than it went, so only the others need their depth counted.
  const plain = parsePlainJson(text, remember, Math.min(maxDepth, DEFAULT_MAX_DEPTH));
  if (plain !== NOT_PLAIN) return plain;
  const depth = nestingDepth(text);
  if (depth > maxDepth) {
    throw new JsonDepthError(`JSON nests ${depth} levels deep; at most ${maxDepth} are accepted`);
  }
  return parseLosslessJson(text);
}

/** {@link parseExactJson} through lossless-json alone: what the one-pass parser must agree with. */
export function parseLosslessJson(text: string): unknown {
  let lossless: unknown;
  try {
    lossless = parse(text);
  } catch (error) {
    throw new JsonSyntaxError(error instanceof Error ? error.message : String(error));
  }
  return toPlain(lossless);
}

/** Serialises a value as JSON; `bigint` values and numbers parsed by this module keep every digit. */
export function stringifyExactJson(value: unknown): string {
  const text = plainJsonText(value) ?? stringify(value);
  if (text === undefined) throw new TypeError('value cannot be represented as JSON');
  return text;
}

/**
 * The JSON text lossless-json's `stringify` writes for the values generation and parsing make (strings,
 * finite and other numbers, booleans, null, bigints, lossless numbers, arrays, plain or prototype-less
 * objects), written without its per-value closures and checks; `undefined` for anything else (a member
 * without a JSON form, a `toJSON`, a Date or other class), which goes to lossless-json, the reference.
 */
function plainJsonText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'bigint':
      return value.toString();
    case 'object':
      if (value === null) return 'null';
      if (isLosslessNumber(value)) return value.toString();
      if (Array.isArray(value)) return plainArrayText(value);
      return isPlainRecord(value) ? plainObjectText(value) : undefined;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
}

function plainArrayText(array: readonly unknown[]): string | undefined {
  let text = '[';
  for (let index = 0; index < array.length; index++) {
    const item = plainJsonText(array[index]);
    if (item === undefined) return undefined;
    text += index === 0 ? item : `,${item}`;
  }
  return `${text}]`;
}

function plainObjectText(object: Record<string, unknown>): string | undefined {
  let text = '{';
  let first = true;
  for (const key of Object.keys(object)) {
    const item = plainJsonText(object[key]);
    if (item === undefined) return undefined;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${text}}`;
}

/**
 * What `parseExactJson(stringifyExactJson(value))` returns, built from `value` without writing and
 * reading its text: for the values {@link plainJsonText} writes itself (strings, numbers, booleans,
 * null, bigints, lossless numbers, arrays, plain or prototype-less objects), nested no deeper than
 * parsing takes; `undefined` for anything else, which only that round trip answers. The same values
 * (objects without a prototype, keys in the same order) and the same {@link numberText} answers.
 */
export function parsedFormOf(value: unknown): unknown {
  const parsed = parsedForm(value, 0);
  return parsed === UNREAD ? undefined : parsed;
}

/** {@link parsedForm}'s answer for a value it leaves to the text round trip. */
const UNREAD: unique symbol = Symbol('unread');

function parsedForm(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON.stringify writes NaN and the infinities as null, -0 as 0.
      return Number.isFinite(value) ? finiteNumber(JSON.stringify(value)) : null;
    case 'bigint':
      return finiteNumber(value.toString());
    case 'object':
      if (value === null) return null;
      if (isLosslessNumber(value)) return finiteNumber(value.toString());
      if (depth >= DEFAULT_MAX_DEPTH) return UNREAD;
      if (Array.isArray(value)) return parsedArray(value, depth + 1);
      return isPlainRecord(value) ? parsedObject(value, depth + 1) : UNREAD;
    case 'undefined':
    case 'function':
    case 'symbol':
      return UNREAD;
  }
}

function parsedArray(source: readonly unknown[], depth: number): unknown[] | typeof UNREAD {
  const array: unknown[] = [];
  for (let index = 0; index < source.length; index++) {
    const item = parsedForm(source[index], depth);
    if (item === UNREAD) return UNREAD;
    keepNumberText(array, index, source[index]);
    array.push(item);
  }
  return array;
}

function parsedObject(source: Record<string, unknown>, depth: number): Record<string, unknown> | typeof UNREAD {
  const object = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const item = parsedForm(source[key], depth);
    if (item === UNREAD) return UNREAD;
    keepNumberText(object, key, source[key]);
    // A null prototype makes `__proto__` and `constructor` ordinary keys.
    object[key] = item;
  }
  return object;
}

/** Remembers the text {@link plainJsonText} writes for a number member, as parsing it would. */
function keepNumberText(parent: object, key: string | number, value: unknown): void {
  if (typeof value === 'bigint') remember(parent, key, value.toString());
  else if (typeof value === 'number' && Number.isFinite(value)) remember(parent, key, JSON.stringify(value));
  else if (isLosslessNumber(value)) remember(parent, key, value.toString());
}

/** An object lossless-json writes member by member: no class, no `toJSON`. */
function isPlainRecord(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== null && prototype !== Object.prototype) return false;
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function toPlain(value: unknown): unknown {
  if (isLosslessNumber(value)) return finiteNumber(value.value);
  if (Array.isArray(value)) {
    const array: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (isLosslessNumber(item)) remember(array, index, item.value);
      array.push(toPlain(item));
    }
    return array;
  }
  if (value !== null && typeof value === 'object') {
    const object = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) {
      if (isLosslessNumber(item)) remember(object, key, item.value);
      // A null prototype makes `__proto__` and `constructor` ordinary keys.
      object[key] = toPlain(item);
    }
    return object;
  }
  return value;
}

function remember(parent: object, key: string | number, text: string): void {
  if (isShortCanonicalInteger(text)) return;
  let texts = numberTexts.get(parent);
  if (!texts) {
    texts = new Map();
    numberTexts.set(parent, texts);
  }
  texts.set(key, text);
}

/** Numbers beyond ±1.8e308 become the largest finite double: their exact text is what gets judged. */
function finiteNumber(text: string): number {
  const value = Number(text);
  if (Number.isFinite(value)) return value;
  return value > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
}

/** The deepest nesting of arrays and objects, found without recursion (strings are skipped). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return deepest;
}
