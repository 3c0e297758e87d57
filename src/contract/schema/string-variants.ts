import fc from 'fast-check';
import type { Context } from './context.js';
import { FORMAT_SHAPES, formatArbitrary, INVALID_FORMAT_TEXT, LENIENT_FORMAT_TEXT } from './formats.js';
import { PatternLanguage } from './pattern-strings.js';
import { at, type Candidate } from './leaf-variants.js';
import { bounded, matchesWithin, patternCandidates, safeRegex } from './pattern-variants.js';
import { asciiString, codePointLength, codePointString } from './text.js';
import type { Site } from './variants.js';

/** The edges of `minLength`/`maxLength`, and strings that break `pattern` or `format`. */
export function stringCandidates(site: Site, context: Context): Candidate[] {
  const { schema } = site;
  const candidates: Candidate[] = [];
  const min = typeof schema.minLength === 'number' ? Math.ceil(schema.minLength) : 0;
  const max = typeof schema.maxLength === 'number' ? Math.floor(schema.maxLength) : undefined;
  const add = (keyword: string, valid: boolean, label: string, length: number): void => {
    const leaf = exactLength(schema, { length, valid }, context, site);
    if (leaf !== undefined) candidates.push(at(site, keyword, valid, label, leaf));
  };
  if (max !== undefined) {
    add('maxLength', true, `exactly maxLength ${max} code points long`, max);
    add('maxLength', false, `one code point longer than maxLength ${max}`, max + 1);
  }
  if (min > 0) {
    add('minLength', true, `exactly minLength ${min} code points long`, min);
    add('minLength', false, `one code point shorter than minLength ${min}`, min - 1);
  }
  candidates.push(...astralLengthCandidates(site, min, max));
  if (typeof schema.pattern === 'string') candidates.push(...patternCandidates(site, context, min, max));
  const invalidFormat =
    typeof schema.format === 'string' && Object.hasOwn(INVALID_FORMAT_TEXT, schema.format)
      ? INVALID_FORMAT_TEXT[schema.format]
      : undefined;
  // Each text every run: a date checked by its shape only takes 2024-02-30, and one of four drawn per run sent
  // it at 40% of seeds (HY7's yardstick).
  for (const text of invalidFormat ?? []) {
    candidates.push(at(site, 'format', false, `not a valid ${String(schema.format)}`, fc.constant(text), false));
  }
  candidates.push(...lenientFormatCandidates(site));
  return candidates;
}

/** An astral character: one code point, two UTF-16 units. */
const ASTRAL = '\u{1F331}';

/**
 * The length edges again, each with an astral character among the code points: every run, since a server
 * counting UTF-16 units (Java's `String.length()` under Hibernate Validator's `@Size`, JavaScript's `.length`)
 * refuses the longest valid string and takes one too short only then; drawn at random, a seed in three missed
 * it. Plain strings only: a pattern or format decides its own characters.
 */
function astralLengthCandidates(site: Site, min: number, max: number | undefined): Candidate[] {
  const { schema } = site;
  if (typeof schema.pattern === 'string' || typeof schema.format === 'string') return [];
  const candidates: Candidate[] = [];
  if (max !== undefined && max >= 1) {
    const label = `exactly maxLength ${max} code points long, one of them astral (${max + 1} UTF-16 units)`;
    candidates.push(at(site, 'maxLength', true, label, withAstral(max)));
  }
  if (min >= 2) {
    const label = `one code point shorter than minLength ${min}, one of them astral (${min} UTF-16 units)`;
    candidates.push(at(site, 'minLength', false, label, withAstral(min - 1)));
  }
  return candidates;
}

/** Strings of `length` code points: printable ASCII and one astral character somewhere among them. */
function withAstral(length: number): fc.Arbitrary<string> {
  const rest = asciiString({ minLength: length - 1, maxLength: length - 1 });
  return fc
    .tuple(rest, fc.nat(length - 1))
    .map(([ascii, index]) => ascii.slice(0, index) + ASTRAL + ascii.slice(index));
}

/** The strings a format refuses and another language's parser of it reads (see {@link LENIENT_FORMAT_TEXT}). */
function lenientFormatCandidates(site: Site): Candidate[] {
  const format = site.schema.format;
  if (typeof format !== 'string' || !Object.hasOwn(LENIENT_FORMAT_TEXT, format)) return [];
  return (LENIENT_FORMAT_TEXT[format] ?? []).map(({ text, reader }) =>
    at(site, 'format', false, `not a valid ${format}, though read as one by ${reader}`, fc.constant(text)),
  );
}

/**
 * Strings of exactly `length` code points, matching the schema's pattern or format when it has one;
 * `undefined` when no such string exists (`^[A-Z]{3}$` has no match of 4) or none can be made.
 */
function exactLength(
  schema: Record<string, unknown>,
  { length, valid }: { length: number; valid: boolean },
  context: Context,
  site: Site,
): fc.Arbitrary<string> | undefined {
  if (length < 0) return undefined;
  if (typeof schema.pattern === 'string') return matchingOfLength(schema.pattern, length, context, site);
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  const shape = format !== undefined && Object.hasOwn(FORMAT_SHAPES, format) ? FORMAT_SHAPES[format] : undefined;
  if (shape !== undefined) {
    const language = PatternLanguage.of(valid ? shape.pattern : (shape.outside ?? shape.pattern));
    if (length > (shape.longest ?? Infinity) || language === undefined) return undefined;
    return ofLength(language, length);
  }
  const formatted = format === undefined ? undefined : formatArbitrary(format);
  if (formatted !== undefined) return bounded(context, formatted, (text) => codePointLength(text) === length);
  return fc.oneof(
    codePointString({ minLength: length, maxLength: length }),
    asciiString({ minLength: length, maxLength: length }),
  );
}

/** Matches of a pattern of one length: built when the pattern's shape allows, else a bounded search. */
function matchingOfLength(
  pattern: string,
  length: number,
  context: Context,
  site: Site,
): fc.Arbitrary<string> | undefined {
  const regex = safeRegex(pattern);
  return regex === undefined ? undefined : matchesWithin(pattern, regex, length, length, context, site);
}

function ofLength(language: PatternLanguage, length: number): fc.Arbitrary<string> | undefined {
  const lengths = language.lengthsWithin(length, length);
  return lengths.length === 0 ? undefined : language.ofLengths(lengths);
}
