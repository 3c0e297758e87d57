import fc from 'fast-check';
import { UnsupportedSchemaError } from './compiled-schema.js';
import type { Context, Place } from './context.js';
import { FORMAT_SHAPES, formatArbitrary } from './formats.js';
import { childPointer } from './keywords.js';
import { withoutLookarounds } from './lookarounds.js';
import { PatternLanguage } from './pattern-strings.js';
import { plainFirstMatching } from './plain-matching.js';
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
  const limited = min > 0 || max !== undefined;
  const format = typeof schema.format === 'string' ? formatArbitrary(schema.format) : undefined;
  // One schema object: `accepts` compiles a check once per object.
  const formatOnly = { format: schema.format };
  const formatted = (text: string): boolean => format === undefined || context.accepts(formatOnly, text);
  if (schema.pattern !== undefined) {
    const at = childPointer(origin, 'pattern');
    const regex = context.regex(schema.pattern, at);
    // Lookarounds are built from the pattern without them, then the pattern itself keeps what matches.
    const relaxed = withoutLookarounds(regex.source);
    const built = relaxed === undefined ? regex : new RegExp(relaxed, regex.flags);
    const language = limited ? PatternLanguage.of(built.source) : undefined;
    const matching =
      language === undefined
        ? patternArbitrary(built, max, at, context)
        : constructed(language, min, max, built, { keyword: 'pattern', at, context });
    const matches = (text: string): boolean => relaxed === undefined || regex.test(text);
    return context.filtered(matching, (text) => fitsLengths(text, min, max) && formatted(text) && matches(text), {
      keyword: 'pattern',
      schemaPointer: at,
      reason:
        relaxed === undefined
          ? 'strings matching the pattern rarely meet the length limits and format, so valid values cannot be generated'
          : 'strings matching the pattern without its lookarounds rarely match it whole within the length limits and format, so valid values cannot be generated',
    });
  }
  if (format !== undefined && !limited) return format;
  if (format !== undefined) {
    const at = childPointer(origin, 'format');
    const name = String(schema.format);
    const shape = Object.hasOwn(FORMAT_SHAPES, name) ? FORMAT_SHAPES[name] : undefined;
    const language = limited && shape !== undefined ? PatternLanguage.of(shape.pattern) : undefined;
    const source =
      language === undefined || shape === undefined
        ? format
        : constructed(
            language,
            min,
            Math.min(max ?? Infinity, shape.longest ?? Infinity),
            new RegExp(shape.pattern, 'u'),
            {
              keyword: 'format',
              at,
              context,
            },
          );
    return context.filtered(source, (text) => fitsLengths(text, min, max) && formatted(text), {
      keyword: 'format',
      schemaPointer: at,
      reason: `strings of format ${name} rarely meet the length limits, so valid values cannot be generated`,
    });
  }
  return textArbitrary(min, max);
}

function fitsLengths(text: string, min: number, max: number | undefined): boolean {
  const length = codePointLength(text);
  return length >= min && (max === undefined || length <= max);
}

/** Beyond the shortest allowed length, how many more lengths an unlimited string may take. */
const OPEN_LENGTHS = 64;

/** Matches of every length the limits and the pattern allow; refuses limits no match meets. */
function constructed(
  language: PatternLanguage,
  min: number,
  max: number | undefined,
  regex: RegExp,
  where: { keyword: string; at: string; context: Context },
): fc.Arbitrary<string> {
  const top = max === undefined || max === Infinity ? Math.max(min, language.shortest) + OPEN_LENGTHS : max;
  const lengths = language.lengthsWithin(min, top);
  if (lengths.length === 0) {
    throw where.context.refuse(
      where.keyword,
      where.at,
      `no string of ${min} to ${max ?? 'any number of'} code points matches ${regex.source}`,
    );
  }
  return language.ofLengths(lengths);
}

/**
 * Strings matching a pattern (fast-check's `stringMatching`, shrinking first to plain letters where the pattern allows
 * them); refuses what it cannot generate from.
 */
export function patternArbitrary(
  regex: RegExp,
  maxLength: number | undefined,
  schemaPointer: string,
  context: Context,
): fc.Arbitrary<string> {
  try {
    const relaxed = withoutLookarounds(regex.source);
    // maxLength counts UTF-16 units there, never fewer than code points: a safe upper limit.
    const limit = maxLength === undefined ? {} : { maxLength: Math.max(maxLength, 0) * 2 };
    if (relaxed === undefined) return plainFirstMatching(fc.stringMatching(regex, limit), regex);
    const matching = fc.stringMatching(new RegExp(relaxed, regex.flags), limit);
    const whole = context.filtered(matching, (text) => regex.test(text), {
      keyword: 'pattern',
      schemaPointer,
      reason:
        'strings matching the pattern without its lookarounds rarely match it whole, so valid values cannot be generated',
    });
    return plainFirstMatching(whole, regex);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) throw error;
    throw context.refuse('pattern', schemaPointer, `cannot generate strings for this pattern: ${ungenerable(error)}`);
  }
}

/** fast-check's refusal of a pattern part, said as what the document wrote and how to write it instead. */
function ungenerable(error: unknown): string {
  const message = (error as Error).message;
  if (/Backreference/i.test(message)) {
    return 'it repeats a group by back-reference (\\1, \\k<name>), which values cannot be built from: write the repeated part out, or leave the check to the server';
  }
  const meta = /Meta character (\\[bB]) not implemented/.exec(message)?.[1];
  if (meta !== undefined) {
    return `it has a word boundary (${meta}), which values cannot be built from: anchor with ^ and $, or spell out what may stand beside it`;
  }
  return message;
}
