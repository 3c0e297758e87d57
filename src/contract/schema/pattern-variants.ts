import fc from 'fast-check';
import type { Context } from './context.js';
import { at, type Candidate } from './leaf-variants.js';
import { PatternLanguage } from './pattern-strings.js';
import { patternArbitrary } from './strings.js';
import { codePointLength, textArbitrary } from './text.js';
import type { Site } from './variants.js';

/** Characters put in place of one of a match's, hoping to leave its class: the filter keeps those that do. */
const OUTSIDERS = ['!', ' ', 'a', 'Z', '0', '-', '_', '.', 'é', '🌱', '\u0000'];

/**
 * Characters other regular expression engines put in classes ECMA-262 keeps them out of, each with
 * its name: `.` takes a carriage return and U+2028 in Python; `\S` takes U+FEFF in Python and a
 * no-break space in Java and Go; `\d` takes other scripts' digits in Python's `str` patterns and .NET.
 */
const ENGINE_MISREADS: readonly (readonly [string, string])[] = [
  ['\r', 'a carriage return'],
  ['\u2028', 'U+2028 LINE SEPARATOR'],
  ['\ufeff', 'U+FEFF'],
  ['\u00a0', 'a no-break space'],
  ['\u0663', 'an Arabic-Indic digit'],
];

/**
 * Characters ECMA-262 puts in classes other engines keep them out of, each with its name: `.` takes
 * U+0085 NEXT LINE, which Java's refuses; `\s` takes a no-break space, which Java's and Go's (ASCII)
 * refuse, and U+FEFF, which Python's refuses too. A match with one of them is valid: a boundary.
 */
const ENGINE_NARROWINGS: readonly (readonly [string, string])[] = [
  ['\u0085', 'U+0085 NEXT LINE'],
  ['\u00a0', 'a no-break space'],
  ['\ufeff', 'U+FEFF'],
];

/**
 * Strings that break `pattern`: any text that does not match, and the near misses regex engines
 * get wrong. Python's `re.match`, Ruby, PCRE and Java let `$` match before a final newline, so a
 * match plus `"\n"` is taken there; trimming code takes a match with a space at either end; a
 * character outside its class shows a class read too widely, and one of {@link ENGINE_MISREADS} a
 * class read as another engine reads it (Python's `re` for a `\S`, `.` or `\d`), and one of {@link ENGINE_NARROWINGS}
 * a valid match another engine's class refuses (Java's `.`, Java's and Go's `\s`). JSON Schema's pattern (ECMA-262) is
 * an unanchored search, so for a pattern not anchored at both ends a match inside other text is
 * valid (a boundary), which a server using `fullmatch` or Java's `matches` refuses.
 */
export function patternCandidates(site: Site, context: Context, min: number, max: number | undefined): Candidate[] {
  const pattern = site.schema.pattern as string;
  const regex = safeRegex(pattern);
  if (regex === undefined) return [];
  const candidates: Candidate[] = [];
  const invalid = (label: string, leaf: fc.Arbitrary<string> | undefined, boundary = true): void => {
    if (leaf !== undefined) candidates.push(at(site, 'pattern', false, label, leaf, boundary));
  };
  invalid(
    `not matching pattern ${pattern}`,
    bounded(context, textArbitrary(min, max), (text) => !regex.test(text)),
    false,
  );
  const shorter = matchesWithin(pattern, regex, min - 1, max === undefined ? undefined : max - 1, context, site);
  invalid(
    `a match of pattern ${pattern} followed by a newline`,
    shorter?.map((text) => `${text}\n`),
  );
  invalid(
    `a match of pattern ${pattern} after a space`,
    shorter?.map((text) => ` ${text}`),
  );
  invalid(
    `a match of pattern ${pattern} before a space`,
    shorter?.map((text) => `${text} `),
  );
  const same = matchesWithin(pattern, regex, Math.max(min, 1), max, context, site);
  // Matches of at least one code point: there is a character to swap.
  const swapped = same
    ?.chain((text) => fc.tuple(fc.constant(text), fc.nat(codePointLength(text) - 1), fc.constantFrom(...OUTSIDERS)))
    .map(([text, index, outsider]) =>
      [...text].map((char, position) => (position === index ? outsider : char)).join(''),
    );
  invalid(`a match of pattern ${pattern} with one character out of its class`, swapped);
  const replacedBy = (character: string): fc.Arbitrary<string> | undefined =>
    same
      ?.chain((text) => fc.tuple(fc.constant(text), fc.nat(codePointLength(text) - 1)))
      .map(([text, index]) => [...text].map((char, position) => (position === index ? character : char)).join(''));
  // One candidate per character, so each is sent every run; a draw where ECMA-262 takes it too is filtered out.
  for (const [character, name] of ENGINE_MISREADS) {
    invalid(
      `a match of pattern ${pattern} with one character replaced by ${name} (other engines' classes take it)`,
      replacedBy(character),
    );
  }
  // The other way round, valid: a draw ECMA-262 refuses is filtered out.
  for (const [character, name] of ENGINE_NARROWINGS) {
    const leaf = replacedBy(character);
    const label = `a match of pattern ${pattern} with one character replaced by ${name} (ECMA-262 takes it; other engines' classes do not)`;
    if (leaf !== undefined) candidates.push(at(site, 'pattern', true, label, leaf));
  }
  const anchoredStart = pattern.startsWith('^');
  const anchoredEnd = /(^|[^\\])\$$/.test(pattern);
  if (!anchoredStart || !anchoredEnd) {
    const room = (anchoredStart ? 0 : 1) + (anchoredEnd ? 0 : 1);
    const inside = matchesWithin(pattern, regex, min - room, max === undefined ? undefined : max - room, context, site);
    if (inside !== undefined) {
      const leaf = inside.map((text) => `${anchoredStart ? '' : '#'}${text}${anchoredEnd ? '' : '#'}`);
      const label = `a match of pattern ${pattern} inside other text (the pattern is a search, not anchored)`;
      candidates.push(at(site, 'pattern', true, label, leaf));
    }
  }
  return candidates;
}

/** Matches of a pattern whose length is from `low` to `high` code points, or `undefined` when none can be made. */
export function matchesWithin(
  pattern: string,
  regex: RegExp,
  low: number,
  high: number | undefined,
  context: Context,
  site: Site,
): fc.Arbitrary<string> | undefined {
  const from = Math.max(low, 0);
  if (high !== undefined && high < from) return undefined;
  const language = PatternLanguage.of(pattern);
  if (language !== undefined) {
    const lengths = language.lengthsWithin(from, high ?? Math.max(from, language.shortest) + 16);
    return lengths.length === 0 ? undefined : language.ofLengths(lengths);
  }
  try {
    const matching = patternArbitrary(regex, high, site.place.schemaPointer, context);
    return bounded(context, matching, (text) => {
      const length = codePointLength(text);
      return length >= from && (high === undefined || length <= high);
    });
  } catch {
    return undefined;
  }
}

/** A filtered arbitrary when the filter passes often enough, else `undefined` (the candidate is left out). */
export function bounded(
  context: Context,
  arbitrary: fc.Arbitrary<string>,
  predicate: (text: string) => boolean,
): fc.Arbitrary<string> | undefined {
  try {
    return context.filtered(arbitrary, predicate, { keyword: '', schemaPointer: '', reason: '' }, 30, 2);
  } catch {
    return undefined;
  }
}

export function safeRegex(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}
