import type { ErrorObject, KeywordDefinition } from 'ajv';
import { isLosslessNumber } from 'lossless-json';
import { numberText } from '../exact-json.js';
import { INT32, INT64, integerProblem, type IntegerFormat } from '../integers.js';
import { mapLeaves, setOwnMember } from './json.js';
import { NUMBER_KEYWORDS } from './keywords.js';
import { compareDecimal, decimalText, isMultiple, parseDecimal, toDecimal, type Decimal } from './decimal.js';

/**
 * The one keyword that judges numbers on their JSON text, not on a double: int32/int64 formats
 * (ajv-formats accepts 2^63 and 1.0e0 alike) and the numeric bounds (ajv would take 9007199254740994
 * under `maximum: 9007199254740993` and refuse 0.07 under `multipleOf: 0.01`, a float error).
 */
export const EXACT_NUMBER_KEYWORD = 'x-plantstore-exact-number';

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA = new Set(['enum', 'const', 'default', 'example', 'examples']);
/** The integer formats judged exactly. */
export const EXACT_FORMATS: Readonly<Record<string, IntegerFormat>> = { int32: INT32, int64: INT64 };

type Limits = Partial<Record<(typeof NUMBER_KEYWORDS)[number] | 'format', string>> & {
  /** An `enum` or `const` listing an integer a double cannot hold: the number texts listed (`listedBy` the keyword). */
  listed?: readonly string[];
  listedBy?: 'enum' | 'const';
};

/** A copy of a schema whose numeric bounds move into the exact keyword, and whose int32/int64 formats join them. */
export function withExactNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withExactNumbers);
  if (schema === null || typeof schema !== 'object' || isLosslessNumber(schema)) return schema;
  const copy: Record<string, unknown> = {};
  const limits: Limits = {};
  for (const [key, value] of Object.entries(schema)) {
    const decimal = (NUMBER_KEYWORDS as readonly string[]).includes(key) ? toDecimal(value) : undefined;
    if (decimal !== undefined) limits[key as (typeof NUMBER_KEYWORDS)[number]] = decimalText(decimal);
    else setOwnMember(copy, key, DATA.has(key) ? value : withExactNumbers(value));
  }
  for (const key of ['enum', 'const'] as const) {
    const listed = key === 'const' ? [copy.const] : Array.isArray(copy.enum) ? (copy.enum as unknown[]) : [];
    if (!(key in copy) || !listed.some(isExactOnly)) continue;
    // ajv cannot compile a bigint (nor compare a lossless number): it compares doubles, the keyword the texts.
    setOwnMember(copy, key, key === 'const' ? asDoubles(copy.const) : listed.map(asDoubles));
    limits.listed = listed.flatMap((item) => {
      const decimal = typeof item === 'string' ? undefined : toDecimal(item);
      return decimal === undefined ? [] : [decimalText(decimal)];
    });
    limits.listedBy = key;
  }
  if (typeof copy.format === 'string' && Object.hasOwn(EXACT_FORMATS, copy.format)) limits.format = copy.format;
  if (Object.keys(limits).length > 0) copy[EXACT_NUMBER_KEYWORD] = limits;
  return copy;
}

/** A number a double cannot carry: a `bigint` or a lossless number. */
function isExactOnly(value: unknown): boolean {
  return typeof value === 'bigint' || isLosslessNumber(value);
}

/** A listed value with its exact numbers as doubles, at any depth (what ajv's `enum` and `const` compare). */
function asDoubles(value: unknown): unknown {
  return mapLeaves(value, (leaf) => (isExactOnly(leaf) ? Number(String(leaf)) : leaf));
}

const COMPARISONS: Record<string, { holds: (order: number) => boolean; words: string }> = {
  minimum: { holds: (order) => order >= 0, words: '>=' },
  exclusiveMinimum: { holds: (order) => order > 0, words: '>' },
  maximum: { holds: (order) => order <= 0, words: '<=' },
  exclusiveMaximum: { holds: (order) => order < 0, words: '<' },
};

/** Integer texts of at most 9 digits (every one an int32) or 18 (an int64): nothing to complain about. */
const SURELY_IN_RANGE: Readonly<Record<string, RegExp>> = {
  int32: /^-?(?:0|[1-9]\d{0,8})$/,
  int64: /^-?(?:0|[1-9]\d{0,17})$/,
};

/** A numeric limit of the keyword, its text parsed once. */
interface Bound {
  readonly keyword: string;
  readonly text: string;
  readonly limit: Decimal;
}

