import fc from 'fast-check';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { UNIFORM_INT_DRAWS_DIRECTLY, UniformInt } from './uniform-int.js';

describe('UniformInt', () => {
  it("draws from the generator directly with this project's fast-check and pure-rand", () => {
    expect(UNIFORM_INT_DRAWS_DIRECTLY).toBe(true);
  });

  it('draws what nextInt draws for the same range, and leaves the random where nextInt leaves it', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 1, max: 40 }),
        (seed, min, span, draws) => {
          const max = min + span;
          const uniform = new UniformInt(min, max);
          const direct = new fc.Random(xoroshiro128plus(seed));
          const through = new fc.Random(xoroshiro128plus(seed));
          for (let draw = 0; draw < draws; draw++) expect(uniform.draw(direct)).toBe(through.nextInt(min, max));
          expect(direct.nextInt()).toBe(through.nextInt());
        },
      ),
      { numRuns: 1000, seed: 17 },
    );
  });

  it('draws ranges of one and two values as nextInt does', () => {
    for (const [min, max] of [
      [7, 7],
      [0, 1],
      [-1, 1],
    ] as const) {
      const direct = new fc.Random(xoroshiro128plus(3));
      const through = new fc.Random(xoroshiro128plus(3));
      for (let draw = 0; draw < 50; draw++)
        expect(new UniformInt(min, max).draw(direct)).toBe(through.nextInt(min, max));
    }
  });
});
