import type fc from 'fast-check';
import type { SchemaCheck } from '../schemas.js';
import type { ExactJson, ValueVariant } from './compiled-schema.js';
import type { Context } from './context.js';

/** The boundary and invalid variants of a schema (first version: none yet). */
export function variantsOf(
  _root: Record<string, unknown>,
  _valid: fc.Arbitrary<ExactJson>,
  _context: Context,
  _check: SchemaCheck,
): { boundaries: ValueVariant[]; invalid: ValueVariant[] } {
  return { boundaries: [], invalid: [] };
}
