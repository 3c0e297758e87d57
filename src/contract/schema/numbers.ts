import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { INT32, INT64 } from '../integers.js';
import type { ExactJson } from './compiled-schema.js';
import {
  atScale,
  ceilDiv,
  compareDecimal,
  decimalText,
  floorDiv,
  integerStep,
  normalise,
  parseDecimal,
  quotientBounds,
  toDecimal,
  type Decimal,
} from './decimal.js';

/** One side of a numeric range. */
export interface Bound {
  /** Where the range surely ends: the bound as written, or its rounding interval's inner end (see `outer`). */
  readonly value: Decimal;
  readonly exclusive: boolean;
  /** The keyword it came from: `minimum`, `exclusiveMinimum`, `maximum` or `exclusiveMaximum`. */
  readonly keyword: string;
  /**
   * For a bound written only to a double's precision beyond 2^53 (`9.223372036854776e+18`, as pydantic 1
   * through FastAPI writes `le=2**63-1`): the outer end of the numbers that round to the same double.
   * A value between `value` and `outer` is valid under one reading and not the other (the text, the
   * double, the int64 edge the writer meant), so no case is made there.
   */
  readonly outer?: Decimal;
  /** The bound as the document writes it, for labels, when `value` is not it. */
  readonly written?: Decimal;
}

/** The numeric keywords of a schema, folded: the stricter of `minimum` and `exclusiveMinimum`, etc. */
export interface NumericBounds {
  readonly lower: Bound | undefined;
  readonly upper: Bound | undefined;
  readonly multipleOf: Decimal | undefined;
}

/** Inclusive integer bounds and step: the integers allowed are the multiples of `step` in `[min, max]`. */
export interface IntegerRange {
  readonly min: bigint | undefined;
  readonly max: bigint | undefined;
  readonly step: bigint;
}

export function numericBounds(schema: Record<string, unknown>): NumericBounds {
  const read = (keyword: string, exclusive: boolean): Bound | undefined => {
    const raw = schema[keyword];
    const value = toDecimal(raw);
    if (value === undefined) return undefined;
    const rounding = typeof raw === 'number' ? roundingInterval(raw) : undefined;
    if (rounding === undefined) return { value, exclusive, keyword };
    const [inner, outer] = keyword.endsWith('inimum') ? [rounding.high, rounding.low] : [rounding.low, rounding.high];
    return {
      value: { digits: inner, scale: 0 },
      exclusive,
      keyword,
      outer: { digits: outer, scale: 0 },
      written: value,
    };
  };
  const stricter = (a: Bound | undefined, b: Bound | undefined, sign: 1 | -1): Bound | undefined => {
    if (a === undefined || b === undefined) return a ?? b;
    const order = compareDecimal(a.value, b.value) * sign;
    if (order !== 0) return order > 0 ? a : b;
    return a.exclusive ? a : b;
  };
  const multipleOf = toDecimal(schema.multipleOf);
  return {
    lower: stricter(read('minimum', false), read('exclusiveMinimum', true), 1),
    upper: stricter(read('maximum', false), read('exclusiveMaximum', true), -1),
    multipleOf: multipleOf !== undefined && multipleOf.digits > 0n ? multipleOf : undefined,
  };
}

/**
 * The integers that a double beyond 2^53 rounds from, ends included (ties go to the even neighbour, and
 * the neighbours of a double this large are even): `undefined` for a double within 2^53, which JSON
 * writes exactly. A bound written as an integer beyond 2^53 reaches the schema as a `bigint`, exact.
 */
export function roundingInterval(value: number): { low: bigint; high: bigint } | undefined {
  if (!Number.isFinite(value) || Math.abs(value) <= 2 ** 53) return undefined;
  const [below, above] = [neighbour(value, -1), neighbour(value, 1)];
  const here = BigInt(value);
  return { low: (BigInt(below) + here) / 2n, high: (here + BigInt(above)) / 2n };
}

