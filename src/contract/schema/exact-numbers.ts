import type { ErrorObject, KeywordDefinition } from 'ajv';
import { numberText } from '../exact-json.js';
import { compareDecimal, decimalText, isMultiple, parseDecimal, toDecimal, type Decimal } from './decimal.js';

/**
 * Numeric bounds judged on the number's JSON text: ajv compares doubles, so `maximum:
 * 9007199254740993` would accept 9007199254740994 and `multipleOf: 0.01` refuse 0.07 (a float error).
 */
export const EXACT_NUMBER_KEYWORD = 'x-plantstore-exact-number';

const NUMERIC = ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf'] as const;
/** Keywords whose values are data, not schemas: never rewritten. */
const DATA = new Set(['enum', 'const', 'default', 'example', 'examples']);

type Limits = Partial<Record<(typeof NUMERIC)[number], string>>;

/** A copy of a schema whose numeric bounds are moved into the exact keyword. */
export function withExactNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withExactNumbers);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  const limits: Limits = {};
  for (const [key, value] of Object.entries(schema)) {
    const decimal = (NUMERIC as readonly string[]).includes(key) ? toDecimal(value) : undefined;
    if (decimal !== undefined) limits[key as keyof Limits] = decimalText(decimal);
    else define(copy, key, DATA.has(key) ? value : withExactNumbers(value));
  }
  if (Object.keys(limits).length > 0) copy[EXACT_NUMBER_KEYWORD] = limits;
  return copy;
}

/** defineProperty: a property named `__proto__` stays a property. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const COMPARISONS: Record<string, { holds: (order: number) => boolean; words: string }> = {
  minimum: { holds: (order) => order >= 0, words: '>=' },
  exclusiveMinimum: { holds: (order) => order > 0, words: '>' },
  maximum: { holds: (order) => order <= 0, words: '<=' },
  exclusiveMaximum: { holds: (order) => order < 0, words: '<' },
};

/** The first limit a number text breaks, as an ajv error, or `undefined`. */
function breach(text: string, limits: Limits): Partial<ErrorObject> | undefined {
  const value = parseDecimal(text);
  for (const [keyword, limitText] of Object.entries(limits)) {
    const limit = parseDecimal(limitText) as Decimal;
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

/** The ajv keyword that applies {@link withExactNumbers}' limits. */
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
      _parentSchema?: unknown,
      context?: { parentData: unknown; parentDataProperty: string | number },
    ): boolean {
      const parent = context?.parentData;
      const text =
        parent !== null && typeof parent === 'object' && context
          ? (numberText(parent, context.parentDataProperty) ?? String(data))
          : String(data);
      const error = breach(text, limits);
      if (error === undefined) return true;
      (exactNumber as { errors?: Partial<ErrorObject>[] }).errors = [error];
      return false;
    },
  };
}
