import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseBias, caseRandom } from '../../runner/generate/case-random.js';
import { codePointArbitrary, codePointString, composedCodePointArbitrary } from './text.js';

/** The first shrinks of a value, depth first along the first candidate, as values. */
function shrinkPath(arbitrary: fc.Arbitrary<string>, value: fc.Value<string>, steps: number): string[][] {
  const path: string[][] = [];
  let current: fc.Value<string> | undefined = value;
  for (let step = 0; step < steps && current !== undefined; step++) {
    const candidates: fc.Value<string>[] = [...arbitrary.shrink(current.value, current.context).take(8)];
    path.push(candidates.map((candidate) => candidate.value));
    current = candidates[candidates.length - 1];
  }
  return path;
}

describe('codePointArbitrary', () => {
  const direct = (unit: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.string({ unit, maxLength: 300, size: 'max' });

  it('draws the values and consumes the random exactly as the composed oneof/map unit does', () => {
    for (let index = 0; index < 200; index++) {
      const fast = caseRandom(3, 'text', index);
      const composed = caseRandom(3, 'text', index);
      const bias = caseBias(index);
      expect(direct(codePointArbitrary).generate(fast, bias).value).toBe(
        direct(composedCodePointArbitrary).generate(composed, bias).value,
      );
      expect(fast.nextInt(0, 1_000_000)).toBe(composed.nextInt(0, 1_000_000));
    }
  });

  it('shrinks along the same path as the composed unit', () => {
    for (let index = 0; index < 20; index++) {
      const strings = (unit: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.string({ unit, maxLength: 12 });
      const fastArbitrary = strings(codePointArbitrary);
      const composedArbitrary = strings(composedCodePointArbitrary);
      const fast = fastArbitrary.generate(caseRandom(5, 'shrink', index), caseBias(index));
      const composed = composedArbitrary.generate(caseRandom(5, 'shrink', index), caseBias(index));
      expect(shrinkPath(fastArbitrary, fast, 6)).toEqual(shrinkPath(composedArbitrary, composed, 6));
    }
  });

  it('shrinks a value without a context as the composed unit does', () => {
    expect([...codePointArbitrary.shrink('é', undefined).map((value) => value.value)]).toEqual([
      ...composedCodePointArbitrary.shrink('é', undefined).map((value) => value.value),
    ]);
    expect(codePointArbitrary.canShrinkWithoutContext('🌱')).toBe(
      composedCodePointArbitrary.canShrinkWithoutContext('🌱'),
    );
  });
});

describe('codePointString', () => {
  const constraints = [
    { maxLength: 2000, size: 'max' as const },
    { minLength: 3, maxLength: 40 },
    { minLength: 5, maxLength: 5 },
    { maxLength: 0 },
    // Longer than the unit buffer starts and than one String.fromCharCode call takes.
    { minLength: 4500, maxLength: 6000 },
  ];

  it('draws the values and consumes the random exactly as fast-check strings of the unit do', () => {
    for (const constraint of constraints) {
      const fastArbitrary = codePointString(constraint);
      const composedArbitrary = fc.string({ ...constraint, unit: codePointArbitrary });
      for (let index = 0; index < 100; index++) {
        const fast = caseRandom(11, JSON.stringify(constraint), index);
        const composed = caseRandom(11, JSON.stringify(constraint), index);
        const bias = caseBias(index);
        expect(fastArbitrary.generate(fast, bias).value).toBe(composedArbitrary.generate(composed, bias).value);
        expect(fast.nextInt(0, 1_000_000)).toBe(composed.nextInt(0, 1_000_000));
      }
    }
  });

  it('shrinks along the same path as fast-check strings of the unit', () => {
    const fastArbitrary = codePointString({ minLength: 2, maxLength: 12 });
    const composedArbitrary = fc.string({ minLength: 2, maxLength: 12, unit: codePointArbitrary });
    for (let index = 0; index < 20; index++) {
      const fast = fastArbitrary.generate(caseRandom(13, 'shrink', index), caseBias(index));
      const composed = composedArbitrary.generate(caseRandom(13, 'shrink', index), caseBias(index));
      expect(shrinkPath(fastArbitrary, fast, 6)).toEqual(shrinkPath(composedArbitrary, composed, 6));
    }
  });
});
