import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { boundedFilter } from './bounded-filter.js';
import { FORMAT_SHAPES } from './formats.js';
import { PatternLanguage } from './pattern-strings.js';
import { ASSIGNED_IN_UNICODE_13 } from './unicode-13.js';
import { codePointLength } from './text.js';
import { compileSchemaCheck } from '../schemas.js';
import { compileSchema, UnsupportedSchemaError } from './index.js';

/** Pattern shapes vendors write: classes with quantifiers, `{n,}`, `+`, `*`, alternation, literals, escapes. */
const SHAPES = [
  '^[A-Z]{3}-[0-9]{2,}$',
  '^[A-Z]{3}$',
  '^[a-z]+(-[a-z]+)*$',
  '^[A-Z][a-z]+( [a-z]+)*$',
  '^(cactus|fern|palm)-\\d+$',
  '^\\w+@\\w+\\.(com|org)$',
  'ab+c',
  '[0-9]',
  '^x',
  'é$',
  '^(?:[a-f0-9]{2}:){2,5}[a-f0-9]{2}$',
  '^\\S+\\s\\S+$',
  '^[^\\s]*$',
  '^.{2,4}$',
  '^\\p{Lu}\\p{Ll}*$',
  '^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$',
  '^a?b?c?$',
  '^$',
  '^(a|)+$',
  '^[\\u{1F331}-\\u{1F335}]+$',
];

/** Pieces a random pattern is made of. */
const PIECE = fc.constantFrom(
  '[A-Z]',
  '[a-z0-9]',
  '\\d',
  '\\w',
  '.',
  '-',
  'x',
  '(ab|c)',
  '(?:[a-c]{2}|z)',
  '[^a-z]',
  '\\.',
);
const QUANTIFIER = fc.constantFrom('', '', '?', '*', '+', '{2}', '{1,3}', '{2,}', '{0,4}');
const RANDOM_PATTERN = fc
  .tuple(
    fc.boolean(),
    fc.array(
      fc.tuple(PIECE, QUANTIFIER).map(([piece, quantifier]) => piece + quantifier),
      { minLength: 1, maxLength: 5 },
    ),
    fc.boolean(),
  )
  .map(([start, pieces, end]) => `${start ? '^' : ''}${pieces.join('')}${end ? '$' : ''}`);

/** Every built string matches and has the asked length; the lengths said missing have no match fast-check finds. */
function expectLawful(pattern: string, longest: number, seed: number): void {
  const regex = new RegExp(pattern, 'u');
  const language = PatternLanguage.of(pattern);
  expect(language, pattern).toBeDefined();
  const lengths = (language as PatternLanguage).lengthsWithin(0, longest);
  for (const length of lengths) {
    for (const text of fc.sample((language as PatternLanguage).ofLengths([length]), { numRuns: 5, seed })) {
      expect(regex.test(text), `${pattern} ${JSON.stringify(text)}`).toBe(true);
      expect(codePointLength(text), `${pattern} ${JSON.stringify(text)}`).toBe(length);
    }
  }
  const found = fc.sample(fc.stringMatching(regex, { maxLength: longest }), { numRuns: 100, seed });
  for (const text of found) expect(lengths, `${pattern} ${JSON.stringify(text)}`).toContain(codePointLength(text));
}

