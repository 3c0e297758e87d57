import { isLosslessNumber } from 'lossless-json';
import { INT32, INT64, type JsonSchema } from '../../contract/index.js';
import { ceilDiv, floorDiv, toDecimal, type Decimal } from '../../contract/schema/decimal.js';
import type { FreshIds } from './fresh-ids.js';
import { exactValue, materializeId, type IdShape } from './int64-id.js';
import { objectView } from '../../contract/object-view.js';

/**
 * A top-level integer property of the NewPlant (`id`, and any other): values sent there are made
 * fresh per run, inside the range the schema allows, so a target that refuses repeated ids never
 * sees one case's value again in another case or a later run.
 */
export interface IdSlot {
  readonly key: string;
  /** Inclusive bounds and step (a `multipleOf`), folded from the schema; unbounded: its format's, else ±(2^53-1). */
  readonly min: bigint;
  readonly max: bigint;
  readonly step: bigint;
  /** How many values the slot holds. */
  readonly count: bigint;
  /** Wide enough (an int32's 2^32 values or more) that fresh bits practically never collide across runs. */
  readonly wide: boolean;
  /** A `type: number` id (see {@link isNumberId}): its drawn values are decimals, replaced by fresh integers. */
  readonly ofNumber?: true;
  /** The schema's test of a value inside the bounds, where `not`, `allOf`, `anyOf` or `oneOf` narrow them. */
  readonly accepts?: (value: bigint) => boolean;
}

const WIDE = 2n ** 32n;
const FORMATS = new Map<unknown, { min: bigint; max: bigint }>([
  ['int32', INT32],
  ['int64', INT64],
]);
/** The integers every JSON parser reads exactly: an id without a format or a bound stays within them. */
const INTEROPERABLE = 2n ** 53n - 1n;
/**
 * A narrow slot of at least this many values (a positive int32, 1 to 10^9) gives ids drawn from the
 * nonce that an earlier run has almost surely not sent, so they are judged as fresh (`echo` compares
 * them even on a target that accepts repeats); a smaller range (1 to 10^6) gives ids that may repeat.
 */
const FRESH_ENOUGH = 2n ** 28n;

/** The id slots of a canonical NewPlant schema, in property order (`allOf` parts and `$ref`s followed). */
export function idSlots(schema: JsonSchema): IdSlot[] {
  const slots: IdSlot[] = [];
  for (const [key, property] of objectView(schema).properties) {
    const slot = slotOf(key, property);
    if (slot) slots.push(slot);
  }
  return slots;
}

function isIntegerSchema(schema: JsonSchema): boolean {
  const { type } = schema;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('number'));
}

/**
 * A `type: number` property holding ids: one named `id`, or one with an integer format (NestJS writes a
 * TypeScript `id: number` so, `format: int64` when asked). Its fresh values are integers, which it takes;
 * drawn numbers repeat (`1` above all), and a target refusing repeated ids (serve --spec) failed
 * positive-acceptance.
 */
function isNumberId(key: string, schema: JsonSchema): boolean {
  return schema.type === 'number' && (key === 'id' || FORMATS.has(schema.format));
}

function slotOf(key: string, schema: JsonSchema): IdSlot | undefined {
  if (!isIntegerSchema(schema) && !isNumberId(key, schema)) return undefined;
  // A listed set of values (`potSize: {type: integer, enum: [10, 12, 14]}`) is no range to draw fresh ids from.
  if (schema.enum !== undefined || schema.const !== undefined) return undefined;
  const accepts = narrowingOf(schema);
  if (accepts === undefined) return undefined;
  const step = integerOf(schema.multipleOf) ?? 1n;
  if (step <= 0n || (schema.multipleOf !== undefined && integerOf(schema.multipleOf) === undefined)) return undefined;
  let { min, max } = rangeOf(
    FORMATS.get(schema.format),
    boundOf(schema.minimum, schema.exclusiveMinimum, 'min'),
    boundOf(schema.maximum, schema.exclusiveMaximum, 'max'),
  );
  min = ceilToStep(min, step);
  max = floorToStep(max, step);
  if (min > max) return undefined;
  const count = (max - min) / step + 1n;
  return {
    key,
    min,
    max,
    step,
    count,
    wide: count >= WIDE,
    ...(isIntegerSchema(schema) ? {} : { ofNumber: true }),
    ...(accepts === null ? {} : { accepts }),
  };
}

