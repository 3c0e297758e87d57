import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { INT32, INT64 } from '../integers.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context } from './context.js';
import { decimalText, integerStep, normalise, quotientBounds, type Decimal } from './decimal.js';
import type { JsonType } from './keywords.js';
import { at, type Candidate } from './leaf-variants.js';
import { isAgreedMultiple, multiplesIn, numericBounds, type Bound, type NumericBounds } from './numbers.js';
import type { Site } from './variants.js';

const FORMATS: Readonly<Record<string, { min: bigint; max: bigint }>> = { int32: INT32, int64: INT64 };

/** The edges of the numeric bounds and of int32/int64, non-multiples, and fractions where integers are due. */
export function numberCandidates(site: Site, types: JsonType[] | undefined, _context: Context): Candidate[] {
  const format = typeof site.schema.format === 'string' ? site.schema.format : undefined;
  const integral =
    (types !== undefined && !types.includes('number')) || (format !== undefined && Object.hasOwn(FORMATS, format));
  const bounds = numericBounds(site.schema);
  const unit: Decimal = integral
    ? { digits: bounds.multipleOf === undefined ? 1n : integerStep(bounds.multipleOf), scale: 0 }
    : (bounds.multipleOf ?? { digits: 1n, scale: finestScale(bounds) });
  const range = multiplesIn(bounds, unit);
  if (range === undefined) return [];
  const value = (k: bigint): ExactJson => (integral ? k * unit.digits : lossless(multiply(unit, k)));
  // A valid edge that validators dividing in doubles refuse (minimum 0.07 with multipleOf 0.01) is no case.
  const agreed = (k: bigint): boolean => integral || bounds.multipleOf === undefined || isAgreedMultiple(unit, k);
  const candidates = [
    ...boundCandidates(site, bounds, range, { value, agreed, unit }),
    ...formatCandidates(site, bounds, format, unit),
  ];
  const [first, last] = range;
  const base = first ?? (last !== undefined && last < 0n ? last : 0n);
  const next = last === undefined || base < last;
  if (bounds.multipleOf !== undefined && next && (!integral || unit.digits > 1n)) {
    const off = integral ? lossless({ digits: base * unit.digits + 1n, scale: 0 }) : lossless(half(unit, base));
    candidates.push(
      at(
        site,
        'multipleOf',
        false,
        `not a multiple of ${decimalText(bounds.multipleOf)}`,
        fc.constant(integral ? toBig(off) : off),
        false,
      ),
    );
  }
  if (integral && next && (types === undefined || !types.includes('number'))) {
    const fraction = lossless(half({ digits: unit.digits, scale: 0 }, base));
    candidates.push(
      at(site, 'type', false, 'not of type integer: a number with a fraction', fc.constant(fraction), false),
    );
  }
  return candidates;
}

function boundCandidates(
  site: Site,
  bounds: NumericBounds,
  [first, last]: [bigint | undefined, bigint | undefined],
  { value, agreed, unit }: { value: (k: bigint) => ExactJson; agreed: (k: bigint) => boolean; unit: Decimal },
): Candidate[] {
  const candidates: Candidate[] = [];
  const describe = (bound: Bound): string => `${bound.keyword} ${decimalText(bound.written ?? bound.value)}`;
  // Just outside a bound written to a double's precision is past every number that rounds to it.
  const [below, above] = [outsideBelow(bounds.lower, unit), outsideAbove(bounds.upper, unit)];
  /** `at minimum 5`, or `-98, the lowest value allowed by minimum -100` when multipleOf moves the edge. */
  const edge = (bound: Bound, k: bigint, near: string): string => {
    const text = shown(value(k));
    // Within a double's rounding of the bound, readings differ: say the edge is the inner end of it.
    if (bound.written !== undefined)
      return `${text}, ${near.replace(' allowed', ' surely allowed')} ${describe(bound)}`;
    return !bound.exclusive && text === decimalText(bound.value)
      ? `at ${describe(bound)}`
      : `${text}, ${near} ${describe(bound)}`;
  };
  const outside = (bound: Bound, k: bigint, side: string): string =>
    `${shown(value(k))}, just ${side} ${describe(bound)}`;
  if (bounds.lower !== undefined && first !== undefined) {
    const inside = edge(bounds.lower, first, 'the lowest value allowed by');
    if (agreed(first)) candidates.push(at(site, bounds.lower.keyword, true, inside, fc.constant(value(first))));
    candidates.push(
      at(
        site,
        bounds.lower.keyword,
        false,
        outside(bounds.lower, below ?? first - 1n, 'outside'),
        fc.constant(value(below ?? first - 1n)),
      ),
    );
  }
  if (bounds.upper !== undefined && last !== undefined) {
    const inside = edge(bounds.upper, last, 'the highest value allowed by');
    if (agreed(last)) candidates.push(at(site, bounds.upper.keyword, true, inside, fc.constant(value(last))));
    candidates.push(
      at(
        site,
        bounds.upper.keyword,
        false,
        outside(bounds.upper, above ?? last + 1n, 'outside'),
        fc.constant(value(above ?? last + 1n)),
      ),
    );
  }
  return candidates;
}