describe('strings of a chosen length matching a pattern', () => {
  test.each(SHAPES)('%s: every built string matches at its length; no other length has a match', (pattern) => {
    expectLawful(pattern, 24, 1);
  });

  test('random patterns of classes, quantifiers, groups and alternation obey the same law', () => {
    fc.assert(
      fc.property(RANDOM_PATTERN, fc.integer(), (pattern, seed) => expectLawful(pattern, 16, seed)),
      { numRuns: 60, seed: 9 },
    );
  });

  test('a length the pattern cannot have is absent, not searched for', () => {
    const language = PatternLanguage.of('^[A-Z]{3}$') as PatternLanguage;
    expect(language.lengthsWithin(0, 10)).toEqual([3]);
    expect((PatternLanguage.of('^[A-Z]{3}-[0-9]{2,}$') as PatternLanguage).lengthsWithin(9, 10)).toEqual([9, 10]);
  });

  test('look-arounds, back-references and word boundaries are outside the shape', () => {
    for (const pattern of ['(?=a)a', '(a)\\1', '\\bword\\b', 'a^b'])
      expect(PatternLanguage.of(pattern)).toBeUndefined();
  });

  test('the same choices give the same string, and a shrunk one still matches at its length', () => {
    const language = PatternLanguage.of('^[a-z]+(-[a-z]+)*$') as PatternLanguage;
    const strings = language.ofLengths([12]);
    expect(fc.sample(strings, { numRuns: 10, seed: 4 })).toEqual(fc.sample(strings, { numRuns: 10, seed: 4 }));
    const result = fc.check(
      fc.property(strings, (text) => !text.includes('-')),
      { seed: 4 },
    );
    const [shrunk] = result.counterexample ?? [''];
    expect(/^[a-z]+(-[a-z]+)*$/u.test(shrunk) && codePointLength(shrunk) === 12).toBe(true);
  });
});

describe('letters of a \\p{…} class', () => {
  const knownToUnicode13 = (code: number): boolean => {
    for (let at = 0; at < ASSIGNED_IN_UNICODE_13.length; at += 2)
      if (code >= ASSIGNED_IN_UNICODE_13[at]! && code <= ASSIGNED_IN_UNICODE_13[at + 1]!) return true;
    return false;
  };

  // Python 3.11, Java 17 and Go 1.20 read \p{L} by older Unicode than Node: U+13460 (Egyptian hieroglyph, 16.0)
  // is a letter to Node and none to them, so a correct server of theirs refused a name built of it.
  test.each(['^\\p{L}[\\p{L} ]*$', '^[\\p{Lu}\\p{Nd}]+$', '^[^\\p{L}]+$'])(
    '%s: every code point drawn is one Unicode 13 assigned, and every string matches as Node reads it',
    (pattern) => {
      const strings = (PatternLanguage.of(pattern) as PatternLanguage).ofLengths([8, 16, 32]);
      for (const text of fc.sample(strings, { numRuns: 300, seed: 13 })) {
        expect(new RegExp(pattern, 'u').test(text)).toBe(true);
        expect([...text].filter((char) => !knownToUnicode13(char.codePointAt(0)!))).toEqual([]);
      }
    },
  );
});

describe('random patterns with length limits, compiled', () => {
  test('valid values pass; each length edge a match has is a variant, lawful; an edge no match has is none', () => {
    const limits = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 10 }));
    fc.assert(
      fc.property(RANDOM_PATTERN, limits, fc.integer(), (pattern, [minLength, spread], seed) => {
        const maxLength = minLength + spread;
        const schema = { type: 'string', pattern, minLength, maxLength };
        let compiled;
        try {
          compiled = compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a code' });
        } catch (error) {
          // Refused only when no match has an allowed length.
          expect(error).toBeInstanceOf(UnsupportedSchemaError);
          expect((PatternLanguage.of(pattern) as PatternLanguage).lengthsWithin(minLength, maxLength)).toEqual([]);
          return;
        }
        for (const value of fc.sample(compiled.valid, { numRuns: 10, seed })) expect(compiled.check(value)).toEqual([]);
        const language = PatternLanguage.of(pattern) as PatternLanguage;
        const has = (length: number): boolean => length >= 0 && language.lengthsWithin(length, length).length > 0;
        const edges = [...new Set([...compiled.boundaries, ...compiled.invalid])].filter((variant) =>
          /Length$/.test(variant.keyword),
        );
        const named = edges.map((variant) => variant.label.replace(/^the body /, ''));
        const expected = [
          has(maxLength) && `exactly maxLength ${maxLength} code points long`,
          has(maxLength + 1) && `one code point longer than maxLength ${maxLength}`,
          minLength > 0 && has(minLength) && `exactly minLength ${minLength} code points long`,
          minLength > 0 && has(minLength - 1) && `one code point shorter than minLength ${minLength}`,
        ].filter((label): label is string => label !== false);
        expect(new Set(named), pattern).toEqual(new Set(expected));
        for (const variant of edges) {
          for (const value of fc.sample(variant.arbitrary, { numRuns: 3, seed })) {
            const found = compiled.check(value).map((violation) => violation.keyword);
            expect(found, `${pattern} ${variant.label}`).toEqual(variant.valid ? [] : [variant.keyword]);
          }
        }
      }),
      { numRuns: 80, seed: 12 },
    );
  });
});