/** Annotations and the keywords {@link integerAccepts} reads; any other leaves the property without a slot. */
const READ = new Set([
  ...['type', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  ...['const', 'enum', 'not', 'allOf', 'anyOf', 'oneOf', 'nullable'],
  ...['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment'],
]);
const NARROWING = ['not', 'allOf', 'anyOf', 'oneOf'] as const;

/**
 * Whether a schema takes the integer `value`, for the keywords of {@link READ} (`not: {const: 0}`, `allOf`
 * parts with bounds, an `anyOf` of two ranges); `undefined` when it holds another keyword.
 */
function integerAccepts(schema: unknown, value: bigint): boolean | undefined {
  if (schema === true || schema === undefined) return true;
  if (schema === false) return false;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const node = schema as Record<string, unknown>;
  if (Object.keys(node).some((keyword) => !READ.has(keyword) && !keyword.startsWith('x-'))) return undefined;
  const results: (boolean | undefined)[] = [];
  const { type } = node;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    results.push(types.includes('integer') || types.includes('number'));
  }
  const bounds: [unknown, (limit: bigint) => boolean][] = [
    [ceilNumber(node.minimum), (limit) => value >= limit],
    [floorNumber(node.maximum), (limit) => value <= limit],
    [floorNumber(node.exclusiveMinimum), (limit) => value > limit],
    [ceilNumber(node.exclusiveMaximum), (limit) => value < limit],
  ];
  for (const [limit, holds] of bounds) if (typeof limit === 'bigint') results.push(holds(limit));
  const step = integerOf(node.multipleOf);
  if (node.multipleOf !== undefined) results.push(step === undefined || step === 0n ? undefined : value % step === 0n);
  if ('const' in node) results.push(integerOf(node.const) === value);
  if (Array.isArray(node.enum)) results.push(node.enum.some((listed) => integerOf(listed) === value));
  if (node.not !== undefined) {
    const inner = integerAccepts(node.not, value);
    results.push(inner === undefined ? undefined : !inner);
  }
  const parts = (key: string): (boolean | undefined)[] =>
    Array.isArray(node[key]) ? (node[key] as unknown[]).map((part) => integerAccepts(part, value)) : [];
  const all = parts('allOf');
  const any = parts('anyOf');
  const one = parts('oneOf');
  results.push(...all);
  if (any.length > 0) results.push(any.includes(undefined) ? undefined : any.includes(true));
  if (one.length > 0) results.push(one.includes(undefined) ? undefined : one.filter(Boolean).length === 1);
  return results.includes(undefined) ? undefined : results.every(Boolean);
}

/**
 * What a property's `not`, `allOf`, `anyOf` and `oneOf` make of its integers (a vendor's `not: {const: 0}`,
 * "no id 0"), as a test of each value; `null` when it has none of them; `undefined` when it narrows them
 * with a keyword the test does not read: its values are then drawn from the schema, as any other integer's.
 */
function narrowingOf(schema: JsonSchema): ((value: bigint) => boolean) | null | undefined {
  if (!NARROWING.some((keyword) => schema[keyword] !== undefined)) return null;
  if (integerAccepts(schema, 0n) === undefined) return undefined;
  return (value) => integerAccepts(schema, value) === true;
}

/**
 * The inclusive range of an integer slot: its format's, narrowed by its bounds. Without a format, a side
 * the document leaves open keeps to ±(2^53-1), which every JSON parser reads exactly (RFC 8259 section
 * 6); a bound of its own, beyond 2^53 too, is the document's to set (a minimum of 2^60 opens up to int64).
 */
function rangeOf(
  format: { min: bigint; max: bigint } | undefined,
  lower: bigint | undefined,
  upper: bigint | undefined,
): { min: bigint; max: bigint } {
  if (format !== undefined) {
    return {
      min: lower !== undefined && lower > format.min ? lower : format.min,
      max: upper !== undefined && upper < format.max ? upper : format.max,
    };
  }
  return {
    min: lower ?? (upper !== undefined && upper < -INTEROPERABLE ? INT64.min : -INTEROPERABLE),
    max: upper ?? (lower !== undefined && lower > INTEROPERABLE ? INT64.max : INTEROPERABLE),
  };
}

/** A bound as an exact integer: inclusive `minimum`/`maximum`, or one step inside an exclusive one. */
function boundOf(inclusive: unknown, exclusive: unknown, side: 'min' | 'max'): bigint | undefined {
  const candidates: bigint[] = [];
  const inner = side === 'min' ? ceilNumber(inclusive) : floorNumber(inclusive);
  if (inner !== undefined) candidates.push(inner);
  if (typeof exclusive === 'number' || typeof exclusive === 'bigint' || isLosslessNumber(exclusive)) {
    const edge = side === 'min' ? floorNumber(exclusive) : ceilNumber(exclusive);
    if (edge !== undefined) candidates.push(side === 'min' ? edge + 1n : edge - 1n);
  }
  if (candidates.length === 0) return undefined;
  return candidates.reduce((a, b) => (side === 'min' ? (a > b ? a : b) : a < b ? a : b));
}

function integerOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  const exact = exactOf(value);
  return exact !== undefined && exact.scale === 0 ? exact.digits : undefined;
}

function ceilNumber(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.ceil(value)) : undefined;
  const exact = exactOf(value);
  return exact === undefined ? undefined : ceilDiv(exact.digits, 10n ** BigInt(exact.scale));
}

function floorNumber(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? BigInt(Math.floor(value)) : undefined;
  const exact = exactOf(value);
  return exact === undefined ? undefined : floorDiv(exact.digits, 10n ** BigInt(exact.scale));
}

