import fc from 'fast-check';
import type { Context, Place } from './context.js';
import { formatArbitrary } from './formats.js';
import { childPointer } from './keywords.js';
import { codePointLength, textArbitrary } from './text.js';

type Node = Record<string, unknown>;

/** The length limits of a string schema, in code points; refuses limits no string meets. */
export function lengthLimits(schema: Node, place: Place, context: Context): { min: number; max: number | undefined } {
  const min = typeof schema.minLength === 'number' ? Math.max(0, Math.ceil(schema.minLength)) : 0;
  const max = typeof schema.maxLength === 'number' ? Math.floor(schema.maxLength) : undefined;
  if (max !== undefined && max < min) {
    throw context.refuse(
      'maxLength',
      childPointer(context.originOf(schema, place.schemaPointer), 'maxLength'),
      `maxLength ${max} is below minLength ${min}: no string is valid`,
    );
  }
  return { min, max };
}

/** Valid strings: lengths by construction, `pattern` and `format` by their own generators. */
export function stringArbitrary(schema: Node, place: Place, context: Context): fc.Arbitrary<string> {
  const { min, max } = lengthLimits(schema, place, context);
  const origin = context.originOf(schema, place.schemaPointer);
  const fits = (text: string): boolean => {
    const length = codePointLength(text);
    return length >= min && (max === undefined || length <= max);
  };
  const format = typeof schema.format === 'string' ? formatArbitrary(schema.format) : undefined;
  if (schema.pattern !== undefined) {
    const regex = context.regex(schema.pattern, childPointer(origin, 'pattern'));
    const matching = patternArbitrary(regex, max, childPointer(origin, 'pattern'), context);
    const formatted =
      format === undefined
        ? fits
        : (text: string): boolean => fits(text) && context.accepts({ format: schema.format }, text);
    return context.filtered(matching, formatted, {
      keyword: 'pattern',
      schemaPointer: childPointer(origin, 'pattern'),
      reason:
        'strings matching the pattern rarely meet the length limits and format, so valid values cannot be generated',
    });
  }
  if (format !== undefined) {
    return context.filtered(format, fits, {
      keyword: 'format',
      schemaPointer: childPointer(origin, 'format'),
      reason: `strings of format ${String(schema.format)} rarely meet the length limits, so valid values cannot be generated`,
    });
  }
  return textArbitrary(min, max);
}

/** Strings matching a pattern (fast-check's `stringMatching`); refuses what it cannot generate from. */
export function patternArbitrary(
  regex: RegExp,
  maxLength: number | undefined,
  schemaPointer: string,
  context: Context,
): fc.Arbitrary<string> {
  try {
    // maxLength counts UTF-16 units there, never fewer than code points: a safe upper limit.
    return fc.stringMatching(regex, maxLength === undefined ? {} : { maxLength: Math.max(maxLength, 0) * 2 });
  } catch (error) {
    throw context.refuse(
      'pattern',
      schemaPointer,
      `cannot generate strings for this pattern: ${(error as Error).message}`,
    );
  }
}
