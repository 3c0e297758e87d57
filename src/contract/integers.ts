/**
 * Exact integer arithmetic on JSON number text. JavaScript numbers lose precision above 2^53, so
 * every integer judgement in this project is made on the digits as they were written.
 */

/** An integer format of the contract and its inclusive bounds. */
export interface IntegerFormat {
  readonly name: 'int32' | 'int64';
  readonly min: bigint;
  readonly max: bigint;
}

export const INT32: IntegerFormat = { name: 'int32', min: -(2n ** 31n), max: 2n ** 31n - 1n };
export const INT64: IntegerFormat = { name: 'int64', min: -(2n ** 63n), max: 2n ** 63n - 1n };

const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** More digits than this cannot be an int64, whatever the sign. */
const MAX_INT64_DIGITS = 19;

interface DecimalParts {
  readonly negative: boolean;
  /** Significant digits without leading or trailing zeros; empty for zero. */
  readonly digits: string;
  /** Power of ten to multiply `digits` by; may be ±Infinity for exponents of hundreds of digits. */
  readonly exponent: number;
}

function decompose(text: string): DecimalParts | undefined {
  const match = JSON_NUMBER.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const padded = (whole + fraction).replace(/^0+/, '');
  const digits = padded.replace(/0+$/, '');
  const exponent = Number(exponentText) - fraction.length + (padded.length - digits.length);
  return { negative: sign === '-', digits, exponent };
}

/**
 * The exact integer value of a JSON number text, or `undefined` when the text is not a whole number
 * (`1.5`) or is too large for an int64 (`1e400`, `92233720368547758070`). `1.0`, `1e2` and `-0` are
 * integers, as JSON Schema says.
 */
export function exactInteger(text: string): bigint | undefined {
  const parts = decompose(text);
  if (!parts) return undefined;
  if (parts.digits === '') return 0n;
  if (parts.exponent < 0 || parts.digits.length + parts.exponent > MAX_INT64_DIGITS) return undefined;
  const magnitude = BigInt(parts.digits + '0'.repeat(parts.exponent));
  return parts.negative ? -magnitude : magnitude;
}

/** Why a JSON number text is not a valid value of `format`, or `undefined` when it is. */
export function integerProblem(text: string, format: IntegerFormat): string | undefined {
  const parts = decompose(text);
  if (!parts) return `must be a JSON number, got ${preview(text)}`;
  if (parts.digits !== '' && parts.exponent < 0) return `must be a whole number, got ${preview(text)}`;
  const value = exactInteger(text);
  if (value === undefined || value < format.min || value > format.max) {
    return `must be an ${format.name} integer from ${format.min} to ${format.max}, got ${preview(text)}`;
  }
  return undefined;
}

/** Long numbers are shown by their ends, so a message stays one readable line. */
export function preview(text: string, max = 60): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 5) / 2);
  return `${text.slice(0, half)} … ${text.slice(-half)} (${text.length} characters)`;
}