describe('format shapes', () => {
  test.each(Object.entries(FORMAT_SHAPES))(
    'every string of the %s shape is valid under the format',
    (format, shape) => {
      const check = compileSchemaCheck({ type: 'string', format }, 'a format');
      const language = PatternLanguage.of(shape.pattern) as PatternLanguage;
      const lengths = language.lengthsWithin(0, Math.min(60, shape.longest ?? 60));
      expect(lengths.length).toBeGreaterThan(0);
      for (const text of fc.sample(language.ofLengths(lengths), { numRuns: 200, seed: 3 }))
        expect(check(text), JSON.stringify(text)).toEqual([]);
    },
  );
});

describe('a bounded filter', () => {
  test('draws at most its number of attempts, then answers the fallback', () => {
    let draws = 0;
    const never = boundedFilter(
      fc.integer().map((value) => (draws++, value)),
      () => false,
      42,
      7,
    );
    expect(fc.sample(never, { numRuns: 3, seed: 1 })).toEqual([42, 42, 42]);
    expect(draws).toBe(21);
  });

  test('keeps values that pass, and shrinks only to values that pass', () => {
    const even = boundedFilter(fc.integer({ min: 0, max: 1000 }), (value) => value % 2 === 0, 0, 50);
    expect(fc.sample(even, { numRuns: 50, seed: 2 }).every((value) => value % 2 === 0)).toBe(true);
    const result = fc.check(
      fc.property(even, (value) => value < 10),
      { seed: 2 },
    );
    const [shrunk] = result.counterexample ?? [1];
    expect(shrunk % 2 === 0 && shrunk >= 10).toBe(true);
    const filtered = fc.integer({ min: 0, max: 1000 }).filter((value) => value % 2 === 0);
    expect(
      fc.check(
        fc.property(filtered, (value) => value < 10),
        { seed: 2 },
      ).counterexample,
    ).toEqual([shrunk]);
  });
});

describe('shrinking pattern strings', () => {
  test('shrinks the length first and keeps the characters: "A" and trailing spaces shrink to "A "', () => {
    const language = PatternLanguage.of('^[A-Z][A-Za-z ]*$');
    const strings = language?.ofLengths(language.lengthsWithin(1, 80)) ?? fc.constant('');
    const result = fc.check(
      fc.property(strings, (text) => !text.endsWith(' ')),
      { seed: 1, numRuns: 500 },
    );
    expect(result.counterexample).toEqual(['A ']);
  });

  /** The counterexample fast-check shrinks to, for strings of a pattern within lengths. */
  const shrunk = (pattern: string, max: number, fails: (text: string) => boolean, seed: number): unknown => {
    const language = PatternLanguage.of(pattern);
    if (language === undefined) throw new Error(`no language for ${pattern}`);
    const strings = language.ofLengths(language.lengthsWithin(1, max));
    return fc.check(
      fc.property(strings, (text) => !fails(text)),
      { seed, numRuns: 500 },
    ).counterexample?.[0];
  };

  test('shrinks to the plainest match where the characters do not matter: a cut at 8 shows "aaaaaaaaa"', () => {
    for (const seed of [1, 2, 3]) {
      expect(shrunk('^[a-z0-9_]+$', 40, (text) => text.length > 8, seed)).toBe('aaaaaaaaa');
      expect(shrunk('^\\p{L}+$', 40, (text) => codePointLength(text) > 8, seed)).toBe('aaaaaaaaa');
      expect(shrunk('^[A-Z]{3}-[0-9]{4}$', 40, () => true, seed)).toBe('AAA-0000');
    }
  });

  test('keeps the character a failure needs when the plain match does not fail', () => {
    for (const seed of [1, 2, 3]) expect(shrunk('^[a-z0-9_]+$', 40, (text) => text.includes('_'), seed)).toMatch(/_/);
  });
});
