import { describe, expect, it } from 'vitest';
import { compileSchema, UnsupportedSchemaError } from './index.js';
import { foreignRegexHint } from './foreign-regex.js';

function refusal(pattern: string): string {
  try {
    compileSchema({ type: 'string', pattern }, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return error.message;
    throw error;
  }
  throw new Error(`${pattern} was compiled`);
}

describe('a pattern in another language than ECMA-262', () => {
  it.each([
    ['(?i)^[a-z]+$', 'ECMA-262 has none, so spell the cases out'],
    ['^(?P<name>[a-z]+)$', 'ECMA-262 writes (?<name>…)'],
    ['\\A[a-z]+\\z', 'ECMA-262 writes ^ and $'],
    ['^[[:alpha:]]+$', 'POSIX class'],
    ['^[a-z&&[^q]]+$', 'class intersection'],
    ['^\\h+$', 'Java or PCRE escapes'],
    ['^[a-z]++$', 'possessive quantifier'],
    ['^[a-z]+$(?#why)', 'comment'],
    ['^[\\p{L}--[a-z]]+$', "ECMA-262's v flag"],
  ])('is refused with what %s borrows and how ECMA-262 writes it', (pattern, words) => {
    const message = refusal(pattern);
    expect(message).toContain('not a valid regular expression');
    expect(message).toContain(words);
  });

  it.each([
    ['^\\p{IsAlphabetic}+$', '\\p{IsAlphabetic}, \\p{InGreek} and \\p{javaLowerCase} are Java'],
    ['^\\p{javaLowerCase}+$', '\\p{IsAlphabetic}, \\p{InGreek} and \\p{javaLowerCase} are Java'],
    ['^\\x{e9}+$', 'ECMA-262 writes \\u{e9}'],
    ['^\\p{Punct}+$', "Java's POSIX class"],
  ])('names what %s borrows, not a possessive quantifier its closing brace and + look like', (pattern, words) => {
    // Before: '\\p{IsAlphabetic}+' and '\\x{e9}+' were said to hold 'a possessive quantifier (a++)'.
    const message = refusal(pattern);
    expect(message).toContain(words);
    expect(message).not.toContain('possessive');
  });

  it.each([
    ['^([a-z]+)-\\1$', 'back-reference'],
    ['^(?<w>[a-z]+)-\\k<w>$', 'back-reference'],
    ['^\\bfern\\b$', 'word boundary (\\b)'],
  ])(
    'refuses %s, an ECMA-262 pattern values cannot be built from, in words and with what to write',
    (pattern, words) => {
      // Before: fast-check's 'Backreference nodes not implemented yet!' and 'Meta character \\b not implemented yet!'.
      const message = refusal(pattern);
      expect(message).toContain(words);
      expect(message).not.toContain('not implemented');
    },
  );

  it('has no hint for an ECMA-262 pattern or an error of its own', () => {
    expect(foreignRegexHint('^[A-Za-z]+$')).toBeUndefined();
    expect(foreignRegexHint('^(?<name>[a-z]+)$')).toBeUndefined();
    expect(foreignRegexHint('^\\p{L}+\\u{e9}+$')).toBeUndefined();
    expect(refusal('^[a-z$')).not.toContain(';');
  });
});
