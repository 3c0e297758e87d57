import { isLosslessNumber } from 'lossless-json';

/**
 * Exact decimal arithmetic for schema bounds and generated numbers: `digits / 10^scale`. Every JSON
 * number is a finite decimal, so bounds, steps and values compare and step exactly, beyond 2^53 too.
 */
export interface Decimal {
  readonly digits: bigint;
  /** Number of decimal places, never negative. */
  readonly scale: number;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Exponents beyond this are refused: a bound of 1e400000 would make bigint arithmetic explode. */
const MAX_EXPONENT = 4000;

/** The exact decimal a JSON number text denotes, or `undefined` when it is not a number text. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  let digits = BigInt(whole + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return normalise({ digits: sign === '-' ? -digits : digits, scale });
}

/** The decimal of a schema's number (a JS number, a bigint, a lossless number or number text). */
export function toDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'bigint') return { digits: value, scale: 0 };
  if (typeof value === 'number') return Number.isFinite(value) ? parseDecimal(String(value)) : undefined;
  if (isLosslessNumber(value)) return parseDecimal(value.value);
  if (typeof value === 'string') return parseDecimal(value);
  return undefined;
}

/** Drops trailing zeros of the fraction, so equal values have equal representations. */
export function normalise(value: Decimal): Decimal {
  let { digits, scale } = value;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  return { digits, scale };
}

/** `value` as an integer count of `10^-scale` units (exact when `scale` is at least its own). */
export function atScale(value: Decimal, scale: number): bigint {
  if (scale >= value.scale) return value.digits * 10n ** BigInt(scale - value.scale);
  return floorDiv(value.digits, 10n ** BigInt(value.scale - scale));
}

/** Negative, zero or positive as `a` is below, equal to or above `b`. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const difference = atScale(a, scale) - atScale(b, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return normalise({ digits: atScale(a, scale) + atScale(b, scale), scale });
}

export function multiplyDecimal(a: Decimal, factor: bigint): Decimal {
  return normalise({ digits: a.digits * factor, scale: a.scale });
}

/** The decimal's text as JSON writes it: `-12.5`, `3`, `0.001`. */
export function decimalText(value: Decimal): string {
  const { digits, scale } = normalise(value);
  const negative = digits < 0n;
  const magnitude = (negative ? -digits : digits).toString();
  if (scale === 0) return (negative ? '-' : '') + magnitude;
  const padded = magnitude.padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

export function isInteger(value: Decimal): boolean {
  return normalise(value).scale === 0;
}

export function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? quotient - 1n : quotient;
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** `value / step` rounded down and up, as bigints (`step` positive). */
export function quotientBounds(value: Decimal, step: Decimal): { floor: bigint; ceil: bigint } {
  const scale = Math.max(value.scale, step.scale);
  const a = atScale(value, scale);
  const b = atScale(step, scale);
  return { floor: floorDiv(a, b), ceil: ceilDiv(a, b) };
}

/** True when `value` is a whole multiple of `step`. */
export function isMultiple(value: Decimal, step: Decimal): boolean {
  const scale = Math.max(value.scale, step.scale);
  return atScale(value, scale) % atScale(step, scale) === 0n;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** The smallest positive integer step whose multiples are exactly the integers that are multiples of `step`. */
export function integerStep(step: Decimal): bigint {
  const scaled = normalise(step);
  const power = 10n ** BigInt(scaled.scale);
  return scaled.digits / gcd(scaled.digits, power);
}
