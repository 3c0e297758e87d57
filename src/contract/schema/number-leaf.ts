import type fc from 'fast-check';
import type { ExactJson } from './compiled-schema.js';
import type { Context, Place } from './context.js';
import { childPointer } from './keywords.js';
import {
  FLOAT_DIGITS,
  integerArbitrary,
  integerRange,
  numberArbitrary,
  numericBounds,
  type IntegerRange,
} from './numbers.js';

type Node = Record<string, unknown>;

const INTEGER_FORMATS = new Set(['int32', 'int64']);

/** The integers a schema allows, or a refusal naming the bound that leaves none. */
export function integerRangeOf(schema: Node, place: Place, context: Context): IntegerRange {
  const bounds = numericBounds(schema);
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const range = integerRange(bounds, format);
  if (range === undefined) {
    const keyword = bounds.upper?.keyword ?? bounds.lower?.keyword ?? 'multipleOf';
    throw context.refuse(
      keyword,
      childPointer(context.originOf(schema, place.schemaPointer), keyword),
      'no integer satisfies the bounds',
    );
  }
  return range;
}

/** Integer leaves: bigints over the whole range, or what the caller's `integer` hook gives. */
export function integerLeaf(schema: Node, place: Place, context: Context): fc.Arbitrary<ExactJson> {
  const range = integerRangeOf(schema, place, context);
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const hooked = context.options.integer?.({
    pointer: place.pointer,
    min: range.min,
    max: range.max,
    multipleOf: range.step === 1n ? undefined : range.step,
    format,
  });
  return hooked ?? integerArbitrary(range);
}

/** Number leaves: exact decimals; an `int32`/`int64` format makes them integers (as `check` judges). */
export function numberLeaf(schema: Node, place: Place, context: Context): fc.Arbitrary<ExactJson> {
  if (typeof schema.format === 'string' && INTEGER_FORMATS.has(schema.format))
    return integerLeaf(schema, place, context);
  const bounds = numericBounds(schema);
  const arbitrary = schema.format === 'float' ? numberArbitrary(bounds, FLOAT_DIGITS) : numberArbitrary(bounds);
  if (arbitrary === undefined) {
    const keyword = bounds.upper?.keyword ?? bounds.lower?.keyword ?? 'multipleOf';
    throw context.refuse(
      keyword,
      childPointer(context.originOf(schema, place.schemaPointer), keyword),
      'no number satisfies the bounds',
    );
  }
  return arbitrary;
}
