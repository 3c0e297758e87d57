import type { Schema } from './canonicalise.js';
import { integerRange, numericBounds } from './numbers.js';

/** Beyond this many values a domain counts as large: no uniqueItems length comes near it. */
const LARGE = 1000;

/**
 * How many distinct values a schema allows, when that is small (booleans, null, an enum, a short
 * integer range); `undefined` when large or unknown. `uniqueItems` cannot ask for more items.
 */
export function domainSize(schema: Schema): number | undefined {
  if (schema === false) return 0;
  if (schema === true || typeof schema.$ref === 'string' || schema.anyOf !== undefined || schema.oneOf !== undefined)
    return undefined;
  if (schema.const !== undefined) return 1;
  if (Array.isArray(schema.enum)) return schema.enum.length;
  if (schema.type === undefined) return undefined;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  let total = 0;
  for (const type of types) {
    const size = type === 'null' ? 1 : type === 'boolean' ? 2 : type === 'integer' ? integerCount(schema) : undefined;
    if (size === undefined) return undefined;
    total += size;
  }
  return total >= LARGE ? undefined : total;
}

function integerCount(schema: Record<string, unknown>): number | undefined {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const range = integerRange(numericBounds(schema), format);
  if (range === undefined) return 0;
  if (range.min === undefined || range.max === undefined) return undefined;
  const count = (range.max - range.min) / range.step + 1n;
  return count >= BigInt(LARGE) ? undefined : Number(count);
}
