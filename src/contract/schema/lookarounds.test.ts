import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutLookarounds } from './lookarounds.js';

describe('withoutLookarounds', () => {
  it('removes lookahead and lookbehind groups, nested ones and a quantifier on one whole', () => {
    expect(withoutLookarounds('^(?!\\s)[A-Za-z ]{1,30}(?<!\\s)$')).toBe('^[A-Za-z ]{1,30}$');
    expect(withoutLookarounds('^(?=.*[a-z])(?=.*(\\d|_))[a-z0-9_]{3,12}$')).toBe('^[a-z0-9_]{3,12}$');
    expect(withoutLookarounds('^(?!admin$)[a-z]+$')).toBe('^[a-z]+$');
    expect(withoutLookarounds('a(?=b)?c')).toBe('ac');
  });

  it('leaves escapes, classes and other groups alone, and says when there is nothing to remove', () => {
    expect(withoutLookarounds('^\\(?=x[(?=]$')).toBeUndefined();
    expect(withoutLookarounds('^(?<name>[a-z]+)(?:-[a-z]+)*$')).toBeUndefined();
    expect(withoutLookarounds('^[(?!)]x(?!y)$')).toBe('^[(?!)]x$');
  });

  it('matches a superset: every string the pattern matches, the pattern without its lookarounds matches', () => {
    const patterns = ['^(?!\\s)[a-z ]{1,8}(?<!\\s)$', '^(?=.*\\d)[a-z\\d]{2,6}$', '^(?!x)[xyz]*(?<=z)$'];
    for (const source of patterns) {
      const [full, relaxed] = [new RegExp(source, 'u'), new RegExp(withoutLookarounds(source) ?? '', 'u')];
      fc.assert(
        fc.property(
          fc.string({ unit: fc.constantFrom('x', 'y', 'z', 'a', '1', ' ') }),
          (text) => !full.test(text) || relaxed.test(text),
        ),
        { seed: 7, numRuns: 2000 },
      );
    }
  });
});