/** The double next to `value` (finite, not zero) toward -Infinity (`-1`) or +Infinity (`1`). */
function neighbour(value: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  // Away from zero is one more in magnitude: the bits' integer grows for either sign.
  view.setBigUint64(0, Math.sign(value) === direction ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

const FORMAT_RANGES: Readonly<Record<string, { min: bigint; max: bigint }>> = { int32: INT32, int64: INT64 };

/** The integers a schema allows, or `undefined` when there are none. */
export function integerRange(bounds: NumericBounds, format: string | undefined): IntegerRange | undefined {
  const step = bounds.multipleOf === undefined ? 1n : integerStep(bounds.multipleOf);
  let min = bounds.lower && lowestInteger(bounds.lower, 1n);
  let max = bounds.upper && highestInteger(bounds.upper, 1n);
  const range = format === undefined ? undefined : FORMAT_RANGES[format];
  if (range !== undefined) {
    min = min === undefined || min < range.min ? range.min : min;
    max = max === undefined || max > range.max ? range.max : max;
  }
  if (min !== undefined) min = ceilDiv(min, step) * step;
  if (max !== undefined) max = floorDiv(max, step) * step;
  if (min !== undefined && max !== undefined && min > max) return undefined;
  return { min, max, step };
}

/** The smallest multiple of `unit` the lower bound allows. */
function lowestInteger(bound: Bound, unit: bigint): bigint {
  const { floor, ceil } = quotientBounds(bound.value, { digits: unit, scale: 0 });
  return (bound.exclusive ? floor + 1n : ceil) * unit;
}

function highestInteger(bound: Bound, unit: bigint): bigint {
  const { floor, ceil } = quotientBounds(bound.value, { digits: unit, scale: 0 });
  return (bound.exclusive ? ceil - 1n : floor) * unit;
}

const TWO_53 = 2n ** 53n;
/** Values that break implementations: around zero, the double-precision limit, the int32/int64 ends. */
const INTEGER_EDGES = [
  0n,
  1n,
  -1n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 31n,
  TWO_53 - 1n,
  TWO_53,
  TWO_53 + 1n,
  -(TWO_53 + 1n),
  INT64.max,
  INT64.min,
  2n ** 64n,
];
/**
 * How far an unbounded side of an integer range reaches: the integers every JSON parser reads exactly
 * (RFC 8259 section 6). Beyond them a document must say so, with `format: int64` or a bound.
 */
const INTEROPERABLE = TWO_53 - 1n;
/**
 * Valid decimals keep to 15 significant digits, which every binary64 double holds exactly (RFC 8259
 * section 6), so a server that reads numbers as doubles, as most do, stores the value sent.
 */
const DECIMAL_DIGITS = 10n ** 15n;
/**
 * Under `format: float` (a Java or C# `float`, a Rust `f32`), 6 significant digits: every such decimal is
 * told apart by a binary32 float and is the shortest text of it, so a server holding the value as a float
 * writes back what it was sent (`Float.toString`, Jackson, System.Text.Json, serde).
 */
export const FLOAT_DIGITS = 10n ** 6n;

/** Integers of a range as bigints, weighted toward its edges; shrinking moves toward zero. */
export function integerArbitrary(range: IntegerRange): fc.Arbitrary<bigint> {
  const { step } = range;
  const kMin = range.min === undefined ? -INTEROPERABLE / step : range.min / step;
  const kMax = range.max === undefined ? INTEROPERABLE / step : range.max / step;
  const inRange = (value: bigint): boolean => value % step === 0n && value >= kMin * step && value <= kMax * step;
  const edges = [...INTEGER_EDGES, kMin * step, kMax * step, (kMin + 1n) * step, (kMax - 1n) * step]
    .map((value) => floorDiv(value, step) * step)
    .filter(inRange);
  const small = clamp(-1000n / step, kMin, kMax);
  const smallMax = clamp(1000n / step, kMin, kMax);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...new Set(edges)), weight: 2 },
    { arbitrary: fc.bigInt({ min: small, max: smallMax }).map((k) => k * step), weight: 3 },
    { arbitrary: fc.bigInt({ min: kMin, max: kMax }).map((k) => k * step), weight: 3 },
  );
}

function clamp(value: bigint, min: bigint, max: bigint): bigint {
  return value < min ? min : value > max ? max : value;
}

/** The multiples of `unit` a numeric range allows, as `[first, last]` counts of `unit`; `undefined` if none. */
export function multiplesIn(
  bounds: NumericBounds,
  unit: Decimal,
): [bigint | undefined, bigint | undefined] | undefined {
  let first: bigint | undefined;
  let last: bigint | undefined;
  if (bounds.lower) {
    const q = quotientBounds(bounds.lower.value, unit);
    first = bounds.lower.exclusive && q.floor === q.ceil ? q.ceil + 1n : q.ceil;
  }
  if (bounds.upper) {
    const q = quotientBounds(bounds.upper.value, unit);
    last = bounds.upper.exclusive && q.floor === q.ceil ? q.floor - 1n : q.floor;
  }
  if (first !== undefined && last !== undefined && first > last) return undefined;
  return [first, last];
}

/** Decimal places tried when a number has no `multipleOf`. */
const SCALES = [0, 1, 2, 3, 6, 17];

/**
 * Numbers of a range (as lossless decimal text), exactly: multiples of `multipleOf`, or decimals
 * of several precisions and doubles. `undefined` when the range holds no number.
 */
export function numberArbitrary(
  bounds: NumericBounds,
  digits: bigint = DECIMAL_DIGITS,
): fc.Arbitrary<ExactJson> | undefined {
  // A range that holds no number of 15 (a float's 6) significant digits asks for longer ones: it gets them.
  return numbersOf(bounds, true, digits) ?? numbersOf(bounds, false, digits);
}

