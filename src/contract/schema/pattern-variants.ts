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
const ENGINE_MISREADS: readonly (readonly [string, string, Widening])[] = [
  ['\r', 'a carriage return', { dot: true }],
  ['\u2028', 'U+2028 LINE SEPARATOR', { dot: true }],
  ['\ufeff', 'U+FEFF', { escapes: 'S' }],
  ['\u00a0', 'a no-break space', { escapes: 'S' }],
  ['\u0663', 'an Arabic-Indic digit', { escapes: 'dw' }],
];

/** How another engine reads a pattern wider than ECMA-262: its `.` takes all but `\n`, or these escapes take the character too. */
interface Widening {
  readonly dot?: true;
  readonly escapes?: string;
}

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
  const replacedBy = (character: string, taking: RegExp | undefined): fc.Arbitrary<string> | undefined =>
    same
      ?.chain((text) => fc.tuple(fc.constant(text), fc.nat(codePointLength(text) - 1)))
      .map(([text, index]) => {
        const chars = [...text];
        const position = positionTaking(chars, index, character, taking) ?? index;
        return chars.map((char, at) => (at === position ? character : char)).join('');
      });
  // One candidate per character, so each is sent every run; a draw where ECMA-262 takes it too is filtered out.
  // The character goes where the other engine's reading still matches (a \d position of ^[A-Z]{2}-\d{4}$), else
  // anywhere: a position drawn at random missed the defect at one seed in three.
  for (const [character, name, widening] of ENGINE_MISREADS) {
    invalid(
      `a match of pattern ${pattern} with one character replaced by ${name} (other engines' classes take it)`,
      replacedBy(character, widenedRegex(pattern, widening, character)),
    );
  }
  // The other way round, valid, where ECMA-262 takes it: a draw it refuses is filtered out.
  for (const [character, name] of ENGINE_NARROWINGS) {
    const leaf = replacedBy(character, regex);
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

/** Positions tried for a replacement: a long match is not scanned whole for each draw. */
const POSITIONS_TRIED = 64;

/** From `start` on (wrapping), the first position where `taking` matches the text with `character` put there. */
function positionTaking(
  chars: readonly string[],
  start: number,
  character: string,
  taking: RegExp | undefined,
): number | undefined {
  if (taking === undefined) return undefined;
  for (let step = 0; step < Math.min(chars.length, POSITIONS_TRIED); step++) {
    const position = (start + step) % chars.length;
    if (taking.test(chars.map((char, at) => (at === position ? character : char)).join(''))) return position;
  }
  return undefined;
}

/**
 * The pattern as another engine reads it, as an ECMA-262 regex: `.` as `[^\n]` (Python), and each escape of
 * `widening.escapes` (`\d`, `\w`, `\S`) taking the character too. `undefined` when the pattern has none of
 * them, or the rewrite does not compile.
 */
function widenedRegex(pattern: string, widening: Widening, character: string): RegExp | undefined {
  const extra = `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`;
  let out = '';
  let inClass = false;
  let changed = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) {
      const escape = pattern[index + 1] as string;
      index++;
      if (widening.escapes?.includes(escape) === true) {
        out += inClass ? `\\${escape}${extra}` : `[\\${escape}${extra}]`;
        changed = true;
      } else out += `\\${escape}`;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    if (char === '.' && !inClass && widening.dot === true) {
      out += '[^\\n]';
      changed = true;
    } else out += char;
  }
  return changed ? safeRegex(out) : undefined;
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