/**
 * A number the canonical schema keeps exact (a lossless number: a bound beyond 2^53 such as `minimum:
 * 9007199254740993`) as a decimal; a JS number is read as the double it is (see the decision on bounds
 * written to a double's precision), so only lossless numbers come here.
 */
function exactOf(value: unknown): Decimal | undefined {
  return isLosslessNumber(value) ? toDecimal(value) : undefined;
}

function mod(value: bigint, modulus: bigint): bigint {
  const rest = value % modulus;
  return rest < 0n ? rest + modulus : rest;
}

function ceilToStep(value: bigint, step: bigint): bigint {
  const rest = mod(value, step);
  return rest === 0n ? value : value + (step - rest);
}

function floorToStep(value: bigint, step: bigint): bigint {
  return value - mod(value, step);
}

/** Whether a value lies in the slot (inside its bounds, on its step). */
export function inSlot(slot: IdSlot, value: bigint): boolean {
  if (value < slot.min || value > slot.max || mod(value - slot.min, slot.step) !== 0n) return false;
  return slot.accepts === undefined || slot.accepts(value);
}

/** How many positions {@link atIndex} walks past values the schema refuses before it takes the slot's edges. */
const WALK = 256n;

/**
 * The value the slot's `index`-th position stands for, counting from its minimum and wrapping around;
 * a value the schema refuses (`not: {const: 0}`) gives way to the next one it takes, else to an edge it takes.
 */
function atIndex(slot: IdSlot, index: bigint): bigint {
  const at = (position: bigint) => slot.min + slot.step * mod(position, slot.count);
  if (slot.accepts === undefined) return at(index);
  for (let next = 0n; next < WALK; next++) if (inSlot(slot, at(index + next))) return at(index + next);
  return slotEdges(slot)[0] ?? at(index);
}

/**
 * The id a shape stands for in this run, inside the slot. Wide slots keep the int64 shapes (edges,
 * fresh bits); a value outside the slot is folded into it. Narrow slots take the next value not yet
 * sent in this run, from a position drawn from the nonce: in a range under {@link FRESH_ENOUGH} values
 * an earlier run may have sent it (`mayRepeat`).
 */
export function materializeInSlot(
  slot: IdSlot,
  shape: IdShape,
  fresh: FreshIds,
  salt: string,
): { id: bigint; mayRepeat: boolean } {
  if (slot.wide) {
    const drawn = materializeId(shape, fresh, salt);
    if (inSlot(slot, drawn.id)) return drawn;
    // Outside the document's range: a fresh value of the same shape, folded in. (An exact value folded
    // in could land on an edge another case sends exactly, unclaimed.)
    const again = materializeId({ ...shape, fresh: true }, fresh, salt);
    const id = inSlot(slot, again.id) ? again.id : atIndex(slot, (again.id - slot.min) / slot.step);
    return { id, mayRepeat: false };
  }
  const exact = shape.fresh || shape.anchor === 'anywhere' ? undefined : exactValue(shape);
  if (exact !== undefined && inSlot(slot, exact) && fresh.claim(exact)) return { id: exact, mayRepeat: true };
  const start = shape.position + fresh.bits(salt);
  const tries = slot.count < 256n ? slot.count : 256n;
  const mayRepeat = slot.count < FRESH_ENOUGH;
  for (let step = 0n; step < tries; step++) {
    const id = atIndex(slot, start + step);
    if (fresh.claim(id)) return { id, mayRepeat };
  }
  return { id: atIndex(slot, start), mayRepeat };
}

/**
 * An exact id the shape machinery sends as it is (once per run), e.g. a slot's own minimum. Measured
 * from the int64 end on the far side, so fresh bits added on a second draw move it inward, never out.
 */
export function exactShape(value: bigint): IdShape {
  return value >= 0n
    ? { anchor: 'max', offset: INT64.max - value, fresh: false, position: 0n }
    : { anchor: 'min', offset: value - INT64.min, fresh: false, position: 0n };
}

const INT64_EDGES = [
  INT64.max,
  INT64.min,
  0n,
  -1n,
  2n ** 53n + 1n,
  -(2n ** 53n) - 1n,
  INT32.max,
  INT32.max + 1n,
  INT32.min,
  INT32.min - 1n,
];

/**
 * The exact values of a slot where implementations break, each sent once per run: the int64 and
 * int32 ends, 0 and -1, the first integers doubles cannot hold, and the slot's own ends, when inside.
 */
export function slotEdges(slot: IdSlot): bigint[] {
  // A range of the document's own: its ends and the values next to them. The whole int64 range's ends
  // are in INT64_EDGES already.
  const whole = slot.min === INT64.min && slot.max === INT64.max;
  const own = whole ? [] : [slot.min, slot.max, slot.min + slot.step, slot.max - slot.step];
  const edges = [...INT64_EDGES, ...own].filter((value) => inSlot(slot, value));
  return [...new Set(edges)];
}