function numbersOf(bounds: NumericBounds, interoperable: boolean, digits: bigint): fc.Arbitrary<ExactJson> | undefined {
  if (bounds.multipleOf !== undefined)
    return multiplesArbitrary(bounds, bounds.multipleOf, { interoperable, digits, documented: true });
  const finest = Math.max(bounds.lower?.value.scale ?? 0, bounds.upper?.value.scale ?? 0) + 1;
  const scales = [...new Set([...SCALES, finest])];
  const parts = scales
    .map((scale) => multiplesArbitrary(bounds, { digits: 1n, scale }, { interoperable, digits }))
    .filter((arbitrary): arbitrary is fc.Arbitrary<ExactJson> => arbitrary !== undefined);
  if (parts.length === 0) return undefined;
  // Doubles are no floats: under format float the decimals alone.
  const doubles = digits === DECIMAL_DIGITS && doublesFit(bounds);
  return fc.oneof(...parts, ...(doubles ? [doubleArbitrary(bounds)] : []));
}

function multiplesArbitrary(
  bounds: NumericBounds,
  unit: Decimal,
  { interoperable, digits, documented = false }: { interoperable: boolean; digits: bigint; documented?: boolean },
): fc.Arbitrary<ExactJson> | undefined {
  const range = multiplesIn(bounds, unit);
  if (range === undefined) return undefined;
  // Multiples keep to 15 significant digits (what a double keeps); doubles cover the far range.
  const wide = (digits - 1n) / (unit.digits < 0n ? -unit.digits : unit.digits);
  const [lower, upper] = range;
  const first = lower === undefined || (interoperable && lower < -wide) ? -wide : lower;
  const last = upper === undefined || (interoperable && upper > wide) ? wide : upper;
  if (first > last) return undefined;
  // A document's multipleOf is judged by dividing in doubles by most validators: keep to multiples they agree on.
  const agreed = (k: bigint): bigint => (documented ? agreedMultipleNear(unit, k, first, last) : k);
  const toNumber = (k: bigint): ExactJson =>
    new LosslessNumber(decimalText(normalise({ digits: agreed(k) * unit.digits, scale: unit.scale })));
  const edges = [first, last, first + 1n, last - 1n, 0n, 1n, -1n].filter((k) => k >= first && k <= last);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...new Set(edges)).map(toNumber), weight: 1 },
    {
      arbitrary: fc.bigInt({ min: clamp(-100000n, first, last), max: clamp(100000n, first, last) }).map(toNumber),
      weight: 2,
    },
    { arbitrary: fc.bigInt({ min: first, max: last }).map(toNumber), weight: 2 },
  );
}

/**
 * Whether the `k`-th multiple of `unit` is a multiple also to a validator that divides in doubles and
 * asks for an integer quotient, as ajv and python-jsonschema do: to them 0.07 is no multiple of 0.01
 * (0.07 / 0.01 is 7.000000000000001 in doubles), though it is one exactly.
 */
export function isAgreedMultiple(unit: Decimal, k: bigint): boolean {
  const value = Number(decimalText(normalise({ digits: k * unit.digits, scale: unit.scale })));
  return Number.isInteger(value / Number(decimalText(unit)));
}

/** How many multiples either side of a disputed one are tried for an agreed one. */
const AGREEMENT_SEARCH = 8n;

/** `k`, else the nearest agreed multiple within a few steps and inside `[first, last]`, else `k` itself. */
function agreedMultipleNear(unit: Decimal, k: bigint, first: bigint, last: bigint): bigint {
  if (isAgreedMultiple(unit, k)) return k;
  for (let step = 1n; step <= AGREEMENT_SEARCH; step++) {
    for (const candidate of [k + step, k - step]) {
      if (candidate >= first && candidate <= last && isAgreedMultiple(unit, candidate)) return candidate;
    }
  }
  return k;
}

/** Doubles are tried only where the range holds many of them, so the filter below rarely refuses. */
function doublesFit(bounds: NumericBounds): boolean {
  if (bounds.lower === undefined || bounds.upper === undefined) return true;
  const min = Number(decimalText(bounds.lower.value));
  const max = Number(decimalText(bounds.upper.value));
  return max - min > Math.max(Math.abs(min), Math.abs(max)) * 1e-9;
}

/** Doubles in range, written as JavaScript writes them (`1e-7`, `1.7976931348623157e+308`). */
function doubleArbitrary(bounds: NumericBounds): fc.Arbitrary<ExactJson> {
  const inside = (text: string): boolean => {
    const value = parseDecimal(text);
    if (value === undefined) return false;
    const low = bounds.lower && compareDecimal(value, bounds.lower.value);
    const high = bounds.upper && compareDecimal(value, bounds.upper.value);
    if (low !== undefined && (low < 0 || (low === 0 && bounds.lower?.exclusive === true))) return false;
    return !(high !== undefined && (high > 0 || (high === 0 && bounds.upper?.exclusive === true)));
  };
  const min = bounds.lower ? Number(decimalText(bounds.lower.value)) : undefined;
  const max = bounds.upper ? Number(decimalText(bounds.upper.value)) : undefined;
  return fc
    .double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
    })
    .map((value) => String(value))
    .filter(inside)
    .map((text) => new LosslessNumber(text));
}

/** The decimal of `value` at the given number of places (rounded toward minus infinity). */
export function decimalAtScale(value: Decimal, scale: number): Decimal {
  return { digits: atScale(value, scale), scale };
}