/** The count of `unit`s just below a lower bound's `outer` end, when it has one. */
function outsideBelow(bound: Bound | undefined, unit: Decimal): bigint | undefined {
  return bound?.outer === undefined ? undefined : quotientBounds(bound.outer, unit).ceil - 1n;
}

/** The count of `unit`s just above an upper bound's `outer` end, when it has one. */
function outsideAbove(bound: Bound | undefined, unit: Decimal): bigint | undefined {
  return bound?.outer === undefined ? undefined : quotientBounds(bound.outer, unit).floor + 1n;
}

/** The ends of int32/int64 where no bound keyword is stricter: inside, and one past (keyword `format`). */
function formatCandidates(site: Site, bounds: NumericBounds, format: string | undefined, unit: Decimal): Candidate[] {
  const range = format === undefined || !Object.hasOwn(FORMATS, format) ? undefined : FORMATS[format];
  if (range === undefined) return [];
  const step = unit.digits;
  const candidates: Candidate[] = [];
  if (bounds.upper === undefined) {
    const top = (range.max / step) * step;
    candidates.push(at(site, 'format', true, `at the ${String(format)} maximum ${top}`, fc.constant(top)));
    candidates.push(
      at(site, 'format', false, `one above the ${String(format)} maximum ${range.max}`, fc.constant(range.max + 1n)),
    );
  }
  if (bounds.lower === undefined) {
    const bottom = -((-range.min / step) * step);
    candidates.push(at(site, 'format', true, `at the ${String(format)} minimum ${bottom}`, fc.constant(bottom)));
    candidates.push(
      at(site, 'format', false, `one below the ${String(format)} minimum ${range.min}`, fc.constant(range.min - 1n)),
    );
  }
  return candidates;
}

/** One decimal place finer than any bound: the step just inside or outside an exclusive bound. */
function finestScale(bounds: NumericBounds): number {
  return Math.max(bounds.lower?.value.scale ?? 0, bounds.upper?.value.scale ?? 0) + 1;
}

function multiply(unit: Decimal, k: bigint): Decimal {
  return normalise({ digits: unit.digits * k, scale: unit.scale });
}

/** Halfway between the `k`-th and the next multiple of `unit`: never a multiple. */
function half(unit: Decimal, k: bigint): Decimal {
  return normalise({ digits: unit.digits * (2n * k + 1n) * 5n, scale: unit.scale + 1 });
}

/** A generated number's text: a bigint's digits or a lossless number's own text. */
function shown(value: ExactJson): string {
  if (typeof value === 'bigint') return value.toString();
  return value instanceof LosslessNumber ? value.value : JSON.stringify(value);
}

function lossless(value: Decimal): LosslessNumber {
  return new LosslessNumber(decimalText(value));
}

function toBig(value: LosslessNumber): bigint {
  return BigInt(value.value);
}