const boundsByLimits = new WeakMap<Limits, readonly Bound[]>();

/** The limits other than the format, in their order, parsed once per schema. */
function boundsOf(limits: Limits): readonly Bound[] {
  let bounds = boundsByLimits.get(limits);
  if (bounds === undefined) {
    bounds = Object.entries(limits)
      .filter((entry): entry is [string, string] => (NUMBER_KEYWORDS as readonly string[]).includes(entry[0]))
      .map(([keyword, text]) => ({ keyword, text, limit: parseDecimal(text) as Decimal }));
    boundsByLimits.set(limits, bounds);
  }
  return bounds;
}

/**
 * An integer format's complaint (`params.integer`), which makes any other about the same number
 * redundant: a fraction breaks `type` under `type: integer`, else the format.
 */
function integerBreach(text: string, format: string, parentSchema: unknown): Partial<ErrorObject> | undefined {
  if (SURELY_IN_RANGE[format]?.test(text) === true) return undefined;
  const problem = integerProblem(text, EXACT_FORMATS[format] ?? INT64);
  if (problem === undefined) return undefined;
  const types = (parentSchema as { type?: unknown } | undefined)?.type;
  const integral =
    types === 'integer' || (Array.isArray(types) && types.includes('integer') && !types.includes('number'));
  const broken = integral && problem.includes('whole number') ? 'type' : 'format';
  return { keyword: EXACT_NUMBER_KEYWORD, message: problem, params: { keyword: broken, integer: true, format } };
}

/** The first limit a number text breaks, as an ajv error, or `undefined`. */
function breach(text: string, limits: Limits, parentSchema: unknown): Partial<ErrorObject> | undefined {
  if (limits.format !== undefined) {
    const error = integerBreach(text, limits.format, parentSchema);
    if (error !== undefined) return error;
  }
  const value = parseDecimal(text);
  if (limits.listed !== undefined && !limits.listed.some((listed) => sameNumber(value, text, listed))) {
    const allowedValues = limits.listed.join(', ');
    const message =
      limits.listedBy === 'const' ? `must be equal to constant` : 'must be equal to one of the allowed values';
    return { keyword: EXACT_NUMBER_KEYWORD, message, params: { keyword: limits.listedBy, allowedValues } };
  }
  const bounds = boundsOf(limits);
  if (bounds.length === 0) return undefined;
  for (const { keyword, text: limitText, limit } of bounds) {
    if (keyword === 'multipleOf') {
      if (value !== undefined && limit.digits !== 0n && isMultiple(value, limit)) continue;
      if (value === undefined && Number.isInteger(Number(text)) && Number.isInteger(Number(limitText))) continue;
      return {
        keyword: EXACT_NUMBER_KEYWORD,
        message: `must be multiple of ${limitText}`,
        params: { keyword, limit: limitText },
      };
    }
    const comparison = COMPARISONS[keyword];
    if (comparison === undefined) continue;
    // A number text beyond the exponents decimals handle (1e400000) is compared by its sign and size.
    const order = value === undefined ? Math.sign(Number(text) - Number(limitText)) : compareDecimal(value, limit);
    if (!comparison.holds(order)) {
      return {
        keyword: EXACT_NUMBER_KEYWORD,
        message: `must be ${comparison.words} ${limitText}`,
        params: { keyword, limit: limitText },
      };
    }
  }
  return undefined;
}

/** Whether a number text is the listed number (by value: `5.0` is `5`). */
function sameNumber(value: Decimal | undefined, text: string, listed: string): boolean {
  const limit = parseDecimal(listed);
  return value === undefined || limit === undefined ? text === listed : compareDecimal(value, limit) === 0;
}

/** The ajv keyword that applies {@link withExactNumbers}' formats and limits. */
export function exactNumberKeyword(): KeywordDefinition {
  return {
    keyword: EXACT_NUMBER_KEYWORD,
    type: 'number',
    schemaType: 'object',
    errors: true,
    validate: function exactNumber(
      this: unknown,
      limits: Limits,
      data: number,
      parentSchema?: unknown,
      context?: { parentData: unknown; parentDataProperty: string | number },
    ): boolean {
      const parent = context?.parentData;
      const text =
        parent !== null && typeof parent === 'object' && context
          ? (numberText(parent, context.parentDataProperty) ?? String(data))
          : String(data);
      const error = breach(text, limits, parentSchema);
      if (error === undefined) return true;
      (exactNumber as { errors?: Partial<ErrorObject>[] }).errors = [error];
      return false;
    },
  };
}
