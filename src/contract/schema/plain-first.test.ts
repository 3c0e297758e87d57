import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseBias, caseRandom } from '../../runner/generate/case-random.js';
import { plainFirst } from './plain-first.js';

/** Upper-case strings, made plain as lower case, whose plain strings shrink by dropping their last character. */
const upper = fc.string({ unit: fc.constantFrom('A', 'B', 'C'), minLength: 2, maxLength: 6 });
const lowered = plainFirst(upper, {
  plainOf: (value) => value.toLowerCase(),
  shrinkPlain: (value, context) =>
    value.length > 1 ? fc.Stream.of(new fc.Value(value.slice(0, -1), [context, value])) : fc.Stream.nil(),
});

/** The first `count` shrinks' values. */
function shrinksOf<T>(arbitrary: fc.Arbitrary<T>, value: fc.Value<T>, count: number): T[] {
  return [...arbitrary.shrink(value.value, value.context).take(count)].map((shrunk) => shrunk.value);
}

describe('plainFirst', () => {
  it('draws what the inner arbitrary draws from the same random', () => {
    for (let index = 0; index < 20; index++) {
      const ours = lowered.generate(caseRandom(3, 'plain-first', index), caseBias(index));
      expect(ours.value).toBe(upper.generate(caseRandom(3, 'plain-first', index), caseBias(index)).value);
    }
  });

  it('offers the plain string first, then the inner shrinks in their order', () => {
    const ours = lowered.generate(caseRandom(5, 'plain-first', 0), undefined);
    const theirs = upper.generate(caseRandom(5, 'plain-first', 0), undefined);
    expect(shrinksOf(lowered, ours, 4)).toEqual([ours.value.toLowerCase(), ...shrinksOf(upper, theirs, 3)]);
  });

  it('shrinks a taken plain string as the candidate says, handing it its own context', () => {
    const ours = lowered.generate(caseRandom(7, 'plain-first', 0), undefined);
    const [plain] = [...lowered.shrink(ours.value, ours.context).take(1)];
    if (plain === undefined) throw new Error('no plain shrink');
    const [shorter] = [...lowered.shrink(plain.value, plain.context).take(2)];
    expect(shorter?.value).toBe(plain.value.slice(0, -1));
    const [shorterStill] = [...lowered.shrink(shorter?.value ?? '', shorter?.context)];
    expect(shorterStill?.value).toBe(plain.value.slice(0, -2));
  });

  it('offers no plain string where the drawn one is already plain', () => {
    const plainAlready = plainFirst(fc.constant('abc'), {
      plainOf: (value) => value,
      shrinkPlain: () => fc.Stream.nil(),
    });
    const drawn = plainAlready.generate(caseRandom(1, 'plain-first', 0), undefined);
    expect(shrinksOf(plainAlready, drawn, 5)).toEqual([]);
  });
});
