import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseBias, caseRandom } from '../../runner/generate/case-random.js';
import { compileSchema } from './index.js';
import { plainFirstMatching, plainMatch } from './plain-matching.js';

/** The counterexample fast-check shrinks to for `passes`, over values of `arbitrary`. */
function counterexample<T>(arbitrary: fc.Arbitrary<T>, passes: (value: T) => boolean, seed: number): T | undefined {
  const result = fc.check(fc.property(arbitrary, passes), { seed, numRuns: 500 });
  return result.counterexample?.[0];
}

/** A string schema's valid values, as the runner draws them. */
function valid(schema: object): fc.Arbitrary<string> {
  return compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a code' }).valid as fc.Arbitrary<string>;
}

describe('plainFirstMatching', () => {
  it('shrinks a pattern without length limits to plain letters where the pattern allows them', () => {
    const code = valid({ type: 'string', pattern: '^[A-Z]{2}-' });
    for (const seed of [1, 42, 1312698176]) {
      // A server cutting the code to 10 characters: fast-check's own shrink ends on "AA-" and 8 spaces.
      expect(counterexample(code, (text) => text.length <= 10, seed)).toBe('AA-aaaaaaaa');
    }
    const digits = valid({ type: 'string', pattern: '^\\d{3}-\\w+$' });
    expect(counterexample(digits, (text) => text.length <= 6, 7)).toBe('000-aaa');
  });

  it('keeps the character a failure needs', () => {
    const note = valid({ type: 'string', pattern: '^[^<>]*$' });
    const found = counterexample(note, (text) => !text.includes('&'), 3);
    expect(found).toContain('&');
    expect(found?.length).toBeLessThanOrEqual(2);
  });

  it('offers only matches of the pattern, lookarounds included', () => {
    const regex = /^(?=.*\d)[A-Za-z\d]{4,}$/u;
    const password = valid({ type: 'string', pattern: regex.source });
    for (let index = 0; index < 30; index++) {
      let current = password.generate(caseRandom(23, 'plain', index), caseBias(index));
      for (let step = 0; step < 20; step++) {
        const candidates = [...password.shrink(current.value, current.context).take(50)];
        for (const candidate of candidates) expect(candidate.value).toMatch(regex);
        const next = candidates[0];
        if (next === undefined) break;
        current = next;
      }
    }
  });

  it('draws what fast-check stringMatching draws from the same random', () => {
    const regex = /^[A-Z]{2}-\w*$/;
    const ours = plainFirstMatching(fc.stringMatching(regex), regex);
    for (let index = 0; index < 50; index++) {
      const bias = caseBias(index);
      const theirs = fc.stringMatching(regex).generate(caseRandom(29, 'draw', index), bias).value;
      expect(ours.generate(caseRandom(29, 'draw', index), bias).value).toBe(theirs);
    }
  });
});

describe('plainMatch', () => {
  it('puts the plainest of a, A, 0 the pattern allows in each place, and nothing where it is already plain', () => {
    expect(plainMatch('QZ-7', /^[A-Z]+-\d$/)).toBe('AA-0');
    expect(plainMatch('x_y', /^\w+$/)).toBe('aaa');
    expect(plainMatch('aaa', /^\w+$/)).toBeUndefined();
    expect(plainMatch('<>', /^[<>]+$/)).toBeUndefined();
  });
});
